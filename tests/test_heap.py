"""agrad._heap: glibc's thresholds for numpy's temporaries, set at import unless AGRAD_MALLOPT=0."""

import os
import subprocess
import sys

import pytest

from agrad import _heap

_SRC = os.path.join(os.path.dirname(__file__), "..", "src")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_set_on_linux_and_left_alone_on_request(monkeypatch):
    assert _heap.keep_temporaries() is True
    monkeypatch.setenv("AGRAD_MALLOPT", "0")
    assert _heap.keep_temporaries() is False


def test_import_runs_with_the_setting_off():
    env = dict(os.environ, AGRAD_MALLOPT="0", PYTHONPATH=_SRC)
    out = subprocess.run([sys.executable, "-c", "import agrad; print(float(agrad.tensor([1.5, 2.0]).sum()))"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3.5"
