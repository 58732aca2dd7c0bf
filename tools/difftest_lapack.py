"""The differential tester's rule ``lapack-downstream`` (tools/difftest.py, docs/semantics.md): a
statement after a LAPACK op (CONDITIONED_OPS) whose one difference is the value it assigns, and
whose value PyTorch itself gives once the LAPACK results are agrad's (MKL's and OpenBLAS's LAPACK
round differently; a later ``prod`` or ``**`` magnifies the last bits). The rule re-runs the
program under PyTorch with agrad's values of each earlier LAPACK statement's target put in place:
a difference that does not come from those values stays a difference. ``vml-downstream`` is the
same test after the functions PyTorch hands to MKL VML (VML_OPS), whose last bit is VML's."""

from __future__ import annotations

import re
import warnings

#: ops PyTorch hands to MKL VML (vsErf, vsCos, ... in high-accuracy mode: within an ulp, not always
#: the correctly rounded value agrad gives; docs/semantics.md, "Last bits of PyTorch's vector maths"):
#: the rule ``vml-downstream`` re-runs the program with agrad's results of them as above
VML_OPS = {"erf", "erfc", "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "asin", "acos", "atan",
           "arcsin", "arccos", "arctan", "sqrt",
           # (their composite's root: pow(x, 1 / 2) is at::sqrt, VML's, for norm_type 2)
           "lp_pool1d", "lp_pool2d", "lp_pool3d",
           # (ATen's windows take cos_ of the points: VML's cos; run 41715000, mode of blackman_window(5))
           "hann_window", "hamming_window", "blackman_window",
           # (its exp of the input, or log of the target with full=True: VML's; run dt43b, a tan_ after it)
           "poisson_nll_loss",
           # (logit of a dense tensor: log of x / (1 - x) by vsLn; docs/semantics.md, run 41912000 seed 41913821)
           "logit"}

#: ops that take a float32/float64 ``log`` from MKL VML inside (gumbel_softmax's -log(exponential_()) noise)
VML_INSIDE_OPS = {"gumbel_softmax"}

_BACKWARD = re.compile(r"\.backward\(|\bautograd\.grad\(")
_TARGET = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")


def target_of(stmt: str) -> str | None:
    found = _TARGET.match(stmt.strip().splitlines()[-1])
    return found.group(1) if found else None


#: a statement's last line handing its result to one tensor as ``out=name`` (the call's last argument)
_OUT_TARGET = re.compile(r"\bout\s*=\s*([A-Za-z_]\w*)\s*\)\s*$")


def out_target_of(stmt: str) -> str | None:
    """The tensor a statement without an assignment writes its result into (``f(x, out=o4)``), or None."""
    found = _OUT_TARGET.search(stmt.strip().splitlines()[-1])
    return found.group(1) if found else None


#: a statement's last line handing its results to a tuple of tensors as ``out=(a, b)`` (the call's last argument)
_OUT_TUPLE = re.compile(r"\bout\s*=\s*\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*,?\s*\)\s*\)\s*$")


def out_targets_of(stmt: str) -> list[str]:
    """The tensors a statement without an assignment writes its results into: ``[o4]`` for ``out=o4``,
    ``[o8, o9]`` for ``out=(o8, o9)`` (``linalg.eigh``'s eigenvalues and eigenvectors); [] for none."""
    one = out_target_of(stmt)
    if one:
        return [one]
    found = _OUT_TUPLE.search(stmt.strip().splitlines()[-1])
    return re.split(r"\s*,\s*", found.group(1)) if found else []


def _base(op: str) -> str:
    """An op's name without the in-place underscore (``atan_`` is VML's ``atan``)."""
    return op[:-1] if op.endswith("_") and not op.endswith("__") else op


