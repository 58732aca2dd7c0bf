"""Regenerate tests/golden/forward_ad/<family>.json: the op cases run with dual inputs under PyTorch.

Usage: python tools/gen_forward_ad_golden.py [FAMILY ...]    (default: every family)
       python tools/gen_forward_ad_golden.py --tutorial  (examples/forward_ad_tutorial.py's output
                                                          under PyTorch -> tests/golden/forward_ad_tutorial.txt)

Each input that requires grad gets a tangent drawn from the case id; the file
records the tangents of the outputs (or PyTorch's error, e.g. an op without a
forward formula).  Deterministic: an unchanged case table gives an unchanged file.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import sys
import warnings
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests"))

import torch  # noqa: E402

import forward_ad_harness  # noqa: E402


def tutorial() -> None:
    import subprocess
    script = REPO_ROOT / "examples" / "forward_ad_tutorial.py"
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True).stdout
    (REPO_ROOT / "tests" / "golden" / "forward_ad_tutorial.txt").write_text(out)
    print(f"tutorial: {len(out.splitlines())} lines")


def main(argv: list[str]) -> None:
    import op_cases

    if argv == ["--tutorial"]:
        tutorial()
        return

    families = op_cases.families()
    for family in argv or families:
        entries = {}
        for case in families[family]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                entries[case["id"]] = forward_ad_harness.golden_entry(torch, case)
        forward_ad_harness.write_golden(family, entries, torch.__version__)
        errors = sum(1 for e in entries.values() if "error" in e)
        print(f"{family}: {len(entries)} cases ({errors} errors)")


if __name__ == "__main__":
    main(sys.argv[1:])
