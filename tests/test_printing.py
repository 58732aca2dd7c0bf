"""Tests for agrad.printing: PyTorch-identical tensor reprs.

The golden cases (tests/golden/printing.json, made by
tools/gen_printing_golden.py) need no torch; the ``torch``-marked class
compares random tensors against an installed PyTorch live.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agrad import printing
from agrad.printing import (
    PrintOptions,
    get_printoptions,
    printoptions,
    set_printoptions,
    tensor_repr,
)

GOLDEN = Path(__file__).parent / "golden" / "printing.json"

#: numpy storage type for each torch dtype name (bfloat16 travels as float32).
NUMPY_DTYPES = {
    "float16": np.float16,
    "bfloat16": np.float32,
    "float32": np.float32,
    "float64": np.float64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "bool": np.bool_,
    "complex64": np.complex64,
    "complex128": np.complex128,
}


def _load_cases() -> list[dict[str, Any]]:
    return json.loads(GOLDEN.read_text())["cases"]


CASES = _load_cases()


def _decode_option(value: Any) -> Any:
    return math.inf if value == "inf" else value


def _decode_leaf(value: Any) -> Any:
    return float(value) if isinstance(value, str) else value


def _decode_data(case: dict[str, Any]) -> np.ndarray:
    """Rebuild the exact numpy array a golden case describes."""

    def walk(v: Any) -> Any:
        return [walk(x) for x in v] if isinstance(v, list) else _decode_leaf(v)

    shape = tuple(case["shape"])
    dtype = case["dtype"]
    if dtype.startswith("complex"):
        pairs = np.array(walk(case["data"]), dtype=np.float64).reshape(shape + (2,))
        values = pairs[..., 0] + 1j * pairs[..., 1]
    elif dtype in ("bool",) or dtype.startswith(("int", "uint")):
        values = np.array(case["data"], dtype=NUMPY_DTYPES[dtype]).reshape(shape)
        return values
    else:
        values = np.array(walk(case["data"]), dtype=np.float64).reshape(shape)
    return values.astype(NUMPY_DTYPES[dtype])


def _case_options(case: dict[str, Any]) -> PrintOptions:
    return PrintOptions(**{k: _decode_option(v) for k, v in case["options"].items()})


def _render(case: dict[str, Any], **extra: Any) -> str:
    return tensor_repr(
        _decode_data(case),
        case["dtype"],
        requires_grad=case["requires_grad"],
        grad_fn=case["grad_fn"],
        default_dtype=case["default_dtype"],
        **extra,
    )


@pytest.fixture(autouse=True)
def _default_printoptions():
    """Every test starts and ends with the default module-wide options."""
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


# --------------------------------------------------------------------------
# Golden cases
# --------------------------------------------------------------------------


def test_golden_file_is_big_enough():
    assert len(CASES) >= 150
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_with_options_argument(case):
    assert _render(case, options=_case_options(case)) == case["expected"]


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c["set_printoptions"]],
    ids=[c["id"] for c in CASES if c["set_printoptions"]],
)
def test_golden_with_set_printoptions(case):
    """The same cases through the module-wide options, set like torch's."""
    kwargs = {k: _decode_option(v) for k, v in case["set_printoptions"].items()}
    set_printoptions(**kwargs)
    assert get_printoptions() == {k: _decode_option(v) for k, v in case["options"].items()}
    assert _render(case) == case["expected"]


# --------------------------------------------------------------------------
# Options API
# --------------------------------------------------------------------------


def test_default_options():
    assert get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }
    assert dict(PrintOptions().__dict__) == get_printoptions()


def test_profiles():
    set_printoptions(profile="short")
    assert get_printoptions() == {
        "precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80, "sci_mode": None,
    }
    set_printoptions(profile="full", precision=6)
    opts = get_printoptions()
    assert opts["threshold"] == math.inf and opts["precision"] == 6 and opts["edgeitems"] == 3
    set_printoptions(profile="default")
    assert get_printoptions()["threshold"] == 1000


def test_sci_mode_resets_when_omitted():
    # torch.set_printoptions always assigns sci_mode.
    set_printoptions(sci_mode=True)
    assert get_printoptions()["sci_mode"] is True
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None


