"""torch.optim.Optimizer: parameter groups, per-parameter state, state dicts.

The update rules (sgd.py, adam.py, ...) follow PyTorch's single-tensor
(``foreach=False``) implementations step for step.  They work on the numpy
arrays behind the tensors, in the parameter's dtype, with the scalars cast to
that dtype as ATen's CPU kernels do; ``param.add_(x, alpha=a)`` is a fused
multiply-add there (``vec::fmadd``), which :func:`axpy` reproduces by
computing in float64 and rounding once."""

from __future__ import annotations

from collections import defaultdict
from copy import deepcopy
from itertools import chain

import numpy as np

from ..autograd import grad_mode
from ..autograd.graph import version_observers
from ..tensor import Tensor
from .._warn_once import warn as _warn

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(value):
    from ..nn.modules.module import _typename as tn
    return tn(value)


# ------------------------------------------------------------------ kernels

def axpy(a, b, alpha):
    """a + alpha * b as ATen's vectorised add computes it (one rounding)."""
    if a.dtype == np.float32:
        # exact in float64 (a is cast inside the add), one rounding: ATen's fused multiply-add
        return (np.multiply(b, float(np.float32(alpha)), dtype=np.float64) + a).astype(np.float32)
    return a + a.dtype.type(alpha) * b


def lerp(a, b, weight):
    """torch.lerp(a, b, weight) for a Python-number weight (ATen's two-sided formula)."""
    w = a.dtype.type(weight)
    diff = b - a
    if abs(weight) < 0.5:
        return axpy(a, diff, w)
    return axpy(b, diff, -(a.dtype.type(1) - w))


def addcmul(a, t1, t2, value):
    """a + value * t1 * t2 (ATen's order)."""
    return a + (a.dtype.type(value) * t1) * t2


def addcdiv(a, t1, t2, value):
    """a + value * t1 / t2 (ATen's order)."""
    return a + (a.dtype.type(value) * t1) / t2


def write(t: Tensor, array) -> None:
    """Store ``array`` into tensor ``t`` in place (a new version, as ``add_`` makes)."""
    data = t._data
    if data.flags.writeable and data.shape == np.shape(array):
        data[...] = array
    else:
        t._data = np.array(array, dtype=data.dtype)
    t._vc[0] += 1
    for obs in version_observers:
        obs(t)


def zeros_like(p: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(p._data))


def scalar_step(value=0.0) -> Tensor:
    """The ``step`` counter PyTorch keeps as a float32 0-d tensor."""
    return Tensor._make(np.array(value, dtype=np.float32))


# ------------------------------------------------------------------ base class

class Optimizer:
    """Base class of all optimizers: ``param_groups`` (dicts with ``params`` and
    options), ``state`` (per parameter), ``zero_grad``, ``step``, state dicts."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))
        try:
            param_groups = list(params)
        except TypeError:
            raise TypeError(f"'{type(params).__name__}' object is not iterable") from None
        self.state = defaultdict(dict)
        self.param_groups = []
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __repr__(self):
        s = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            s += "\n" + f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    s += f"    {key}: {group[key]}\n"
        return s + ")"

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError("all optimizer params should be with/without names. Some param "
                                 "names are missing")
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            _warn("optimizer contains a parameter group with duplicate parameters; in "
                  "future, this will cause an error; see "
                  "github.com/pytorch/pytorch/issues/40967 for more information")
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {txt} to the optimizer")
        if any(id(p) in seen for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                g = p._grad
                if g is not None:
                    if set_to_none:
                        p._grad = None
                    else:
                        if g._grad_fn is not None:
                            g.detach_()
                        else:
                            g.requires_grad_(False)
                        g.zero_()

    def step(self, closure=None):
        raise NotImplementedError(
            f"{type(self).__name__}.step() is not implemented: an Optimizer subclass defines "
            "step(closure)")

    def _closure_loss(self, closure):
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    # state dicts ----------------------------------------------------------------
    def state_dict(self):
        mapping = {}
        start = 0

        def pack(group):
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            mapping.update({id(p): i for i, p in enumerate(group["params"], start)
                            if id(p) not in mapping})
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        groups = [pack(g) for g in self.param_groups]
        state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v
                 for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def cast(param, value, key=None):
            if isinstance(value, Tensor):
                if key == "step":
                    return value
                if param.is_floating_point():
                    return value.to(param.dtype)
                return value
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v
        new_groups = []
        for g, ng in zip(groups, saved_groups):
            ng["params"] = g["params"]
            if "param_names" in g and "param_names" not in ng:
                ng["param_names"] = g["param_names"]
            new_groups.append(ng)
        self.__setstate__({"state": state, "param_groups": new_groups})


def check_lr(lr):
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_nonnegative(**values):
    """PyTorch's constructor checks, in the order given: ``Invalid <name> value: <v>``
    (NaN fails too, as ``not 0.0 <= v``)."""
    for name, v in values.items():
        if not 0.0 <= v:
            raise ValueError(f"Invalid {name} value: {v}")


def to_scalar(x):
    return x.item() if isinstance(x, Tensor) else x


def grad_array(p, maximize):
    g = p._grad._data
    return -g if maximize else g
