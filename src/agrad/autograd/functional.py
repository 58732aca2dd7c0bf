"""torch.autograd.functional: vjp, jvp, jacobian, hessian, vhp, hvp.

The same algorithms as PyTorch's (torch/autograd/functional.py), so the
results, the graphs under ``create_graph=True`` and the errors are its:
inputs are detached (or viewed, under ``create_graph``) before ``func``
runs, forward products use the double-backward trick, and
``jacobian(vectorize=True)`` is one batched backward pass
(``autograd.grad(..., is_grads_batched=True)``, :mod:`.batched`).
``strategy="forward-mode"`` takes the columns by forward-mode AD, one pass
per input element (PyTorch vmaps them); inside a dual level (one at a time)
by the double-backward trick of :func:`jvp`.
"""

from __future__ import annotations

from . import grad_mode
from .engine import grad as _grad

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _tensor():
    from ..tensor import Tensor
    return Tensor


def _ops():
    from .. import ops
    return ops.FUNCTIONS


def _type_text(x) -> str:
    t = type(x)
    mod = t.__module__
    if mod == "builtins":
        return f"<class '{t.__qualname__}'>"
    if mod.startswith("agrad"):
        mod = "torch" if t.__name__ == "Tensor" else mod.replace("agrad", "torch", 1)
    return f"<class '{mod}.{t.__qualname__}'>"


def _as_tuple(inp, arg_name=None, fn_name=None):
    """(was it a tuple, the tuple); PyTorch's TypeError for a value that is no tensor."""
    if arg_name is None and fn_name is None:
        if type(inp) is tuple:
            return inp
        return tuple(inp) if type(inp) is list else (inp,)
    Tensor = _tensor()
    is_tuple = type(inp) is tuple
    if not is_tuple:
        inp = (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                                f"Tensors but the value at index {i} has type {_type_text(el)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                            f"Tensors but the given {arg_name} has type {_type_text(el)}.")
    return is_tuple, inp


def _unpack(res, to_unpack):
    """Undo the tuple wrapping: ``to_unpack`` is a flag, or (outer, inner) flags."""
    if type(to_unpack) is tuple:
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _preprocess(inputs, create_graph, need_graph):
    """Inputs as func will see them: views (create_graph keeps the caller's graph) or detached leaves."""
    out = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            out.append(inp.view_as(inp))
        else:
            out.append(inp.detach().requires_grad_(need_graph))
    return tuple(out)


def _postprocess(inputs, create_graph):
    if isinstance(inputs[0], _tensor()):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}.")


def _check_requires_grad(inputs, input_type, strict):
    """strict mode: PyTorch's error when an output (or derivative) does not depend on the inputs."""
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. "
                               "This is not allowed in strict mode.")
        if inp.requires_grad:
            continue
        if input_type == "hessian":
            raise RuntimeError(
                f"The hessian of the user-provided function with respect to input {i} is independent of the "
                "input. This is not allowed in strict mode. You should ensure that your function is thrice "
                "differentiable and that the hessian depends on the inputs.")
        if input_type == "jacobian":
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided function with "
                f"respect to input {i} is independent of the input. This is not allowed in strict mode. You "
                "should ensure that your function is twice differentiable and that the jacobian depends on "
                "the inputs (this would be violated by a linear function for example).")
        if input_type == "grad_inputs":
            raise RuntimeError(f"The gradient with respect to input {i} is independent of the inputs of the "
                               "user-provided function. This is not allowed in strict mode.")
        raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                           "must be computed in a differentiable manner from the input when running in strict "
                           "mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None,
                   is_grads_batched=False):
    """autograd.grad over the outputs that require grad (None for every input when none does)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    keep = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not keep:
        return (None,) * len(inputs)
    return _grad(tuple(o for o, _ in keep), inputs, tuple(g for _, g in keep), allow_unused=True,
                 create_graph=create_graph, retain_graph=retain_graph, is_grads_batched=is_grads_batched)


_ZERO_MESSAGES = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in "
            "strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in "
                  "strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
                   "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    zeros_like = _ops()["zeros_like"]
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_MESSAGES[stage].format(i=i))
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode when create_graph=True.")
        res.append(g)
    return tuple(res)


def _prepare_v(v, refs, is_refs_tuple, fn_name, create_graph, none_message):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, refs, is_refs_tuple)
        return v
    if len(refs) != 1 or refs[0].nelement() != 1:
        raise RuntimeError(none_message)
    return None


_V_NONE_INPUT = ("The vector v can only be None if the input to the user-provided function is a single Tensor "
                 "with a single element.")


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): a vector-Jacobian product."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, "vjp", create_graph,
                       "The vector v can only be None if the user-provided function returns a single Tensor "
                       "with a single element.")
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "back")
    return (_unpack(_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_postprocess(res, create_graph), is_inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): a Jacobian-vector product, by the double-backward trick."""
    zeros_like = _ops()["zeros_like"]
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, "jvp", create_graph, _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, outputs, strict, create_graph, "back_trick")
    return (_unpack(_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_postprocess(res, create_graph), is_outputs_tuple))


