"""``out=``: the result is written into ``out`` and ``out`` is what comes back (for the
functions that are no TensorIterator op too: joining, sorting, selecting reductions, linalg
decompositions, a return type holding the ``out`` tensors), and an ``out`` of a dtype PyTorch
refuses is PyTorch's error, by op family.  The expected texts were read from PyTorch 2.13."""
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
    assert repr(r).startswith("torch.return_types.sort_out(\nvalues=")  # (the out overload's own structseq)
    assert type(torch.max(_x(), 0, out=(_e(), _e(torch.int64)))).__name__ == "max_out"


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


def _y():
    return torch.tensor([[1.0, 2.0], [0.5, 4.0]])


@pytest.mark.parametrize("call, dtype, text", [
    (lambda o: torch.sin(_x(), out=o), torch.int64, "result type Float can't be cast to the desired output type Long"),
    (lambda o: torch.add(_x(), _y(), out=o), torch.bool, "result type Float can't be cast to the desired output type Bool"),
    (lambda o: torch.mean(_x(), 0, out=o), torch.int32, "result type Float can't be cast to the desired output type Int"),
    (lambda o: torch.abs(_x(), out=o), torch.float64, "Found dtype Double but expected Float"),
    (lambda o: torch.clamp(_x(), 0, 2, out=o), torch.float16, "Found dtype Half but expected Float"),
    (lambda o: torch.mm(_x(), _y(), out=o), torch.float64, "Expected out tensor to have dtype float, but got double instead"),
    (lambda o: torch.where(_x() > 1, _x(), _y(), out=o), torch.int64, "Expected out type to be Float but got Long"),
    (lambda o: torch.amax(_x(), 0, out=o), torch.float64,
     "Expected the dtype for input and out to match, but got Float for input's dtype and Double for out's dtype."),
    (lambda o: torch.dot(_x()[0], _y()[0], out=o), torch.float16, "result dtype Half does not match input dtype Float"),
    (lambda o: torch.index_select(_x(), 0, torch.tensor([1]), out=o), torch.float64,
     "index_select(): self and result must have the same scalar type"),
    (lambda o: torch.logsumexp(_x(), 0, out=o), torch.int64,
     "logsumexp(): Expected floating point type for result tensor, but got: Long"),
])
def test_tensoriterator_out_dtype_errors(call, dtype, text):
    # (agrad wrote the float results truncated into the integer or other-dtype out)
    o = torch.empty(0, dtype=dtype)
    with pytest.raises(RuntimeError) as e:
        call(o)
    assert str(e.value) == text
    # (as PyTorch leaves it: mean's sum_out wrote the sums before div_ refused; dot_out resized out to 0-d)
    left = {"result type Float can't be cast to the desired output type Int": [2, 3],
            "result dtype Half does not match input dtype Float": ()}.get(text)
    if left is None:
        assert o.numel() == 0
    elif left == ():
        assert o.shape == ()
    else:
        assert o.tolist() == left


def test_castable_out_still_written():
    o = torch.empty(0, dtype=torch.float64)
    assert torch.sin(_x(), out=o) is o and o.dtype == torch.float64
    b = torch.empty(0, dtype=torch.float32)
    assert torch.eq(_x(), _y(), out=b) is b and b.tolist() == [[0.0, 0.0], [1.0, 0.0]]
    i = torch.empty(0, dtype=torch.int64)
    assert torch.arange(0, 3, out=i) is i and i.tolist() == [0, 1, 2]


def test_reductions_take_outs_dtype():
    # (PyTorch casts the input to out's dtype first: 2.5 + 1.5 -> 2 + 1)
    x = torch.tensor([[2.5, 0.5], [1.5, 3.75]])
    o = torch.empty(0, dtype=torch.int64)
    assert torch.sum(x, 0, out=o).tolist() == [3, 3]
    assert torch.prod(x, 0, out=o).tolist() == [2, 0]
    assert torch.cumsum(x, 0, out=o).tolist() == [[2, 0], [3, 3]]
    assert torch.cumprod(x, 1, out=o).tolist() == [[2, 0], [1, 3]]


