"""PyTorch's CPU random stream, bit for bit.

tests/golden/random.json (made by tools/gen_random_golden.py with torch 2.13)
holds snippets and what PyTorch gave for them; each runs here with agrad as
``torch``.  The ``torch``-marked tests compare against an installed PyTorch
live, over more seeds and sizes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import agrad
import agrad.nn.functional as AF
from agrad import _generator
from agrad.ops import _rng_math

GOLDEN = json.loads((Path(__file__).parent / "golden" / "random.json").read_text())
CASES = {c["id"]: c for c in GOLDEN["cases"]}
_TRIGGERED = re.compile(r" \(Triggered internally at .*\)$", re.S)


def run_agrad(code):
    ns = {"torch": agrad, "F": AF}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, ns)
        except Exception as e:  # noqa: BLE001
            return {"error": [type(e).__name__, str(e)], "warnings": [str(w.message) for w in caught]}
    return {"out": ns["out"], "warnings": [str(w.message) for w in caught]}


def _array(rec):
    raw_dtype = "uint8" if rec["dtype"] == "bool" else rec["dtype"]
    return np.dtype(raw_dtype).newbyteorder("<")


def check(value, rec, where="out"):
    if isinstance(rec, list):
        assert isinstance(value, (list, tuple)), f"{where}: expected a sequence, got {type(value).__name__}"
        assert len(value) == len(rec), f"{where}: length {len(value)} != {len(rec)}"
        for i, (v, r) in enumerate(zip(value, rec)):
            check(v, r, f"{where}[{i}]")
        return
    if isinstance(rec, dict) and "size" in rec:
        assert type(value).__name__ == "Size" and list(value) == rec["size"], f"{where}: {value!r} != {rec}"
        return
    if isinstance(rec, dict):
        assert isinstance(value, agrad.Tensor), f"{where}: expected a tensor, got {type(value).__name__}"
        assert value.dtype.name == rec["dtype"], f"{where}: dtype {value.dtype.name} != {rec['dtype']}"
        assert list(value.shape) == rec["shape"], f"{where}: shape {list(value.shape)} != {rec['shape']}"
        arr = np.ascontiguousarray(value.detach()._data)
        raw = arr.astype(_array(rec)).tobytes()
        if "bytes" in rec:
            want = np.frombuffer(base64.b64decode(rec["bytes"]), _array(rec))
            got = np.frombuffer(raw, _array(rec))
            bad = np.flatnonzero(got != want) if want.dtype.kind != "f" else \
                np.flatnonzero(got.view(f"u{want.itemsize}") != want.view(f"u{want.itemsize}"))
            assert not bad.size, f"{where}: {bad.size} values differ, first at {bad[0]}: {got[bad[0]]!r} != " \
                                 f"{want[bad[0]]!r}"
        else:
            head = base64.b64decode(rec["head"])
            assert raw[: len(head)] == head, f"{where}: the first values differ"
            assert hashlib.sha256(raw).hexdigest() == rec["sha256"], f"{where}: the values differ (digest)"
        return
    assert value == rec and type(value) is type(rec), f"{where}: {value!r} != {rec!r}"


@pytest.mark.parametrize("case_id", list(CASES))
def test_golden(case_id):
    case = CASES[case_id]
    got = run_agrad(case["code"])
    if "error" in case:
        assert "error" in got, f"expected {case['error']}, got a result"
        assert got["error"] == case["error"]
    else:
        assert "error" not in got, f"raised {got.get('error')}"
        check(got["out"], case["out"])
    want_warnings = [_TRIGGERED.sub("", w) for w in case["warnings"]]
    assert got["warnings"] == want_warnings


PRINT_CASES = ["randn-print", "rand-shape", "randn-float64-17", "randint-basic", "randperm-10",
               "normal_-float32", "arange-floats", "linspace-floats"]


@pytest.mark.parametrize("case_id", [c for c in PRINT_CASES if "repr" in CASES.get(c, {})])
def test_cli_prints_what_pytorch_prints(case_id):
    """A seed-style script through the CLI: ``print(...)`` after ``manual_seed``
    shows exactly PyTorch's text."""
    import subprocess
    import sys
    case = CASES[case_id]
    script = "import torch\n" + case["code"].replace("; ", "\n") + "\nprint(out)\n"
    env = {**__import__("os").environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    r = subprocess.run([sys.executable, "-m", "agrad", "eval", "-e", script], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(case["repr"] + "\n"), r.stdout


# ------------------------------------------------------------------- unit facts

def test_init_genrand_matches_reference_values():
    # mt19937's reference output for init_genrand(5489): 3499211612, 581869302, ...
    g = agrad.Generator().manual_seed(5489)
    assert g._random32(3).tolist() == [3499211612, 581869302, 3890346734]


def test_state_layout_size_and_fields():
    g = agrad.Generator().manual_seed(3)
    s = g.get_state()
    assert s.dtype is agrad.uint8 and s.shape == (5056,)
    assert int(np.frombuffer(s.numpy().tobytes()[:8], "<u8")[0]) == 3


def test_fma32_rounds_once():
    a = np.float32(1 + 2 ** -12)
    c = np.float32(-1)
    # a*a = 1 + 2**-11 + 2**-24 exactly: one rounding keeps the 2**-24
    assert _rng_math.fma32(a, a, c) == np.float32(2 ** -11 + 2 ** -24)
    x = np.random.default_rng(0).random((3, 1000)).astype(np.float32)
    ref = [float(np.float32(float(p) * float(q) + float(r))) for p, q, r in x.T[:50]]
    assert np.all(_rng_math.fma32(x[0, :50], x[1, :50], x[2, :50]) == np.array(ref, np.float32))


def test_fma64_rounds_once():
    from fractions import Fraction
    rng = np.random.default_rng(1)
    a, b, c = rng.standard_normal((3, 300))
    got = _rng_math.fma64(a, b, c)
    for x, y, z, r in zip(a, b, c, got):
        exact = Fraction(x) * Fraction(y) + Fraction(z)
        assert r == float(exact)


def test_numpy_random_stays_unimported_until_a_draw():
    import subprocess
    import sys
    code = ("import sys, agrad; g = agrad.Generator().manual_seed(1); g.get_state(); "
            "print('numpy.random' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_default_generator_is_torch_default_generator():
    assert agrad.default_generator is _generator.default_generator()
    assert agrad.manual_seed(4) is agrad.default_generator


def test_randperm_is_a_permutation():
    agrad.manual_seed(0)
    p = agrad.randperm(5000).numpy()
    assert sorted(p.tolist()) == list(range(5000))


# ------------------------------------------------------------------- live torch

@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _same(a, t):
    x = np.ascontiguousarray(a.detach()._data)
    y = t.detach().contiguous().numpy()
    assert x.dtype == y.dtype and x.shape == y.shape
    return x.tobytes() == y.tobytes()


@pytest.mark.torch
@pytest.mark.parametrize("seed", [0, 1, 2, 123456789, 2 ** 33 + 5])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_live_rand_randn(torch, seed, dtype):
    for n in (1, 7, 15, 16, 17, 48, 63, 1000, 20001):
        for fn in ("rand", "randn"):
            torch.manual_seed(seed)
            agrad.manual_seed(seed)
            t = getattr(torch, fn)(n, dtype=getattr(torch, dtype))
            a = getattr(agrad, fn)(n, dtype=getattr(agrad, dtype))
            assert _same(a, t), (fn, n)
    # the generator's state afterwards is PyTorch's, byte for byte
    assert agrad.get_rng_state().numpy().tobytes() == torch.get_rng_state().numpy().tobytes()


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(6))
def test_live_normal_mean_std(torch, seed):
    rng = np.random.default_rng(seed)
    for dtype in ("float32", "float64"):
        mean, std = float(rng.normal() * 10), float(rng.random() * 5)
        for n in (5, 16, 100, 3001):
            torch.manual_seed(seed)
            agrad.manual_seed(seed)
            t = torch.empty(n, dtype=getattr(torch, dtype)).normal_(mean, std)
            a = agrad.empty(n, dtype=getattr(agrad, dtype)).normal_(mean, std)
            assert _same(a, t), (dtype, n, mean, std)
            lo, hi = sorted(rng.normal(size=2) * 100)
            t = torch.empty(n, dtype=getattr(torch, dtype)).uniform_(lo, hi)
            a = agrad.empty(n, dtype=getattr(agrad, dtype)).uniform_(lo, hi)
            assert _same(a, t), (dtype, n, lo, hi)


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(4))
def test_live_integers_and_samplers(torch, seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(10):
        lo = int(rng.integers(-2 ** 40, 2 ** 40))
        hi = lo + int(rng.integers(1, 2 ** int(rng.integers(1, 45))))
        torch.manual_seed(seed)
        agrad.manual_seed(seed)
        assert _same(agrad.randint(lo, hi, (50,)), torch.randint(lo, hi, (50,)))
        n = int(rng.integers(0, 3000))
        assert _same(agrad.randperm(n), torch.randperm(n))
        p = rng.random((3, 40)).astype(np.float32)
        k = int(rng.integers(1, 40))
        assert _same(agrad.multinomial(agrad.tensor(p), k), torch.multinomial(torch.tensor(p), k))
        assert _same(agrad.multinomial(agrad.tensor(p), k, True), torch.multinomial(torch.tensor(p), k, True))
        assert _same(agrad.bernoulli(agrad.tensor(p)), torch.bernoulli(torch.tensor(p)))
        assert _same(agrad.empty(77).exponential_(3.0), torch.empty(77).exponential_(3.0))


@pytest.mark.torch
def test_live_script_prints_like_pytorch(torch, capsys):
    from agrad.lang import Source, run
    torch.manual_seed(0)
    expected = repr(torch.randn(3, 4)) + "\n"
    res = run([Source("<seed>", "import torch\ntorch.manual_seed(0)\nprint(torch.randn(3, 4))\n")])
    assert res.ok, res.error
    assert res.stdout == expected
