"""Differences docs/semantics.md lists as deliberate ("Left as they are"): the rules that name them.

``documented(aspect, stmt, want, got, program)`` returns the rule's name for a mismatch that is one of
them, or None. Each rule is narrow: it checks the op, the aspect, and that the two runs agree everywhere
except where the documented cause acts.
"""

from __future__ import annotations

import re

import numpy as np

import difftest_blas
import difftest_gelu
import difftest_gridsample
import difftest_lapack
import difftest_lstsqfit
import difftest_median
import difftest_nansign
import difftest_noise
import difftest_outalias
import difftest_svdout
import difftest_storage
import difftest_svdrot
import difftest_unpack
import difftest_uninit
import difftest_unpool
import difftest_vmlsqrt
from difftest_compare import compare_desc, op_of

#: the aspect of a group whose difference is one docs/semantics.md explains ("Left as they are")
DOCUMENTED = "documented"

#: decompositions whose vectors LAPACK may return with either sign
SIGN_FREE_OPS = {"svd", "eigh", "qr", "eig", "svd_lowrank", "pca_lowrank"}


def _strip_signs(d: dict) -> dict:
    if d["kind"] == "tensor" and isinstance(d["data"], np.ndarray):
        return dict(d, data=np.abs(d["data"]), repr="", graph=None, grad=None)
    if d["kind"] == "seq":
        return dict(d, items=[_strip_signs(i) for i in d["items"]], repr="")
    return d


def _signs_only(want: dict, got: dict, program=None) -> bool:
    """True when every variable of a statement agrees once signs are dropped, and some
    tensor differs (LAPACK's singular and eigen vectors: numpy's LAPACK is not PyTorch's);
    with ``program``, also when what is left once signs are dropped is lapack-conditioning's
    rounding (the two differences of LAPACK at once)."""
    if set(want["vars"]) != set(got["vars"]):
        return False
    bare_w, bare_g = ({k: _strip_signs(v) for k, v in obs["vars"].items()} for obs in (want, got))
    if all(compare_desc(bare_w[k], bare_g[k], k) is None for k in want["vars"]):
        return True
    return program is not None and _conditioned_rounding(dict(want, vars=bare_w), dict(got, vars=bare_g), program, None)


#: SVDs whose zero signs (of S, U, V) MKL's gesdd sets by its own arithmetic (docs/semantics.md, svd-zero-signs)
SVD_ZERO_SIGN_OPS = {"svd", "svdvals"}


#: ops that run LAPACK's SVD (gesdd) on their input
SVD_OPS = {"svd", "svdvals", "pinv", "pinverse", "matrix_rank", "cond", "nuclear_norm"}
#: a norm of a matrix that is an SVD's: the nuclear norm (ord 'nuc' of matrix_norm, linalg.norm, torch.norm) and
#: matrix_norm's spectral norms (ord 2 and -2)
_ARG = r"(?:[^,()\[\]]+|\([^()]*\)|\[[^\[\]]*\])+"  # (one argument: its brackets' commas kept inside)
_SVD_NORM = re.compile(rf"""\b(?:ord|p)\s*=\s*['"]nuc['"]|\b(?:matrix_)?norm\({_ARG},\s*['"]nuc['"]"""
                       rf"|\bmatrix_norm\({_ARG},\s*(?:ord\s*=\s*)?-?2(?:\.0?)?\s*[,)]")


def svd_op_of(stmt: str) -> str:
    """``op_of(stmt)``, with a norm that takes an SVD (:data:`_SVD_NORM`) named ``nuclear_norm``."""
    op = op_of(stmt)
    return "nuclear_norm" if op in ("norm", "matrix_norm") and _SVD_NORM.search(stmt) else op

#: the aspects of a value that differs (of a result, or of a leaf's gradient)
_VALUE_ASPECTS = {"value", "numeric", "repr", "grad-value", "grad-numeric", "grad-repr"}


def _agrees_but_where(want: dict, got: dict, allowed) -> bool:
    """True when every variable of a statement agrees once agrad's float values are taken as
    PyTorch's wherever ``allowed(torch_data, agrad_data)`` (a mask) holds, and some tensor differs."""
    def take(w, g):
        if w["kind"] == "seq" and g["kind"] == "seq" and len(w["items"]) == len(g["items"]):
            items = [take(a, b) for a, b in zip(w["items"], g["items"])]
            changed = any(a is not b for a, b in zip(items, g["items"]))
            return dict(g, items=items, repr=w["repr"] if changed else g["repr"])
        if w["kind"] != "tensor" or g["kind"] != "tensor":
            return g
        out = dict(g)
        wd, gd = w["data"], g["data"]
        if (isinstance(wd, np.ndarray) and isinstance(gd, np.ndarray) and wd.dtype.kind == "f"
                and wd.dtype == gd.dtype and wd.shape == gd.shape):
            with np.errstate(all="ignore"):
                mask = allowed(wd, gd) & ~((wd == gd) | (np.isnan(wd) & np.isnan(gd)))
            if mask.any():
                out["data"], out["repr"] = np.where(mask, wd, gd), w["repr"]
        if w.get("grad") is not None and g.get("grad") is not None:
            out["grad"] = take(w["grad"], g["grad"])
        return out if any(out[k] is not g[k] for k in out) else g
    if set(want["vars"]) != set(got["vars"]):
        return False
    return all(compare_desc(want["vars"][k], take(want["vars"][k], got["vars"][k]), k) is None for k in want["vars"])


def _svd_of_inf(lines: list[str], want: list[dict], i: int) -> bool:
    """True when statement ``i`` takes an SVD (SVD_OPS) of a tensor holding an inf, or is a backward
    (``backward``/``grad``) of a program that took one earlier: a tensor named in that statement
    held an inf in PyTorch's state before it."""
    for j in range(i + 1):
        if svd_op_of(lines[j]) not in SVD_OPS or (j < i and op_of(lines[i]) not in ("backward", "grad")):
            continue
        before = want[j - 1]["vars"] if j else {}
        # (an out='s old value is not read, unless the call also takes it as an input: eigh(x7, out=(o8, x7)))
        for name in set(re.findall(r"\b[A-Za-z_]\w*\b", _OUT_ARG.sub("", lines[j]))):
            d = before.get(name)
            if d and d["kind"] == "tensor" and isinstance(d["data"], np.ndarray) and d["data"].dtype.kind == "f" \
                    and np.isinf(d["data"]).any():
                return True
    return False


