"""The memory layout of a new result, as PyTorch's TensorIterator and empty_like choose it.

numpy's ufuncs lay a result out like their inputs ("K" order), but when the inputs
disagree (``a.t() + b``) numpy leans to C order as soon as one input has it, while
TensorIterator sorts the dimensions by the strides of the first operand whose strides
decide (broadcast dimensions, stride 0, decide nothing) and lays the result out that
way: ``a.t() + b`` is laid out like ``a.t()``.  The layout shows in ``is_contiguous()``,
in whether ``view``/``ravel``/``reshape`` share memory, and so in what an in-place write
through them changes.  Only dimensions of more than one element are sorted here: they
alone decide where each element lies.

A tensor made "like" another (``empty_like``, ``zeros_like``, ``randn_like``, ``clone``,
dropout's mask: PyTorch's ``preserve_format``) keeps the other's layout, with the same
sort of its strides (``infer_dense_strides``); a sampler that fills a tensor in place
draws in that order too, so where each random number lands depends on the layout.
"""

from __future__ import annotations

import numpy as np

from .._dense import dense as _dense, insertion_sort, zero_strided as _zero_strided


def iterator_layout(out, arrays):
    """``out``, numpy's result of an elementwise op on ``arrays`` (PyTorch's operand order;
    Python numbers and 0-d arrays broadcast, deciding nothing), laid out as TensorIterator
    lays out a new output: ``out`` itself when numpy chose that layout already."""
    first = arrays[0]
    if type(first) is np.ndarray and first.strides == out.strides and first.shape == out.shape \
            and 1 not in out.shape:
        return out  # the first input, of the result's shape and layout, decides every comparison
    for a in arrays:
        if type(a) is np.ndarray and (not a.flags.c_contiguous or 1 in a.shape):
            break
    else:
        # C-ordered inputs without dims of one element (whose strides take part in the sort
        # even when the input is contiguous): numpy's result is C-ordered, as TensorIterator's
        if out.size:
            return out
    ndim = out.ndim
    if ndim < 2:
        return out
    if not out.size:
        return _empty_iterator_layout(out, arrays)
    shape = out.shape
    if all(type(a) is np.ndarray and a.shape == shape for a in arrays):
        # TensorIterator's fast set-up: operands of one shape (no Python number, no 0-d tensor)
        strides = _fast_setup_strides(shape, arrays)
        if strides is not None:
            return with_strides(out, strides)
    slowest_first = iteration_order(shape, arrays)  # (dims of one element too: their strides show in stride())
    strides = out.strides
    want = out.itemsize
    for d in reversed(slowest_first):
        if strides[d] != want:
            break
        want *= shape[d]
    else:  # numpy's layout is TensorIterator's
        return out
    fresh = np.empty([shape[d] for d in slowest_first], out.dtype).transpose(np.argsort(slowest_first))
    fresh[...] = out
    return fresh


def resized_by_iterator(out, arrays):
    """An empty result ``out`` of an op that allocates it like its input (empty_like(self): its very strides)
    as TensorIterator lays out an ``out=`` it resizes over ``arrays`` (the operands it keeps; a number: 0):
    :func:`_empty_iterator_layout`'s strides; ``out`` itself when it has elements."""
    if type(out) is not np.ndarray or out.size or not out.ndim:
        return out
    return _empty_iterator_layout(out, arrays)


def _empty_iterator_layout(out, arrays):
    """An empty ``out`` with the strides TensorIterator gives it: contiguous from its fast set-up (operands
    of one shape: every empty tensor is contiguous), else compatible_stride over its order of the dims
    (the product of the faster dims' sizes, a 0 among them too) unless that order is C order."""
    shape = out.shape
    order = None if all(type(a) is np.ndarray and a.shape == shape for a in arrays) else iteration_order(shape, arrays)
    if order is None or order == list(range(out.ndim)):
        return with_empty_strides(out, contiguous_strides(shape, out.itemsize))
    return with_empty_strides(out, ordered_strides(shape, order, out.itemsize))


