"""Suite-wide: tests marked ``torch`` are one summary line when PyTorch is absent.

Without torch they are deselected at collection (no wall of ``s``) and the
terminal summary says how many there were and why.  ``AGRAD_TESTS_WITHOUT_TORCH=1``
runs the suite as if torch were not installed.  Where torch is installed, a test not marked ``torch``
that reaches it fails (:func:`_torch_only_where_marked`), so the suite keeps passing without it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types

import pytest

# agrad reproduces PyTorch's AVX2 kernels; live comparisons must not get the AVX-512 ones
# on a machine that has them (tools/torch_reference.py says more) ...
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
# ... and agrad, imported before any test imports numpy, asks numpy for its AVX2 kernels
# (src/agrad/__init__.py), so the goldens hold on every machine.
# this checkout's src first: a second worktree's tests test its own code, not the installed copy's
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
import agrad  # noqa: E402, F401


def _torch_missing() -> bool:
    if os.environ.get("AGRAD_TESTS_WITHOUT_TORCH"):
        return True
    return importlib.util.find_spec("torch") is None


def pytest_collection_modifyitems(config, items):
    if not _torch_missing():
        return
    live = [it for it in items if it.get_closest_marker("torch") is not None]
    if not live:
        return
    config.hook.pytest_deselected(items=live)
    keep = set(map(id, live))
    items[:] = [it for it in items if id(it) not in keep]
    config._agrad_torch_deselected = len(live)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    n = getattr(config, "_agrad_torch_deselected", 0)
    if n:
        terminalreporter.write_line(
            f"agrad: {n} live comparison{'s' if n != 1 else ''} with PyTorch (marked torch) not run: "
            "torch is not installed (the golden files still check every op)")


class _TorchNotMarked(types.ModuleType):
    """What ``import torch`` gives a test that is not marked ``torch``: any use of it fails the test."""

    def __getattr__(self, name):
        if name.startswith("__"):  # (a module's dunders, which tools scanning sys.modules read: absent)
            raise AttributeError(name)
        raise AssertionError("this test uses torch but is not marked @pytest.mark.torch: without PyTorch "
                             "installed it would fail (mark it, or keep torch out of it)")


@pytest.fixture(autouse=True)
def _torch_only_where_marked(request):
    """A test not marked ``torch`` must pass without PyTorch: while it runs, ``import torch`` (and
    ``pytest.importorskip("torch")``) gives a stand-in whose every attribute fails the test."""
    if request.node.get_closest_marker("torch") is not None:
        yield
        return
    saved = sys.modules.get("torch")
    sys.modules["torch"] = _TorchNotMarked("torch")
    try:
        yield
    finally:
        if saved is None:
            del sys.modules["torch"]
        else:
            sys.modules["torch"] = saved


@pytest.fixture(autouse=True)
def _fresh_warn_once():
    """Each test sees PyTorch's once-per-process warnings afresh (agrad/_warn_once.py)."""
    module = sys.modules.get("agrad._warn_once")
    if module is not None:
        module.reset()
