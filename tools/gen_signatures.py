"""Write src/agrad/ops/_signature_table.py: PyTorch's Python signatures of the op table, for its parser errors.

Usage: python tools/gen_signatures.py

PyTorch checks the arguments of its built-in functions against their Python
signatures before anything else, and its TypeErrors (``lerp_() received an
invalid combination of arguments - got (float, float), but expected one of:
...``, ``addmm_(): argument 'mat2' (position 2) must be Tensor, not int``,
``softmax() missing 1 required positional arguments: "dim"``) come from that
parser (torch/csrc/utils/python_arg_parser.cpp, invalid_arguments.cpp).
agrad/ops/_pyargs.py gives the same errors from this table:

* a function with several visible signatures lists them all when called with
  40 arguments of a foreign type: the table keeps that list;
* a function with one signature fails on the first argument of a wrong type:
  calling it with an ``object()`` at each position in turn (valid values
  before it) names each positional parameter and its type, until PyTorch says
  how many positional arguments it takes; the required ones are those its
  "missing ... required positional arguments" message names.

Python-level functions (most of nn.functional) have no such parser and are left out.
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

import torch  # noqa: E402

from agrad.ops import FUNCTIONAL, FUNCTIONS, LINALG, METHODS, SPECIAL  # noqa: E402

OUT = ROOT / "src" / "agrad" / "ops" / "_signature_table.py"  # torch., F. and linalg. functions
OUT_METHODS = ROOT / "src" / "agrad" / "ops" / "_signature_table_methods.py"  # Tensor methods
MANY = re.compile(r"^(\w+)\(\) received an invalid combination of arguments - got \((?:object, )*object\), "
                  r"but expected (one of:\n(?:.*\n)+|\(.*\))$", re.S)
WRONG = re.compile(r"^(\w+)\(\): argument '(\w+)' \(position (\d+)\) must be (.+), not object$")
TAKES = re.compile(r"^(\w+)\(\) takes (?:(\d+)|from (\d+) to (\d+)) positional arguments? but \d+ (?:were|was) given$")
KEYWORD = re.compile(r"^(\w+)\(\): argument '(\w+)' must be (.+), not object$")
NOARGS = re.compile(r"^((?:Tensor|TensorBase)\.\w+)\(\) takes no arguments \(1 given\)$")
MISSING = re.compile(r'^(\w+)\(\) missing \d+ required positional arguments?: (.*)$')
SKIP = {"tensor", "as_tensor", "from_numpy", "set_default_dtype", "manual_seed", "seed", "set_rng_state"}


def filler(type_name: str):
    return {"Tensor": torch.ones(2, 2), "Number": 1, "int": 0, "float": 0.5, "bool": False, "str": "mean",
            "tuple of ints": (1,), "tuple of Tensors": [torch.ones(2, 2)], "torch.dtype": torch.float32,
            "torch.layout": torch.strided, "torch.device": "cpu", "torch.memory_format": torch.contiguous_format,
            "torch.Generator": torch.Generator()}.get(type_name, object())


def call(fn, args) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*args)
    except TypeError as e:
        return str(e)
    except Exception:  # noqa: BLE001 - the arguments parsed
        return None
    return None


def call_kw(fn, args, kwargs) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*args, **kwargs)
    except TypeError as e:
        return str(e)
    except Exception:  # noqa: BLE001
        return None
    return None


def keywords(fn, params, required, names) -> tuple:
    """The keyword-only parameters among agrad's parameter ``names``: ((param, type), ...)."""
    args = [filler(t) for _, t in params[:required]]
    out = []
    for name in names:
        if name in {p for p, _ in params}:
            continue
        m = KEYWORD.match(call_kw(fn, args, {name: object()}) or "")
        if m and m.group(2) == name:
            out.append((name, m.group(3)))
    return tuple(out)


