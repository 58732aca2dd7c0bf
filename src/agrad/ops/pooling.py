"""Pooling: max_pool1d/2d/3d (with indices), avg_pool1d/2d/3d, adaptive_avg_pool1d/2d/3d.

The windows come from the convolution family's ``windows_np`` (a strided
view, no Python loop over pixels).  As in ATen, the 1-D forms are the 2-D
ops between ``unsqueeze(-2)`` and ``squeeze(-2)``, and an unbatched input is
handled inside the op.  Backward formulas are agrad ops: max pooling's is a
scatter of the gradient to the arg-max positions (whose derivative is a
``gather``), average pooling's a ``col2im`` of the gradient over each window.

Adaptive average pooling runs ATen's loops over each output's window (a step
per window offset, vectorised over the outputs): the same sums in the same
order, and a NaN or an infinity reaches only the windows that hold it.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from ._layout import c_order, in_input_format, suggested_format
from ._op import Op, export
from .convolution import col2im_np, ntuple, windows_np
from .factories import zeros, zeros_like
from .nn import _scalar_name, check_floating, const

# ---------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------


def pool_size(n, k, pad, s, d, ceil_mode):
    """ATen's pooling_output_shape for one dim."""
    out = (n + 2 * pad - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + pad:
        out -= 1
    return out


_SIZES = {2: "two", 3: "three"}


def _list_sizes(fname, sp, kernel_size, stride, padding, dilation):
    """The 2-D/3-D pools' meta functions' first checks: each int list of one or ``sp`` ints (stride: or none)."""
    either = "" if fname == "avg_pool3d" else "either "
    for pname, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding), ("dilation", dilation)):
        if not isinstance(v, (list, tuple)) or len(v) in (1, sp) or pname == "stride" and not v:
            continue
        if pname == "dilation":
            raise RuntimeError(f"{fname}: dilation must be either a single int, or a tuple of {_SIZES[sp]} ints")
        omitted = "omitted, " if pname == "stride" else ""
        raise RuntimeError(f"{fname}: {pname} must {either}be {omitted}a single int, or a tuple of {_SIZES[sp]} ints")


def _positive(sp, k, s, d):
    """pool2d_shape_check's / pool3d_shape_check's checks of the parameters."""
    dims = "HW" if sp == 2 else "THW"
    for vals, text, prefix in ((k, "kernel size", "k"), (s, "stride", "d"), (d, "dilation", "dilation")):
        if any(v <= 0 for v in vals):
            got = " ".join(f"{prefix}{a}: {v}" for a, v in zip(dims, vals))
            raise RuntimeError(f"{text} should be greater than zero, but got {got}")


def _pool_args(fname, sp, input, kernel_size, stride, padding, dilation, ceil_mode):
    checked = sp in (2, 3) and fname in ("avg_pool2d", "max_pool2d", "avg_pool3d", "max_pool3d")
    if checked:
        _list_sizes(fname, sp, kernel_size, stride, padding, dilation)
    k = ntuple(kernel_size, sp, "kernel_size")
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else ntuple(stride, sp, "stride")
    p = ntuple(padding, sp, "padding")
    d = ntuple(dilation, sp, "dilation")
    wrong_dims = input.ndim not in (sp + 1, sp + 2)
    if checked and not (wrong_dims and fname.startswith("max")):  # (pooling_output_shape's, then the shape check's)
        for kk, pp, ss, dd in zip(k, p, s, d):
            if ss == 0:
                raise RuntimeError("stride should not be zero")
            if pp < 0:
                raise RuntimeError(f"pad must be non-negative, but got pad: {pp}")
            half = abs(dd * (kk - 1) + 1) // 2 * (1 if dd * (kk - 1) + 1 >= 0 else -1)  # (C's division)
            if pp > half:
                raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pp}, "
                                   f"kernel_size={kk} and dilation={dd}")
        _positive(sp, k, s, d)
    if wrong_dims or any(n == 0 for n in input.shape[-sp - 1:]):
        if sp == 2 and (not wrong_dims or fname.startswith("avg")):  # (pool2d_shape_check: a 0 batch is fine)
            raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
                               f"but got:[{', '.join(map(str, input.shape))}]")
        raise RuntimeError(f"non-empty {sp + 1}D or {sp + 2}D (batch mode) tensor expected for input")
    for kk, pp, dd in zip(k, p, d):
        if pp > (dd * (kk - 1) + 1) // 2 and pp > kk // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={pp}, kernel_size={kk} and "
                f"dilation={dd}")
    size = tuple(input.shape[-sp:])
    if fname == "avg_pool3d" and any(n < kk for n, kk in zip(size, k)):  # (pool3d_shape_check's check_input_size)
        raise RuntimeError(f"input image (T: {size[0]} H: {size[1]} W: {size[2]}) smaller than kernel size "
                           f"(kT: {k[0]} kH: {k[1]} kW: {k[2]})")
    o = tuple(pool_size(n, kk, pp, ss, dd, ceil_mode) for n, kk, pp, ss, dd in zip(size, k, p, s, d))
    if any(n < 1 for n in o):
        c = input.shape[-sp - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (c,) + size))}). Calculated output size: "
                           f"({'x'.join(map(str, (c,) + o))}). Output size is too small")
    pads = tuple((pp, pp) for pp in p)
    return k, s, pads, d, o


