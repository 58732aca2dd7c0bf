"""Part of the differential tester's rule ``lapack-conditioning`` (tools/difftest.py,
docs/semantics.md): an elementwise op whose value turns on its operand's sign or zero (``sqrt``,
``log``, ``sign``, ...) taken of a LAPACK result, differing only where that result is within its
rounding bound of zero. ``torch.linalg.pinv`` of a float32 matrix whose exact inverse has a 0 gives
-1.5e-8 there in PyTorch (MKL's SVD) and +1.2e-8 in agrad (OpenBLAS's), so ``.sqrt()`` is NaN in
one and 1.1e-4 in the other."""

from __future__ import annotations

import re

import numpy as np

#: ops whose value turns on the sign (or the zero) of an operand at rounding level
SIGN_OPS = {"sqrt", "rsqrt", "log", "log2", "log10", "reciprocal", "sign", "sgn", "signbit"}
_UNARY = re.compile(r"^\s*\w+\s*=\s*(?:torch\.(\w+)\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*)\.(\w+)\(\s*\))\s*$")


def sign_of_lapack_noise(program, want: dict, got: dict, op_of, conditioned_ops, condition_of,
                         agrees_but_where) -> bool:
    """True when statement ``i`` of ``program`` (lines, PyTorch's observations, i) is a SIGN_OPS
    op of one variable that a CONDITIONED_OPS statement assigned, and the statement agrees once
    agrad's values are taken as PyTorch's where that variable (PyTorch's) is within
    4 max(m, n) kappa eps of its largest magnitude (kappa of the LAPACK op's input, as
    ``condition_of`` finds it)."""
    lines, states, i = program
    found = _UNARY.match(lines[i].strip().splitlines()[-1])
    if not found or not i:
        return False
    op, name = (found.group(1), found.group(2)) if found.group(1) else (found.group(4), found.group(3))
    if op not in SIGN_OPS:
        return False
    made = [j for j in range(i) if re.match(rf"^\s*{name}\s*=", lines[j])]
    if not made or op_of(lines[made[-1]]) not in conditioned_ops:
        return False
    condition = condition_of(lines, states, made[-1])
    operand = states[i - 1]["vars"].get(name)
    if condition is None or not operand or operand["kind"] != "tensor" or not isinstance(operand["data"], np.ndarray) \
            or operand["data"].dtype.kind != "f" or operand["data"].ndim < 2:
        return False
    data = operand["data"]
    finite = np.isfinite(data)
    scale = np.abs(data[finite]).max(initial=0.0)
    bound = 4 * max(data.shape[-2:]) * condition[0] * np.finfo(data.dtype).eps * scale
    noise = finite & (np.abs(data) <= bound)

    def allowed(w, g):
        return noise if w.shape == noise.shape else np.zeros(w.shape, bool)
    return agrees_but_where(want, got, allowed)
