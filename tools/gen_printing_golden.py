#!/usr/bin/env python
"""Generate ``tests/golden/printing.json``: PyTorch's own ``repr`` of many tensors.

Run from the repository root with PyTorch installed::

    python tools/gen_printing_golden.py

Each case records everything :func:`agrad.printing.tensor_repr` needs to
reproduce PyTorch's output without torch:

``id``               unique test id
``data``             the values as a nested list (floats exact through JSON's
                     round-tripping ``repr``; non-finite as "nan"/"inf"/"-inf";
                     complex numbers as ``[real, imag]`` pairs; bfloat16 and
                     float16 as their exact float value)
``shape``            the tensor shape (needed for empty tensors)
``dtype``            torch dtype name without ``torch.``
``requires_grad``    ``tensor.requires_grad``
``grad_fn``          ``type(tensor.grad_fn).__name__`` or null
``default_dtype``    ``torch.get_default_dtype()`` while printing
``set_printoptions`` the keyword arguments given to ``torch.set_printoptions``
                     (after resetting to the default profile); ``"inf"`` for
                     an infinite threshold
``options``          the resulting ``torch._tensor_str.get_printoptions()``
``expected``         ``repr(tensor)``
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "printing.json"

NAN, INF = float("nan"), float("inf")


# --------------------------------------------------------------------------
# Case table
# --------------------------------------------------------------------------


class Case:
    """One golden case: how to build the tensor and the print settings."""

    def __init__(
        self,
        id: str,
        build: Callable[[], torch.Tensor],
        *,
        default_dtype: str = "float32",
        opts: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.build = build
        self.default_dtype = default_dtype
        self.opts = opts or {}


rng = np.random.default_rng(20240613)


def T(values: Any, dtype: str = "float32", requires_grad: bool = False) -> torch.Tensor:
    """A tensor of ``dtype`` from python/numpy values."""
    return torch.tensor(np.asarray(values), dtype=getattr(torch, dtype), requires_grad=requires_grad)


def randn(*shape: int, scale: float = 1.0, dtype: str = "float32") -> Callable[[], torch.Tensor]:
    values = rng.standard_normal(shape) * scale
    return lambda: T(values, dtype)


def rand(*shape: int, dtype: str = "float32") -> Callable[[], torch.Tensor]:
    values = rng.random(shape)
    return lambda: T(values, dtype)


def randint(lo: int, hi: int, *shape: int, dtype: str = "int64") -> Callable[[], torch.Tensor]:
    values = rng.integers(lo, hi, size=shape)
    return lambda: T(values, dtype)


def randbool(*shape: int) -> Callable[[], torch.Tensor]:
    values = rng.random(shape) < 0.5
    return lambda: T(values, "bool")


def randc(*shape: int, dtype: str = "complex64", scale: float = 1.0) -> Callable[[], torch.Tensor]:
    values = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * scale
    return lambda: T(values, dtype)


def const(values: Any, dtype: str = "float32", requires_grad: bool = False) -> Callable[[], torch.Tensor]:
    return lambda: T(values, dtype, requires_grad)


def leaf(builder: Callable[[], torch.Tensor]) -> torch.Tensor:
    return builder().requires_grad_(True)


def graph(op: Callable[[torch.Tensor], torch.Tensor], builder: Callable[[], torch.Tensor]) -> Callable[[], torch.Tensor]:
    """A non-leaf tensor: ``op`` applied to a leaf that requires grad."""
    return lambda: op(leaf(builder))


def cases() -> list[Case]:
    C = Case
    table = [
        # ---- 0-d ------------------------------------------------------
        C("scalar_int_valued", const(2.0)),
        C("scalar_int_valued_requires_grad", const(2.0, requires_grad=True)),
        C("scalar_exp_grad_fn", graph(torch.exp, const(2.0))),
        C("scalar_neg_zero", const(-0.0)),
        C("scalar_zero", const(0.0)),
        C("scalar_half", const(0.5)),
        C("scalar_pi", const(math.pi)),
        C("scalar_neg_fraction", const(-1.23456)),
        C("scalar_1e10", const(1e10)),
        C("scalar_1e8", const(1e8)),
        C("scalar_123456789_f64", const(123456789.0, "float64")),
        C("scalar_1e-5", const(1e-5)),
        C("scalar_1e-4_f32", const(1e-4)),
        C("scalar_1e-4_f64", const(1e-4, "float64")),
        C("scalar_nan", const(NAN)),
        C("scalar_inf", const(INF)),
        C("scalar_neg_inf", const(-INF)),
        C("scalar_float64", const(2.5, "float64")),
        C("scalar_float16", const(0.1, "float16")),
        C("scalar_bfloat16", const(1.7, "bfloat16")),
        C("scalar_int64", const(5, "int64")),
        C("scalar_int8", const(-7, "int8")),
        C("scalar_int16", const(-300, "int16")),
        C("scalar_int32", const(42, "int32")),
        C("scalar_uint8", const(255, "uint8")),
        C("scalar_bool_true", const(True, "bool")),
        C("scalar_bool_false", const(False, "bool")),
        C("scalar_complex64", const(1 + 2j, "complex64")),
        C("scalar_complex128", const(-0.5 - 1.5j, "complex128")),
        C("scalar_edgeitems0", const(1.0), opts={"edgeitems": 0}),
        C("scalar_sci_forced", const(3.0), opts={"sci_mode": True}),
        # ---- 1-d: number formats ------------------------------------
        C("vec_int_valued", const([1.0, 2.0, 3.0])),
        C("vec_mixed_fraction", const([1.5, -2.25, 3.0])),
        C("vec_fixed", const([0.1, 0.2, 0.3])),
        C("vec_small_ratio_sci", const([0.001, 0.0002, 0.5])),
        C("vec_ratio_exactly_1000", const([1.0, 1000.0])),
        C("vec_ratio_over_1000", const([1.5, 1501.625])),
        C("vec_large", const([1e9, 2e9])),
        C("vec_just_over_1e8", const([1.0e8 + 8, 3.0])),
        C("vec_tiny", const([1e-5, 2e-5])),
        C("vec_nan_inf_fraction", const([1.5, NAN, INF, -INF])),
        C("vec_nan_only", const([NAN, NAN])),
        C("vec_inf_int_valued", const([1.0, -INF, INF])),
        C("vec_zero_nan", const([0.0, NAN])),
        C("vec_all_zero", lambda: torch.zeros(5)),
        C("vec_neg_zero", const([-0.0, 0.0, -0.0])),
        C("vec_neg_zero_fraction", const([-0.0, 1.5])),
        C("vec_neg_tiny_and_zero", const([-1e-5, 0.0])),
        C("vec_int_valued_width", const([1.0, 10.0, NAN, -100.0])),
        C("vec_sci_with_nan", const([1e-7, NAN, 3e5])),
        C("vec_randn10", randn(10)),
        C("vec_randn30_wraps", randn(30)),
        C("vec_randn40_sci_wraps", randn(40, scale=1e5)),
        C("vec_arange100", lambda: torch.arange(100.0)),
        C("vec_linspace", lambda: torch.linspace(-1, 1, 17)),
        C("vec_large_int_valued", const([123456.0, -7.0, 99999999.0])),
        # ---- 1-d: dtypes --------------------------------------------
        C("vec_int64_arange", lambda: torch.arange(20)),
        C("vec_int64_big", const([1, -1234567890123, 42], "int64")),
        C("vec_int64_wraps", randint(-10**6, 10**6, 25)),
        C("vec_int8", randint(-128, 128, 12, dtype="int8")),
        C("vec_int16", randint(-30000, 30000, 9, dtype="int16")),
        C("vec_int32", randint(-(2**31), 2**31 - 1, 7, dtype="int32")),
        C("vec_uint8", randint(0, 256, 15, dtype="uint8")),
        C("vec_bool", const([True, False, True], "bool")),
        C("vec_bool_all_true", const([True, True], "bool")),
        C("vec_bool_random", randbool(30)),
        C("vec_float16", randn(8, dtype="float16")),
        C("vec_float16_extremes", const([65504.0, 1.0, 6.1e-5], "float16")),
        C("vec_bfloat16", randn(8, dtype="bfloat16")),
        C("vec_bfloat16_large", const([3.0e38, 1.0], "bfloat16")),
        C("vec_float64", randn(12, dtype="float64")),
        C("vec_float64_precise", const([1 / 3, 2 / 3, 1e-3], "float64")),
        C("vec_complex64", randc(5)),
        C("vec_complex128", randc(6, dtype="complex128", scale=10)),
        C("vec_complex_int_parts", const([1 + 1j, 2 - 3j, -0.0 + 0j], "complex64")),
        C("vec_complex_sci", const([1e-6 + 1j, 5 + 2e5j], "complex128")),
        C("vec_complex_wraps", randc(20)),
        # ---- 1-d: summarised ----------------------------------------
        C("vec_summarised_arange2000", lambda: torch.arange(2000.0)),
        C("vec_summarised_randn1500", randn(1500)),
        C("vec_summarised_int1001", randint(-1000, 1000, 1001)),
        C("vec_summarised_bool", randbool(1200)),
        C("vec_summarised_complex", randc(1100)),
        C("vec_exactly_threshold", randn(1000)),
        # ---- 2-d ------------------------------------------------------
        C("mat_rand3x3", rand(3, 3)),
        C("mat_randn4x5_x100", randn(4, 5, scale=100)),
        C("mat_2x40_wraps", randn(2, 40)),
        C("mat_summarised_40x30", randn(40, 30)),
        C("mat_summarised_rows_1100x1", randn(1100, 1)),
        C("mat_summarised_cols_1x1100", randn(1, 1100)),
        C("mat_summarised_int", randint(-50, 50, 30, 40)),
        C("mat_int64", randint(-100, 100, 3, 4)),
        C("mat_bool", randbool(3, 3)),
        C("mat_float64", randn(3, 3, dtype="float64")),
        C("mat_float16", randn(3, 4, dtype="float16")),
        C("mat_bfloat16", randn(2, 3, dtype="bfloat16")),
        C("mat_sci_mixed", const([[1e-8, 1.0], [100.0, 1e3]])),
        C("mat_nan", const([[1.0, NAN], [-INF, 0.25]])),
        C("mat_int_valued", const([[1.0, 2.0], [300.0, -4.0]])),
        C("mat_complex", randc(2, 2)),
        C("mat_1x1", const([[7.0]])),
        C("mat_column_5x1", randn(5, 1)),
        C("mat_row_1x30_wraps", randn(1, 30)),
        C("mat_uint8_image", randint(0, 256, 4, 8, dtype="uint8")),
        # ---- 3-d and more ---------------------------------------------
        C("t3_2x3x4", randn(2, 3, 4)),
        C("t4_2x2x2x3", randn(2, 2, 2, 3)),
        C("t3_summarised_12x10x10", randn(12, 10, 10)),
        C("t3_int", randint(0, 10, 2, 2, 3)),
        C("t3_bool", randbool(2, 2, 2)),
        C("t4_summarised_7x7x7x3", randn(7, 7, 7, 3)),
        C("t5_2x1x2x1x2", randn(2, 1, 2, 1, 2)),
        C("t3_3x1x1", randn(3, 1, 1)),
        C("t3_wrapping_rows", randn(2, 2, 15)),
        C("t3_float64_grad", lambda: leaf(randn(2, 2, 2, dtype="float64"))),
        # ---- empty ------------------------------------------------------
        C("empty_float32", lambda: torch.zeros(0)),
        C("empty_int64", lambda: torch.zeros(0, dtype=torch.int64)),
        C("empty_bool", lambda: torch.zeros(0, dtype=torch.bool)),
        C("empty_float64", lambda: torch.zeros(0, dtype=torch.float64)),
        C("empty_float16", lambda: torch.zeros(0, dtype=torch.float16)),
        C("empty_complex64", lambda: torch.zeros(0, dtype=torch.complex64)),
        C("empty_0x3", lambda: torch.zeros(0, 3)),
        C("empty_0x3_int64", lambda: torch.zeros(0, 3, dtype=torch.int64)),
        C("empty_2x0", lambda: torch.zeros(2, 0)),
        C("empty_2x0x3", lambda: torch.zeros(2, 0, 3)),
        C("empty_0x0", lambda: torch.zeros(0, 0)),
        C("empty_requires_grad", lambda: torch.zeros(0, requires_grad=True)),
        C("empty_0x3_float64_requires_grad", lambda: torch.zeros(0, 3, dtype=torch.float64, requires_grad=True)),
        C("empty_edgeitems0", lambda: torch.zeros(0), opts={"edgeitems": 0}),
        C("empty_2x0_edgeitems0", lambda: torch.zeros(2, 0), opts={"edgeitems": 0}),
        # ---- autograd suffixes ---------------------------------------------
        C("grad_mul", graph(lambda x: x * 2, randn(3))),
        C("grad_add", graph(lambda x: x + 1, randn(2, 2))),
        C("grad_sum", graph(torch.sum, randn(4))),
        C("grad_mm", graph(lambda x: x @ x, randn(3, 3))),
        C("grad_exp_vec", graph(torch.exp, randn(5))),
        C("grad_sigmoid", graph(torch.sigmoid, randn(4))),
        C("grad_relu", graph(torch.relu, randn(6))),
        C("grad_tanh_float64", graph(torch.tanh, randn(3, dtype="float64"))),
        C("grad_pow", graph(lambda x: x**2, randn(3))),
        C("grad_select", graph(lambda x: x[0], randn(2, 3))),
        C("grad_transpose", graph(lambda x: x.t(), randn(2, 3))),
        C("grad_view", graph(lambda x: x.view(6), randn(2, 3))),
        C("grad_unsqueeze", graph(lambda x: x.unsqueeze(0), randn(3))),
        C("grad_summarised", graph(lambda x: x * 3, randn(40, 40))),
        C("grad_float16", graph(lambda x: x * 2, randn(3, dtype="float16"))),
        C("grad_empty", graph(lambda x: x * 2, lambda: torch.zeros(0, 2))),
        C("grad_requires_grad_matrix_float64", lambda: leaf(randn(3, 3, dtype="float64"))),
    ]
    # Rows of n float64 values that end near the right margin, so that the
    # "dtype=..." and "requires_grad=True" suffixes wrap at different points.
    for n in range(4, 11):
        table.append(C(f"suffix_wrap_float64_{n}", lambda n=n: leaf(const(np.arange(n) - 0.5, "float64"))))
    for n in (7, 8, 9):
        table.append(C(f"suffix_wrap_grad_fn_{n}", graph(lambda x: x * 2, const(np.arange(n) + 0.25))))
    table += [
        # ---- default dtype float64 ---------------------------------------
        C("default64_float64_vec", randn(4, dtype="float64"), default_dtype="float64"),
        C("default64_float32_vec", randn(4), default_dtype="float64"),
        C("default64_complex128", randc(3, dtype="complex128"), default_dtype="float64"),
        C("default64_complex64", randc(3), default_dtype="float64"),
        C("default32_complex128", randc(3, dtype="complex128")),
        C("default64_int64", randint(0, 9, 4), default_dtype="float64"),
        C("default64_empty_float64", lambda: torch.zeros(0, dtype=torch.float64), default_dtype="float64"),
        C("default64_empty_float32", lambda: torch.zeros(0, 3), default_dtype="float64"),
        C("default64_bfloat16", randn(3, dtype="bfloat16"), default_dtype="float64"),
        C("default64_requires_grad", lambda: leaf(randn(2, 2, dtype="float64")), default_dtype="float64"),
        C("default64_scalar", const(1.0, "float64"), default_dtype="float64"),
        # ---- print options ------------------------------------------------
        C("opt_precision2", randn(6), opts={"precision": 2}),
        C("opt_precision6", randn(6), opts={"precision": 6}),
        C("opt_precision0", randn(6), opts={"precision": 0}),
        C("opt_precision0_sci", const([1e-6, 3.0]), opts={"precision": 0}),
        C("opt_precision10_float64", const([math.pi, math.e], "float64"), opts={"precision": 10}),
        C("opt_sci_true_int_valued", const([1.0, 2.0, 300.0]), opts={"sci_mode": True}),
        C("opt_sci_true_zeros", lambda: torch.zeros(3), opts={"sci_mode": True}),
        C("opt_sci_true_nan", const([NAN, 2.5]), opts={"sci_mode": True}),
        C("opt_sci_false_mixed", const([1e-8, 1e10, 0.5]), opts={"sci_mode": False}),
        C("opt_sci_false_huge_int_valued", const([1e20, 1.0]), opts={"sci_mode": False}),
        C("opt_sci_true_complex", randc(3), opts={"sci_mode": True}),
        C("opt_threshold5_edge2", lambda: torch.arange(10.0), opts={"threshold": 5, "edgeitems": 2}),
        C("opt_threshold5_edge1_matrix", randn(4, 4), opts={"threshold": 5, "edgeitems": 1}),
        C("opt_threshold0_vec7", lambda: torch.arange(7), opts={"threshold": 0}),
        C("opt_threshold0_vec6", lambda: torch.arange(6), opts={"threshold": 0}),
        C("opt_threshold0_scalar", const(3.5), opts={"threshold": 0}),
        C("opt_edge0_summarised_vec", lambda: torch.arange(5.0), opts={"threshold": 3, "edgeitems": 0}),
        C("opt_edge0_summarised_matrix", randn(2, 3), opts={"threshold": 3, "edgeitems": 0}),
        C("opt_edge0_not_summarised", randn(2, 3), opts={"edgeitems": 0}),
        C("opt_edge0_requires_grad", lambda: leaf(randn(3)), opts={"edgeitems": 0}),
        C("opt_edge5_summarised", randn(30, 40), opts={"edgeitems": 5}),
        C("opt_linewidth40", randn(20), opts={"linewidth": 40}),
        C("opt_linewidth120", randn(30), opts={"linewidth": 120}),
        C("opt_linewidth30_suffix", lambda: leaf(randn(2, 3, dtype="float64")), opts={"linewidth": 30}),
        C("opt_linewidth5", randn(4), opts={"linewidth": 5}),
        C("opt_profile_short", randn(10), opts={"profile": "short"}),
        C("opt_profile_short_summarised", randn(2000), opts={"profile": "short"}),
        C("opt_profile_short_precision3", randn(5), opts={"profile": "short", "precision": 3}),
        C("opt_profile_full", randint(0, 10, 1100), opts={"profile": "full"}),
        C("opt_profile_default", randn(2000), opts={"profile": "default"}),
        C("opt_threshold_inf", randint(0, 3, 30, 40, dtype="int8"), opts={"threshold": INF}),
        C("opt_3d_edge1", randn(5, 5, 5), opts={"threshold": 10, "edgeitems": 1}),
    ]
    return table


# --------------------------------------------------------------------------
# Encoding
# --------------------------------------------------------------------------


def encode_float(x: float) -> float | str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def encode_values(t: torch.Tensor) -> Any:
    """The tensor's values as an exact, JSON-safe nested list."""
    t = t.detach()
    if t.dtype.is_complex:
        values = t.to(torch.complex128).tolist()
        leaf_fn = lambda z: [encode_float(z.real), encode_float(z.imag)]  # noqa: E731
    elif t.dtype.is_floating_point:
        values = t.to(torch.float64).tolist()
        leaf_fn = encode_float
    else:
        values = t.tolist()
        leaf_fn = lambda v: v  # noqa: E731

    def walk(v: Any) -> Any:
        return [walk(x) for x in v] if isinstance(v, list) else leaf_fn(v)

    return walk(values)