# ---------------------------------------------------------------------------
# max pooling
# ---------------------------------------------------------------------------

def _flat_index(size, k, d, pads, s, o):
    """For each output position and kernel offset, the flat input index it reads: (*o, K)."""
    grids = []
    for i in range(len(k)):
        pos = (np.arange(o[i]) * s[i] - pads[i][0])[:, None] + np.arange(k[i]) * d[i]  # (o_i, k_i)
        grids.append(pos)
    flat = np.zeros((1,) * (2 * len(k)), np.int64)
    for i, pos in enumerate(grids):
        shape = [1] * (2 * len(k))
        shape[i], shape[len(k) + i] = pos.shape
        flat = flat * size[i] + pos.reshape(shape)
    return flat.reshape(*o, -1)


def _max_pool_fwd(ctx, x, kernel, stride, pads, dilation, nblocks):
    sp = len(kernel)
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    win = windows_np(x, kernel, dilation, pads, stride, nblocks, fill=fill)
    win = win.reshape(win.shape[:x.ndim] + (math.prod(kernel),))
    arg = np.argmax(win, axis=-1)[..., None]
    if x.dtype.kind == "f":  # PyTorch's loop takes a NaN whenever it meets one (val > max || isnan(val)): the last
        nan = np.isnan(win)
        if nan.any():
            last = win.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)[..., None]
            arg = np.where(nan.any(-1, keepdims=True), last, arg)
        # a window of -inf (and padding) only: the kernel's starting index, its first position inside the input
        lowest = np.take_along_axis(win, arg, -1)[..., 0] == -np.inf
        if lowest.any():
            inside = windows_np(np.ones((1,) * (x.ndim - sp) + x.shape[-sp:], bool), kernel, dilation, pads, stride,
                                nblocks, fill=False)
            first = np.argmax(inside.reshape(inside.shape[:x.ndim] + (-1,)), axis=-1)[..., None]
            arg = np.where(lowest[..., None], first, arg)
    values = np.take_along_axis(win, arg, -1)[..., 0]
    table = _flat_index(x.shape[-sp:], kernel, dilation, pads, stride, nblocks)
    indices = np.take_along_axis(np.broadcast_to(table, arg.shape[:-1] + table.shape[-1:]), arg, -1)[..., 0]
    ctx.indices = indices
    return values, indices


def _scatter_fwd(ctx, g, x, indices, size):
    """Add each gradient to its input position (flat indices over the trailing dims)."""
    lead = g.shape[:g.ndim - len(size)]
    rows = math.prod(lead)
    n = math.prod(size)
    flat = (indices.reshape(rows, math.prod(indices.shape[len(lead):])) + np.arange(rows)[:, None] * n).ravel()
    if g.dtype != np.float64:  # (ATen's grad_input[index] += grad, one output after the other, in the gradient's type:
        out = np.zeros(rows * n, g.dtype)  # bincount's double sums round once)
        np.add.at(out, flat, g.reshape(-1))
        return out.reshape(lead + tuple(size))
    out = np.bincount(flat, weights=g.reshape(-1), minlength=rows * n)
    return out.reshape(lead + tuple(size)).astype(g.dtype, copy=False)


