"""Bit-identity of agrad's exact numeric kernels: digests of their results over 300,000+ values each.

    python tools/kernel_bits.py                  # check this tree against tools/kernel_bits.json
    python tools/kernel_bits.py --write          # record this tree's digests there
    python tools/kernel_bits.py --dump DIR       # also keep every result (.npy), to locate a difference
    python tools/kernel_bits.py --against DIR    # compare element by element with a dump
    python tools/kernel_bits.py --n 20000 exp    # fewer values, some kernels
    AGRAD_SRC=/other/tree/src python tools/kernel_bits.py --dump /tmp/before   # another tree

The kernels of ops/_sleef.py, _sleef_gamma.py, _vec_math.py, _glibc_float.py, _erf_math.py,
_tanh64.py and _activation_kernels.py give PyTorch's bits; a change made for speed must keep every one of them.
Each kernel runs over the same values: random bit patterns (NaNs with payloads, subnormals,
huge numbers), numbers of every magnitude, a dense range around 0, ±0, ±inf, NaN, and each
kernel's thresholds and their neighbours. The values go in chunks of many sizes (1, 2, 7, 8,
15, 16, 17, ... 30,000: the small-size paths, the vector blocks and their tails), some laid out
in rows of 10 and some transposed (the loop's lanes), so every path a size or layout takes is
checked. The digest is SHA-256 of the results' bytes (NaN payloads and signs of zeros
included). The figures are this platform's (x86-64 with x87 long double, numpy's libm).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

sys.path.insert(0, os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")))
import agrad  # noqa: E402,F401  (first: it asks numpy for the AVX2 kernels the suite's figures are of)
import numpy as np  # noqa: E402

DIGESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel_bits.json")

#: chunk sizes, in turn (then again from the start)
CHUNKS = (1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 257, 1000, 2047, 2048, 4096, 10000, 30000)

#: thresholds of the kernels' branches (their neighbours are added too)
EDGES = (0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 709.78271114955742909217217426, 709.782712893383996732223, -1000.0,
         -36.736800569677101399113302437, 18.714973875, 19.1, 19.5, 1e307, 88.72283172607421875, 88.0, -104.0,
         100.0, 8.664339742, -16.635532333438687426013570, 0.84375, 1.25, 6.0, 0.46875, 4.0, 22.0, 27 * 0.6931471805599453,
         0.41422, -0.2929, 2.0 ** -28, 2.0 ** -12, 2.0 ** -29, 2.0 ** -25, 2.0 ** -55, 2.0 ** 25, 7 / 16, 11 / 16, 19 / 16,
         39 / 16, 120.0, 0.7853981633974483, 1.5707963267948966, 3.141592653589793, 20.0, 1 / 0.35,
         2.2250738585072014e-308, 1.17549435e-38, 2.9387372783541830947e-39, 1e38, 5e-324)


def values(dtype, n, seed=0):
    """``n`` values (and the specials) of ``dtype``, shuffled."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    itype = np.int64 if dtype == np.float64 else np.int32
    info = np.finfo(dtype)
    q = n // 5
    bits = rng.integers(np.iinfo(itype).min, np.iinfo(itype).max, q, dtype=itype, endpoint=True).view(dtype)
    mags = (rng.standard_normal(q) * 10.0 ** rng.uniform(-6, 6, q)).astype(dtype)
    dense = rng.uniform(-40, 40, q).astype(dtype)
    near = rng.uniform(-3, 3, q).astype(dtype)
    sub = (rng.uniform(-1, 1, n - 4 * q) * float(info.tiny) * 4).astype(dtype)
    edges = np.array(EDGES, np.float64).astype(dtype)
    edges = np.concatenate([edges, -edges])
    around = np.concatenate([np.nextafter(edges, dtype.type(np.inf)), np.nextafter(edges, dtype.type(-np.inf))])
    specials = np.array([np.inf, -np.inf, np.nan, -np.nan, float(info.max), -float(info.max), float(info.tiny),
                         float(info.smallest_subnormal), -float(info.smallest_subnormal), -0.0], dtype)
    out = np.concatenate([bits, mags, dense, near, sub, edges, around, specials]).astype(dtype)
    rng.shuffle(out)
    return np.concatenate([specials, out])  # (the specials first as well: each alone in a chunk of 1)


