#!/usr/bin/env python
"""Generate tests/golden/surface.json: run each snippet of tools/surface_cases.py with real
PyTorch 2.13 and record what it printed (object addresses masked) and the error it raised
({type, message}) or null.  tests/lang/test_surface_golden.py runs the same snippets under
agrad's interpreter and compares.

Usage: python tools/gen_surface_golden.py
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import contextlib
import io
import json
import re
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "surface.json"

_ADDR = re.compile(r"at 0x[0-9a-fA-F]+\b")


def normalise(text: str) -> str:
    return _ADDR.sub("at ADDRESS", text)


def run_torch(code: str) -> dict:
    import torch

    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
        except Exception as e:  # noqa: BLE001 (recorded as the expected error)
            error = {"type": type(e).__name__, "message": normalise(str(e))}
        finally:
            torch.set_default_device(None)
    return {"stdout": normalise(out.getvalue()), "error": error}


def main() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import surface_cases
    import torch

    entries = {name: {"code": code, **run_torch(code)} for name, code in surface_cases.CASES.items()}
    GOLDEN.write_text(json.dumps({"torch_version": torch.__version__, "cases": entries}, indent=1) + "\n")
    print(f"wrote {len(entries)} cases to {GOLDEN.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
