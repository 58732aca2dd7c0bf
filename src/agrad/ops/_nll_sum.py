"""The order of additions of nll_loss's 'sum' and 'mean' reductions (and of the weights' total).

ATen's CPU kernels (``nll_loss_out_frame`` in LossNLL.cpp, ``nll_loss2d_forward_out_frame`` in
LossNLL2d.cpp) do not call sum(): they walk the targets in order, one thread, and keep 8 partial
sums in the input's dtype.  Each element not ignored is subtracted from level 0 (``p0 -= x * w``);
after it, at an index b that is a multiple of 16, level 0 is added into level 1 and reset, and
so on up (level j into j + 1 when b is a multiple of 16^(j + 1)).  An ignored target skips the
element and its flush.  The result adds the 8 levels in order to 0.  The weights' total is the
same walk with ``+= w``.

This module makes those additions vectorised over the runs between flushes: each level's runs
are summed from zero, one element after the other, in the array's dtype.
"""

from __future__ import annotations

import numpy as np

_LEVELS = 8
_POWER = 4  # log2 of the run length: max(4, CeilLog2(n) / 8), 4 below 2**40 elements


def _run_sums(vals, ends, subtract):
    """Sums from zero, in order, of the runs of ``vals`` ending (inclusive) at positions ``ends``."""
    starts = np.concatenate(([0], ends[:-1] + 1))
    lens = ends - starts + 1
    acc = np.zeros(len(ends), vals.dtype)
    for k in range(int(lens.max()) if len(lens) else 0):
        sel = lens > k
        if sel.all():
            acc = acc - vals[starts + k] if subtract else acc + vals[starts + k]
        else:
            v = vals[starts[sel] + k]
            acc[sel] = acc[sel] - v if subtract else acc[sel] + v
    return acc


def cascade_total(vals, index, subtract=False):
    """``vals`` (1-D, the values of the targets not ignored, in order) at linear ``index`` (their
    positions among all targets) added as ATen's nll_loss kernels add them; ``subtract``: level 0
    subtracts (the loss), else adds (the weights).  Returns a 0-d array of vals' dtype."""
    dtype = vals.dtype
    partials = []
    cur, idx = vals, index
    for j in range(_LEVELS):
        if j == _LEVELS - 1 or not len(idx):
            flush = np.zeros(0, np.int64)
        else:
            flush = np.flatnonzero(idx % (1 << (_POWER * (j + 1))) == 0)
        sub = subtract and j == 0
        n = len(cur)
        last = int(flush[-1]) if len(flush) else -1
        if last + 1 < n:  # the run after the last flush stays at this level
            partials.append(_run_sums(cur[last + 1:], np.array([n - last - 2]), sub)[0])
        else:
            partials.append(dtype.type(0))
        if not len(flush):
            partials.extend([dtype.type(0)] * (_LEVELS - 1 - j))
            break
        cur, idx = _run_sums(cur[:last + 1], flush, sub), idx[flush]
    out = np.zeros((), dtype)
    for p in partials:
        out = out + p
    return np.asarray(out, dtype)
