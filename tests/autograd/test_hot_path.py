"""The per-op shortcuts of the recording and of the array formulas (issue 12) give what the
general path gives: the same bits, the same metadata, the same checks."""

import random
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

import agrad
from agrad import _limits
from agrad.ops import pointwise
from agrad.ops.pointwise import _scalar_math, weak

UFUNCS = (np.add, np.subtract, np.multiply, np.true_divide)


def _numbers():
    rng = random.Random(12)
    out = [0.9, 0.1, 1, 2, -7, 3, 1 / 3, 65504.0, 3.4e38, 3.5e38, 1e300, -1e300, 1e-45, 1e-46, 7e-39,
           2.0**-149 * 1.5, 2**24 + 1, 2**53, 2**53 + 1, 2**70, float("inf"), float("-inf"), float("nan"),
           0.0, -0.0, 0]
    out += [rng.uniform(-1e3, 1e3) for _ in range(300)]
    out += [rng.uniform(-1, 1) * 10.0 ** rng.randint(-300, 300) for _ in range(300)]
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_weak_number_gives_numpys_bits_and_warnings(dtype):
    """A Python number read as :func:`weak` gives it: the bits and warnings of numpy's own
    conversion (NEP 50), both operand orders, twice (made, then from the cache)."""
    a = (np.random.RandomState(0).randn(7) * 3).astype(dtype)
    for v in _numbers():
        for _ in range(2):
            for fn in UFUNCS:
                with warnings.catch_warnings(record=True) as w1:
                    warnings.simplefilter("always")
                    want, want_r = fn(a, v), fn(v, a)
                with warnings.catch_warnings(record=True) as w2:
                    warnings.simplefilter("always")
                    c = weak(v, a)
                    got, got_r = fn(a, c), fn(c, a)
                assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (v, fn)
                assert got_r.tobytes() == want_r.tobytes(), (v, fn)
                assert [str(w.message) for w in w1] == [str(w.message) for w in w2], (v, fn)


def test_weak_number_keeps_signed_zeros_nan_bools_and_other_dtypes():
    a = np.zeros(2)
    assert weak(0.0, a) == 0.0 and type(weak(0.0, a)) is float
    assert np.signbit(np.add(np.array([-0.0]), weak(-0.0, a)))[0]
    assert type(weak(float("nan"), a)) is float
    assert weak(True, a) is True  # bool is not a number numpy converts the same way
    assert weak(0.5, np.zeros(2, np.float16)) == 0.5 and type(weak(0.5, np.zeros(2, np.float16))) is float
    assert type(weak(1e300, np.zeros(2, np.float32))) is float  # numpy warns converting it: left to numpy
    assert type(weak(0.5, a)) is np.ndarray


def test_scalar_math_float16_still_in_float32():
    a = np.array([0.1, 3.0], np.float16)
    got = _scalar_math(np.multiply, a, 3.141592653589793)
    assert got.dtype == np.float16
    assert got.tobytes() == np.multiply(a, np.float32(3.141592653589793)).astype(np.float16).tobytes()


def test_weak_cache_stays_small():
    a = np.zeros(1)
    for i in range(1, 1000):
        weak(i + 0.5, a)
    assert len(pointwise._WEAK64) <= 256


@pytest.mark.parametrize("dtype", [agrad.float32, agrad.float64])
def test_pointwise_output_shares_its_inputs_metadata(dtype):
    x = agrad.ones(2, 3, dtype=dtype, requires_grad=True)
    for y in (agrad.sin(x), x * 0.5, x + 1, 2 - x, -x, agrad.tanh(x)):
        node = y.grad_fn
        assert node._out_meta == (((2, 3), dtype),)
        assert node._input_meta[0] == ((2, 3), dtype)
    # a broadcast of two tensors has its own shape, checked against the size limit
    a = agrad.ones(3, 1, requires_grad=True)
    b = agrad.ones(1, 4)
    assert (a * b).grad_fn._out_meta == (((3, 4), agrad.float32),)
    _limits.set_max_elements(10)
    try:
        with pytest.raises(_limits.LimitError):
            a * b
    finally:
        _limits.set_max_elements(_limits.DEFAULT_MAX_ELEMENTS)


