"""Full backward hooks of a Module (``register_full_backward_hook``).

As in PyTorch (torch/utils/hooks.py), the module's tensor inputs and outputs
pass through an identity Function, ``BackwardHookFunction``: the node on the
outputs sees the gradients of the outputs, the node on the inputs the
gradients of the inputs; the user's hook runs with both once the latter are
known, and may replace the gradients of the inputs."""

from __future__ import annotations

from ...autograd.function import Function
from ...tensor import Tensor


class BackwardHookFunction(Function):
    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if isinstance(a, Tensor)
                                      and not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    def __init__(self, module, hooks):
        self.module = module
        self.hooks = hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_node = None

    def _wrap(self, args):
        idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not idx:
            return args, None, idx
        tensors = [args[i] for i in idx]
        if not any(t.requires_grad for t in tensors):
            return args, None, idx
        new = BackwardHookFunction.apply(*tensors)
        if not isinstance(new, tuple):
            new = (new,)
        out = list(args)
        for i, t in zip(idx, new):
            out[i] = t
        node = next((t.grad_fn for t in new if t.grad_fn is not None), None)
        return tuple(out), node, idx

    def _call_hooks(self, grad_inputs):
        result = tuple(grad_inputs)
        for hook in self.hooks:
            res = hook(self.module, result, self.grad_outputs)
            if res is None:
                continue
            if not isinstance(res, tuple):
                res = (res,)
            if len(res) != len(result):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                   f"got {len(res)}, but expected {len(result)}")
            result = res
        return result

    def setup_input_hook(self, args):
        args, node, idx = self._wrap(args)
        self.n_inputs = len(idx)
        self.input_node = node
        if node is not None:
            def on_inputs(grad_inputs, grad_outputs):
                return self._call_hooks(grad_inputs)
            node.register_hook(on_inputs)
        return args

    def setup_output_hook(self, result):
        single = isinstance(result, Tensor)
        outs = (result,) if single else result
        if not isinstance(outs, tuple):
            return result
        wrapped, node, _ = self._wrap(outs)
        if node is not None:
            def on_outputs(grad_outputs):
                self.grad_outputs = tuple(grad_outputs)
                if self.input_node is None:   # no input wants a gradient
                    self._call_hooks((None,) * self.n_inputs)
                return None
            node.register_prehook(on_outputs)
        return wrapped[0] if single else wrapped
