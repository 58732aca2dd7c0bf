"""Every float32 through ops/_tanh32.py against the double path it stands for (bit for bit).

    python tools/tanh32_exhaustive.py            # all 2**32 bit patterns (some minutes)
    python tools/tanh32_exhaustive.py --step 7   # every 7th chunk of 2**22 patterns (a sample)

Checks :func:`_tanh32.tanh`'s two ways (the steps: their table, their acceptance test, their
way out for the values they leave open; and the blocked double path ``_direct``) against glibc's double tanh rounded to float32, which is what
agrad's float32 tanh gives (``np.tanh(x, dtype=float64).astype(float32)``), NaN payloads and
the signs of zeros included, and reports how many values the fast path left to the double
path.  The tests run a sample (tests/test_tanh32.py); this is the whole of it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.environ.get("AGRAD_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")))
import agrad  # noqa: E402,F401  (first, as in the tests: numpy's kernels as agrad sets them up)
import numpy as np  # noqa: E402

from agrad.ops import _tanh32  # noqa: E402

CHUNK = 1 << 22


def exact(v):
    return np.tanh(v, dtype=np.float64).astype(np.float32)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--step", type=int, default=1, help="check every STEP-th chunk only")
    args = p.parse_args(argv)
    left = [0]

    def counted(v):
        left[0] += v.size
        return exact(v)

    start, checked, bad = time.time(), 0, 0
    base = np.arange(CHUNK, dtype=np.int64)
    for c in range(0, (1 << 32) // CHUNK, args.step):
        x = (base + c * CHUNK).astype(np.uint32).view(np.float32)
        want = exact(x).view(np.uint32)
        got = _tanh32._steps(x, counted).view(np.uint32)
        diff = np.flatnonzero(got != want)
        if not diff.size:
            got = _tanh32._direct(x).view(np.uint32)
            diff = np.flatnonzero(got != want)
        checked += x.size
        if diff.size:
            bad += diff.size
            i = diff[0]
            print(f"differs at {x[i]!r} (bits {x.view(np.uint32)[i]:#010x}): {got[i]:#010x} != {want[i]:#010x}"
                  f" ({diff.size} in this chunk)")
    print(f"{checked} float32 values checked, {bad} differ; {left[0]} left to the double path"
          f" ({100 * left[0] / checked:.2f}%), {time.time() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