def test_pointwise_output_of_another_dtype_has_its_own_metadata():
    x = agrad.ones(2, dtype=agrad.float16, requires_grad=True)
    assert (x * 0.5).grad_fn._out_meta == (((2,), agrad.float16),)
    y = agrad.ones(2, dtype=agrad.float32, requires_grad=True)
    z = y * agrad.tensor(2.0, dtype=agrad.float64)  # a 0-d tensor of another dtype: float32 out
    assert z.dtype is agrad.float32 and z.grad_fn._out_meta == (((2,), agrad.float32),)


def test_pointwise_of_a_zero_d_tensor_is_a_tensor_of_an_array():
    x = agrad.tensor(0.5, requires_grad=True)
    y = agrad.sin(x)  # numpy returns a numpy scalar for a 0-d array
    assert type(y._data) is np.ndarray and y.shape == () and y.grad_fn._out_meta == (((), agrad.float32),)
    y.backward()
    assert x.grad.item() == pytest.approx(np.cos(0.5))


def _saved(**arrays):
    """A node as an array formula reads it: each saved tensor's array under its name."""
    return SimpleNamespace(**{name: SimpleNamespace(_data=a) for name, a in arrays.items()})


def test_tanh_backward_of_one_float64_element_gives_the_array_fma_bits():
    """tanh's array formula on a 1-element float64 gradient (fma's steps on Python floats) gives
    the bits of the array path: g * fma(-y, y, 1) with every value of :func:`_numbers`, tanh's
    outputs near +-1 (where 1 - y*y cancels), signed zeros, infinities and NaN, in 0-d and 1-d."""
    from agrad.ops import _vec_math
    from agrad.ops.unary import _tanh_backward_raw

    rng = np.random.RandomState(3)
    ys = [v for v in _numbers() if type(v) is float] + list(np.tanh(rng.randn(400) * 4)) \
        + list(1 - rng.rand(200) * 1e-8) + list(rng.randn(200))
    gs = [1.0, -0.0, 0.3, 1e-300, 7.5e200, float("inf"), float("nan")] + list(rng.randn(20))
    for shape in ((), (1,)):
        for y in ys:
            ya = np.full(shape, y)
            want_fma = _vec_math.fma(np.negative(ya.reshape(2 * (1,))), ya.reshape(2 * (1,)), 1.0)
            for g in gs:
                ga = np.full(shape, g)
                got = _tanh_backward_raw(_saved(result=ya), ga)
                want = np.multiply(ga, want_fma.reshape(shape))
                assert type(got) is type(want) and got.shape == shape and got.dtype == np.float64
                assert got.tobytes() == want.tobytes(), (y, g)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sin_backward_of_one_element_gives_the_array_bits(dtype):
    """sin's array formula on one element (Python floats: libm's cos, float32's rounded once, the
    product exact in double) gives the array path's bits: g * cos(x), in 0-d and 1-d, with signed
    zeros, infinities, NaN and large arguments."""
    from agrad.ops.unary import _cos, _sin_backward_raw

    rng = np.random.RandomState(6)
    xs = [v for v in _numbers() if type(v) is float] + list(rng.randn(300) * 10) + list(rng.uniform(-1e6, 1e6, 100))
    gs = [1.0, -0.0, 0.3, 1e-30, 7.5e20, 3e38, float("inf"), float("nan")] + list(rng.randn(10))
    with np.errstate(all="ignore"):
        for shape in ((), (1,)):
            for x in xs:
                xa = np.full(shape, x, dtype)
                for g in gs:
                    ga = np.full(shape, g, dtype)
                    got, want = _sin_backward_raw(_saved(self=xa), ga), np.multiply(ga, _cos(xa))
                    assert type(got) is type(want) and got.dtype == want.dtype and got.shape == want.shape
                    assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (x, g)


def _node_record(y):
    node = y.grad_fn
    if node is None:
        return None
    saved = {k: (type(s).__name__, getattr(s, "version", None), getattr(s, "_meta", None))
             for k, s in (node._saved or {}).items()}
    return (type(node).__name__, [(type(f).__name__, i) for f, i in node.next_functions],
            node._input_meta, node._out_meta, saved)