def explained(lines, i, got_obs, want_i, got_i, op_of, lapack_ops, compare_desc, agree_once, self_ok=False) -> bool:
    """True when statement ``i`` (not a LAPACK op) differs from PyTorch only in the values of
    variables (the one it assigns, or the tensors an in-place op changed: its aliases), and
    PyTorch's program, given agrad's results of the LAPACK statements before it (written into
    their tensors, so their views see them), computes agrad's value of every one of them (within
    the tester's tolerance).  ``self_ok``: statement ``i`` may itself be one of ``lapack_ops`` (a VML
    ``cos`` of a VML ``tan_``'s result near cos's zero: its own last bit is within the tolerance, so
    what is left to explain is its input's)."""
    import numpy as np
    import torch

    if not self_ok and _base(op_of(lines[i])) in lapack_ops:
        return False
    differing = [k for k, w in want_i["vars"].items()
                 if k in got_i["vars"] and compare_desc(w, got_i["vars"][k], k) is not None]
    for k in differing:
        w = want_i["vars"][k]
        if _storage(w):
            continue  # (a tensor's bytes, untyped_storage(): their repr is compared after the replay)
        if not (_tensor(w) or _tensors(w)):  # (a tensor, or the tuple of them autograd.grad returns)
            return False

    def neutral(w, g):  # only the values may differ
        if _storage(w) and _storage(g):
            return w, dict(g, repr=w["repr"])
        if _tensors(w) and g["kind"] == "seq" and len(g["items"]) == len(w["items"]):
            pairs = [(a, b) if a["kind"] == b["kind"] == "py" else neutral(a, b) for a, b in zip(w["items"], g["items"])]
            if any(p is None for p in pairs):
                return None
            return w, dict(g, items=[b for _, b in pairs], repr=w["repr"])
        if w["kind"] != "tensor" or g["kind"] != "tensor" or g["dtype"] != w["dtype"] or g["shape"] != w["shape"]:
            return None
        return w, dict(g, data=w["data"], repr=w["repr"])
    if not agree_once(want_i, got_i, neutral):
        return False
    replaced = _replacements(lines, i, got_obs, op_of, lapack_ops, ("tensor", "seq"))
    if not replaced:
        return False
    ns = _replayed(torch, lines, i, replaced)
    if ns is None:
        return False
    for k in differing:
        out = ns.get(k)
        if _storage(want_i["vars"][k]):
            if not isinstance(out, torch.UntypedStorage) or _ADDRESS.sub("", repr(out)) != got_i["vars"][k]["repr"]:
                return False
            continue
        mine, agrads = want_i["vars"][k], got_i["vars"][k]
        if _tensors(mine):  # (each tensor of the tuple replayed as agrad's)
            if not isinstance(out, (tuple, list)) or len(out) != len(mine["items"]):
                return False
            for j, (item, o, a) in enumerate(zip(mine["items"], out, agrads["items"])):
                if item["kind"] == "py":
                    if o is not None or a["kind"] != "py":
                        return False
                elif not isinstance(o, torch.Tensor) or compare_desc(
                        dict(item, data=o.detach().numpy()), dict(item, data=a["data"]), f"{k}[{j}]") is not None:
                    return False
            continue
        if not isinstance(out, torch.Tensor):
            return False
        theirs = dict(mine, data=out.detach().numpy())
        if compare_desc(theirs, dict(mine, data=agrads["data"]), k) is not None:
            return False
    return True


def _tensor(d) -> bool:
    import numpy as np

    return d["kind"] == "tensor" and isinstance(d["data"], np.ndarray)


def _tensors(d) -> bool:
    """A tuple of tensors (and Nones: autograd.grad's unused inputs), as autograd.grad returns."""
    return d["kind"] == "seq" and bool(d["items"]) and all(
        _tensor(it) or (it["kind"] == "py" and it["value"] is None) for it in d["items"]) \
        and any(_tensor(it) for it in d["items"])


def explained_gradient(lines, i, got_obs, want_i, got_i, op_of, vml_ops, compare_desc, kinds=("tensor",)) -> bool:
    """``vml-downstream`` for a gradient: statement ``i`` is (or ends in) a ``backward``/``grad`` whose one
    difference is the ``.grad`` of some leaves, and PyTorch's program, given agrad's results of the VML
    statements before it (written into their tensors, whose saved results the backward then reads),
    computes agrad's gradients (within the tester's tolerance): a VML function's last bit, magnified by
    the gradient (``sinh(tan(x))`` near tan's pole: 132997312 against 132997464).  With the LAPACK ops
    (``kinds`` then also tuples of results) it is ``lapack-downstream``'s test for a gradient: a float32
    ``pinverse``'s last bits decide whether ``A @ pinv(A)`` holds an exact 0, which an inf in the
    incoming gradient turns into a NaN (PyTorch) or an inf (agrad) (run dt39d)."""
    import numpy as np
    import torch

    if not _BACKWARD.search(lines[i].strip().splitlines()[-1]) or set(want_i["vars"]) != set(got_i["vars"]):
        return False
    differing = []
    for k, w in want_i["vars"].items():
        g = got_i["vars"][k]
        if compare_desc(w, g, k) is None:
            continue
        wg, gg = w.get("grad"), g.get("grad")
        if w["kind"] != "tensor" or g["kind"] != "tensor" or wg is None or gg is None \
                or compare_desc(w, dict(g, grad=wg), k) is not None or not isinstance(wg["data"], np.ndarray):
            return False
        differing.append(k)
    replaced = _replacements(lines, i, got_obs, op_of, vml_ops, kinds)
    if not differing or not replaced:
        return False
    ns = _replayed(torch, lines, i, replaced)
    if ns is None:
        return False
    for k in differing:
        out = ns.get(k)
        if not isinstance(out, torch.Tensor) or out.grad is None:
            return False
        mine, theirs = want_i["vars"][k]["grad"], got_i["vars"][k]["grad"]
        if compare_desc(dict(mine, data=out.grad.detach().numpy()), dict(mine, data=theirs["data"]), k) is not None:
            return False
    return True


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _storage(desc) -> bool:
    """Whether a variable's description is an untyped storage's (its bytes, by repr)."""
    return desc["kind"] == "other" and "torch.storage.UntypedStorage" in desc.get("repr", "")