@pytest.mark.parametrize("call, dtype, expected", [
    (lambda o: torch.argmax(_x(), 0, out=o), torch.int64, [0, 1]),
    (lambda o: torch.take(_x(), torch.tensor([0, 3]), out=o), torch.float32, [2.0, 3.0]),
    (lambda o: torch.nansum(torch.tensor([1.0, float('nan')]), 0, out=o), torch.float64, 1.0),
    (lambda o: torch.all(_x() > 1, 0, out=o), torch.bool, [False, False]),
    (lambda o: torch.msort(_x(), out=o), torch.float32, [[0.5, 0.5], [2.0, 3.0]]),
    (lambda o: torch.hstack([_x(), _x()], out=o), torch.float32, [[2.0, 0.5, 2.0, 0.5], [0.5, 3.0, 0.5, 3.0]]),
    (lambda o: torch.diff(_x(), out=o), torch.float32, [[-1.5], [2.5]]),
    (lambda o: torch.matrix_power(_x(), 2, out=o), torch.float32, [[4.25, 2.5], [2.5, 9.25]]),
])
def test_out_keyword_of_more_functions(call, dtype, expected):
    # (agrad's parser refused out= for these: "got an unexpected keyword argument 'out'")
    o = torch.empty(0, dtype=dtype)
    assert call(o) is o and o.tolist() == expected


@pytest.mark.parametrize("call, dtype, text", [
    (lambda o: torch.argmax(_x(), 0, out=o), torch.float32, "Expected out tensor to have dtype long int, but got float instead"),
    (lambda o: torch.any(_x() > 1, out=o), torch.int64, "any only supports bool tensor for result, got: Long"),
    (lambda o: torch.inner(_x(), _x(), out=o), torch.float64,
     "tensordot: Expected the output tensor to have dtype Float, but got an output tensor with dtype Double"),
    (lambda o: torch.matrix_power(_x(), 2, out=o), torch.int64,
     "matrix_power: Expected result to be safely castable from Float dtype, but got result with dtype Long"),
    (lambda o: torch.take(_x(), torch.tensor([0]), out=o), torch.float64,
     "take(): self and out expected to have the same dtype, but got self.dtype = Float and out.dtype = Double"),
])
def test_out_dtype_errors_of_more_functions(call, dtype, text):
    with pytest.raises(RuntimeError) as e:
        call(torch.empty(0, dtype=dtype))
    assert str(e.value) == text


@pytest.mark.parametrize("fn", [torch.signbit, torch.isposinf, torch.isneginf])
def test_tests_take_a_bool_out(fn):
    x = torch.tensor([-0.0, float("-inf"), float("inf"), 2.0])
    o = torch.empty(0, dtype=torch.bool)
    assert fn(x, out=o) is o and o.tolist() == fn(x).tolist()
    with pytest.raises(RuntimeError) as e:
        fn(x, out=torch.empty(0))
    assert str(e.value) == f"{fn.__name__} does not support non-boolean outputs."


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_takes_out_at_torch_level_only(name):
    fn = getattr(torch, name)
    o = torch.zeros(2, 2).t()  # (written in place: out keeps its strides)
    assert fn(_x(), 1, out=o) is o and o.stride() == (1, 2)
    assert o.tolist() == fn(_x(), 1).tolist()
    d = _e(torch.float64)
    assert fn(_x(), 1, dtype=torch.float64, out=d) is d and d.tolist() == fn(_x(), 1, dtype=torch.float64).tolist()
    with pytest.raises(RuntimeError) as e:
        fn(_x(), 1, out=_e(torch.float64))
    assert str(e.value) == "Expected out tensor to have dtype float, but got double instead"
    with pytest.raises(TypeError) as e:
        getattr(_x(), name)(1, out=_e())
    assert str(e.value) == f"{name}() got an unexpected keyword argument 'out'"
    with pytest.raises(TypeError) as e:
        getattr(torch.special, name)(_x(), 1, out=_e())
    assert str(e.value) == f"special_{name}() got an unexpected keyword argument 'out'"


@pytest.mark.parametrize("call, aten", [
    (lambda x, o: torch.softmax(x, 1, out=o), "aten::softmax"),
    (lambda x, o: torch.conj_physical(x, out=o), "aten::conj_physical")])