def _fast_setup_strides(shape, arrays):
    """The output's strides (in elements) TensorIterator's fast set-up gives operands of one shape:
    C order when all are contiguous as PyTorch counts it (dims of one element ignored, as numpy's
    flag ignores them), channels-last when all 4-D ones are channels-last contiguous, the very
    strides of dense operands that all have the same (those of the dims of one element too); None
    when it does not apply (the dims sorted then)."""
    if all(a.flags.c_contiguous for a in arrays):
        strides, step = [], 1
        for n in reversed(shape):
            strides.append(step)
            step *= n
        return tuple(reversed(strides))
    if len(shape) == 4 and all(_channels_last_contiguous(a) for a in arrays):
        s3 = shape[1]
        s2 = s3 * shape[3]
        return (s2 * shape[2], 1, s2, s3)
    strides = None
    for a in arrays:
        if not _dense(a):
            return None
        step = a.itemsize
        s = tuple([x // step for x in torch_strides(a)])
        if strides is None:
            strides = s
        elif s != strides:
            return None
    return strides


def _channels_last_contiguous(a) -> bool:
    """c10's is_channels_last_contiguous of a 4-D array (dims of one element skipped)."""
    expected = a.itemsize
    for d in (1, 3, 2, 0):
        n = a.shape[d]
        if n != 1:
            if a.strides[d] != expected:
                return False
            expected *= n
    return True


def with_strides(out, strides):
    """``out`` with PyTorch's ``strides`` (in elements; those of its dims of one element too):
    ``out`` itself when it has them, else a copy laid out so."""
    step = out.itemsize
    want = tuple(s * step for s in strides)
    have = torch_strides(out)
    if have == want:
        return out
    want = numpy_strides(out.shape, want)
    if all(h == w for n, h, w in zip(out.shape, have, want) if n != 1) and out.flags.writeable:
        # (only the dims of one element differ: the same memory, restrided; a kernel's fresh result
        # is its own buffer, in C or Fortran order)
        flags = out.flags
        if out.base is None and (flags.c_contiguous or flags.f_contiguous):
            return np.ndarray(out.shape, out.dtype, out.reshape(-1, order="C" if flags.c_contiguous else "F"), 0, want)
        found = storage_of(out)
        if found is not None:
            return np.ndarray(out.shape, out.dtype, found[0], found[1] * step, want)
    span = sum((n - 1) * s for n, s in zip(out.shape, strides)) + 1
    fresh = np.ndarray(out.shape, out.dtype, np.empty(span, out.dtype), 0, want)
    fresh[...] = out
    return fresh


def iteration_order(shape, arrays):
    """The dims in the order TensorIterator walks ``arrays`` (its operands, the output first;
    all of ``shape`` or broadcast to it), slowest first: its loops nest that way, so an
    elementwise kernel visits the elements in ``np.transpose(a, order)``'s C order."""
    ndim = len(shape)
    strides = []
    for a in arrays:
        if type(a) is not np.ndarray or a.ndim == 0:
            continue
        offset = ndim - a.ndim
        strides.append([0] * offset + [0 if n == 1 and shape[d] != 1 else s
                                       for d, (n, s) in enumerate(zip(a.shape, torch_strides(a)), offset)])
    return reorder_dimensions(ndim, shape, strides)[::-1]


def reorder_dimensions(ndim, shape, strides, reduction=False):
    """TensorIterator's reorder_dimensions: the dims fastest first, by an insertion sort in which
    a comparison the first deciding operand cannot settle is left as it is.  ``strides``: each
    operand's strides broadcast to ``shape`` (0 along a broadcast dim).  For a reduction the
    first operand is the output, and its reduced (stride-0) dims go first."""

    def should_swap(d0, d1):
        for k, s in enumerate(strides):
            s0, s1 = s[d0], s[d1]
            if reduction and k == 0 and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue  # broadcast along one of them: the next operand decides
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:  # equal strides: the larger dimension goes after
                return 1
        return 0

    return insertion_sort(list(range(ndim - 1, -1, -1)), should_swap)


def dense_order(a):
    """The dims of ``a`` slowest first as PyTorch lays out a new tensor like ``a``
    (``empty_like``'s preserve_format, ATen's infer_dense_strides: TensorIterator's sort of
    ``a``'s strides, a stride-0 dim deciding nothing) and as a kernel walks ``a`` alone;
    None for C order."""
    ndim = a.ndim
    if ndim < 2 or not isinstance(a, np.ndarray) or a.flags.c_contiguous:  # (lazy arrays: C order)
        return None
    shape = a.shape
    order = reorder_dimensions(ndim, shape, [[abs(s) for s in torch_strides(a)]])[::-1]
    return None if order == list(range(ndim)) else order


def like_layout(a, values):
    """``values`` (one-dimensional, in memory order) as an array of ``a``'s shape laid out
    like ``a``: where PyTorch puts the numbers it draws for a tensor made like ``a``, or
    for ``a`` itself filled in place (an empty ``a``: its very strides, as empty_like keeps them)."""
    if type(a) is np.ndarray and a.ndim and not a.size:
        return empty_like(a, values.dtype)
    order = dense_order(a)
    if order is None:
        return values.reshape(a.shape)
    return values.reshape([a.shape[d] for d in order]).transpose(np.argsort(order))


def empty_like(a, dtype=None):
    """An uninitialised array of ``a``'s shape laid out like ``a`` (PyTorch's empty_like)."""
    dtype = a.dtype if dtype is None else dtype
    if type(a) is np.ndarray and a.ndim and not a.size:  # (every empty tensor is dense: its very strides)
        step = np.dtype(dtype).itemsize
        return with_empty_strides(np.empty(a.shape, dtype), [s // a.itemsize * step for s in torch_strides(a)])
    if type(a) is np.ndarray and a.ndim and 1 in a.shape and a.size and _dense(a):
        # empty_strided with a dense tensor's very strides, those of its dims of one element too
        return with_strides(np.empty(a.shape, dtype), [s // a.itemsize for s in torch_strides(a)])
    order = dense_order(a)
    if order is None:
        return np.empty(a.shape, dtype)
    return np.empty([a.shape[d] for d in order], dtype).transpose(np.argsort(order))


def view_strides(shape, strides, new_shape):
    """c10's computeStride: the strides (in elements) of a view of (shape, strides) as ``new_shape``,
    or None where no view is possible."""
    if not shape:
        return [1] * len(new_shape)
    new = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base, numel, view_numel = strides[-1], 1, 1
    for d in range(len(shape) - 1, -1, -1):
        numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != numel * base):
            while view_d >= 0 and (view_numel < numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != numel:
                return None
            if d > 0:
                base, numel, view_numel = strides[d - 1], 1, 1
    return new if view_d == -1 else None


def reshaped(a, shape):
    """``a.reshape(shape)`` with PyTorch's view strides (c10's computeStride) in its dims of one
    element too, where it is a view: numpy strides a new dim of one element its own way, which
    TensorIterator's sort of a later result's dims reads (kron's product)."""
    out = a.reshape(shape)
    if type(out) is not np.ndarray or type(a) is not np.ndarray or 1 not in out.shape or not out.size \
            or a.ndim == 0 or a.flags.c_contiguous and _c_strides(a) and _c_strides(out) \
            or not np.may_share_memory(out, a):
        return out  # (a view of C's strides has C's strides, as computeStride gives them; a copy: C order)
    step = a.itemsize
    want = view_strides(a.shape, [s // step for s in torch_strides(a)], out.shape)
    if want is None:
        return out
    want = tuple([s * step for s in want])
    if reads_as(out, want):
        return out
    found = storage_of(out)
    if found is None:
        return out
    flat, offset = found
    view = np.ndarray(out.shape, out.dtype, flat, offset * step, numpy_strides(out.shape, want))
    if not out.flags.writeable:  # (a broadcast array's view stays read-only)
        view.flags.writeable = False
    return view


def broadcasts(arrays) -> bool:
    """Whether the shapes of ``arrays`` (or numbers) broadcast together."""
    try:
        return np.broadcast_shapes(*(np.shape(a) for a in arrays)) is not None
    except ValueError:
        return False


def view_ancestors(a) -> list:
    """The arrays ``a`` is a numpy view of, nearest first (through numpy's as_strided wrapper, whose
    ``base`` is a DummyArray holding the array it views)."""
    out = []
    while True:
        b = a.base
        if isinstance(b, np.ndarray):
            a = b
        elif b is not None and isinstance(getattr(b, "base", None), np.ndarray):
            a = b.base
        else:
            return out
        out.append(a)


def storage_root(a):
    """The array at the start of ``a``'s chain of views."""
    chain = view_ancestors(a)
    return chain[-1] if chain else a


def storage_of(a):
    """(flat storage array, element offset of ``a`` in it): the numpy buffer ``a`` is a view of,
    as PyTorch's storage; None when ``a`` is not a view of one contiguous buffer."""
    root = storage_root(a)
    if not _dense(root):  # (a dense root in another order, a ufunc's result laid out like its input, too)
        return None
    flat = root.ravel(order="K")
    if not np.shares_memory(flat, root) and root.size:
        return None
    if flat.dtype.kind == "V" and a.dtype.kind != "V":  # (numpy's unique along an axis views rows as records)
        flat = flat.view(a.dtype)
    offset = (a.__array_interface__["data"][0] - flat.__array_interface__["data"][0]) // max(a.itemsize, 1)
    return flat, offset


class _PastEnd:
    """What an empty view past its buffer's end is made from: the buffer (``base``, so that
    view_ancestors finds it, as numpy's as_strided wrapper) and the view's array interface."""

    __slots__ = ("base", "__array_interface__")

    def __init__(self, base, interface):
        self.base = base
        self.__array_interface__ = interface


def view_at(flat, offset, shape, strides, dtype):
    """A view of the 1-D buffer ``flat`` of ``shape`` and ``strides`` (bytes) in ``dtype``, starting
    ``offset`` bytes in; an empty one may start past the buffer's end (PyTorch's storage offset of an
    empty view may lie there; numpy's views cannot: it is made through the array interface, its
    address ``offset`` bytes past ``flat``'s, and nothing is ever read there)."""
    if offset <= flat.nbytes:
        return np.ndarray(shape, dtype, buffer=flat, offset=offset, strides=strides)
    address, readonly = flat.__array_interface__["data"]
    return np.asarray(_PastEnd(flat, {"shape": tuple(shape), "strides": tuple(strides), "typestr": np.dtype(dtype).str,
                                      "data": (address + offset, readonly), "version": 3}))


def empty_slice(out, a, dim, start):
    """``out`` (``a[..., start:stop]`` along ``dim``); when empty, at PyTorch's storage offset (the start
    times the stride, where numpy's empty slice starts at the input's first element)."""
    if type(out) is not np.ndarray or out.size:
        return out
    found = storage_of(a) if type(a) is np.ndarray and start else None
    if found is None:
        return out
    flat, own = found
    offset = own + start * (torch_strides(a)[dim] // max(a.itemsize, 1))
    if offset < 0:
        return out
    return view_at(flat.reshape(-1).view(np.uint8), offset * a.itemsize, out.shape, out.strides, out.dtype)


def strided_copy(a):
    """A copy of ``a`` with ``a``'s strides and storage offset in a copy of its whole storage, as
    ATen's clone_preserve_strides makes the result of the ``*_scatter`` ops: a stepped or otherwise
    non-dense input keeps its gaps.  An input with internal overlap (a broadcast dim) is cloned as
    ``clone`` lays it out (:func:`empty_like`)."""
    found = storage_of(a) if type(a) is np.ndarray and a.size else None
    if found is None or any(s <= 0 and n > 1 for n, s in zip(a.shape, a.strides)):
        out = empty_like(a) if type(a) is np.ndarray else np.empty(a.shape, a.dtype)
        out[...] = a
        return out
    flat, offset = found
    return np.ndarray(a.shape, a.dtype, flat.copy(), offset * a.itemsize, torch_strides(a))


def c_order(a):
    """``a`` in C order (a copy unless it is): a result PyTorch's kernel writes contiguous
    whatever its input's layout (softmax, tril, cross, cumsum, ...); an empty one a new array (numpy's
    flag calls every empty array C-ordered, whatever PyTorch strides it carries)."""
    if type(a) is not np.ndarray or a.flags.c_contiguous and a.size and (1 not in a.shape or _c_strides(a)):
        return a
    return a.copy(order="C")


def _c_strides(a) -> bool:
    """A C-contiguous ``a``'s dims of one element are strided as C order strides them (numpy's flag
    skips them; PyTorch's contiguous result shows their strides)."""
    step = a.itemsize
    for n, s in zip(reversed(a.shape), reversed(a.strides)):
        if s != step:
            return False
        step *= n
    return True


def laid_out_like(src, out):
    """``out`` (of ``src``'s shape) laid out like ``src`` as empty_like lays it out (a dense ``src``'s
    very strides, those of dims of one element too): a result PyTorch allocates like its input
    (sort's values and indices, flip)."""
    if type(out) is not np.ndarray or type(src) is not np.ndarray or out.ndim < 2 and out.size:
        return out
    if not out.size:  # (every empty tensor is dense: its very strides)
        return empty_like(src, out.dtype) if out.ndim else out
    if 1 in src.shape and src.size and _dense(src):
        return with_strides(out, [s // src.itemsize for s in torch_strides(src)])
    order = dense_order(src)
    if order is None:
        return c_order(out)
    fresh = empty_like(src, out.dtype)
    if fresh.strides == out.strides:
        return out
    fresh[...] = out
    return fresh


def _channels_last_like(shape, strides, order) -> bool:
    """c10's is_channels_last_strides_2d/3d (4-D and 5-D only): the strides grow along ``order``
    (channels first, batch last), each at least the previous one times its size, with a channel
    dim that is not broadcast and a batch stride that differs from the channel stride."""
    low = 0
    if strides[1] == 0:
        return False
    for d in order:
        if shape[d] == 0 or strides[d] < low:
            return False
        if d == 0 and low == strides[1]:  # (N111-like shapes: ambiguous, taken as contiguous)
            return False
        low = strides[d] * shape[d] if shape[d] > 1 else strides[d]
    return True


def suggest_memory_format(shape, strides):
    """Tensor.suggest_memory_format() of a tensor of ``shape`` with PyTorch's ``strides`` (in
    elements, size-1 dims included): "channels_last" for a 4-D tensor laid out NHWC,
    "channels_last_3d" for a 5-D one laid out NDHWC, else None (contiguous)."""
    if len(shape) == 4 and _channels_last_like(shape, strides, (1, 3, 2, 0)):
        return "channels_last"
    if len(shape) == 5 and _channels_last_like(shape, strides, (1, 4, 3, 2, 0)):
        return "channels_last_3d"
    return None


def suggested_format(a):
    """suggest_memory_format of an array (None for lazy and 0-d arrays)."""
    if type(a) is not np.ndarray or a.ndim not in (4, 5):
        return None
    return suggest_memory_format(a.shape, torch_strides(a))


def in_memory_format(out, fmt):
    """``out`` laid out in the memory format ``fmt`` (None: C order; "channels_last(_3d)": the channel
    dim fastest, then the spatial dims in reverse, the batch slowest), as ``at::empty(shape,
    memory_format=fmt)`` allocates a result (cat, constant_pad_nd)."""
    if type(out) is not np.ndarray:
        return out
    return in_order(out, None if fmt is None else [0, *range(2, out.ndim), 1])


def in_input_format(forward, formats=lambda arrays: suggested_format(arrays[0])):
    """``forward`` (an Op's) whose array results are laid out in its input's suggested memory format:
    channels-last when the input is, else C order, as ATen's nn kernels allocate their outputs
    (``at::empty(..., input.suggest_memory_format())``: pooling, upsampling, batch/group norm,
    reflection/replication padding, pixel_shuffle; convolution with ``formats`` of input and weight)."""

    def run(ctx, *arrays, **attrs):
        out = forward(ctx, *arrays, **attrs)
        fmt = formats(arrays)
        if type(out) is tuple:
            return tuple([in_memory_format(o, fmt) if getattr(o, "ndim", 0) in (4, 5) or fmt is None else o
                          for o in out])
        return in_memory_format(out, fmt) if fmt is None or getattr(out, "ndim", 0) in (4, 5) else out

    run.__name__ = getattr(forward, "__name__", "forward")
    return run


def cat_memory_format(metas):
    """cat's cat_compute_output_memory_format over its inputs' (shape, strides): the format they all
    suggest, contiguous (None) as soon as one suggests contiguous or two differ."""
    fmt = None
    for k, (shape, strides) in enumerate(metas):
        f = suggest_memory_format(shape, strides)
        if f is None or k and f != fmt:
            return None
        fmt = f
    return fmt


def cast(a, dtype):
    """``a.astype(dtype)``, laid out as PyTorch lays out a converted tensor (``to``'s
    preserve_format, and TensorIterator's casts of its operands): like ``a``, a broadcast
    (stride-0) dim deciding nothing.  numpy's "K" order would put such a dim innermost:
    ``x.expand(2, 4).double()`` would not be contiguous.  NaNs to and from float16: PyTorch's bits
    (_vector_loop.cast_nans)."""
    if type(a) is np.ndarray and _twice_rounded(a, dtype):
        with np.errstate(over="ignore"):
            a = _cast(a, np.float32)
    out = _cast(a, dtype)
    if out.dtype.kind == "f" and a.dtype.kind == "f" and type(out) is np.ndarray and (
            out.itemsize == 2 or a.dtype.itemsize == 2):
        from ._vector_loop import cast_nans
        out = cast_nans(out, a)
    return out


def _cast(a, dtype):
    if type(a) is np.ndarray and not a.size and a.ndim:  # (every empty tensor is dense: its very strides)
        return empty_like(a, dtype)
    if type(a) is np.ndarray and (a.size > 1 or a.ndim > 1 and a.size):
        if 1 in a.shape and _dense(a):
            # a dense tensor's copy gets its very strides (empty_strided), those of its dims of size 1
            # too, which TensorIterator's sort of the dims reads later (numpy's would be its own)
            dtype = np.dtype(dtype)
            step = dtype.itemsize
            strides = [s // a.itemsize * step for s in torch_strides(a)]
            out = np.ndarray(a.shape, dtype, np.empty(a.size, dtype), 0, strides)
            out[...] = a
            return out
        if _zero_strided(a) or 1 in a.shape and not a.flags.c_contiguous:  # (infer_dense_strides; numpy's
            out = empty_like(a, dtype)  # "K" order strides the dims of one element its own way)
            out[...] = a
            return out
        if not a.flags.c_contiguous and a.ndim > 1:
            from ._overlap_loop import tied_strides
            if tied_strides(a):  # (shared elements: TensorIterator's sort of the tied dims, not numpy's)
                return iterator_layout(a.astype(dtype), (a,))
    return a.astype(dtype)


def _twice_rounded(a, dtype) -> bool:
    """Whether ``a`` (an array) converted to ``dtype`` goes through float32 first: a half from a double or
    a wide integer (c10::Half is made from a float)."""
    return np.dtype(dtype) == np.float16 and (a.dtype == np.float64 or a.dtype.kind in "iu" and a.dtype.itemsize >= 4)


def in_order(out, order):
    """``out`` laid out with its dims slowest first in ``order`` (:func:`dense_order`'s form;
    None: C order): a result PyTorch allocates with strides it recorded earlier (CopySlices'
    gradient, laid out as the base was)."""
    if order is None:
        return c_order(out)
    if not out.size:
        return with_empty_strides(out.copy(), ordered_strides(out.shape, order, out.itemsize))
    fresh = np.empty([out.shape[d] for d in order], out.dtype).transpose(np.argsort(order))
    if fresh.strides == out.strides:
        return out
    fresh[...] = out
    return fresh


def promote(a, dtype):
    """An operand's data in the dtype its op computes in: ``a`` itself when it has it, else
    :func:`cast` (TensorIterator's cast of an input to the common dtype, laid out like it)."""
    return a if a.dtype == dtype else cast(a, dtype)


def _partial_overlap(a, b) -> bool:
    """c10's get_overlap_status(a, b) == Partial: both dense, their byte ranges meet, and they are
    not the same elements in the same layout.  (Tensors that are not dense are "too hard": no error.)"""
    if not a.size or not b.size or not _dense(a) or not _dense(b):
        return False
    a0, b0 = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    a1, b1 = a0 + a.nbytes, b0 + b.nbytes
    if a0 == b0 and a1 == b1:
        return torch_strides(a) != torch_strides(b)
    return a0 < b1 and b0 < a1


def overlaps(a, b) -> bool:
    """c10's get_overlap_status(a, b) is Full or Partial (both dense, their byte ranges meet)."""
    if not a.size or not b.size or not _dense(a) or not _dense(b):
        return False
    a0, b0 = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    return a0 < b0 + b.nbytes and b0 < a0 + a.nbytes


# numpy's byte stride of a dim of one element that PyTorch strides 0 (a 0-d tensor expanded, a dim of one
# element sliced out of an expanded dim, as_strided's 0): numpy's own 0 there is read as unsqueeze's stride
# (None in an index, broadcast_to), so PyTorch's 0 is written as this stride, which no access ever uses
ZERO1 = -1


def torch_strides(a) -> tuple:
    """numpy's strides as PyTorch's would be: a dim of size 1 that numpy added with stride 0 (None in an
    index, broadcast_to) has PyTorch's unsqueeze / expand stride, the next dim's size times its stride;
    one of stride :data:`ZERO1` (any negative stride of a dim of one element) has PyTorch's 0."""
    strides = a.strides
    if 0 not in strides and (not strides or min(strides) > 0):
        return strides
    out = list(strides)
    shape = a.shape
    if not a.size:
        return _empty_strides(shape, out, a.itemsize)
    for d in range(a.ndim - 1, -1, -1):
        if shape[d] == 1:
            if out[d] < 0:
                out[d] = 0
            elif out[d] == 0:
                out[d] = a.itemsize if d == a.ndim - 1 else shape[d + 1] * out[d + 1]
    return tuple(out)


def _empty_strides(shape, out, itemsize) -> tuple:
    """PyTorch's byte strides of an empty array whose numpy strides are ``out``. An empty array carries
    PyTorch's strides in its numpy strides (numpy never reads them): a negative one is PyTorch's 0, a 0
    of a dim of one element unsqueeze's stride. numpy's own fresh empty array (a 0 stride on a dim
    of another size) is contiguous, as PyTorch makes an empty result: strides over max(size, 1)."""
    if any(s == 0 and n != 1 for n, s in zip(shape, out)):
        return contiguous_strides(shape, itemsize)
    for d in range(len(shape) - 1, -1, -1):
        if out[d] < 0:
            out[d] = 0
        elif out[d] == 0:
            out[d] = itemsize if d == len(shape) - 1 else shape[d + 1] * out[d + 1]
    return tuple(out)


def ordered_strides(shape, order, itemsize) -> tuple:
    """The byte strides of a dense layout with the dims slowest first in ``order``, each the product of
    the faster dims' sizes (a 0 among them too, as c10's channels-last strides and TensorIterator's
    compatible_stride compute them)."""
    out = [0] * len(shape)
    step = itemsize
    for d in reversed(order):
        out[d] = step
        step *= shape[d]
    return tuple(out)


def contiguous_strides(shape, itemsize) -> tuple:
    """PyTorch's contiguous byte strides of ``shape`` (a dim of 0 elements counts as one)."""
    out, step = [], itemsize
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def carried(a):
    """An empty array with PyTorch's strides written into its numpy strides (0 as :data:`ZERO1`), so
    that numpy's view arithmetic (transpose, an index, a reshape) gives a view PyTorch's strides;
    ``a`` itself when it carries them or isn't empty."""
    if a.size or type(a) is not np.ndarray or not a.ndim:
        return a
    return with_empty_strides(a, torch_strides(a))


def with_empty_strides(a, strides):
    """The empty array ``a`` (else ``a`` itself) with PyTorch's byte ``strides``."""
    if a.size or type(a) is not np.ndarray or not a.ndim:
        return a
    want = tuple([s or ZERO1 for s in strides])
    if a.strides == want:
        return a
    return np.lib.stride_tricks.as_strided(a, a.shape, want, writeable=a.flags.writeable)


def numpy_strides(shape, strides) -> tuple:
    """PyTorch's byte ``strides`` of an array of ``shape`` as numpy's (a 0 of a dim of one element, or of
    any dim of an empty array: ZERO1)."""
    if 0 in shape:
        return tuple([s or ZERO1 for s in strides])
    return tuple([ZERO1 if s == 0 and n == 1 else s for n, s in zip(shape, strides)])


def reads_as(a, want) -> bool:
    """``a``'s strides read as PyTorch's byte strides ``want``, a 0 of a dim of one element as ZERO1 (a
    numpy 0 there, read as unsqueeze's stride, would read otherwise after a permute)."""
    return torch_strides(a) == want and all(s < 0 for n, s, w in zip(a.shape, a.strides, want) if n == 1 and w == 0)


def settle_strides(out, want):
    """``out`` (a numpy view) restrided so that :func:`torch_strides` reads PyTorch's byte strides ``want``
    in its dims of one element (the others are numpy's already); ``out`` itself when it reads so."""
    if not isinstance(out, np.ndarray) or not out.size:
        return out
    want = tuple(want)
    if reads_as(out, want):
        return out
    strides = tuple([(ZERO1 if w == 0 else w) if n == 1 else s for n, s, w in zip(out.shape, out.strides, want)])
    return np.lib.stride_tricks.as_strided(out, out.shape, strides, writeable=out.flags.writeable, subok=True)


def sliced(a, index):
    """``a[index]`` (full slices, then one along the last dim it names), at PyTorch's storage offset when
    empty, and with its stride of the sliced dim, the input's times the step: 0 for a dim of one element
    sliced from an expanded dim."""
    d = len(index) - 1
    out = empty_slice(a[index], a, d, index[-1].start)
    if type(a) is np.ndarray and type(out) is np.ndarray and not out.size:  # (numpy's empty slice keeps the stride)
        have = torch_strides(a)
        return with_empty_strides(out, have[:d] + (have[d] * (index[-1].step or 1),) + have[d + 1:])
    if type(a) is np.ndarray and out.size and out.shape[d] == 1:
        have = torch_strides(a)
        out = settle_strides(out, have[:d] + (have[d] * (index[-1].step or 1),) + have[d + 1:])
    return out


def sliced_zero_strides(a, np_index):
    """PyTorch's element strides of ``a[np_index]`` (a basic index: ints, slices, None, one Ellipsis) where
    they differ from :func:`torch_strides`': a dim of size 1 sliced from a dim of stride 0 (an expanded
    one) keeps stride 0 in PyTorch (slice multiplies the stride), where numpy's 0 reads as unsqueeze's.
    None when the index has other items or no such dim."""
    items = list(np_index) if isinstance(np_index, tuple) else [np_index]
    if any(not (i is None or i is Ellipsis or type(i) in (int, slice)) for i in items) or items.count(Ellipsis) > 1:
        return None
    if Ellipsis in items:
        at = items.index(Ellipsis)
        fill = a.ndim - sum(1 for i in items if i is not None and i is not Ellipsis)
        items[at:at + 1] = [slice(None)] * fill
    items += [slice(None)] * (a.ndim - sum(1 for i in items if i is not None))
    out = a[tuple(items)]
    strides = [s // a.itemsize for s in torch_strides(out)] if out.size else None
    dim, src, found = 0, 0, False
    for i in items:
        if i is None:
            dim += 1
        elif type(i) is int:
            src += 1
        else:
            if strides is not None and out.shape[dim] == 1 and a.strides[src] == 0 and a.shape[src] > 1:
                strides[dim], found = 0, True
            dim, src = dim + 1, src + 1
    return tuple(strides) if found else None


def setitem_value_strides(a, shape) -> tuple:
    """PyTorch's byte strides of a setitem value ``a`` (of another shape than the slice, ``shape``) as copy_to
    hands it to copy_: viewed without its leading dims of one (a view: c10's computeStride restrides it, a dim
    of one next to a stride-0 dim gets 0: (0, 1, 0) -> (0, 0, 0)), then expanded to ``shape`` (a 0-d: strides
    0 only)."""
    lead = 0
    while lead < a.ndim and a.shape[lead] == 1:
        lead += 1
    kept = a.shape[lead:]
    if not kept:
        return (0,) * len(shape)
    step = a.itemsize
    viewed = view_strides(a.shape, [s // step for s in torch_strides(a)], kept)
    if viewed is None:  # (not a view: no such value reaches copy_)
        viewed = [s // step for s in torch_strides(a)][lead:]
    # (expand: a new dim has unsqueeze's stride, the next dim's size times its stride; one made larger 0)
    out = [0] * len(shape)
    for d in range(len(shape) - 1, -1, -1):
        k = d - (len(shape) - len(kept))
        n, st = (kept[k], viewed[k]) if k >= 0 else (1, shape[d + 1] * out[d + 1] // step)
        out[d] = 0 if n != shape[d] else st * step
    return tuple(out)
