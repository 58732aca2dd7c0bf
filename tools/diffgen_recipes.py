"""Inputs of the right shapes for the op-table functions random inputs seldom fit (tools/diffgen.py).

A random live tensor rarely is a batch of images with a kernel to match, a
factorisation with its pivots, or sorted boundaries. For these functions the
generator asks a recipe (``RECIPES[name](gen, name)``, most of the time the
function is drawn): the recipe adds the statements that make fitting inputs
(random values, dtypes and shapes of their own) and returns the arguments by
parameter name (``"@primary"``: the input a method is called on; ``"@args"``: the
positional arguments of a ``*args`` function). The generator still decides
which optional arguments to pass, and PyTorch still runs every statement
while the program is built, so an argument a recipe gets wrong is dropped
(or kept as a test of the error), never compared blindly.
"""

from __future__ import annotations

FLOAT = ["float32"] * 3 + ["float64"]


def tensor(gen, shape, dtype: str | None = None, grad: float = 0.7, expr: str | None = None) -> str | None:
    """A new live tensor of ``shape``: random values, or ``expr`` formatted with the literal as ``{}``."""
    dtype = dtype or gen.rng.choice(FLOAT)
    lit = gen.literal(tuple(shape), dtype)
    if expr:
        lit = expr.format(lit)
    if dtype.startswith("float") and gen.rng.random() < grad:
        lit = f"({lit}).requires_grad_()"
    name = gen.fresh("x")
    return name if gen.try_add(f"{name} = {lit}", keep_error=0.0) else None


def ints(gen, shape, high: int, dtype: str = "int64") -> str | None:
    """A new int tensor of ``shape`` with values in [0, high)."""
    return tensor(gen, shape, dtype, 0.0, f"{{}}.abs().remainder({max(high, 1)})")


def _spatial(gen, d: int, lo: int = 2, hi: int = 5) -> list[int]:
    return [gen.rng.randint(lo, hi) for _ in range(d)]


def _dims(name: str) -> int:
    for d in (1, 2, 3):
        if f"{d}d" in name:
            return d
    return 2


