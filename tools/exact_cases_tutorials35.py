"""Regression cases of session 35's tutorials work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = []
