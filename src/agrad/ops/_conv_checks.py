"""The convolutions' argument checks, in ATen's order: conv{1,2,3}d's and conv_transpose{1,2,3}d's own,
_convolution's and its check_shape_forward's, and the backend selection's refusal of an empty input that
has a batch and channels (the forward's, and every convolution of a double backward's)."""

from __future__ import annotations

import numbers

import numpy as np


def _index_like(x, first) -> bool:
    """An element of an int list as PyTorch's parser takes it (the first one) or converts it (the rest: a bool
    too): an int or numpy integer, a one-element integral or bool tensor."""
    if isinstance(x, (bool, np.bool_)):
        return not first
    if type(x).__name__ == "Tensor":
        return x.numel() == 1 and x.dtype._kind <= 1
    return isinstance(x, (int, np.integer))


def ntuple(v, n, name="argument"):
    """``2`` -> ``(2, 2)``; a list or tuple of one -> repeated; of n -> as is."""
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return (int(v),) * n
    if type(v).__name__ == "Tensor" and v.numel() == 1 and v.dtype._kind <= 1:  # (the parser's one-element
        return (int(v.item()),) * n                                                # integral or bool tensor)
    if not isinstance(v, (list, tuple)) or not all(_index_like(x, i == 0) for i, x in enumerate(v)):
        raise TypeError(f"{name} must be an int list")  # (the caller's parser names it: PyTorch's TypeError)
    v = tuple(int(x.item()) if type(x).__name__ == "Tensor" else int(x) for x in v)
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match "
                           f"the convolution dimensions, but got {name}={list(v)}")
    return v


def _check(fname, input, weight, bias, sp, groups, transposed, params):
    """conv{1,2,3}d's checks, then _convolution's and its check_shape_forward's, in their order; the
    geometry ``params`` ((name, value), ...) expanded to the weight's spatial dims."""
    if not transposed and bias is not None and bias.dtype is not input.dtype and not isinstance(
            dict(params)["padding"], str):  # conv{1,2,3}d's first check (not their padding-string overloads')
        raise RuntimeError(f"Input type ({_cname(input)}) and bias type ({_cname(bias)}) should be the same")
    if input.ndim not in (sp + 1, sp + 2):
        raise RuntimeError(
            f"Expected {sp + 1}D (unbatched) or {sp + 2}D (batched) input to {fname}, but got input of size: "
            f"{list(input.shape)}")
    given = dict(params)
    if given["padding"] == "same":  # (_convolution_same's checks, then _convolution's again)
        _check_same(input, weight, sp, groups, given["stride"], given["dilation"])
    elif isinstance(given["padding"], str) and given["padding"] != "valid":
        raise RuntimeError(f"Invalid padding string: '{given['padding']}'")
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    # (the parser gives an int as sp copies; _convolution expands a list of one to the weight's spatial dims)
    geo = {name: value if isinstance(value, str) else
           ntuple([value] * sp if isinstance(value, numbers.Integral) else value, weight.ndim - 2, name)
           for name, value in params}
    if any(p < 0 for p in geo.get("padding", ()) if not isinstance(geo["padding"], str)):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in geo.get("output_padding", ())):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in geo["stride"]):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in geo["dilation"]):
        raise RuntimeError("dilation should be greater than zero")
    if weight.ndim != sp + 2:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight {list(weight.shape)}, but got "
            f"{input.ndim}-dimensional input of size {list(input.shape)} instead")
    shape = list(input.shape) if input.ndim == sp + 2 else [1] + list(input.shape)
    c = shape[1]
    if given["padding"] == "same":  # (an odd total padding: _convolution_same pads the input first, texts show it)
        tot = [d * (kk - 1) for d, kk in zip(geo["dilation"], weight.shape[2:])]
        shape = shape[:2] + [n + t % 2 for n, t in zip(shape[2:], tot)]
    if weight.shape[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {list(weight.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError("Given groups=%d, expected weight to be divisible by %d at dimension 0, but got "
                           "weight of size [%s] instead" % (groups, groups, list(weight.shape)))
    if not transposed:
        if c != weight.shape[1] * groups:
            raise RuntimeError(
                f"Given groups={groups}, weight of size {list(weight.shape)}, expected input{shape} to have "
                f"{weight.shape[1] * groups} channels, but got {c} channels instead")
        out_c = weight.shape[0]
    else:
        if c != weight.shape[0]:
            raise RuntimeError(
                f"Given transposed=1, weight of size {list(weight.shape)}, expected input{shape} to have "
                f"{weight.shape[0]} channels, but got {c} channels instead")
        out_c = weight.shape[1] * groups
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_c):
        raise RuntimeError(
            f"Given {'transposed=1, ' if transposed else ''}weight of size {list(weight.shape)}, expected bias to be "
            f"1-dimensional with {out_c} elements, "
            f"but got bias of size {list(bias.shape)} instead")
    return geo


def _check_same(input, weight, sp, groups, stride, dilation):
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.ndim != sp + 2:  # (against the batched input)
        raise RuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight"
                           f"{list(weight.shape)}, but got {sp + 2}-dimensional input of size "
                           f"{list(input.shape) if input.ndim == sp + 2 else [1] + list(input.shape)} instead")
    stride, dilation = ([v] if isinstance(v, numbers.Integral) else list(v) for v in (stride, dilation))
    for name, values in (("stride", stride), ("dilation", dilation)):
        if len(values) not in (1, sp):
            raise RuntimeError(f"{name} cannot broadcast to {sp} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")


def _cname(t):
    """The C++ type name (caffe2::TypeMeta::name) of a dtype."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char"}.get(t.dtype.name, t.dtype.name)


def check_backend(x):
    """_select_conv_backend: an input with no batch or no channels goes to the Empty backend; any other
    empty one (a spatial dim of 0) is refused, its shape the 4-D view of a 1-D convolution's input."""
    if x.shape[0] and x.shape[1] and 0 in x.shape[2:]:
        shape = list(x.shape) if x.ndim > 3 else [x.shape[0], x.shape[1], 1, x.shape[2]]
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got input shape: {shape}")


def check_empty_view(x, weight, attrs):
    """The Empty backend's output.view(calc_output_size(...)): a transposed convolution's size can come out
    negative (ATen's view then refuses it); sizes of the 4-D views of a 1-D convolution."""
    from .views import _infer_shape
    k, stride, pad, dil = weight.shape[2:], attrs["stride"], attrs["padding"], attrs["dilation"]
    if attrs["transposed"]:
        size = [(n - 1) * s - 2 * p + d * (kk - 1) + op + 1
                for n, kk, s, p, d, op in zip(x.shape[2:], k, stride, pad, dil, attrs["output_padding"])]
        c = weight.shape[1] * attrs["groups"]
    else:
        size = [(n + 2 * p - d * (kk - 1) - 1) // s + 1 for n, kk, s, p, d in zip(x.shape[2:], k, stride, pad, dil)]
        c = weight.shape[0]
    _infer_shape([x.shape[0], 0 if x.shape[1] == 0 else c] + ([1] if len(size) == 1 else []) + size, 0)