def _replayed(torch, lines, i, replaced):
    """PyTorch's namespace after ``lines[:i + 1]``, each statement of ``replaced`` ({index: [(name,
    agrad's description), ...]}) followed by agrad's value put in its target; None when statement ``i``
    raises or a value cannot be put."""
    ns = {"torch": torch, "F": torch.nn.functional}
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, stmt in enumerate(lines[:i + 1]):
            try:
                exec(stmt, ns)
            except Exception:  # noqa: BLE001 - as in the tester's run
                if j == i:
                    return None
            for name, value in replaced.get(j, ()):
                ns[name] = _as_torch(torch, value, ns.get(name))
                if ns[name] is None:
                    return None
    return ns


def _as_torch(torch, desc, old):
    """agrad's value (a description) as PyTorch's object of the same kind, or None."""
    import numpy as np

    if desc["kind"] == "tensor":
        if not isinstance(desc["data"], np.ndarray) or not isinstance(old, torch.Tensor):
            return None
        t = torch.from_numpy(np.array(desc["data"])).to(old.dtype)
        if tuple(t.shape) == tuple(old.shape):
            try:  # into its storage (an in-place op's aliases see it), its graph and version kept
                old.data.copy_(t)
                return old
            except RuntimeError:  # (an expanded tensor: a new one in its place)
                pass
        return t.requires_grad_() if old.requires_grad and t.is_floating_point() else t
    if not isinstance(old, (tuple, list)) or len(old) != len(desc["items"]):
        return None
    items = [_as_torch(torch, d, o) for d, o in zip(desc["items"], old)]
    if any(x is None for x in items):
        return None
    # (a namedtuple takes its fields one by one; torch.return_types' structseqs, tuples and lists a sequence)
    return type(old)(*items) if hasattr(old, "_fields") else type(old)(items)


def zero_gradient_noise(lines, want, i, w_obs, g_obs, op_of, lapack_ops, agrees_but_where) -> bool:
    """``lapack-zero-gradient``: statement ``i`` is a ``backward``/``grad`` of a program that made a
    LAPACK op, and every element that differs is, in PyTorch and in agrad, within 4 max(m, n) eps
    of the largest finite float magnitude the program holds before it or PyTorch's statement gives
    (its gradients: the terms a zero gradient cancels are of their size): the rounding noise of a
    gradient that is zero in exact arithmetic, whose sign and size LAPACK's last bits decide
    (the double backward of a rank-1 float32 ``svdvals``: -8.4e-8 in PyTorch, 8.4e-8 in agrad)."""
    import numpy as np

    last = lines[i].strip().splitlines()[-1]
    if not _BACKWARD.search(last) or not any(_base(op_of(lines[j])) in lapack_ops for j in range(i)):
        return False
    scale, size = 0.0, 1
    held = [*(want[i - 1]["vars"] if i else {}).values(), *w_obs["vars"].values()]
    while held:
        d = held.pop()
        if not isinstance(d, dict):
            continue
        if d.get("kind") == "seq":
            held.extend(d.get("items", ()))
        if isinstance(d.get("grad"), dict):
            held.append(d["grad"])
        if d.get("kind") != "tensor" or not isinstance(d.get("data"), np.ndarray) or d["data"].dtype.kind != "f" \
                or not d["data"].size:
            continue
        finite = d["data"][np.isfinite(d["data"])]
        scale = max(scale, float(np.abs(finite).max(initial=0.0)))
        if d["data"].ndim >= 2:
            size = max(size, *d["data"].shape[-2:])
    if not scale:
        return False

    def allowed(w, g):
        bound = 4 * size * np.finfo(w.dtype).eps * scale
        with np.errstate(all="ignore"):
            return (np.abs(w) <= bound) & (np.abs(g) <= bound)
    return agrees_but_where(w_obs, g_obs, allowed)