@pytest.mark.parametrize("grad", [True, False])
def test_apply_one_gives_what_apply_gives(grad):
    """Op.apply_one (a pointwise op on one tensor, maybe with a number) against Op.apply: the same
    data, layout, dtype and node (edges, metadata, saved tensors), over dtypes, 0-d, transposed and
    sliced tensors (views), numbers of every kind beside them, with grad mode on and off."""
    from agrad.ops.pointwise import _add, _div, _mul, _sub
    from agrad.ops.unary import sin, tanh, exp, sigmoid

    base = np.random.RandomState(1).randn(3, 4)
    inputs = []
    for dt in (agrad.float16, agrad.float32, agrad.float64):
        for arr in (base, base.T, base[0], base[0, 0], base[:, ::2]):
            inputs.append(lambda arr=arr, dt=dt: agrad.tensor(np.array(arr), dtype=dt, requires_grad=True))
            inputs.append(lambda arr=arr, dt=dt: agrad.tensor(np.array(arr), dtype=dt, requires_grad=True)[...])
            inputs.append(lambda arr=arr, dt=dt: agrad.tensor(np.array(arr), dtype=dt).t()
                          if np.ndim(arr) == 2 else agrad.tensor(np.array(arr), dtype=dt))
    calls = [(f.op, ()) for f in (sin, tanh, exp, sigmoid)]
    calls += [(op, (n,)) for op in (_add, _sub, _mul, _div) for n in (0.9, 2, -0.0, 1e300, float("nan"))]
    for make in inputs:
        for op, numbers in calls:
            outs = []
            for way in ("apply", "apply_one"):
                t = make()
                arrays = (t._data, *numbers)
                with agrad.set_grad_enabled(grad):
                    y = op.apply((t,) if not numbers else (t, None), arrays, {}) if way == "apply" \
                        else op.apply_one(t, arrays)
                outs.append((type(y._data), y._data.dtype, y._data.strides, y._data.tobytes(), y.requires_grad,
                             y.is_leaf, _node_record(y)))
            assert outs[0] == outs[1], (op, numbers, make().shape)


def test_tanh_backward_of_one_float32_element_gives_the_array_bits():
    """float32: 1 - y*y on a Python float (y*y exact in double, rounded once to float32) gives the
    array path's bits, in 0-d and 1-d, with infinities, NaN, signed zeros, values near +-1."""
    from agrad.ops.unary import _tanh_backward_raw

    rng = np.random.RandomState(4)
    ys = [v for v in _numbers() if type(v) is float] + list(np.tanh(rng.randn(300) * 4)) \
        + list(1 - rng.rand(200) * 1e-4) + list(rng.randn(100) * 1e3)
    gs = [1.0, -0.0, 0.3, 1e-30, 7.5e20, float("inf"), float("nan")] + list(rng.randn(10))
    with np.errstate(all="ignore"):
        for shape in ((), (1,)):
            for y in ys:
                ya = np.full(shape, y, np.float32)
                one_minus = np.subtract(1.0, np.multiply(ya, ya, dtype=np.float64)).astype(np.float32)
                for g in gs:
                    ga = np.full(shape, g, np.float32)
                    got, want = _tanh_backward_raw(_saved(result=ya), ga), np.multiply(ga, one_minus)
                    assert type(got) is type(want) and got.dtype == np.float32
                    assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (y, g)


@pytest.mark.parametrize("grad", [True, False])
def test_apply_two_gives_what_apply_gives(grad):
    """Op.apply_two (a pointwise op on two tensors) against Op.apply: the same data, layout and node,
    over dtypes, broadcasts, 0-d operands, transposed and sliced operands, views, either or both
    requiring grad, with grad mode on and off."""
    from agrad.ops.pointwise import _add, _div, _mul, _sub

    rng = np.random.RandomState(2)
    shapes = [((3, 4), (3, 4)), ((3, 4), ()), ((), (3, 4)), ((3, 1), (1, 4)), ((4,), (3, 4)), ((), ()), ((1,), (1,))]
    for dt in (agrad.float16, agrad.float32, agrad.float64):
        for sa, sb in shapes:
            for ga, gb in ((True, True), (True, False), (False, True), (False, False)):
                for view in (None, "t", "slice"):
                    def make(shape, g):
                        t = agrad.tensor(rng.randn(*shape), dtype=dt, requires_grad=g)
                        if view == "t" and len(shape) == 2:
                            t = t.t().contiguous().t()
                        return t
                    a0, b0 = make(sa, ga), make(sb, gb)
                    for op in (_add, _sub, _mul, _div):
                        ufunc = op.ufunc if dt is not agrad.float16 else None  # (the operators' way)
                        assert op.ufunc is not None or op is _div
                        outs = []
                        for way in ("apply", "apply_two"):
                            a, b = a0.detach().requires_grad_(ga), b0.detach().requires_grad_(gb)
                            if view == "slice":
                                a, b = (a[...] if a.dim() else a), (b[...] if b.dim() else b)
                            with agrad.set_grad_enabled(grad):
                                y = op.apply((a, b), (a._data, b._data), {}) if way == "apply" \
                                    else op.apply_two(a, b, (a._data, b._data), ufunc)
                            outs.append((type(y._data), y._data.dtype, y._data.shape, y._data.strides,
                                         y._data.tobytes(), y.requires_grad, y.is_leaf, _node_record(y)))
                        assert outs[0] == outs[1], (op, dt, sa, sb, ga, gb, view)