def _holds_nan(w, g):
    """The whole of a tensor that holds a NaN in PyTorch: a gradient through the singular vectors of a
    matrix with an inf, all of whose singular values are NaN, which MKL's gesdd gives as its NaN
    arithmetic makes them (NaN in some rows or columns, a signed permutation in the others)."""
    return np.full(w.shape, np.isnan(w).any())


_VML_OUT = re.compile(r"\bout\s*=")


def _float32_ulps(w, g):
    """Float64 values two float32 ulps apart at most: the same float32 result but for VML's last bits."""
    if w.dtype != np.float64:
        return np.zeros(w.shape, bool)
    with np.errstate(all="ignore"):
        return np.isfinite(w) & (np.abs(w - g) <= 2 * np.spacing(np.abs(w).astype(np.float32)).astype(np.float64))


def _nan_mask(op):
    """Where an SVD of an inf excuses agrad's values: the singular vectors' (``svd``) every matrix that holds a
    NaN in PyTorch's; another op's NaN elements."""
    return _matrix_holds_nan if op == "svd" else (lambda w, g: np.isnan(w))


def _matrix_holds_nan(w, g):
    """Each matrix (the last two dims; a vector's last dim) that holds a NaN in PyTorch: the singular vectors
    of a matrix with an inf, NaN in some rows or columns and MKL's permutation in the others (dt41b: U's
    column [0, 0, 1] where agrad's is [0, 1, 0])."""
    if w.ndim == 0:
        return np.isnan(w)
    axes = (-2, -1) if w.ndim >= 2 else (-1,)
    return np.broadcast_to(np.isnan(w).any(axis=axes, keepdims=True), w.shape)


#: PyTorch's text for gesdd's info > 0
_GESDD_FAILED = ("The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
                 "repeated singular values (error code: ")


_BATCH_ELEMENT = re.compile(r"^linalg\.svd: \(Batch element (\d+)\): ")


def _gesdd_gave_up_first(lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """Both raise linalg.svd's _LinAlgError, PyTorch's MKL gesdd giving up ("failed to converge ... (error
    code: k)") on batch element b, whose matrix (of a float tensor the statement names, in PyTorch's state
    before it) holds an inf and no NaN, agrad's on a later batch element: had gesdd not given up on b,
    PyTorch would have gone on to agrad's (svd-inf-nan, as the same error where agrad answers)."""
    we, ge = w_obs.get("error"), g_obs.get("error")
    if not we or not ge or we[0] != "_LinAlgError" or ge[0] != "_LinAlgError" or _GESDD_FAILED not in we[1]:
        return False
    mine, theirs = _BATCH_ELEMENT.match(we[1]), _BATCH_ELEMENT.match(ge[1])
    if not mine or not theirs or int(theirs.group(1)) <= int(mine.group(1)):
        return False
    b = int(mine.group(1))
    before = want[i - 1]["vars"] if i else {}
    for name in set(re.findall(r"\b[A-Za-z_]\w*\b", lines[i])):
        d = before.get(name)
        if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].dtype.kind != "f" \
                or d["data"].ndim < 3 or 0 in d["data"].shape:
            continue
        mats = d["data"].reshape((-1,) + d["data"].shape[-2:])
        if b < len(mats) and np.isinf(mats[b]).any() and not np.isnan(mats[b]).any():
            return True
    return False


def _null_space_dropped(want: dict, got: dict) -> bool:
    """True when an svd's results agree with PyTorch's once signs are dropped and so are the
    singular vectors of the singular values at or below max(m, n) eps s_max (PyTorch's S): a basis
    of the null space that LAPACK's rounding picks."""
    return _agree_once(want, got, lambda w, g: _svd_strip(w, g) if w["kind"] == "seq" and g["kind"] == "seq"
                       and len(g["items"]) == 3 else None)


def _svd_strip(w, g):
    """(PyTorch's, agrad's) svd triple with signs dropped and the null space's vectors zeroed (see above)."""
    kind = w.get("type", "").removesuffix("_out")  # (with out=: svd_out, linalg_svd_out)
    if w["kind"] != "seq" or kind not in ("torch.return_types.svd", "torch.return_types.linalg_svd") \
            or len(w["items"]) != 3 or any(i["kind"] != "tensor" or not isinstance(i["data"], np.ndarray)
                                           for i in w["items"] + g["items"]):
        return None
    u, s, v = (i["data"] for i in w["items"])
    if s.dtype.kind != "f":  # (out= tensors of another dtype, which an svd that raised left as they were)
        return None
    m, n = u.shape[-2], v.shape[-1] if kind.endswith("linalg_svd") else v.shape[-2]
    with np.errstate(all="ignore"):
        tol = max(m, n) * np.finfo(s.dtype).eps * s.max(axis=-1, initial=0)
    rank = np.sum(s > tol[..., None], axis=-1)[..., None]

    def keep(d, axis):
        data = np.abs(d["data"])
        inside = np.arange(data.shape[axis]) < rank
        return dict(d, data=np.where(inside[..., None, :] if axis == -1 else inside[..., :, None], data, 0),
                    repr="", graph=None, grad=None)
    v_axis = -2 if kind.endswith("linalg_svd") else -1
    return [dict(d, items=[keep(d["items"][0], -1), dict(d["items"][1], repr="", graph=None, grad=None),
                           keep(d["items"][2], v_axis)], repr="") for d in (w, g)]


def _agree_once(want: dict, got: dict, neutral) -> bool:
    """True when some variable of a statement differs and every one that does agrees once
    ``neutral(torch_desc, agrad_desc)`` has taken out what a rule allows (it returns the pair to
    compare, or None when the rule does not apply to that variable)."""
    if set(want["vars"]) != set(got["vars"]):
        return False
    changed = False
    for k in want["vars"]:
        w, g = want["vars"][k], got["vars"][k]
        if compare_desc(w, g, k) is None:
            continue
        pair = neutral(w, g)
        if pair is None or compare_desc(pair[0], pair[1], k) is not None:
            return False
        changed = True
    return changed


#: ops whose results LAPACK computes: their rounding grows with the input's condition number
CONDITIONED_OPS = {"pinv", "pinverse", "svd", "svdvals", "lstsq", "det", "slogdet", "logdet", "inv", "inverse",
                   "solve", "eigh", "eigvalsh", "cond",
                   # (session 30's LAPACK family: MKL's blocked kernels round otherwise past small sizes)
                   "inv_ex", "solve_ex", "cholesky", "cholesky_ex", "cholesky_solve", "cholesky_inverse", "triangular_solve",
                   "geqrf", "householder_product", "orgqr", "ormqr", "tensorinv", "tensorsolve", "nuclear_norm"}


