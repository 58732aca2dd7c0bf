"""torch.device and the default device: agrad computes on the CPU only.

A ``device`` object can name any of PyTorch's device types (``torch.device("cuda")``
is fine, as in a CPU-only PyTorch build); placing a tensor on anything but the CPU
raises what a CPU-only PyTorch raises (``AssertionError: Torch not compiled with
CUDA enabled`` for CUDA, PyTorch's message for MPS).
"""

from __future__ import annotations

import numbers

#: device types PyTorch parses, in the order its error message lists them
DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")

NO_CUDA = "Torch not compiled with CUDA enabled"


class device:
    """torch.device(type, index=None) or torch.device("type:index")."""

    __slots__ = ("_type", "_index")

    def __init__(self, type, index=None):  # noqa: A002 (PyTorch's parameter name)
        if isinstance(type, device):
            self._type, self._index = type._type, type._index
            return
        if isinstance(type, numbers.Integral) and not isinstance(type, bool):
            if type < 0:
                raise RuntimeError("Device index must not be negative")
            # torch.device(0) is the current accelerator's first device: there is none
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got ({_tname(type)}), but "
                            "expected one of:\n * (torch.device device)\n * (str type, int index = -1)\n")
        text, _, idx = type.partition(":")
        if text not in DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device string: "
                               f"{type}")
        if idx:
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index was passed explicitly: "
                                   f"{type}")
            index = int(idx)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self._type, self._index = text, index

    @property
    def type(self):
        return self._type

    @property
    def index(self):
        return self._index

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other):
        return isinstance(other, device) and (self._type, self._index) == (other._type, other._index)

    def __hash__(self):
        return hash((self._type, self._index))

    def __reduce__(self):
        raise TypeError("cannot pickle 'torch.device' object in agrad")


CPU = device("cpu")
_default = [CPU]


def _tname(x):
    return type(x).__name__


def check(spec):
    """The device a tensor may be placed on: CPU, or PyTorch's error for the others."""
    d = spec if isinstance(spec, device) else device(spec)
    if d.type == "cpu":
        return CPU
    if d.type == "cuda":
        raise AssertionError(NO_CUDA)
    if d.type == "mps":
        raise RuntimeError("PyTorch is not linked with support for mps devices")
    raise RuntimeError(f"agrad computes on the CPU only; device '{d}' is not available (use device='cpu' or "
                       "leave it out)")


def check_default():
    """Factories without ``device=`` use the default device (torch.set_default_device)."""
    if _default[0].type != "cpu":
        check(_default[0])


def set_default_device(spec):
    """torch.set_default_device: None or "cpu" (any other device fails when a tensor is made, as in PyTorch)."""
    _default[0] = CPU if spec is None else device(spec)


def get_default_device():
    return _default[0] if _default[0].type != "cpu" else CPU
