"""Convolution: conv1d/2d/3d, conv_transpose1d/2d/3d, unfold (im2col), fold (col2im).

Every convolution is one ``ConvolutionBackward0`` node, as in PyTorch.  The
forward runs on numpy as im2col + one batched matmul (windows taken with
``sliding_window_view``, no Python loop over pixels).  Its backward is
convolution_backward, an op of its own (``ConvolutionBackwardBackward0`` under
``create_graph=True``, edges to grad_output, input and weight), computed with
``matmul``, ``reshape`` and the two linear ops ``Im2ColBackward0`` (``F.unfold``)
and ``Col2ImBackward0`` (``F.fold``), each the other's derivative.  Its own
derivative is ATen's _convolution_double_backward, term by term: convolutions,
transposes, per-group narrows and a cat, so a third derivative runs through
PyTorch's graph.

Geometry is kept per spatial dim: kernel ``k``, dilation ``d``, padding
``(lo, hi)`` pairs, stride ``s`` and the number of blocks (windows) ``o``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import dtypes
from .._cpp_print import cpp_type_name
from ..autograd import grad_mode
from ..tensor import Tensor, _can_cast, _scalar_name
from . import _conv_group_order, _conv_groups, _conv_order, _vec_math
from ._conv_checks import _check, check_backend, check_empty_view, ntuple
from ._conv_order import _unpadded_products
from ._conv_layout import backward_format, in_conv_format
from ._layout import c_order
from ._op import Op, export

# ---------------------------------------------------------------------------
# geometry and the numpy kernels
# ---------------------------------------------------------------------------


def blocks(size, k, d, pads, s):
    """Windows along each dim: floor((S + lo + hi - d*(k-1) - 1) / s) + 1."""
    return tuple((n + lo + hi - dd * (kk - 1) - 1) // ss + 1
                 for n, kk, dd, (lo, hi), ss in zip(size, k, d, pads, s))


def windows_np(x, k, d, pads, s, o, fill=0):
    """(N, C, *S) -> a (N, C, *o, *k) view of its windows (padding filled with ``fill``)."""
    sp = len(k)
    widths = [(0, 0)] * (x.ndim - sp)
    for i in range(sp):
        lo, hi = pads[i]
        # enough room for o windows (ceil_mode may ask for one past the padding)
        need = (o[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1
        widths.append((lo, max(hi, need - x.shape[x.ndim - sp + i] - lo)))
    if any(w != (0, 0) for w in widths):
        x = np.pad(x, widths, constant_values=fill)
    span = [d[i] * (k[i] - 1) + 1 for i in range(sp)]
    win = sliding_window_view(x, span, axis=tuple(range(x.ndim - sp, x.ndim)))
    lead = (slice(None),) * (x.ndim - sp)
    return win[lead + tuple(slice(0, (o[i] - 1) * s[i] + 1, s[i]) for i in range(sp))
               + tuple(slice(None, None, d[i]) for i in range(sp))]


def im2col_np(x, k, d, pads, s, o):
    """(N, C, *S) -> (N, C*K, L): each column one window (zero padding)."""
    n, c, sp = x.shape[0], x.shape[1], len(k)
    win = windows_np(x, k, d, pads, s, o)
    perm = (0, 1) + tuple(range(2 + sp, 2 + 2 * sp)) + tuple(range(2, 2 + sp))
    return win.transpose(perm).reshape(n, c * math.prod(k), math.prod(o))


def col2im_np(cols, size, k, d, pads, s, o, outputs_in_order=False):
    """(N, C*K, L) -> (N, C, *S): each window added back where it came from (``outputs_in_order``: each input's
    terms added in the order of the outputs they come from, as a pooling backward's loop over its outputs adds
    them: the kernel offsets last to first)."""
    n = cols.shape[0]
    sp = len(k)
    c = cols.shape[1] // math.prod(k)
    full = [max(size[i] + pads[i][0] + pads[i][1], (o[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1) for i in range(sp)]
    out = np.zeros((n, c, *full), cols.dtype)
    cols = cols.reshape(n, c, *k, *o)
    offsets = list(np.ndindex(*k))
    for off in offsets[::-1] if outputs_in_order else offsets:  # a loop over kernel offsets, each a strided block add
        dst = (slice(None), slice(None)) + tuple(
            slice(off[i] * d[i], off[i] * d[i] + (o[i] - 1) * s[i] + 1, s[i]) for i in range(sp))
        out[dst] += cols[(slice(None), slice(None)) + off]
    if tuple(full) == tuple(size):
        return out
    crop = (slice(None), slice(None)) + tuple(slice(pads[i][0], pads[i][0] + size[i]) for i in range(sp))
    return out[crop].copy()  # (a new tensor, as ATen's col2im and convolutions make; size-1 dims strided as theirs)


# ---------------------------------------------------------------------------
# unfold (Im2ColBackward0) and fold (Col2ImBackward0): each the other's derivative
# ---------------------------------------------------------------------------

def _im2col_fwd(ctx, x, kernel, dilation, pads, stride, nblocks, unbatched=False):
    out = im2col_np(x[None] if unbatched else x, kernel, dilation, pads, stride, nblocks)
    if not out.flags.writeable or np.may_share_memory(out, x):
        # (a 1x1 kernel's columns are a view of the input, or of its padded copy's read-only windows: F.unfold's
        # are new memory, which a view of the result writes into)
        out = out.copy()
    return out[0] if unbatched else out


def _col2im_fwd(ctx, cols, size, kernel, dilation, pads, stride, nblocks, unbatched=False):
    out = col2im_np(cols[None] if unbatched else cols, size, kernel, dilation, pads, stride, nblocks)
    return out[0] if unbatched else out


_im2col = Op("Im2ColBackward0", lambda ctx, *a, **k: c_order(_im2col_fwd(ctx, *a, **k)), jvp="linear")
_col2im = Op("Col2ImBackward0", _col2im_fwd, jvp="linear")


@_im2col.derivative
def _(ctx, grad):
    return _col2im(grad, size=tuple(ctx.input_shape[-len(ctx.kernel):]), kernel=ctx.kernel,
                   dilation=ctx.dilation, pads=ctx.pads, stride=ctx.stride, nblocks=ctx.nblocks,
                   unbatched=ctx.unbatched)


@_col2im.derivative
def _(ctx, grad):
    return _im2col(grad, kernel=ctx.kernel, dilation=ctx.dilation, pads=ctx.pads, stride=ctx.stride,
                   nblocks=ctx.nblocks, unbatched=ctx.unbatched)


def im2col(x, kernel, dilation, pads, stride, nblocks, unbatched=False):
    return _im2col(x, kernel=kernel, dilation=dilation, pads=pads, stride=stride, nblocks=nblocks,
                   unbatched=unbatched)


def col2im(cols, size, kernel, dilation, pads, stride, nblocks, unbatched=False):
    return _col2im(cols, size=tuple(size), kernel=kernel, dilation=dilation, pads=pads, stride=stride,
                   nblocks=nblocks, unbatched=unbatched)


def _unfold_args(kernel_size, dilation, padding, stride):
    return ntuple(kernel_size, 2, "kernel_size"), ntuple(dilation, 2, "dilation"), \
        ntuple(padding, 2, "padding"), ntuple(stride, 2, "stride")


def _py_pair(v):
    """torch.nn.modules.utils._pair: an iterable as a tuple (a 0-d tensor's iteration refused), else (v, v)."""
    if isinstance(v, Tensor):
        if not v.ndim:
            raise TypeError("iteration over a 0-d tensor")
        return tuple(v)
    return tuple(v) if isinstance(v, (list, tuple, str)) else (v, v)


def _parsed_pairs(name, text, input, *values):
    """F.unfold/F.fold's torch._C._nn call: each int-list argument as _pair makes it, parsed by its signature."""
    pairs = tuple(_py_pair(v) for v in values)
    from ._pyargs import signature_error
    message = signature_error(name, text, (input,) + pairs, {})
    if message is not None:
        raise TypeError(message)
    names = ("output_size",) * (len(values) == 5) + ("kernel_size", "dilation", "padding", "stride")
    for pname, v in zip(names, pairs):  # (the template's first checks)
        if len(v) != 2:
            raise RuntimeError(f"It is expected {pname} equals to 2, but got size {len(v)}")
    return pairs


def _positive(order, k, d, p, s):
    """im2col_shape_check's / col2im_shape_check's checks of the parameters, in their order."""
    checks = {"k": (k[0] > 0 and k[1] > 0, f"kernel size should be greater than zero, but got kernel_height: {k[0]} "
                                           f"kernel_width: {k[1]}"),
              "d": (d[0] > 0 and d[1] > 0, f"dilation should be greater than zero, but got dilation_height: {d[0]} "
                                           f"dilation_width: {d[1]}"),
              "p": (p[0] >= 0 and p[1] >= 0, f"padding should be non-negative, but got pad_height: {p[0]} "
                                             f"pad_width: {p[1]}"),
              "s": (s[0] > 0 and s[1] > 0, f"stride should be greater than zero, but got stride_height: {s[0]} "
                                           f"stride_width: {s[1]}")}
    for key in order:
        ok, message = checks[key]
        if not ok:
            raise RuntimeError(message)


_IM2COL = "(Tensor input, tuple of ints kernel_size, tuple of ints dilation, tuple of ints padding, tuple of ints stride)"
_COL2IM = ("(Tensor input, tuple of ints output_size, tuple of ints kernel_size, tuple of ints dilation, "
           "tuple of ints padding, tuple of ints stride)")


@export(functional=True, torch=False)
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of a (N, C, H, W) input as columns (N, C*kh*kw, L)."""
    if not all(type(v) is int for v in (kernel_size, dilation, padding, stride)):
        kernel_size, dilation, padding, stride = _parsed_pairs("im2col", _IM2COL, input, kernel_size, dilation,
                                                               padding, stride)
    k, d, p, s = _unfold_args(kernel_size, dilation, padding, stride)
    if not (input.ndim < 2 and input._requires_grad and grad_mode._state["enabled"]):
        _positive("kdps", k, d, p, s)
    if input.ndim < 2:  # (im2col's node reads self.size(-2) when it is recorded; the kernel, size(1))
        recorded = input._requires_grad and grad_mode._state["enabled"]
        dim = -2 if recorded else 1
        if input.ndim == 0:
            raise IndexError(f"Dimension specified as {-1 if recorded else 1} but tensor has no dimensions")
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {dim})")
    if input.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.ndim}, {input.ndim - 1}], "
                         f"but got {input.ndim})")
    if input.ndim not in (3, 4) or any(n == 0 for n in input.shape[1:]):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for "
            f"input, but got: {list(input.shape)}")
    pads = tuple((q, q) for q in p)
    o = blocks(input.shape[-2:], k, d, pads, s)
    if any(n < 1 for n in o):
        raise RuntimeError(
            f"Given input with spatial size ({input.shape[-2]}, {input.shape[-1]}), kernel_size=({k[0]}, {k[1]}), "
            f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), calculated shape of the array of sliding "
            f"blocks as ({o[0]}, {o[1]}), but its components must be at least one.")
    if input.dtype._kind == 1:  # (after the shape checks, im2col's kernel dispatches: floating types and bool)
        raise NotImplementedError(f"\"im2col_out_cpu\" not implemented for '{_scalar_name(input.dtype)}'")
    return im2col(input, k, d, pads, s, o, unbatched=input.ndim == 3)


@export(functional=True, torch=False)
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum columns (N, C*kh*kw, L) back into a (N, C, H, W) image: the adjoint of unfold."""
    output_size, kernel_size, dilation, padding, stride = _parsed_pairs(
        "col2im", _COL2IM, input, output_size, kernel_size, dilation, padding, stride)
    k, d, p, s = _unfold_args(kernel_size, dilation, padding, stride)
    _positive("ksdp", k, d, p, s)
    size = ntuple(output_size, 2, "output_size")
    if input.ndim not in (2, 3) or any(n == 0 for n in input.shape[1:]):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions "
            f"for input, but got: {list(input.shape)}")
    kk = k[0] * k[1]
    c_dim, l_dim = input.shape[-2], input.shape[-1]
    if c_dim % kk:
        raise RuntimeError(
            f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
            f"input.size(1)={c_dim} and kernel_size=({k[0]}, {k[1]}).")
    pads = tuple((q, q) for q in p)
    o = blocks(size, k, d, pads, s)
    if math.prod(o) != l_dim:
        raise RuntimeError(
            f"Given output_size=({size[0]}, {size[1]}), kernel_size=({k[0]}, {k[1]}), dilation=({d[0]}, "
            f"{d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), expected size of input's dimension 2 "
            f"to match the calculated number of sliding blocks {o[0]} * {o[1]} = {math.prod(o)}, but got "
            f"input.size(2)={l_dim}.")
    if input.dtype._kind == 1:  # (col2im's kernel alike)
        raise NotImplementedError(f"\"col2im_out_cpu\" not implemented for '{_scalar_name(input.dtype)}'")
    return col2im(input, size, k, d, pads, s, o, unbatched=input.ndim == 2)


