"""Data other than numpy arrays that a tensor may hold (issue 16).

Numpy stays the default and the fast path: ``Tensor._make`` looks here only
when it is given something that is not an ``ndarray``.  A backend (the
CLI's ``--backend dask``) registers its array type; ops then reach it
through numpy's own dispatch (``__array_ufunc__``/``__array_function__``),
so a dask array flows through most ops unchanged and stays lazy.

* :func:`is_lazy` -- data whose values are not computed yet (a dask array);
* :func:`check_chunks` -- the element limit applies to each chunk of a lazy
  array, not to the lazy whole;
* :func:`compute` -- the values of several tensors in one ``dask.compute``
  (the data is read once), written back into the tensors.
"""

from __future__ import annotations

import numpy as np

from ._limits import check_numel

#: Array types registered by a backend: lazy arrays (dask) ...
LAZY: set = set()
#: ... device arrays (cupy) ...
DEVICE: set = set()
#: ... and both: the types ``Tensor._make`` keeps as they are.
KEPT: set = set()

#: Outputs of a backward pass up to this many elements are computed with its gradients.
SMALL = 1 << 16

#: Called with a list of tensors whose lazy data was computed together
#: (``compute``); a backend installs its own (scheduler, progress bar).
_computer = {"fn": None, "host": None}


def register_lazy(array_type, compute_fn) -> None:
    """Let tensors hold ``array_type`` (not converted by numpy); ``compute_fn(arrays)``
    returns their values as numpy arrays, computed together."""
    LAZY.add(array_type)
    KEPT.add(array_type)
    _computer["fn"] = compute_fn


def register_device(array_type, to_host) -> None:
    """Let tensors hold ``array_type`` (a GPU's arrays); ``to_host(array)`` copies one to numpy."""
    DEVICE.add(array_type)
    KEPT.add(array_type)
    _computer["host"] = to_host


def unregister_all() -> None:
    LAZY.clear()
    DEVICE.clear()
    KEPT.clear()
    _computer["fn"] = _computer["host"] = None


def host(data):
    """``data`` as a numpy array: a device array is copied, a lazy one computed."""
    kind = type(data)
    if kind in DEVICE:
        return _computer["host"](data)
    if kind in LAZY:
        return np.asarray(_computer["fn"]([data])[0])
    return np.asarray(data)


def is_lazy(data) -> bool:
    return type(data) in LAZY


def check_chunks(data) -> None:
    """The element limit, for each chunk of a lazy array (for the whole of a device array)."""
    if type(data) not in LAZY:
        check_numel(int(data.size))
        return
    largest = 1
    for sizes in data.chunks:
        biggest = max(sizes) if sizes else 0
        largest *= int(biggest)
    check_numel(largest, "chunk")


def chunks_of(data) -> list:
    """The chunk sizes along each axis, as lists (JSON's ``"chunks"``)."""
    return [[int(c) for c in sizes] for sizes in data.chunks]


def lazy_tensors(tensors) -> list:
    return [t for t in tensors if t is not None and type(t._data) in LAZY]


def compute(tensors) -> None:
    """Compute the lazy data of ``tensors`` together; each tensor then holds numpy data."""
    todo, seen = [], set()
    for t in tensors:
        if t is not None and type(t._data) in LAZY and id(t) not in seen:
            seen.add(id(t))
            todo.append(t)
    if not todo:
        return
    values = _computer["fn"]([t._data for t in todo])
    for t, v in zip(todo, values):
        t._data = np.asarray(v)