def test_printoptions_context_manager_restores():
    with printoptions(precision=2, sci_mode=False):
        assert tensor_repr(np.array([1.23456], np.float32), "float32") == "tensor([1.23])"
    assert get_printoptions()["precision"] == 4
    assert get_printoptions()["sci_mode"] is None


def test_module_options_used_by_default():
    set_printoptions(threshold=5, edgeitems=1)
    assert tensor_repr(np.arange(10), "int64") == "tensor([0,  ..., 9])"
    # An explicit options argument wins over the module-wide ones.
    assert tensor_repr(np.arange(10), "int64", options=PrintOptions()) == (
        "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"
    )


# --------------------------------------------------------------------------
# Hand-checked behaviour
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "dtype", "kwargs", "expected"),
    [
        (np.float32(2.0), "float32", {"requires_grad": True}, "tensor(2., requires_grad=True)"),
        (np.float32(7.389056), "float32", {"grad_fn": "ExpBackward0"}, "tensor(7.3891, grad_fn=<ExpBackward0>)"),
        (np.zeros((0, 3), np.float32), "float32", {}, "tensor([], size=(0, 3))"),
        (np.zeros(0, np.int64), "int64", {}, "tensor([], dtype=torch.int64)"),
        (np.array([1e10], np.float32), "float32", {}, "tensor([1.0000e+10])"),
        (np.array([-0.0, 1.0], np.float32), "float32", {}, "tensor([-0., 1.])"),
        (np.array([True, False]), "bool", {}, "tensor([ True, False])"),
        (np.array([1.5], np.float64), "float64", {"default_dtype": "float64"}, "tensor([1.5000])"),
        (np.array([1.5], np.float32), "float32", {"default_dtype": "float64"}, "tensor([1.5000], dtype=torch.float32)"),
    ],
)
def test_known_reprs(data, dtype, kwargs, expected):
    assert tensor_repr(data, dtype, **kwargs) == expected


def test_accepts_lists_and_converts_dtype():
    assert tensor_repr([1, 2, 3], "float32") == "tensor([1., 2., 3.])"
    assert tensor_repr([0, 1], "bool") == "tensor([False,  True])"


def test_unknown_dtype_rejected():
    with pytest.raises(ValueError, match="unsupported dtype"):
        tensor_repr(np.zeros(2), "float8")


def test_summarised_large_tensor_shows_only_its_edges():
    # (its speed is a benchmark's business: a 1000x1000 repr takes well under a millisecond)
    data = np.arange(1_000_000, dtype=np.float32).reshape(1000, 1000)
    lines = tensor_repr(data, "float32").splitlines()
    assert len(lines) == 13 and lines[6].strip() == "...,"
    assert lines[0] == "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9700e+02, 9.9800e+02,"
    assert lines[-1].strip() == "1.0000e+06]])"


def test_summary_formats_only_shown_elements(monkeypatch):
    """Elements hidden by summarisation never reach the per-element formatter."""
    seen = []
    original = printing._format_elements

    def spy(shown, dtype, options):
        seen.append(shown.size)
        return original(shown, dtype, options)

    monkeypatch.setattr(printing, "_format_elements", spy)
    tensor_repr(np.zeros((500, 400, 30)), "float32")
    assert seen == [6 * 6 * 6]


# --------------------------------------------------------------------------
# Live comparison with PyTorch
# --------------------------------------------------------------------------


