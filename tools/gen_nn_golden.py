"""Regenerate tests/golden/nn/<family>.json by running tools/nn_cases.py under PyTorch.

Usage: python tools/gen_nn_golden.py [FAMILY ...]    (default: every family)
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import json
import sys
import warnings
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tools"))
sys.path.insert(0, str(REPO_ROOT / "tests"))

import torch  # noqa: E402

import nn_cases  # noqa: E402
from nn_golden import GOLDEN_DIR, encode  # noqa: E402


def main(argv):
    unknown = set(argv) - set(nn_cases.CASES)
    if unknown:
        raise SystemExit(f"unknown families {sorted(unknown)}; known: {sorted(nn_cases.CASES)}")
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for family in argv or sorted(nn_cases.CASES):
        out = {}
        for name, fn in nn_cases.CASES[family].items():
            torch.manual_seed(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out[name] = encode(fn(torch))
        path = GOLDEN_DIR / f"{family}.json"
        path.write_text(json.dumps({"torch": torch.__version__, "cases": out}, indent=1,
                                   sort_keys=True) + "\n")
        print(f"wrote {len(out)} cases to {path.relative_to(REPO_ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
