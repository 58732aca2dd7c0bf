"""RMSprop (centered, momentum) and Adagrad, Adadelta: PyTorch's single-tensor rules."""

from __future__ import annotations

import numpy as np

from .optimizer import (Optimizer, addcdiv, addcmul, axpy, check_lr, check_nonnegative, grad_array, lerp,
                        scalar_step, to_scalar, write, zeros_like)
from ..tensor import Tensor

__all__ = ["RMSprop", "Adagrad", "Adadelta"]


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        check_lr(lr)
        check_nonnegative(epsilon=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr = to_scalar(group["lr"])
            alpha, eps, wd = group["alpha"], group["eps"], group["weight_decay"]
            momentum, centered = group["momentum"], group["centered"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = scalar_step()
                    state["square_avg"] = zeros_like(p)
                    if momentum > 0:
                        state["momentum_buffer"] = zeros_like(p)
                    if centered:
                        state["grad_avg"] = zeros_like(p)
                dt = p._data.dtype.type
                g = grad_array(p, group["maximize"])
                write(state["step"], state["step"]._data + np.float32(1))
                if wd != 0:
                    g = axpy(g, p._data, wd)
                sq = state["square_avg"]
                write(sq, addcmul(sq._data * dt(alpha), g, g, 1 - alpha))
                if centered:
                    ga = state["grad_avg"]
                    write(ga, lerp(ga._data, g, 1 - alpha))
                    avg = np.sqrt(addcmul(sq._data, ga._data, ga._data, -1))
                else:
                    avg = np.sqrt(sq._data)
                avg = avg + dt(eps)
                if momentum > 0:
                    buf = state["momentum_buffer"]
                    write(buf, addcdiv(buf._data * dt(momentum), g, avg, 1))
                    write(p, axpy(p._data, buf._data, -lr))
                else:
                    write(p, addcdiv(p._data, g, avg, -lr))
        return loss


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        check_lr(lr)
        check_nonnegative(lr_decay=lr_decay, weight_decay=weight_decay,
                          initial_accumulator_value=initial_accumulator_value, epsilon=eps)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = scalar_step()
                init = group["initial_accumulator_value"]
                state["sum"] = Tensor._make(np.full_like(p._data, init))

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr = to_scalar(group["lr"])
            wd, eps, lr_decay = group["weight_decay"], group["eps"], group["lr_decay"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                step_t = state["step"]
                write(step_t, step_t._data + np.float32(1))
                step = float(step_t._data)
                g = grad_array(p, group["maximize"])
                if wd != 0:
                    g = axpy(g, p._data, wd)
                clr = lr / (1 + (step - 1) * lr_decay)
                s = state["sum"]
                write(s, addcmul(s._data, g, g, 1))
                std = np.sqrt(s._data) + p._data.dtype.type(eps)
                write(p, addcdiv(p._data, g, std, -clr))
        return loss


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_nonnegative(epsilon=eps, weight_decay=weight_decay)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr = to_scalar(group["lr"])
            rho, eps, wd = group["rho"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = scalar_step()
                    state["square_avg"] = zeros_like(p)
                    state["acc_delta"] = zeros_like(p)
                dt = p._data.dtype.type
                write(state["step"], state["step"]._data + np.float32(1))
                g = grad_array(p, group["maximize"])
                if wd != 0:
                    g = axpy(g, p._data, wd)
                sq, acc = state["square_avg"], state["acc_delta"]
                write(sq, addcmul(sq._data * dt(rho), g, g, 1 - rho))
                std = np.sqrt(sq._data + dt(eps))
                delta = np.sqrt(acc._data + dt(eps))
                delta = (delta / std) * g
                write(acc, addcmul(acc._data * dt(rho), delta, delta, 1 - rho))
                write(p, axpy(p._data, delta, -lr))
        return loss
