"""Golden bits of PyTorch's float sums and of its exact pow forms (tests/test_sum_order.py).

    python tools/gen_sum_order_golden.py      # needs torch==2.13.0

Each case's input is drawn again by the test from the same numpy seed; the file
keeps PyTorch's results as the hex of their bytes (no decimal rounding).
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "golden" / "sum_order.json"

#: (shape, what) -- what: "sum", "mean", "sum-1" (last dim), "sum-0" (first dim), "sumT" (transposed), "mse-sum", "mse-mean",
#: "pow3", "pow-2", "pow-0.5"
CASES = [((n,), "sum") for n in (1, 3, 4, 5, 7, 8, 9, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256,
                                 257, 511, 512, 513, 1000, 1023, 2000, 2048, 4095, 5000, 12345, 32767)]
CASES += [((n,), "mean") for n in (4, 7, 100, 1000, 2000)]
CASES += [(s, "sum-1") for s in ((3, 7), (5, 37), (64, 10), (10, 300), (2, 3, 50), (4, 1, 9))]
CASES += [(s, "sumT") for s in ((30, 7), (64, 10), (9, 100))]
CASES += [(s, "sum-0") for s in ((64, 10), (7, 3), (100, 33), (17, 64), (5, 100), (3, 4, 50))]
CASES += [((n,), w) for n in (10, 1000, 2000) for w in ("mse-sum", "mse-mean")]
CASES += [((300,), w) for w in ("pow3", "pow-2", "pow-0.5")]


def draw(shape, dtype, seed):
    """The case's input (the test draws the same)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 100).astype(dtype), (rng.standard_normal(shape) * 100).astype(dtype)


def run(lib, x, y, what):
    """The case under ``lib`` (torch here, agrad in the test)."""
    a, b = lib.tensor(x), lib.tensor(y)
    if what == "sum":
        return a.sum()
    if what == "mean":
        return a.mean()
    if what == "sum-1":
        return a.sum(-1)
    if what == "sum-0":
        return a.sum(0)
    if what == "sumT":
        return a.t().sum()
    if what.startswith("mse-"):
        return lib.nn.functional.mse_loss(a, b, reduction=what[4:])
    return a.abs() ** float(what[3:])


def main():
    import torch

    cases = []
    for i, (shape, what) in enumerate(CASES):
        for dtype in ("float32", "float64"):
            x, y = draw(shape, dtype, 1000 + i)
            out = run(torch, x, y, what).numpy()
            cases.append({"shape": list(shape), "what": what, "dtype": dtype, "seed": 1000 + i,
                          "bits": np.ascontiguousarray(out).tobytes().hex(), "out_shape": list(out.shape)})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=0) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
