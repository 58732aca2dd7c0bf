"""Shared helpers for the CLI tests: run ``agrad`` in-process, golden files."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from agrad.cli import cli

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = EXAMPLES / "backward_experiment.py"

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self):
        return json.loads(self.stdout)


def agrad(*args, input=None, env=None) -> Run:
    """Run ``agrad ARGS`` in-process; stdout and stderr kept apart."""
    runner = CliRunner()
    env = {"COLUMNS": None, **(env or {})}  # the width is 80 unless a test sets it
    result = runner.invoke(cli, [str(a) for a in args], input=input, env=env,
                           catch_exceptions=False, prog_name="agrad")
    return Run(result.exit_code, result.stdout, result.stderr)


def golden(name: str, text: str) -> None:
    """Compare ``text`` with ``golden/name``; AGRAD_REGEN_GOLDEN=1 rewrites it."""
    path = GOLDEN / name
    text = ADDRESS.sub(" at 0x…", text)
    if os.environ.get("AGRAD_REGEN_GOLDEN") or not path.exists():
        if not os.environ.get("AGRAD_REGEN_GOLDEN") and os.environ.get("CI"):
            pytest.fail(f"golden file {path} is missing")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.fixture
def in_repo(monkeypatch):
    """Run from the repository root, so example paths print as examples/..."""
    monkeypatch.chdir(REPO)
    return REPO