@pytest.mark.parametrize("grad", [True, False])
def test_apply_two_layouts_and_dtypes_give_what_apply_gives(grad):
    """Op.apply_two's inline layout test and its metadata taken over from an input: operands that
    are no views but laid out column-major or with dims of one element, and of two dtypes (the result's
    dtype and shape from either side), against Op.apply."""
    from agrad.ops.pointwise import _add, _mul

    rng = np.random.RandomState(3)
    shapes = [((2, 1, 3), ()), ((), (2, 1, 3)), ((1, 3), (2, 3)), ((2, 3), (1, 3)), ((3, 1), (3, 1)),
              ((2, 3), (2, 3)), ((2, 3), ()), ((), (2, 3)), ((3,), (2, 3)), ((2, 3), (3,)), ((), ())]
    for da, db in ((agrad.float32, agrad.float32), (agrad.float32, agrad.float64), (agrad.float64, agrad.float32),
                   (agrad.float16, agrad.float32)):
        for sa, sb in shapes:
            for order in ("C", "F"):
                def make(shape, dt):
                    return agrad.Tensor._make(np.array(rng.randn(*shape), dtype=dt.numpy, order=order))
                a0, b0 = make(sa, da), make(sb, db)
                for op in (_add, _mul):
                    for ga, gb in ((True, True), (False, True), (True, False)):
                        outs = []
                        for way in ("apply", "apply_two"):
                            a, b = a0.detach().requires_grad_(ga), b0.detach().requires_grad_(gb)
                            with agrad.set_grad_enabled(grad):
                                y = op.apply((a, b), (a._data, b._data), {}) if way == "apply" \
                                    else op.apply_two(a, b, (a._data, b._data))
                            outs.append((type(y._data), y._data.dtype, y._data.shape, y._data.strides,
                                         y._data.tobytes(), y.requires_grad, y.is_leaf, _node_record(y)))
                        assert outs[0] == outs[1], (op, da, db, sa, sb, order, ga, gb)


@pytest.mark.parametrize("grad", [True, False])
def test_apply_single_gives_what_apply_gives(grad):
    """Op.apply_single (``mean(x)``'s way) against Op.apply: the same data, dtype, layout, node,
    attributes, edges and metadata, over dtypes, shapes (0-d, empty, one element, column-major),
    views, a leaf and a non-leaf input, grad mode on and off; and mean(x) takes it."""
    from agrad.ops import means

    rng = np.random.RandomState(5)
    for dt in (agrad.float16, agrad.float32, agrad.float64):
        for shape in ((), (1,), (5,), (2, 2), (3, 4), (0, 3), (2, 3, 4)):
            values = rng.randn(*shape)
            for kind in ("leaf", "nonleaf", "view", "F", "nograd"):
                def make():
                    arr = np.array(values, dtype=dt.numpy, order="F" if kind == "F" else "C")
                    t = agrad.Tensor._make(arr).requires_grad_(kind != "nograd")
                    if kind == "nonleaf":
                        t = t * 2.0
                    elif kind == "view":
                        t = t[...]
                    return t
                for op, attrs in ((means._mean0, {"axes": tuple(range(len(shape))), "keepdim": False}),
                                  (means._mean1, {"axes": (0,) if shape else (), "keepdim": True})):
                    outs = []
                    for way in ("apply", "apply_single"):
                        t = make()
                        with agrad.set_grad_enabled(grad), np.errstate(all="ignore"):
                            y = op.apply((t,), (t._data,), dict(attrs)) if way == "apply" \
                                else op.apply_single(t, dict(attrs))
                        node = y.grad_fn
                        attrs_seen = None if node is None else (node.axes, node.keepdim, node.n, list(vars(node)))
                        outs.append((type(y._data), y._data.dtype, y._data.shape, y._data.strides,
                                     y._data.tobytes(), y.requires_grad, y.is_leaf, _node_record(y), attrs_seen))
                    assert outs[0] == outs[1], (op, dt, shape, kind)
    x = agrad.ones(2, 2, requires_grad=True)
    y = agrad.mean(x * 3.0)
    assert type(y.grad_fn).__name__ == "MeanBackward0" and y.grad_fn.axes == (0, 1) and y.grad_fn.n == 4
    assert y.item() == 3.0 and y.dtype is agrad.float32 and y.shape == ()


