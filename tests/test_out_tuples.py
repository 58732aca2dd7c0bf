"""``out=`` of the functions that are no TensorIterator op (joining, sorting, selecting
reductions, linalg decompositions): the result is written into ``out`` and ``out`` is what
comes back (a return type holding the ``out`` tensors), and a wrong dtype is PyTorch's error.
The expected texts were read from PyTorch 2.13."""
import pytest

import agrad as torch

X = [[2.0, 0.5], [0.5, 3.0]]


def _x():
    return torch.tensor(X)


def _e(dtype=torch.float32):
    return torch.empty(0, dtype=dtype)


def test_cat_and_stack_write_into_out():
    o = _e()
    assert torch.cat([_x(), _x()], out=o) is o
    assert o.tolist() == X + X
    s = _e(torch.float64)  # (cat casts into any dtype its inputs can be cast to)
    assert torch.stack([_x(), _x()], out=s) is s
    assert s.dtype == torch.float64 and s.tolist() == [X, X]


def test_sort_returns_its_out_tensors():
    v, i = _e(), _e(torch.int64)
    r = torch.sort(_x(), out=(v, i))
    assert r.values is v and r.indices is i
    assert v.tolist() == [[0.5, 2.0], [0.5, 3.0]] and i.tolist() == [[1, 0], [0, 1]]
    assert "torch.return_types.sort" in repr(r)


@pytest.mark.parametrize("call", [
    lambda o: torch.topk(_x(), 1, out=o), lambda o: torch.max(_x(), 0, out=o),
    lambda o: torch.kthvalue(_x(), 1, out=o), lambda o: torch.mode(_x(), out=o),
    lambda o: torch.median(_x(), 0, out=o), lambda o: torch.cummax(_x(), 0, out=o)])
def test_values_and_indices_are_written(call):
    o = (_e(), _e(torch.int64))
    r = call(o)
    assert r[0] is o[0] and r[1] is o[1] and o[0].numel() > 0 and o[1].dtype == torch.int64


def test_linalg_outs_are_written():
    q, r = _e(), _e()
    res = torch.linalg.qr(_x(), out=(q, r))
    assert res.Q is q and res.R is r
    assert (q @ r - _x()).abs().max().item() < 1e-6
    c = _e()
    assert torch.linalg.cholesky(_x(), out=c) is c and c.shape == (2, 2)
    d = _e()
    assert torch.linalg.multi_dot([_x(), _x()], out=d) is d and d.tolist() == [[4.25, 2.5], [2.5, 9.25]]


@pytest.mark.parametrize("call, error, text", [
    (lambda: torch.cat([_x()], out=_e(torch.int64)), TypeError,
     "torch.cat(): input types can't be cast to the desired output type Long"),
    (lambda: torch.sort(_x(), out=(_e(torch.float64), _e(torch.int64))), RuntimeError,
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda: torch.max(_x(), 0, out=(_e(), _e())), RuntimeError,
     "Expected out tensor to have dtype long int, but got float instead"),
    (lambda: torch.kthvalue(_x(), 1, out=(_e(torch.float64), _e(torch.int64))), RuntimeError,
     "output values must be of same type as input"),
    (lambda: torch.mode(_x(), out=(_e(torch.float64), _e(torch.int64))), RuntimeError,
     "expected scalar type 'Float' but got 'Double' for values output"),
    (lambda: torch.cummax(_x(), 0, out=(_e(torch.float64), _e(torch.int64))), RuntimeError,
     "expected scalar_type Float but found Double"),
    (lambda: torch.linalg.multi_dot([_x(), _x()], out=_e(torch.float64)), RuntimeError,
     "multi_dot(): expected out tensor to have dtype float but got double"),
    (lambda: torch.histogram(_x(), 3, out=(_e(torch.float64), _e(torch.float64))), RuntimeError,
     "torch.histogram: input tensor and hist tensor should have the same dtype, but got input float and hist double"),
    (lambda: torch.median(_x(), out=_e()), TypeError, 'median() missing 1 required positional arguments: "dim"'),
    (lambda: torch.cat([_x().requires_grad_()], out=_e()), RuntimeError,
     "cat(): functions with out=... arguments don't support automatic differentiation, but one of the "
     "arguments requires grad."),
])
def test_out_errors_are_pytorchs(call, error, text):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) == text


def test_castable_composites_write_cast_values():
    o = _e(torch.float64)  # (pinv and cond write through copy_: PyTorch casts)
    assert torch.linalg.pinv(_x(), out=o) is o and o.dtype == torch.float64 and o.shape == (2, 2)