def _c_format(arrays):
    """No memory format: C order, whatever the input's layout (the 3-d average and adaptive pools' outputs,
    ``at::empty`` of their sizes)."""
    return None


def _in_self_format(backward):
    """A pooling backward's forward (grad_output, self, ...): its grad_input laid out in self's suggested memory
    format, as ATen allocates it (a channels-last input, e.g. a 1-d pooling's unsqueezed transposed input)."""
    return in_input_format(backward, formats=lambda arrays: suggested_format(arrays[1]))


def _max_pool_op(n, name="MaxPool{n}DWithIndices", forward=_max_pool_fwd, scatter=_scatter_fwd, zeros_c_order=False,
                 input_format=True):
    """The op of a max pooling with indices (``name``'s node, ``forward``'s values and indices) and
    its backward op, whose own derivative gathers the gradient back (adaptive max pooling's
    scatters into the input's memory format and gives self C-ordered zeros). ``input_format``: the
    values and indices laid out in the input's suggested memory format (else C order, and the
    gradient too: adaptive_max_pool3d's kernels)."""
    name = name.format(n=n)
    # (it saves the indices it returns, result1: a change in place to them fails the backward, as PyTorch's)
    op = Op(f"{name}Backward0", in_input_format(forward, **({} if input_format else {"formats": _c_format})),
            outputs=1, saves=("self", "result1"),
            output_names=("result0", "result1"))
    # max_pool2d_with_indices_backward(grad_output, self, ...): self only for its shape (zero derivative)
    # (it saves indices, which a backward frees: a second one through it fails, as PyTorch's)
    back = Op(f"{name}BackwardBackward0", scatter if zeros_c_order else _in_self_format(scatter),
              inputs=("grad_output", "self"), internal=True, jvp="linear",
              keeps={"indices": "indices"})

    @op.derivative
    def _(ctx, grad):
        return back(grad, ctx.self, indices=ctx.result1._data, size=tuple(ctx.input_shape[-n:]))

    @back.derivative
    def _(ctx, grad):
        flat = grad.reshape(*grad.shape[:grad.ndim - n], -1)
        idx = const(ctx.indices.reshape(*ctx.indices.shape[:ctx.indices.ndim - n], -1))
        gg = flat.gather(-1, idx).reshape(ctx._input_meta[0][0]) if ctx.needs(0) else None
        if not ctx.needs(1):
            return gg, None
        return gg, zeros(tuple(grad.shape), dtype=grad.dtype)  # (self's zeros C-ordered whatever its layout: the
        # codegen's at::zeros(self_sym_sizes, self_options) for zeros_like(self))

    return op


_MAX_POOL = {n: _max_pool_op(n) for n in (2, 3)}


def _kernel_name(fname, input):
    """The name ATen's dispatch errors give a pooling kernel: ``*_channels_last`` for an input laid out so."""
    fmt = suggested_format(input._data)
    return fname + "_channels_last" if fmt is not None and fmt.startswith("channels_last") else fname


_WITH_INDICES = ("(Tensor input, tuple of ints kernel_size, tuple of ints stride = (), tuple of ints padding = 0, "
                 "tuple of ints dilation = 1, bool ceil_mode = False)")


def parse_as_aten(name, args):
    """F's Python front passes its arguments on to ATen's ``name`` (torch.max_pool2d,
    torch._C._nn.max_pool2d_with_indices, ...), whose parser refuses a bool or float where it takes
    ints: its TypeError first."""
    from ._pyargs import parser_error, signature_error

    if name.endswith("with_indices") and name != "max_pool1d_with_indices":
        message = signature_error(name, _WITH_INDICES, args, {})
    else:
        message = parser_error("torch." + name, args, {})
    if message is not None:
        raise TypeError(message)


