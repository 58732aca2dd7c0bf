"""Regression cases of issue 10's error groups from the fresh runs (helper "diff"), and the shift operators.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


_INTS = ["i8 = torch.tensor([1, -1, 5, -128, 127], dtype=torch.int8)",
         "u8 = torch.tensor([1, 255, 5, 128], dtype=torch.uint8)",
         "i16 = torch.tensor([1, -1, 5, -7], dtype=torch.int16)",
         "i32 = torch.tensor([1, -1, 5, -7], dtype=torch.int32)",
         "i64 = torch.tensor([1, -1, 5, -7])", "f = torch.tensor([1., 2.])", "b = torch.tensor([True, False])"]

CASES = [
    case("shift-values",
         _INTS,
         ["i8 << 1", "i8 << 7", "i8 << 8", "i8 << -1", "i8 >> 1", "i8 >> 7", "i8 >> 8", "i8 >> -1", "i8 << 260",
          "i8 >> 260", "u8 << 1", "u8 >> 1", "u8 << 8", "u8 >> 8", "u8 << -1", "u8 >> -1", "u8 << 257",
          "i16 << 16", "i16 >> 16", "i16 << 15", "i32 << 32", "i32 >> 32", "i32 << 31", "i64 << 63", "i64 << 64",
          "i64 >> 64", "i64 << -1", "i64 >> -1", "i64 >> 63", "torch.tensor([3]) << 2 ** 63",
          "torch.tensor(2 ** 62) << 1", "torch.tensor(-2 ** 62) << 2", "torch.tensor(2 ** 40) >> 3",
          "i64 << torch.tensor([0, 1, 64, -1])", "i64 >> torch.tensor([0, 1, 64, -1])",
          "u8 << torch.tensor([1, 2, 3, 4], dtype=torch.int8)", "torch.tensor(5, dtype=torch.uint8) << i64",
          "b << 1", "b << i64[:2]", "1 << i64", "True << i64", "i64 << True", "i8.__rlshift__(2)",
          "i8.__rrshift__(2)", "i8.__rlshift__(torch.tensor(3))", "torch.bitwise_left_shift(i64, 2)",
          "torch.bitwise_left_shift(2, i64)", "torch.bitwise_right_shift(i64, 1)", "i64.bitwise_left_shift(2)",
          "i64.bitwise_right_shift(i64)", "torch.bitwise_left_shift(i64, 1, out=torch.empty(4, dtype=torch.int64))"]),
    case("shift-in-place",
         _INTS,
         ["i64.clone().bitwise_left_shift_(2)", "i8.clone().bitwise_left_shift_(torch.tensor([1]))",
          "u8.clone().bitwise_right_shift_(-1)", "i8.clone().__ilshift__(1)", "i8.clone().__irshift__(i8)",
          "i64.clone().bitwise_not_()", "b.clone().bitwise_not_()", "u8.clone().bitwise_not_()"]),
    case("shift-errors",
         _INTS,
         ["f << 1", "f >> 1", "f << f", "i64 << f", "i64 << 1.5", "i64 >> 1.5", "b << b", "b >> b", "b << True",
          "i64 << b", "1.5 << i64", "torch.tensor([1], dtype=torch.float16) << 1", "i8.__rlshift__(2.5)",
          "i64.__lshift__('a')", "i64.__lshift__(None)", "i64[:2] << i64[:3]", "torch.tensor(2) << torch.tensor([1.5])",
          "torch.bitwise_left_shift(f, 1)", "torch.bitwise_left_shift(i64, 1.5)", "torch.bitwise_left_shift(1.5, i64)",
          "torch.bitwise_left_shift(1, 2)", "torch.bitwise_left_shift(i64, 'a')", "torch.bitwise_left_shift(i64, None)",
          "i64.bitwise_right_shift()", "torch.bitwise_right_shift(i64)", "i64.clone().bitwise_left_shift_(f[:1])",
          "i8.clone().__ilshift__(1.5)", "i8.clone().__irshift__(torch.ones(2, 5, dtype=torch.int8))",
          "f.clone().bitwise_right_shift_(1)", "b.clone().bitwise_right_shift_(1)", "f.clone().bitwise_not_()",
          "torch.tensor([1.], requires_grad=True) << 1", "torch.tensor([1.], requires_grad=True).bitwise_left_shift_(1)",
          "i64.bitwise_not_(1)"]),
]
