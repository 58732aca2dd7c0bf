"""The table of agrad/ops/_tanh64.py: tanh(x0) as a double pair for each bucket's x0.

    python tools/gen_tanh64_table.py      # needs mpmath (torch's sympy brings it)

Writes src/agrad/ops/_tanh64_table.npy: float64 rows [hi, lo, om] with hi + lo tanh(x0) to
2**-100 relatively (hi the nearest double, lo the nearest double to the rest) and om the nearest
double to 1 - tanh(x0)**2, x0 from ``_tanh64.bucket_x0()`` (every double with 10 significant
bits in [2**-12, 19.5]).
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from agrad.ops import _tanh64  # noqa: E402


def main() -> int:
    mpmath.mp.prec = 200
    x0 = _tanh64.bucket_x0()
    rows = np.empty((x0.size, 3))
    for i, x in enumerate(x0.tolist()):
        t = mpmath.tanh(mpmath.mpf(x))
        hi = float(t)
        rows[i] = hi, float(t - hi), float(1 - t * t)
    np.save(_tanh64.TABLE, rows)
    print(f"{_tanh64.TABLE}: {x0.size} buckets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
