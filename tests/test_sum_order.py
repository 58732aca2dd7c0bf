"""PyTorch's order of additions in float sums, and its exact forms of x**3, x**-2, x**-0.5.

PyTorch's CPU sum (sum, mean, the losses' reductions, the gradients that
broadcasting sums back) adds in a cascade of vector lanes (agrad/_cascade.py);
numpy's pairwise order gives another last bit in most cases, which
``loss.item()`` shows.  Golden bits from tools/gen_sum_order_golden.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import agrad as torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from gen_sum_order_golden import draw, run  # noqa: E402

GOLDEN = json.loads((ROOT / "tests" / "golden" / "sum_order.json").read_text())


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['what']}-{c['dtype']}-{'x'.join(map(str, c['shape']))}")
def test_pytorchs_bits(case):
    x, y = draw(tuple(case["shape"]), case["dtype"], case["seed"])
    got = run(torch, x, y, case["what"])._data
    assert list(got.shape) == case["out_shape"]
    want = np.frombuffer(bytes.fromhex(case["bits"]), dtype=case["dtype"]).reshape(case["out_shape"])
    assert np.ascontiguousarray(got).tobytes() == want.tobytes(), (got, want)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_gradients_summed_back_in_pytorchs_order():
    """A 0-d weight times a vector: its gradient is the vector's sum, in PyTorch's order
    (with and without create_graph; the raw and the recorded backward agree)."""
    x, _ = draw((2000,), "float32", 7)
    want = torch.tensor(x).sum().item()
    for create_graph in (False, True):
        w = torch.tensor(1.0, requires_grad=True)
        (w * torch.tensor(x)).sum().backward(create_graph=create_graph)
        assert w.grad.item() == want


def test_numpys_order_would_differ():
    """The goldens are not vacuous: numpy's own sum misses PyTorch's bits in most of them."""
    differ = 0
    for case in GOLDEN["cases"]:
        if case["what"] != "sum":
            continue
        x, _ = draw(tuple(case["shape"]), case["dtype"], case["seed"])
        want = np.frombuffer(bytes.fromhex(case["bits"]), dtype=case["dtype"])[0]
        differ += np.add.reduce(x) != want
    assert differ >= 20


@pytest.mark.torch
def test_random_sizes_against_pytorch():
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    for n in list(range(1, 200)) + list(rng.integers(200, 32768, 40)):
        for dtype in (np.float32, np.float64):
            x = (rng.standard_normal(int(n)) * 10).astype(dtype)
            assert torch.tensor(x).sum().item() == real.from_numpy(x).sum().item(), (n, dtype)
