"""SGD with momentum, dampening, Nesterov, weight decay and maximize
(PyTorch's ``_single_tensor_sgd``)."""

from __future__ import annotations

from .optimizer import Optimizer, axpy, check_lr, grad_array, to_scalar, write
from ..tensor import Tensor

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False, foreach=None, differentiable=False, fused=None):
        check_lr(lr)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr = to_scalar(group["lr"])
            wd, momentum = group["weight_decay"], group["momentum"]
            dampening, nesterov = group["dampening"], group["nesterov"]
            maximize = group["maximize"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                g = grad_array(p, maximize)
                if wd != 0:
                    g = axpy(g, p._data, wd)
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = Tensor._make(g.copy())
                        state["momentum_buffer"] = buf
                    else:
                        b = buf._data * buf._data.dtype.type(momentum)
                        write(buf, axpy(b, g, 1 - dampening))
                    g = axpy(g, buf._data, momentum) if nesterov else buf._data
                write(p, axpy(p._data, g, -lr))
        return loss
