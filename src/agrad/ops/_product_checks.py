"""The matrix products' dtype checks, as the path each call takes in ATen (mm's, bmm's kernels)."""
from __future__ import annotations

from .. import dtypes
from ..tensor import _scalar_name


def _c(t):
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
            "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool"}[t.dtype.name]


def _same_dtype(a, b, who):
    if a.dtype is not b.dtype:
        if who == "dot":
            raise RuntimeError(
                f"dot : expected both vectors to have same dtype, but found {_scalar_name(a.dtype)} and "
                f"{_scalar_name(b.dtype)}")
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {_c(a)} != {_c(b)}")


def _bmm_dtypes(batch1, batch2, out=None, per_batch="mm"):
    """bmm_out_or_baddbmm_'s dtype checks, by the path its sizes and layouts take: fewer than 400
    multiply-adds, its own kernel (dispatched on batch1's dtype, batch2 read as it); else MKL's gemm for a
    float/double result (batch2's dtype) over batches each contiguous or transposed, into a contiguous
    result (dispatched on the result's dtype); else an mm (baddbmm: an addmm_) per batch, with its check."""
    if batch1.dtype is batch2.dtype:
        return
    first, second = batch1.dtype, batch2.dtype
    b1, b2 = batch1._data.shape, batch2._data.shape
    if b1[2] * b1[1] * b2[2] >= 400:
        def items_dense(t):
            (_, r, c), (_, sr, sc) = t.shape, t.stride()
            return sc == 1 and (r == 1 or sr >= c) or sr == 1 and (c == 1 or sc >= r)

        if second in (dtypes.float32, dtypes.float64) and items_dense(batch1) and items_dense(batch2) and (
                out is None or out.is_contiguous()):
            first, second = second, first
        elif per_batch == "addmm":
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_scalar_name(first)} and "
                               f"{_scalar_name(second)}")
        else:
            _same_dtype(batch1, batch2, "mm")
    raise RuntimeError(f"expected scalar type {_scalar_name(first)} but found {_scalar_name(second)}")
