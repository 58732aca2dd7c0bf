"""Write src/agrad/ops/_argcheck_table.py: which arguments PyTorch requires to be Tensors, and its TypeError.

Usage: python tools/gen_arg_checks.py

For every public function of the op table (torch.*, Tensor methods, F.*,
torch.linalg.*) and every parameter that takes a tensor, PyTorch 2.13 is
called with that argument replaced by a Python float (the arguments before
it are tensors). Where PyTorch refuses, the table records the parameter and
the message agrad gives for a wrong type: PyTorch's own text where its
argument parser names the argument (``relu(): argument 'input' (position 1)
must be Tensor, not float``), PyTorch's AttributeError where a Python-level
nn.functional reads an attribute of it first (``'float' object has no attribute
'size'``: the message starts "AttributeError: "), else the parser's form with
agrad's parameter name (where PyTorch fails deeper or lists its overloads).
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import inspect
import re
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

import torch  # noqa: E402

import diffgen  # noqa: E402
from agrad.ops import FUNCTIONAL, FUNCTIONS, LINALG, METHODS  # noqa: E402

OUT = ROOT / "src" / "agrad" / "ops" / "_argcheck_table.py"
TENSOR_PARAMS = (diffgen.PRIMARY | diffgen.SECOND | {"mask", "condition", "index", "indices", "mat", "vec"}) \
    - {"weight_scalar"}
PARSER = re.compile(r"^(\w+)\(\): argument '(\w+)' \(position (\d+)\) must be (Tensor|tuple of Tensors), not float$")
ATTRIBUTE = re.compile(r"^AttributeError: 'float' object has no attribute '(\w+)'$")
# nn.functionals whose first attribute read depends on the other arguments (F.softmax: input.dim() without
# a dim, input.softmax(dim) with one): the parser's form stands
VARYING_ATTRIBUTE = {"softmax", "softmin", "log_softmax"}
# nn.functionals that check their arguments in PyTorch's order themselves (F.embedding: weight.size(0) with a
# padding_idx, input.contiguous() with a max_norm, then torch.embedding's parser, weight before indices)
# (F.kl_div: its 'mean' warning and the reduction's ValueError, then torch.kl_div's parser)
OWN_ORDER = {"F.embedding", "F.kl_div",
             "F.margin_ranking_loss",  # (input1.dim() != input2.dim() decides whether target's .dim() or .size() fails)
             "F.binary_cross_entropy",  # (target.size() != input.size() before weight.size())
             "F.binary_cross_entropy_with_logits",  # (its size check, then the parser's of weight and pos_weight)
             "F.cross_entropy", "F.nll_loss",  # (the reduction's ValueError, then the parser's of every argument)
             "F.cosine_embedding_loss", "F.hinge_embedding_loss", "F.poisson_nll_loss",  # (the same)
             "method.resize_as"}  # (its deprecation warning comes before the argument's AttributeError)
ELEMENT = re.compile(r"^(expected Tensor as element )1( in argument \d+, but got )float$")
SKIP = diffgen.SKIP | {"tensor", "as_tensor", "from_numpy", "broadcast_shapes", "pow", "where", "xlogy",
                       "float_power", "full_like", "result_type", "can_cast", "promote_types",
                       "tensordot",  # (its Python front parses dims before it reads a or b: agrad does the same)
                       "set_"}  # (a Tensor or a storage: ops/storage.py gives the parser's message itself)


def torch_callable(form: str, name: str):
    if form == "torch":
        return getattr(torch, name, None)
    if form == "F":
        return getattr(torch.nn.functional, name, None)
    if form == "linalg":
        return getattr(torch.linalg, name, None)
    return getattr(torch.ones(2, 2), name, None)


def probe(fn, args) -> str | None:
    """PyTorch's error text when called with ``args``, or None when it accepts the types."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*args)
    except (TypeError, AttributeError) as e:
        return f"{type(e).__name__}: {e}"
    except Exception:  # noqa: BLE001 - a value/shape error: the types were accepted
        return None
    return None


def filler(p):
    """A value of the right type for a required non-tensor parameter."""
    if p.name in diffgen.DIMS:
        return 0
    if p.name in diffgen.BOOLS:
        return False
    if p.name in diffgen.FLOATS:
        return 0.5
    if p.name in ("size", "shape", "sizes", "dims", "normalized_shape", "pad"):
        return (2, 2) if p.name != "pad" else (1, 1)
    if p.name == "equation":
        return "ij->ji"
    if p.name in ("tensors", "operands"):
        return [torch.ones(2, 2)]
    return 1


