"""parameters_to_vector / vector_to_parameters."""

from __future__ import annotations

from ...tensor import Tensor


def parameters_to_vector(parameters):
    """All parameters flattened into one vector (differentiable, CatBackward0)."""
    from ...ops import FUNCTIONS
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return FUNCTIONS["cat"]([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Copy slices of ``vec`` into the parameters' data (not recorded)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