def single(fn) -> tuple | None:
    """(name, [(param, type)], required count, most positional) of a one-signature function, or None."""
    found = call(fn, [])
    m = MISSING.match(found or "")
    required = len(re.findall(r'"\w+"', m.group(2))) if m else 0
    name = m.group(1) if m else None
    params = []
    for _ in range(20):
        found = call(fn, [filler(t) for _, t in params] + [object()])
        w = WRONG.match(found or "")
        if w and int(w.group(3)) == len(params) + 1:
            name = w.group(1)
            params.append((w.group(2), w.group(4)))
            continue
        t = TAKES.match(found or "")
        if t:
            most = int(t.group(2) or t.group(4))
            if most != len(params) or (name is not None and t.group(1) != name):
                return None
            return t.group(1), params, required, most
        return None
    return None


def unsized(fn, params, required) -> tuple:
    """The int-list parameters that refuse a lone int (``SymInt[] split_sizes``; ``int[2] stride``
    and a method's only int list, which takes ints as varargs, take one): their names."""
    out = []
    for i, (pname, type_name) in enumerate(params):
        if type_name != "tuple of ints":
            continue
        args = [filler(t) for _, t in params[:max(required, i)]]
        args[i:i + 1] = [1]
        w = WRONG.match((call(fn, args) or "").replace(", not int", ", not object"))
        if w and w.group(2) == pname:
            out.append(pname)
    return tuple(out)


def one_element(fn, params, required) -> tuple:
    """The int parameters that take a one-element integral tensor (``SymInt index`` of select;
    ``int dim`` takes a 0-d one only): their names."""
    out = []
    for i, (pname, type_name) in enumerate(params):
        if type_name != "int":
            continue
        args = [filler(t) for _, t in params[:max(required, i + 1)]]
        args[i] = torch.tensor([1])
        w = WRONG.match((call(fn, args) or "").replace(", not Tensor", ", not object"))
        if not (w and w.group(2) == pname):
            out.append(pname)
    return tuple(out)


def nullable(fn, params, required) -> tuple:
    """The positional parameters that take None (``int? dim``, ``Tensor? weight`` of instance_norm, which has
    no default; ``int dim=0`` refuses it): names."""
    out = []
    for i, (pname, _) in enumerate(params):
        args = [filler(t) for _, t in params[:i]] + [None]
        w = WRONG.match((call(fn, args) or "").replace(", not NoneType", ", not object"))
        if not (w and w.group(2) == pname):
            out.append(pname)
    return tuple(out)


def probe_each(fn, name: str, texts) -> tuple:
    """Per printed signature, (the names of its int lists that refuse a lone int (``int[] dim`` of
    linalg.matrix_norm; ``int[2]`` and ``SymInt[1]`` take one): a call that parses with a tuple
    there and fails the parse with an int instead; the names of its ints that take a one-element
    integral tensor (``SymInt length`` of narrow): a call that parses with an int there parses with
    such a tensor too; and, where there are any, the names of its parameters that take None without
    printing a default (``int[1]? dim`` of var(dim, unbiased, keepdim), ``str? rounding_mode`` of div):
    a call with every positional and required keyword-only parameter parses with None there too)."""
    from agrad.ops._pyargs import _from_text

    out = []
    for text in texts:
        sig = _from_text(name, text)
        refused, sym, nullable = [], [], []
        positional = [p for p in sig.params if not p.keyword_only]
        for i, param in enumerate(positional):  # (None there, the other positional parameters filled in)
            if param.allow_none or param.type not in ("tuple of ints", "int", "Tensor"):
                continue
            filled = [filler(p.type) for p in positional]
            if call(fn, filled) is None and call(fn, filled[:i] + [None] + filled[i + 1:]) is None:
                nullable.append(param.name)
        # a keyword-only parameter printed without a default that takes None (``str? rounding_mode`` of div)
        filled = [filler(p.type) for p in positional]
        required = {p.name: filler(p.type) for p in sig.params if p.keyword_only and not p.optional}
        for param in sig.params:
            if param.keyword_only and not param.optional and not param.allow_none \
                    and call_kw(fn, filled, required) is None and call_kw(fn, filled, {**required, param.name: None}) is None:
                nullable.append(param.name)
        for i, param in enumerate(sig.params):
            if param.type not in ("tuple of ints", "int"):
                continue
            args = [filler(p.type) for p in sig.params[:i] if not p.keyword_only]
            kwargs = {p.name: filler(p.type) for j, p in enumerate(sig.params)
                      if j != i and (p.keyword_only or j > i) and not p.optional}

            def attempt(value):
                if param.keyword_only:
                    return call_kw(fn, args, {**kwargs, param.name: value})
                return call_kw(fn, args + [value], kwargs)

            if param.type == "int":
                if attempt(0) is None and attempt(torch.tensor([1])) is None:
                    sym.append(param.name)
            elif attempt((1,)) is None and attempt(1) is not None:
                refused.append(param.name)
        out.append((tuple(refused), tuple(sym)) + ((tuple(nullable),) if nullable else ()))
    return tuple(out)