#: ops whose trailing results, past a numerically rank-deficient input's rank, are rounding noise shaped
#: by the reflectors (geqrf's): a value far off is allowed within the same kappa eps bound as the rest
RANK_REVEALING_OPS = {"geqrf"}


_OUT_ARG = re.compile(r"\bout=(\([^)]*\)|[A-Za-z_]\w*)")


_A_BACKWARD = re.compile(r"\.backward\(|\bautograd\.grad\(")


#: ops whose first tensor holds Householder reflectors below its diagonal (what is on and above it unread)
_REFLECTOR_OPS = {"orgqr", "householder_product", "ormqr"}
_REFLECTOR_CALL = re.compile(r"\b(?:torch|linalg)\.(?:orgqr|householder_product|ormqr)\(\s*([A-Za-z_]\w*)")
_REFLECTOR_METHOD = re.compile(r"\b([A-Za-z_]\w*)\.(?:orgqr|ormqr)\(")


def _first_argument(line: str):
    """The variable holding the reflectors of an orgqr-like call (``torch.orgqr(a, t)``, ``a.orgqr(t)``)."""
    found = _REFLECTOR_CALL.search(line) or _REFLECTOR_METHOD.search(line)
    return found.group(1) if found else None


def _reflectors(mats):
    """The matrices of reflectors an orgqr-like op reads, where a matrix is not finite only in what
    it does not read: unit lower triangular, [1; v] in each column (its condition number, not one of
    an inf on or above the diagonal); the others as they are."""
    m, n = mats.shape[-2:]
    unit = np.tril(mats, -1) + np.eye(m, n)
    read = np.isfinite(np.tril(mats, -1)).all(axis=(-2, -1)) & ~np.isfinite(mats).all(axis=(-2, -1))
    return np.where(read[:, None, None], unit, mats)


#: ops (and hermitian=True calls) whose LAPACK kernel reads one triangle of their matrix (syevd's, potrf's)
_TRIANGLE_OPS = {"eigh", "eigvalsh", "cholesky", "cholesky_ex"}
_HERMITIAN_OPS = {"pinv", "pinverse", "matrix_rank"}


def _read_triangle(line: str, mats):
    """The symmetric matrices a one-triangle op reads of ``mats`` (lower unless UPLO='U' or upper=True): an
    inf or NaN in the other triangle is never read, and what is read is conditioned as this matrix is."""
    op = op_of(line)
    if op not in _TRIANGLE_OPS and not (op in _HERMITIAN_OPS and re.search(r"hermitian\s*=\s*True", line)):
        return mats
    if mats.shape[-1] != mats.shape[-2]:
        return mats
    if re.search(r"UPLO\s*=\s*['\"]U|upper\s*=\s*True", line):
        mats = np.swapaxes(mats, -1, -2)
    low = np.tril(mats)
    return low + np.swapaxes(np.tril(mats, -1), -1, -2)


def _result_condition(line: str, state: dict):
    """The largest 2-norm condition number of the finite matrices a statement assigns (PyTorch's), or None."""
    found = re.match(r"\s*([A-Za-z_]\w*)\s*=(?!=)", line)
    d = state["vars"].get(found.group(1)) if found and state["error"] is None else None
    if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].ndim < 2 \
            or d["data"].dtype.kind != "f" or 0 in d["data"].shape:
        return None
    mats = d["data"].astype(np.float64).reshape((-1,) + d["data"].shape[-2:])
    mats = mats[np.isfinite(mats).all(axis=(-2, -1))]
    if not len(mats):
        return None
    with np.errstate(all="ignore"):
        return float(np.nanmax(np.linalg.cond(mats)))


def _condition_of(lines: list[str], want: list[dict], i: int):
    """(condition number, power) for statement ``i``: a CONDITIONED_OPS call (power 1) or a
    ``backward``/``grad`` of a program that made one before (power 2, a derivative's rounding
    grows as the square), with the largest 2-norm condition number of the finite matrices among
    the float tensors it names, in PyTorch's state before it; None when there is none."""
    op = op_of(lines[i])
    if op in CONDITIONED_OPS:
        calls, power = [i], 1
    elif op in ("backward", "grad") or _A_BACKWARD.search(lines[i].strip().splitlines()[-1]):
        # (the generator's ``sum(g.pow(2).sum() for g in gs if ...).backward()`` is named after pow)
        calls, power = [j for j in range(i) if op_of(lines[j]) in CONDITIONED_OPS], 2
    else:
        return None
    kappa = None
    for j in calls:
        before = want[j - 1]["vars"] if j else {}
        if op_of(lines[j]) in _REFLECTOR_OPS:  # (a product of reflectors whose taus are not 2 / |v|^2 is
            k = _result_condition(lines[j], want[j])  # no longer orthogonal: its own condition counts)
            if k is not None:
                kappa = k if kappa is None else max(kappa, k)
        # (an out='s old value is not read, unless the call also takes it as an input: eigh(x7, out=(o8, x7)))
        for name in set(re.findall(r"\b[A-Za-z_]\w*\b", _OUT_ARG.sub("", lines[j]))):
            d = before.get(name)
            if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].ndim < 2 \
                    or d["data"].dtype.kind != "f" or 0 in d["data"].shape:
                continue
            mats = d["data"].astype(np.float64).reshape((-1,) + d["data"].shape[-2:])
            if op_of(lines[j]) in _REFLECTOR_OPS and name == _first_argument(lines[j]):
                mats = _reflectors(mats)
            mats = _read_triangle(lines[j], mats)
            mats = mats[np.isfinite(mats).all(axis=(-2, -1))]
            if len(mats):
                with np.errstate(all="ignore"):
                    k = float(np.nanmax(np.linalg.cond(mats)))
                kappa = k if kappa is None else max(kappa, k)
    return None if kappa is None else (kappa, power)


