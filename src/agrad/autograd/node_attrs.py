"""What PyTorch's autograd nodes list in ``dir()`` and answer: their API and their saved attributes.

``node_attrs.txt`` (written by ``tools/gen_node_attrs.py`` from ``torch._C._functions``) has one
line per node class: ``Name: saved *saved_tensor ...``.  A node lists ``_saved_<name>`` for
each, and ``_raw_saved_<name>`` for a saved tensor, as PyTorch's nodes do.  An op's node class
gets, for each of these its formula does not keep itself, ``_saved_<input>_sym_sizes`` from the
input's recorded shape or a property whose error says agrad does not keep it (:func:`add_torch_saved`).
"""

from __future__ import annotations

from pathlib import Path

from ..dtypes import _BY_NP
from ..dtypes import dtype as _DTYPE

#: the attributes every PyTorch C++ node has beyond ``object``'s
NODE_API = ("__call__", "_input_metadata", "_register_hook_dict", "_sequence_nr", "_set_sequence_nr",
            "metadata", "name", "next_functions", "register_hook", "register_prehook", "requires_grad")

_table: dict | None = None


def saved_names(class_name: str) -> tuple | None:
    """The saved attributes of PyTorch's node ``class_name`` as (name, is_tensor) pairs; None for a
    node PyTorch does not have."""
    global _table
    if _table is None:
        table = {}
        text = Path(__file__).with_name("node_attrs.txt").read_text(encoding="utf-8")
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, rest = line.partition(":")
                table[name] = tuple((n.lstrip("*"), n.startswith("*")) for n in rest.split())
        _table = table
    return _table.get(class_name)


def node_dir(class_name: str, extra=()) -> list | None:
    """dir() of a node of PyTorch's class ``class_name`` (None: not one of PyTorch's)."""
    saved = saved_names(class_name)
    if saved is None:
        return None
    names = set(dir(object)) | set(NODE_API) | set(extra)
    for n, is_tensor in saved:
        names.add("_saved_" + n)
        if is_tensor:
            names.add("_raw_saved_" + n)
    return sorted(names)


class NodeAPI:
    """The part of PyTorch's node API that is about the node itself (graph.Node's base)."""

    _dir_extra = ()

    def __dir__(self):
        """PyTorch's list: the node API and the node's saved attributes (``_saved_kernel_size``,
        ``_raw_saved_self``, ...), not agrad's own fields; a custom Function's node: Python's."""
        listed = node_dir(type(self).__name__, self._dir_extra)
        return listed if listed is not None else object.__dir__(self)

    @property
    def requires_grad(self) -> bool:
        """A graph node's gradient is computed: True (as PyTorch's nodes answer)."""
        return True

    @requires_grad.setter
    def requires_grad(self, value):
        owner = "torch._C._FunctionBase" if self._custom else type(self).__name__
        raise AttributeError(f"attribute 'requires_grad' of '{owner}' objects is not writable")

    def _sequence_nr(self) -> int:
        """The node's sequence number (nodes made later run first); 2**64 - 1 for AccumulateGrad."""
        seq = self._seq
        return 2 ** 64 - 1 if seq == float("inf") else seq

    def _set_sequence_nr(self, n: int) -> None:
        self._seq = n

    @property
    def _input_metadata(self) -> tuple:
        """The metadata of each gradient the node takes (its forward outputs): shape, dtype, device."""
        return tuple(InputMetadata(m) for m in self._out_meta)

    def _register_hook_dict(self, tensor):
        raise NotImplementedError("agrad has no legacy hook dicts: use tensor.register_hook or "
                                  "node.register_prehook")


class InputMetadata:
    """What a node knows of one gradient it takes (PyTorch's ``_InputMetadata``)."""

    __slots__ = ("_meta",)

    def __init__(self, meta):
        self._meta = meta

    @property
    def shape(self) -> list:
        return list(self._meta[0])

    @property
    def dtype(self):
        dtype = self._meta[1]
        return dtype if type(dtype) is _DTYPE else _BY_NP[dtype]

    @property
    def device(self):
        from ..devices import device
        return device("cpu")

    is_nested_tensor = False
    is_cpp_nested_tensor = False


def add_torch_saved(cls, inputs) -> None:
    """The saved attributes PyTorch's node of ``cls``'s name has that the op's node class does not
    give: ``_saved_<input>_sym_sizes`` from an input's recorded shape (one that requires grad), and
    for the others a property whose error says agrad does not keep it."""
    for n, is_tensor in saved_names(cls.__name__) or ():
        for attr in ("_saved_" + n, "_raw_saved_" + n) if is_tensor else ("_saved_" + n,):
            if attr in cls.__dict__:
                continue
            if attr.endswith("_sym_sizes") and n[:-len("_sym_sizes")] in inputs:
                setattr(cls, attr, _sizes_property(inputs.index(n[:-len("_sym_sizes")]), attr))
            else:
                setattr(cls, attr, _unkept_property(attr))


def _sizes_property(index: int, attr: str) -> property:
    def get(node):
        meta = node._input_meta[index] if index < len(node._input_meta) else None
        if meta is None:  # (no gradient to this input: agrad recorded nothing of it)
            raise AttributeError(f"agrad's {type(node).__name__} does not keep '{attr}' of an input that "
                                 "does not require grad")
        return tuple(meta[0])
    get.__name__ = attr
    return property(get)


def _unkept_property(attr: str) -> property:
    if attr.startswith("_raw_saved_"):
        text = (f"has no SavedTensor object for '{attr}' (the saved tensor itself: "
                f"'_saved_{attr[len('_raw_saved_'):]}')")
    else:
        text = (f"does not keep '{attr}' (PyTorch's node saves it; agrad's backward formula keeps what it "
                "needs in its own form)")

    name = attr[len("_saved_"):]

    def get(node):
        if attr.startswith("_saved_") and node._saved and name in node._saved:
            # a tensor the op saved after its call (graph.save_extra: nll_loss's weight): the slot's own read
            from .graph import saved_property
            return saved_property(name).fget(node)
        if name in getattr(node, "_none_saved", ()):  # (an optional tensor the op was not given)
            return None
        raise AttributeError(f"agrad's {type(node).__name__} {text}")
    get.__name__ = attr
    return property(get)


def pack_order(node, saves):
    """``saves`` (name -> tensor) in the order PyTorch's node packs them (what a saved_tensors_hooks
    pack hook sees): its saved attributes' order (this file's table: mul packs other, then self)."""
    listed = [n for n, _ in saved_names(type(node).__name__) or ()]
    rank = {n: i for i, n in enumerate(listed)}
    return sorted(saves.items(), key=lambda kv: rank.get(kv[0], len(listed)))


def unpack_key(node):
    """PyTorch's order of unpacking (and checking) a node's saved tensors, as a key of its slots: its
    saved inputs by name, then its saved outputs (``a ** b`` with both ``a`` and the result changed
    names ``a``), those not differentiable too (lu_factor's pivots after LU, max_pool2d's indices
    after self, sort's indices)."""
    op = getattr(type(node), "_op", None)
    outputs = {n for n, i, _ in op._save_plan if i < 0} if op is not None else ()
    return lambda slot: (slot.is_output or slot.late or slot.name in outputs, slot.name)
