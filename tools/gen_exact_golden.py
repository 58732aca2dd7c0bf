"""Regenerate tests/golden/exact.json by running tools/exact_cases.py under PyTorch.

Usage: python tools/gen_exact_golden.py

Every case runs in a fresh namespace with ``torch`` and ``F`` bound; each
expression of ``show`` is recorded as PyTorch prints it (``run_exact_case``
is shared with tests/test_exact_golden.py, which runs the same under agrad).
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import json
import re
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "exact.json"
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_SUFFIX = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?\s*$", re.S)
_FRAMES = re.compile(r"\nException raised from .*", re.S)  # PyTorch's C++ backtrace (addresses change per run)


def shown(value) -> str:
    return _ADDRESS.sub("", repr(value))


def _torch_import_artifact(w) -> bool:
    """PyTorch's own lazy imports (torch.func's first use runs torch.jit.script on its helpers, which warns
    that jit.script is deprecated): not the case's warning."""
    return issubclass(w.category, DeprecationWarning) and "/torch/jit/" in str(w.filename).replace("\\", "/")


def run_exact_case(mod, case: dict) -> dict:
    """{"shown": [printed value or 'Error: text'], "warnings": ['Category: text']} under ``mod``."""
    ns = {"torch": mod, "F": mod.nn.functional}
    out = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for stmt in case["code"]:
            try:
                exec(stmt, ns)
            except Exception as e:  # noqa: BLE001 - recorded like a value
                out.append(f"[{stmt}] {type(e).__name__}: {_FRAMES.sub('', str(e))}")
        for expr in case["show"]:
            try:
                out.append(shown(eval(expr, ns)))
            except Exception as e:  # noqa: BLE001
                out.append(f"{type(e).__name__}: {_FRAMES.sub('', str(e))}")
    found = [f"{w.category.__name__}: {_SUFFIX.sub('', str(w.message))}" for w in caught
             if not _torch_import_artifact(w)]
    return {"shown": out, "warnings": sorted(set(found))}


def main() -> int:
    import torch

    sys.path.insert(0, str(ROOT / "tools"))
    import exact_cases

    entries = {}
    for case in exact_cases.CASES:
        if case["id"] in entries:
            raise SystemExit(f"duplicate case id {case['id']!r}")
        entries[case["id"]] = {"case": case, **run_exact_case(torch, case)}
    GOLDEN.write_text(json.dumps({"torch": torch.__version__, "cases": entries}, indent=1, ensure_ascii=False)
                      + "\n")
    print(f"wrote {len(entries)} cases to {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