def _random_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Values that stress the format choice: mixed scales, whole numbers, specials."""
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(NUMPY_DTYPES[dtype])
        hi = int(min(info.max, 10 ** rng.integers(1, 12)))
        lo = max(int(info.min), -hi)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(NUMPY_DTYPES[dtype])
    if dtype.startswith("complex"):
        real = _random_values(rng, shape, "float64")
        imag = _random_values(rng, shape, "float64")
        values = np.empty(shape, dtype=np.complex128)
        values.real, values.imag = real, imag  # no 1j * inf = nan+infj surprises
        return values.astype(NUMPY_DTYPES[dtype])

    kind = rng.integers(0, 5)
    scale = 10.0 ** rng.uniform(-9, 11)
    if kind == 0:  # whole numbers
        values = np.round(rng.standard_normal(shape) * rng.choice([1, 10, 1000, 1e9]))
    elif kind == 1:  # one scale
        values = rng.standard_normal(shape) * scale
    elif kind == 2:  # mixed scales
        values = rng.standard_normal(shape) * 10.0 ** rng.uniform(-6, 9, size=shape)
    elif kind == 3:  # moderate numbers
        values = rng.uniform(-10, 10, size=shape)
    else:  # short decimals
        values = np.round(rng.uniform(-100, 100, size=shape), int(rng.integers(0, 4)))
    values = np.asarray(values, dtype=np.float64)
    if values.size and rng.random() < 0.4:
        specials = np.array([0.0, -0.0, np.nan, np.inf, -np.inf])
        mask = rng.random(shape) < 0.2
        values = np.where(mask, rng.choice(specials, size=shape), values)
    if dtype == "float16":
        with np.errstate(over="ignore"):  # overflow to inf is a case worth printing
            return values.astype(np.float16)
    return values.astype(np.float32 if dtype == "bfloat16" else NUMPY_DTYPES[dtype])


@pytest.mark.torch
class TestAgainstTorch:
    """Random tensors and options, compared with an installed PyTorch."""

    DTYPES = list(NUMPY_DTYPES)

    @pytest.fixture(autouse=True)
    def torch_mod(self):
        torch = pytest.importorskip("torch")
        torch.set_printoptions(profile="default")
        yield torch
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)

    def _compare(self, torch, data, dtype, *, requires_grad=False, default_dtype="float32", opts=None):
        opts = opts or {}
        torch.set_default_dtype(getattr(torch, default_dtype))
        torch.set_printoptions(profile="default")
        torch.set_printoptions(**opts)
        t = torch.tensor(data, dtype=getattr(torch, dtype))
        if dtype == "bfloat16":
            data = t.float().numpy()  # agrad stores bfloat16 values as float32
        if requires_grad:
            t.requires_grad_(True)
        expected = repr(t)
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)

        set_printoptions(**opts)
        options = PrintOptions(**get_printoptions())
        set_printoptions(profile="default")
        got = tensor_repr(
            data, dtype, requires_grad=requires_grad, default_dtype=default_dtype, options=options
        )
        assert got == expected, f"dtype={dtype} opts={opts}\n{data!r}"

    @pytest.mark.parametrize("seed", range(40))
    def test_random_tensors(self, torch_mod, seed):
        rng = np.random.default_rng(1000 + seed)
        for _ in range(10):
            ndim = int(rng.integers(0, 5))
            max_side = [1, 60, 30, 12, 6][ndim]
            shape = tuple(int(rng.integers(0 if rng.random() < 0.05 else 1, max_side + 1)) for _ in range(ndim))
            dtype = str(rng.choice(self.DTYPES))
            requires_grad = dtype in ("float16", "bfloat16", "float32", "float64") and rng.random() < 0.3
            opts: dict[str, Any] = {}
            if rng.random() < 0.3:
                opts["precision"] = int(rng.integers(0, 8))
            if rng.random() < 0.3:
                opts["threshold"] = int(rng.integers(0, 200))
            if rng.random() < 0.3:
                opts["edgeitems"] = int(rng.integers(0, 5))
            if rng.random() < 0.3:
                opts["linewidth"] = int(rng.integers(20, 150))
            if rng.random() < 0.2:
                opts["sci_mode"] = bool(rng.random() < 0.5)
            default_dtype = "float64" if rng.random() < 0.2 else "float32"
            data = _random_values(rng, shape, dtype)
            self._compare(
                torch_mod, data, dtype,
                requires_grad=requires_grad, default_dtype=default_dtype, opts=opts,
            )

    def test_large_summarised(self, torch_mod):
        rng = np.random.default_rng(7)
        for dtype in ("float32", "float64", "int64", "bool", "float16"):
            self._compare(torch_mod, _random_values(rng, (1000, 1000), dtype), dtype)