def _max_pool(fname, sp, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    parse_as_aten(fname + ("_with_indices" if return_indices else ""),
                  (input, kernel_size, () if stride is None else stride, padding, dilation, ceil_mode))
    k, s, pads, d, o = _pool_args(fname, sp, input, kernel_size, stride, padding, dilation, ceil_mode)
    if input.dtype is dtypes.bool_:  # (the CPU kernels' dispatch: every type but bool)
        raise NotImplementedError(f"\"{_kernel_name(fname, input)}\" not implemented for 'Bool'")
    values, indices = _MAX_POOL[sp](input, kernel=k, stride=s, pads=pads, dilation=d, nblocks=o)
    return (values, indices) if return_indices else values


def _check1d(fname, **lists):
    """ATen's check1d: an int list of one int (an empty stride is the kernel's)."""
    for pname, v in lists.items():
        if isinstance(v, (list, tuple)) and len(v) != 1 and not (pname == "stride" and not v):
            raise RuntimeError(f"{fname}() argument '{pname}' should contain one int (got {len(v)})")


def _check_max_pool1d(kernel_size, stride, padding, dilation):
    """max_pool1d's own 1-D kernel's checks (no grad): the list sizes, then the values."""
    size = lambda v: len(v) if isinstance(v, (list, tuple)) else 1
    for pname, v, what in (("kernel_size", kernel_size, "an int, list of ints or tuple of ints"),
                           ("stride", stride, "None, an int, list of ints, or tuple of ints"),
                           ("padding", padding, "an int, list of ints, or tuple of ints"),
                           ("dilation", dilation, "an int, list of ints or tuple of ints")):
        if v is not None and size(v) != 1 and not (pname == "stride" and size(v) == 0):
            raise RuntimeError(f"max_pool1d() {pname} must be {what} of size 1 but got size {size(v)}")
    k = ntuple(kernel_size, 1)[0]
    s = k if stride is None or size(stride) == 0 else ntuple(stride, 1)[0]
    p, d = ntuple(padding, 1)[0], ntuple(dilation, 1)[0]
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    return k, s, p, d


def _max_pool1d_size(input, k, s, p, d, ceil_mode):
    """check_max_pool1d's last check: pooling_output_shape of the last dim (before the kernel's dtype)."""
    n = input.shape[-1]
    ow = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (ow - 1) * s >= n + p:
        ow -= 1
    if ow <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {ow}")


def _max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    parse_as_aten("max_pool1d_with_indices" if return_indices else "max_pool1d",
                  (input, kernel_size, () if stride is None else stride, padding, dilation, ceil_mode))
    shape = input.shape
    if input.ndim not in (2, 3) or not return_indices and 0 in shape[-2 if input.ndim == 3 else 0:]:
        # (max_pool1d's own check: an empty dim but a 3-d input's batch is refused too)
        if return_indices:  # (max_pool1d_with_indices' own dimension check)
            raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                               "'self' (while checking arguments for max_pool1d)")
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(shape)}")
    if return_indices:  # (max_pool1d_with_indices' check1d; max_pool1d checks first, with grad or without)
        _check1d("max_pool1d", kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)
    else:
        _max_pool1d_size(input, *_check_max_pool1d(kernel_size, stride, padding, dilation), ceil_mode)
    k = (1, ntuple(kernel_size, 1)[0])
    s = None if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else (1, ntuple(stride, 1)[0])
    if not input.dtype.is_floating_point and not return_indices:  # (no grad: ATen's own 1-D kernel, floats only)
        from ..tensor import _scalar_name
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{_scalar_name(input.dtype)}'")
    try:
        values, indices = _max_pool("max_pool2d", 2, input.unsqueeze(-2), k, s, (0, ntuple(padding, 1)[0]),
                                    (1, ntuple(dilation, 1)[0]), ceil_mode, True)
    except RuntimeError as e:  # (max_pool1d without indices: its own kernel's output-size check)
        size = str(e).partition("Calculated output size: (")[2]
        if return_indices or not size:
            raise
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {size.split(')')[0].split('x')[-1]}") \
            from None
    values = values.squeeze(-2)
    if return_indices:
        return values, indices.squeeze(-2)
    if values.grad_fn is None and not values.requires_grad:
        # (without grad, ATen's max_pool1d runs its own 1-D kernel into a fresh C-ordered result: no view)
        return Tensor._make(c_order(values._data))
    return values