def test_binary_operator_skips_the_size_check_only_where_the_result_has_an_operands_size():
    """``a * b`` of two float tensors of one dtype checks the broadcast against the size limit, except
    where the result has one operand's shape (a 0-d operand, equal shapes)."""
    a, b = agrad.ones(3, 1, requires_grad=True), agrad.ones(1, 4)
    s = agrad.tensor(2.0)
    _limits.set_max_elements(10)
    try:
        with pytest.raises(_limits.LimitError):
            a * b
        with pytest.raises(_limits.LimitError):
            b + a
        assert (a * s).shape == (3, 1) and (s * b).shape == (1, 4) and (b * b).shape == (1, 4)
    finally:
        _limits.set_max_elements(_limits.DEFAULT_MAX_ELEMENTS)


def test_tensor_of_a_float_gives_what_the_general_way_gives():
    """torch.tensor(2.0)'s shortcut against _infer_dtype/_to_array/_finish: the same dtype (the
    default float, which may change), bits, warnings, requires_grad and tensor state."""
    from agrad.ops import factories

    def state(t):
        return (type(t._data), t._data.dtype, t._data.shape, t._data.tobytes(), t._requires_grad, t._grad_fn,
                t._output_nr, t._grad, t._accumulator, t._base, t._vc, t._retains)

    values = [2.0, -0.0, 0.1, 1e300, -1e300, 3.5e38, 65520.0, 1e-50, float("nan"), float("inf")]
    old = agrad.get_default_dtype()
    try:
        for default in (agrad.float32, agrad.float64, agrad.float16):
            agrad.set_default_dtype(default)
            for v in values:
                for rg in (False, True, 0, 1):
                    with warnings.catch_warnings(record=True) as w1:
                        warnings.simplefilter("always")
                        got = agrad.tensor(v, requires_grad=rg)
                    with warnings.catch_warnings(record=True) as w2:
                        warnings.simplefilter("always")
                        want = factories._finish(factories._to_array(v, factories._infer_dtype(v)), rg)
                    assert state(got) == state(want), (default, v, rg)
                    assert [str(w.message) for w in w1] == [str(w.message) for w in w2], (default, v)
    finally:
        agrad.set_default_dtype(old)


