"""Regenerate tests/golden/ops/<family>.json by running the op cases (tools/op_cases) under PyTorch.

Usage: python tools/gen_op_golden.py [FAMILY ...]    (default: every family)

Run it after adding or changing cases; the output is deterministic, so an
unchanged case table gives an unchanged file.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import sys
import warnings
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests"))

import torch  # noqa: E402

import golden_harness  # noqa: E402

# Errors that point at a broken case rather than at op behaviour worth recording.
CASE_BUGS = ("NameError", "SyntaxError")


def main(argv: list[str]) -> None:
    import op_cases

    families = op_cases.families()
    unknown = set(argv) - set(families)
    if unknown:
        raise SystemExit(f"unknown families {sorted(unknown)}; known: {sorted(families)}")
    for family in argv or families:
        entries = {}
        for case in families[family]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. torch's deprecation of .T on 1-D tensors
                entry = golden_harness.golden_entry(torch, case)
            error = entry.get("error")
            if error and error["type"] in CASE_BUGS:
                raise SystemExit(f"case {case['id']!r} is broken: {error['type']}: {error['message']}")
            entries[case["id"]] = entry
        golden_harness.write_golden(family, entries, torch.__version__)
        errors = {case_id: e["error"] for case_id, e in entries.items() if "error" in e}
        print(f"wrote {len(entries)} cases ({len(errors)} error cases) to "
              f"{golden_harness.golden_path(family).relative_to(REPO_ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