@export(functional=True, torch=False)
def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows of the last dim (the 2-D op between unsqueeze and squeeze)."""
    return _max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


@export(functional=True, torch=False)
def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return _max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


@export(functional=True, torch=False)
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows of the last two dims (MaxPool2DWithIndicesBackward0)."""
    return _max_pool("max_pool2d", 2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


@export(functional=True, torch=False)
def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return _max_pool("max_pool2d", 2, input, kernel_size, stride, padding, dilation, ceil_mode, True)


@export(functional=True, torch=False)
def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows of the last three dims (MaxPool3DWithIndicesBackward0)."""
    return _max_pool("max_pool3d", 3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def _torch_form(functional, name):
    """torch.max_pool1d/2d/3d and torch.max_pool1d_with_indices: ATen's functions, which have no
    ``return_indices`` (F's Python wrappers add it): ``torch.max_pool2d(x, 2, return_indices=True)`` is a
    TypeError there."""

    def form(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        return functional(input, kernel_size, stride, padding, dilation, ceil_mode)

    form.__doc__ = functional.__doc__
    return export(name)(form)


for _functional in (max_pool1d, max_pool1d_with_indices, max_pool2d, max_pool3d):
    _torch_form(_functional, _functional.__name__)


# ---------------------------------------------------------------------------
# average pooling
# ---------------------------------------------------------------------------

def _divisors(size, k, pads, s, o, count_include_pad, divisor_override):
    """The divisor of each output position, (*o): ATen's pool_size or the count of real inputs."""
    if divisor_override:
        return np.full(o, float(divisor_override))
    div = np.ones((), np.float64)
    for i in range(len(k)):
        start = np.arange(o[i]) * s[i] - pads[i][0]
        end = np.minimum(start + k[i], size[i] + pads[i][0])
        n = end - start
        if not count_include_pad:
            n = np.minimum(end, size[i]) - np.maximum(start, 0)
        div = np.multiply.outer(div, n.astype(np.float64))
    return div


def _avg_pool_fwd(ctx, x, kernel, stride, pads, nblocks, divisor):
    sp = len(kernel)
    win = windows_np(x, kernel, (1,) * sp, pads, stride, nblocks)
    # ATen's cpu_avg_pool: each window summed in order (depth, height, width) in the opmath type
    # (float for float16), padding adding zeros, then one division by the integer divisor
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    total = np.zeros(win.shape[:x.ndim], acc)
    for offset in np.ndindex(*kernel):
        total += win[(Ellipsis,) + offset]
    if x.dtype.kind == "i":  # int64: C++'s integer division (towards zero)
        q = np.abs(total) // divisor.astype(np.int64)
        return np.where(total < 0, -q, q)
    return (total / divisor.astype(acc)).astype(x.dtype, copy=False)


def _avg_pool_backward_fwd(ctx, g, x, kernel, stride, pads, nblocks, divisor):
    """Spread each output's gradient / divisor back over its window (col2im)."""
    n = len(kernel)
    lead = x.shape[:x.ndim - n]
    batch = math.prod(lead)
    g = (g / divisor).astype(g.dtype, copy=False).reshape(batch, 1, math.prod(nblocks))
    cols = np.broadcast_to(g, (batch, math.prod(kernel), g.shape[-1]))
    out = col2im_np(cols, x.shape[-n:], kernel, (1,) * n, pads, stride, nblocks, outputs_in_order=True)
    return out.reshape(x.shape)


def _avg_pool_op(n):
    # (avg_pool3d's output is C-ordered whatever the input's layout: its meta function's set_output_raw_strided
    # with no strides; avg_pool2d's follows a channels-last input)
    op = Op(f"AvgPool{n}DBackward0", in_input_format(_avg_pool_fwd, **({} if n == 2 else {"formats": _c_format})),
            saves=("self",), jvp="linear")
    # avg_pool2d_backward(grad_output, self, ...): self only for its shape (zero derivative)
    back = Op(f"AvgPool{n}DBackwardBackward0", _in_self_format(_avg_pool_backward_fwd) if n == 2 else
              _avg_pool_backward_fwd, inputs=("grad_output", "self"), internal=True, jvp="linear")

    @op.derivative
    def _(ctx, grad):
        return back(grad, ctx.self, kernel=ctx.kernel, stride=ctx.stride, pads=ctx.pads, nblocks=ctx.nblocks,
                    divisor=ctx.divisor)

    @back.derivative
    def _(ctx, grad):
        gg = op(grad, kernel=ctx.kernel, stride=ctx.stride, pads=ctx.pads, nblocks=ctx.nblocks,
                divisor=ctx.divisor) if ctx.needs(0) else None
        return gg, (zeros(tuple(grad.shape), dtype=grad.dtype) if ctx.needs(1) else None)  # (C-ordered)

    return op


_AVG_POOL = {n: _avg_pool_op(n) for n in (2, 3)}


def _avg_pool(fname, sp, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    if sp == 2 and input.ndim < 3:  # (avg_pool2d's shape function reads size(-3) first)
        if input.ndim == 0:
            raise IndexError("Dimension specified as -3 but tensor has no dimensions")
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.ndim}, {input.ndim - 1}], "
                         f"but got -3)")
    k, s, pads, d, o = _pool_args(fname, sp, input, kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    # the kernels' dtypes: floating and int64 (avg_pool3d's frame kernel: no float16)
    if not (input.dtype.is_floating_point or input.dtype == dtypes.int64) or (sp == 3 and input.dtype == dtypes.float16):
        # (avg_pool2d's CPU kernel dispatches by the input's suggested memory format)
        name = "avg_pool3d_out_frame" if sp == 3 else "avg_pool2d_channels_last" if suggested_format(
            input._data) == "channels_last" else "avg_pool2d"
        raise NotImplementedError(f"\"{name}\" not implemented for '{_scalar_name(input.dtype)}'")
    div = _divisors(input.shape[-sp:], k, pads, s, o, count_include_pad, divisor_override)
    return _AVG_POOL[sp](input, kernel=k, stride=s, pads=pads, nblocks=o, divisor=div)


@export(functional=True)
def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """Mean over sliding windows of the last dim (the 2-D op between unsqueeze and squeeze)."""
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for avg_pool1d)")
    _check1d("avg_pool1d", kernel_size=kernel_size, stride=stride, padding=padding)
    s = None if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else (1, ntuple(stride, 1)[0])
    out = _avg_pool("avg_pool2d", 2, input.unsqueeze(-2), (1, ntuple(kernel_size, 1)[0]), s,
                    (0, ntuple(padding, 1)[0]), ceil_mode, count_include_pad, None)
    return out.squeeze(-2)


