"""out= tensors for the differential tester's generator (tools/diffgen.py), as users pass them.

A call of a function that takes ``out`` (torch.*, torch.linalg.*, torch.special.*, F.*) now and then
gets one: the generator first runs the call without it under PyTorch (its random stream put back, so
seeded programs stay what they are) to learn the result's shapes and dtypes, then makes for each
result tensor an out of

- the right shape and dtype (random values, so an element the op does not write shows);
- no elements (resized without a warning) or another shape (resized with PyTorch's deprecation warning);
- another dtype (a cast where the op allows it, else PyTorch's "can't be cast" error);
- a non-contiguous view of a variable of its own (written through, or restrided when resized);
- one of the call's own inputs of the result's shape and dtype (an alias: ``torch.add(x, y, out=x)``, or
  an overlap error).

A call whose inputs require grad runs under ``torch.no_grad()`` most of the time (out= refuses autograd
otherwise, which the rest still tests). The result is bound to a variable most of the time: the tester
then checks it is the out tensor itself (tools/difftest.py, ``same_as``).
"""

from __future__ import annotations

import re
import warnings

#: The share of the calls of a function that takes out= that pass one.
OUT_SHARE = 0.3
_NAME = re.compile(r"(?<![\w.'\"])([A-Za-z_]\w*)(?![\w(])")
_OTHER_DTYPES = ["float32", "float64", "int64", "int32", "bool", "float16", "uint8"]


#: torch.* functions whose out= PyTorch refuses (a TypeError, as agrad's), though agrad's signature names it
NO_OUT = {"relu": "torch.relu has no out overload", "std_mean": "std_mean has no out overload",
          "var_mean": "var_mean has no out overload"}


def never_reason(name: str) -> str | None:
    """Why out= of the torch/F/linalg/special form of ``name`` is not drawn in statements PyTorch runs."""
    if name.endswith("_"):
        return "an in-place function (torch.abs_) takes no out= in PyTorch"
    return NO_OUT.get(name)


def takes_out(name: str, form: str, sig) -> bool:
    return form != "method" and not name.endswith("_") and "out" in sig.parameters


def _result(gen, expr: str):
    """What ``expr`` gives under PyTorch (None when it raises), without drawing from its random stream."""
    torch = gen.torch
    state = torch.get_rng_state()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(expr, dict(gen.ns))  # noqa: S307 - the generator's own statement
    except Exception:  # noqa: BLE001 - no result to fit an out to
        return None
    finally:
        torch.set_rng_state(state)


def _inputs(gen, call_args: str) -> list[str]:
    """The live tensor variables a call's arguments name."""
    found = []
    for name in _NAME.findall(call_args):
        if name in gen.ns and isinstance(gen.ns[name], gen.torch.Tensor) and name not in found:
            found.append(name)
    return found


def _one(gen, t, inputs: list[str]) -> str | None:
    """An out for a result like ``t``: a variable name (made here), or None when none could be made."""
    rng = gen.rng
    shape, dtype = tuple(t.shape), str(t.dtype).split(".")[-1]
    kind = rng.random()
    fits = [v for v in inputs if tuple(gen.ns[v].shape) == shape and gen.ns[v].dtype == t.dtype]
    if kind < 0.1 and fits:  # one of the call's inputs, of the result's shape and dtype (no resize: PyTorch
        return rng.choice(fits)  # resizes an input under its kernel, which then reads it as each kernel does)
    if kind < 0.25:
        expr = f"torch.zeros(0, dtype=torch.{dtype})"
    elif kind < 0.35:
        other = rng.choice([(t.numel() + 1,), shape[1:], (1,), shape + (1,)])
        expr = gen.literal(tuple(other), dtype)
    elif kind < 0.47:
        expr = gen.literal(shape, rng.choice([d for d in _OTHER_DTYPES if d != dtype]))
    elif kind < 0.6 and shape:  # a view of a variable of its own
        base = gen.fresh("b")
        if not gen.try_add(f"{base} = {gen.literal(shape[:-1] + (2 * shape[-1],), dtype)}", keep_error=0.0):
            return None
        expr = f"{base}[..., ::2]" if rng.random() < 0.5 else f"{base}[..., 1::2]"
        if len(shape) >= 2 and rng.random() < 0.5:
            expr = f"{base}.view({', '.join(map(str, shape[:-2] + (shape[-1], 2 * shape[-2])))})[..., ::2].mT"
    else:
        expr = gen.literal(shape, dtype)
    out = gen.fresh("o")
    return out if gen.try_add(f"{out} = {expr}", keep_error=0.0) else None


def draw(gen, callee: str, call_args: str) -> bool:
    """One call ``callee(call_args, out=...)`` added to the program: False when no out could be made
    (the caller then adds the call without one). ``gen.last_ran`` says whether PyTorch ran it."""
    rng = gen.rng
    res = _result(gen, f"{callee}({call_args})")
    torch = gen.torch
    if isinstance(res, torch.Tensor):
        results, single = [res], True
    elif isinstance(res, tuple) and res and all(isinstance(r, torch.Tensor) for r in res):
        results, single = list(res), False
    else:
        return False
    inputs = _inputs(gen, call_args)
    outs = []
    for t in results:
        o = _one(gen, t, inputs)
        if o is None:
            return False
        outs.append(o)
    out = outs[0] if single else f"({', '.join(outs)})"
    call = f"{callee}({call_args}{', ' if call_args else ''}out={out})"
    stmt = f"{gen.fresh('r')} = {call}" if rng.random() < 0.8 else call
    grads = any(gen.ns[name].requires_grad for name in inputs + outs if name in gen.ns)
    if grads and rng.random() < 0.85:
        stmt = f"with torch.no_grad():\n    {stmt}"
    gen.try_add(stmt)
    gen.last_params.append("out")
    return True