def conv(gen, name):
    rng = gen.rng
    d = _dims(name)
    groups = rng.choice([1, 1, 2])
    cin = groups * rng.randint(1, 2)
    cout = groups * rng.randint(1, 2)
    k = [rng.randint(1, 3) for _ in range(d)]
    stride, dilation = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
    padding = rng.choice([0, 0, 1])
    batch = [rng.randint(1, 2)] if rng.random() < 0.8 else []
    x = tensor(gen, batch + [cin] + [(kk - 1) * dilation + rng.randint(1, 3) for kk in k])
    transpose = "transpose" in name
    w = tensor(gen, ([cin, cout // groups] if transpose else [cout, cin // groups]) + k)
    b = tensor(gen, [cout])
    out = {"@primary": x, "weight": w, "bias": b, "stride": str(stride), "padding": str(padding),
           "dilation": str(dilation), "groups": str(groups)}
    if transpose:
        out["output_padding"] = str(rng.randint(0, max(stride, dilation) - 1))
    elif rng.random() < 0.2:
        out["padding"] = repr(rng.choice(["same", "valid"]))
        if out["padding"] == "'same'":
            out["stride"] = "1"
    return out


def pool(gen, name):
    rng = gen.rng
    d = _dims(name)
    k = rng.randint(1, 3)
    x = tensor(gen, [rng.randint(1, 2)] * rng.choice([1, 2]) + _spatial(gen, d, k, k + 3))
    out = {"@primary": x, "kernel_size": str(k), "stride": str(rng.choice([1, 2, k])),
           "padding": str(rng.randint(0, k // 2)), "ceil_mode": repr(rng.random() < 0.5),
           "count_include_pad": repr(rng.random() < 0.5), "return_indices": repr(rng.random() < 0.5)}
    if "max" in name and k > 1:
        out["dilation"] = str(rng.choice([1, 1, 2]))
    if "avg" in name and d > 1:
        out["divisor_override"] = rng.choice(["None", "1", "3"])
    if "lp" in name:
        out["norm_type"] = repr(rng.choice([1.0, 2.0, 3.0]))
    return out


def adaptive(gen, name):
    rng = gen.rng
    d = _dims(name)
    x = tensor(gen, [rng.randint(1, 2)] * rng.choice([1, 2]) + _spatial(gen, d, 1, 6))
    size = [rng.choice([1, 2, 3, None]) for _ in range(d)]
    return {"@primary": x, "output_size": str(size[0] or 1) if rng.random() < 0.5 else repr(tuple(size)),
            "return_indices": repr(rng.random() < 0.5)}


def unpool(gen, name):
    rng = gen.rng
    d = _dims(name)
    k = rng.randint(1, 3)
    x = tensor(gen, [rng.randint(1, 2), rng.randint(1, 2)] + _spatial(gen, d, k, k + 3))
    stride = rng.choice([1, 2, k])
    pad = rng.randint(0, k // 2)
    pooled, idx = gen.fresh("x"), gen.fresh("x")
    if not gen.try_add(f"{pooled}, {idx} = F.max_pool{d}d({x}, {k}, {stride}, {pad}, return_indices=True)", 0.0):
        return {}
    out_size = list(gen.ns[x].shape[-d:])
    return {"@primary": pooled, "indices": idx, "kernel_size": str(k), "stride": str(stride), "padding": str(pad),
            "output_size": repr(tuple(out_size)) if rng.random() < 0.5 else "None"}


def norm(gen, name):
    rng = gen.rng
    c = rng.randint(1, 4)
    groups = rng.choice([g for g in (1, 2, 4) if c % g == 0])
    shape = [rng.randint(1, 3), c] + _spatial(gen, rng.choice([0, 1, 2]), 1, 3)
    if "instance" in name and len(shape) == 2:
        shape.append(2)
    x = tensor(gen, shape)
    stats = [tensor(gen, [c], grad=0.0), tensor(gen, [c], grad=0.0, expr="{}.abs()")]
    out = {"@primary": x, "weight": tensor(gen, [c]), "bias": tensor(gen, [c]), "running_mean": stats[0],
           "running_var": stats[1], "training": repr(rng.random() < 0.5), "momentum": repr(rng.choice([0.1, 0.5])),
           "eps": repr(rng.choice([1e-5, 0.1])), "use_input_stats": repr(rng.random() < 0.7), "num_groups": str(groups),
           "cudnn_enabled": "False", "cudnn_enable": "False"}
    if name == "group_norm" and rng.random() < 0.3:
        out["num_groups"] = "3"  # (mostly an error: not a divisor)
    return out


def interpolate(gen, name):
    """Images of float (mostly) or uint8 (a quarter: PyTorch's own uint8 kernels of nearest, bilinear and
    bicubic, antialiased or not, now and then channels_last) or another integer dtype (its error)."""
    rng = gen.rng
    d = rng.choice([1, 2, 3]) if name in ("interpolate", "upsample") else 2
    shape = [rng.randint(1, 2), rng.randint(1, 2)] + _spatial(gen, d, 1, 4)
    modes = {1: ["nearest", "linear", "area", "nearest-exact"], 2: ["nearest", "bilinear", "bicubic", "area",
                                                                     "nearest-exact"],
             3: ["nearest", "trilinear", "area", "nearest-exact"]}[d]
    r = rng.random()
    if r < 0.25:  # (values over the whole byte range: n * 29 wraps modulo 256)
        layout = ".contiguous(memory_format=torch.channels_last)" if d == 2 and rng.random() < 0.25 else ""
        x = tensor(gen, shape, "uint8", 0.0, "({}.abs() * 29 + 3)" + layout)
        modes = [m for m in modes if m != "area"] + (["bilinear", "bicubic"] if d == 2 else [])
    elif r < 0.28:
        x = tensor(gen, shape, rng.choice(["int64", "int32", "int8"]), 0.0)
    else:
        x = tensor(gen, shape)
    mode = rng.choice(modes)
    out = {"@primary": x, "mode": repr(mode)}
    if rng.random() < 0.5:
        out["size"] = repr(tuple(_spatial(gen, d, 1, 5)))
    else:
        out["scale_factor"] = repr(rng.choice([2.0, 0.5, 1.5, 2, 3]))
    out["@required"] = ["mode", "size" if "size" in out else "scale_factor"]
    out["@omit"] = ["scale_factor" if "size" in out else "size"]
    if mode in ("linear", "bilinear", "bicubic", "trilinear"):
        out["align_corners"] = repr(rng.random() < 0.5)
        out["antialias"] = repr(rng.random() < 0.4 and mode in ("bilinear", "bicubic"))
    else:
        out["@omit"] += ["align_corners", "antialias"]
    if "scale_factor" in out:
        out["recompute_scale_factor"] = repr(rng.random() < 0.5)
    if name != "interpolate" and name != "upsample":
        out["@required"] = out["@required"][1:]
    return out


def shuffle(gen, name):
    rng = gen.rng
    r = rng.choice([1, 2])
    if name == "pixel_unshuffle":
        shape = [rng.randint(1, 2), rng.randint(1, 2), 2 * r, 2 * r]
    elif name == "pixel_shuffle":
        shape = [rng.randint(1, 2), r * r * rng.randint(1, 2), 2, 2]
    else:
        shape = [rng.randint(1, 2), 2 * r, 2]
    x = tensor(gen, shape)
    return {"@primary": x, "upscale_factor": str(r), "downscale_factor": str(r), "groups": str(r)}


def grid(gen, name):
    rng = gen.rng
    n = rng.randint(1, 2)
    if name == "affine_grid":
        d = rng.choice([2, 3])
        theta = tensor(gen, [n, d, d + 1])
        return {"theta": theta, "@primary": theta, "size": repr((n, 1) + tuple(_spatial(gen, d, 1, 3))),
                "align_corners": repr(rng.random() < 0.5)}
    d = rng.choice([2, 2, 3])
    x = tensor(gen, [n, rng.randint(1, 2)] + _spatial(gen, d, 1, 3))
    g = tensor(gen, [n] + _spatial(gen, d, 1, 3) + [d], expr="({} / 3)")
    return {"@primary": x, "grid": g, "mode": repr(rng.choice(["bilinear", "nearest"] + (["bicubic"] if d == 2 else []))),
            "padding_mode": repr(rng.choice(["zeros", "border", "reflection"])), "align_corners": repr(rng.random() < 0.5)}


def fold(gen, name):
    rng = gen.rng
    k, d, p, st = rng.randint(1, 2), rng.choice([1, 1, 2]), rng.randint(0, 1), rng.choice([1, 2])
    out_size = _spatial(gen, 2, (k - 1) * d + 1, (k - 1) * d + 3)
    blocks = 1
    for o in out_size:
        blocks *= (o + 2 * p - d * (k - 1) - 1) // st + 1
    x = tensor(gen, [rng.randint(1, 2)] * rng.choice([0, 1]) + [rng.randint(1, 2) * k * k, blocks])
    return {"@primary": x, "output_size": repr(tuple(out_size)), "kernel_size": str(k), "dilation": str(d),
            "padding": str(p), "stride": str(st)}


def unfold(gen, name):
    rng = gen.rng
    if gen.current_form != "F":  # (Tensor.unfold: windows along a dim)
        return windows(gen, name)
    if name == "unfold":
        k = rng.randint(1, 2)
        x = tensor(gen, [rng.randint(1, 2), rng.randint(1, 2)] + _spatial(gen, 2, k, k + 2))
        return {"@primary": x, "kernel_size": str(k), "dilation": str(rng.choice([1, 1, 2])),
                "padding": str(rng.randint(0, 1)), "stride": str(rng.choice([1, 2]))}
    return {}


def windows(gen, name):  # Tensor.unfold / unfold_copy (dimension, size, step)
    rng = gen.rng
    pool = gen.tensors(lambda v: v.dim() >= 1)
    if not pool:
        return {}
    x = rng.choice(pool)
    t = gen.ns[x]
    d = rng.randrange(t.dim())
    return {"@primary": x, "dimension": str(d), "size": str(rng.randint(0, t.shape[d]) if t.shape[d] else 0),
            "step": str(rng.randint(1, 2))}


def embedding(gen, name):
    rng = gen.rng
    n = rng.randint(2, 5)
    weight = tensor(gen, [n, rng.randint(1, 3)])
    if name == "one_hot":
        idx = ints(gen, [rng.randint(0, 4)] * rng.randint(1, 2), n)
        return {"@primary": idx, "tensor": idx, "num_classes": rng.choice(["-1", str(n), str(n + 1)])}
    if name == "embedding_bag":
        idx = ints(gen, [rng.randint(1, 5)], n)
        k = gen.ns[idx].shape[0] if idx else 1
        offsets = sorted({0} | {rng.randint(0, k) for _ in range(2)})
        mode = rng.choice(["sum", "mean", "max"])
        # (PyTorch 2.13 segfaults on mode='max' with include_last_offset=True and a single offset: no bag)
        out = {"@primary": idx, "weight": weight, "offsets": f"torch.tensor({offsets})", "mode": repr(mode),
               "include_last_offset": repr(len(offsets) > 1 and rng.random() < 0.3),
               "padding_idx": str(rng.randint(0, n - 1))}
        if mode == "sum" and idx:
            out["per_sample_weights"] = tensor(gen, [k], dtype=str(gen.ns[weight].dtype).split(".")[-1])
        return out
    idx = ints(gen, [rng.randint(1, 3)] * rng.randint(1, 2), n)
    return {"@primary": idx, "weight": weight, "padding_idx": str(rng.randint(-n, n - 1))}


def classes(gen, name):
    """Losses over classes: (N, C) scores with class targets."""
    rng = gen.rng
    c = rng.randint(2, 4)
    batch = [rng.randint(1, 3)]
    extra = _spatial(gen, 1, 1, 3) if name in ("nll_loss", "cross_entropy") and rng.random() < 0.3 else []
    x = tensor(gen, batch + [c] + extra)
    out = {"@primary": x, "weight": tensor(gen, [c], grad=0.3, expr="{}.abs()"),
           "ignore_index": str(rng.choice([-100, 0, 1])), "p": str(rng.choice([1, 2])),
           "margin": repr(rng.choice([1.0, 0.5, 0.0]))}
    if name == "multilabel_margin_loss":
        out["target"] = tensor(gen, batch + [c], "int64", expr=f"{{}}.remainder({c + 1}) - 1")
    elif name == "cross_entropy" and rng.random() < 0.3:
        out["target"] = tensor(gen, batch + [c] + extra, expr="{}.softmax(1)")
        out["label_smoothing"] = repr(rng.choice([0.0, 0.1]))
    else:
        out["target"] = ints(gen, batch + extra, c)
        out["label_smoothing"] = repr(rng.choice([0.0, 0.1]))
    return out


def pairs(gen, name):
    """Losses of two inputs with a +-1 or [0, 1] target, and bilinear/pdist/triplet."""
    rng = gen.rng
    shape = [rng.randint(1, 3), rng.randint(1, 3)]
    a, b = tensor(gen, shape), tensor(gen, shape)
    if name == "binary_cross_entropy":
        a = tensor(gen, shape, expr="{}.sigmoid()")
        return {"@primary": a, "target": tensor(gen, shape, grad=0.0, expr="{}.sigmoid()"),
                "weight": tensor(gen, shape, grad=0.3)}
    if name == "cosine_embedding_loss":
        return {"@primary": a, "input1": a, "input2": b,
                "target": tensor(gen, shape[:1], rng.choice(["int64", "float32"]), 0.0, "({}.sign() + 0.5).sign()"),
                "margin": repr(rng.choice([0.0, 0.5]))}
    if name == "bilinear":
        w = tensor(gen, [rng.randint(1, 2), shape[1], shape[1] + 1])
        b2 = tensor(gen, [shape[0], shape[1] + 1])
        return {"@primary": a, "input1": a, "input2": b2, "weight": w, "bias": tensor(gen, [gen.ns[w].shape[0]])
                if w else None}
    if name == "poisson_nll_loss":
        return {"@primary": a, "target": tensor(gen, shape, grad=0.0, expr="{}.abs()"),
                "log_input": repr(rng.random() < 0.5), "full": repr(rng.random() < 0.5),
                "eps": repr(1e-8), "reduction": str(rng.randint(0, 2)) if gen.current_form == "torch" else
                repr(rng.choice(["mean", "sum", "none"]))}
    return {"@primary": a}


def attention(gen, name):
    rng = gen.rng
    batch = [rng.randint(1, 2)] * rng.randint(0, 2)
    lq, lk, e, ev = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
    dtype = rng.choice(FLOAT)
    q, k, v = (tensor(gen, batch + s, dtype) for s in ([lq, e], [lk, e], [lk, ev]))
    mask = tensor(gen, [lq, lk], dtype, 0.3) if rng.random() < 0.5 else f"({tensor(gen, [lq, lk], dtype, 0.0)} > 0)"
    return {"@primary": q, "query": q, "key": k, "value": v, "attn_mask": mask, "is_causal": repr(rng.random() < 0.3),
            "scale": repr(rng.choice([None, 0.5, 2.0])), "enable_gqa": "False", "dropout_p": "0.0"}


def square(gen, n=None, batch=None, dtype=None, grad=0.7, expr=None):
    n = n or gen.rng.randint(1, 3)
    batch = batch if batch is not None else [gen.rng.randint(1, 2)] * gen.rng.choice([0, 0, 1])
    return tensor(gen, batch + [n, n], dtype, grad, expr)


def factorised(gen, name):
    """lu_solve, lu_unpack, ldl_solve: a factorisation of a random square matrix with its pivots."""
    rng = gen.rng
    n = rng.randint(1, 3)
    batch = [rng.randint(1, 2)] * rng.choice([0, 1])
    dtype = rng.choice(FLOAT)
    a = square(gen, n, batch, dtype, expr="({} + 4 * torch.eye(%d))" % n)
    lu, piv = gen.fresh("x"), gen.fresh("x")
    factor = "ldl_factor" if name == "ldl_solve" else "lu_factor"
    if not a or not gen.try_add(f"{lu}, {piv} = torch.linalg.{factor}({a})", 0.0):
        return {}
    b = tensor(gen, batch + [n, rng.randint(1, 2)], dtype)
    return {"@primary": b if name == "lu_solve" and gen.current_form != "linalg" else lu, "LU_data": lu, "LU_pivots": piv,
            "LU": lu, "LD": lu, "pivots": piv, "B": b, "input": b, "left": "True", "adjoint": repr(rng.random() < 0.5),
            "unpack_data": repr(rng.random() < 0.7), "unpack_pivots": repr(rng.random() < 0.7)}


def triangular(gen, name):
    rng = gen.rng
    n = rng.randint(1, 3)
    dtype = rng.choice(FLOAT)
    a = square(gen, n, [], dtype, expr="({} + 4 * torch.eye(%d))" % n)
    b = tensor(gen, [n, rng.randint(1, 3)], dtype)
    left = rng.random() < 0.8
    if not left and b:
        b = tensor(gen, [rng.randint(1, 3), n], dtype)
    return {"@primary": b if name == "triangular_solve" else a, "A": a, "B": b, "upper": repr(rng.random() < 0.5),
            "left": repr(left), "unitriangular": repr(rng.random() < 0.3), "transpose": repr(rng.random() < 0.5)}


def householder(gen, name):
    rng = gen.rng
    n = rng.randint(1, 3)
    m = n + rng.randint(0, 1)
    dtype = rng.choice(FLOAT)
    a = tensor(gen, [m, n], dtype)
    if name == "ormqr":
        geq, tau = gen.fresh("x"), gen.fresh("x")
        if not a or not gen.try_add(f"{geq}, {tau} = torch.geqrf({a})", 0.0):
            return {}
        c = tensor(gen, [m, rng.randint(1, 2)], dtype)
        return {"@primary": geq, "input2": tau, "input3": c, "left": "True", "transpose": repr(rng.random() < 0.5)}
    tau = tensor(gen, [rng.randint(0, n)], dtype)
    return {"@primary": a, "tau": tau}


def positive(gen, name):  # mvlgamma / multigammaln: p an int, the input > (p - 1) / 2
    rng = gen.rng
    x = tensor(gen, [rng.randint(1, 3)], rng.choice(FLOAT), expr="({}.abs() + 1.5)")
    return {"@primary": x, "p": str(rng.randint(1, 3))}


def counts(gen, name):  # bincount: 1-D non-negative ints
    rng = gen.rng
    x = ints(gen, [rng.randint(0, 5)], 6, rng.choice(["int64", "int32", "uint8"]))
    w = tensor(gen, list(gen.ns[x].shape) if x else [1], rng.choice(FLOAT + ["int64"]), 0.0)
    return {"@primary": x, "weights": w, "minlength": str(rng.choice([0, 3, 8]))}


def sorted_sequences(gen, name):
    rng = gen.rng
    dtype = rng.choice(["float32", "float64", "int64"])
    seq = tensor(gen, [rng.randint(0, 4)], dtype, 0.0, "{}.sort().values")
    x = tensor(gen, [rng.randint(1, 3)] * rng.randint(0, 2), rng.choice([dtype, "float32"]), 0.0)
    out = {"@primary": x, "boundaries": seq, "sorted_sequence": seq, "input": x, "right": repr(rng.random() < 0.5),
           "out_int32": repr(rng.random() < 0.3), "side": repr(rng.choice(["left", "right"]))}
    if name == "searchsorted" and rng.random() < 0.3:
        unsorted = tensor(gen, [rng.randint(1, 4)], dtype, 0.0)
        out["sorted_sequence"], out["sorter"] = unsorted, f"{unsorted}.argsort()"
    if name == "isin":
        out.update({"elements": x, "test_elements": seq, "assume_unique": "False", "invert": repr(rng.random() < 0.5)})
    return out


def strided(gen, name):  # as_strided: a size and stride within the storage
    rng = gen.rng
    pool = gen.tensors(lambda v: v.is_contiguous() and v.numel() >= 1)
    if not pool:
        return {}
    x = rng.choice(pool)
    n = gen.ns[x].numel()
    size = [rng.randint(1, 2) for _ in range(rng.randint(0, 2))]
    stride = [rng.randint(0, 2) for _ in size]
    span = sum((s - 1) * st for s, st in zip(size, stride))
    offset = rng.randint(0, max(n - 1 - span, 0))
    return {"@primary": x, "size": repr(tuple(size)), "stride": repr(tuple(stride)), "storage_offset": str(offset)}


def strided_scatter(gen, name):  # as_strided_scatter: a 1-D view within the storage (no element twice), its src
    rng = gen.rng
    pool = gen.tensors(lambda v: v.is_contiguous() and v.numel() >= 1 and v.is_floating_point())
    if not pool:
        return {}
    x = rng.choice(pool)
    n = gen.ns[x].numel()
    size, stride = rng.randint(1, 2), rng.randint(1, 2)
    offset = rng.randint(0, max(n - 1 - (size - 1) * stride, 0))
    src = tensor(gen, [size], str(gen.ns[x].dtype).split(".")[-1])
    return {"@primary": x, "src": src, "size": repr((size,)), "stride": repr((stride,)), "storage_offset": str(offset)}


def static_rows(gen, name):  # nonzero_static: a row count below or above the nonzero count
    rng = gen.rng
    pool = gen.tensors()
    if not pool:
        return {}
    return {"@primary": rng.choice(pool), "size": str(rng.randint(0, 5)), "fill_value": str(rng.choice([-1, 0, 7]))}


def index_family(gen, name):
    """index_add/copy/fill/reduce, scatter_reduce, select_scatter, diagonal_scatter, index_put."""
    rng = gen.rng
    pool = gen.tensors(lambda v: v.dim() >= 1 and v.numel() >= 1)
    if not pool:
        return {}
    x = rng.choice(pool)
    t = gen.ns[x]
    dtype = str(t.dtype).split(".")[-1]
    d = rng.randrange(t.dim())
    size = t.shape[d]
    out = {"@primary": x, "dim": str(d), "reduce": repr(rng.choice(["sum", "prod", "mean", "amax", "amin"])),
           "include_self": repr(rng.random() < 0.5)}
    if name.startswith("index_put"):
        idx = ints(gen, [rng.randint(1, 3)], t.shape[0])
        out.update({"indices": f"({idx},)", "values": tensor(gen, [1] if rng.random() < 0.5 else
                                                              [gen.ns[idx].shape[0]] + list(t.shape[1:]), dtype, 0.3),
                    "accumulate": repr(rng.random() < 0.5)})
        return out
    if name.startswith("scatter_reduce"):
        idx = ints(gen, list(t.shape), size)
        out.update({"index": idx, "src": tensor(gen, list(t.shape), dtype, 0.3)})
        return out
    if name.startswith("select_scatter"):
        i = rng.randint(-size, size - 1)
        shape = list(t.shape[:d]) + list(t.shape[d + 1:])  # (select's, without calling it:
        # an integer tensor that requires grad refuses the op, which took the generator down: seed 39857479)
        out.update({"index": str(i), "src": tensor(gen, shape, dtype, 0.3)})
        return out
    if name.startswith("diagonal_scatter"):
        if t.dim() < 2:
            return {}
        offset = rng.randint(-1, 1)
        out.update({"offset": str(offset), "dim1": "0", "dim2": "1",
                    "src": tensor(gen, list(t.diagonal(offset, 0, 1).shape), dtype, 0.3)})
        return out
    k = rng.randint(1, 3)
    idx = ints(gen, [k], size)
    shape = list(t.shape)
    shape[d] = k
    out.update({"index": idx, "source": tensor(gen, shape, dtype, 0.3), "value": repr(rng.choice([0.5, -1.0, 2.0])),
                "alpha": repr(rng.choice([1, 2, -1]))})
    return out


def splits(gen, name):
    rng = gen.rng
    pool = gen.tensors(lambda v: v.dim() >= 1)
    if not pool:
        return {}
    x = rng.choice(pool)
    t = gen.ns[x]
    d = rng.randrange(t.dim())
    n, parts = t.shape[d], []
    while n > 0:
        parts.append(rng.randint(1, n))
        n -= parts[-1]
    return {"@primary": x, "dim": str(d), "split_sizes": repr(parts), "split_size": str(rng.randint(1, 3))}


def repeats(gen, name):
    rng = gen.rng
    pool = gen.tensors(lambda v: v.dim() <= 2)
    if not pool:
        return {}
    x = rng.choice(pool)
    t = gen.ns[x]
    if rng.random() < 0.2 and name == "repeat_interleave":  # torch.repeat_interleave(repeats): a 1-D int tensor alone
        r = ints(gen, [rng.randint(1, 3)], 3)
        return {"@primary": r, "input": r, "@only": "input"}
    if rng.random() < 0.5 or t.dim() == 0:
        return {"@primary": x, "repeats": str(rng.randint(0, 3))}
    d = rng.randrange(t.dim())
    r = ints(gen, [t.shape[d]], 3)
    out = {"@primary": x, "repeats": r, "dim": str(d)}
    if rng.random() < 0.5 and r:
        out["output_size"] = str(int(gen.ns[r].sum()))
    return out


def samples(gen, name):  # multinomial: rows of non-negative weights
    rng = gen.rng
    x = tensor(gen, [rng.randint(1, 2)] * rng.randint(0, 1) + [rng.randint(1, 4)], rng.choice(FLOAT), 0.0,
               "({}.abs() + 0.1)")
    return {"@primary": x, "num_samples": str(rng.randint(1, 3)), "replacement": repr(rng.random() < 0.5)}


def randint(gen, name):
    rng = gen.rng
    low = rng.randint(-3, 2)
    args = [str(low + rng.randint(1, 5)), repr(tuple(_spatial(gen, rng.randint(1, 2), 1, 3)))]
    if rng.random() < 0.5:
        args.insert(0, str(low))
    return {"@args": ", ".join(args)}


def window(gen, name):
    rng = gen.rng
    return {"window_length": str(rng.randint(0, 5)), "periodic": repr(rng.random() < 0.5),
            "alpha": repr(rng.choice([0.54, 0.5])), "beta": repr(rng.choice([0.46, 12.0, 5.0])),
            "dtype": rng.choice(["torch.float32", "torch.float64"])}


def scalar(gen, name):
    rng = gen.rng
    return {"s": rng.choice(["1.5", "-2", "True", "0.0"]), "obj": rng.choice([rng.choice(gen.tensors() or ["1.0"]),
                                                                              "[1.0, 2.0]", "3", "[[1, 2]]"])}


def normal(gen, name):
    rng = gen.rng
    pool = gen.tensors(lambda v: v.is_floating_point())
    mean = rng.choice(pool) if pool and rng.random() < 0.5 else repr(rng.choice([0.0, 1.5]))
    std = repr(rng.choice([1.0, 0.5]))
    if mean[0].isdigit() or mean[0] == "-":  # (numbers: a size, and maybe a dtype)
        return {"mean": mean, "std": std, "size": repr(tuple(_spatial(gen, 2, 1, 3))), "@required": ["size"],
                "dtype": rng.choice(["torch.float64", "torch.float16", "torch.float32"])}
    return {"mean": mean, "std": std if rng.random() < 0.5 else f"{mean}.abs()", "@omit": ["size", "dtype"]}


def products(gen, name):
    """addmm/addbmm/baddbmm/addmv/addr and their in-place forms: operands of matching sizes."""
    rng = gen.rng
    n, m, p, b = (rng.randint(1, 3) for _ in range(4))
    dtype = rng.choice(FLOAT)
    base = name.rstrip("_")
    if base in ("addbmm", "baddbmm"):
        ops = {"batch1": [b, n, m], "batch2": [b, m, p]}
        out = [b, n, p] if base == "baddbmm" else [n, p]
    elif base == "addmv":
        ops, out = {"mat": [n, m], "vec": [m]}, [n]
    elif base == "addr":
        ops, out = {"vec1": [n], "vec2": [p]}, [n, p]
    else:
        ops, out = {"mat1": [n, m], "mat2": [m, p]}, [n, p]
    if rng.random() < 0.3 and not name.endswith("_"):
        out = out[rng.randint(0, len(out)):]  # (broadcast: not for the in-place forms)
    result = {k: tensor(gen, shape, dtype) for k, shape in ops.items()}
    result["@primary"] = tensor(gen, out, dtype, 0.0 if name.endswith("_") else 0.7)
    result.update({"beta": repr(rng.choice([1, 0.5, 0, 2.0])), "alpha": repr(rng.choice([1, -1.5, 2]))})
    return result


def spd(gen, name):
    """cholesky & co, eigh, ldl: symmetric positive definite matrices (or their factors)."""
    rng = gen.rng
    n = rng.randint(1, 3)
    batch = [rng.randint(1, 2)] * rng.choice([0, 0, 1])
    dtype = rng.choice(FLOAT)
    a = square(gen, n, batch, dtype, grad=0.0)
    if not a:
        return {}
    x = gen.fresh("x")
    grad = ".requires_grad_()" if rng.random() < 0.7 else ""
    if not gen.try_add(f"{x} = ({a} @ {a}.mT + {n} * torch.eye({n}, dtype=torch.{dtype})){grad}", 0.0):
        return {}
    out = {"@primary": x, "upper": repr(rng.random() < 0.5), "check_errors": repr(rng.random() < 0.5),
           "hermitian": repr(rng.random() < 0.5), "UPLO": repr(rng.choice(["L", "U"]))}
    if name in ("cholesky_inverse", "cholesky_solve"):
        lower = gen.fresh("x")
        if not gen.try_add(f"{lower} = torch.linalg.cholesky({x})", 0.0):
            return {}
        out["@primary"] = lower
        if name == "cholesky_solve":
            b = tensor(gen, batch + [n, rng.randint(1, 2)], dtype)
            out.update({"@primary": b, "input2": lower, "upper": "False"})
        else:
            out["upper"] = "False"
    return out


def slices(gen, name):  # slice_scatter: src the shape of the slice
    rng = gen.rng
    pool = gen.tensors(lambda v: v.dim() >= 1)
    if not pool:
        return {}
    x = rng.choice(pool)
    t = gen.ns[x]
    d = rng.randrange(t.dim())
    start, end, step = rng.choice([None, 0, 1]), rng.choice([None, 2, -1]), rng.choice([1, 1, 2])
    index = [slice(None)] * d + [slice(start, end, step)]
    src = tensor(gen, list(t[tuple(index)].shape), str(t.dtype).split(".")[-1], 0.3)
    return {"@primary": x, "src": src, "dim": str(d), "start": repr(start), "end": repr(end), "step": str(step)}


def to(gen, name):
    rng = gen.rng
    return {"@args": rng.choice(["", "", "torch.float64", "torch.int32", "torch.float16", "torch.bool"] +
                                gen.tensors()[:2]),
            "dtype": rng.choice(["torch.float64", "torch.int64", "torch.float32"])}


def fractional(gen, name):
    rng = gen.rng
    d = _dims(name)
    k = rng.randint(1, 2)
    n, c = rng.randint(1, 2), rng.randint(1, 2)
    batch = [n] if rng.random() < 0.8 else []
    dtype = rng.choice(FLOAT)
    x = tensor(gen, batch + [c] + _spatial(gen, d, k + 1, k + 3), dtype)
    out = {"@primary": x, "kernel_size": str(k), "return_indices": repr(rng.random() < 0.5),
           "_random_samples": tensor(gen, [batch[0] if batch else 1, c, d], dtype, 0.0, "{}.abs().remainder(1)")}
    if rng.random() < 0.5:
        out.update({"output_size": str(rng.randint(1, 2)), "@required": ["output_size"], "@omit": ["output_ratio"]})
    else:
        # (a float ratio is a TypeError in PyTorch 2.13's fractional_max_pool2d: mostly a tuple)
        ratio = rng.choice([0.5, 0.75]) if rng.random() < 0.2 else tuple(rng.choice([0.5, 0.75]) for _ in range(d))
        out.update({"output_ratio": repr(ratio), "@required": ["output_ratio"],
                    "@omit": ["output_size"]})
    return out


def ctc(gen, name):
    rng = gen.rng
    t, n, c, s = rng.randint(1, 5), rng.randint(1, 2), rng.randint(2, 4), rng.randint(1, 3)
    dtype = rng.choice(FLOAT)
    log_probs = tensor(gen, [t, n, c], dtype, 0.7, "{}.log_softmax(2)")
    return {"@primary": log_probs, "log_probs": log_probs, "targets": tensor(gen, [n, s], "int64", 0.0,
                                                                              f"({{}}.abs().remainder({c - 1}) + 1)"),
            "input_lengths": repr(tuple(rng.randint(1, t) for _ in range(n))),
            "target_lengths": repr(tuple(rng.randint(0, s) for _ in range(n))),
            "blank": "0", "zero_infinity": repr(rng.random() < 0.5)}


def conv_tbc(gen, name):  # (time, batch, channels) input, (kernel, in, out) weight
    rng = gen.rng
    k, cin, cout, pad = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3), rng.randint(0, 1)
    dtype = rng.choice(FLOAT)
    x = tensor(gen, [k - 1 + rng.randint(1, 3) - 2 * pad + 2, rng.randint(1, 2), cin], dtype)
    return {"@primary": x, "weight": tensor(gen, [k, cin, cout], dtype), "bias": tensor(gen, [cout], dtype),
            "pad": str(pad)}


def linear_ce(gen, name):  # F.linear_cross_entropy: input (N, D) @ linear_weight (C, D).T scored against targets
    rng = gen.rng
    n, d, c = rng.randint(1, 3), rng.randint(1, 3), rng.randint(2, 4)
    dtype = rng.choice(FLOAT)
    return {"@primary": tensor(gen, [n, d], dtype), "linear_weight": tensor(gen, [c, d], dtype),
            "target": ints(gen, [n], c), "linear_bias": tensor(gen, [c], dtype),
            "weight": tensor(gen, [c], dtype, 0.3, "{}.abs()"), "ignore_index": str(rng.choice([-100, 0, 1])),
            "label_smoothing": repr(rng.choice([0.0, 0.1])), "reduction": repr(rng.choice(["mean", "sum", "none"]))}


def histogramdd(gen, name):
    """torch.histogramdd: points (..., D); bins an int, D ints or D increasing edge tensors; range= two
    floats a dimension (now and then an empty or a wrong count), weight= the points' leading shape."""
    rng = gen.rng
    d = rng.randint(1, 3)
    lead = [rng.randint(0, 5)] if rng.random() < 0.8 else [rng.randint(1, 2), rng.randint(1, 3)]
    dtype = rng.choice(FLOAT)
    x = tensor(gen, lead + [d], dtype, 0.2)
    r = rng.random()
    if r < 0.4:
        bins = str(rng.randint(1, 4))
    elif r < 0.7:
        bins = repr([rng.randint(1, 4) for _ in range(d)])
    else:
        edges = [tensor(gen, [rng.randint(1, 4)], dtype, 0.0, "(({}.abs() + 0.25).cumsum(0) - 1.5)") for _ in range(d)]
        bins = f"[{', '.join(e for e in edges if e)}]"
    pairs = []
    for _ in range(d if rng.random() < 0.9 else d + 1):
        lo = rng.choice([-2.0, -1.0, 0.0, 0.5])
        pairs += [lo, lo + rng.choice([0.5, 1.0, 3.0, 3.0, 0.0])]
    weight = tensor(gen, lead, rng.choice([dtype] * 4 + ["int64"]), 0.0, "{}.abs()" if rng.random() < 0.5 else None)
    return {"@primary": x, "bins": bins, "range": repr(pairs if rng.random() < 0.5 else tuple(pairs)),
            "weight": weight, "density": repr(rng.random() < 0.5), "@required": ["bins"]}


def view_dtype(gen, name):
    """Tensor.view(dtype) / torch.view_copy(x, dtype) two times in five (a reinterpretation of the bytes: a
    wider dtype wants a last dim it divides, stride 1; a narrower one multiplies it); else the sizes."""
    rng = gen.rng
    if rng.random() < 0.6:
        return {}
    dt = "torch." + rng.choice(["int32", "int32", "float32", "int16", "uint8", "int8", "float64", "int64", "float16",
                                "bool"])
    if name == "view_copy":
        return {"dtype": dt, "@required": ["dtype"], "@omit": ["size"]}
    if rng.random() < 0.2:
        return {"dtype": dt, "@only": "dtype"}  # (x.view(dtype=torch.int32))
    return {"@shape": f"({dt},)"}


def special_arg(gen, pname: str, t, cur: str) -> str | None:
    """Arguments whose values depend on the function (``cur``) more than on their name."""
    rng = gen.rng
    if pname == "reduction" and getattr(gen, "current_form", "") == "torch":  # (ATen's enum: 0, 1, 2)
        return str(rng.randint(0, 2))
    if pname == "upper" and not cur.startswith("rrelu"):
        return repr(rng.random() < 0.5)
    if pname == "UPLO":
        return repr(rng.choice(["L", "U"]))
    if pname == "driver":  # (svd's drivers are cuSOLVER's: PyTorch rejects any on the CPU)
        return repr(rng.choice([None, "gelsy", "gelsd", "gelss", "gels"] if cur == "lstsq" else [None]))
    if pname == "mode" and cur in ("qr",):
        return repr(rng.choice(["reduced", "complete", "r"]))
    if pname in ("rcond", "tol"):
        return repr(rng.choice([None, 1e-3, 0.5]))
    if pname in ("dx", "spacing"):
        return repr(rng.choice([0.5, 2.0, 1]))
    if pname == "edge_order":
        return str(rng.choice([1, 2]))
    if pname in ("aweights", "fweights") and t is not None and t.dim() in (1, 2):
        n = t.shape[-1]
        return gen.literal((n,), "int64" if pname == "fweights" else "float32") + ".abs()"
    if pname == "range":
        return repr(rng.choice([(0.0, 1.0), (-2.0, 2.0), (1.0, 1.0)]))
    if pname in ("from_", "to") and cur == "random_":
        return str(rng.randint(0, 5) + (5 if pname == "to" else 0))
    if pname in ("mean", "median"):
        return repr(rng.choice([0.0, 1.5, -1.0]))
    if pname in ("std", "sigma"):
        return repr(rng.choice([1.0, 0.5, 2.0]))
    if pname == "ind":
        return str(rng.choice([1, 2]))
    if pname == "dim" and cur in ("matrix_norm", "nuclear_norm"):
        return repr(rng.choice([(-2, -1), (0, 1), (1, 0)]))
    if pname == "dims" and cur == "tensordot":
        return str(rng.randint(0, 2)) if rng.random() < 0.7 else repr(([-1], [0]))
    if pname == "end" and cur in ("slice_copy", "slice_scatter"):
        return str(rng.choice([None, 1, 2, -1]))
    if pname == "p" and cur == "pdist":
        return rng.choice(["0.0", "1.0", "2.0", "0.5", "3.0", "float('inf')"])
    if pname == "distance_function":
        return rng.choice(["None", "torch.pairwise_distance", "lambda a, b: (a - b).abs().sum(-1)"])
    if pname == "alpha" and t is not None and not t.is_floating_point() and cur.rstrip("_") in (
            "add", "sub", "subtract", "index_add"):
        return str(rng.choice([1, 2, -1]))
    if pname in ("min", "max") and cur == "histc":
        return repr(rng.choice([-2.0, 0.0, 1.0]) if pname == "min" else rng.choice([0.0, 2.0, 3.0]))
    if pname == "N" and cur == "vander":
        return repr(rng.choice([None, 2, 3, 4, 1]))
    if pname == "correction" and cur == "cov":
        return str(rng.choice([0, 1, 2]))
    if pname == "dtype" and t is not None and (cur in ("cumsum_", "cumprod_") or cur in (
            "norm", "vector_norm", "matrix_norm") and t.is_floating_point()):
        return rng.choice([str(t.dtype), "torch.float64"])  # (in-place: its own dtype; norms: not lower)
    if pname == "dtype" and cur == "normal":
        return rng.choice(["torch.float64", "torch.float16", "torch.float32"])
    if pname in ("from_", "to") and cur == "uniform_":
        return repr(rng.choice([-1.0, 0.0]) if pname == "from_" else rng.choice([1.0, 2.5]))
    if pname == "memory_format":  # (channels_last fits a 4-d tensor, channels_last_3d a 5-d one; now and then
        nd = t.dim() if t is not None else 0  # the other, whose error both must give)
        fits = {4: ["torch.channels_last"] * 3, 5: ["torch.channels_last_3d"] * 3}.get(nd, [])
        return rng.choice(["torch.contiguous_format", "torch.preserve_format", "torch.channels_last",
                           "torch.channels_last_3d"] + fits + ["torch.contiguous_format", "torch.preserve_format"] * 2)
    if pname == "tau" and cur == "gumbel_softmax":
        return repr(rng.choice([1, 0.5, 2.0]))
    if pname == "p" and cur in ("geometric_", "bernoulli", "bernoulli_"):
        return repr(rng.choice([0.3, 0.5, 1.0, 0.0]))
    if pname == "callable":  # (apply_'s function of one number, map_'s of two, map2_'s of three)
        if cur == "map2_":
            return "lambda a, b, c: a + b * c"
        return "lambda a, b: a * 2 + b" if cur == "map_" else rng.choice(["lambda v: v * 2", "lambda v: -v"])
    if pname == "data":
        return rng.choice(["[1.0, 2.0]", "[[0, 1]]", "3.5", "True"] + gen.tensors()[:1])
    return None


RECIPES = {}
for _names, _recipe in (
        (["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"], conv),
        (["avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
          "max_pool2d_with_indices", "max_pool3d_with_indices", "lp_pool1d", "lp_pool2d", "lp_pool3d"], pool),
        (["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
          "adaptive_max_pool2d", "adaptive_max_pool3d", "adaptive_max_pool1d_with_indices",
          "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices"], adaptive),
        (["max_unpool1d", "max_unpool2d", "max_unpool3d"], unpool),
        (["batch_norm", "instance_norm", "group_norm"], norm),
        (["interpolate", "upsample", "upsample_bilinear", "upsample_nearest"], interpolate),
        (["pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "native_channel_shuffle"], shuffle),
        (["affine_grid", "grid_sample"], grid),
        (["fold"], fold), (["unfold"], unfold), (["unfold_copy"], windows),
        (["embedding", "embedding_bag", "one_hot"], embedding),
        (["nll_loss", "cross_entropy", "multi_margin_loss", "multilabel_margin_loss"], classes),
        (["binary_cross_entropy", "cosine_embedding_loss", "bilinear", "poisson_nll_loss"], pairs),
        (["scaled_dot_product_attention"], attention),
        (["lu_solve", "lu_unpack", "ldl_solve"], factorised),
        (["solve_triangular", "triangular_solve"], triangular),
        (["householder_product", "orgqr", "ormqr"], householder),
        (["mvlgamma", "mvlgamma_", "multigammaln"], positive),
        (["bincount"], counts),
        (["bucketize", "searchsorted", "isin"], sorted_sequences),
        (["as_strided", "as_strided_copy", "as_strided_"], strided), (["as_strided_scatter"], strided_scatter),
        (["nonzero_static"], static_rows),
        (["index_add", "index_copy", "index_fill", "index_reduce", "index_add_", "index_copy_", "index_fill_",
          "index_reduce_", "index_put", "index_put_", "scatter_reduce", "scatter_reduce_", "select_scatter",
          "diagonal_scatter"], index_family),
        (["split_with_sizes", "split_with_sizes_copy", "unsafe_split", "unsafe_split_with_sizes", "split_copy"], splits),
        (["repeat_interleave"], repeats),
        (["multinomial"], samples), (["randint"], randint), (["normal"], normal),
        (["bartlett_window", "blackman_window", "hamming_window", "hann_window", "kaiser_window"], window),
        (["scalar_tensor", "asarray", "typename"], scalar),
        (["addmm", "addmm_", "addbmm", "addbmm_", "baddbmm", "baddbmm_", "addmv", "addmv_", "addr", "addr_"], products),
        (["cholesky", "cholesky_ex", "cholesky_inverse", "cholesky_solve", "eigh", "eigvalsh", "ldl_factor",
          "ldl_factor_ex"], spd),
        (["slice_scatter"], slices), (["to"], to), (["histogramdd"], histogramdd),
        (["view", "view_copy"], view_dtype),
        (["fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
          "fractional_max_pool3d_with_indices"], fractional),
        (["ctc_loss"], ctc), (["conv_tbc"], conv_tbc), (["linear_cross_entropy"], linear_ce)):
    for _name in _names:
        RECIPES[_name] = _recipe