def test_out_of_a_composite_autograd_does_not_record(call, aten):
    """An input that requires grad leaves a NotImplemented node on out (a backward through it
    raises); an out that requires grad is refused under the aten name."""
    x = _x().requires_grad_()
    o = _e()
    assert call(x, o) is o
    assert o.requires_grad and type(o.grad_fn).__name__ == "NotImplemented"
    assert o.grad_fn.next_functions[0][0] is not None
    with pytest.raises(RuntimeError) as e:
        o.sum().backward()
    assert str(e.value) == f"derivative for {aten} is not implemented"
    with pytest.raises(RuntimeError) as e:
        call(_x(), torch.zeros(2, 2, requires_grad=True))
    assert str(e.value) == (f"{aten}(): functions with out=... arguments don't support automatic differentiation, "
                            "but one of the arguments requires grad.")
    base = torch.zeros(1, 2, 2)
    call(x, base[0])  # (a view: through CopySlices)
    assert type(base.grad_fn).__name__ == "CopySlices"


def test_threshold_and_conj_physical_take_out():
    o = _e(torch.float64)  # (threshold: TensorIterator's cast into out)
    assert torch.threshold(_x(), 1.0, -1.0, out=o) is o and o.tolist() == [[2.0, -1.0], [-1.0, 3.0]]
    with pytest.raises(RuntimeError) as e:
        torch.threshold(_x(), 1.0, -1.0, out=_e(torch.int64))
    assert str(e.value) == "result type Float can't be cast to the desired output type Long"
    with pytest.raises(TypeError) as e:
        torch.nn.functional.threshold(_x(), 1.0, -1.0, out=_e())
    assert str(e.value) == "_threshold() got an unexpected keyword argument 'out'"
    c = _e()
    assert torch.conj_physical(_x(), out=c) is c and c.tolist() == X
    with pytest.raises(RuntimeError) as e:
        torch.conj_physical(_x(), out=_e(torch.float64))
    assert str(e.value) == "Found dtype Double but expected Float"


@pytest.mark.parametrize("dtype, out_dtype, error, text", [
    (None, torch.int64, NotImplementedError, "\"nansum_cpu\" not implemented for 'Long'"),
    (None, torch.bool, NotImplementedError, "\"nansum_cpu\" not implemented for 'Bool'"),
    (torch.float64, torch.int64, RuntimeError, "nansum: provided dtype must match dtype of result. Got Long and Double."),
    (torch.int32, torch.int64, RuntimeError, "Expected out tensor to have dtype int, but got long int instead"),
])
def test_nansum_of_floats_into_out(dtype, out_dtype, error, text):
    x = torch.tensor([[1.5, float("nan")], [0.5, -1.0]])
    with pytest.raises(error) as e:
        torch.nansum(x, 1, dtype=dtype, out=torch.zeros(2, dtype=out_dtype))
    assert str(e.value).strip("'") == text.strip("'")
    assert torch.nansum(x, 1, dtype=torch.int64, out=torch.zeros(2, dtype=torch.int64)).tolist() == [1, -1]
    assert torch.nansum(torch.tensor([1, 2]), out=torch.zeros((), dtype=torch.int32)).item() == 3


def test_an_out_with_elements_and_another_shape_is_resized_with_pytorchs_warning():
    x = _x()
    with pytest.warns(UserWarning) as caught:
        o = torch.sin(x, out=torch.zeros(3))
    assert o.shape == (2, 2) and len(caught) == 1
    assert str(caught[0].message).startswith("An output with one or more elements was resized since it had shape "
                                             "[3], which does not match the required output shape [2, 2].")
    assert caught[0].filename == __file__  # (the caller's line, as PyTorch's)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.sin(x, out=_e())  # an empty out: resized quietly
        torch.narrow_copy(x, 0, 0, 1, out=torch.zeros(3))  # (its kernel resizes out itself)


def test_factories_and_samplers_resize_their_out_quietly():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call in (lambda o: torch.zeros(5, out=o), lambda o: torch.linspace(0, 1, 5, out=o),
                     lambda o: torch.eye(3, out=o), lambda o: torch.randn(5, out=o),
                     lambda o: torch.bernoulli(torch.full((5,), 0.5), out=o)):
            assert call(torch.zeros(3)).numel() > 3
    with pytest.warns(UserWarning, match="The number of elements in the out tensor of shape"):
        torch.arange(5.0, out=torch.zeros(3))  # (arange's own check, not resize_output's)