@export(functional=True, torch=False)
def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None, *, out=None):
    """Mean over sliding windows of the last two dims (AvgPool2DBackward0)."""
    result = _avg_pool("avg_pool2d", 2, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                       divisor_override)
    return result if out is None else _pooled_into("avg_pool2d", input, result, out, kernel_size, stride, padding,
                                                   ceil_mode, count_include_pad, divisor_override)


@export(functional=True, torch=False)
def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None, *, out=None):
    """Mean over sliding windows of the last three dims (AvgPool3DBackward0)."""
    result = _avg_pool("avg_pool3d", 3, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                       divisor_override)
    return result if out is None else _pooled_into("avg_pool3d", input, result, out, kernel_size, stride, padding,
                                                   ceil_mode, count_include_pad, divisor_override)


def _pooled_into(fname, input, result, out, kernel_size, stride, padding, ceil_mode, count_include_pad,
                 divisor_override):
    """The structured pools' meta into out=: out's dtype the input's ("Expected out tensor to have dtype"),
    out resized (with its warning), then written as the kernel writes it (_out_alias.pooled_into)."""
    from ._op import finish_out
    from ._out_alias import pooled_into
    from ._outs import matrix_out
    sp = 3 if fname == "avg_pool3d" else 2
    k, s, pads, _, _ = _pool_args(fname, sp, input, kernel_size, stride, padding, 1, ceil_mode)
    matrix_out(fname, (input,), input.dtype, result.shape, out)
    if pooled_into(fname, input, result, out, k, s, pads, count_include_pad, divisor_override):
        out._vc[0] += 1
        from ..autograd import graph
        for obs in graph.version_observers:
            obs(out)
        return out
    return finish_out(fname, result, out)


# ---------------------------------------------------------------------------
# adaptive average pooling: ATen's loops over each output's window
# ---------------------------------------------------------------------------

def _adaptive_windows(n_in, n_out):
    """Output i averages input [floor(i*n_in/n_out), ceil((i+1)*n_in/n_out)): (starts, ends)."""
    i = np.arange(n_out)
    return (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)


def _along(values, d, sp):
    """``values`` (1-D) shaped to broadcast along the d-th of the last ``sp`` dims."""
    shape = [1] * sp
    shape[d] = -1
    return values.reshape(shape)


