"""The engine fits all of a node's gradients to their inputs (the broadcast reductions, recorded
under ``create_graph``) before it adds any of them into the next nodes' buffers, as PyTorch's
engine validates a node's outputs before accumulating them: the order the nodes of a second-order
graph are made in, which decides the order the next backward runs them and adds up its sums."""
import sys
from pathlib import Path

import pytest

import agrad

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from graph_order import order as _order  # noqa: E402  (nodes as made: PyTorch's _sequence_nr, agrad's _seq)


def _cov_grads(torch):
    x = torch.tensor([[0.5, -1.25, 2.0, 1.0], [3.5, -0.75, 0.25, -2.0]], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([1.5, 0.5, 2.0, 1.0], dtype=torch.float64, requires_grad=True)
    cov = torch.cov(x, fweights=torch.tensor([1, 2, 1, 3]), aweights=w)
    return torch.autograd.grad(cov.sum(), (x, w), create_graph=True)


def test_broadcast_reduction_recorded_before_accumulation():
    gx, gw = _cov_grads(agrad)
    # (PyTorch 2.13: the aweights' broadcast gradient summed to its shape, then added to the other path's)
    order = _order(gw.grad_fn)
    reduced = order.index(("ViewBackward0", ("SumBackward1",)))
    added = order.index(("AddBackward0", ("MmBackward0", "MulBackward0")))
    assert order[reduced - 1][0] == "SumBackward1" and reduced < added


@pytest.mark.torch
def test_cov_second_order_graph_recorded_in_pytorchs_order():
    torch = pytest.importorskip("torch")
    for mine, theirs in zip(_cov_grads(agrad), _cov_grads(torch)):
        assert _order(mine.grad_fn) == _order(theirs.grad_fn)
