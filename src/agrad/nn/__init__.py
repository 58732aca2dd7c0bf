"""torch.nn for agrad: ``nn.functional`` eagerly; Module, Parameter, the layers,
``nn.init`` and ``nn.utils`` on first use (module ``__getattr__``), so that a
script that never touches them does not pay for importing them."""

import importlib

from . import functional  # noqa: F401

_SUBMODULES = ("init", "utils", "modules", "parameter")
_FROM_PARAMETER = ("Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer")


def _layer_names():
    from . import modules
    return [n for n in dir(modules) if n[:1].isupper()]


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _FROM_PARAMETER:
        from . import parameter
        return getattr(parameter, name)
    if name[:1].isupper():
        from . import modules
        value = getattr(modules, name, None)
        if value is not None:
            return value
    raise AttributeError(f"module 'torch.nn' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES) | set(_FROM_PARAMETER) | set(_layer_names()))