def checks_for(form: str, name: str, agrad_fn) -> list:
    fn = torch_callable(form, name)
    if fn is None:
        return []
    try:
        params = list(inspect.signature(agrad_fn).parameters.values())
    except (TypeError, ValueError):
        return []
    if form == "method":
        params = params[1:]
    usable = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = 0
    while required < len(usable) and usable[required].default is usable[required].empty:
        required += 1
    # the shortest call of the right types PyTorch accepts (some require what agrad defaults, e.g. dim)
    shape_tail = [[]] + ([[2, 2], [0, 1]] if any(p.kind is p.VAR_POSITIONAL for p in params) else [])
    for extra, tail in [(e, t) for t in shape_tail for e in range(0, 3)]:
        positional = usable[: required + extra]
        args = [torch.ones(2, 2) if p.name in TENSOR_PARAMS else filler(p) for p in positional]
        if probe(fn, args + tail) is None:
            break
    else:
        return []  # no call of the right types found: leave the function unchecked
    for p in usable[len(positional):] if not tail else ():  # optional tensors that follow (F.linear's bias)
        if p.name not in TENSOR_PARAMS or probe(fn, args + [torch.ones(2, 2)]) is not None:
            break
        positional.append(p)
        args = args + [torch.ones(2, 2)]
    out = []
    for i, p in enumerate(positional):
        if p.name in ("tensors", "operands"):
            error = probe(fn, args[:i] + [1.5] + args[i + 1:])
            element = probe(fn, args[:i] + [[torch.ones(2, 2), 1.5]] + args[i + 1:])
            m = ELEMENT.match(element.split(": ", 1)[1]) if element else None
            if error and m:
                message = _message(error, name, p.name, i, "tuple of Tensors")
                out.append((i, p.name, "tensors", message, f"{m.group(1)}{{}}{m.group(2)}{{}}"))
            continue
        if p.name not in TENSOR_PARAMS:
            continue
        error = probe(fn, args[:i] + [1.5] + args[i + 1:] + tail)
        if error is not None:
            out.append((i, p.name, "optional" if p.default is not p.empty else "tensor",
                        _message(error, name, p.name, i, "Tensor"), None))
    rest = [p for p in params if p.kind is p.VAR_POSITIONAL and p.name in ("tensors", "operands")]
    if rest and len(positional) == len(usable):
        i = len(positional)
        lead = args if rest[0].name == "tensors" else ["i,i->"]
        element = probe(fn, lead + [torch.ones(2), 1.5])
        m = ELEMENT.match(element.split(": ", 1)[1]) if element else None
        if m:
            out.append((len(lead), rest[0].name, "vararg", None, f"{m.group(1)}{{}}{m.group(2)}{{}}"))
    return out


def _message(error: str, name: str, param: str, i: int, what: str) -> str:
    m = PARSER.match(error.split(": ", 1)[1])
    if m:
        return f"{m.group(1)}(): argument '{m.group(2)}' (position {m.group(3)}) must be {m.group(4)}, not {{}}"
    m = ATTRIBUTE.match(error)
    if m and name not in VARYING_ATTRIBUTE:  # a Python-level nn.functional reads an attribute of it first
        # (F.mse_loss: target.size())
        return f"AttributeError: '{{}}' object has no attribute '{m.group(1)}'"
    return f"{name}(): argument '{param}' (position {i + 1}) must be {what}, not {{}}"


def main() -> int:
    table = {}
    for form, names in (("torch", FUNCTIONS), ("method", METHODS), ("F", FUNCTIONAL), ("linalg", LINALG)):
        for name, agrad_fn in sorted(names.items()):
            if name in SKIP or f"{form}.{name}" in OWN_ORDER or name.startswith("_") or inspect.isclass(agrad_fn):
                continue
            found = checks_for(form, name, agrad_fn)
            if found:
                table[f"{form}.{name}"] = tuple(found)
    text = (
        '"""Generated by tools/gen_arg_checks.py from PyTorch 2.13: do not edit.\n\n'
        "``\"<form>.<name>\": ((index, parameter, kind, message, element message), ...)``:\n"
        "the parameters PyTorch requires to be Tensors (kind tensor, optional: None\n"
        "allowed, tensors: a sequence of Tensors, vararg: the remaining arguments are\n"
        "Tensors) and its TypeError texts. See agrad/ops/_argcheck.py.\n"
        '"""\n\n'
        "TABLE = {\n" + "".join(f"    {key!r}: {value!r},\n" for key, value in sorted(table.items())) + "}\n"
    )
    OUT.write_text(text)
    print(f"wrote {len(table)} functions to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
