"""Tensor contractions: einsum, tensordot, inner and kron, composites built the way ATen
builds them (permute / reshape / bmm / mul), so their graphs show PyTorch's nodes.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _scalar_name, _wrap_dim_no_scalar
from ._layout import reorder_dimensions, torch_strides, view_strides, with_strides
from ._op import export, finish_out, with_out
from ._outs import copied_out
from .reductions import dims as _reduction_dims
from .views import _unsafe_view
from .linalg import bmm, dot, mm


def _tensordot_dtype(result, out):
    return RuntimeError(f"tensordot: Expected the output tensor to have dtype {_scalar_name(result.dtype)}, but got an "
                        f"output tensor with dtype {_scalar_name(out.dtype)}")


@export(method=True)
def inner(input, other, *, out=None):
    """Sum over the last dims: a product with a 0-d tensor, else tensordot over the last dims (whose out=
    is inner's: tensordot_out's copy into it)."""
    if input.ndim == 0 or other.ndim == 0:
        from .pointwise import mul
        return mul(input, other, out=out)  # (inner_out's mul_out)
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, ([-1], [-1]), out=out)  # PyTorch's: permute, reshape, mm (or dot)



# einsum (ATen's algorithm: align operands, then contract pairwise with bmm) ------------------

_ELLIPSIS = 52


def _subscript(c):
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + 26


def _label(s):
    return chr(s + ord("A")) if s < 26 else chr(s - 26 + ord("a"))


def _sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) as permute -> reshape -> bmm -> view -> permute."""
    if not sum_dims:
        return left * right
    dim = left.ndim
    summed = set(sum_dims)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in summed:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [0] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return bmm(left, right).view(out_size).permute(operm)


def _parse_ellipsis(text, i, message):
    """Index of the last '.' of an ellipsis starting at ``i``; PyTorch's error if it is not one."""
    if not (i + 2 < len(text) and text[i + 1] == "." and text[i + 2] == "."):
        raise RuntimeError(message)
    return i + 2


