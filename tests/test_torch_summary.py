"""Without torch, the torch-marked tests are one summary line, not a wall of ``s``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_torch_tests_are_one_line_without_torch():
    env = dict(os.environ, AGRAD_TESTS_WITHOUT_TORCH="1", PYTHONPATH=str(REPO / "src"))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "tests/autograd/test_engine.py", "-k", "torch or random"],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    out = r.stdout
    assert "live comparison with PyTorch (marked torch) not run: torch is not installed" in out
    progress = [ln for ln in out.splitlines() if ln.endswith("%]")]
    assert all("s" not in ln.split(" [")[0] for ln in progress), out
