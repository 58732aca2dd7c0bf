"""torch.autograd.graph's saved-tensor hooks: ``saved_tensors_hooks`` (pack when an op saves a
tensor, unpack when backward reads it), ``save_on_cpu`` and ``disable_saved_tensors_hooks``.
The stack of hooks in effect is read by SavedTensor (graph.py) and the ops' recording paths."""

from __future__ import annotations

#: saved_tensors_hooks in effect, innermost last: (pack_hook, unpack_hook)
_PACK_HOOKS: list = []
#: the message of an enclosing disable_saved_tensors_hooks (None: hooks allowed)
_HOOKS_DISABLED: list = [None]


class saved_tensors_hooks:
    """Context manager: ``pack_hook(tensor)`` runs when an op saves a tensor for backward
    (its result is what is kept); ``unpack_hook(packed)`` runs each time the saved tensor is
    needed (backward, ``grad_fn._saved_*``) and must return a tensor."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _HOOKS_DISABLED[0] is not None:
            raise RuntimeError(_HOOKS_DISABLED[0])
        _PACK_HOOKS.append((self.pack_hook, self.unpack_hook))  # (``as h`` is None, as in PyTorch)

    def __exit__(self, *exc):
        _PACK_HOOKS.pop()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept as copies on the CPU (in agrad, where everything is on the CPU: as
    copies) and handed back at backward."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        from ..tensor import Tensor

        def pack_to_cpu(tensor):
            return (tensor.device, Tensor._make(tensor._data.copy()))

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Context manager: inside it, entering ``saved_tensors_hooks`` raises RuntimeError(error_message)."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        self._previous = _HOOKS_DISABLED[0]
        _HOOKS_DISABLED[0] = self.error_message  # (``as h`` is None: PyTorch's is a generator context manager)

    def __exit__(self, *exc):
        _HOOKS_DISABLED[0] = self._previous
        return False