def chunks(arrays):
    """The operands cut into chunks of CHUNKS' sizes in turn: (chunk arrays, layout) pairs, a
    chunk of a multiple of 10 elements in rows of 10 (every third of them transposed)."""
    n = arrays[0].size
    i = k = 0
    while i < n:
        size = min(CHUNKS[k % len(CHUNKS)], n - i)
        parts = [a[i:i + size] for a in arrays]
        if size % 10 == 0 and size > 10:
            if k % 3 == 2:
                parts = [p.reshape(10, size // 10).T for p in parts]
            else:
                parts = [p.reshape(size // 10, 10) for p in parts]
        yield parts
        i += size
        k += 1


def kernels():
    """name -> (dtype, operand count, function of the operands)."""
    from agrad.ops import _activation_kernels as A, _erf_math as E, _glibc_float as G, _sleef as S, _tanh64 as T
    from agrad.ops import _vec_math as V
    from agrad.ops import unary as U

    f32, f64 = np.float32, np.float64
    ld_tanh = V.via_long_double(np.tanh, single_direct=True, fast64=T.tanh)
    exact_oms = U._fma_one_minus_square
    k = {
        "sleef_exp": (f64, 1, S.sleef_exp), "sleef_log1p": (f64, 1, S.sleef_log1p), "sleef_log": (f64, 1, S.sleef_log),
        "sleef_tanh": (f64, 1, S.sleef_tanh), "sleef_expm1": (f64, 1, S.sleef_expm1),
        "sleef_tanhf": (f32, 1, S.sleef_tanhf), "sleef_expm1f": (f32, 1, S.sleef_expm1f),
        "sleef_atan2f": (f32, 2, S.sleef_atan2f),
        "sleef_expf": (f32, 1, V.sleef_expf), "sleef_log1pf": (f32, 1, V.sleef_log1pf), "sleef_logf": (f32, 1, V.sleef_logf),
        "fma64": (f64, 3, V.fma), "fma32": (f32, 3, V.fma), "fma64_const": (f64, 1, lambda a: V.fma(a, 0.1, -1.5)),
        "fma32_const": (f32, 1, lambda a: V.fma(a, np.float32(0.1), np.float32(-1.5))),
        "libm_exp": (f64, 1, lambda a: S.libm("exp", a)), "libm_log1p": (f64, 1, lambda a: S.libm("log1p", a)),
        "libm_expm1": (f64, 1, lambda a: S.libm("expm1", a)), "libm_tanh": (f64, 1, lambda a: S.libm("tanh", a)),
        "glibc_atanf": (f32, 1, G.atanf), "glibc_atan2f": (f32, 2, G.atan2f), "glibc_log1pf": (f32, 1, G.log1pf),
        "glibc_expm1f": (f32, 1, G.expm1f), "glibc_tanhf": (f32, 1, G.tanhf), "glibc_expf": (f32, 1, G.expf),
        "glibc_erff": (f32, 1, G.erff), "glibc_logf": (f32, 1, G.logf), "glibc_sinf": (f32, 1, G.sinf),
        "glibc_cosf": (f32, 1, G.cosf),
        "calerf64": (f64, 1, lambda a: E.calerf(a, False)), "calerfc64": (f64, 1, lambda a: E.calerf(a, True)),
        "calerf32": (f32, 1, lambda a: E.calerf(a, False)), "calerfc32": (f32, 1, lambda a: E.calerf(a, True)),
        "vec_erff": (f32, 1, E.vec_erff),
        "tanh64": (f64, 1, ld_tanh), "tanh32": (f32, 1, ld_tanh),
        "one_minus_square64": (f64, 1, lambda y: T.one_minus_square(np.clip(y, -1, 1), exact_oms)),
        "tanh_backward64": (f64, 2, lambda g, y: U._tanh_backward_np(g, np.clip(y, -1, 1))),
        "tanh_backward32": (f32, 2, lambda g, y: U._tanh_backward_np(g, np.clip(y, -1, 1))),
    }
    for t, tn in ((f32, "32"), (f64, "64")):
        k.update({
            "silu" + tn: (t, 1, A._silu_np), "silu_backward" + tn: (t, 2, A._silu_backward_np),
            "mish" + tn: (t, 1, A._mish_np), "mish_backward" + tn: (t, 2, A._mish_backward_np),
            "elu" + tn: (t, 1, lambda a: A._elu_np(a, 1.0, 1.0, 1.0)),
            "selu" + tn: (t, 1, lambda a: A._elu_np(a, 1.6732632423543772, 1.0507009873554805, 1.0)),
            "celu" + tn: (t, 1, lambda a: A._elu_np(a, 0.7, 1.0, 1 / 0.7)),
            "elu_backward" + tn: (t, 2, lambda g, x: A._elu_backward_np(g, x, 1.0, 1.0, 1.0)),
            "softplus_backward" + tn: (t, 2, lambda g, x: A._softplus_backward_np(g, x, 1.0, 20.0)),
            "softplus_backward_beta" + tn: (t, 2, lambda g, x: A._softplus_backward_np(g, x, 2.0, 5.0)),
        })
    from agrad.ops import _sleef_gamma as SG
    from agrad.ops import activations as AC, binary as B, gelu as GE

    k.update({"sleef_lgamma": (f64, 1, SG.sleef_lgamma), "sleef_lgammaf": (f32, 1, SG.sleef_lgammaf)})
    from agrad.ops import _sleef_pow as SP

    k.update({"sleef_powf": (f32, 2, SP.sleef_powf), "sleef_pow": (f64, 2, SP.sleef_pow),
              # (ordinary operands: |x| and y / 8 of dense values, a result in range)
              "sleef_powf_dense": (f32, 2, lambda x, y: SP.sleef_powf(np.abs(x), y / np.float32(8))),
              "sleef_pow_dense": (f64, 2, lambda x, y: SP.sleef_pow(np.abs(x), y / 8))})

    k.update({  # (the ops' own array kernels: the lanes of their loops and their special values)
        "op_atan2_32": (f32, 2, B._atan2_np), "op_log1p32": (f32, 1, U._log1p_kernel), "op_sigmoid32": (f32, 1, U._sigmoid),
        "op_gelu32": (f32, 1, lambda a: GE._gelu_np(a, "none")), "op_gelu64": (f64, 1, lambda a: GE._gelu_np(a, "none")),
        "op_gelu_backward32": (f32, 2, GE._gelu_backward32),
        "op_logsigmoid32": (f32, 1, AC._logsigmoid_np), "op_logsigmoid64": (f64, 1, AC._logsigmoid_np),
        "op_logsigmoid_backward32": (f32, 2, AC._logsigmoid_backward_np),
        "op_logsigmoid_backward64": (f64, 2, AC._logsigmoid_backward_np),
        "op_pow32": (f32, 2, SP.pow_tensors), "op_pow64": (f64, 2, SP.pow_tensors),
        "sleef_exp2f": (f32, 1, S.sleef_exp2f), "sleef_exp2": (f64, 1, S.sleef_exp2),
        "sleef_sinhf": (f32, 1, S.sleef_sinhf), "sleef_coshf": (f32, 1, S.sleef_coshf),
        "sleef_sinh": (f64, 1, S.sleef_sinh), "sleef_cosh": (f64, 1, S.sleef_cosh),
        "sleef_atanhf": (f32, 1, S.sleef_atanhf), "sleef_atanh": (f64, 1, S.sleef_atanh),
        "op_exp2_32": (f32, 1, U._exp2_kernel), "op_exp2_64": (f64, 1, U._exp2_kernel),
        "op_log1p64": (f64, 1, U._log1p_kernel), "op_sigmoid64": (f64, 1, U._sigmoid),
        "op_expm1_32": (f32, 1, U._expm1_kernel), "op_expm1_64": (f64, 1, U._expm1_kernel),
        "op_pow_number32": (f32, 1, lambda a: SP.pow_number(a, 0.7)),
        "op_pow_number64": (f64, 1, lambda a: SP.pow_number(a, -1.3)),
    })
    for name in ("sleef_exp", "sleef_log1p", "sleef_tanh", "sleef_expm1", "mish64", "mish_backward64", "silu64",
                 "silu_backward64", "elu64", "elu_backward64", "softplus_backward64", "op_logsigmoid64"):
        k[name + "_dense"] = k[name]
    k["softplus64"] = (f64, 1, lambda a: A._softplus64(a, a * 1.0, 1.0, 20.0))
    k["softplus64_beta"] = (f64, 1, lambda a: A._softplus64(a, a * 2.0, 2.0, 5.0))
    return k


def dense(dtype, n, seed=1):
    """``n`` ordinary numbers (no special value): half in [-40, 40], half normal with sd 3; the
    small-array paths of kernels that take only such elements (_sleef_scalar) get whole chunks."""
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.uniform(-40, 40, n // 2), rng.standard_normal(n - n // 2) * 3]).astype(dtype)


def operands(dtype, count, n, name=""):
    v = dense(dtype, n) if name.endswith("_dense") else values(dtype, n)
    ops = [v]
    if count >= 2:  # (y and x of atan2, g and x of a backward: one value against many others)
        ops.append(np.roll(v, 7919))
    if count >= 3:
        ops.append(np.roll(v[::-1], 104729).copy())
    return ops


def run(name, spec, n):
    dtype, count, fn = spec
    ops = operands(dtype, count, n, name)
    if "backward" in name:
        ops = ops[::-1]  # (the gradient first, the values as x)
    outs = []
    with np.errstate(all="ignore"):
        for parts in chunks(ops):
            r = np.asarray(fn(*parts))
            outs.append(np.ascontiguousarray(r).reshape(-1))
    return np.concatenate(outs)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*")
    p.add_argument("--n", type=int, default=300_000, help="values per kernel (besides the specials)")
    p.add_argument("--write", action="store_true", help=f"record the digests in {os.path.basename(DIGESTS)}")
    p.add_argument("--dump", help="keep each kernel's results here (.npy)")
    p.add_argument("--against", help="compare with the results dumped there, element by element")
    args = p.parse_args(argv)
    table = kernels()
    names = args.names or list(table)
    known = json.load(open(DIGESTS)) if os.path.exists(DIGESTS) else {}
    key = str(args.n)
    mine = {}
    bad = 0
    for name in names:
        r = run(name, table[name], args.n)
        digest = hashlib.sha256(r.tobytes()).hexdigest()
        mine[name] = digest
        status = ""
        if args.against:
            ref = np.load(os.path.join(args.against, name + ".npy"))
            diff = np.flatnonzero(ref.view(f"i{ref.itemsize}") != r.view(f"i{r.itemsize}"))
            status = "same" if not diff.size else f"DIFFERS in {diff.size} of {r.size} (first at {diff[:5].tolist()})"
            bad += bool(diff.size)
        elif not args.write and key in known and name in known[key]:
            same = known[key][name] == digest
            status = "same" if same else "DIFFERS"
            bad += not same
        print(f"{name:24} {r.size:>8} {digest[:16]}  {status}", flush=True)
        if args.dump:
            os.makedirs(args.dump, exist_ok=True)
            np.save(os.path.join(args.dump, name + ".npy"), r)
    if args.write:
        known.setdefault(key, {}).update(mine)
        with open(DIGESTS, "w") as f:
            json.dump(known, f, indent=1, sort_keys=True)
            f.write("\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
