"""The command line's pacing of full collections (agrad._collector) and what it relies
on: a graph makes no reference cycles, so reference counting alone frees it."""

from __future__ import annotations

import gc
import weakref

import pytest

import agrad as torch
from agrad._collector import FAST_YOUNG, THRESHOLDS, Pacer, paced


class _Cycle:
    def __init__(self):
        self.me = self


@pytest.fixture
def collector():
    """The collector as a test leaves it: enabled, nothing frozen, no pacer."""
    was = gc.isenabled()
    gc.collect()
    yield
    gc.unfreeze()
    gc.collect()
    if was:
        gc.enable()


def _clock(t):
    return lambda: t[0]


def test_deferred_full_collection_freezes_and_the_next_due_one_finds_the_cycle(collector):
    t, blocks = [0.0], [1000]
    pacer = Pacer(share=0.1, clock=_clock(t), blocks=lambda: blocks[0])
    pacer.cost = 1.0  # the last full collection took a second, ended at 0
    gc.callbacks.append(pacer)
    try:
        obj = _Cycle()
        alive = weakref.ref(obj)
        del obj
        t[0] = 5.0  # 1 s of walking would be 20% of the time since: deferred
        assert gc.collect() == 0
        assert pacer.deferred == 1 and pacer.full == 0
        assert alive() is not None and gc.get_freeze_count() > 0
        t[0] = 10.0  # within 10%: it runs, unfreezes and walks every object
        assert gc.collect() >= 1
        assert pacer.full == 1 and alive() is None
        assert pacer.cost == 0.0 and pacer.ended == 10.0 and pacer.size == 1000
    finally:
        gc.callbacks.remove(pacer)


def test_predicted_cost_grows_with_the_heap(collector):
    t, blocks = [10.0], [8000]
    pacer = Pacer(share=0.1, clock=_clock(t), blocks=lambda: blocks[0])
    pacer.cost, pacer.size, pacer.ended = 1.0, 1000, 0.0  # 8x the heap since: 8 s predicted, 1 s allowed
    gc.callbacks.append(pacer)
    try:
        gc.collect()
        assert pacer.deferred == 1
        blocks[0] = 1000
        gc.collect()
        assert pacer.full == 1
    finally:
        gc.callbacks.remove(pacer)


def test_garbage_found_by_young_collections_gives_cpython_its_schedule_back(collector):
    t = [0.0]
    pacer = Pacer(share=0.1, clock=_clock(t), blocks=lambda: 1000)
    pacer.cost = 100.0  # never due by time
    gc.callbacks.append(pacer)
    try:
        for _ in range(5):
            _Cycle()
        gc.collect(0)  # a young collection finds the five cycles: more than 1/1000 of the heap
        assert pacer.found >= 5
        gc.collect()
        assert pacer.full == 1 and pacer.deferred == 0 and pacer.found <= 1
        pacer.cost = 100.0
        gc.collect()  # the full one found nothing: deferred again
        assert pacer.deferred == 1
    finally:
        gc.callbacks.remove(pacer)


def test_remove_gives_frozen_objects_back(collector):
    pacer = Pacer(share=0.1, clock=lambda: 0.0, blocks=lambda: 1000)
    pacer.cost = 1.0
    pacer.install()
    obj = _Cycle()
    alive = weakref.ref(obj)
    del obj
    gc.collect()
    assert alive() is not None
    pacer.remove()
    assert pacer not in gc.callbacks and gc.get_freeze_count() == 0
    gc.collect()
    assert alive() is None


def test_what_was_frozen_before_stays_frozen_until_a_deferral(collector):
    obj = _Cycle()
    before = weakref.ref(obj)
    del obj
    gc.freeze()  # as the command line freezes its imports
    pacer = Pacer(share=0.1, clock=lambda: 0.0, blocks=lambda: 1000).install()
    try:
        gc.collect()  # due (no cost known yet): walks the unfrozen objects only
        assert pacer.full == 1 and before() is not None and gc.get_freeze_count() > 0
    finally:
        pacer.remove()
    assert gc.get_freeze_count() > 0  # not frozen by it: not its to give back
    gc.unfreeze()
    gc.collect()
    assert before() is None