def _sequential_sums(arr, first, count, acc):
    """For each position p of the trailing len(first) dims (sizes len(first[d])): the sum from 0, in
    ``acc``, one element at a time in C order, of ``arr[..., first[d][p_d] + k_d]`` over the steps
    ``k_d < count[d][p_d]`` (a cumsum adds in order; the missing steps add zeros at the end)."""
    sp = len(first)
    steps = tuple(int(c.max()) if c.size else 0 for c in count)
    if 0 in steps:  # an empty output (size 0), or positions that each sum nothing: zeros
        return np.zeros(arr.shape[:arr.ndim - sp] + tuple(len(f) for f in first), acc)
    index, mask = [], True
    for d, (f, c, k) in enumerate(zip(first, count, steps)):
        shape = [1] * (2 * sp)
        shape[d], shape[sp + d] = -1, k
        ks = np.arange(k)
        mask = mask & (ks < c[:, None]).reshape(shape)
        index.append(np.minimum(f[:, None] + ks, arr.shape[d - sp] - 1).reshape(shape))
    picked = np.where(mask, arr[(...,) + tuple(index)], 0).astype(acc, copy=False)
    picked = picked.reshape(picked.shape[:picked.ndim - sp] + (math.prod(steps),))
    return np.cumsum(picked, axis=-1, dtype=acc)[..., -1] + acc.type(0)  # (from 0: -0.0 sums to +0.0)


def _adaptive_avg_np(x, windows):
    """cpu_adaptive_avg_pool{2,3}d: each output sums its window in C order from 0, then divides by
    the window's extent dim by dim (sum / kh / kw). 2-D: in the accumulate type (float for float16);
    3-D's float16 kernel sums and divides in float16 (c10::Half arithmetic: in float, rounded)."""
    sp = len(windows)
    acc = np.dtype(np.float32 if x.dtype == np.float16 and sp == 2 else x.dtype)
    work = np.float32 if acc == np.float16 else acc
    out = _sequential_sums(x, [s for s, _ in windows], [e - s for s, e in windows], acc)
    for d, (s, e) in enumerate(windows):
        out = (out.astype(work) / _along(e - s, d, sp)).astype(acc)
    return np.ascontiguousarray(out.astype(x.dtype, copy=False))


def _adaptive_avg_backward_np(g, size, windows, sp):
    """cpu_adaptive_avg_pool{2,3}d_backward: grad_delta = grad / kh / kw (in the tensor's dtype),
    added to each input of the window, outputs in C order, into zeros: an input gets its covering
    outputs' deltas in that order (a NaN or an infinity reaches its window only). First its check that
    every dim of the gradient but the first is non-empty."""
    for i in range(1, g.ndim):
        if g.shape[i] == 0:
            raise RuntimeError(f"adaptive_avg_pool{sp}d_backward(): Expected grad_output to have non-zero size for "
                               f"non-batch dimensions, but grad_output has sizes {list(g.shape)} with dimension {i} "
                               f"being empty")
    work = np.float32 if g.dtype == np.float16 else g.dtype
    delta = g
    for d, (s, e) in enumerate(windows):
        delta = (delta.astype(work) / _along(e - s, d, sp)).astype(g.dtype)
    first, count = [], []
    for n, (s, e) in zip(size, windows):
        cover = (np.arange(n)[:, None] >= s) & (np.arange(n)[:, None] < e)
        first.append(cover.argmax(1))
        count.append(cover.sum(1))
    return np.ascontiguousarray(_sequential_sums(delta, first, count, g.dtype))


def _adaptive_op(sp):
    """AdaptiveAvgPool{sp}DBackward0; its backward ``_adaptive_avg_pool{sp}d_backward(grad, self)`` (self
    for its shape only, zero derivative) is linear, its derivative the forward op on the gradient."""
    name = f"AdaptiveAvgPool{sp}DBackward0"
    # (adaptive_avg_pool3d's output is C-ordered whatever the input's layout: the CPU template's resize_)
    op = Op(name, in_input_format(lambda ctx, x, windows: _adaptive_avg_np(x, windows),
                                  **({} if sp == 2 else {"formats": _c_format})), saves=("self",), jvp="linear")
    back = Op(name.replace("Backward0", "BackwardBackward0"),
              (_in_self_format if sp == 2 else lambda f: f)(
                  lambda ctx, g, x, windows: _adaptive_avg_backward_np(g, x.shape[-sp:], windows, sp)),
              inputs=("grad_output", "self"), internal=True, jvp="linear")

    @op.derivative
    def _(ctx, grad):
        return back(grad, ctx.self, windows=ctx.windows)

    @back.derivative
    def _(ctx, grad):
        return op(grad, windows=ctx.windows), zeros(tuple(grad.shape), dtype=grad.dtype) if ctx.needs(1) else None

    return op


