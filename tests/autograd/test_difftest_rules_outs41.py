"""The differential tester's rule ``out-uninitialised`` (session 41, outs41): an ``out=`` tensor that a call
resizes past its storage holds PyTorch's uninitialised memory in its new elements (agrad's: zeros), whether
the call then succeeds or raises after the resize (a kernel that refuses the dtype, an integer division by
zero). Observations are written by hand: what PyTorch's memory holds varies run to run."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import difftest  # noqa: E402


def _obs(error=None, **tensors):
    return {"error": error, "warnings": [], "vars": {name: {
        "kind": "tensor", "dtype": "torch.float32", "shape": list(np.shape(a)), "data": np.array(a, np.float32),
        "requires_grad": False, "is_leaf": True, "repr": repr(a), "graph": None} for name, a in tensors.items()}}


_REFUSED = ("NotImplementedError", "\"logaddexp_cpu\" not implemented for 'Long'")


def _rule(stmt, want, got):
    found = difftest.compare_statement(want, got)
    return None if found is None else difftest.documented(found[0], stmt, want, got)


def test_grown_out_of_a_call_is_documented():
    """o (2 elements) resized to 2 x 3: the old elements agree, PyTorch's new ones are garbage, agrad's zeros;
    after a call that raised past the resize, and after one that returned out (its name assigned too)."""
    a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    want = _obs(_REFUSED, a=a, o=[[7.0, 8.0, 4.6e-41], [1.2e+30, 0.0, 3.3e-38]])
    got = _obs(_REFUSED, a=a, o=[[7.0, 8.0, 0.0], [0.0, 0.0, 0.0]])
    assert _rule("torch.logaddexp(a, a, out=o)", want, got) == "out-uninitialised"
    ok_want = _obs(a=a, o=[[7.0, 8.0, 9e+20], [0.0, 1.0, 2.0]], r=[[7.0, 8.0, 9e+20], [0.0, 1.0, 2.0]])
    ok_got = _obs(a=a, o=[[7.0, 8.0, 0.0], [0.0, 0.0, 0.0]], r=[[7.0, 8.0, 0.0], [0.0, 0.0, 0.0]])
    assert _rule("r = torch.nansum(a, 0, out=o)", ok_want, ok_got) == "out-uninitialised"
    assert _rule("r = torch.max(a, 0, out=(o, i))", ok_want, ok_got) == "out-uninitialised"


def test_real_differences_around_a_grown_out_still_count():
    """Not without an out= in the statement, not for another variable than out (or the name assigned), not
    where agrad's elements past the first difference are not all zeros, nor where an old element differs."""
    a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    want = _obs(_REFUSED, a=a, o=[[7.0, 8.0, 4.6e-41], [1.2e+30, 0.0, 3.3e-38]])
    got = _obs(_REFUSED, a=a, o=[[7.0, 8.0, 0.0], [0.0, 0.0, 0.0]])
    assert _rule("o.logaddexp_(a)", want, got) is None
    assert _rule("torch.logaddexp(a, a, other=o)", want, got) is None
    other = _obs(_REFUSED, a=[1.0, 2.0, 3.0, 4.0, 5.0, 0.0], o=[[7.0, 8.0, 0.0], [0.0, 0.0, 0.0]])
    assert _rule("torch.logaddexp(a, a, out=o)", want, other) is None
    written = _obs(_REFUSED, a=a, o=[[7.0, 8.0, 0.0], [0.0, 1.5, 0.0]])
    assert _rule("torch.logaddexp(a, a, out=o)", want, written) is None
    early = _obs(_REFUSED, a=a, o=[[7.5, 8.0, 0.0], [0.0, 0.0, 0.0]])
    assert _rule("torch.logaddexp(a, a, out=o)", want, early) is None
    ok_want = _obs(a=a, o=[[7.0, 8.0, 9e+20], [0.0, 1.0, 2.0]], r=[[7.0, 8.0, 9e+20], [0.0, 1.0, 2.0]], s=[1.0])
    ok_got = _obs(a=a, o=[[7.0, 8.0, 0.0], [0.0, 0.0, 0.0]], r=[[7.0, 8.0, 0.0], [0.0, 0.0, 0.0]], s=[0.0])
    assert _rule("r = torch.nansum(a, 0, out=o)", ok_want, ok_got) is None
