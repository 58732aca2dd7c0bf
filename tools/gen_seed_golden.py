#!/usr/bin/env python
"""Generate tests/golden/seeds/*.expected.json by running each seed script
with real PyTorch.

The scripts in tests/golden/seeds/*.py are snippets from the tutorial notes
in shared/seeds/ (each file's header comment says what, if anything, was
changed and why).  For each one this tool runs it with PyTorch (the version
is recorded; the project targets 2.13) and records:

* ``stdout``: what it printed, with object addresses (``at 0x7f...``)
  replaced by ``at ADDRESS``;
* ``warnings``: ``{"category", "message", "line"}`` for each distinct
  (category, message, script line), in order -- PyTorch's C++ suffix
  " (Triggered internally at ...)" removed;
* ``error``: ``{"type", "message", "line"}`` or null;
* ``last_value``: ``repr()`` of the value of a final bare expression
  statement (the CLI's ``_``), or null;
* ``compare``: ``"exact"``, or ``"numbers"`` for scripts whose printed
  values come from the random stream (agrad's need not equal PyTorch's):
  then numbers are masked before comparing.

tests/lang/test_seed_golden.py runs the same scripts under agrad's
interpreter and compares, using :func:`normalise` from this file.

Usage: python tools/gen_seed_golden.py [--check] [NAME ...]
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import ast
import contextlib
import io
import json
import re
import sys
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED_DIR = ROOT / "tests" / "golden" / "seeds"

#: scripts whose printed numbers depend on the random stream
NUMBERS_ONLY = {"003_bce.py", "001_mynetwork.py",  # unseeded: PyTorch seeds from the OS
                # float32 sin is MKL's vsSin in PyTorch (its last bit differs from the correctly
                # rounded value in 5% of [-pi, pi]), Linear's products MKL's sgemm, x ** 4 Sleef's
                # powf: docs/semantics.md; the fits drift in the last printed digits
                "025_polynomial_custom_function.py", "026_polynomial_nn.py", "027_polynomial_optim.py",
                "029_dynamic_net.py"}

#: deprecation warnings PyTorch raises from its own code, not about the script's
TORCH_INTERNAL_DEPRECATIONS = ("`torch.jit.script` is deprecated",)

_ADDR = re.compile(r"at 0x[0-9a-fA-F]+\b")
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)\s*$", re.S)
_NUMBER = re.compile(r"-?\d+\.\d*(?:e[+-]?\d+)?|-?\d+e[+-]?\d+")


def normalise(text: str, compare: str = "exact") -> str:
    """Make output comparable: stable addresses; numbers masked if asked."""
    text = _ADDR.sub("at ADDRESS", text)
    if compare == "numbers":
        # masked numbers; the padding PyTorch adds for signs and widths goes too
        text = _NUMBER.sub("#", re.sub(r"-?\d+(?=[,\]])", "#", text))
        text = re.sub(r"(?<=[\[(]) +| +(?= )", "", text)
    return text


def normalise_warning(message: str) -> str:
    return _TRIGGERED.sub("", normalise(message)).strip()


def run_with_torch(path: Path) -> dict:
    import torch  # noqa: F401  (imported here so the tool fails clearly without it)

    text = path.read_text(encoding="utf-8")
    filename = str(path)
    tree = ast.parse(text, filename)
    last_expr = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last_expr = ast.Expression(tree.body.pop().value)
    code = compile(tree, filename, "exec")
    globs = {"__name__": "__main__"}
    out = io.StringIO()
    records = []
    seen = set()

    def script_line():
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_filename == filename:
                return f.f_lineno
            f = f.f_back
        return None

    def showwarning(message, category, fname, lineno, file=None, line=None):
        ln = lineno if fname == filename else script_line()
        msg = normalise_warning(str(message))
        if category is DeprecationWarning and msg.startswith(TORCH_INTERNAL_DEPRECATIONS):
            return  # PyTorch warning about its own internals (torch.func's jacfwd scripts a helper)
        key = (category.__name__, msg, ln)
        if key not in seen:
            seen.add(key)
            records.append({"category": category.__name__, "message": msg, "line": ln})

    error = None
    last_value = None
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = showwarning
        with contextlib.redirect_stdout(out):
            try:
                exec(code, globs)
                if last_expr is not None:
                    v = eval(compile(last_expr, filename, "eval"), globs)
                    last_value = None if v is None else repr(v)
            except Exception as e:   # the script's own error is part of the golden
                line = None
                for fr, ln in traceback.walk_tb(e.__traceback__):
                    if fr.f_code.co_filename == filename:
                        line = ln
                error = {"type": type(e).__name__, "message": normalise(str(e)), "line": line}
    compare = "numbers" if path.name in NUMBERS_ONLY else "exact"
    return {
        "script": path.name,
        "torch_version": torch.__version__,
        "compare": compare,
        "stdout": normalise(out.getvalue()),
        "warnings": records,
        "error": error,
        "last_value": None if last_value is None else normalise(last_value),
    }


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    names = [a for a in args if not a.startswith("--")]
    paths = sorted(SEED_DIR.glob("*.py"))
    if names:
        paths = [p for p in paths if p.name in names or p.stem in names]
    status = 0
    for p in paths:
        data = run_with_torch(p)
        dest = p.with_suffix(".expected.json")
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        if check:
            if not dest.exists() or dest.read_text(encoding="utf-8") != text:
                print(f"{dest.name}: out of date")
                status = 1
            continue
        dest.write_text(text, encoding="utf-8")
        err = data["error"]
        print(f"{p.name}: {len(data['stdout'].splitlines())} lines, "
              f"{len(data['warnings'])} warnings, "
              f"error={err['type'] if err else None}")
    return status


if __name__ == "__main__":
    sys.exit(main())
