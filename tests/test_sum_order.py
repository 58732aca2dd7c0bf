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


def _layouts(rng, real, x):
    """The same view of ``x`` in agrad and PyTorch: contiguous, permuted, sliced or expanded."""
    nd = x.ndim
    kind = rng.choice(["contiguous", "permuted", "sliced", "expanded"])
    if kind == "permuted":
        p = [int(i) for i in rng.permutation(nd)]
        return kind, lambda t: t.permute(*p)
    if kind == "sliced":
        d = int(rng.integers(nd))
        sl = tuple(slice(None, None, 2) if i == d else slice(1, None) for i in range(nd))
        return kind, lambda t: t[sl]
    if kind == "expanded":
        d = int(rng.integers(nd + 1))
        return kind, lambda t: t.unsqueeze(d).expand(*([-1] * d + [3] + [-1] * (nd - d)))
    return kind, lambda t: t


@pytest.mark.torch
def test_any_dims_any_layout_against_pytorch():
    """sum, mean and nansum over any set of dims of any layout (middle dims, (0, 2, 3), permuted,
    sliced, expanded inputs; float16's Half stores) under GRAIN_SIZE: PyTorch's bits."""
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(34)
    sizes = [1, 2, 3, 5, 8, 9, 16, 17, 33, 40]
    checked = 0
    for _ in range(150):
        nd = int(rng.integers(1, 5))
        shape = [int(rng.choice(sizes)) for _ in range(nd)]
        while np.prod(shape) > 8000:
            shape[int(rng.integers(nd))] = 3
        dtype = str(rng.choice(["float32", "float64", "float16"]))
        op = str(rng.choice(["sum", "mean", "nansum"]))
        x = (rng.standard_normal(shape) * 3).astype(dtype)
        if op == "nansum":
            x[rng.random(shape) < 0.1] = np.nan
        kind, view = _layouts(rng, real, x)
        t = view(real.from_numpy(x.copy()))
        a = view(torch.tensor(x))
        dims = tuple(int(d) for d in rng.choice(t.dim(), int(rng.integers(1, t.dim() + 1)), replace=False))
        keep = bool(rng.random() < 0.3)
        want = getattr(t, op)(dim=dims, keepdim=keep).contiguous().numpy()
        got = np.ascontiguousarray(getattr(a, op)(dim=dims, keepdim=keep)._data)
        assert got.tobytes() == want.tobytes(), (op, dtype, kind, shape, dims, keep)
        checked += 1
    assert checked == 150


def test_middle_dims_differ_from_numpys_order():
    """The per-channel sum of a BatchNorm input, z.sum(dim=(0, 2, 3)), is not numpy's: agrad's
    emulation of PyTorch's loops gives other bits than np.add.reduce for some of these."""
    rng = np.random.default_rng(3)
    differ = 0
    for _ in range(40):
        z = rng.standard_normal((4, 3, 9, 9)).astype(np.float32)
        got = torch.tensor(z).sum(dim=(0, 2, 3))._data
        differ += int((got != np.add.reduce(z, axis=(0, 2, 3))).sum())
    assert differ >= 5


