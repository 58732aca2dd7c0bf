"""Render tensors exactly the way PyTorch's ``repr(tensor)`` does.

The Tensor class calls :func:`tensor_repr` with its numpy buffer, its torch
dtype name and its autograd state; the result is character-for-character the
string PyTorch 2.x prints for the same tensor (CPU, strided, dense).

How PyTorch lays a tensor out
-----------------------------
* **Summarisation.**  A tensor with more than ``threshold`` elements is
  summarised: along every axis longer than ``2 * edgeitems`` only the first and
  last ``edgeitems`` entries are shown, with ``...`` in between.  Only the
  shown entries take part in choosing the number format, so we select them
  with one fancy-indexing step and never look at the others.
* **Number format** (one format for the whole tensor, from its shown,
  finite, non-zero values):

  - *integer mode* when every such value is a whole number: ``1.``, ``-0.``;
  - *scientific* (``1.0000e+10``) when ``max/min > 1000``, ``max > 1e8`` or
    ``min < 1e-4`` (in absolute value), unless the ``sci_mode`` option forces
    it on or off;
  - otherwise *fixed* with ``precision`` decimals.

  Zeros, ``nan`` and ``inf`` never influence the format or the column width
  (so ``tensor([0., nan])`` keeps integer mode).  Every element is
  right-aligned to the widest formatted finite non-zero value (minimum 1).
  Integer and bool tensors print ``str()`` of each value, aligned to the
  widest.
* **Lines.**  Innermost rows wrap so that ``(linewidth - indent) //
  (width + 2)`` elements share a line; nested dimensions are separated by
  ``,`` plus ``ndim - 1 - depth`` newlines and indentation.
* **Suffixes** (``size=``, ``dtype=``, ``grad_fn=``/``requires_grad=``)
  follow the body, each moving onto a new line when it would overflow.

Complex tensors format real and imaginary parts with two independent
formatters, like PyTorch does.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

__all__ = [
    "PrintOptions",
    "get_printoptions",
    "printoptions",
    "set_printoptions",
    "tensor_repr",
]


# --------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------


class PrintOptions:
    """Printing options; the same fields and defaults as ``torch.set_printoptions``.

    precision: digits after the decimal point (fixed and scientific formats).
    threshold: element count above which a tensor is summarised.
    edgeitems: entries kept at each end of a summarised axis.
    linewidth: characters per line used for wrapping.
    sci_mode:  ``True``/``False`` forces scientific notation on/off;
               ``None`` lets the values decide.

    (A plain class: a dataclass would exec generated code at every start-up.)
    """

    def __init__(self, precision: int = 4, threshold: float = 1000, edgeitems: int = 3,
                 linewidth: int = 80, sci_mode: bool | None = None):
        self.precision = precision
        self.threshold = threshold
        self.edgeitems = edgeitems
        self.linewidth = linewidth
        self.sci_mode = sci_mode

    def __repr__(self):
        return "PrintOptions(" + ", ".join(f"{k}={v!r}" for k, v in vars(self).items()) + ")"

    def __eq__(self, other):
        return vars(self) == vars(other) if type(other) is PrintOptions else NotImplemented

    __hash__ = None


#: Values each ``profile=`` name of :func:`set_printoptions` stands for.
_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}

#: The module-wide options used when ``tensor_repr`` gets no ``options``.
_OPTIONS = PrintOptions()


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Change the module-wide print options, mirroring ``torch.set_printoptions``.

    A ``profile`` ("default", "short" or "full") is applied first, then any
    explicitly given option overrides it.  As in PyTorch, an unknown profile
    name is ignored, and ``sci_mode`` is always assigned, so leaving it out
    resets it to ``None`` (automatic).
    """
    if profile is not None and profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(_OPTIONS, name, value)
    explicit = {
        "precision": precision,
        "threshold": threshold,
        "edgeitems": edgeitems,
        "linewidth": linewidth,
    }
    for name, value in explicit.items():
        if value is not None:
            setattr(_OPTIONS, name, value)
    _OPTIONS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current module-wide options, as keyword arguments for :func:`set_printoptions`."""
    return dict(vars(_OPTIONS))


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Temporarily change the print options (same arguments as :func:`set_printoptions`)."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


# --------------------------------------------------------------------------
# Dtypes
# --------------------------------------------------------------------------

_FLOAT_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})
_INT_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8"})
_COMPLEX_DTYPES = frozenset({"complex64", "complex128"})
_ALL_DTYPES = _FLOAT_DTYPES | _INT_DTYPES | _COMPLEX_DTYPES | {"bool"}


def _as_display_array(array: np.ndarray, dtype: str) -> np.ndarray:
    """Convert ``array`` to the numpy type whose Python scalars print like torch's.

    Floats (float16/bfloat16 included) become float64: PyTorch formats the
    exact double value of each element (``Tensor.item()``/``tolist()``).
    Called on the shown elements only, so a summarised tensor is never copied.
    """
    if dtype in _FLOAT_DTYPES:
        return array.astype(np.float64, copy=False)
    if dtype in _COMPLEX_DTYPES:
        return array.astype(np.complex128, copy=False)
    if dtype == "bool":
        return array.astype(np.bool_, copy=False)
    return array.astype(np.int64, copy=False)


def _has_default_dtype(dtype: str, default_dtype: str) -> bool:
    """True when PyTorch omits ``dtype=`` for a non-empty tensor of ``dtype``."""
    default_complex = "complex128" if default_dtype == "float64" else "complex64"
    return dtype in (default_dtype, default_complex, "int64", "bool")


# --------------------------------------------------------------------------
# Element formatting (one format shared by every shown element)
# --------------------------------------------------------------------------


def _format_floats(values: np.ndarray, options: PrintOptions) -> tuple[list[str], int]:
    """Format the shown float values (flat float64 array) like ``torch._tensor_str._Formatter``.

    Returns the right-aligned strings and their common width.
    """
    shaping = np.isfinite(values) & (values != 0)
    shaping_values = values[shaping]
    floats = values.tolist()

    if shaping_values.size == 0:
        # No finite non-zero value: integer mode, no scientific notation,
        # whatever the options say.
        int_mode, sci_mode = True, False
    else:
        int_mode = bool(np.all(shaping_values == np.ceil(shaping_values)))
        magnitudes = np.abs(shaping_values)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        if options.sci_mode is None:
            sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        else:
            sci_mode = bool(options.sci_mode)

    if sci_mode:
        spec = f".{options.precision}e"
        texts = [format(x, spec) for x in floats]
    elif int_mode:
        # A trailing "." marks whole-number floats; nan/inf do not get one.
        texts = [format(x, ".0f") + ("." if math.isfinite(x) else "") for x in floats]
    else:
        spec = f".{options.precision}f"
        texts = [format(x, spec) for x in floats]

    width = 1
    for text, counts in zip(texts, shaping.tolist()):
        if counts and len(text) > width:
            width = len(text)
    return [text.rjust(width) for text in texts], width


def _format_exact(values: np.ndarray) -> tuple[list[str], int]:
    """Format integer or bool values (``str`` of each), right-aligned to the widest."""
    texts = [str(x) for x in values.tolist()]
    width = max(1, max(map(len, texts), default=1))
    return [text.rjust(width) for text in texts], width


def _format_elements(
    shown: np.ndarray, dtype: str, options: PrintOptions
) -> tuple[list[str], int]:
    """Strings for every shown element (C order) and the width one element takes in a row.

    The width returned is the one used for line wrapping, i.e. the formatter
    width (plus ``imag width + 1`` for the ``j`` of complex numbers).
    """
    flat = shown.reshape(-1)
    if dtype in _FLOAT_DTYPES:
        return _format_floats(flat, options)
    if dtype not in _COMPLEX_DTYPES:
        return _format_exact(flat)

    real_texts, real_width = _format_floats(np.ascontiguousarray(flat.real), options)
    imag_texts, imag_width = _format_floats(np.ascontiguousarray(flat.imag), options)
    texts = []
    for real, imag in zip(real_texts, imag_texts):
        imag = (imag + "j").lstrip()
        # A signed imaginary part (negative, or "+" from a format) carries its own sign.
        texts.append(real + imag if imag[0] in "+-" else real + "+" + imag)
    return texts, real_width + imag_width + 1


# --------------------------------------------------------------------------
# Layout
# --------------------------------------------------------------------------


def _shown_indices(shape: Sequence[int], summarize: bool, edgeitems: int) -> list[np.ndarray]:
    """For each axis, the indices PyTorch displays (all, or both edges when summarised)."""
    indices = []
    for size in shape:
        if summarize and size > 2 * edgeitems:
            indices.append(np.r_[0:edgeitems, size - edgeitems : size])
        else:
            indices.append(np.arange(size))
    return indices


class _Layout:
    """Joins formatted element strings into PyTorch's nested bracket layout."""

    def __init__(
        self,
        cells: np.ndarray,
        elided: Sequence[bool],
        element_width: int,
        options: PrintOptions,
    ) -> None:
        self.cells = cells  # object array of strings, shape of the shown block
        self.elided = elided  # per axis: was the middle of that axis dropped?
        self.element_length = element_width + 2  # ", " between elements
        self.options = options

    def render(self, indent: int) -> str:
        if self.cells.ndim == 0:
            return str(self.cells[()])
        return self._block(self.cells, 0, indent)

    def _block(self, cells: np.ndarray, axis: int, indent: int) -> str:
        if cells.ndim == 1:
            return self._row(cells.tolist(), self.elided[axis], indent)
        edge = self.options.edgeitems
        parts = [self._block(sub, axis + 1, indent + 1) for sub in cells]
        if self.elided[axis]:
            parts.insert(edge, "...")
        separator = "," + "\n" * (cells.ndim - 1) + " " * (indent + 1)
        return "[" + separator.join(parts) + "]"

    def _row(self, items: list[str], elided: bool, indent: int) -> str:
        if elided:
            edge = self.options.edgeitems
            items = items[:edge] + [" ..."] + items[edge:]
        per_line = max(1, math.floor((self.options.linewidth - indent) / self.element_length))
        lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _body(data: np.ndarray, dtype: str, indent: int, options: PrintOptions) -> str:
    """The bracketed contents of a non-empty tensor (PyTorch's ``_tensor_str``)."""
    summarize = data.size > options.threshold
    if summarize and data.ndim > 0 and not options.edgeitems:
        return "[...]"

    indices = _shown_indices(data.shape, summarize, options.edgeitems)
    shown = data[np.ix_(*indices)] if data.ndim > 0 else data
    shown = _as_display_array(shown, dtype)
    elided = [len(idx) < size for idx, size in zip(indices, data.shape)]

    texts, width = _format_elements(shown, dtype, options)
    cells = np.empty(len(texts), dtype=object)
    cells[:] = texts
    return _Layout(cells.reshape(shown.shape), elided, width, options).render(indent)


