"""Op families load on first use (agrad/ops/_families.py); their index is complete (that it is
current: tests/test_op_table.py, which every landing runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FRESH = r"""
import sys, json
import agrad
from agrad.ops import _families
loaded = sorted(m for m in sys.modules if m.startswith("agrad.ops.") and not m.split(".")[-1].startswith("_"))
print(json.dumps(loaded))
"""


def _run(code):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""})
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def test_import_loads_only_the_eager_families():
    import json

    from agrad.ops import _families
    loaded = json.loads(_run(FRESH))
    assert {f"agrad.ops.{f}" for f in _families.EAGER} <= set(loaded)
    assert len(loaded) < len(_families.FAMILIES) // 2


def test_a_lazy_name_loads_its_family_with_its_checks_and_methods():
    """Through torch.X, Tensor.X, the tables and the submodules, as the eager import made them."""
    out = _run(r"""
import sys, agrad
from agrad.ops import _families
from agrad.ops._op import FUNCTIONS, METHODS
assert "agrad.ops.sorting" not in sys.modules
x = agrad.tensor([3.0, 1.0, 2.0])
assert type(agrad.Tensor.__dict__["sort"]).__name__ == "_Stub"
assert "sort" in dir(agrad) and hasattr(agrad.Tensor, "sort")
v = x.sort().values
assert v.tolist() == [1.0, 2.0, 3.0], v
assert agrad.Tensor.__dict__["sort"] is METHODS["sort"] and agrad.sort is FUNCTIONS["sort"]
assert agrad.sort is not sys.modules["agrad.ops.sorting"].sort  # (the argument-checked wrapper)
try:
    agrad.sort(1.0)
except TypeError as e:
    print(e)
assert agrad.linalg.det(agrad.eye(2)).item() == 1.0
assert abs(agrad.special.i0(agrad.tensor(0.0)).item() - 1.0) < 1e-6
assert isinstance(x.max(0), agrad.return_types.max)
print(x.real is x, len(FUNCTIONS) == len(list(FUNCTIONS)), sorted(FUNCTIONS) == sorted(dict.keys(FUNCTIONS)))
""")
    assert out.splitlines() == ["sort(): argument 'input' (position 1) must be Tensor, not float",
                                "True True True"]


def test_the_tables_once_loaded_are_those_of_the_index():
    """Every name the index promises is registered by its family, and nothing else is lazy."""
    from agrad.ops import _families, _index, _op
    from agrad.tensor import Tensor
    _families.load_all()
    for family, entry in _index.FAMILIES.items():
        for kind, names in entry.items():
            for name in names.split():
                if kind == "TENSOR":
                    assert name in Tensor.__dict__, (family, name)
                elif kind == "CLASSES":
                    from agrad.ops._return_types import CLASSES
                    assert name in CLASSES, (family, name)
                else:
                    assert dict.__contains__(getattr(_op, kind), name), (family, kind, name)
    assert not any(type(v).__name__ == "_Stub" for v in vars(Tensor).values())
