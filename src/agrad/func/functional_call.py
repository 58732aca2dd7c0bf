"""torch.func.functional_call: run a module with some parameters and buffers replaced.

The replacements are put in the modules' parameter and buffer tables for the
call (so the module's own ``forward`` reads them, and gradients flow to the
tensors passed in) and the originals are put back afterwards, also when the
call raises.
"""

from __future__ import annotations

from ..tensor import Tensor


def _merge(dicts):
    if type(dicts) is dict:
        return dict(dicts)
    if type(dicts) in (tuple, list) and all(type(d) is dict for d in dicts):
        merged, seen = {}, {}
        for d in dicts:
            for k, v in d.items():
                seen[k] = seen.get(k, 0) + 1
                merged[k] = v
        repeated = [k for k, n in seen.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                             "ambiguous")
        return merged
    raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                     f"{type(dicts)}")


def _names(module, prefix=""):
    """Names of every parameter and buffer, as state_dict spells them."""
    out = []
    d = module.__dict__
    for n, p in d["_parameters"].items():
        if p is not None:
            out.append(prefix + n)
    for n, b in d["_buffers"].items():
        if b is not None:
            out.append(prefix + n)
    for n, m in d["_modules"].items():
        if m is not None:
            out.extend(_names(m, f"{prefix}{n}."))
    return out


def _owner(module, dotted):
    """(module holding the last name, that name), or (None, name) when a submodule is missing."""
    *path, name = dotted.split(".")
    mod = module
    for p in path:
        mods = mod.__dict__.get("_modules", {})
        if p not in mods or mods[p] is None:
            return None, name
        mod = mods[p]
    return mod, name


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with the named parameters and buffers replaced by the given tensors."""
    from ..nn.modules.module import Module
    if not isinstance(module, Module):
        raise TypeError(f"functional_call: expected an nn.Module, got {type(module)}")
    values = _merge(parameter_and_buffer_dicts)
    for k, v in values.items():
        if type(k) is not str:
            raise TypeError(f"functional_call: keys must be str, got {type(k)}")
        if not isinstance(v, Tensor):
            raise TypeError(f"functional_call: the value for '{k}' must be a Tensor, got {type(v)}")
    known = _names(module)
    if strict:
        unexpected = [k for k in values if k not in known]
        missing = [k for k in sorted(known) if k not in values]
        if unexpected or missing:
            msg = f"Error(s) in reparametrizing for {type(module).__name__}:"
            if unexpected:
                msg += "\n\tUnexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + "."
            if missing:
                msg += "\n\tMissing key(s): " + ", ".join(f"'{k}'" for k in missing) + "."
            raise RuntimeError(msg)
    if tie_weights:
        values = _tie(module, values)
    undo = []
    try:
        for k, v in values.items():
            mod, name = _owner(module, k)
            if mod is None:
                continue
            d = mod.__dict__
            for table in ("_parameters", "_buffers"):
                if name in d[table]:
                    undo.append((d[table], name, d[table][name]))
                    d[table][name] = v
                    break
            else:
                undo.append((d, name, d.get(name, _ABSENT)))
                d[name] = v
        if args is None:
            args = ()
        elif type(args) is not tuple:
            args = (args,)
        return module(*args, **(kwargs or {}))
    finally:
        for table, name, old in reversed(undo):
            if old is _ABSENT:
                table.pop(name, None)
            else:
                table[name] = old


_ABSENT = object()


def _tie(module, values):
    """A replacement given for one name of a tensor the module holds under several names goes to all of them."""
    by_id = {}
    for name in _names(module):
        mod, last = _owner(module, name)
        d = mod.__dict__
        t = d["_parameters"].get(last)
        if t is None:
            t = d["_buffers"].get(last)
        by_id.setdefault(id(t), []).append(name)
    out = dict(values)
    for names in by_id.values():
        given = [n for n in names if n in values]
        if given:
            for n in names:
                out.setdefault(n, values[given[0]])
    return out


def stack_module_state(models):
    """torch.func.stack_module_state: the parameters and the buffers of same-class models, each
    stacked along a new leading dim (a new leaf requiring grad where the models' do), as two dicts
    keyed by the first model's names (PyTorch's checks and messages, in its order)."""
    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: _stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: _stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers


def _stacked_leaf(tensors, name):
    from ..ops.joining import stack

    all_requires_grad = all(t.requires_grad for t in tensors)
    if not all_requires_grad and any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = stack(tensors)
    if all_requires_grad:
        result = result.detach().requires_grad_()
    return result