def _append_suffixes(text: str, suffixes: list[str], indent: int, linewidth: float) -> str:
    """Add ``, suffix`` items and the closing parenthesis, wrapping like PyTorch.

    PyTorch's running line length starts at ``len(last line) + 2`` (an
    off-by-two it carries, reproduced here); a suffix that would pass
    ``linewidth`` starts a new line indented to the opening parenthesis.
    """
    pieces = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            line_length += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def tensor_repr(
    data: np.ndarray,
    dtype: str,
    *,
    requires_grad: bool = False,
    grad_fn: str | None = None,
    default_dtype: str = "float32",
    options: PrintOptions | None = None,
    tangent: str | None = None,
) -> str:
    """``repr()`` of a CPU tensor, exactly as PyTorch prints it.

    data:          the values, any shape (0-d and empty included); bfloat16
                   tensors pass their values as float32.
    dtype:         torch dtype name without ``torch.`` ("float32", "int64", ...).
    requires_grad: a leaf that requires grad prints ``requires_grad=True``.
    grad_fn:       name of the grad_fn node (e.g. ``"MulBackward0"``); shown as
                   ``grad_fn=<MulBackward0>`` instead of ``requires_grad``.
    default_dtype: the current default float dtype (``torch.get_default_dtype()``).
    options:       print options; the module-wide ones when ``None``.
    tangent:       the text of its forward-AD tangent (``tangent=...`` last).
    """
    if dtype not in _ALL_DTYPES:
        raise ValueError(f"unsupported dtype for printing: {dtype!r}")
    if options is None:
        options = _OPTIONS
    values = np.asarray(data)

    prefix = "tensor("
    indent = len(prefix)
    suffixes: list[str] = []
    if values.size == 0:
        # NumPy-style: the shape is spelled out unless it is (0,); the dtype
        # cannot be inferred from no elements, so only the default float
        # dtype goes without saying.
        if values.ndim != 1:
            suffixes.append(f"size={tuple(values.shape)}")
        if dtype != default_dtype:
            suffixes.append(f"dtype=torch.{dtype}")
        body = "[]"
    else:
        if not options.edgeitems:
            suffixes.append(f"size={tuple(values.shape)}")
        if not _has_default_dtype(dtype, default_dtype):
            suffixes.append(f"dtype=torch.{dtype}")
        body = _body(values, dtype, indent, options)

    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")

    return _append_suffixes(prefix + body, suffixes, indent, options.linewidth)
