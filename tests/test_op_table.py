"""The op table is fully covered: every node type has a golden case, and docs/ops.md is current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import golden_harness

ROOT = Path(__file__).resolve().parents[1]


def _golden_node_names():
    seen = set()
    for entry in golden_harness.load_golden()["cases"].values():
        for out in entry.get("outputs") or []:
            if out.get("grad_fn"):
                seen.add(out["grad_fn"])
            seen.update(n for n in out.get("next_functions") or [] if n)
    return seen


#: Nodes whose backward only raises PyTorch's "not implemented" error: a golden case
#: cannot take their gradient, so their error cases (unique_*, heaviside_*, scatter
#: with reduce) cover them instead.
BACKWARD_RAISES = {"Unique2Backward0", "UniqueDimBackward0", "torch::autograd::NotImplemented",
                   "SpecialZetaBackward2",  # (zeta(x, number): its one input's derivative is not implemented)
                   "UniqueConsecutiveBackward0", "GeqrfBackward0",
                   # (asinh_/acosh_/atanh_: "inplace version of ..." not implemented; exact golden
                   # inplace-inverse-hyperbolic-has-no-derivative)
                   "AsinhBackward1", "AcoshBackward1", "AtanhBackward1"}


def test_every_op_has_a_golden_case():
    from agrad.ops import ALL_OPS

    seen = _golden_node_names() | BACKWARD_RAISES
    missing = sorted({op.node._name for op in ALL_OPS if not op.internal} - seen)
    assert not missing, (
        "these node types appear in no golden case (add cases under tools/op_cases/ and run "
        f"python tools/gen_op_golden.py FAMILY): {missing}")


def test_ops_doc_is_current():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_ops_doc.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_op_index_is_current():
    """The lazily loaded op families' names (src/agrad/ops/_index.py): after adding, renaming or
    moving an op, run ``python tools/gen_op_index.py`` (a merge conflict in it: rerun the tool)."""
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_op_index.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
