"""PyTorch's refusals of an in-place change to a view it cannot rebase (handle_view_on_rebase),
by how the view was made (its CreationMeta, agrad's ``Tensor._view_meta``): ``"no_grad"`` in
no_grad mode, ``"inference"`` in inference mode (of a normal tensor), ``"multi"`` by an op that
returns several views (split, unbind, ...), ``"custom"`` by a custom Function."""

from __future__ import annotations

_FORBIDDEN = (" Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
              "moving both the view and the inplace either both inside the {} block (if you don't want the inplace to "
              "be tracked) or both outside (if you want the inplace to be tracked).")
#: the end of each refusal, by the view's CreationMeta
SUFFIX = {
    "no_grad": _FORBIDDEN.format("no_grad"),
    "inference": _FORBIDDEN.format("inference_mode"),
    "multi": (" This view is the output of a function that returns multiple views. Such functions do not allow the "
              "output views to be modified inplace. You should replace the inplace operation by an out-of-place one."),
    "custom": (" This view was created inside a custom Function (or because an input was returned as-is) and the "
               "autograd logic to handle view+inplace would override the custom backward associated with the "
               "custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by "
               "cloning the output of the custom Function."),
}


def _name(fn):
    return type(fn).__name__.rstrip("0123456789").removesuffix("Backward")


def message(meta, fn, output_nr, indirect):
    """The text of PyTorch's refusal for a view of CreationMeta ``meta`` whose grad_fn is ``fn``
    (output ``output_nr`` of it); ``indirect``: its base or another view of it was changed."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    if meta in ("no_grad", "inference") or fn is None:
        prefix = (f"Output {output_nr} of {_name(fn)} is a view of a view which was created in" if fn is not None
                  else "A view was created in")
        if meta == "inference":
            msg = f"{prefix} inference mode and {modified} modified inplace in normal mode."
        else:
            msg = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        msg = f"Output {output_nr} of {_name(fn)} is a view and {modified} modified inplace."
    return msg + SUFFIX[meta]


def check_view_meta(t):
    """Raise PyTorch's refusal of an in-place change to the view ``t`` (whose CreationMeta is not the
    default) when the change is recorded (check_inplace)."""
    meta = t._view_meta
    fn = t._grad_fn if meta in ("no_grad", "inference") else t.grad_fn
    raise RuntimeError(message(meta, fn, t._output_nr, False))


def check_rebase(t):
    """Raise PyTorch's refusal when the view ``t``'s base or another view of it changed in place since
    ``t``'s grad_fn was made and ``t`` cannot be rebased; return when it can."""
    meta = t._view_meta
    if meta in ("no_grad", "inference", "multi", "custom"):
        raise RuntimeError(message(meta, t._grad_fn, t._output_nr, True))