def encode_option(value: Any) -> Any:
    return "inf" if isinstance(value, float) and math.isinf(value) else value


def run_case(case: Case) -> dict[str, Any]:
    torch.set_printoptions(profile="default")
    torch.set_default_dtype(getattr(torch, case.default_dtype))
    try:
        torch.set_printoptions(**case.opts)
        t = case.build()
        expected = repr(t)
        options = torch._tensor_str.get_printoptions()
    finally:
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)
    return {
        "id": case.id,
        "data": encode_values(t),
        "shape": list(t.shape),
        "dtype": str(t.dtype).removeprefix("torch."),
        "requires_grad": t.requires_grad,
        "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None,
        "default_dtype": case.default_dtype,
        "set_printoptions": {k: encode_option(v) for k, v in case.opts.items()},
        "options": {k: encode_option(v) for k, v in options.items()},
        "expected": expected,
    }


def main() -> int:
    table = cases()
    ids = [c.id for c in table]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise SystemExit(f"duplicate case ids: {sorted(duplicates)}")
    records = [run_case(c) for c in table]
    payload = {
        "torch_version": torch.__version__,
        "generator": "tools/gen_printing_golden.py",
        "cases": records,
    }
    # One line per case keeps the file diffable without one line per number.
    header = json.dumps({k: v for k, v in payload.items() if k != "cases"})[:-1]
    lines = [json.dumps(r, allow_nan=False) for r in records]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(header + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n")
    print(f"wrote {len(records)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
