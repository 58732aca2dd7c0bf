"""Width-aware output: --columns, the terminal, $COLUMNS, 80; golden views at 60, 80, 120, 200."""

from __future__ import annotations

import io

import pytest

from agrad.render.console import resolve_width

from .conftest import SEED, agrad, golden

WIDTHS = (60, 80, 120, 200)
WIDE = ("x = arange(12.).reshape(3, 4).requires_grad_()\n"
        "w = linspace(0, 1, 7, requires_grad=True)\n"
        "a_rather_long_variable_name = (x.sum() * w).sum()\n")
PROTECTED = ("requires_grad", "is_leaf", "grad_fn", "MeanBackward0", "input_data")


def _check_width(text: str, width: int) -> None:
    for line in text.splitlines():
        assert len(line) <= width, (width, line)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("fmt", ["text", "rich"])
def test_eval_seed_golden_at_width(in_repo, width, fmt):
    r = agrad("eval", SEED, "--format", fmt, "--columns", width)
    assert r.code == 0
    table = r.stdout.split("\n\n", 1)[1]  # after the script's own output
    golden(f"width_eval_seed_{fmt}_{width}.txt", table)
    _check_width(table, width)
    for word in PROTECTED:
        assert word in table  # never dropped, shortened or split
    assert "…" not in table  # nothing here needs cutting: the block layout keeps it whole


@pytest.mark.parametrize("width", WIDTHS)
def test_eval_cuts_values_not_the_other_columns(width):
    r = agrad("eval", "-", "--format", "text", "--columns", width, "--no-backward", input=WIDE)
    golden(f"width_eval_wide_{width}.txt", r.stdout)
    _check_width(r.stdout, width)
    for word in ("a_rather_long_variable_name", "requires_grad", "is_leaf", "grad_fn", "SumBackward0"):
        assert word in r.stdout
    if width == 120:  # a table: the value and grad columns were cut with …
        assert r.stdout.startswith("name  ") and "…" in r.stdout
    if width == 60:  # one block per tensor
        assert "\n    value " in r.stdout


@pytest.mark.parametrize("width", WIDTHS)
def test_graph_golden_at_width(in_repo, width):
    r = agrad("graph", "examples/backward_experiment.py", "--format", "text", "--saved", "--columns", width)
    golden(f"width_graph_seed_{width}.txt", r.stdout)
    _check_width(r.stdout, width)
    lines = r.stdout.splitlines()
    # the tree is never cut: every line keeps its guides, id and node name
    assert [ln.split("#", 1)[0] for ln in lines if "#" in ln][:4] == ["", "↳ ", "├─ ", "│  ├─ "]
    assert all("Backward0" in ln or "AccumulateGrad" in ln for ln in lines if "#" in ln)


def test_graph_lines_cut_the_source_text_first():
    code = ("x = tensor(1.0, requires_grad=True)\n"
            "y = x * 2 + x * 3 + x * 4 + x * 5 + x * 6 + x * 7 + x * 8 + x * 9 + x * 10 + x * 11\n")
    r = agrad("graph", "-", "--format", "text", "--columns", 60, input=code)
    first = r.stdout.splitlines()[0]
    assert len(first) == 60
    assert first.startswith("#0 AddBackward0  [] float32  y = x * 2 + x")
    assert "…" in first and first.endswith("<stdin>:2:5")


def test_deep_graph_stays_within_width():
    code = "x = tensor(1.0, requires_grad=True)\ny = x\nfor i in range(60):\n    y = y*y*0 + y\n"
    for width in (60, 200):
        r = agrad("graph", "-", "--format", "text", "--columns", width, input=code)
        _check_width(r.stdout, width)
        assert "\n↓ #" in r.stdout  # deep inputs moved to blocks below


class _Tty(io.StringIO):
    def __init__(self, fd):
        super().__init__()
        self._fd = fd

    def isatty(self):
        return True

    def fileno(self):
        return self._fd


def test_width_order(monkeypatch):
    monkeypatch.setenv("COLUMNS", "133")
    assert resolve_width(70, (io.StringIO(),)) == 70  # --columns first
    assert resolve_width(None, (io.StringIO(),)) == 133  # then $COLUMNS when nothing is a terminal
    monkeypatch.setattr("os.get_terminal_size", lambda fd: type("S", (), {"columns": 91 + fd})())
    assert resolve_width(None, (io.StringIO(), _Tty(2))) == 93  # the terminal beats $COLUMNS
    monkeypatch.delenv("COLUMNS")
    assert resolve_width(None, (io.StringIO(),)) == 80  # piped, no $COLUMNS: 80


def test_columns_env_and_piped_default():
    long = "y = ones(3, requires_grad=True) * " + " + ".join(["1.0"] * 30)
    r = agrad("eval", "-e", long, "--format", "text", env={"COLUMNS": "70"})
    _check_width(r.stdout, 70)
    r = agrad("eval", "-e", long, "--format", "text")
    _check_width(r.stdout, 80)
    assert agrad("eval", "-e", "y = 1", "--columns", "5").code == 2  # too narrow to draw anything
