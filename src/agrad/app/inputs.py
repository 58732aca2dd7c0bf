"""``--set NAME=VALUE`` and ``--param NAME=VALUE``: parsing, ``@file`` data.

``VALUE`` is an agrad expression (evaluated by the script language) or a
data file: ``@file.npy``, ``@file.npz:key`` (the key may be left out when
the archive holds one array) or ``@file.csv`` (comma-separated numbers,
``#`` comments).  File data becomes a tensor of the default float dtype.
Every problem is an :class:`InputError` whose message names the option, the
file and what is wrong; the CLI reports it as a usage error (exit 2).
"""

from __future__ import annotations

import keyword
import os
import re
import stat
import sys

import numpy as np

_NPZ = re.compile(r"^(?P<path>.*\.npz)(?::(?P<key>.*))?$", re.IGNORECASE | re.DOTALL)


def _backend():
    """The run's backend configuration (``app.backend``), None for a plain numpy run: a
    backend is only ever activated through that module, so when it is not loaded there is
    none, and it is not imported for nothing (start-up: the contained child would compile it)."""
    mod = sys.modules.get("agrad.app.backend")
    return None if mod is None else mod.active()


class InputError(Exception):
    """A bad ``--set`` / ``--param`` / SOURCE input (a usage error)."""


def split_binding(option: str, text: str) -> tuple[str, str]:
    """``"x=ones(2)"`` -> ``("x", "ones(2)")``, checking the name."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep:
        raise InputError(f"{option} {text!r}: expected NAME=VALUE")
    if not name.isidentifier() or keyword.iskeyword(name):
        raise InputError(f"{option} {text!r}: {name!r} is not a valid variable name")
    if name.startswith("__"):
        raise InputError(f"{option} {text!r}: names starting with '__' are reserved")
    if not value.strip():
        raise InputError(f"{option} {text!r}: the value after '=' is empty")
    return name, value.strip()


def is_file_value(value: str) -> bool:
    return value.startswith("@")


def load_array(option: str, spec: str, max_elements=None) -> np.ndarray:
    """The numbers of ``@file.npy``, ``@file.npz[:key]`` or ``@file.csv`` as an array."""
    target = spec[1:]
    if not target:
        raise InputError(f"{option}: '@' must be followed by a file name (@data.npy, @data.npz:key, @data.csv)")
    m = _NPZ.match(target)
    if m:
        return _load_npz(option, m.group("path"), m.group("key"), max_elements)
    path = target
    ext = os.path.splitext(path)[1].lower()
    if ext == ".npy":
        def read(f):
            return _read_npy(option, path, f, os.fstat(f.fileno()).st_size, max_elements)
        arr = _open(option, path, read, ".npy file")
    elif ext == ".csv":
        arr = _load_csv(option, path)
    else:
        raise InputError(
            f"{option}: cannot read {path!r}: unsupported file type {ext or '(none)'!r}; "
            "use @file.npy, @file.npz:key or @file.csv")
    return _numeric(option, path, arr)


def _open(option, path, reader, what):
    try:
        mode = os.stat(path).st_mode  # before open(): opening a FIFO waits for a writer
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else (
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
            raise InputError(f"{option}: cannot read {path!r}: it is {kind}, not a data file")
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise InputError(f"{option}: cannot read {path!r}: it is not a regular file")
            return reader(f)
    except FileNotFoundError:
        raise InputError(f"{option}: cannot read {path!r}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{option}: cannot read {path!r}: it is a directory") from None
    except PermissionError:
        raise InputError(f"{option}: cannot read {path!r}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{option}: cannot read {path!r}: {exc.strerror or exc}") from None
    except MemoryError:
        from .._limits import memory_limit_error
        limit = memory_limit_error(MemoryError())
        raise InputError(f"{option}: {path!r} does not fit in memory"
                         + (f": {limit}" if limit is not None else "")) from None
    except (ValueError, EOFError) as exc:
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "pickle" in detail.lower():
            detail = "it holds Python objects (pickled data), not numbers"
        raise InputError(f"{option}: {path!r} is not a valid {what}: {detail}") from None


_NPY_MAGIC = b"\x93NUMPY"


def _read_npy(option, path, f, size, max_elements):
    """One ``.npy`` stream: its header is checked against the limit and the data
    actually there (``size`` bytes from the start) before anything is allocated."""
    shape, fortran, dtype, start = _npy_header(option, path, f, size, max_elements)
    need = dtype.itemsize
    for n in shape:
        need *= int(n)
    data = f.read(need)
    if len(data) != need:
        raise ValueError(f"it ends after {len(data):,} of {need:,} bytes of data")
    arr = np.frombuffer(data, dtype=dtype)
    return arr.reshape(shape, order="F" if fortran else "C")


def _npy_header(option, path, f, size, max_elements):
    """``(shape, fortran, dtype, offset of the data)`` of the ``.npy`` stream ``f``,
    checked (element limit unless None, bytes there) before any data is read."""
    fmt = np.lib.format
    start = f.tell()
    if f.read(len(_NPY_MAGIC)) != _NPY_MAGIC:
        raise ValueError("it has no .npy header (a .npy file starts with \\x93NUMPY; "
                         "is it a text file?)")
    f.seek(start)
    version = fmt.read_magic(f)
    if version == (1, 0):
        shape, fortran, dtype = fmt.read_array_header_1_0(f)
    elif version == (2, 0):
        shape, fortran, dtype = fmt.read_array_header_2_0(f)
    else:
        raise ValueError(f".npy format version {version[0]}.{version[1]} is not supported")
    if dtype.hasobject:
        raise ValueError("it holds Python objects (pickled data), not numbers")
    numel = 1
    for n in shape:
        numel *= int(n)
    where = f"{option}: {path!r}"
    if max_elements is not None and numel > max_elements:
        raise InputError(f"{where} has {numel:,} elements, over the limit of {max_elements:,} "
                         "(--max-elements)")
    need = numel * dtype.itemsize
    have = size - (f.tell() - start)
    if need > have:
        raise ValueError(f"its header says {numel:,} elements of {dtype} ({need:,} bytes) "
                         f"but only {max(have, 0):,} bytes of data follow")
    return tuple(int(n) for n in shape), fortran, dtype, f.tell()


def _load_npz(option, path, key, max_elements=None):
    def member(z, name):
        info = z.getinfo(name + ".npy") if name + ".npy" in z.namelist() else z.getinfo(name)
        with z.open(info) as f:
            return _read_npy(option, f"{path}:{name}", f, info.file_size, max_elements)

    def read(f):
        import zipfile
        with zipfile.ZipFile(f) as z:
            names = [n[:-4] if n.endswith(".npy") else n for n in z.namelist()]
            if key is None or key == "":
                if len(names) == 1:
                    return member(z, names[0])
                listed = ", ".join(names) if names else "(none)"
                raise InputError(
                    f"{option}: {path!r} holds {len(names)} arrays ({listed}); "
                    f"name one as @{path}:KEY")
            if key not in names:
                listed = ", ".join(names) if names else "(none)"
                raise InputError(f"{option}: {path!r} has no array {key!r}; it has: {listed}")
            return member(z, key)

    import zipfile
    try:
        arr = _open(option, path, read, ".npz file")
    except zipfile.BadZipFile as exc:
        raise InputError(f"{option}: {path!r} is not a valid .npz file: {exc}") from None
    return _numeric(option, path if key is None else f"{path}:{key}", arr)


def _load_csv(option, path):
    def read(f):
        text = f.read().decode("utf-8-sig")
        lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        rows = [ln for ln in lines if ln]
        if not rows:
            raise ValueError("it holds no numbers")
        parsed = []
        for i, ln in enumerate(rows, 1):
            cells = [c.strip() for c in ln.split(",")]
            try:
                parsed.append([float(c) for c in cells])
            except ValueError:
                bad = next(c for c in cells if not _is_float(c))
                raise ValueError(f"row {i}: {bad!r} is not a number") from None
        widths = {len(r) for r in parsed}
        if len(widths) != 1:
            raise ValueError(f"rows have different numbers of columns ({', '.join(map(str, sorted(widths)))})")
        arr = np.array(parsed, dtype=np.float64)
        if arr.shape[0] == 1 or arr.shape[1] == 1:
            arr = arr.reshape(-1) if arr.size != 1 else arr.reshape(())
        return arr

    try:
        return _open(option, path, read, "CSV file")
    except UnicodeDecodeError:
        raise InputError(f"{option}: {path!r} is not a valid CSV file: it is not UTF-8 text") from None


def _is_float(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def _numeric(option, path, arr):
    arr = np.asarray(arr)
    if arr.dtype.kind not in "biuf":
        raise InputError(
            f"{option}: {path!r} holds {arr.dtype} data; only numbers (bool, integer, float) can be loaded")
    return arr


def file_tensor(option: str, spec: str, max_elements=None):
    """``@file`` as a tensor of the default float dtype.

    Under ``--backend dask`` a ``.npy`` file (or ``@dir/*.npy``, stacked) is a lazy
    chunked array, limit-checked per chunk; under numpy a ``.npy`` file of the
    default dtype is a read-only memory map."""
    from .. import dtypes
    from ..tensor import Tensor

    cfg = _backend()
    target = spec[1:]
    default = dtypes.get_default_dtype().numpy
    if target.lower().endswith(".npy") and not _NPZ.match(target):
        if cfg is not None and cfg.lazy:
            arr = _lazy_file(option, target, cfg)
            return Tensor._make(arr if arr.dtype == default else arr.astype(default))
        if "*" not in target:
            mapped = _mapped_npy(option, target, default, max_elements)
            if mapped is not None:
                return Tensor._make(mapped)
    if "*" in target:
        arr = _stack(option, target, lambda p: load_array(option, "@" + p, max_elements))
        return Tensor._make(np.array(arr, dtype=default))
    if cfg is not None and cfg.backend == "cupy":
        import cupy
        arr = load_array(option, spec, max_elements)
        return Tensor._make(cupy.asarray(np.asarray(arr, dtype=default)))

    arr = load_array(option, spec, max_elements)
    if max_elements is not None and arr.size > max_elements:
        raise InputError(
            f"{option}: {spec[1:]!r} has {arr.size:,} elements, over the limit of "
            f"{max_elements:,} (--max-elements)")
    return Tensor._make(np.array(arr, dtype=dtypes.get_default_dtype().numpy))


def plan_lazy_chunks(bindings) -> None:
    """Under ``--backend dask``: the headers of the run's ``@file.npy`` data
    (``bindings``: ``(option, text)`` of each ``--set``/``--param``) before any opens, so
    that ``--chunks auto`` cuts files with as many rows alike (``backend.plan_rows``).  A
    file that cannot be read is left to its load, which reports it."""
    cfg = _backend()
    if cfg is None or not cfg.lazy or cfg.chunks != "auto":
        return
    from . import backend

    shapes = []
    for option, text in bindings:
        try:
            value = split_binding(option, text)[1]
            if not is_file_value(value):
                continue
            target = value[1:]
            if "*" in target or not target.lower().endswith(".npy") or _NPZ.match(target):
                continue
            shape, _, dtype, _ = _npy_meta(option, target)
        except InputError:
            continue
        shapes.append((shape, dtype.itemsize))
    backend.plan_rows(cfg, shapes)


def _npy_meta(option, path, max_elements=None):
    """The header of a ``.npy`` file: (shape, fortran, dtype, data offset); no element limit
    by default (a lazy array is checked per chunk)."""
    def read(f):
        return _npy_header(option, path, f, os.fstat(f.fileno()).st_size, max_elements)
    return _open(option, path, read, ".npy file")


def _lazy_file(option, target, cfg):
    """``@file.npy`` or ``@dir/*.npy`` (stacked along a new first axis) as a dask array."""
    from .backend import lazy_npy

    def one(path):
        shape, fortran, dtype, offset = _npy_meta(option, path)
        if dtype.kind not in "biuf":
            raise InputError(f"{option}: {path!r} holds {dtype} data; only numbers (bool, integer, "
                             "float) can be loaded")
        try:
            return lazy_npy(path, offset, shape, dtype, fortran, cfg, option.strip("-"))
        except ValueError as exc:  # dask's word on chunks it cannot use
            raise InputError(f"{option}: {path!r}: --chunks: {exc}") from None

    if "*" in target:
        return _stack(option, target, one, lazy=True)
    return one(target)


def _stack(option, pattern, load, lazy=False):
    """``@dir/*.npy``: the matching files in name order, stacked along a new first axis."""
    import glob
    paths = sorted(glob.glob(pattern))
    if not paths:
        raise InputError(f"{option}: no file matches {pattern!r}")
    arrays = [load(p) for p in paths]
    shapes = {tuple(a.shape) for a in arrays}
    if len(shapes) != 1:
        listed = ", ".join(f"{os.path.basename(p)} {list(a.shape)}" for p, a in zip(paths, arrays))
        raise InputError(f"{option}: {pattern!r}: the files have different shapes and cannot be "
                         f"stacked: {listed}")
    if lazy:
        import dask.array as da
        return da.stack(arrays)
    return np.stack(arrays)


def _mapped_npy(option, path, default, max_elements):
    """A ``.npy`` file of the default dtype as a memory map (None: read it instead):
    copy-on-write, or read-only when it is larger than --max-memory."""
    shape, fortran, dtype, offset = _npy_meta(option, path, max_elements)
    if dtype != default:
        return None
    numel = 1
    for n in shape:
        numel *= n
    if numel == 0:
        return None
    order = "F" if fortran else "C"
    try:
        # copy-on-write: in-place changes stay private; such a mapping counts against
        # --max-memory, so a file larger than that is mapped read-only instead
        return np.memmap(path, dtype=dtype, mode="c", offset=offset, shape=shape, order=order)
    except (OSError, ValueError):
        pass
    try:
        return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape, order=order)
    except (OSError, ValueError) as exc:
        raise InputError(f"{option}: cannot map {path!r}: {exc}") from None


def as_param(value):
    """``tensor(value, dtype=default)`` as a leaf that requires grad (``--param``)."""
    from .. import dtypes
    from ..tensor import Tensor
    from ..ops import factories

    dt = dtypes.get_default_dtype()
    if isinstance(value, Tensor):
        t = Tensor._make(np.array(value._values(), dtype=dt.numpy))
    else:
        t = factories.tensor(value, dtype=dt)
    cfg = _backend()
    if cfg is not None and cfg.backend == "cupy":  # a parameter lives with the data, on the GPU
        import cupy
        t = Tensor._make(cupy.asarray(t._data))
    t.requires_grad_(True)
    return t
