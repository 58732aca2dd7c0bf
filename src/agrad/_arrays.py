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
#: (``compute``); a backend installs its own (scheduler, progress bar), and may install
#: how a lazy array is broadcast (``broadcast_to``: its chunks along the new axes).
_computer = {"fn": None, "host": None, "broadcast": None}


def register_lazy(array_type, compute_fn, broadcast_fn=None) -> None:
    """Let tensors hold ``array_type`` (not converted by numpy); ``compute_fn(arrays)``
    returns their values as numpy arrays, computed together; ``broadcast_fn(array, shape)``,
    if given, broadcasts one (``np.broadcast_to`` otherwise)."""
    LAZY.add(array_type)
    KEPT.add(array_type)
    _computer["fn"] = compute_fn
    _computer["broadcast"] = broadcast_fn


def broadcast_to(data, shape):
    """``np.broadcast_to`` of data that is not an ``ndarray``: a lazy array is cut along
    its new axes as the backend says (the gradient of a mean over chunked data is chunked
    like the data, so each chunk's backward stays with the chunk)."""
    fn = _computer["broadcast"]
    if fn is not None and type(data) in LAZY:
        return fn(data, shape)
    return np.broadcast_to(data, shape)


def register_device(array_type, to_host) -> None:
    """Let tensors hold ``array_type`` (a GPU's arrays); ``to_host(array)`` copies one to numpy."""
    DEVICE.add(array_type)
    KEPT.add(array_type)
    _computer["host"] = to_host


def unregister_all() -> None:
    LAZY.clear()
    DEVICE.clear()
    KEPT.clear()
    _computer["fn"] = _computer["host"] = _computer["broadcast"] = None


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