# ---------------------------------------------------------------------------
# the convolution op
# ---------------------------------------------------------------------------

def _conv_fwd(ctx, x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    n, g, sp = x.shape[0], groups, x.ndim - 2
    k = w.shape[2:]
    pads = tuple((p, p) for p in padding)
    if n == 0 or x.shape[1] == 0:  # ATen's Empty backend: no batch, or no input channels (then no output channels)
        d = _empty_dtype(dtypes.from_numpy(x.dtype), dtypes.from_numpy(w.dtype)).numpy
        if transposed:
            size = _transposed_size(x.shape[2:], k, stride, padding, dilation, output_padding)
            return np.zeros((n, w.shape[1] * g) + size, d)
        c = 0 if x.shape[1] == 0 else w.shape[0]
        return np.zeros((n, c) + tuple(blocks(x.shape[2:], k, dilation, pads, stride)), d)
    if not transposed:
        o = blocks(x.shape[2:], k, dilation, pads, stride)
        cols = im2col_np(x, k, dilation, pads, stride, o).reshape(n, g, -1, math.prod(o))
        wg = w.reshape(g, w.shape[0] // g, -1)
        mkldnn = _uses_mkldnn(x.dtype == np.float32, x.shape, w.shape, stride, dilation, False, output_padding,
                              groups)
        if wg.shape[-1] == 1 and not mkldnn:
            # (a reduction of one term: the slow kernel's gemm gives the product itself, -0.0 kept, unless
            # there is one output channel per group or one output position, and no bias: a matrix-vector
            # product whose sum starts at +0.0 (with a bias, at the bias); the same for a dilated one, whose
            # kernel (slow_conv_dilated) adds the gemm to a zeroed output; oneDNN's accumulator starts at +0.0)
            out = (wg * cols).reshape(n, w.shape[0], *o)
            if (wg.shape[1] == 1 or cols.shape[-1] == 1 or any(v != 1 for v in dilation)) and b is None:
                out = out + 0.0
        elif mkldnn and any(padding) and _direct_kernel(x.shape, w.shape, groups, padding, fwd=(
                stride, dilation, _conv_groups.plain(x, w))) and not np.isfinite(w).all():
            valid = _valid_cols(x, k, dilation, pads, stride, o).reshape(g, 1, -1, math.prod(o))
            out = _unpadded_products(wg[None], cols, valid, 2).reshape(n, w.shape[0], *o)
        elif (c := _conv_order.forward(x, w, b, cols, stride, padding, dilation, mkldnn, g) if mkldnn else
              _conv_order.slow_forward(x, w, b, cols)) is not None:  # (oneDNN's direct kernel, or ATen's gemms)
            out, b = c.reshape(n, w.shape[0], *o), None  # (its FMA chain from the bias, or gemm's from C)
        else:
            out = np.matmul(wg, cols).reshape(n, w.shape[0], *o)
    else:
        size = _transposed_size(x.shape[2:], k, stride, padding, dilation, output_padding)
        mkldnn = _uses_mkldnn(x.dtype == np.float32, x.shape, w.shape, stride, dilation, True, output_padding, g)
        out = _conv_order.transposed(x, w, size, stride, padding, dilation, mkldnn, g)  # (oneDNN's chains)
        if out is None:
            if ((g == 1 or x.shape[1] // g > 8) and size[-1] % stride[-1] and all(v == 1 for v in dilation)
                    and not np.isfinite(w).all() and mkldnn):
                x, pads = _strided_deconv_rows(x, k, stride, pads)
            xg = x.reshape(n, g, x.shape[1] // g, -1)
            wg = w.reshape(g, w.shape[0] // g, -1)
            cols = np.matmul(wg.transpose(0, 2, 1), xg).reshape(n, -1, xg.shape[-1])
            out = col2im_np(cols, size, k, dilation, pads, stride, x.shape[2:])
    if b is not None:
        out = out + b.reshape((1, -1) + (1,) * sp)
    return out.astype(x.dtype, copy=False)


def _direct_kernel(x_shape, w_shape, groups, padding, stride=None, dilation=None, fwd=None):
    """Whether oneDNN runs a float32 convolution with a direct kernel, which never reads the padding, not
    a gemm one, whose im2col pads with zeros (inf * 0: NaN, as in agrad): measured (AVX2) for an ungrouped
    one of 2 or more samples, padding below the kernel in every dim; a grouped one's forward (``fwd``:
    stride, dilation, plain layouts) by _conv_groups. The weight gradient (``stride``, ``dilation`` given):
    1-D and 2-D, stride, dilation 1 (a grouped one's: _conv_groups.grads)."""
    if groups != 1:
        return fwd is not None and (_conv_groups.forward_direct if fwd[2] else _conv_groups.forward_direct_channels_last)(
            x_shape, w_shape, groups, fwd[0], padding, fwd[1])
    if x_shape[0] < 2 or not all(p < k for p, k in zip(padding, w_shape[2:])):
        return False
    return stride is None or (len(x_shape) <= 4 and all(v == 1 for v in stride) and all(v == 1 for v in dilation))


def _strided_deconv_rows(x, k, stride, pads):
    """oneDNN's float32 transposed convolution (without dilation; ungrouped, or more than 8 input
    channels a group) whose output's last dim is not a multiple of its stride there runs its brgemm
    "strided" backward-data kernel (oneDNN's verbose names it; measured on this machine's AVX2), which
    multiplies the weights with the input rows one step or more past either end of that dim, zeros:
    every stride-aligned tap of the output's own positions is summed, so an inf or NaN weight makes
    NaN where agrad's sum leaves the tap out (its other kernels, and the other dims, skip them). The
    input padded with those zeros (and the padding moved by as many strides) gives the same output
    with those terms."""
    e = -(-k[-1] // stride[-1]) + 1
    widths = [(0, 0)] * (x.ndim - 1) + [(e, e)]
    return np.pad(x, widths), pads[:-1] + ((pads[-1][0] + e * stride[-1], pads[-1][1] + e * stride[-1]),)


def _valid_cols(x, k, d, pads, s, o):
    """(C*K, L) for ``x``'s im2col: True where a column reads the input, False where it reads padding."""
    ones = np.ones((1, x.shape[1]) + x.shape[2:], bool)
    return im2col_np(ones, k, d, pads, s, o)[0]


def _transposed_size(size, k, stride, padding, dilation, output_padding):
    return tuple((n - 1) * s - 2 * p + d * (kk - 1) + op + 1
                 for n, kk, s, p, d, op in zip(size, k, stride, padding, dilation, output_padding))


# (PyTorch saves input and weight whatever needs a gradient: a later in-place change to either is caught)
_convolution = Op("ConvolutionBackward0", in_conv_format(_conv_fwd),
                  inputs=("input", "weight", "bias"),
                  saves=("input", "weight"), jvp="affine")
_convolution.jvp_additive = 2  # the bias

_GEOMETRY = ("stride", "padding", "dilation", "transposed", "output_padding", "groups")


@_convolution.derivative
def _(ctx, grad):
    need = (ctx.needs(0), ctx.needs(1), ctx.needs(2))
    geo = {a: getattr(ctx, a) for a in _GEOMETRY}
    if not geo["transposed"] and any(geo["output_padding"]):  # (a convolution of a double backward's gW term)
        raise RuntimeError("output_padding is not supported for non-transposed convolutions; got: "
                           + " ".join(map(str, geo["output_padding"])))
    # convolution_backward is one op (ConvolutionBackwardBackward0 under create_graph, edges to
    # grad_output, input and weight); it makes only the gradients asked for
    outs = _conv_backward.apply((grad, ctx.input, ctx.weight), (grad._data, ctx.input._data, ctx.weight._data),
                                {**geo, "mask": need, "bias_sizes": ctx._input_meta[2][0] if need[2] else None})
    return tuple(o if n else None for o, n in zip(outs, need))


def _conv_grads(grad, x, w, x_shape, w_shape, geo, need, cols2=(im2col, col2im)):
    """The gradients (input, weight, bias) of a convolution with output gradient ``grad`` (``x`` needed for
    the weight's, ``w`` for the input's): agrad ops, or numpy's with ``cols2`` numpy's."""
    g = geo["groups"]
    k = tuple(w_shape[2:])
    n = grad.shape[0]
    sp = grad.ndim - 2
    pads = tuple((p, p) for p in geo["padding"])
    win = (k, geo["dilation"], pads, geo["stride"])
    gx = gw = gb = None
    if not geo["transposed"]:
        size = tuple(x_shape[2:])
        o = tuple(grad.shape[2:])
        gg = grad.reshape(n, g, grad.shape[1] // g, -1)  # (N, G, O/G, L)
        if need[0]:
            wg = w.reshape(g, w.shape[0] // g, -1)
            cols = wg.swapaxes(1, 2) @ gg
            gx = cols2[1](cols.reshape(n, -1, cols.shape[-1]), size, *win, o)
        if need[1]:
            cols = cols2[0](x, *win, o)
            cols = cols.reshape(n, g, cols.shape[1] // g, -1)
            gw = (gg @ cols.swapaxes(2, 3)).sum(0).reshape(w_shape)
    else:
        in_size = tuple(x_shape[2:])
        cols = cols2[0](grad, *win, in_size)
        cols = cols.reshape(n, g, cols.shape[1] // g, -1)  # (N, G, Cout/G*K, L_in)
        if need[0]:
            wg = w.reshape(g, w.shape[0] // g, -1)
            # (slow_conv_transpose's gemm per sample; of one term, 2 rows and columns or more: the plain product)
            one = wg.shape[-1] == 1 and wg.shape[1] > 1 and cols.shape[-1] > 1 and cols2[0] is im2col
            gx = (wg * cols if one and w.dtype in (dtypes.float32, dtypes.float64) else wg @ cols).reshape(n, -1, *in_size)
        if need[1]:
            xg = x.reshape(n, g, x.shape[1] // g, -1)
            gw = (xg @ cols.swapaxes(2, 3)).sum(0).reshape(w_shape)
    if need[2] and cols2[0] is im2col:
        gb = grad.sum((0,) + tuple(range(2, grad.ndim)))
    elif need[2]:
        gb = _conv_order.bias_grad(grad, _vec_math.THREADS)  # (oneDNN's)
    return gx, gw, gb


def _conv_backward_fwd(ctx, g, x, w, mask, bias_sizes, **geo):
    # (three outputs always, as convolution_backward's: (input, weight, bias) are outputs 0, 1, 2 of the
    # node whichever the mask asks for; an unasked one is an empty stand-in that no formula reads)
    unasked = np.zeros((0,), g.dtype)
    if g.size == 0:  # (an empty batch or no channels: every gradient zeros)
        return tuple(np.zeros(shape, g.dtype) if m else unasked for shape, m in zip((x.shape, w.shape, bias_sizes), mask))
    from ..tensor import Tensor
    grp = geo["groups"]
    mk = _uses_mkldnn(x.dtype == np.float32, x.shape, w.shape, geo["stride"], geo["dilation"], geo["transposed"],
                      geo["output_padding"], grp)
    fast = _conv_order.fast_grads(g, x, w, geo, mk, mask, _vec_math.THREADS)  # (oneDNN's FMA chains, or None)
    need = tuple(m and f is None for m, f in zip(mask, fast))
    if mk:  # (oneDNN's sums: numpy's, not agrad's matmul emulating MKL's, which PyTorch's slow kernels take)
        grads = _conv_grads(g, x, w, x.shape, w.shape, geo, need, (im2col_np, col2im_np))
    else:
        grads = _conv_grads(Tensor._make(g), Tensor._make(x), Tensor._make(w), x.shape, w.shape, geo, need)
    out = [getattr(t, "_data", t) if m else unasked for t, m in zip(grads, need)]
    out = [a if f is None else f for a, f in zip(out, fast)]
    if mask[1] and not geo["transposed"] and any(geo["padding"]) and not np.isfinite(g).all() \
            and _direct_kernel(x.shape, w.shape, geo["groups"], geo["padding"]) and _conv_order.bwd_weights_direct(
                x.shape, g.shape[2:], w.shape[2:], geo["stride"], geo["padding"], geo["dilation"]) \
            and _uses_mkldnn(
                x.dtype == np.float32, x.shape, w.shape, geo["stride"], geo["dilation"], False, geo["output_padding"],
                geo["groups"]):
        # (oneDNN's weight gradient never reads the padding: a NaN or an inf of grad times a padded zero adds
        # nothing)
        n, grp, k = x.shape[0], geo["groups"], w.shape[2:]
        pads = tuple((q, q) for q in geo["padding"])
        o = g.shape[2:]
        cols = im2col_np(x, k, geo["dilation"], pads, geo["stride"], o).reshape(n, grp, -1, math.prod(o))
        gg = g.reshape(n, grp, g.shape[1] // grp, -1)
        valid = _valid_cols(x, k, geo["dilation"], pads, geo["stride"], o).reshape(grp, -1, math.prod(o))
        out[1] = _unpadded_products(gg, cols, valid[:, None], 3).sum(0).reshape(w.shape).astype(g.dtype, copy=False)
    if mask[0] and not geo["transposed"] and (grp == 1 or g.shape[1] // grp > 8) and x.shape[-1] % geo["stride"][-1] \
            and all(v == 1 for v in geo["dilation"]) and not np.isfinite(w).all() and _uses_mkldnn(
                x.dtype == np.float32, x.shape, w.shape, geo["stride"], geo["dilation"], False, geo["output_padding"],
                grp):
        # (the input's gradient is oneDNN's backward-data kernel, the brgemm "strided" one of a transposed
        # convolution (_strided_deconv_rows): every stride-aligned tap of the last dim is summed)
        k = w.shape[2:]
        ge, pads = _strided_deconv_rows(g, k, geo["stride"], tuple((q, q) for q in geo["padding"]))
        gg = ge.reshape(ge.shape[0], grp, ge.shape[1] // grp, -1)
        wg = w.reshape(grp, w.shape[0] // grp, -1)
        with np.errstate(invalid="ignore"):
            cols = np.matmul(wg.transpose(0, 2, 1), gg).reshape(ge.shape[0], -1, gg.shape[-1])
        out[0] = col2im_np(cols, x.shape[2:], k, geo["dilation"], pads, geo["stride"], ge.shape[2:]).astype(
            g.dtype, copy=False)
    if mask[1] and geo["transposed"] and grp == 1 and any(geo["padding"]) and not np.isfinite(x).all() \
            and _conv_order.bwd_weights_direct(g.shape, x.shape[2:], w.shape[2:], geo["stride"], geo["padding"],
                                               geo["dilation"]) and _uses_mkldnn(
                x.dtype == np.float32, x.shape, w.shape, geo["stride"], geo["dilation"], True, geo["output_padding"], 1):
        # (so is its weight gradient's where oneDNN's jit kernel takes it: an inf or a NaN input adds nothing)
        k, pads = w.shape[2:], tuple((q, q) for q in geo["padding"])
        cols = im2col_np(g, k, geo["dilation"], pads, geo["stride"], x.shape[2:])[:, None]
        valid = _valid_cols(g, k, geo["dilation"], pads, geo["stride"], x.shape[2:])[None, None]
        xg = x.reshape(x.shape[0], 1, x.shape[1], -1)
        out[1] = _unpadded_products(xg, cols, valid, 3).sum(0).reshape(w.shape).astype(g.dtype, copy=False)
    if mask[0] and geo["transposed"] and geo["groups"] == 1 and any(geo["padding"]) and not np.isfinite(w).all() \
            and _uses_mkldnn(x.dtype == np.float32, x.shape, w.shape, geo["stride"], geo["dilation"], True,
                             geo["output_padding"], 1):
        # (oneDNN's transposed convolution takes the input's gradient with its direct forward kernel, which
        # never reads the padding: an inf or a NaN weight times a padded zero of the gradient adds nothing)
        k, pads = w.shape[2:], tuple((q, q) for q in geo["padding"])
        cols = im2col_np(g, k, geo["dilation"], pads, geo["stride"], x.shape[2:])[:, None]
        valid = _valid_cols(g, k, geo["dilation"], pads, geo["stride"], x.shape[2:])[None, None]
        out[0] = _unpadded_products(w.reshape(1, 1, w.shape[0], -1), cols, valid, 2).reshape(x.shape).astype(
            g.dtype, copy=False)
    out = _conv_groups.grads(g, x, w, geo, mask, out) if grp > 1 and mk and _conv_groups.plain(x, w) else out
    if mask[0] and mk and grp > 1 and _conv_groups.plain(x, w) and np.isfinite(w).all() and (
            gx := _conv_group_order.input_grad(g, x, w, geo)) is not None:
        out[0] = gx
    if mask[1] and mk and grp > 1 and _conv_groups.plain(x, w) and (
            gw := _conv_group_order.weight_grad(g, x, w, geo)) is not None:  # (oneDNN's gemm kernel's)
        out[1] = gw
    if mask[2] and mk and (b := _conv_group_order.gemm_bias_grad(g, x.shape, w.shape, geo, _conv_groups.plain(x, w))) \
            is not None:  # (oneDNN's gemm kernel's bias gradient)
        out[2] = b
    return tuple(out)


_conv_backward = Op("ConvolutionBackwardBackward0", backward_format(_conv_backward_fwd), inputs=("grad_output", "input", "weight"),
                    saves=("grad_output", "input", "weight"), outputs=None, multi_grad="undefined", internal=True)


@_conv_backward.derivative
def _(ctx, grads):
    ggI, ggW, ggb = (g if m else None for g, m in zip(grads, ctx.mask))  # (None where none came)
    return _double_backward(ggI, ggW, ggb, ctx.grad_output, ctx.input, ctx.weight,
                            {a: getattr(ctx, a) for a in _GEOMETRY})


def _conv_of(x, w, geo):
    """at::convolution without bias inside a formula: one ConvolutionBackward0."""
    check_backend(x)
    return _convolution.apply((x, w, None), (x._data, w._data, None), geo)


def _double_backward(ggI, ggW, ggb, gO, x, w, geo):
    """_convolution_double_backward: the gradients (grad_output, input, weight) of convolution_backward,
    each term as ATen builds it (convolutions, transposes, narrows, a cat over groups), so the graph a
    third derivative runs through is PyTorch's.  Every term is made, needed or not, as in ATen."""
    transposed, groups = geo["transposed"], geo["groups"]
    some = x.numel() != 0
    ggO = gI = gW = None
    # ggO = conv(ggI, w) + conv(x, ggW) + ggb
    if some and ggI is not None:
        ggO = _conv_of(ggI, w, geo)
    if some and ggW is not None:
        term = _conv_of(x, ggW, geo)
        ggO = term if ggO is None else ggO + term
    if ggb is not None:
        shape = [1] * gO.ndim
        shape[1] = ggb.shape[0]
        term = ggb.contiguous().view(shape).expand(gO.shape)
        ggO = term if ggO is None else ggO + term
    # gW = conv(ggI, gO) over the batch (batch and channels swapped, stride and dilation swapped), a
    # convolution per group, cut to the kernel's size
    if some and ggI is not None:
        wgeo = dict(geo, groups=1, stride=geo["dilation"], dilation=geo["stride"], transposed=False)
        gOt, ggIt = gO.transpose(0, 1), ggI.transpose(0, 1)
        pair = (lambda a, b: _conv_of(b, a, wgeo)) if transposed else (lambda a, b: _conv_of(a, b, wgeo))
        if groups == 1:
            gWt = pair(ggIt, gOt)
        else:
            from .joining import cat
            ni, no = ggIt.shape[0] // groups, gOt.shape[0] // groups
            gWt = cat([pair(ggIt.narrow(0, ni * g, ni), gOt.narrow(0, no * g, no)) for g in range(groups)], 1)
        gW = gWt.transpose(0, 1)
        for i in range(2, gW.ndim):
            if gW.shape[i] > w.shape[i]:
                gW = gW.narrow(i, 0, w.shape[i])
    # gI = convT(gO, ggW), or conv(gO, ggW) for a transposed convolution (then cut to the input's size)
    if some and ggW is not None:
        if transposed:
            gI = _conv_of(gO, ggW, dict(geo, transposed=False))
            for i in range(2, gI.ndim):
                if gI.shape[i] > x.shape[i]:
                    gI = gI.narrow(i, 0, x.shape[i])
        else:  # the output padding that gives back the input's size
            op = tuple(n - e if n != e else q for n, e, q in zip(x.shape[2:], (
                (k - 1) * d - 2 * p + s * (o - 1) + 1 for k, d, p, s, o in zip(
                    w.shape[2:], geo["dilation"], geo["padding"], geo["stride"], gO.shape[2:])), geo["output_padding"]))
            gI = _conv_of(gO, ggW, dict(geo, transposed=True, output_padding=op))
    return ggO, gI, gW


# ---------------------------------------------------------------------------
# checks and public functions
# ---------------------------------------------------------------------------

#: the CPU kernel each convolution runs (transposed, spatial dims) and the dtypes it is built for (None: all
#: but bool)
_KERNELS = {(False, 1): ("slow_conv2d_cpu", None), (False, 2): ("slow_conv2d_cpu", None),
            (False, 3): ("compute_columns3d", None),
            (True, 1): ("slow_conv_transpose2d_out_cpu", "float16 float32 float64 int64"),
            (True, 2): ("slow_conv_transpose2d_out_cpu", "float16 float32 float64 int64"),
            (True, 3): ("slow_conv_transpose3d_out_cpu", "float16 float32 float64 int64")}


class _Meta:
    """A dtype with a rank, for dtypes.result_type."""
    __slots__ = ("dtype", "ndim")

    def __init__(self, dtype, ndim):
        self.dtype, self.ndim = dtype, ndim


def _empty_dtype(x, w):
    """The Empty backend's result: input * weight.view(-1)[0] (a 0-d operand: it promotes by category only)."""
    return dtypes.result_type(_Meta(x, 1), _Meta(w, 0))


def _check_kernel(x, weight, bias, sp, attrs):
    """After the shape checks: the Empty backend (no batch or no channels) multiplies and adds bias[0] in
    place; the others check their geometry (a 1-D convolution as a 2-D one), dispatch on the input's
    dtype, then read the weight (and add the transposed convolution's bias in place) as that type."""
    transposed = attrs["transposed"]
    empty = x.shape[0] == 0 or x.shape[1] == 0
    check_backend(x)
    if empty:
        out = _empty_dtype(x.dtype, weight.dtype)
    elif _uses_mkldnn(x.dtype is dtypes.float32, x.shape, weight.shape, attrs["stride"], attrs["dilation"], transposed,
                      attrs["output_padding"], attrs["groups"]):  # (check_input_same_type_as_parameters for the oneDNN backend)
        for what, t in (("weight", weight), ("bias", bias)):
            if t is not None and t.dtype is not x.dtype:
                raise RuntimeError(f"Input type ({cpp_type_name(x.dtype)}) and {what} type ({cpp_type_name(t.dtype)}) "
                                   f"should be the same or input should be a MKLDNN tensor and {what} is a dense tensor")
        _check_geometry(x, weight, sp, attrs, sizes=False)
        if transposed and min(_transposed_size(x.shape[2:], weight.shape[2:], attrs["stride"], attrs["padding"],
                                               attrs["dilation"], attrs["output_padding"])) < 0:
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        return
    else:
        _check_geometry(x, weight, sp, attrs)
        name, supported = _KERNELS[transposed, sp]
        if (x.dtype.name not in supported.split()) if supported else x.dtype is dtypes.bool_:
            raise NotImplementedError(f'"{name}" not implemented for \'{_scalar_name(x.dtype)}\'')
        if x.dtype is not weight.dtype:
            raise RuntimeError(f"expected scalar type {_scalar_name(x.dtype)} but found {_scalar_name(weight.dtype)}")
        if transposed and sp == 3 and bias is not None and bias.dtype is not x.dtype:  # (slow_conv_transpose3d's read)
            raise RuntimeError(f"expected scalar type {_scalar_name(x.dtype)} but found {_scalar_name(bias.dtype)}")
        out = x.dtype
    if bias is not None and (transposed or empty):
        d = dtypes.result_type(_Meta(out, 1), _Meta(bias.dtype, 0 if empty else 1))
        if not _can_cast(d, out):
            raise RuntimeError(f"result type {_scalar_name(d)} can't be cast to the desired output type "
                               f"{_scalar_name(out)}")
    if empty:
        check_empty_view(x, weight, attrs)


def _uses_mkldnn(float32, x_shape, w_shape, stride, dilation, transposed, output_padding, groups):
    """ConvParams::use_mkldnn: oneDNN runs a float32 convolution unless it is a small one-sample one
    (sizes of the 4-D views: a 1-D convolution as a 2-D one) or a transposed one whose output
    padding reaches its stride."""
    if not float32:
        return False
    if transposed and any(op >= st for op, st in zip(output_padding, stride)):
        return False
    xs = tuple(x_shape) if len(x_shape) > 3 else (x_shape[0], x_shape[1], 1, x_shape[2])
    ws = tuple(w_shape) if len(w_shape) > 3 else (w_shape[0], w_shape[1], 1, w_shape[2])
    first = (any(v != 1 for v in stride) or any(v != 1 for v in dilation) or xs[0] >= 16 or ws[-1] != 1
             or ws[-2] != 1 or _vec_math.THREADS > 1)
    return first and (groups > 1 or (ws[-1] > 3 and ws[-2] > 3) or xs[0] > 1
                      or xs[0] * xs[1] * xs[2] * xs[3] > 20480)


def _check_geometry(x, weight, sp, attrs, sizes=True):
    """The kernels' own shape checks (slow_conv2d's, slow_conv_transpose{2,3}d's), on 1-D as 2-D
    (``sizes``: the transposed output's size too)."""
    def as_2d(values, one):
        return ((one,) + tuple(values)) if sp == 1 else tuple(values)

    dilation = attrs["dilation"]
    names = ("height", "width") if sp < 3 else ("depth", "height", "width")
    if not attrs["transposed"]:
        if 0 in dilation:
            raise RuntimeError(f"dilation should be greater than zero, but got {list(as_2d(dilation, 1))}")
        return
    stride, output_padding = attrs["stride"], attrs["output_padding"]
    if 0 in dilation:
        raise RuntimeError("dilation should be greater than zero, but got " + ", ".join(
            f"dilation_{n}: {d}" for n, d in zip(names, as_2d(dilation, 1))))
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        values = {"output_padding": as_2d(output_padding, 0), "stride": as_2d(stride, 1),
                  "dilation": as_2d(dilation, 1)}
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(
            f"{k}_{n}: {v}" for k, vs in values.items() for n, v in zip(names, vs)))
    size = _transposed_size(x.shape[2:], weight.shape[2:], stride, attrs["padding"], dilation, output_padding)
    if sizes and any(n <= 0 for n in size):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, as_2d(x.shape[2:], 1)))}). "
                           f"Calculated output size per channel: ({' x '.join(map(str, as_2d(size, 1)))}). "
                           "Output size is too small")


def _conv(fname, sp, input, weight, bias, stride, padding, dilation, groups):
    geo = _check(fname, input, weight, bias, sp, groups, False,
                 (("stride", stride), ("padding", padding), ("dilation", dilation)))
    stride, padding, dilation = geo["stride"], geo["padding"], geo["dilation"]
    k = weight.shape[2:]
    unbatched = None  # (decided by _run, unless padding='same' batched the input first)
    if padding == "valid":
        padding = (0,) * sp
    elif padding == "same":  # (after conv1d/2d/3d's batchify: the padding pads the batched input)
        if input.ndim == sp + 1:
            unbatched, input = True, input.unsqueeze(0)
        input, padding = _same_padding(input, k, dilation)
    size = input.shape[-sp:]
    padded = tuple(n + 2 * p for n, p in zip(size, padding))
    span = tuple(d * (kk - 1) + 1 for d, kk in zip(dilation, k))
    if any(ps < sn for ps, sn in zip(padded, span)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
            f"({' x '.join(map(str, span))}). Kernel size can't be greater than actual input size")
    return _run(input, weight, bias, sp, {"stride": stride, "padding": padding, "dilation": dilation, "transposed": False,
                               "output_padding": (0,) * sp, "groups": groups}, unbatched)


def _run(input, weight, bias, sp, attrs, unbatched=None):
    """One ConvolutionBackward0; an unbatched input goes through unsqueeze(0) and squeeze(0), as in ATen
    (``unbatched`` True: the input is already unsqueezed)."""
    if unbatched is None:
        unbatched = input.ndim == sp + 1
        x = input.unsqueeze(0) if unbatched else input
    else:
        x = input
    _check_kernel(x, weight, bias, sp, attrs)
    out = _convolution.apply((x, weight, bias), (x._data, weight._data, None if bias is None else bias._data), attrs)
    return out.squeeze(0) if unbatched else out


def _same_padding(input, k, dilation):
    """ATen's _convolution_same: symmetric padding, plus a constant pad where the total is odd."""
    sp = len(k)
    left, right = [], []
    for kk, d in zip(k, dilation):
        total = d * (kk - 1)
        left.append(total // 2)
        right.append(total - total // 2)
    if left == right:
        return input, tuple(left)
    from .._warn_once import warn_once  # (ATen's TORCH_WARN_ONCE: the first time in a process)
    warn_once("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
              "of the input be created", UserWarning)
    pad_nd = [0] * (2 * sp)
    for i in range(sp):
        delta = right[i] - left[i]
        j = 2 * (sp - 1 - i)
        if delta > 0:
            pad_nd[j + 1] = delta
        else:
            pad_nd[j] = delta
            left[i] = right[i]
    from .padding import constant_pad_nd
    return constant_pad_nd(input, pad_nd, 0), tuple(left)


def _conv_transpose(fname, sp, input, weight, bias, stride, padding, output_padding, groups, dilation):
    geo = _check(fname, input, weight, bias, sp, groups, True, (("stride", stride), ("padding", padding),
                                                                ("dilation", dilation), ("output_padding", output_padding)))
    return _run(input, weight, bias, sp, {**geo, "transposed": True, "groups": groups})


@export(functional=True)
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution over (N, C, L) or (C, L) input (ConvolutionBackward0)."""
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


@export(functional=True)
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution over (N, C, H, W) or (C, H, W) input (ConvolutionBackward0)."""
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


@export(functional=True)
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution over (N, C, D, H, W) or (C, D, H, W) input (ConvolutionBackward0)."""
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


@export(functional=True)
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 1-D convolution (the gradient of conv1d with respect to its input)."""
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


@export(functional=True)
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 2-D convolution (the gradient of conv2d with respect to its input)."""
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


@export(functional=True)
def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 3-D convolution."""
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)