def torch_callable(form: str, name: str):
    owner = {"torch": torch, "F": torch.nn.functional, "linalg": torch.linalg, "special": torch.special}.get(form)
    return getattr(torch.ones(2, 2) if owner is None else owner, name, None)


def main() -> int:
    table = {}
    for form, names in (("torch", FUNCTIONS), ("method", METHODS), ("F", FUNCTIONAL), ("linalg", LINALG),
                        ("special", SPECIAL)):
        for name in sorted(names):
            if name.startswith("__") or name in SKIP:
                continue
            fn = torch_callable(form, name)
            if fn is None or isinstance(fn, type) or not type(fn).__name__.startswith("builtin"):
                continue
            found = call(fn, [object()] * 40)
            m = MANY.match(found or "")
            if m:
                body = m.group(2)
                sigs = [line[3:] for line in body.split("\n") if line.startswith(" * ")] \
                    if body.startswith("one of") else [body]
                flags = probe_each(fn, m.group(1), sigs) if len(sigs) > 1 else ()
                table[f"{form}.{name}"] = (m.group(1), tuple(sigs)) + \
                    ((flags,) if any(any(f) for f in flags) else ())
                continue
            m = NOARGS.match(call(fn, [object()]) or "")
            if m:  # a method without parameters: CPython's own message (x.sin(1) names TensorBase.sin)
                table[f"{form}.{name}"] = (f"TensorBase.{name}", ())
                continue
            one = single(fn)
            if one is not None:
                fname, params, required, most = one
                if most < required:
                    continue
                try:
                    mine = list(inspect.signature(names[name]).parameters)
                except (TypeError, ValueError):
                    mine = []
                if "out" not in mine:  # (agrad's with_out wrapper takes out= where its signature shows none)
                    mine.append("out")
                sig = (tuple(params), required, keywords(fn, params, required, mine))
                flags = (unsized(fn, params, required), one_element(fn, params, required), nullable(fn, params, required))
                while flags and not flags[-1]:
                    flags = flags[:-1]
                table[f"{form}.{name}"] = (fname, (sig + flags,))
    header = (
        '"""Generated by tools/gen_signatures.py from PyTorch 2.13: do not edit.\n\n'
        "``\"<form>.<name>\": (name in PyTorch's messages, signatures)``: a function with several\n"
        "signatures has PyTorch's printed forms (``\"(Tensor end, Number weight)\"``); one with a\n"
        "single signature has ``((positional (parameter, type) pairs), required count, keyword-only\n"
        "(parameter, type) pairs)`` (keyword-only ones found among agrad's parameter names), and the\n"
        "names of its int lists that refuse a lone int, of its ints that take a one-element integral\n"
        "tensor and of its optional positional parameters that take None, if any (for several\n"
        "signatures, a third item gives the first two per signature, if any). See agrad/ops/_pyargs.py.\n"
        "A Tensor method without parameters has no signatures. {part}\n"
        '"""\n\n'
    )
    parts = ((OUT, "Tensor methods: _signature_table_methods.py.", lambda k: not k.startswith("method.")),
             (OUT_METHODS, "This file: Tensor methods; functions: _signature_table.py.",
              lambda k: k.startswith("method.")))
    for out, part, keep in parts:
        rows = "".join(f"    {key!r}: {value!r},\n" for key, value in sorted(table.items()) if keep(key))
        out.write_text(header.format(part=part) + "TABLE = {\n" + rows + "}\n")
    print(f"wrote {len(table)} functions to {OUT.relative_to(ROOT)} and {OUT_METHODS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
