#!/usr/bin/env python
"""Generate tests/golden/trace_order.json: the order in which PyTorch runs the
nodes of each seed script's last backward pass.

Each script in tests/golden/seeds/ that makes a backward pass is run with
real PyTorch; ``torch.autograd.backward`` (behind ``Tensor.backward``) and
``torch.autograd.grad`` are wrapped so that, before each pass, a pre-hook is
registered on every node reachable from its roots.  The hooks note each
node's name as the engine runs it; the last pass of the script is kept.
``agrad trace`` must list its steps in the same order
(tests/cli/test_trace.py; a live version of the same comparison runs there
when torch is installed).

Usage: python tools/gen_trace_golden.py [--check]
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import contextlib
import io
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED_DIR = ROOT / "tests" / "golden" / "seeds"
GOLDEN = ROOT / "tests" / "golden" / "trace_order.json"

#: seeds left out: their last pass is gradcheck's own (many internal passes)
SKIP = {"000_gradcheck.py"}


def short_name(name: str) -> str:
    return name.rsplit("::", 1)[-1]


def _nodes(roots):
    seen, stack = set(), [r for r in roots if r is not None]
    out = []
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        out.append(n)
        for nxt, _ in n.next_functions:
            if nxt is not None:
                stack.append(nxt)
    return out


def torch_order(path: Path):
    """Node names of the script's last backward pass, in PyTorch's order (None: no pass)."""
    import torch

    passes = []
    real_backward, real_grad = torch.autograd.backward, torch.autograd.grad

    def watched(roots, call):
        order = []
        handles = []
        for node in _nodes(roots):
            handles.append(node.register_prehook(
                lambda grads, node=node: order.append(short_name(node.name()))))
        try:
            return call()
        finally:
            for h in handles:
                h.remove()
            passes.append(order)

    def _roots(tensors):
        tensors = (tensors,) if isinstance(tensors, torch.Tensor) else tuple(tensors)
        return [t.grad_fn if t.grad_fn is not None else
                (t.view_as(t).grad_fn.next_functions[0][0] if t.requires_grad else None)
                for t in tensors]

    def backward(tensors, *args, **kwargs):
        return watched(_roots(tensors), lambda: real_backward(tensors, *args, **kwargs))

    def grad(outputs, *args, **kwargs):
        return watched(_roots(outputs), lambda: real_grad(outputs, *args, **kwargs))

    text = path.read_text(encoding="utf-8")
    code = compile(text, str(path), "exec")
    torch.autograd.backward, torch.autograd.grad = backward, grad
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            try:
                exec(code, {"__name__": "__main__"})
            except Exception:
                pass  # a script's own error: the passes made before it count
    finally:
        torch.autograd.backward, torch.autograd.grad = real_backward, real_grad
    return passes[-1] if passes else None


#: scripts whose passes run inside torch.func / torch.autograd.functional: their graphs are
#: functorch's (wrapper levels, batched rules), not the plain engine's this golden is about
FUNCTIONAL = ("torch.func", "autograd.functional", "functorch")


def seeds():
    return [p for p in sorted(SEED_DIR.glob("*.py"))
            if p.name not in SKIP and not any(m in p.read_text(encoding="utf-8") for m in FUNCTIONAL)]


def generate() -> dict:
    out = {}
    for p in seeds():
        order = torch_order(p)
        if order:
            out[p.name] = order
    return out


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    import torch
    data = {"torch_version": torch.__version__, "orders": generate()}
    text = json.dumps(data, indent=1) + "\n"
    if "--check" in args:
        if not GOLDEN.exists() or GOLDEN.read_text(encoding="utf-8") != text:
            print(f"{GOLDEN.name}: out of date")
            return 1
        return 0
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)}: {len(data['orders'])} scripts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