def _standard_basis(tensors, numels):
    """One identity block per tensor: row k of the concatenation is the k-th unit vector."""
    total = sum(numels)
    from .._limits import check_shape
    for n in numels:
        check_shape((total, n))   # before allocating: a Jacobian's basis is outputs x elements
    chunks = []
    start = 0
    for t, n in zip(tensors, numels):
        c = t.new_zeros(total, n)
        if n:
            c._data[start:start + n] = _eye(n, c._data.dtype)
        chunks.append(c)
        start += n
    return tuple(chunks)


def _eye(n, dtype):
    import numpy as np
    return np.eye(n, dtype=dtype)


def _jacfwd(func, inputs, strict=False, vectorize=False):
    """The Jacobian by columns: one forward product per input element."""
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are '
                           'not supported together (yet). Please either set `strict=False` or '
                           '`strategy="reverse-mode"`.')
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    stack = _ops()["stack"]
    numels = tuple(inp.numel() for inp in inputs)
    basis = _standard_basis(inputs, numels)
    columns = []   # per input element: the tuple of output tangents
    info = None
    from . import _dual
    product = _forward_ad_product if _dual._LEVEL[0] is None else _forward_product
    for k in range(sum(numels)):
        tangent = tuple(b[k].view_as(inp) for b, inp in zip(basis, inputs))
        outs, jv = product(func, inputs, tangent)
        info = outs
        columns.append(jv)
    is_outputs_tuple, outputs = info if info is not None else _forward_outputs(func, inputs)
    result = []
    for o, out in enumerate(outputs):
        per_input = []
        if columns:
            cols = stack([c[o] for c in columns])           # (numel_in_total, *out.shape)
            pieces = cols.split(numels, dim=0)
        else:
            pieces = [out.new_zeros((0,) + tuple(out.shape)) for _ in inputs]
        for piece, inp in zip(pieces, inputs):
            per_input.append(piece.permute(*range(1, piece.ndim), 0).reshape(
                tuple(out.shape) + tuple(inp.shape)))
        result.append(per_input)
    return _unpack(result, (is_outputs_tuple, is_inputs_tuple))


def _forward_outputs(func, inputs):
    with grad_mode.no_grad():
        is_tuple, outs = _as_tuple(func(*inputs), "outputs")
    return is_tuple, outs


def _forward_ad_product(func, inputs, tangents):
    """((is_tuple, primal outputs), output tangents) of func at inputs along tangents, by forward-mode AD."""
    from . import forward_ad as fwAD
    zeros_like = _ops()["zeros_like"]
    with fwAD.dual_level():
        duals = tuple(fwAD.make_dual(inp, t) for inp, t in zip(inputs, tangents))
        is_tuple, outs = _as_tuple(func(*duals), "outputs")
        primals, jv = [], []
        for o in outs:
            p, t = fwAD.unpack_dual(o)
            primals.append(p)
            jv.append(t if t is not None else zeros_like(p))
    return (is_tuple, tuple(primals)), tuple(jv)


