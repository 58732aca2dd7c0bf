"""Full collections of the cyclic garbage collector, paced to a share of the CPU time.

agrad's graphs are acyclic and freed by reference counting (a saved output is a
second tensor object, not the output itself: see ``autograd.graph.SavedTensor``),
yet every node, saved tensor and edge tuple is an object the cyclic collector
tracks: a 10^6-op chain leaves about ten million of them.  CPython runs a full
collection each time the long-lived heap has grown by a quarter, and each one
walks the whole heap again (about 0.5 us an object): on such a chain most of
the forward pass, to find nothing.

Under :class:`Pacer` the young collections run (they walk only new objects,
and most cycles die young).  A full collection that CPython asks for
runs when one of these holds:

* the collections since the last full one found garbage (more than a
  thousandth of the heap): a run that makes cycles gets CPython's schedule;
* its cost, predicted from the last one's and the heap's growth since
  (``sys.getallocatedblocks``), is within ``share`` of the CPU time since the
  last one ended: a run whose heap stops growing is walked again soon.

Otherwise it walks nothing: the old objects are frozen (``gc.freeze``), and
the next full collection that runs unfreezes and walks all of them, so every
cycle is still found, only later.  (What was frozen before the first
deferral -- the command line freezes its imported modules -- stays frozen
until then.)  A run that builds a large graph and makes no cycles then spends
a few per cent of its time in the collector instead of most of it.  What
waits longest: cycles made only among long-lived objects while the heap
keeps growing, found once the growth stops (or freed with the process; a
contained run's memory limit still applies).

Young collections walk objects again too: one that outlives a generation-0
collection is walked again by the next generation-1 one, which CPython runs
after ten of them, over everything they let through (about 7,000 objects, no
longer in the processor's cache: an object costs about four times what it
costs in a generation-0 walk; most of the young collections' time on a deep
chain).  ``install(young=True)`` (the command line's) runs a generation-1
collection after each generation-0 one instead (threshold 0: about 1,400
objects, still cached) while the collections find no more garbage than the
first rule above allows; once they find more, CPython's threshold is back
until a full collection finds less.  What waits longer then: cycles that die
after about 1,400 allocations but before 7,700, found by the next full
collection instead of a young one.

The command line runs scripts under it (``agrad.cli``: a process of its own;
:func:`paced` sets it up).
The library does not install it on import: an explicit ``gc.collect()`` in the
same process may find frozen cycles too late for a caller who counts on it.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time

#: The share of CPU time full collections may take.
SHARE = 0.05

#: The collector's thresholds under :func:`paced` (CPython's first two), and the
#: generation-1 threshold while collections find no garbage (``install(young=True)``).
THRESHOLDS = (700, 10, 100)
FAST_YOUNG = 0


class Pacer:
    """A ``gc.callbacks`` entry that defers full collections (see the module's doc)."""

    def __init__(self, share: float = SHARE, clock=time.process_time, blocks=sys.getallocatedblocks):
        self.share = share
        self.clock = clock
        self.blocks = blocks
        self.cost = 0.0  # CPU seconds of the last full collection
        self.ended = clock()  # when it ended
        self.size = blocks()  # allocated blocks when it started
        self.found = 0  # objects collected since it started
        self.started = None  # (clock, blocks) of the full collection running now
        self.full = 0  # full collections run
        self.deferred = 0  # full collections deferred (old objects frozen instead)
        self.froze = False  # objects are frozen by a deferral (not only what was frozen before)
        self.young = None  # generation-1 threshold before install(young=True); None: not paced
        self.fast = False  # FAST_YOUNG is set (no garbage found)

    def __call__(self, phase: str, info: dict) -> None:
        if info["generation"] != 2:
            if phase == "stop":
                self.found += info["collected"]
                if self.fast and self.found * 1000 > self.size:
                    self._young(False)  # a run that makes cycles: CPython's schedule
            return
        if phase == "start":
            now, size = self.clock(), self.blocks()
            if now < self.ended:  # a forked child: its CPU clock started again
                self.ended = now
            predicted = self.cost * size / max(self.size, 1)
            if self.found * 1000 > self.size or predicted <= self.share * (now - self.ended):
                if self.froze:  # this collection walks every object, the deferred ones too
                    gc.unfreeze()
                    self.froze = False
                self.started = (now, size)
                self.full += 1
            else:
                gc.freeze()  # nothing left to walk: the old objects wait for the next one
                self.froze = True
                self.deferred += 1
        elif self.started is not None:
            start, size = self.started
            self.started = None
            self.ended = self.clock()
            self.cost = self.ended - start
            self.size = size
            self.found = info["collected"]
            if self.young is not None:
                self._young(self.found * 1000 <= size)

    def _young(self, fast: bool) -> None:
        self.fast = fast
        t0, _t1, t2 = gc.get_threshold()
        gc.set_threshold(t0, FAST_YOUNG if fast else self.young, t2)

    def install(self, young: bool = False) -> "Pacer":
        """Pace full collections; with ``young``, the generation-1 threshold too (see the
        module's doc; ``remove`` sets it back)."""
        gc.callbacks.append(self)
        if young:
            self.young = gc.get_threshold()[1]
            self._young(self.found * 1000 <= self.size)
        return self

    def remove(self) -> None:
        """Stop pacing; the objects deferrals froze are given back to the collector (and
        what was frozen before them, with them: ``gc`` cannot tell the two apart)."""
        try:
            gc.callbacks.remove(self)
        except ValueError:
            pass
        if self.froze:
            gc.unfreeze()
            self.froze = False
        if self.young is not None:
            self._young(False)
            self.young = None


@contextlib.contextmanager
def paced():
    """Run a script under the pacer, as the command line does: the objects made so far
    (imported modules) frozen, CPython's generation thresholds with the pacer's young
    schedule; the collector's thresholds and frozen objects are given back after."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    pacer = Pacer().install(young=True)
    try:
        yield pacer
    finally:
        pacer.remove()
        gc.set_threshold(*threshold)
        gc.unfreeze()