_ADAPTIVE_AVG = {n: _adaptive_op(n) for n in (2, 3)}


def _adaptive_avg(fname, sp, input, output_size):
    """adaptive_avg_pool{sp}d_symint: the size checks, 1 x 1 as a mean (before any check of the input), then
    the CPU template's: 2-D checks the rank, then the last two dims, and an empty output skips the kernel (and its
    dtype dispatch); 3-D checks every non-batch dim, then the rank, and always dispatches."""
    from .pooling_composites import _with_default  # (F's _list_with_default, then ATen's parse)

    output_size = _with_default(output_size, tuple(input.shape), fname, input)
    if isinstance(output_size, int):
        output_size = (output_size,) * sp
    output_size = tuple(int(v) for v in output_size)
    if len(output_size) != sp:
        raise RuntimeError(f"{fname}: output_size must be {sp}")
    if any(v < 0 for v in output_size):
        received = ", ".join(str(v) for v in output_size[:2]) + "".join(f",{v}" for v in output_size[2:])
        raise RuntimeError(f"{fname}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{received}}}")
    if all(v == 1 for v in output_size):
        out = input.mean(tuple(range(-1, -sp - 1, -1)), keepdim=True)
        if suggested_format(input._data) is not None:  # (a channels-last input: ATen restrides the mean in place,
            n, c = input.shape[:2]  # as_strided_ to channels-last strides: AsStridedBackward1, version 1)
            out.as_strided_((n, c) + (1,) * sp, (c, 1) + (c,) * sp)
        return out
    ndim = input.ndim
    if sp == 2 and ndim not in (3, 4):
        raise RuntimeError(f"{fname}(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    for i in (range(ndim - 2, ndim) if sp == 2 else range(1, ndim)):
        if input.shape[i] == 0:
            raise RuntimeError(f"{fname}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(input.shape)} with dimension {i} being empty")
    if sp == 3 and ndim not in (4, 5):
        raise RuntimeError(f"{fname}(): Expected 4D or 5D tensor, but got {list(input.shape)}")
    empty = 0 in output_size or 0 in input.shape[:ndim - sp]
    if sp == 3 or not empty:
        check_floating(input, fname + ("_cpu" if sp == 3 else ""))
    size = tuple(input.shape[-sp:])
    windows = tuple(_adaptive_windows(n, m) for n, m in zip(size, output_size))
    return _ADAPTIVE_AVG[sp](input, windows=windows)


@export(functional=True)
def adaptive_avg_pool1d(input, output_size):
    """Average over adaptive windows of the last dim (the 2-D op between unsqueeze and squeeze)."""
    parse_as_aten("adaptive_avg_pool1d", (input, output_size))
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for adaptive_avg_pool1d)")
    size = tuple(output_size) if isinstance(output_size, (list, tuple)) else (output_size,)
    if len(size) != 1:
        raise RuntimeError(f"adaptive_avg_pool1d() argument 'output_size' should contain one int (got {len(size)})")
    return _adaptive_avg("adaptive_avg_pool2d", 2, input.unsqueeze(-2), (1, int(size[0]))).squeeze(-2)


@export(functional=True, torch=False)
def adaptive_avg_pool2d(input, output_size):
    """Average over adaptive windows of the last two dims (AdaptiveAvgPool2DBackward0)."""
    return _adaptive_avg("adaptive_avg_pool2d", 2, input, output_size)


@export(functional=True, torch=False)
def adaptive_avg_pool3d(input, output_size):
    """Average over adaptive windows of the last three dims (AdaptiveAvgPool3DBackward0)."""
    return _adaptive_avg("adaptive_avg_pool3d", 3, input, output_size)