@pytest.mark.parametrize("name", ["sin", "cos", "exp", "log", "tanh", "sqrt", "sigmoid", "abs", "relu"])
def test_unary_of_one_float_element_gives_what_the_kernel_gives(name):
    """torch.<op>(x) of a float32 tensor of shape (1,) runs math's function itself and of a float64
    one calls the ufunc (no kernel frame): the bits, dtype, shape and node of the op's general way,
    with infinities, NaN, signed zeros and values a math function refuses."""
    fn = getattr(agrad, name)
    op = fn.op if hasattr(fn, "op") else fn.__wrapped__.op
    values = [v for v in _numbers() if type(v) is float][:120] + [-1.0, 1e-300, -2.5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dt in (agrad.float32, agrad.float64):
            for v in values:
                for grad in (True, False):
                    x = agrad.tensor([v], dtype=dt, requires_grad=grad)
                    got = fn(x)
                    want = op.apply((x,), (x._data,), {})
                    assert got._data.dtype == want._data.dtype and got._data.shape == want._data.shape
                    assert got._data.tobytes() == want._data.tobytes(), (name, dt, v)
                    assert _node_record(got) == _node_record(want)


def _unary_first_names():
    return [n for n in dir(agrad) if getattr(getattr(getattr(agrad, n), "__code__", None), "co_filename", "")
            .endswith("_unary_first.py")]


@pytest.mark.parametrize("dtype", [agrad.float32, agrad.float64])
def test_every_unary_function_of_one_element_gives_the_general_ways_tensor_and_node(dtype):
    """torch.<op>(x) of a float64 or float32 tensor of shape (1,) tells apply_one so (``one``: the
    records of input and result, no array read again): for every unary maths function with its
    check inline, the array type, dtype, shape, bits and node of the op's general way."""
    names = _unary_first_names()
    assert {"sin", "tanh", "exp", "log", "sigmoid", "relu", "abs", "trunc"} <= set(names)
    values = [0.3, -0.7, 2.5, -0.0, 0.0, 1e-300, 40.0, float("inf"), float("-inf"), float("nan")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            fn = getattr(agrad, name)
            op = type(fn(agrad.tensor([0.5], dtype=dtype, requires_grad=True)).grad_fn)._op
            for v in values:
                for grad in (True, False):
                    x = agrad.tensor([v], dtype=dtype, requires_grad=grad)
                    got = fn(x)
                    want = op.apply((x,), (x._data,), {})
                    assert type(got._data) is np.ndarray and got._data.dtype == x._data.dtype
                    assert got._data.shape == (1,) and got._data.tobytes() == want._data.tobytes(), (name, v)
                    assert _node_record(got) == _node_record(want), (name, v)
                    assert got.requires_grad is grad


@pytest.mark.parametrize("dtype", [agrad.float32, agrad.float64])
def test_arithmetic_of_one_element_and_a_number_records_what_apply_records(dtype):
    """``x * c`` and ``x + c`` of one float64 or float32 element (apply_one told ``one``): the
    tensor, node, edges, metadata and saved values of Op.apply's way; the gradient flows."""
    from agrad.ops.pointwise import _add, _mul

    for c in (0.9, 2, float("nan"), 1e300):
        for op, fn in ((_mul, lambda x: x * c), (_add, lambda x: x + c), (_mul, lambda x: c * x)):
            x = agrad.tensor([0.3], dtype=dtype, requires_grad=True)
            got = fn(x)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = op.apply((x, None), (x._data, weak(c, x._data)), {})
            assert type(got._data) is np.ndarray and got._data.dtype == want._data.dtype
            assert got._data.shape == (1,) and got._data.tobytes() == want._data.tobytes()
            assert _node_record(got) == _node_record(want)
            got.sum().backward()
            assert x.grad.dtype is dtype and x.grad.shape == (1,)


@pytest.mark.parametrize("name", ["sin", "tanh", "exp"])
def test_unary_function_with_its_check_inline_keeps_the_checks_errors(name):
    """torch.sin(x) runs its short ways inside the argument check (_unary_first): a non-tensor, an
    int tensor, a keyword call and a call with out= give what the checked general way gives."""
    fn = getattr(agrad, name)
    with pytest.raises(TypeError, match=rf"^{name}\(\): argument 'input' \(position 1\) must be Tensor, not float$"):
        fn(1.0)
    x = agrad.tensor([0.5, -1.0], dtype=agrad.float64)
    assert fn(input=x).tolist() == fn(x).tolist() == getattr(x, name)().tolist()
    out = agrad.empty(2, dtype=agrad.float64)
    assert fn(x, out=out) is out and out.tolist() == fn(x).tolist()
    assert fn(agrad.tensor([1, 2])).dtype == agrad.float32
    assert fn.__name__ == name


def test_arithmetic_of_one_float64_element_and_a_float_gives_the_ufuncs_bits():
    """``x * c``, ``c * x``, ``x + c``, ``c + x`` of one float64 element and a Python float compute on
    Python floats: numpy's bits (with NaNs of either sign and payload, infinities, signed zeros), but
    for a sum or product of two NaNs, which is c's NaN quieted (PyTorch's add kernel: other's NaN; its
    mul kernel's scalar loop beside a CPU scalar: the scalar's, _mul_nans)."""
    odd_nans = [float(np.frombuffer(np.array([b], np.uint64).tobytes(), np.float64)[0])
                for b in (0xFFF8000000000000, 0x7FF8000000000123, 0xFFF0000000000456)]
    values = [v for v in _numbers() if type(v) is float][:150] + odd_nans
    numbers = [0.9, 0.1, -0.0, 0.0, 1e308, -1e-320, float("inf"), float("-inf"), float("nan")] + odd_nans
    for grad in (True, False):
        for v in values:
            x = agrad.tensor([v], dtype=agrad.float64, requires_grad=grad)
            for c in numbers:
                w = weak(c, x._data)
                total = np.add(x._data, w)
                if v != v and c != c:
                    total = (np.array([c]).view(np.int64) | (1 << 51)).view(np.float64)
                product = np.multiply(x._data, w) if v == v or c == c else total
                for got, want in ((x * c, product), (c * x, product),
                                  (x + c, total), (c + x, total)):
                    assert got._data.dtype == want.dtype and got._data.shape == (1,)
                    assert got._data.tobytes() == want.tobytes(), (v, c)
                    assert got.requires_grad is grad


def test_mul_backward_of_one_float64_element_and_a_float_gives_the_ufuncs_bits():
    """``x * c``'s gradient of one float64 element computes ``g * c`` on Python floats: numpy's bits, but
    c's NaN quieted where both are NaN (PyTorch's mul kernel beside a CPU scalar, _mul_nans)."""
    odd_nan = float(np.frombuffer(np.array([0xFFF8000000000001], np.uint64).tobytes(), np.float64)[0])
    grads = [v for v in _numbers() if type(v) is float][:60] + [odd_nan]
    for c in [0.9, -0.0, 1e308, float("inf"), float("nan"), odd_nan, 3]:
        for gv in grads:
            x = agrad.tensor([0.5], dtype=agrad.float64, requires_grad=True)
            g = agrad.tensor([gv], dtype=agrad.float64)
            (x * c).backward(g)
            want = np.multiply(g._data, weak(c, g._data))
            if gv != gv and c != c:
                want = (np.array([c]).view(np.int64) | (1 << 51)).view(np.float64)
            assert x.grad._data.dtype == want.dtype and x.grad._data.tobytes() == want.tobytes(), (gv, c)


@pytest.mark.parametrize("grad", [True, False])
def test_shortcuts_tell_the_record_hooks_what_apply_tells_them(grad):
    """With a record hook installed (``agrad graph``'s origins) the short ways still run and tell
    it what apply tells it: the node, the tensors, the outputs and the call, once a recorded op."""
    from agrad.autograd import graph
    from agrad.ops import means
    from agrad.ops.pointwise import _add, _mul
    from agrad.ops.unary import sin, tanh

    def calls(way, op, make, numbers=(), attrs=None):
        seen = []

        def hook(node, tensors, outputs, call):
            seen.append((node, tensors, outputs, call))

        ts = make()
        arrays = tuple(t._data for t in ts) + numbers
        graph.record_hooks.append(hook)
        try:
            with agrad.set_grad_enabled(grad):
                if way == "apply":
                    y = op.apply(ts + (None,) * len(numbers), arrays, dict(attrs or {}))
                elif way == "apply_one":
                    y = op.apply_one(ts[0], arrays)
                elif way == "apply_two":
                    y = op.apply_two(ts[0], ts[1], arrays)
                else:
                    y = op.apply_single(ts[0], dict(attrs))
        finally:
            graph.record_hooks.remove(hook)
        assert all(node is y.grad_fn and outputs == (y,) for node, _, outputs, _ in seen)
        return [(_node_record(y), [id(t) if t is not None else None for t in tensors] == [id(t) for t in ts]
                 + [None] * len(numbers), call[0], [np.asarray(a).tobytes() for a in call[1]], call[2])
                for _, tensors, _, call in seen]

    rng = np.random.RandomState(6)
    for dt in (agrad.float32, agrad.float64):
        def one():
            return (agrad.tensor(rng.randn(3), dtype=dt, requires_grad=True),)

        def two():
            return (agrad.tensor(rng.randn(3), dtype=dt, requires_grad=True), agrad.tensor(0.5, dtype=dt))
        for op, numbers in ((sin.op, ()), (tanh.op, ()), (_mul, (0.9,)), (_add, (2,))):
            state = rng.get_state()
            want = calls("apply", op, one, numbers)
            rng.set_state(state)
            assert calls("apply_one", op, one, numbers) == want and len(want) == grad
        for op in (_add, _mul):
            state = rng.get_state()
            want = calls("apply", op, two)
            rng.set_state(state)
            assert calls("apply_two", op, two) == want and len(want) == grad
        attrs = {"axes": (0,), "keepdim": False}
        state = rng.get_state()
        want = calls("apply", means._mean0, one, attrs=attrs)
        rng.set_state(state)
        assert calls("apply_single", means._mean0, one, attrs=attrs) == want and len(want) == grad