def test_young_schedule_is_fast_while_collections_find_no_garbage(collector):
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 100)
    blocks = [1000]
    pacer = Pacer(share=0.1, clock=lambda: 0.0, blocks=lambda: blocks[0]).install(young=True)
    try:
        assert pacer.fast and gc.get_threshold() == (700, FAST_YOUNG, 100)
        gc.collect(0)  # finds nothing: still fast
        assert gc.get_threshold()[1] == FAST_YOUNG
        for _ in range(5):
            _Cycle()
        gc.collect(1)  # five cycles: more than 1/1000 of the heap, CPython's threshold back
        assert not pacer.fast and gc.get_threshold()[1] == 10
        obj = _Cycle()
        alive = weakref.ref(obj)
        del obj
        blocks[0] = 100_000
        gc.collect()  # due (garbage was found): walks everything, the cycle too
        assert pacer.full == 1 and alive() is None and 1 <= pacer.found <= 100
        assert pacer.fast and gc.get_threshold()[1] == FAST_YOUNG  # little garbage: fast again
        pacer.remove()
        assert gc.get_threshold() == (700, 10, 100) and pacer not in gc.callbacks
    finally:
        pacer.remove()
        gc.set_threshold(*before)


def test_paced_gives_the_collector_back_as_it_was(collector):
    gc.set_threshold(500, 7, 9)
    try:
        with paced() as pacer:
            assert pacer in gc.callbacks and pacer.fast
            assert gc.get_threshold() == (THRESHOLDS[0], FAST_YOUNG, THRESHOLDS[2])
            assert gc.get_freeze_count() > 0  # what existed before the run is not walked
        assert pacer not in gc.callbacks and gc.get_threshold() == (500, 7, 9)
        assert gc.get_freeze_count() == 0
    finally:
        gc.set_threshold(*THRESHOLDS)


def _chain(x, w):
    y = x
    for _ in range(20):
        y = torch.tanh(torch.sin(y) * w + 0.1)  # tanh saves its output
        y = y.exp().sigmoid()[1:].reshape(-1).unsqueeze(0).squeeze(0)
        y = torch.cat([y, y.mean(0, keepdim=True)])
    mx, _ = y.max(0)  # two outputs
    return (y.sum() + mx) * 2


@pytest.mark.parametrize("backward", [None, "retain", "free", "create_graph"])
def test_a_graph_is_freed_without_the_cycle_collector(collector, backward):
    gc.disable()
    x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
    w = torch.tensor(0.9, requires_grad=True)
    loss = _chain(x, w)
    nodes = []
    stack, seen = [loss.grad_fn], set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        nodes.append(weakref.ref(n))
        stack.extend(f for f, _ in n.next_functions)
    if backward == "retain":
        loss.backward(retain_graph=True)
    elif backward == "free":
        loss.backward()
    elif backward == "create_graph":
        (g,) = torch.autograd.grad(loss, x, create_graph=True)
        g.sum().backward()
        del g
    del loss, stack, n
    alive = [r() for r in nodes if r() is not None and type(r()).__name__ != "AccumulateGrad"]
    assert len(nodes) > 100 and alive == []


def test_recording_leaves_few_objects_for_the_collector(collector):
    """A chain of sin, * c, + c, tanh leaves about 6 tracked objects an op (the node, its
    edge tuples, a saved tensor's slot; ``* c`` keeps its number in a SavedNumber, freed
    with the graph as PyTorch's wrapped scalar): (shape, dtype) records are shared, node
    attributes are set without building the node's __dict__ (docs/semantics.md).  It was
    12 before that work; a little head-room, because hooks other tests leave installed
    (the graph view's origin hook) add to it."""
    gc.disable()
    y = torch.tensor([0.3], requires_grad=True) * 1.0
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(100):
        y = torch.tanh(torch.sin(y) * 0.9 + 0.1)
    per_op = (len(gc.get_objects()) - before) / 400
    assert per_op <= 6.5, per_op
