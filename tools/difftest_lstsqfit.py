"""The differential tester's rule ``lstsq-exact-fit`` (docs/semantics.md): the residuals of a
``linalg.lstsq`` whose fit is exact (B in A's column space) are LAPACK's rounding noise, the squares
of rows n.. of Q^T B as the driver leaves them. agrad forms Q^T B with MKL's reflector arithmetic
(ops/lstsq.py, ``_qr_residuals``), PyTorch's bits in most small problems but not all (MKL's sormqr
sums its dot products in an order agrad has not found: float32 exact fits of 4 x 2, 87 of 100), nor
after gebrd (gelsd, gelss of n < m < 1.6 n). A difference is covered when every residual that
differs is, in both libraries, within the noise of an exact fit: (4 max(m, n) eps)^2 (|b|^2 +
(|A|_F |x|)^2) for its column b of B and x of PyTorch's solution; the solution, rank and singular
values agreeing."""

from __future__ import annotations

import re

import numpy as np

_LSTSQ_AB = re.compile(r"\blstsq\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*[,)]")


def _operand(state: dict, name: str):
    d = state.get(name)
    if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].dtype.kind != "f":
        return None
    return d["data"]


def residual_noise_only(lines, want, i, w_obs, g_obs, agree_once) -> bool:
    """True when statement ``i`` is ``linalg.lstsq(A, B, ...)`` of two variables (B of A's dims, a matrix
    per batch element) whose results agree with PyTorch's once the residuals within an exact fit's noise
    (see the module's docstring), in both, are taken as PyTorch's."""
    found = _LSTSQ_AB.search(lines[i])
    if not found:
        return False
    before = want[i - 1]["vars"] if i else {}
    a, b = _operand(before, found.group(1)), _operand(before, found.group(2))
    if a is None or b is None or a.ndim < 2 or b.ndim != a.ndim or 0 in a.shape or 0 in b.shape:
        return False
    m, n = a.shape[-2:]
    if m <= n or b.shape[-2] != m:
        return False

    def neutral(w, g):
        if w["kind"] != "seq" or w["type"] != "torch.return_types.linalg_lstsq" or len(w["items"]) != 4 \
                or g["kind"] != "seq" or len(g["items"]) != 4:
            return None
        x, wr, gr = w["items"][0]["data"], w["items"][1]["data"], g["items"][1]["data"]
        if not all(isinstance(v, np.ndarray) for v in (x, wr, gr)) or wr.shape != gr.shape or not wr.size \
                or x.shape[-2:] != (n, b.shape[-1]) or wr.shape != x.shape[:-2] + (b.shape[-1],):
            return None
        with np.errstate(all="ignore"):
            aa = np.broadcast_to(a.astype(np.float64), x.shape[:-2] + (m, n))
            bb = np.broadcast_to(b.astype(np.float64), x.shape[:-2] + b.shape[-2:])
            a_norm = np.sqrt((aa * aa).sum(axis=(-2, -1)))[..., None]
            x_norm = np.sqrt((x.astype(np.float64) ** 2).sum(axis=-2))
            bound = (4 * m * np.finfo(wr.dtype).eps) ** 2 * ((bb * bb).sum(axis=-2) + (a_norm * x_norm) ** 2)
            noise = np.isfinite(bound) & (np.abs(wr) <= bound) & (np.abs(gr) <= bound)
        if not (noise & (wr != gr)).any():
            return None
        item = dict(g["items"][1], data=np.where(noise, wr, gr).astype(gr.dtype), repr=w["items"][1]["repr"])
        return w, dict(g, items=[g["items"][0], item] + g["items"][2:], repr=w["repr"])
    return agree_once(w_obs, g_obs, neutral)