def _conditioned_rounding(want: dict, got: dict, program, nan_too) -> bool:
    """True when every variable of the statement agrees once agrad's values are taken as
    PyTorch's wherever they are within 4 max(m, n) kappa^p eps of the tensor's largest
    magnitude (kappa, p from _condition_of; eps of the dtype), or where ``nan_too`` (a mask function, or
    None) excuses them: an SVD of an inf's NaNs (svd-inf-nan, :func:`_nan_mask`)."""
    found = _condition_of(*program)
    if found is None:
        return False
    kappa, power = found
    lines, states, i = program
    size = max([max(d["data"].shape[-2:]) for d in (states[i - 1]["vars"] if i else {}).values()
                if d["kind"] == "tensor" and isinstance(d["data"], np.ndarray) and d["data"].ndim >= 2] or [1])

    before = states[i - 1]["vars"] if i else {}
    named = set(re.findall(r"\b[A-Za-z_]\w*\b", lines[i]))
    # (the op computes in its inputs' dtype: a float32 result written into a float64 out= keeps float32's eps)
    computed = max([np.finfo(d["data"].dtype).eps for k, d in before.items() if k in named and d["kind"] == "tensor"
                    and isinstance(d["data"], np.ndarray) and d["data"].dtype.kind == "f"] or [0.0])

    def allowed(w, g):
        finite = np.isfinite(w)
        scale = np.abs(w[finite]).max(initial=0.0)
        eps = max(np.finfo(w.dtype).eps, computed)
        near = np.abs(w - g) <= 4 * size * kappa ** power * eps * scale
        return (near & finite & np.isfinite(g)) | (nan_too(w, g) if nan_too else False)
    return _agrees_but_where(want, got, allowed)


_LSTSQ_A = re.compile(r"\blstsq\(\s*([A-Za-z_]\w*)\s*,")


def _lstsq_a(lines: list[str], want: list[dict], i: int):
    """The A of statement ``i``'s ``linalg.lstsq`` (a variable) as PyTorch held it before, or None."""
    found = _LSTSQ_A.search(lines[i])
    d = (want[i - 1]["vars"] if i else {}).get(found.group(1)) if found else None
    if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].ndim < 2 \
            or d["data"].dtype.kind != "f":
        return None
    return d["data"]


_SVD_DRIVERS = re.compile(r"driver=['\"](gels|gelsd|gelss)['\"]")


