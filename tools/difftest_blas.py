"""The differential tester's rules ``gemm-nonfinite-alpha`` and ``gemm-chain`` (tools/difftest.py, docs/semantics.md):
MKL's gemm applies an infinite ``alpha`` to one operand's elements in some kernels and to the sum
in others, so an element of ``addmm``/``addbmm`` is NaN in one library and an inf in the other."""

from __future__ import annotations

import re

#: the statements' names of the ops
GEMM_OPS = {"addmm", "addmm_", "addbmm", "addbmm_"}

#: ops whose values come from MKL's gemm/gemv in PyTorch (its order of additions: agrad follows the orders
#: found, src/agrad/ops/_gemm_order.py, and takes numpy's BLAS for the rest: float64, shapes whose order is
#: not found, products above the cost caps; docs/semantics.md, "float32 matrix products"): the rules
#: ``gemm-downstream`` and ``gemm-zero-gradient`` (tools/difftest.py) take a later statement's difference
#: that those last bits explain, as ``lapack-downstream`` does after LAPACK
SGEMM_OPS = {"mm", "matmul", "bmm", "baddbmm", "addmm", "addbmm", "mv", "addmv", "cov", "corrcoef", "linear",
             "tensordot", "einsum", "inner", "chain_matmul", "multi_dot", "matrix_exp", "matrix_power"}

#: ops that chain several matrix products of their own results (matrix_exp's squarings, matrix_power's
#: repeated products): each product's last bits (MKL's order against numpy's BLAS) are multiplied by the
#: next, so the rule ``gemm-chain`` allows their own values 1e-5 relative (float32; 1e-13 float64) to the
#: result's largest magnitude, ten times one product's tolerance
GEMM_CHAIN_OPS = {"matrix_exp", "matrix_power"}


def within_gemm_chain(w, g):
    """The elements within the chained products' tolerance (numpy arrays of one float dtype)."""
    import numpy as np

    rel = 1e-5 if w.dtype == np.float32 else 1e-13 if w.dtype == np.float64 else 0.0
    finite = np.isfinite(w)
    scale = np.abs(w[finite]).max() if finite.any() else 0.0
    return np.isfinite(g) & finite & (np.abs(w - g) <= rel * scale)

_ALPHA = re.compile(r"\balpha=float\('(?:-?inf|nan)'\)")


def nonfinite_alpha(stmt: str) -> bool:
    """True when the statement's (last line's) call gives ``alpha`` as an inf or a NaN."""
    return bool(_ALPHA.search(stmt.strip().splitlines()[-1]))


def nan_or_inf(w, g):
    """The elements where one side is NaN and the other an inf (numpy arrays)."""
    import numpy as np

    return (np.isnan(w) & np.isinf(g)) | (np.isinf(w) & np.isnan(g))
