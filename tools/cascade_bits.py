"""Keep the bits of agrad's ordered sum (_cascade.cascade_sum) while its implementation changes.

    PYTHONPATH=src python tools/cascade_bits.py --save /tmp/cascade-old.npz   # before the change
    PYTHONPATH=src python tools/cascade_bits.py --check /tmp/cascade-old.npz  # after: every bit the same
    PYTHONPATH=src python tools/cascade_bits.py --check F --first-call        # ... every case by its plan
    PYTHONPATH=src python tools/cascade_bits.py --big --count 300 --save/--check F   # large inputs

Random cases from a fixed seed: float16/32/64 arrays of 1-4 dims (sizes 1-40,000 elements, dims of
size 1), laid out contiguous, transposed, sliced with steps, reversed (negative strides) or broadcast
(zero strides); values normal at scales 1e-30..1e30 with NaN, +-inf, +-0, subnormals and huge/tiny
ones mixed in (all NaN payloads kept); every subset of axes, keepdims, nansum.  Each result (None or
an array) is compared by dtype, shape and bytes; a NaN's payload and sign bits only with --strict
(numpy's own loops pick which NaN operand propagates by the element's position in the array: its
vector body returns the first NaN, its tail the second; neither is PyTorch's rule).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

from agrad._cascade import cascade_sum


def _values(rng, n, dtype):
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 7, n)
    if rng.random() < 0.3:
        x = x * 10.0 ** rng.integers(-30, 30)
    kinds = rng.random(n)
    info = np.finfo(dtype)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, float(info.tiny) / 4, -float(info.tiny) / 3,
                         float(info.max) / 2, -float(info.max) / 3, float(info.tiny), 1e-300, 1e300])
    rate = rng.choice([0.0, 0.001, 0.05, 0.5])
    pick = kinds < rate
    x[pick] = rng.choice(specials, int(pick.sum()))
    if rng.random() < 0.1:  # many zeros of both signs
        z = rng.random(n) < 0.7
        x[z] = np.where(rng.random(int(z.sum())) < 0.5, -0.0, 0.0)
    with np.errstate(all="ignore"):
        out = x.astype(dtype)
    if rng.random() < 0.3:  # NaN payloads
        bits = out.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[out.itemsize])
        nan = np.isnan(out)
        bits[nan] |= rng.integers(1, 64, int(nan.sum())).astype(bits.dtype)
    return out


#: --big: 40,000-1,500,000 elements (PyTorch's threads: the paths that keep their order)
BIG = [False]


def _shape(rng):
    nd = int(rng.integers(1, 5))
    cap = int(rng.choice([16, 64, 512, 4096, 40000], p=[0.25, 0.3, 0.25, 0.15, 0.05]))
    if BIG[0]:
        cap = int(rng.choice([40000, 300000, 1500000]))
    shape = []
    for _ in range(nd):
        r = rng.random()
        n = 1 if r < 0.12 else int(rng.integers(2, 9)) if r < 0.5 else int(rng.integers(2, 70))
        shape.append(n)
    while np.prod(shape) > cap and max(shape) > 1:
        i = int(np.argmax(shape))
        shape[i] = max(1, shape[i] // 2)
    return tuple(shape)


def _layout(rng, x):
    r = rng.random()
    if r < 0.45 or x.ndim == 0:
        return x, "c"
    if r < 0.65:
        perm = rng.permutation(x.ndim)
        base = np.ascontiguousarray(np.transpose(x, np.argsort(perm)))
        return np.transpose(base, perm), "perm"
    if r < 0.8:  # sliced with steps out of a bigger array
        steps = [int(rng.integers(1, 3)) for _ in range(x.ndim)]
        big = np.zeros([n * s + int(rng.integers(0, 2)) for n, s in zip(x.shape, steps)], x.dtype)
        view = big[tuple(slice(0, n * s, s) for n, s in zip(x.shape, steps))]
        view[...] = x
        return view, "sliced"
    if r < 0.9:
        ax = int(rng.integers(0, x.ndim))
        return np.flip(np.flip(x, ax).copy(), ax), "reversed"
    ax = int(rng.integers(0, x.ndim))
    src = np.take(x, [0], axis=ax)
    return np.broadcast_to(src, x.shape), "broadcast"


def cases(seed, count):
    rng = np.random.default_rng(seed)
    for k in range(count):
        dtype = rng.choice([np.float32, np.float64, np.float16], p=[0.45, 0.45, 0.1])
        shape = _shape(rng)
        x = _values(rng, int(np.prod(shape)), dtype).reshape(shape)
        x, kind = _layout(rng, x)
        subsets = [s for r in range(1, x.ndim + 1) for s in itertools.combinations(range(x.ndim), r)]
        axes = subsets[int(rng.integers(0, len(subsets)))]
        yield k, x, axes, bool(rng.random() < 0.3), bool(rng.random() < 0.1), kind


def run(seed, count):
    out = {}
    elements = 0
    for k, x, axes, keep, nan, kind in cases(seed, count):
        with np.errstate(all="ignore"):
            r = cascade_sum(x, axes, keep, nan)
        elements += x.size
        out[k] = None if r is None else np.asarray(r)
    return out, elements


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--count", type=int, default=6000)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--first-call", action="store_true",
                   help="plans made on a shape's first call (else: after size // 32 calls, so mostly the steps)")
    p.add_argument("--big", action="store_true", help="40,000-1,500,000 elements a case")
    p.add_argument("--strict", action="store_true", help="a NaN's payload or sign counts too")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--save")
    g.add_argument("--check")
    args = p.parse_args(argv)
    BIG[0] = args.big
    if args.first_call:
        from agrad import _cascade_plan
        _cascade_plan._PLAN_AFTER = 1 << 40
    for rep in range(args.repeat):
        t = time.process_time()
        res, elements = run(args.seed, args.count)
        t = time.process_time() - t
        print(f"{args.count} cases, {elements} elements, {sum(v is not None for v in res.values())} covered, {t:.1f} s CPU")
        if args.save:
            np.savez_compressed(args.save, **{f"c{k}": (np.array([]) if v is None else v) for k, v in res.items()},
                                none=np.array([k for k, v in res.items() if v is None]))
            return 0
        old = np.load(args.check)
        none = set(old["none"].tolist())
        bad = nan_bits = 0
        for k, v in res.items():
            if k in none:
                ok = v is None
            else:
                o = old[f"c{k}"]
                ok = v is not None and v.dtype == o.dtype and v.shape == o.shape and v.tobytes() == o.tobytes()
                if not ok and v is not None and v.dtype == o.dtype and v.shape == o.shape:
                    both = np.isnan(v) & np.isnan(o)
                    if np.array_equal(np.where(both, 0, v), np.where(both, 0, o)) and (
                            np.signbit(np.where(both, 0, v)) == np.signbit(np.where(both, 0, o))).all():
                        nan_bits += 1  # (only NaNs' payload or sign: see --strict)
                        ok = not args.strict
            if not ok:
                bad += 1
                if bad <= 10:
                    print("differs: case", k)
        print(f"repeat {rep}: {bad} cases differ; {nan_bits} cases differ only in a NaN's payload or sign")
        if bad:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