def _lstsq_inf_a(aspect: str, lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """True when statement ``i`` is a ``linalg.lstsq`` with the gels, gelsd or gelss driver of an A with
    an inf, and its results agree with PyTorch's once PyTorch's are taken in the batch elements whose A
    is not finite, or one of the two raises (MKL's NaN arithmetic on the A scaled by 0, docs/semantics.md)."""
    a = _lstsq_a(lines, want, i) if _SVD_DRIVERS.search(lines[i]) else None
    if a is None or not np.isinf(a).any():
        return False
    if aspect in ("raises-only-torch", "raises-only-agrad"):
        return True
    return _lstsq_loose(~np.isfinite(a).all(axis=(-2, -1)), w_obs, g_obs)


def _lstsq_pivots(lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """True when statement ``i`` is a ``linalg.lstsq`` with gelsy (the default driver) and its
    results agree with PyTorch's once PyTorch's are taken in the batch elements whose A is not
    finite or has a rank below min(m, n) in its own column order, where PyTorch's uninitialised
    column pivots decide the answer (docs/semantics.md)."""
    stmt = lines[i]
    if "driver=" in stmt and not re.search(r"driver=['\"]gelsy['\"]", stmt):
        return False
    a = _lstsq_a(lines, want, i)
    if a is None:
        return False
    from agrad.ops._lapack import gelsy_unpivoted
    m, n = a.shape[-2:]
    flat = a.reshape((-1, m, n))
    finite = np.isfinite(flat).all(axis=(-2, -1))
    rank = np.zeros(len(flat), np.int64)
    rank[finite] = gelsy_unpivoted(flat[finite], np.zeros((int(finite.sum()), m, 1), a.dtype),
                                   np.finfo(a.dtype).eps * max(m, n))[1]
    return _lstsq_loose((~finite | (rank < min(m, n))).reshape(a.shape[:-2]), w_obs, g_obs)


def _lstsq_loose(loose, w_obs: dict, g_obs: dict) -> bool:
    """True when lstsq's results agree once both are taken as zero in the batch elements ``loose``."""

    def neutral(w, g):
        if w["kind"] != "seq" or w["type"] != "torch.return_types.linalg_lstsq" or len(w["items"]) != 4 \
                or g["kind"] != "seq" or len(g["items"]) != 4:
            return None
        batch = tuple(w["items"][2]["shape"])
        if batch == (0,):  # (gels: no rank; the solution's batch dims)
            batch = tuple(w["items"][0]["shape"][:-2])
        try:
            mask = np.broadcast_to(loose, batch)
        except ValueError:
            return None
        w_items, g_items = [], []
        for wi, gi in zip(w["items"], g["items"]):
            wd, gd = wi.get("data"), gi.get("data")
            if wi["kind"] != "tensor" or not isinstance(wd, np.ndarray) or not isinstance(gd, np.ndarray) \
                    or wd.shape != gd.shape or wd.shape[:len(batch)] != batch:
                w_items.append(wi)
                g_items.append(gi)
                continue
            # (both zero there: the other elements are compared at their own scale)
            where = mask.reshape(batch + (1,) * (wd.ndim - len(batch)))
            w_items.append(dict(wi, data=np.where(where, 0, wd).astype(wd.dtype), repr=""))
            g_items.append(dict(gi, data=np.where(where, 0, gd).astype(gd.dtype), repr=""))
        return dict(w, items=w_items, repr=""), dict(g, items=g_items, repr="")
    return _agree_once(w_obs, g_obs, neutral)


_PINV_A = re.compile(r"\bpinv(?:erse)?\(\s*([A-Za-z_]\w*)\s*[,)]")
_PINV_METHOD = re.compile(r"\b([A-Za-z_]\w*)((?:\[[-0-9:, .]*\])*)\.pinverse\(")
_SLICE_ITEM = re.compile(r"^\s*(-?\d+)?\s*(?::\s*(-?\d+)?\s*(?::\s*(-?\d+)?\s*)?)?$")


def _basic_index(text: str):
    """The basic index of ``[...]`` subscripts written with ints, slices and an Ellipsis (``[::2]``,
    ``[1:, 0]``, ``[...]``), as a list of tuples to apply in turn, or None."""
    out = []
    for group in re.findall(r"\[([^\]]*)\]", text):
        items = []
        for part in group.split(","):
            if part.strip() == "...":
                items.append(Ellipsis)
                continue
            found = _SLICE_ITEM.match(part)
            if not found or not part.strip():
                return None
            nums = [int(v) if v is not None else None for v in found.groups()]
            items.append(nums[0] if ":" not in part else slice(*nums))
        out.append(tuple(items))
    return out


def _pinv_of_singular(lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """True when statement ``i`` is a ``pinv``/``pinverse`` whose result agrees with PyTorch's
    once PyTorch's is taken in the batch elements whose matrix is singular in its dtype (2-norm
    condition number 1/eps or more): the singular values LAPACK's rounding leaves there decide
    whether they pass the cutoff (docs/semantics.md)."""
    found = _PINV_A.search(lines[i]) or _PINV_METHOD.search(lines[i])
    if not found:
        return False
    d = (want[i - 1]["vars"] if i else {}).get(found.group(1))
    if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray):
        return False
    a = d["data"]
    index = _basic_index(found.group(2)) if found.re is _PINV_METHOD and found.group(2) else []
    if index is None:
        return False
    try:  # (a receiver sliced in the statement, ``v2[::2].pinverse()``: numpy's basic slicing is PyTorch's)
        for items in index:
            a = a[items]
    except IndexError:
        return False
    if a.ndim < 2 or a.dtype.kind != "f" or 0 in a.shape:
        return False
    with np.errstate(all="ignore"):
        kappa = np.linalg.cond(np.where(np.isfinite(a), a, 0).astype(np.float64))
    loose = ~(kappa < 1 / np.finfo(a.dtype).eps) & np.isfinite(a).all(axis=(-2, -1))

    # (the other matrices within lapack-conditioning's bound, 4 max(m, n) kappa eps of their scale)
    rest = float(np.nanmax(kappa[~loose], initial=1.0)) if np.ndim(kappa) else 1.0
    bound = 4 * max(a.shape[-2:]) * rest * float(np.finfo(a.dtype).eps)

    def neutral(w, g):
        if w["kind"] != "tensor" or g["kind"] != "tensor" or not isinstance(w["data"], np.ndarray) \
                or not isinstance(g["data"], np.ndarray) or w["data"].shape != g["data"].shape \
                or w["data"].shape[:-2] != loose.shape or w["data"].dtype.kind != "f":
            return None
        # (both zero there: the other elements are compared at their own scale)
        zero = loose[..., None, None]
        wd, gd = np.where(zero, 0, w["data"]), np.where(zero, 0, g["data"])
        with np.errstate(all="ignore"):
            near = np.abs(wd - gd) <= bound * np.abs(wd[np.isfinite(wd)]).max(initial=0.0)
        return (dict(w, data=wd.astype(w["data"].dtype), repr=""),
                dict(g, data=np.where(near, wd, gd).astype(g["data"].dtype), repr=""))
    return _agree_once(w_obs, g_obs, neutral)


_RANK_A = re.compile(r"\bmatrix_rank\(\s*([A-Za-z_]\w*)\s*[,)]")


def _rank_of_singular(lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """True when statement ``i`` is a ``matrix_rank`` whose ranks agree with PyTorch's except in batch
    elements whose matrix is singular in its dtype (2-norm condition number 1/eps or more): there
    the singular values LAPACK's rounding leaves (MKL's exact 0, OpenBLAS's 3e-17 for a float32
    ones(2, 2)) meet a tolerance that may be 0 (docs/semantics.md, as pinv-singular)."""
    found = _RANK_A.search(lines[i])
    if not found:
        return False
    d = (want[i - 1]["vars"] if i else {}).get(found.group(1))
    if not d or d["kind"] != "tensor" or not isinstance(d["data"], np.ndarray) or d["data"].ndim < 2 \
            or d["data"].dtype.kind != "f" or 0 in d["data"].shape:
        return False
    a = d["data"]
    with np.errstate(all="ignore"):
        kappa = np.linalg.cond(np.where(np.isfinite(a), a, 0).astype(np.float64))
    loose = ~(kappa < 1 / np.finfo(a.dtype).eps) & np.isfinite(a).all(axis=(-2, -1))

    def neutral(w, g):
        if w["kind"] != "tensor" or g["kind"] != "tensor" or not isinstance(w["data"], np.ndarray) \
                or not isinstance(g["data"], np.ndarray) or w["data"].shape != g["data"].shape \
                or w["data"].shape != loose.shape or w["data"].dtype.kind != "i":
            return None
        return (dict(w, data=np.where(loose, 0, w["data"]).astype(w["data"].dtype), repr=""),
                dict(g, data=np.where(loose, 0, g["data"]).astype(g["data"].dtype), repr=""))
    return _agree_once(w_obs, g_obs, neutral)


def _singular_cond(wd, gd):
    """Both condition numbers say "singular in this dtype": 1/(8 eps) or more (an inf included), the
    smallest singular value within 8 eps s_max, LAPACK's rounding noise for the tester's matrices
    (up to 8 rows or columns; MKL's float32 noise of a rank-1 2 x 4 matrix makes cond 8.05e6,
    just under 1/eps)."""
    big = 1 / (8 * np.finfo(wd.dtype).eps)
    return (np.abs(wd) >= big) & (np.abs(gd) >= big)


def _half_result_only(stmt: str, want: dict, got: dict) -> bool:
    """True when the one variable that differs is the float16 tensor the statement assigns (on
    both sides, of one shape): PyTorch's float16 matrix_exp overflows in its own constants."""
    target = re.match(r"^\s*(\w+)\s*=", stmt.strip().splitlines()[-1])
    mine = want["vars"].get(target.group(1)) if target else None
    if not mine or mine["kind"] != "tensor" or mine["dtype"] != "torch.float16":
        return False

    def neutral(w, g):
        return (w, w) if (w is mine and g["kind"] == "tensor" and g["dtype"] == "torch.float16"
                          and g["shape"] == w["shape"]) else None
    return _agree_once(want, got, neutral)


def _take_half_values(w: dict, g: dict) -> dict:
    """PyTorch's description ``w`` with agrad's values of its float16 tensors (same shape), a leaf's
    float16 ``.grad`` and those in a tuple of them included: what is left to differ is all else."""
    if w.get("kind") == "tensor" and g.get("kind") == "tensor":
        out = dict(w)
        if w["dtype"] == g["dtype"] == "torch.float16" and w["shape"] == g["shape"]:
            out["data"], out["repr"] = g["data"], g["repr"]
        if isinstance(w.get("grad"), dict) and isinstance(g.get("grad"), dict):
            out["grad"] = _take_half_values(w["grad"], g["grad"])
        return out
    if w.get("kind") == "seq" and g.get("kind") == "seq" and len(w["items"]) == len(g["items"]):
        return dict(w, repr=g["repr"], items=[_take_half_values(a, b) for a, b in zip(w["items"], g["items"])])
    return w


def _half_matrix_exp_gradient(lines: list[str], want: list[dict], i: int, w_obs: dict, g_obs: dict) -> bool:
    """Statement ``i`` takes a gradient (``backward``, ``autograd.grad``) after a float16 ``matrix_exp``
    whose result requires grad, and only float16 values differ: MatrixExpBackward0 runs PyTorch's
    float16 kernel too (on the block matrix [[A^H, G], [0, A^H]]), which overflows in its own constants."""
    if not _A_BACKWARD.search(lines[i]):
        return False
    for j in range(i):
        target = re.match(r"^\s*(\w+)\s*=(?!=)", lines[j].strip().splitlines()[-1])
        d = want[j]["vars"].get(target.group(1)) if target and op_of(lines[j]) == "matrix_exp" else None
        if d and d.get("kind") == "tensor" and d["dtype"] == "torch.float16" and d.get("requires_grad"):
            return _agree_once(w_obs, g_obs, lambda w, g: (_take_half_values(w, g), g))
    return False


#: the polynomials whose recurrence loop stops at a NaN before its first step (docs/semantics.md)
POLYNOMIAL_RECURRENCE_OPS = frozenset(
    "chebyshev_polynomial_t chebyshev_polynomial_u chebyshev_polynomial_v chebyshev_polynomial_w "
    "shifted_chebyshev_polynomial_t shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v "
    "shifted_chebyshev_polynomial_w laguerre_polynomial_l legendre_polynomial_p".split())


def _zero_signs_only(want: dict, got: dict) -> bool:
    """True when the variables that differ are float tensors equal to PyTorch's but for the signs of
    some zeros (their repr: ``-0.`` against ``0.``)."""
    def neutral(w, g):
        if w["kind"] != "tensor" or g["kind"] != "tensor" or not isinstance(w["data"], np.ndarray) \
                or not isinstance(g["data"], np.ndarray) or w["data"].dtype.kind != "f" or w["data"].shape != g["data"].shape:
            return None
        wd, gd = w["data"], g["data"]
        if not np.array_equal(wd, gd, equal_nan=True) or not ((wd == 0) & (np.signbit(wd) != np.signbit(gd))).any():
            return None
        return w, dict(g, data=wd, repr=w["repr"])
    return _agree_once(want, got, neutral)


def _zero_signs_taken(w: dict, g: dict) -> dict:
    """agrad's description ``g`` with PyTorch's signs on the zeros both hold (a tuple's items too),
    and PyTorch's repr where that changed anything."""
    if w["kind"] == "seq" and g["kind"] == "seq" and len(w["items"]) == len(g["items"]):
        items = [_zero_signs_taken(a, b) for a, b in zip(w["items"], g["items"])]
        changed = any(a is not b for a, b in zip(items, g["items"]))
        return dict(g, items=items, repr=w["repr"]) if changed else g
    if w["kind"] != "tensor" or g["kind"] != "tensor" or not isinstance(w["data"], np.ndarray) \
            or not isinstance(g["data"], np.ndarray) or w["data"].dtype.kind != "f" or w["data"].shape != g["data"].shape:
        return g
    wd, gd = w["data"], g["data"]
    flip = (wd == 0) & (gd == 0) & (np.signbit(wd) != np.signbit(gd))
    out = dict(g, data=np.where(flip, wd, gd), repr=w["repr"]) if flip.any() else g
    if isinstance(w.get("grad"), dict) and isinstance(g.get("grad"), dict):  # (a leaf's .grad: its zeros too)
        grad = _zero_signs_taken(w["grad"], g["grad"])
        if grad is not g["grad"]:
            out = dict(out, grad=grad)
    return out


def _zero_signs_within(want: dict, got: dict) -> bool:
    """True when the variables that differ agree (within the tester's tolerance) once the zeros both
    hold take PyTorch's signs, and some zero's sign differed."""
    def neutral(w, g):
        taken = _zero_signs_taken(w, g)
        return None if taken is g else (w, taken)
    return _agree_once(want, got, neutral)


def _big_lu(stmt: str, want: dict) -> bool:
    """Whether the LU the statement assigns (a tensor or a tuple of them: linalg.lu's P, L, U) has a
    matrix of 17 or more rows or columns, which MKL's getrf factors with its other, blocked kernel."""
    names = [n.strip() for n in stmt.split("=", 1)[0].split(",")] if "=" in stmt.split("(", 1)[0] else []
    shapes = []
    for name in names:
        v = want.get("vars", {}).get(name)
        for t in (v.get("items", []) if isinstance(v, dict) and v.get("kind") == "seq" else [v]):
            if isinstance(t, dict) and t.get("kind") == "tensor" and len(t.get("shape", ())) >= 2:
                shapes.append(t["shape"])
    return any(max(shape[-2:]) >= 17 for shape in shapes)


def _call_args(stmt: str, name: str) -> list[str] | None:
    """The top-level arguments (as written, stripped) of the first call of ``name`` in ``stmt``."""
    start = stmt.find(name + "(")
    if start < 0:
        return None
    args, depth, cur = [], 0, ""
    for ch in stmt[start + len(name) + 1:]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return args + [cur.strip()] if cur.strip() else args


def _poisson_flags(stmt: str) -> tuple[bool, bool]:
    """poisson_nll_loss's (log_input, full) as the statement passes them, by keyword or by position
    (input, target, log_input, full, ...): a value not written as True/False counts as its default."""
    flags = {"log_input": True, "full": False}
    for i, arg in enumerate(_call_args(stmt, "poisson_nll_loss") or []):
        key, _, value = arg.partition("=") if "=" in arg and "==" not in arg else ({2: "log_input", 3: "full"}.get(i),
                                                                                  "", arg)
        if key and key.strip() in flags and value.strip() in ("True", "False"):
            flags[key.strip()] = value.strip() == "True"
    return flags["log_input"], flags["full"]


def _vml_log_inside(stmt: str, want: dict, got: dict) -> bool:
    """poisson_nll_loss whose log (of the target with ``full=True``, of the input with
    ``log_input=False``) PyTorch takes from MKL VML: agrad's values within float32 rounding of the
    loss (a float64 loss of a float32 target holds the target's float32 Stirling term)."""
    log_input, full = _poisson_flags(stmt)
    if not full and log_input:
        return False
    return _agrees_but_where(want, got, lambda w, g: np.abs(w - g) <= 2e-6 * np.maximum(np.abs(w), 1.0))


_SIZE_ARGS = re.compile(r"\.resize_(?:as_)?\((.*)\)\s*$")


def _negative_size(aspect: str, stmt: str, want: dict, got: dict) -> bool:
    """resize_ to sizes with a negative one: PyTorch sets the sizes before its numel check, so the tensor
    keeps them when it raises ("shape": both raise the same error), and with a 0 among them the check
    passes (a tensor of negative size: agrad raises "raises-only-agrad"); numpy holds no negative size."""
    m = _SIZE_ARGS.search(stmt)
    if m is None or got.get("error") is None or got["error"][1] != "numel: integer multiplication overflow":
        return False
    sizes = [int(v) for v in re.findall(r"(?<![\w.])-?\d+(?![\w.])", m.group(1).split("memory_format")[0])]
    if not any(v < 0 for v in sizes):
        return False
    if aspect == "raises-only-agrad":
        return 0 in sizes
    if want.get("error") != got["error"]:
        return False
    negative = [k for k, v in want["vars"].items() if v.get("kind") == "tensor" and any(n < 0 for n in v["shape"])]
    rest = [k for k in want["vars"] if k not in negative]
    return bool(negative) and set(want["vars"]) == set(got["vars"]) and all(
        compare_desc(want["vars"][k], got["vars"][k], k) is None for k in rest)


def documented(aspect: str, stmt: str, want: dict, got: dict, program=None) -> str | None:
    """The name of the deliberate difference (docs/semantics.md) that this mismatch is, or None.
    ``program`` is (lines, PyTorch's observations, index of this statement), for the rules that
    look at what came before."""
    op = op_of(stmt)
    if aspect == "numeric" and op in difftest_lapack.VML_OPS and _VML_OUT.search(stmt) and _agrees_but_where(
            want, got, _float32_ulps):
        return "vml-downstream"  # (a float32 VML result cast into a float64 out=: its last bit, seen in float64)
    if aspect in ("value", "numeric") and op in SIGN_FREE_OPS and _signs_only(want, got, program):
        return "lapack-signs"
    if aspect in ("value", "numeric") and op == "svd" and _null_space_dropped(want, got):
        return "svd-null-space"
    if aspect in ("value", "numeric") and op == "svd" and program is not None and "out" in stmt \
            and difftest_svdout.outs_null_space_dropped(*program[::2], want, got, _svd_strip, compare_desc):
        return "svd-null-space"  # (out=(U, S, V): the outs, and a base's elements that are theirs)
    if aspect in ("value", "numeric", "repr") and op == "svd" and _agree_once(
            want, got, lambda w, g: (lambda pair: pair and (_strip_signs(pair[0]), _strip_signs(pair[1])))(
                difftest_svdrot.rotated(w, g))):
        return "svd-repeated"
    if aspect == "repr" and op in SVD_ZERO_SIGN_OPS and _zero_signs_within(want, got):
        return "svd-zero-signs"
    if aspect in ("value", "numeric") and op == "cond" and _agrees_but_where(want, got, _singular_cond):
        return "cond-singular"
    if (aspect in _VALUE_ASPECTS and program is not None and _agrees_but_where(want, got, _nan_mask(op))
            and _svd_of_inf(*program)):
        return "svd-inf-nan"
    if (aspect in _VALUE_ASPECTS and program is not None and (op in ("backward", "grad") or _A_BACKWARD.search(stmt))
            and _agrees_but_where(want, got, _holds_nan) and _svd_of_inf(*program)):
        return "svd-inf-nan"  # (a gradient through the singular vectors of an inf: MKL's NaN arithmetic)
    if (aspect == "raises-only-torch" and svd_op_of(stmt) in SVD_OPS and program is not None
            and want["error"][0] == "_LinAlgError"
            and want["error"][1].startswith("linalg.svd: ") and _GESDD_FAILED in want["error"][1]
            and _svd_of_inf(*program)):
        return "svd-inf-nan"  # (MKL's gesdd gives up on some of them)
    if (aspect == "error-text" and svd_op_of(stmt) in SVD_OPS and program is not None
            and _gesdd_gave_up_first(*program, want, got)):
        return "svd-inf-nan"  # (... before the batch element agrad raises for)
    if (aspect in ("value", "numeric", "repr") and op in difftest_nansign.SIGN_READERS and program is not None
            and difftest_nansign.only_nan_signs_differ(program[0], program[2], want, got, _agree_once)):
        return "nan-sign"
    if (aspect in ("value", "numeric", "repr") and op in difftest_unpool.UNPOOL_OPS and program is not None
            and difftest_unpool.only_shared_places_differ(program[0], program[2], want, got, _agree_once)):
        return "unpool-shared-places"
    if aspect == "error-text" and op in difftest_unpool.UNPOOL_OPS and difftest_unpool.other_bad_index(want, got):
        return "unpool-bad-index"
    if (aspect in ("value", "numeric") and op in difftest_median.MEDIAN_OPS and program is not None
            and difftest_median.only_target_differs(stmt, want, got, compare_desc, _agree_once)
            and difftest_median.median_of_stride0(program[0], program[2])):
        return "median-stride0"
    if (aspect in ("value", "numeric", "repr") and op in difftest_unpack.INTERPOLATE_OPS and program is not None
            and difftest_median.only_target_differs(stmt, want, got, compare_desc, _agree_once)
            and difftest_unpack.unpacks_outside(program[0], program[2])):
        return "uint8-unpack-outside"
    if (aspect in ("value", "numeric", "repr") and op in difftest_gelu.GELU_OPS and program is not None
            and difftest_gelu.within_onednn_erf(stmt, want, got, _agree_once)
            and difftest_gelu.gelu_to_onednn(program[0], program[2])):
        return "gelu-onednn"
    if (aspect in ("value", "numeric") and op in difftest_blas.GEMM_OPS and difftest_blas.nonfinite_alpha(stmt)
            and _agrees_but_where(want, got, difftest_blas.nan_or_inf)):
        return "gemm-nonfinite-alpha"
    if (aspect in ("grad-numeric", "numeric") and op in ("backward", "grad") and program is not None
            and difftest_gelu.within_onednn_grads(want, got, _agree_once)
            and difftest_gelu.gelu_before_to_onednn(program[0], program[2])):
        return "gelu-onednn"
    if (aspect in ("value", "numeric", "repr") and op in POLYNOMIAL_RECURRENCE_OPS
            and _agrees_but_where(want, got, lambda w, g: np.isnan(g))):
        return "polynomial-nan-register"  # (a NaN x at degree >= 2: PyTorch's result is an uninitialised register)
    if aspect in ("repr", "value") and op == "lstsq" and _zero_signs_within(want, got):
        return "lstsq-zero-signs"  # (MKL's gelsy: its trsm's and reflectors' order of steps)
    if aspect == "repr" and op == "cholesky_inverse" and _zero_signs_only(want, got):
        return "potri-zero-signs"  # (MKL's potri, its order of steps not LAPACK's reference)
    if aspect == "repr" and op in ("triangular_solve", "solve_triangular", "cholesky_solve") \
            and _zero_signs_within(want, got):
        return "trsm-zero-signs"  # (MKL's trsm: its blocked order of steps, not the reference substitution)
    if aspect == "repr" and op in ("lu", "lu_factor", "lu_factor_ex") and _big_lu(stmt, want) \
            and _zero_signs_within(want, got):
        return "getrf-zero-signs"  # (MKL's getrf of 17 or more rows or columns: its blocked updates)
    if aspect in ("value", "numeric", "repr") and op == "matrix_exp" and _half_result_only(stmt, want, got):
        return "matrix-exp-half"
    if (aspect in ("value", "numeric", "repr", "grad-value", "grad-numeric", "grad-repr") and op in ("grad", "backward")
            and program is not None and _half_matrix_exp_gradient(*program, want, got)):
        return "matrix-exp-half"  # (its gradient: the same float16 kernel)
    if aspect in ("value", "numeric") and op in difftest_blas.GEMM_CHAIN_OPS and _agrees_but_where(
            want, got, difftest_blas.within_gemm_chain):
        return "gemm-chain"
    if aspect in ("value", "numeric", "repr") and op == "new" and difftest_uninit.uninitialised_only(
            stmt, want, got, _agree_once):
        return "uninitialised"
    if aspect == "repr" and op == "untyped_storage" and program is not None and difftest_uninit.loss_storage_only(
            *program, got):
        return "uninitialised"  # (a reduced loss's storage past its element: malloc's chunk in PyTorch)
    if aspect == "repr" and op.rstrip("_") in difftest_lapack.VML_OPS and difftest_storage.vml_bytes_only(
            stmt, want, got):
        return "vml-storage-bytes"  # (a storage's bytes that a VML op rewrote: its last bits, printed raw)
    if aspect == "numeric" and op == "poisson_nll_loss" and _vml_log_inside(stmt, want, got):
        return "vml-log-inside"
    if (aspect == "numeric" and op in difftest_vmlsqrt.LOG_OPS and program is not None
            and difftest_vmlsqrt.rounded_log_explains(program[0], program[2], stmt, want, got, _agree_once)):
        return "vml-log-inside"
    if (aspect in ("value", "numeric") and op in difftest_vmlsqrt.SLOGDET_OPS and program is not None
            and difftest_vmlsqrt.rounded_log_slogdet_explains(program[0], program[2], stmt, want, got, _agree_once)):
        return "vml-log-inside"
    if (aspect == "numeric" and op in difftest_vmlsqrt.ROOT_OPS and program is not None
            and difftest_vmlsqrt.rounded_root_explains(program[0], program[2], stmt, want, got, _agree_once)):
        return "vml-sqrt-inside"
    if aspect in ("value", "numeric", "repr") and op in ("resize_", "resize_as_") and difftest_uninit.grown_only(
            want, got, _agree_once):
        return "resize-uninitialised"
    if aspect in ("value", "numeric", "repr") and "out" in stmt and difftest_uninit.out_grown_only(
            stmt, want, got, _agree_once):
        return "out-uninitialised"
    if aspect in ("value", "numeric", "repr") and "out" in stmt and (op in difftest_outalias.ALIAS_OPS or (
            op in difftest_outalias.INT64_BLOCKED_OPS and difftest_outalias.int64_blocked(stmt, want))) \
            and difftest_outalias.aliased_operand(stmt, want, got, _agree_once):
        return "out-aliases-operand"
    if aspect in ("raises-only-agrad", "shape") and op == "resize_" and _negative_size(aspect, stmt, want, got):
        return "resize-negative-size"
    if aspect in ("value", "numeric") and op == "lstsq" and program is not None and _lstsq_pivots(*program, want, got):
        return "lstsq-pivots"
    if (aspect in ("value", "numeric", "repr", "raises-only-torch", "raises-only-agrad") and op == "lstsq"
            and program is not None and _lstsq_inf_a(aspect, *program, want, got)):
        return "lstsq-inf-a"
    if (aspect in ("value", "numeric", "repr") and op == "lstsq" and program is not None
            and difftest_lstsqfit.residual_noise_only(*program, want, got, _agree_once)):
        return "lstsq-exact-fit"
    if (aspect in ("value", "numeric") and op in ("pinv", "pinverse") and program is not None
            and _pinv_of_singular(*program, want, got)):
        return "pinv-singular"
    if aspect in ("value", "numeric") and op == "matrix_rank" and program is not None \
            and _rank_of_singular(*program, want, got):
        return "rank-singular"
    if (aspect in ("value", "numeric", "repr") and op in difftest_noise.SIGN_OPS and program is not None
            and difftest_noise.sign_of_lapack_noise(program, want, got, op_of, CONDITIONED_OPS, _condition_of,
                                                    _agrees_but_where)):
        return "lapack-conditioning"
    if (aspect in ("grad_fn", "repr", "grad-repr") and (op in ("grad", "backward") or _A_BACKWARD.search(stmt))
            and program is not None and difftest_gridsample.after_double_backward(program[0], program[2])):
        if aspect == "grad_fn" and difftest_gridsample.composed_graph_only(want, got, _agree_once):
            return "grid-sample-double-backward-graph"
        if aspect in ("repr", "grad-repr") and _zero_signs_within(want, got):  # (a leaf's .grad too)
            return "grid-sample-double-backward-zero-signs"
    if program is not None and (aspect in ("numeric", "grad-numeric") or (
            aspect in _VALUE_ASPECTS and _svd_of_inf(*program)) or (
            aspect == "value" and op in RANK_REVEALING_OPS)) and _conditioned_rounding(
            want, got, program, _nan_mask(op) if _svd_of_inf(*program) else None):
        return "lapack-conditioning"
    return None