def _forward_product(func, inputs, tangents):
    """((is_tuple, primal outputs), output tangents) of func at inputs along tangents (double backward)."""
    zeros_like = _ops()["zeros_like"]
    with grad_mode.enable_grad():
        xs = tuple(inp.detach().requires_grad_(True) for inp in inputs)
        is_tuple, outs = _as_tuple(func(*xs), "outputs")
        u = tuple(zeros_like(o, requires_grad=True) for o in outs)
        gi = _autograd_grad(outs, xs, u, create_graph=True)
    res = _autograd_grad(gi, u, tangents)
    jv = tuple(r.detach() if r is not None else zeros_like(o).detach() for r, o in zip(res, outs))
    return (is_tuple, tuple(o.detach() for o in outs)), jv


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of func at inputs: one entry per (output, input) pair, shaped output.shape + input.shape."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either '
                                      'set `create_graph=False` or `strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    F = _ops()
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if vectorize:
            if strict:
                raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                                   "not supported together. Please either set `strict=False` or "
                                   "`vectorize=False`.")
            numels = tuple(out.numel() for out in outputs)
            basis = _standard_basis(outputs, numels)
            flat = tuple(out.reshape(-1) for out in outputs)
            vj = list(_autograd_grad(flat, inputs, basis, create_graph=create_graph, is_grads_batched=True))
            for k, g in enumerate(vj):
                if g is None:
                    vj[k] = F["zeros_like"](inputs[k]).expand((sum(numels),) + tuple(inputs[k].shape))
            per_input = []
            for g, inp in zip(vj, inputs):
                per_input.append([jac.view(tuple(out.shape) + tuple(inp.shape))
                                  for jac, out in zip(g.split(numels, dim=0), outputs)])
            jac = tuple(zip(*per_input))
            return _unpack(_postprocess(jac, create_graph), (is_outputs_tuple, is_inputs_tuple))

        jac = []
        for i, out in enumerate(outputs):
            rows = tuple([] for _ in inputs)
            flat_out = out.reshape(-1)
            for j in range(out.nelement()):
                vj = _autograd_grad((flat_out[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (acc, g, inp) in enumerate(zip(rows, vj, inputs)):
                    if g is not None:
                        if strict and create_graph and not g.requires_grad:
                            raise RuntimeError(f"The jacobian of the user-provided function is independent of "
                                               f"input {i}. This is not allowed in strict mode when "
                                               "create_graph=True.")
                        acc.append(g)
                    else:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input "
                                               f"{k}. This is not allowed in strict mode.")
                        acc.append(F["zeros_like"](inp))
            jac.append(tuple(F["stack"](acc, dim=0).view(tuple(out.size()) + tuple(inputs[k].size()))
                             if acc else inputs[k].new_zeros(tuple(out.size()) + tuple(inputs[k].size()))
                             for k, acc in enumerate(rows)))
        return _unpack(_postprocess(tuple(jac), create_graph), (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    Tensor = _tensor()
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single "
                               "element")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(single_output, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _unpack(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_output(outputs, is_outputs_tuple, fn_name):
    if is_outputs_tuple or not isinstance(outputs[0], _tensor()):
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a scalar function."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, "vhp", create_graph, _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vhp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        _scalar_output(outputs, is_outputs_tuple, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back")
    return (_unpack(_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_postprocess(res, create_graph), is_inputs_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a scalar function, by the double-backward trick."""
    zeros_like = _ops()["zeros_like"]
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, "hvp", create_graph, _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "hvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        _scalar_output(outputs, is_outputs_tuple, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back_trick")
    return (_unpack(_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_postprocess(res, create_graph), is_inputs_tuple))
