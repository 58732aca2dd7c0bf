"""agrad's warnings point at the caller's line, as PyTorch's do: a C++ warning is attributed to the Python line
that called into PyTorch, so ``import agrad as torch`` shows the user's file and line, never agrad's own."""

from __future__ import annotations

import warnings

import pytest

import agrad as torch
from agrad.lang import run

F = torch.nn.functional

CALLS = {
    "std with too few degrees of freedom": lambda: torch.tensor([1.0, 2.0]).std(dim=0, correction=5),
    "a non-leaf's .grad": lambda: (torch.ones(2, requires_grad=True) * 2).grad,
    "an out= resized": lambda: torch.add(torch.ones(2), 1, out=torch.empty(3)),
    "cov with no degrees of freedom": lambda: torch.cov(torch.ones(1, 1)),
    "torch.range": lambda: torch.range(0, 2),
    "a deprecated nn.init": lambda: torch.nn.init.normal(torch.empty(2, 2)),
    "softmax without dim": lambda: F.softmax(torch.ones(2, 2)),
    "a once-per-process warning": lambda: torch.tensor(1.0).adjoint(),
    "grid_sample without align_corners": lambda: F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2)),
    "Tensor.pin_memory(device=)": lambda: torch.ones(1).pin_memory(device="cpu"),
    "Tensor.is_pinned(device=)": lambda: torch.ones(1).is_pinned(device="cpu"),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_a_warning_points_at_the_callers_line(name):
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                CALLS[name]()
            except RuntimeError:  # (pin_memory raises where no accelerator is present: its warning comes first)
                pass
    finally:
        torch.set_warn_always(False)
    assert caught, f"{name}: no warning"
    line = CALLS[name].__code__.co_firstlineno
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)] * len(caught)


def test_a_script_keeps_the_engines_future_warnings():
    result = run("import torch\nw = torch.empty(2, 2)\ntorch.nn.init.normal(w)\n")
    assert result.ok
    assert [(w.category, w.line) for w in result.warnings] == [("FutureWarning", 3)]
    assert "nn.init.normal` is now deprecated" in result.warnings[0].message


def test_every_warning_of_the_engine_goes_through_warn():
    """A plain ``warnings.warn`` with a fixed stacklevel names an agrad file as soon as a wrapper is added
    in between; agrad/_warn_once.py's ``warn`` finds the caller instead."""
    import ast
    import pathlib

    package = pathlib.Path(torch.__file__).parent
    direct = []
    for path in package.rglob("*.py"):
        if path.name == "_warn_once.py" or "lang" in path.relative_to(package).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "warn" \
                    and isinstance(node.func.value, ast.Name) and "warnings" in node.func.value.id:
                direct.append(f"{path.relative_to(package)}:{node.lineno}")
    assert direct == []