@pytest.mark.torch
def test_threaded_sizes_where_the_split_keeps_the_order():
    """Over GRAIN_SIZE PyTorch splits the output's elements between threads; where that leaves each
    element's additions as they are (two reduced dims, or a loop along the reduced dim), agrad's
    bits are PyTorch's; columns split between threads are summed a
    thread's columns at a time; a single output keeps numpy's sum."""
    from agrad._cascade import cascade_sum

    real = pytest.importorskip("torch")
    rng = np.random.default_rng(12)
    for shape, dims, dtype in [((64, 64, 16, 16), (0, 2, 3), "float32"), ((300, 200), (1,), "float64"),
                               ((40, 30, 50), (0, 2), "float16"), ((50, 30, 40), (2, 0), "float32")]:
        x = (rng.standard_normal(shape) * 3).astype(dtype)
        assert cascade_sum(x, tuple(sorted(dims)), False) is not None
        for op in ("sum", "mean", "nansum"):
            want = getattr(real.from_numpy(x), op)(dim=dims).numpy()
            assert getattr(torch.tensor(x), op)(dim=dims)._data.tobytes() == want.tobytes(), (shape, dims, op)
    # columns split between threads (get_num_threads() of them, rounded to 128 bytes where adjacent): each
    # thread's columns summed as on one thread
    for x, view, dims in [((rng.standard_normal((300, 200)) * 3).astype("float32"), lambda t: t, (0,)),
                          ((rng.standard_normal((200, 331)) * 3).astype("float64"), lambda t: t.t(), (1,)),
                          ((rng.standard_normal((90, 1, 337)) * 3).astype("float16"), lambda t: t.expand(90, 3, 337), (1,)),
                          ((rng.standard_normal((151, 400))).astype("float32"), lambda t: t[:, ::2], (0,))]:
        want = view(real.from_numpy(x)).sum(dim=dims).numpy()
        assert view(torch.tensor(x)).sum(dim=dims)._data.tobytes() == want.tobytes(), (x.shape, dims)
    # one output (two_pass_reduction) of elements adjacent in memory: each thread's run summed into its own
    # zero, then the threads' sums; float16 through its Half buffer; other layouts keep numpy's sum
    for x in [(rng.standard_normal((300, 200)) * 3).astype(d) for d in ("float32", "float64", "float16")]:
        for op in ("sum", "mean", "nansum"):
            want = getattr(real.from_numpy(x), op)().numpy()
            assert getattr(torch.tensor(x), op)()._data.tobytes() == want.tobytes(), (x.dtype, op)
    assert cascade_sum(np.ones((300, 400), np.float32)[:, ::2], (0, 1), False) is None


def test_a_split_of_whole_vector_groups_is_summed_in_one_pass(monkeypatch):
    """Columns split between threads in whole groups of 4 AVX2 vectors (the MLP's bias gradient,
    512 x 1024 over dim 0) take one pass over all the columns: the bits of the thread-by-thread
    sums; a split with leftover columns (row_sum's scalar loop) still goes range by range."""
    from agrad import _cascade, settings

    rng = np.random.default_rng(40)
    taken = []
    whole = _cascade._split_whole
    monkeypatch.setattr(_cascade, "_split_whole", lambda *a: taken.append(whole(*a)) or taken[-1])
    for threads in (2, 3, 4, 7):
        monkeypatch.setattr(settings, "get_num_threads", lambda t=threads: t)
        for shape, dtype in [((512, 1024), "float32"), ((512, 1024), "float64"), ((100, 640), "float32"),
                             ((70, 1000), "float64"), ((64, 1000), "float32")]:
            x = (rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)).astype(dtype)
            x.flat[::101] = -0.0
            dims = _cascade._layout(x, (0,))
            plan = _cascade._split_plan(dims, False, x.itemsize)
            got = _cascade.cascade_sum(x, (0,), False)
            if plan is True:
                continue
            by_range = _cascade._split_sum(x, dims, (0,), False, False, plan)
            assert got.tobytes() == by_range.tobytes(), (threads, shape, dtype)
            assert taken[-1] == all((e - b) % (128 // x.itemsize) == 0 for b, e in plan)
    assert True in taken and False in taken


@pytest.mark.torch
def test_var_mean_and_var_of_one_threaded_slice():
    """var_mean/std_mean into one element over GRAIN_SIZE: each of get_num_threads() threads runs
    Welford over ceil(n / threads) elements, the runs merged with WelfordOps::combine, in order
    (a live comparison: the split depends on the machine's thread count, as PyTorch's does)."""
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(35)
    for shape, dtype in [((200, 300), "float32"), ((40000,), "float64"), ((33, 1000), "float16")]:
        x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
        for op in ("var_mean", "std_mean"):
            want = getattr(real, op)(real.from_numpy(x).t() if x.ndim == 2 else real.from_numpy(x))
            got = getattr(torch, op)(torch.tensor(x).t() if x.ndim == 2 else torch.tensor(x))
            assert [g._data.tobytes() for g in got] == [w.numpy().tobytes() for w in want], (shape, op)
    for shape, dtype in [((200, 300), "float32"), ((300000,), "float64")]:  # var/std: std_var_all_cpu's split
        x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
        for op in ("var", "std"):
            want = getattr(real.from_numpy(x).t() if x.ndim == 2 else real.from_numpy(x), op)()
            got = getattr(torch.tensor(x).t() if x.ndim == 2 else torch.tensor(x), op)()
            assert got._data.tobytes() == want.numpy().tobytes(), (shape, op)
