"""The op table: every op module in this package registers its functions here.

Modules are discovered (every ``agrad/ops/<family>.py`` not starting with an
underscore), so adding an op family is adding one file.
"""

import importlib
import pkgutil

from ._op import ALL_OPS, FUNCTIONAL, FUNCTIONS, LINALG, METHODS, OPS, export, method  # noqa: F401

FAMILIES = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
for _name in FAMILIES:
    importlib.import_module(f"{__name__}.{_name}")


def _attach_methods():
    from ..tensor import Tensor

    for name, fn in METHODS.items():
        setattr(Tensor, name, fn)


_attach_methods()
