"""Regenerate tests/golden/ops.json by running every op case (tools/op_cases) under PyTorch.

Usage: python tools/gen_op_golden.py

Run it after adding or changing cases; the output is deterministic, so an
unchanged case table gives an unchanged file.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests"))

import torch  # noqa: E402

import golden_harness  # noqa: E402

# Errors that point at a broken case rather than at op behaviour worth recording.
CASE_BUGS = ("NameError", "SyntaxError")


def main() -> None:
    entries = {}
    for case in golden_harness.load_cases():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. torch's deprecation of .T on 1-D tensors
            entry = golden_harness.golden_entry(torch, case)
        error = entry.get("error")
        if error and error["type"] in CASE_BUGS:
            raise SystemExit(f"case {case['id']!r} is broken: {error['type']}: {error['message']}")
        entries[case["id"]] = entry

    golden_harness.write_golden(entries, torch.__version__)
    errors = {case_id: e["error"] for case_id, e in entries.items() if "error" in e}
    print(f"wrote {len(entries)} cases ({len(errors)} error cases) to "
          f"{golden_harness.GOLDEN_PATH.relative_to(REPO_ROOT)}")
    for case_id, error in errors.items():
        print(f"  {case_id}: {error['type']}: {error['message'][:100]}")


if __name__ == "__main__":
    main()