@export()
def einsum(equation, *operands):
    from .matrix import diagonal
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    num_ops = len(operands)
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]

    op_labels = [[] for _ in range(num_ops)]
    ell_in_input = False
    cur = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {cur} for which an ellipsis was already found")
            i = _parse_ellipsis(lhs, i, f"einsum(): found '.' for operand {cur} that is not part of any ellipsis")
            op_labels[cur].append(_ELLIPSIS)
            ell_in_input = True
        elif c == ",":
            cur += 1
            if cur >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ell_in_input = False
        else:
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {i} in the equation string, subscripts must be in "
                    "[a-zA-Z]")
            op_labels[cur].append(_subscript(c))
        i += 1
    if cur != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")

    label_count = [0] * 52
    ell_num_dim = 0
    for k, op in enumerate(operands):
        nlabels = len(op_labels[k])
        has_ell = False
        for s in op_labels[k]:
            if s == _ELLIPSIS:
                nlabels -= 1
                has_ell = True
                ell_num_dim = max(ell_num_dim, op.ndim - nlabels)
            else:
                label_count[s] += 1
        if not (nlabels <= op.ndim if has_ell else nlabels == op.ndim):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}) "
                + ("is more than the number of dimensions (" if has_ell else "does not match the number of dimensions (")
                + f"{op.ndim}) for operand {k}" + ("" if has_ell else " and no ellipsis was given"))

    label_perm_index = [-1] * 52
    perm_index = 0
    ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for s in range(52):
            if label_count[s] == 1:
                label_perm_index[s] = perm_index
                perm_index += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                i = _parse_ellipsis(rhs, i, "einsum(): found '.' for output that is not part of any ellipsis (...)")
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(
                        f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the equation string, "
                        "subscripts must be in [a-zA-Z]")
                s = _subscript(c)
                if not (label_count[s] > 0 and label_perm_index[s] == -1):
                    raise RuntimeError(
                        f"einsum(): output subscript {c}"
                        + (" appears more than once in the output" if label_perm_index[s] > -1
                           else " does not appear in the equation for any input operand"))
                label_perm_index[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(52):
        if label_count[s] > 0 and label_perm_index[s] == -1:
            label_perm_index[s] = perm_index
            perm_index += 1

    # align every operand to the dims out_dims + contraction dims
    label_size = [1] * 52
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for k, original in enumerate(operands):
        op = original
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[k]:
            if s == _ELLIPSIS:
                ndim = original.ndim - (len(op_labels[k]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = op.shape[dim]
                    if size != 1:
                        if not (ell_sizes[j] == 1 or ell_sizes[j] == size):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size {size} which "
                                f"does not broadcast with previously seen ellipsis with size {ell_sizes[j]} for the "
                                "respective dimension")
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm_index[s]] == -1:
                size = op.shape[dim]
                if size != 1:
                    if not (label_size[s] == 1 or label_size[s] == size):
                        raise RuntimeError(
                            f"einsum(): subscript {_label(s)} has size {size} for operand {k} which does not "
                            f"broadcast with previously seen size {label_size[s]}")
                    label_size[s] = size
                    dim_counts[label_perm_index[s]] += 1
                permutation[label_perm_index[s]] = dim
                dim += 1
            else:
                prev = permutation[label_perm_index[s]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(
                        f"einsum(): subscript {_label(s)} is repeated for operand {k} but the sizes don't match, "
                        f"{op.shape[dim]} != {op.shape[prev]}")
                op = diagonal(op, 0, prev, dim).movedim(-1, prev)
        for p in range(perm_index):
            if permutation[p] == -1:
                op = op.unsqueeze(dim)
                permutation[p] = dim
                dim += 1
        ops.append(op.permute(permutation))

    # contract left to right
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        ops = ops[2:]
        sum_dims, a_dims, b_dims = [], [], []
        for dim in range(out_num_dim, perm_index):
            if a.shape[dim] != 1 and b.shape[dim] != 1:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if a.shape[dim] != 1:
                    a_dims.append(dim)
                    dim_counts[dim] = 0
                elif b.shape[dim] != 1:
                    b_dims.append(dim)
                    dim_counts[dim] = 0
        if a_dims:
            a = a.sum(a_dims, keepdim=True)
        if b_dims:
            b = b.sum(b_dims, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = ops[0]
    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            return result.view(list(result.shape[:out_num_dim]))
        return result.sum(list(range(out_num_dim, perm_index)))
    return result


# tensordot / kron --------------------------------------------------------------------------

def _vf_tensordot_args(a, b, dims_a, dims_b):
    """The C++ parser of tensordot(Tensor input, Tensor other, int[] dims_self, int[] dims_other):
    its TypeErrors, in its order; the dims as lists of ints."""
    for i, (name, t) in enumerate((("input", a), ("other", b))):
        if not isinstance(t, Tensor):
            raise TypeError(f"tensordot(): argument '{name}' (position {i + 1}) must be Tensor, not {type(t).__name__}")
    out = []
    for i, (name, dims) in enumerate((("dims_self", dims_a), ("dims_other", dims_b))):
        if not isinstance(dims, (list, tuple)):
            raise TypeError(f"tensordot(): argument '{name}' (position {i + 3}) must be tuple of ints, not "
                            f"{type(dims).__name__}")
        ints = []
        for pos, d in enumerate(dims):
            if isinstance(d, Tensor) and not d.dtype.is_floating_point and d.dtype is not dtypes.bool_ \
                    and d.numel() == 1:
                d = int(d.item())
            elif not isinstance(d, numbers.Integral) or isinstance(d, bool):
                raise TypeError(f"tensordot(): argument '{name}' (position {i + 3}) must be tuple of ints, but "
                                f"found element of type {type(d).__name__} at pos {pos}")
            ints.append(int(d))
        out.append(ints)
    return out


@export()
def tensordot(a, b, dims=2, out=None):
    """torch.functional.tensordot's Python front (its errors, in its order), then the op."""
    if not isinstance(dims, (tuple, list, Tensor, int)):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           f"containing two lists, but got dims={dims}")
    dims_a, dims_b = [], []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims  # (Python's own unpacking errors, as PyTorch's)
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            if dims.shape[0] != 2:
                raise AssertionError(f"dims tensor must have size 2 in first dimension, got {dims.shape[0]}")
            dims_a, dims_b = dims[0].tolist(), dims[1].tolist()
        else:
            value = int(dims.item())
            if value < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims_a, dims_b = list(range(-value, 0)), list(range(value))
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    dims_a, dims_b = _vf_tensordot_args(a, b, dims_a, dims_b)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    csize = 1
    t1, t2 = a, b
    for da, db in zip(dims_a, dims_b):  # (sym_size(dim): maybe_wrap_dim's errors, a's dim first)
        s1 = a.shape[_wrap_dim_no_scalar(da, a.ndim)]
        s2 = b.shape[_wrap_dim_no_scalar(db, b.ndim)]
        if s2 == 1:
            t1 = t1.sum(da, keepdim=True, dtype=t1.dtype)  # the dtype kept (bool too)
        elif s1 == 1:
            t2 = t2.sum(db, keepdim=True, dtype=t2.dtype)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {da} and "
                                   f"second has size {s2} in dim {db}")
            csize *= s1
    cd1 = set(_reduction_dims(dims_a, a.ndim)) if dims_a else set()
    cd2 = set(_reduction_dims(dims_b, b.ndim)) if dims_b else set()
    p1, p2, rsizes = [], [], []
    size1 = size2 = 1
    for i in range(a.ndim):
        if i not in cd1:
            p1.append(i)
            size1 *= t1.shape[i]
            rsizes.append(t1.shape[i])
    p1 += dims_a
    p2 += dims_b
    for i in range(b.ndim):
        if i not in cd2:
            p2.append(i)
            size2 *= t2.shape[i]
            rsizes.append(t2.shape[i])
    if size1 != 1 or size2 != 1:
        result = mm(t1.permute(p1).reshape(size1, csize), t2.permute(p2).reshape(csize, size2))
    else:  # a full contraction: a dot product (of the flattened operands when they are contiguous)
        t1, t2 = t1.permute(p1), t2.permute(p2)
        if t1.is_contiguous() and t2.is_contiguous():
            result = dot(t1.flatten(), t2.flatten())
        else:
            result = (t1.squeeze() * t2.squeeze()).sum(dtype=t1.dtype)
    result = result.reshape(rsizes)
    return result if out is None else copied_out(result, out, _tensordot_dtype)


def _product_strides(shape, operands):
    """The strides (in elements) TensorIterator gives the product of ``operands`` ((shape, strides)
    pairs broadcast to ``shape``): its reorder_dimensions' permutation, laid out densely."""
    ops = [[0 if n == 1 and s != 1 else st for n, st, s in zip(op_shape, op_strides, shape)]
           for op_shape, op_strides in operands]
    perm = reorder_dimensions(len(shape), shape, ops)
    out, step = [0] * len(shape), 1
    for d in perm:
        out[d] = step
        step *= shape[d]
    return out


@export(method=True)
def kron(input, other, *, out=None):
    maxdim = max(input.ndim, other.ndim)
    pad_a, pad_b = maxdim - input.ndim, maxdim - other.ndim
    a_shape, b_shape, r_shape = [], [], []
    for i in range(maxdim):
        sa = input.shape[i - pad_a] if i >= pad_a else 1
        sb = other.shape[i - pad_b] if i >= pad_b else 1
        r_shape.append(sa * sb)
        a_shape += [sa, 1]
        b_shape += [1, sb]
    # ATen: _unsafe_view(mul(_unsafe_view(self, a_shape), _unsafe_view(other, b_shape)), r_shape); the
    # operands' views only add dims of size 1, the last one is a view of the product as TensorIterator
    # lays it out (not numpy: its layout of transposed operands differs)
    views = [(shape, view_strides(list(t._data.shape), [st // t._data.itemsize for st in torch_strides(t._data)], shape)
              if type(t._data) is np.ndarray else None) for t, shape in ((input, a_shape), (other, b_shape))]
    p_shape = [max(x, y) for x, y in zip(a_shape, b_shape)]
    p_strides = _product_strides(p_shape, views) if None not in (v[1] for v in views) else None
    if p_strides is not None and view_strides(p_shape, p_strides, r_shape) is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one dimension "
                           "spans across two contiguous subspaces). Use .reshape(...) instead.")
    if out is not None and tuple(out.shape) != tuple(r_shape):  # (kron_out: resize_output before mul_out refuses)
        from ._outs import _resize_out, warn_resized
        if out._data.size:
            warn_resized(out.shape, r_shape)
        _resize_out(out, np.empty(tuple(r_shape), out._data.dtype))
    result = _unsafe_view.apply((input,), (input._data,), {"shape": tuple(a_shape)}) * \
        _unsafe_view.apply((other,), (other._data,), {"shape": tuple(b_shape)})
    if p_strides is not None and type(result._data) is np.ndarray:  # (its fresh product, as TensorIterator lays it)
        result._data = with_strides(result._data, p_strides)
    # (mul_out's assert_no_partial_overlap: an operand that is out itself, of the result's shape, is a full
    # overlap, which TensorIterator allows; its elements are read before they are written)
    from ._out_alias import is_input
    apart = tuple(t for t in (input, other) if not (is_input(out, t) and tuple(t.shape) == tuple(r_shape)))
    result = finish_out("kron", _unsafe_view.apply((result,), (result._data,), {"shape": tuple(r_shape)}), out,
                        inputs=apart)
    if out is not None:
        out._vc[0] -= 1  # (mul_out writes an _unsafe_view of out, whose version counter is its own: out's stays)
    return result
