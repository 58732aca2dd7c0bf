"""The differential tester's rule ``svd-repeated`` (tools/difftest_rules.py, docs/semantics.md): an
``svd`` of a matrix with a repeated singular value, whose vectors of that value are another orthonormal
basis of the same singular subspaces, turned by the same rotation on both sides (U[:, c] Q and V[:, c] Q:
U S V^H unchanged). Which basis LAPACK returns is its gesdd's arithmetic: MKL's and the reference's
(numpy's) order equal singular values' vectors differently (session 39's run 39450000:
[[0, 0, 2.5, 0], [0, 2.5, 0, 0]] gives U = I in PyTorch, U = [[0, 1], [1, 0]] in agrad)."""

from __future__ import annotations

import numpy as np

SVD_TYPES = ("torch.return_types.svd", "torch.return_types.linalg_svd")


def _clusters(s, tol):
    """Runs of two or more singular values above ``tol`` that are equal within ``tol``."""
    out, start = [], 0
    for i in range(1, len(s) + 1):
        if i == len(s) or not abs(s[i] - s[start]) <= tol or s[i] <= tol:
            if i - start > 1 and s[start] > tol:
                out.append(list(range(start, i)))
            start = i
    return out


def rotated(w: dict, g: dict):
    """PyTorch's and agrad's descriptions of an svd's result with agrad's vectors of each repeated
    singular value put in PyTorch's (when they are the same rotation of them on both sides), or None."""
    if w["kind"] != "seq" or g["kind"] != "seq" or w.get("type") not in SVD_TYPES or len(w["items"]) != 3 \
            or len(g["items"]) != 3 or any(i["kind"] != "tensor" or not isinstance(i["data"], np.ndarray)
                                           for i in w["items"] + g["items"]):
        return None
    (uw, sw, vw), (ug, sg, vg) = ([i["data"] for i in d["items"]] for d in (w, g))
    if uw.shape != ug.shape or vw.shape != vg.shape or sw.shape != sg.shape or sw.dtype.kind != "f" \
            or sw.size == 0 or not (np.isfinite(sw).all() and np.isfinite(sg).all()):
        return None
    linalg = w["type"].endswith("linalg_svd")
    k = sw.shape[-1]
    m, n = uw.shape[-2], vw.shape[-1] if linalg else vw.shape[-2]
    eps = np.finfo(sw.dtype).eps
    new_u, new_v = uw.copy(), vw.copy()
    flat_s = sw.reshape(-1, k)
    found = False
    for b in range(flat_s.shape[0]):
        idx = np.unravel_index(b, sw.shape[:-1]) if sw.ndim > 1 else ()
        tol = max(m, n) * eps * flat_s[b].max()
        for c in _clusters(flat_s[b], tol):
            U_w, U_g = uw[idx][:, c], ug[idx][:, c]
            V_w, V_g = (vw[idx][c, :].conj().T, vg[idx][c, :].conj().T) if linalg else (vw[idx][:, c], vg[idx][:, c])
            q_u = U_w.conj().T @ U_g
            q_v = V_w.conj().T @ V_g
            close = 16 * len(c) * max(m, n) * eps
            if not (np.allclose(q_u, q_v, rtol=0, atol=close)
                    and np.allclose(q_u.conj().T @ q_u, np.eye(len(c)), rtol=0, atol=close)):
                return None
            new_u[idx][:, c] = U_g
            if linalg:
                new_v[idx][c, :] = vg[idx][c, :]
            else:
                new_v[idx][:, c] = V_g
            found = True
    if not found:
        return None
    items = [dict(w["items"][0], data=new_u, repr=g["items"][0]["repr"]), w["items"][1],
             dict(w["items"][2], data=new_v, repr=g["items"][2]["repr"])]
    return dict(w, items=items, repr=g["repr"]), g
