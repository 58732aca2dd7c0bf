"""Fixtures for the script-language tests."""

from __future__ import annotations

import pytest

from agrad import _limits


@pytest.fixture(autouse=True)
def _restore_limits():
    """Tests may lower --max-elements; put the default back afterwards."""
    old = _limits.get_max_elements()
    yield
    _limits.set_max_elements(old)


@pytest.fixture
def run_ok():
    """Run a script that must succeed; return the RunResult."""
    from agrad.lang import run

    def _run(text, **kw):
        res = run(text, **kw)
        assert res.error is None, res.error.render()
        return res
    return _run


@pytest.fixture
def run_err():
    """Run a script that must fail; return the ScriptError."""
    from agrad.lang import run

    def _run(text, **kw):
        res = run(text, **kw)
        assert res.error is not None, f"expected an error, got stdout={res.stdout!r}"
        return res.error
    return _run
