"""torch.func for agrad: composable derivative transforms and vmap.

``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``,
``hessian`` (:mod:`.transforms`), ``vmap`` (:mod:`.vmap`) and
``functional_call`` and ``stack_module_state`` (:mod:`.functional_call`).  Loaded when a script first
reaches ``torch.func`` or ``torch.vmap``.
"""

from .functional_call import functional_call, stack_module_state
from .transforms import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp
from .vmap import vmap

for _f in (functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap):
    _f._agrad_calls_script = True   # agrad.lang keeps guarded arrays guarded in calls of these
del _f

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "stack_module_state", "vjp", "vmap"]
