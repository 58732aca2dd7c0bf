"""The argument check of ``torch.sin(input)`` and the other unary maths functions with their
short ways inline (unary.py's ``api``; _argcheck.checked asks a function for its
``checked_first``): one Python frame fewer on the call a chain of small ops makes most.  The
same checks, results and errors as _argcheck's ``first`` wrapped around ``api``."""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from . import _argcheck, _vec_math
from ._shortcuts import ONE32 as _ONE32, ONE64 as _ONE64

_MISSING = _argcheck._MISSING
_Unbatched, _BATCHED_CALL = _argcheck.Unbatched, _argcheck.BATCHED_CALL
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_ONE = (1,)
_empty = np.empty
_ndarray = np.ndarray
_SMALL32 = _vec_math.SMALL32


def checked_first(api, apply_one, any64, single64, scalar32, scalar64, small32=None):
    """``api.checked_first``: makes ``first(input)``, which runs api's float64 / float32 ways
    itself, and math's function on one finite float64 element where it is numpy's (``scalar64``:
    sin, cos) (``any64``, ``single64``, ``scalar32``, ``scalar64``, ``small32``: as api reads them)
    and api for any other tensor; ``general`` (the full check) for any other call."""

    one64 = any64 or single64  # (a kernel of float64 arrays: one of shape (1,) in, one out)

    def make(general, key):
        def first(input=_MISSING, *args, **kwargs):
            if type(input) is Tensor and not args and not kwargs:
                try:
                    arr = input._data
                    if type(arr) is _ndarray:
                        d = arr.dtype
                        if d is _F64:
                            if arr.shape == _ONE:  # (one element: apply_one told so, reads no array again)
                                if scalar64 is not None:
                                    v = arr.item()
                                    if v - v == 0.0:  # (finite: math refuses an infinity; a NaN keeps numpy's bits)
                                        res = _empty(1)
                                        res[0] = scalar64(v)
                                        return apply_one(input, (arr,), None, None, res, _ONE64)
                                if one64 is not None:
                                    return apply_one(input, (arr,), one64, None, None, _ONE64)
                            elif any64 is not None:
                                return apply_one(input, (arr,), any64)
                            elif single64 is not None and arr.size == 1:
                                return apply_one(input, (arr,), single64)
                        elif d is _F32:
                            if scalar32 is not None and arr.shape == _ONE:
                                try:
                                    v = scalar32(arr.item())
                                except (ValueError, OverflowError):
                                    pass  # (numpy's answer: api's way)
                                else:
                                    res = arr.copy()
                                    res[0] = v
                                    return apply_one(input, (arr,), None, None, res, _ONE32)
                            elif small32 is not None and arr.size < _SMALL32 and arr.size != 1:
                                # (the kernel's steps for a small float32 array, without its frame)
                                return apply_one(input, (arr,), None, None, small32(arr, dtype=_F64).astype(_F32))
                    return api(input)
                except _Unbatched:
                    return _BATCHED_CALL[0](api, (input,), {})
                except Exception:
                    _argcheck._raise_parser_error(key, (input,), {})
                    raise
            if input is not _MISSING:
                args = (input, *args)
            return general(*args, **kwargs)

        return first

    return make