#: ops whose backward formula takes MKL VML's cos and sin in PyTorch: sinc's (x pi cos(x pi) - sin(x pi))
#: / (x^2 pi), where the subtraction cancels, so cos's last bit moves the gradient's ~5e-6 relative
COS_INSIDE_GRADIENT_OPS = {"sinc", "sinc_"}


def _gradients_within(lines, i, w_obs, g_obs, op_of, agrees_but_where, ops, tolerance) -> bool:
    """Statement ``i`` is (or ends in) a ``backward``/``grad`` of a program that called one of ``ops``, and
    every gradient that differs is within ``tolerance(dtype)`` times its tensor's largest finite magnitude."""
    import numpy as np

    last = lines[i].strip().splitlines()[-1]
    if not _BACKWARD.search(last) or not any(op_of(lines[j]) in ops for j in range(i)):
        return False

    def allowed(w, g):
        finite = np.isfinite(w)
        scale = float(np.abs(w[finite]).max(initial=0.0))
        with np.errstate(all="ignore"):
            return finite & np.isfinite(g) & (np.abs(w - g) <= tolerance(w.dtype) * scale)
    return agrees_but_where(w_obs, g_obs, allowed)


def cos_inside_gradient(lines, i, w_obs, g_obs, op_of, agrees_but_where) -> bool:
    """``vml-sinc-gradient``: a ``backward``/``grad`` after ``sinc``/``sinc_``, every gradient that differs
    within 1000 ulps (of its dtype's 1.0: 1.2e-4 float32, 2.2e-13 float64) of its largest finite magnitude."""
    import numpy as np

    return _gradients_within(lines, i, w_obs, g_obs, op_of, agrees_but_where, COS_INSIDE_GRADIENT_OPS,
                             lambda dt: 1000 * float(np.finfo(dt).eps) if dt.kind == "f" else 0.0)


#: ops whose backward formula takes PyTorch's log kernel (MKL VML's vsLn/vdLn, not correctly rounded) of the
#: incoming gradient: logcumsumexp's log|grad|, whose positive and negative parts' exp then cancel; and
#: igamma/igammac's gradient of ``other``, exp((self - 1) * log(other) - other - lgamma(self)), VML's log and exp
LOG_INSIDE_GRADIENT_OPS = {"logcumsumexp", "igamma", "igamma_", "igammac", "igammac_", "gammainc", "gammaincc"}


def log_inside_gradient(lines, i, w_obs, g_obs, op_of, agrees_but_where) -> bool:
    """``vml-log-gradient``: a ``backward``/``grad`` after ``logcumsumexp`` or an incomplete gamma (igamma,
    igammac, in place too; special.gammainc/gammaincc), every gradient that differs within
    1000 ulps (of its dtype's 1.0: 1.2e-4 float32, 2.2e-13 float64) of its largest finite magnitude."""
    import numpy as np

    return _gradients_within(lines, i, w_obs, g_obs, op_of, agrees_but_where, LOG_INSIDE_GRADIENT_OPS,
                             lambda dt: 1000 * float(np.finfo(dt).eps) if dt.kind == "f" else 0.0)


#: ops whose float32 result goes through PyTorch's sqrt kernel (MKL VML's vsSqrt): lp_pool's pow(1 / 2)
SQRT_INSIDE_OPS = {"lp_pool1d", "lp_pool2d", "lp_pool3d"}


def sqrt_inside_gradient(lines, i, w_obs, g_obs, op_of, agrees_but_where) -> bool:
    """``vml-sqrt-gradient``: a ``backward``/``grad`` after an lp_pool (whose ``pow(1 / norm_type)`` of 2 is
    PyTorch's sqrt kernel, VML's last bit), every gradient that differs within 1e-4 of its largest finite
    magnitude (a double backward through it: lp_pool3d then local_response_norm, 8.4e-6 apart in 3 of 150)."""
    return _gradients_within(lines, i, w_obs, g_obs, op_of, agrees_but_where, SQRT_INSIDE_OPS, lambda dt: 1e-4)


def _replacements(lines, i, got_obs, op_of, ops, kinds) -> dict | None:
    """{statement index: [(target, agrad's description), ...]} of the statements before ``i`` that are one
    of ``ops`` and raised nothing: what a replay puts in place (the assigned name, or each tensor of
    ``out=``); None (nothing to replay) when a target's value is missing or not of ``kinds``."""
    replaced = {}
    for j in range(i):
        target = target_of(lines[j])
        names = [target] if target else out_targets_of(lines[j])
        if names and _base(op_of(lines[j])) in ops and got_obs[j]["error"] is None:
            for name in names:
                value = got_obs[j]["vars"].get(name)
                if value is None or value["kind"] not in kinds:
                    return None
            replaced[j] = [(name, got_obs[j]["vars"][name]) for name in names]
    return replaced
