"""``out=`` that is one of the op's own inputs (``torch.sum(x, 0, out=x)``): PyTorch's kernels resize
and write ``out`` before or while they read the input, so the result is what their order of reads and
writes gives, not the op's value. agrad computes the op's value first; the functions here give what
PyTorch's kernel leaves instead, op family by op family.

- Reductions (:func:`reduced_into_input`): the meta function resizes ``out`` -- the input too, one
  tensor -- to the result's shape; the reduction then runs over that input, every reduced dim now of one
  element, and its kernel fills the output with the reduction's identity before it accumulates the
  input's elements into it: each one reads its own element, already the identity. So sum, nansum, mean,
  any give 0, prod, all 1, amax the dtype's lowest (-inf), amin its highest -- except amin of int64, whose kernel
  reads first (its value stays); nanmean's count of non-NaN elements is taken before (0 / 0: NaN).
"""

from __future__ import annotations

import numpy as np

#: the identity each reduction's kernel fills its output with: a number, or "lowest"/"highest" of the dtype
_IDENTITY = {"sum": 0, "nansum": 0, "mean": 0, "prod": 1, "amax": "lowest", "amin": "highest", "any": 0, "all": 1}


def is_input(out, input) -> bool:
    """Whether ``out`` is ``input``: the very tensor, or one of the same elements (same memory, shape, strides)."""
    if out is None or input is None:
        return False
    if out is input:
        return True
    a, b = out._data, input._data
    return (type(a) is np.ndarray and type(b) is np.ndarray and a.shape == b.shape and a.strides == b.strides
            and a.dtype == b.dtype and a.size > 0
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _identity(fname, dtype):
    v = _IDENTITY[fname]
    if v == "lowest" or v == "highest":
        if dtype.kind == "b":
            return v == "highest"
        if dtype.kind == "f":
            return -np.inf if v == "lowest" else np.inf
        info = np.iinfo(dtype)
        return info.min if v == "lowest" else info.max
    return v


def reduced_into_input(fname, input, result, out, dims_given=None):
    """``result`` as PyTorch's reduction ``fname`` leaves it when ``out`` is ``input`` (see the module's
    notes): the identity, in result's shape and dtype. ``dims_given``: the reduced dims as the caller gave
    them (None: all), which must be dims of the resized input (else the value is left as it is)."""
    if not is_input(out, input) or result.dtype is not out.dtype or result.shape != input.shape and out is not input:
        return result
    if fname == "mean" and result.ndim != input.ndim:
        return result  # (mean_out's sum_out then resizes out again)
    if result.ndim != input.ndim and result.numel() != input.numel():
        n = max(result.ndim, 1)
        if dims_given is None or any(not -n <= int(d) < n for d in dims_given):
            return result
    from ..tensor import Tensor

    if fname == "amin" and result.dtype.name == "int64":  # (its kernel reads the element first: it stays,
        if result.shape == input.shape:  # the resized input's, the storage's first elements from out's)
            return result
        from .storage import storage_of
        flat, offset = storage_of(input)
        return Tensor._make(flat[offset:offset + result.numel()].reshape(result.shape).copy())
    data = np.full(result.shape, _identity(fname, result._data.dtype), result._data.dtype)
    return Tensor._make(data)


# average pooling -------------------------------------------------------------------------------------------

#: above this many additions the pool is not replayed element by element
_POOL_LIMIT = 200_000


def _c_contiguous(a) -> bool:
    return type(a) is np.ndarray and (a.flags.c_contiguous or a.size <= 1)


def _channels_last(a) -> bool:
    return type(a) is np.ndarray and a.ndim == 4 and (a.size <= 1 or np.moveaxis(a, 1, 3).flags.c_contiguous)


def pooled_into(fname, input, result, out, kernel, stride, pads, count_include_pad, divisor_override):
    """Write the average pool ``result`` into ``out`` (already resized) as ATen's kernel does, or return
    False to leave it to the plain write.

    avg_pool3d's kernel reads ``input.contiguous()`` and writes out's elements from its data pointer on in
    C order, whatever out's strides (an out that is a strided view gets the values packed at its start),
    each slice's output zeroed before its windows are summed: ``out=`` the (contiguous) input gives zeros. avg_pool2d's (cpu_avg_pool,
    or its channels-last form for an input laid out so) reads ``input.contiguous()`` and writes
    ``output.contiguous()``, copied into out at the end; each output element is zeroed, then its window's
    sum read and added (the channels-last form: a whole position's channels zeroed, each window element's
    channels added into them, then divided), so where out and the input share memory (``out=`` the input,
    resized to the result's shape, the input with it) a window reads what earlier ones wrote. The loop is
    split in ``get_num_threads()`` parts run at once: where a window reads an element another part writes,
    what it reads depends on the threads' timing -- the value is then left as it is."""
    o = out._data
    sp = len(kernel)
    if type(o) is not np.ndarray or type(input._data) is not np.ndarray or not o.size:
        return False
    cl = sp == 2 and _channels_last(input._data) and _suggested(input._data) == "channels_last"
    if sp == 3:
        if _c_contiguous(o):
            target = o
        else:
            from .storage import storage_of
            flat, offset = storage_of(out)
            target = flat[offset:offset + o.size].reshape(o.shape)
        if _c_contiguous(input._data) and np.shares_memory(target, input._data):
            if not (target is o and is_input(out, input)):
                return False
            target[...] = 0  # (each slice's output zeroed before its windows are read)
            return True
        if target is o:
            return False
        target[...] = result._data
        return True
    target = o if (_channels_last(o) if cl else _c_contiguous(o)) else None
    read = input._data if (_channels_last(input._data) if cl else _c_contiguous(input._data)) else None
    if target is None or read is None or not np.shares_memory(target, read):
        return False
    if result.numel() * int(np.prod(kernel)) > _POOL_LIMIT:
        return False
    return _replay(target, read, kernel, stride, pads, count_include_pad, divisor_override, cl)


def _addresses(a):
    at = np.full((), a.__array_interface__["data"][0], np.int64)
    for n, s in zip(a.shape, a.strides):
        at = np.add.outer(at, np.arange(n, dtype=np.int64) * s)
    return at


def _suggested(a):
    from ._layout import suggested_format
    return suggested_format(a)


def _window(o, k, s, pad, n):
    start = o * s - pad
    end = min(start + k, n + pad)
    size = end - start
    return max(start, 0), min(end, n), size


def _replay(w, r, kernel, stride, pads, count_include_pad, divisor_override, cl):
    """cpu_avg_pool's loop (or cpu_avg_pool_channels_last's), writing ``w`` and reading ``r`` element by
    element: False (nothing written) where a window reads what another thread's part writes."""
    from ..settings import get_num_threads

    sp = len(kernel)
    t = w.dtype.type
    integral = w.dtype.kind in "iu"
    acc = np.float32 if w.dtype == np.float16 else w.dtype.type
    size_in = r.shape[-sp:]
    lead_dims = w.ndim - sp

    def bounds(pos):
        ranges, pool, real = [], 1, 1
        for d in range(sp):
            a, b, n = _window(pos[d], kernel[d], stride[d], pads[d][0], size_in[d])
            ranges.append(range(a, b))
            pool *= n
            real *= max(b - a, 0)
        div = divisor_override if divisor_override else pool if count_include_pad else real
        return ranges, div, real == 0

    # the parallel loop's items (an output element; channels-last: an output position) and their parts
    items = list(np.ndindex(*w.shape)) if not cl else list(np.ndindex(w.shape[0], w.shape[2], w.shape[3]))
    part = -(-len(items) // max(min(get_num_threads(), len(items)), 1))
    waddr, raddr = _addresses(w), _addresses(r)
    writer = {}
    for k, item in enumerate(items):
        for idx in ([item] if not cl else [(item[0], c, item[1], item[2]) for c in range(w.shape[1])]):
            writer[int(waddr[idx])] = k // part
    plans = []
    for k, item in enumerate(items):
        pos = item[-sp:]
        ranges, div, empty = bounds(pos)
        lead = item[:lead_dims] if not cl else item[:1]
        reads = [] if empty else [tuple(x[i] for x, i in zip(ranges, at)) for at in np.ndindex(*[len(x) for x in ranges])]
        for q in reads:
            cells = [lead + q] if not cl else [(lead[0], c) + q for c in range(w.shape[1])]
            if any(writer.get(int(raddr[c]), k // part) != k // part for c in cells):
                return False  # (a race between the threads' parts)
        plans.append((item, reads, div, empty))

    def divided(total, div):
        if integral:
            q = abs(int(total)) // int(div)
            return t(-q if total < 0 else q)
        return t(acc(total) / acc(div))

    for item, reads, div, empty in plans:
        if not cl:
            lead = item[:lead_dims]
            w[item] = 0
            if empty:
                continue
            total = acc(0)
            for q in reads:
                total = acc(total + acc(r[lead + q]))
            w[item] = t(w[item] + divided(total, div))
            continue
        n, oh, ow = item
        for c in range(w.shape[1]):
            w[n, c, oh, ow] = 0
        if empty:
            continue
        for ih, iw in reads:
            for c in range(w.shape[1]):
                w[n, c, oh, ow] = t(w[n, c, oh, ow] + r[n, c, ih, iw])
        for c in range(w.shape[1]):
            w[n, c, oh, ow] = divided(w[n, c, oh, ow], div)
    return True


# matrix products -------------------------------------------------------------------------------------------

#: above this many multiply-adds an integer product into its operand is not replayed
_LOOP_LIMIT = 100_000

def product_into(fname, operands, result, out, self=None, beta=1, alpha=1):
    """The product ``result`` as PyTorch leaves it when ``out`` is one of its matrix ``operands`` (mm, mv:
    (mat1, mat2) / (mat, vec); bmm, baddbmm: (batch1, batch2)); else ``result`` as it is.

    (integer mm and mv: ATen's own gemm/gemv loops, replayed in ``_out_alias_int``)
    float32 and float64 mm and mv hand BLAS a zeroed result (gemm/gemv with beta 0 zeroes C first), so an operand that is out
    reads zeros (every size, 1 x 1 x 1 too; F.linear without a bias and matmul go through mm/mv). bmm and baddbmm of
    fewer than 400 multiply-adds per batch run ATen's own loop (baddbmm_cpu_kernel): baddbmm's out takes
    ``self`` first, then each element is the sum over k of batch1[i, k] * batch2[k, j] in the op's opmath
    type, read from memory as the earlier elements left it, written ``beta * r + alpha * sum`` (bmm: the
    sum); a larger bmm goes to BLAS batch by batch (a zeroed out, as mm)."""
    from ..tensor import Tensor

    hit = [is_input(out, t) for t in operands]
    if not any(hit) or result.dtype is not out.dtype or type(out._data) is not np.ndarray:
        return result
    arrays = [t._data for t in operands]
    blas = result._data.dtype in (np.float32, np.float64)  # (other dtypes: ATen's own gemm loops)
    if blas and (fname in ("mm", "mv") or fname in ("bmm", "baddbmm") and _macs(arrays) >= 400
                 and (fname == "bmm" or beta == 0)):
        return _zeroed_product(result, *(np.zeros_like(a) if h else a for a, h in zip(arrays, hit)))
    if result._data.dtype.kind in "iu" and fname in ("mm", "mv") and result.numel() * arrays[0].shape[-1] <= _LOOP_LIMIT:
        from ._out_alias_int import int_gemm_into, int_gemv_into
        done = int_gemm_into(out._data, *arrays, hit) if fname == "mm" else \
            int_gemv_into(out._data, *arrays) if hit[1] and not hit[0] else None
        return result if done is None else Tensor._make(done)
    if fname not in ("bmm", "baddbmm") or _macs(arrays) >= 400:
        return result
    r = np.array(np.broadcast_to(self._data, result.shape), result._data.dtype) if fname == "baddbmm" and beta != 0 \
        else np.array(out._data)
    s, m = (r if h else np.array(a) for a, h in zip(arrays, hit))
    opm = np.float32 if r.dtype in (np.float16,) or r.dtype.name == "bfloat16" else r.dtype.type
    b_, a_ = opm(beta), opm(alpha)
    with np.errstate(all="ignore"):
        for b, i, j in np.ndindex(*r.shape):
            acc = opm(0)
            for k in range(s.shape[2]):
                acc = opm(acc + opm(opm(s[b, i, k]) * opm(m[b, k, j])))
            if fname == "bmm":
                r[b, i, j] = acc
            elif beta == 0:
                r[b, i, j] = opm(a_ * acc)
            else:
                r[b, i, j] = opm(opm(opm(r[b, i, j]) * b_) + opm(a_ * acc))
    return Tensor._make(r)


def _macs(arrays):
    """Multiply-adds per batch of a batched product (rows * contraction * columns)."""
    a, b = arrays
    return a.shape[1] * a.shape[2] * b.shape[2]


def _zeroed_product(result, left, right):
    """BLAS's product into a zeroed out read back as an operand: zeros, NaN where the product of the
    operands as read (``left @ right``, a zeroed one zeros) has one (a zero times an inf)."""
    from ..tensor import Tensor

    with np.errstate(all="ignore"):
        nan = np.isnan(np.matmul(left, right))
    return Tensor._make(np.where(nan, np.nan, 0).astype(result._data.dtype))


def power_into(input, n, result, out):
    """linalg.matrix_power(A, n, out=A) of a float32/float64 matrix: its last product is matmul_out(out, ...)
    with A itself an operand for n = 2 (A @ A), 3 (matmul(A, A) @ A) and 2^k + 1 (A @ A^(2^k): the binary
    decomposition's first factor is A), which BLAS reads zeroed (see :func:`product_into`)."""
    if not is_input(out, input) or input.ndim < 2 or result.dtype is not out.dtype or type(input._data) is not np.ndarray:
        return result
    if input.ndim > 2:
        return _batched_power_into(input, n, result, out)
    if result._data.dtype not in (np.float32, np.float64):
        return result
    a = input._data
    zero = np.zeros_like(a)
    if n == 2:
        return _zeroed_product(result, zero, zero)
    if n == 3:
        return _zeroed_product(result, a @ a, zero)
    if n >= 5 and n % 2 and (n - 1) & (n - 2) == 0:
        with np.errstate(all="ignore"):
            return _zeroed_product(result, zero, np.linalg.matrix_power(a, n - 1))
    return result


def sorted_into_one(input, d, descending, out):
    """sort(out=(v, v)), one int64 tensor for the values and the indices: sort_out copies the input into the
    values, fills the indices 0, 1, ... along ``d`` over them, then sorts the pairs in place, so both hold
    the sorted positions (None: not that case)."""
    from ..tensor import Tensor

    if not (isinstance(out, (tuple, list)) and len(out) == 2 and all(isinstance(o, Tensor) for o in out)
            and is_input(out[0], out[1]) and input.dtype.name == "int64" and input.ndim):
        return None
    n = input.shape[d]
    pos = np.arange(n)[::-1] if descending else np.arange(n)
    return Tensor._make(np.ascontiguousarray(np.broadcast_to(
        pos.reshape([n if i == d else 1 for i in range(input.ndim)]), input.shape)))


def _batched_power_into(input, n, result, out):
    """matrix_power of a batch into itself: matmul_out's bmm (the batch dims folded, a view of contiguous
    memory) with the input an operand: n = 2 (A @ A), 3 (matmul(A, A) @ A), 2^k + 1 (A @ A^(2^k)), see
    :func:`product_into` (the temporary products here numpy's: their last bits may differ)."""
    from ..tensor import Tensor

    a = input._data
    odd = n >= 5 and n % 2 and (n - 1) & (n - 2) == 0
    if not (n in (2, 3) or odd) or not a.flags.c_contiguous or not a.size:
        return result
    k = a.shape[-1]
    flat = Tensor._make(a.reshape(-1, k, k))
    with np.errstate(all="ignore"):
        pair = (flat, flat) if n == 2 else (Tensor._make(np.matmul(a, a).reshape(-1, k, k)), flat) if n == 3 else \
            (flat, Tensor._make(np.linalg.matrix_power(a, n - 1).reshape(-1, k, k)))
    done = product_into("bmm", pair, Tensor._make(result._data.reshape(-1, k, k)), flat)
    return Tensor._make(done._data.reshape(result.shape))
