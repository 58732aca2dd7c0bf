"""Adam (amsgrad) and AdamW (PyTorch's ``_single_tensor_adam``)."""

from __future__ import annotations

import numpy as np

from .optimizer import (Optimizer, addcdiv, addcmul, axpy, check_lr, check_nonnegative, grad_array, lerp,
                        scalar_step, to_scalar, write, zeros_like)

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        check_lr(lr)
        check_nonnegative(epsilon=eps)
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        check_nonnegative(weight_decay=weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr = to_scalar(group["lr"])
            beta1, beta2 = group["betas"]
            wd, eps, amsgrad = group["weight_decay"], group["eps"], group["amsgrad"]
            decoupled = group["decoupled_weight_decay"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = scalar_step()
                    state["exp_avg"] = zeros_like(p)
                    state["exp_avg_sq"] = zeros_like(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = zeros_like(p)
                g = grad_array(p, group["maximize"])
                exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
                write(step_t, step_t._data + np.float32(1))
                dt = p._data.dtype.type
                if wd != 0:
                    if decoupled:
                        write(p, p._data * dt(1 - lr * wd))
                    else:
                        g = axpy(g, p._data, wd)
                write(exp_avg, lerp(exp_avg._data, g, 1 - beta1))
                write(exp_avg_sq, addcmul(exp_avg_sq._data * dt(beta2), g, g, 1 - beta2))
                step = float(step_t._data)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                step_size = lr / bias_correction1
                bc2_sqrt = bias_correction2 ** 0.5
                if amsgrad:
                    mx = state["max_exp_avg_sq"]
                    write(mx, np.maximum(mx._data, exp_avg_sq._data))
                    denom = np.sqrt(mx._data) / dt(bc2_sqrt) + dt(eps)
                else:
                    denom = np.sqrt(exp_avg_sq._data) / dt(bc2_sqrt) + dt(eps)
                write(p, addcdiv(p._data, exp_avg._data, denom, -step_size))
        return loss


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
