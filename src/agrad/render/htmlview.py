"""``agrad graph --format html``: one self-contained page to explore the graph.

The page is a single HTML document: the graph as compact JSON in a
``<script type="application/json">`` block, and the page's own small
script and style sheet (``page/graph.js``, ``page/graph.css``) inline --
no URL in any ``src`` or ``href``, nothing loaded from anywhere.  A
Content-Security-Policy allows exactly those two inline blocks (by their
SHA-256), so no markup that user text could smuggle in would run or load.

What the page does (``page/graph.js``): a top-down layout of the graph's
spanning tree (each node hangs below the first node that reaches it, in
the order of the text tree's ids), computed on the nodes currently shown;
collapsed runs of repeated structure (the tree's ``×N [...]`` lines) are
one box that expands on a click; any subtree folds and unfolds; search by
id, node name, variable, source text or ``file:line``; the details of a
node (outputs, source span, saved tensors, the gradient that reached it,
its inputs and users) on hover or click.  Only the nodes inside the visible
part of the page have DOM elements, so 10^5 nodes stay fast.

The JSON is columnar and interned, so a chain of 10^5 nodes stays a few
MB: every node is one *descriptor* (name, outputs, source text, location,
variable, saved tensors, input slots -- shared by the nodes of a loop), its
inputs as id differences, and its gradient summary (4 significant digits).
Every string a user wrote reaches the page only inside that JSON, with
``<``, ``>`` and ``&`` escaped, and is put on the page as text, never as
markup.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from functools import lru_cache
from pathlib import Path

from ..autograd.graph import AccumulateGrad
import numpy as np

from .graphmodel import GraphModel
from .graphview import fmt_outputs, fmt_shape

PAGE = Path(__file__).with_name("page")


class _Interner:
    """Values -> small integers, in order of first appearance; 0 is ``first``."""

    def __init__(self, first):
        self.items = [first]
        self.index = {first: 0}

    def __call__(self, value) -> int:
        i = self.index.get(value)
        if i is None:
            i = self.index[value] = len(self.items)
            self.items.append(value)
        return i


def _num(x) -> str:
    """A gradient statistic as JSON text: 4 significant digits, or "nan"/"inf"/"-inf"."""
    if x is None:
        return "null"
    if isinstance(x, str):
        return '"' + x + '"'
    return format(x, ".4g")


def _grad_token(g, shape) -> str:
    """One node's gradient: ``null``, a number (a single value), or ``[norm, min, max(, shape)]``.

    ``shape``: the node's first output's; the gradient's shape is written only when it differs.
    """
    if g is None:
        return "null"
    norm, lo, hi, gshape = g["norm"], g["min"], g["max"], g["shape"]
    same_shape = len(gshape) == len(shape) and (not gshape or list(gshape) == list(shape))
    if same_shape and lo == hi and isinstance(lo, float) and norm == abs(lo):
        return format(lo, ".4g")
    parts = [_num(norm), _num(lo), _num(hi)]
    if not same_shape:
        parts.append(json.dumps(fmt_shape(gshape)))
    return "[" + ",".join(parts) + "]"


def _grad_tokens(raw, grads) -> str:
    """Each node's :func:`_grad_token`, as the JSON list the page reads.

    A gradient of a single value arriving at a 0-d output (a chain of scalars:
    most nodes of the largest graphs) is written here, without a call."""
    get = dict(grads.items()).get  # a weak-keyed dict's own get makes a reference per call
    tokens = []
    add = tokens.append
    for node in raw:
        g = get(node)
        if g is None:
            add("null")
            continue
        meta = node._out_meta
        shape = meta[0][0] if meta else ()
        lo = g["min"]
        if not shape and not g["shape"] and isinstance(lo, float) and g["norm"] == abs(lo):
            add(format(lo, ".4g"))  # a 0-d gradient: min == max
        else:
            add(_grad_token(g, shape))
    return "[" + ",".join(tokens) + "]"


def _ranges(ids) -> list:
    """Distinct ids as [[first, last], ...] runs of consecutive ids, in order."""
    a = np.sort(np.asarray(ids, dtype=np.int64))
    if not len(a):
        return []
    cut = np.flatnonzero(np.diff(a) != 1) + 1
    return np.stack([a[np.r_[0, cut]], a[np.r_[cut - 1, len(a) - 1]]], axis=1).tolist()


def page_data(model: GraphModel, target: str | None, grads=None) -> str:
    """The graph as the page's JSON text (ASCII, with ``<``, ``>``, ``&`` escaped).

    Linear in nodes + edges; the nodes of a loop share their descriptor, and
    what makes a descriptor (names, shapes, the origin's text, saved
    tensors) is formatted once per distinct value, not once per node: per
    node there are only a few lookups to find which descriptor is its own.
    """
    strs = _Interner("")
    locs = _Interner(None)
    saveds = _Interner(())
    slots = _Interner(())
    descs = _Interner(None)
    raw = model.raw
    n = len(raw)
    e = model.edge_array  # (from, to, input) rows
    # per node, its inputs in next_functions order: the input slots and the id differences
    e = e[np.lexsort((e[:, 2], e[:, 0]))]
    deltas = (e[:, 1] - e[:, 0]).tolist()
    slot_of = e[:, 2].tolist()
    counts = np.bincount(e[:, 0], minlength=n).tolist() if len(e) else [0] * n
    starts = np.concatenate([[0], np.cumsum(counts)]).tolist()
    origins = model.origins
    many = getattr(origins, "many", None)  # the session's origins, looked up in bulk
    node_origin = many(raw) if many is not None else [origins(node) for node in raw]
    made: dict = {}  # (type, outputs, id(origin), saved, slots) -> descriptor (node_origin keeps
    # the origins alive, so an id stays theirs)
    node_desc = []
    add_desc = node_desc.append
    one_slot = {}  # input index -> (index,): the common one-input slots
    leaf_type = AccumulateGrad
    nodes = model.nodes
    for gid in range(n):
        node = raw[gid]
        at, c = starts[gid], counts[gid]
        if c == 1:
            i = slot_of[at]
            slot_key = one_slot.get(i) or one_slot.setdefault(i, (i,))
        else:
            slot_key = tuple(slot_of[at:at + c])
        saved_key = ()
        saved = node._saved
        if saved:  # (name, (shape, dtype), version, freed) per saved tensor
            for t in saved.values():
                saved_key += ((t.name, t.meta, t.version, t.freed),)
        if isinstance(node, leaf_type):
            add_desc(_descriptor(nodes[gid], saved_key, slot_key, strs, locs, saveds, slots, descs))
            continue
        o = node_origin[gid]
        key = (type(node), tuple(node._out_meta), id(o), saved_key, slot_key)
        d = made.get(key)
        if d is None:
            d = made[key] = _descriptor(nodes[gid], saved_key, slot_key, strs, locs, saveds, slots,
                                        descs)
        add_desc(d)
    groups = [[count, [strs(n) for n in names], _ranges(ids)] for count, names, ids in model.groups]
    head = {
        "target": target, "n": n, "strs": strs.items,
        "locs": locs.items, "saved": [[list(s) for s in item] for item in saveds.items],
        "slots": [list(s) for s in slots.items], "descs": descs.items, "groups": groups,
        "node": node_desc, "to": deltas,
    }
    text = json.dumps(head, separators=(",", ":"))
    grad_json = "null" if grads is None else _grad_tokens(raw, grads)
    text = text[:-1] + ',"grad":' + grad_json + "}"
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _descriptor(gn, saved_key, slot_key, strs, locs, saveds, slots, descs) -> int:
    """The index of a node's descriptor: [name, outputs, source text, location, variable or
    leaf name, saved tensors, input slots, is leaf] (strings as indices into ``strs``)."""
    o = gn.origin
    if gn.is_leaf:
        label, var = 0, strs(gn.leaf)
    else:
        label = strs((o.text or "") if o is not None else "")
        var = strs((o.var or "") if o is not None else "")
    loc = 0
    if o is not None and o.where:
        span = tuple(o.span) if o.span is not None else (None, None, None)
        loc = locs((strs(o.where_col), *span))
    saved = saveds(tuple((name, fmt_shape(shape) + " " + getattr(dtype, "name", str(dtype)), version,
                          int(bool(freed)))
                         for name, (shape, dtype), version, freed in saved_key))
    return descs((strs(gn.name), strs(fmt_outputs(gn)), label, loc, var, saved, slots(slot_key),
                  int(gn.is_leaf)))


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return (PAGE / name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def render_html(model: GraphModel, target: str | None, write, *, grads=None) -> None:
    """The page, in a few large pieces (``write`` is called without newlines added)."""
    import gc
    was = gc.isenabled()
    gc.disable()  # a few objects a node, none in cycles: no collection to walk the graph's heap
    try:
        data = page_data(model, target, grads)
    finally:
        if was:
            gc.enable()
    css, js = _asset("graph.css"), _asset("graph.js")
    csp = (f"default-src 'none'; style-src {_sha256(css)}; script-src {_sha256(js)}; "
           "img-src 'none'; form-action 'none'; base-uri 'none'")
    title = "agrad graph" + (f" of {target}" if target else "")
    esc = html.escape(title).encode("ascii", "xmlcharrefreplace").decode("ascii")
    write('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
          f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
          '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
          f"<title>{esc}</title>\n<style>{css}</style>\n</head>\n<body>\n"
          '<header><span class="brand">agrad</span> <span id="title"></span>'
          '<input id="search" type="search" placeholder="search: name, variable, source, #id  (/)" '
          'autocomplete="off" spellcheck="false">'
          '<span id="hits"></span>'
          '<button id="expand-all" type="button">expand all runs</button>'
          '<button id="collapse-all" type="button">collapse all runs</button>'
          '</header>\n<main><div id="view"><div id="canvas"></div></div>'
          '<aside id="panel"></aside></main>\n<div id="results" hidden></div>\n'
          '<script type="application/json" id="agrad-data">')
    write(data)
    write(f"</script>\n<script>{js}</script>\n</body>\n</html>\n")
