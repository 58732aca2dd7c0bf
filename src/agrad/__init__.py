"""agrad: PyTorch's autograd semantics on numpy.

``import agrad`` gives the namespace agrad scripts see as ``torch``:
``agrad.tensor``, ``agrad.sin``, ``agrad.no_grad``, ``agrad.autograd.grad``, ...
"""

__version__ = "0.1.0"

import gc as _gc
import os as _os
import sys as _sys

# numpy picks its SIMD kernels by CPU, and its AVX-512 ones (SVML's pow, exp, log, sin, ...)
# round some results differently from its AVX2 and scalar ones: agrad's numbers, which are
# PyTorch's AVX2 kernels' (docs/semantics.md, "Differential testing"), must not depend on
# the machine. When numpy is not imported yet, agrad asks it for the AVX2 kernels ("X86_V4"
# and "AVX512_*" are numpy 2.4's names for the AVX-512 groups, "AVX512F" ... older numpy's;
# names a version does not know are ignored). A user's own setting wins.
if "numpy" not in _sys.modules:
    _os.environ.setdefault("NPY_DISABLE_CPU_FEATURES",
                           "X86_V4 AVX512_ICL AVX512_SPR AVX512F AVX512CD AVX512_KNL AVX512_KNM "
                           "AVX512_SKX AVX512_CLX AVX512_CNL")

# The import makes tens of thousands of objects that live as long as the process and
# no garbage: the cyclic collector's passes over them (about 25 M instructions, numpy's
# import included) find nothing, so it rests until the import is done, and its young
# generations do not walk them again afterwards.
_collecting = _gc.isenabled()
_gc.disable()
try:
    import numpy as _np

    # PyTorch computes log(0) = -inf and 0/0 = nan silently; so does agrad. (This sets
    # numpy's error state for the process: agrad is the numerics layer here.)
    _np.seterr(all="ignore")

    # numpy's temporaries of 128 KiB-4 MiB from glibc's heap, not a fresh mmap each (_heap.py)
    from . import _heap

    _heap.keep_temporaries()

    from . import dtypes as _dtypes
    from .dtypes import (  # noqa: F401
        bool_ as bool, dtype, float16, float32, float64, int8, int16, int32, int64, uint8,
        get_default_dtype, set_default_dtype, promote_types,
    )
    from .tensor import Size, Tensor  # noqa: F401
    from .devices import device, get_default_device, set_default_device  # noqa: F401
    from . import ops as _ops
    from . import autograd  # noqa: F401
    from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
    from .autograd.anomaly_mode import (is_anomaly_check_nan_enabled, is_anomaly_enabled,  # noqa: F401
                                        set_anomaly_enabled)
    from .printing import get_printoptions, set_printoptions  # noqa: F401

    float = float32
    double = float64
    half = float16
    long = int64
    int = int32
    short = int16
    uint8 = uint8
    cfloat = None  # complex dtypes are not supported; see docs
    del cfloat

    globals().update(dict.items(_ops.FUNCTIONS))  # (the loaded families'; the others: __getattr__)

    from . import nn, linalg, special  # noqa: E402,F401
    from . import accelerator, backends, cuda, return_types  # noqa: E402,F401
    from .typeinfo import finfo, iinfo  # noqa: E402,F401
    from .settings import (  # noqa: E402,F401
        are_deterministic_algorithms_enabled, get_deterministic_debug_mode, get_float32_matmul_precision,
        get_num_interop_threads, get_num_threads, is_deterministic_algorithms_warn_only_enabled,
        is_inference_mode_enabled, is_warn_always_enabled, set_deterministic_debug_mode,
        set_float32_matmul_precision, set_num_interop_threads, set_num_threads, set_warn_always,
        use_deterministic_algorithms,
    )
    from .legacy import (  # noqa: E402,F401
        BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor, ShortTensor,
        Variable as _Variable,
    )
finally:
    if _collecting:
        if not _gc.get_freeze_count():
            # what the import made joins the oldest generation without a pass over it
            # (freeze, then unfreeze at once: nothing stays frozen; about 11 M instructions)
            _gc.freeze()
            _gc.unfreeze()
        _gc.enable()
    del _collecting, _gc

autograd.Variable = _Variable


def result_type(tensor1, tensor2):
    return _dtypes.result_type(tensor1, tensor2)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


def is_floating_point(input):
    return input.dtype.is_floating_point


def can_cast(from_, to):
    return _dtypes.promote_types(from_, to) is to or (from_._kind <= to._kind)


def set_limits(*, max_elements="keep"):
    """Resource limits for tensors made from now on (None: unlimited)."""
    from . import _limits
    if max_elements != "keep":
        _limits.set_max_elements(max_elements)


_LAZY_SUBMODULES = ("optim", "utils", "func", "distributions")


def __getattr__(name):
    # torch.optim, torch.utils.data, torch.func and torch.distributions load on first use (start-up stays small)
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    if name == "vmap":  # torch.vmap is torch.func.vmap
        from .func import vmap
        return vmap
    if _ops._families.lookup("FUNCTIONS", name):  # an op family not loaded yet
        value = globals()[name] = _ops.FUNCTIONS[name]
        return value
    raise AttributeError(f"module 'torch' has no attribute '{name}'")


def __dir__():
    return sorted({*globals(), *_ops._families.names("FUNCTIONS")})
