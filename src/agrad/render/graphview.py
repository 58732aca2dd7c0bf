"""``agrad graph``: the autograd graph behind a tensor, as a tree, DOT, Mermaid or JSON.

The walk starts at the target's ``grad_fn`` and follows ``next_functions``
down to the ``AccumulateGrad`` nodes of the leaves.  It is iterative (a
chain of 100,000 nodes is no deeper for it than a chain of 3), and it fixes
the node ids every format shares: ``#0`` is the root, the others are
numbered in the order the tree shows them.

The tree's rules (SPEC §3):

* a node reached a second time is drawn once and then referenced
  (``↑ #4 MulBackward0``);
* a node with one input to expand continues on the next line at the same
  depth, so chains do not drift right.  Inputs that need no expanding --
  leaves and references -- are listed first, as branches, and the line
  without a connector after them is the remaining input;
* in such a chain, a run in which the same sequence of node names repeats
  is collapsed into one line (``×250 [SinBackward0 → MulBackward0]``,
  with the range of ids it covers);
* the tree is at most ``max_depth`` levels deep: a node whose inputs would
  be drawn deeper ends its line with ``↓``, and its inputs are drawn after
  the tree, in a block headed ``↓ #id Name``.  With shared nodes and
  references this keeps the text linear in nodes + edges: every node is
  drawn once, every edge is one line at most, and no line is longer than
  the depth limit allows (a graph such as ``y = y*y*0 + y`` repeated would
  otherwise nest one level deeper per step).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from ..autograd.graph import AccumulateGrad
from .records import json_float, node_display_name

#: Shortest repeated run (in repetitions) that is collapsed.
MIN_REPEATS = 3
#: Longest repeating sequence of names looked for.
MAX_PERIOD = 8
#: The connector of a chain's next node: the remaining input of the line above, same depth.
CHAIN = "↳ "
#: Deepest nesting of the tree (levels of 3 characters) before inputs move to a block below.
MAX_DEPTH = 12


def depth_for_width(columns: int) -> int:
    """The nesting limit that keeps the tree's guides within half of ``columns``."""
    return max(2, columns // 6 - 1)


@dataclass
class Origin:
    """Where a tensor was made: the variable it was bound to and the script line."""

    var: str | None = None
    source: str | None = None  # source name
    line: int | None = None
    text: str | None = None  # the source text that made it: the sub-expression, else the statement
    span: tuple | None = None  # (line, col_start, col_end) of the sub-expression, 1-based, end exclusive

    @property
    def where(self) -> str | None:
        if self.source is None:
            return None
        return f"{self.source}:{self.line}" if self.line is not None else self.source

    @property
    def where_col(self) -> str | None:
        """``file:line:col`` when the column is known, else :attr:`where`."""
        if self.span is not None and self.source is not None:
            return f"{self.source}:{self.span[0]}:{self.span[1]}"
        return self.where


class GNode:
    """A node of the graph with its id; the rest is worked out when first shown."""

    __slots__ = ("id", "node", "_model", "_info")

    def __init__(self, gid, node, model):
        self.id = gid
        self.node = node
        self._model = model
        self._info = None

    def _load(self):
        node = self.node
        is_leaf = isinstance(node, AccumulateGrad)
        leaf = (self._model.leaf_names(node) or "<unnamed leaf>") if is_leaf else None
        outputs = [(tuple(int(x) for x in shape), getattr(dt, "name", str(dt)))
                   for shape, dt in (node._out_meta or ())]
        name = "AccumulateGrad" if is_leaf else node_display_name(node)
        self._info = (name, outputs, self._model.origins(node), leaf, is_leaf)
        return self._info

    @property
    def name(self) -> str:
        return (self._info or self._load())[0]

    @property
    def outputs(self) -> list:
        return (self._info or self._load())[1]

    @property
    def origin(self):
        return (self._info or self._load())[2]

    @property
    def leaf(self):
        return (self._info or self._load())[3]

    @property
    def is_leaf(self) -> bool:
        return (self._info or self._load())[4]


@dataclass
class Line:
    kind: str  # "node", "ref", "run", "block" (the head of inputs drawn below)
    prefix: str
    conn: str
    gid: int = -1
    run: tuple | None = None  # (count, names, first id, last id)
    more: bool = False  # lines of the same item follow (for extras' guides)
    below: bool = False  # a node line whose inputs are drawn in a block below


class _Nodes:
    """``GraphModel.nodes``: a list of :class:`GNode` made on first use (most stay raw)."""

    __slots__ = ("_raw", "_made", "_model")

    def __init__(self, raw, model):
        self._raw = raw
        self._made = [None] * len(raw)
        self._model = model

    def __len__(self):
        return len(self._raw)

    def __bool__(self):
        return bool(self._raw)

    def __getitem__(self, gid):
        if isinstance(gid, slice):
            return [self[i] for i in range(*gid.indices(len(self._raw)))]
        gn = self._made[gid]
        if gn is None:
            gn = self._made[gid] = GNode(gid if gid >= 0 else gid + len(self._raw), self._raw[gid], self._model)
        return gn

    def __iter__(self):
        made, raw, model = self._made, self._raw, self._model
        for gid in range(len(raw)):
            gn = made[gid]
            if gn is None:
                gn = made[gid] = GNode(gid, raw[gid], model)
            yield gn


class GraphModel:
    """Every node behind ``root``, with ids, and the tree's lines.

    ``raw``: the autograd nodes in id order; ``nodes``: the same as GNodes
    (made when first read); ``edge_array``: the edges as an (E, 3) int64 array of
    (from, to, input index) rows sorted, and ``edges`` the same as a list of tuples.
    """

    def __init__(self, root, *, origins=None, leaf_names=None, collapse=True, max_depth=MAX_DEPTH):
        self.origins = origins or (lambda node: None)
        self.leaf_names = leaf_names or (lambda node: None)
        self.raw: list = []
        self.edge_array = np.zeros((0, 3), dtype=np.int64)
        self._edges = None
        self.lines: list[Line] = []
        #: collapsed runs, in the order the tree shows them: (count, names, ids of the nodes hidden)
        self.groups: list[tuple[int, list, list]] = []
        self._ids: dict = {}
        self.collapse = collapse
        self.max_depth = max(1, max_depth)
        if root is not None:
            import gc
            was = gc.isenabled()
            gc.disable()  # the walk makes a few objects a node and frees none: no cycles to find
            try:
                self._layout(root)
            finally:
                if was:
                    gc.enable()
        self.nodes = _Nodes(self.raw, self)

    @property
    def edges(self) -> list:
        if self._edges is None:
            self._edges = list(map(tuple, self.edge_array.tolist()))
        return self._edges

    def id_of(self, node):
        return self._ids.get(node)

    # -- the walk -------------------------------------------------------------
    def _layout(self, root):
        ids = self._ids  # node -> id (the ids are 0, 1, 2, ... as nodes are met)
        raw = self.raw  # id -> node
        add_raw = raw.append
        # the edges: a chain step's one edge (id -> id + 1, input 0) as its id in ``steps``;
        # every other edge as three columns, an input not numbered yet resolved at the end
        steps, e_from, e_to, e_idx, pending = [], [], [], [], []
        # items to draw: (prefix, connector, node); a stack, so the tree is pre-order
        stack = [("", "", root)]
        below = deque()  # (gid, children) whose inputs are drawn after the tree, first in first out
        lines = self.lines
        limit = 3 * self.max_depth
        leaf_type = AccumulateGrad
        add_step = steps.append
        while stack or below:
            if not stack:
                gid, children = below.popleft()
                lines.append(Line("block", "", "", gid, more=True))
                for n in range(len(children) - 1, -1, -1):
                    stack.append(("", "└─ " if n == len(children) - 1 else "├─ ", children[n][1]))
                continue
            prefix, conn, node = stack.pop()
            if node in ids:
                lines.append(Line("ref", prefix, conn, ids[node]))
                continue
            body = prefix + ("│  " if conn == "├─ " else "   " if conn == "└─ " else "")
            # the chain: steps[first:] are the ids of its plain steps (one new input that is
            # not a leaf, nothing beside it) and ``other`` its other steps: chain position ->
            # (id, inputs shown beside it, collapsible)
            first = len(steps)
            other = {}
            cur = node
            while True:
                gid = ids[cur] = len(raw)
                add_raw(cur)
                nf = cur.next_functions
                if len(nf) == 1:  # the common step of a chain
                    nxt = nf[0][0]
                    if nxt is not None and nxt not in ids and not isinstance(nxt, leaf_type):
                        add_step(gid)  # its input is numbered next
                        cur = nxt
                        continue
                kids = [(idx, nxt) for idx, (nxt, _nr) in enumerate(nf) if nxt is not None]
                for idx, nxt in kids:
                    e_from.append(gid)
                    e_idx.append(idx)
                    t = ids.get(nxt)
                    if t is None:
                        pending.append((len(e_to), nxt))
                        t = -1
                    e_to.append(t)
                big = []
                claimed = set()
                repeated = False
                for idx, nxt in kids:
                    if nxt in claimed:
                        repeated = repeated or any(nxt is b for _i, b in big)
                    elif not (nxt in ids or isinstance(nxt, leaf_type)):
                        big.append((idx, nxt))
                    claimed.add(nxt)
                at = len(steps)
                add_step(-1)
                if len(big) != 1 or repeated:
                    other[at - first] = (gid, (), True)
                    break
                big_idx, big_node = big[0]
                side = []
                collapsible = True
                for idx, nxt in kids:
                    if idx == big_idx:
                        continue
                    if nxt in ids:
                        side.append(("ref", ids[nxt]))
                    else:
                        side.append(("node", len(raw)))
                        ids[nxt] = len(raw)
                        add_raw(nxt)
                        collapsible = False
                other[at - first] = (gid, side, collapsible)
                cur = big_node
            gids = steps[first:]
            for k, (gid, _side, _c) in other.items():
                gids[k] = gid
            children = kids if (len(big) != 1 or repeated) else []
            if children and len(body) >= limit:
                # too deep: this node's inputs become a block of their own below the tree
                self._emit_chain(gids, other, prefix, conn, body, False)
                lines[-1].below = True
                below.append((gids[-1], children))
                continue
            self._emit_chain(gids, other, prefix, conn, body, bool(children))
            # the last node's inputs are branches; pushed in reverse so the tree is pre-order
            for n in range(len(children) - 1, -1, -1):
                c = "└─ " if n == len(children) - 1 else "├─ "
                stack.append((body, c, children[n][1]))
        for pos, nxt in pending:
            e_to[pos] = ids[nxt]
        chain = np.array(steps, dtype=np.int64)
        chain = chain[chain >= 0]
        e = np.zeros((len(chain) + len(e_from), 3), dtype=np.int64)
        e[:len(chain), 0], e[:len(chain), 1] = chain, chain + 1
        if e_from:
            e[len(chain):, 0], e[len(chain):, 1], e[len(chain):, 2] = e_from, e_to, e_idx
        self.edge_array = e[np.lexsort((e[:, 2], e[:, 1], e[:, 0]))]

    def _emit_chain(self, gids, other, prefix, conn, body, has_children):
        """The lines of a chain: ``gids`` its nodes' ids, ``other`` chain position ->
        (id, inputs shown beside it, collapsible) of the steps that are not plain."""
        lines = self.lines
        segments = self._runs(gids, other) if self.collapse else [(k, None) for k in range(len(gids))]
        first = True
        n_seg = len(segments)
        for k, (pos, run) in enumerate(segments):
            p, c = (prefix, conn) if first else (body, CHAIN)
            first = False
            last_seg = k == n_seg - 1
            if run is not None:
                lines.append(Line("run", p, c, run=run, more=not last_seg or has_children))
                continue
            side = other[pos][1] if pos in other else ()
            more = bool(side) or not last_seg or has_children
            lines.append(Line("node", p, c, gids[pos], more=more))
            for kind, gid in side:
                lines.append(Line(kind, body, "├─ ", gid, more=True))

    def _runs(self, gids, other):
        """Split a chain into single steps and collapsed runs of repeated names.

        Returns ``(position in the chain, None)`` for a single step and ``(None, run)``
        for a run.  At each position, the run kept is the one that covers the most
        steps (the shortest period on a tie), of a period (1 to ``MAX_PERIOD``
        names) that is not a shorter one repeated, with at least ``MIN_REPEATS``
        repetitions, over collapsible steps only (no new node beside them).
        Worked out for every position and period at once with numpy.
        """
        n = len(gids)
        if n < MIN_REPEATS:
            return [(k, None) for k in range(n)]
        types = list(map(type, map(self.raw.__getitem__, gids)))
        by_name: dict = {}  # two node classes of one name count as one name
        code_of = {t: by_name.setdefault(t.__name__, len(by_name)) for t in dict.fromkeys(types)}
        code = np.fromiter(map(code_of.__getitem__, types), dtype=np.int64, count=n)
        ok = np.ones(n, dtype=bool)
        for k, (_gid, _side, collapsible) in other.items():
            ok[k] = collapsible
        pos = np.arange(n)

        def run_length(flags):  # per position, how many True follow from it (itself included)
            stop = np.where(flags, len(flags), np.arange(len(flags)))
            return np.minimum.accumulate(stop[::-1])[::-1] - np.arange(len(flags))

        ok_run = run_length(ok)
        same = [None]  # same[p][i]: steps i and i + p match (names equal, both collapsible)
        best_len = np.zeros(n, dtype=np.int64)  # steps covered by the best run from each position
        best_p = np.zeros(n, dtype=np.int64)
        for p in range(1, min(MAX_PERIOD, n // MIN_REPEATS) + 1):
            eq = (code[:-p] == code[p:]) & ok[:-p] & ok[p:]
            same.append(np.concatenate([run_length(eq), np.zeros(p, dtype=np.int64)]))
            reps = 1 + same[p] // p
            fine = (ok_run >= p) & (reps >= MIN_REPEATS) & (pos + p * MIN_REPEATS <= n)
            for d in range(1, p):  # a shorter period repeated: its own run covers as much
                if p % d == 0:
                    fine &= same[d] < p - d
            cover = np.where(fine, reps * p, 0)
            better = cover > best_len
            best_len = np.where(better, cover, best_len)
            best_p = np.where(better, p, best_p)
        if not best_len.any():
            return [(k, None) for k in range(n)]
        best_len, best_p = best_len.tolist(), best_p.tolist()
        out = []
        i = 0
        while i < n:
            length = best_len[i]
            if not length:
                out.append((i, None))
                i += 1
                continue
            p = best_p[i]
            names = [t.__name__ for t in types[i:i + p]]
            ids = gids[i:i + length]
            self.groups.append((length // p, names, ids))
            last = max(ids)
            for k in range(i, i + length):
                if k in other:
                    last = max(last, max((g for _kind, g in other[k][1]), default=last))
            out.append((None, (length // p, names, ids[0], last)))
            i += length
        return out

# ------------------------------------------------------------------ node text

def fmt_shape(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def fmt_outputs(gn: GNode) -> str:
    if not gn.outputs:
        return ""
    return ", ".join(f"{fmt_shape(s)} {d}" for s, d in gn.outputs)


def node_parts(gn: GNode) -> list[tuple[str, str]]:
    """The pieces of a node line, each with a style name: id, name, meta, label, where."""
    parts = [(f"#{gn.id}", "id"), (" ", ""), (gn.name, "name")]
    out = fmt_outputs(gn)
    if out:
        parts += [("  ", ""), (out, "meta")]
    o = gn.origin
    if gn.is_leaf:
        parts += [("  ", ""), (gn.leaf, "var")]
        if o is not None and o.where:
            parts += [("  ", ""), (o.where, "where")]
    elif o is not None:
        label = o.text or (o.var and f"{o.var} = …")
        if label:
            parts += [("  ", ""), (label, "label")]
        if o.where:
            parts += [("  ", ""), (o.where_col, "where")]
    return parts


def ref_parts(gn: GNode) -> list[tuple[str, str]]:
    parts = [(f"↑ #{gn.id}", "ref"), (" ", ""), (gn.name, "refname")]
    if gn.is_leaf:
        parts += [(" ", ""), (f"({gn.leaf})", "refname")]
    return parts


def block_parts(gn: GNode) -> list[tuple[str, str]]:
    return [(f"↓ #{gn.id}", "ref"), (" ", ""), (gn.name, "refname")]


def run_parts(run) -> list[tuple[str, str]]:
    count, names, first, last = run
    return [(f"×{count}", "count"), (" ", ""), ("[" + " → ".join(names) + "]", "name"),
            ("  ", ""), (f"#{first}–#{last}", "id")]


def extra_lines(gn: GNode, saved: bool, grads) -> list[tuple[str, str]]:
    """(text, style) lines under a node: saved tensors, the gradient that arrived."""
    out = []
    if saved:
        info = _saved_info(gn.node)
        for name, shape, dtype, version, freed in info:
            text = f"saved {name}  {fmt_shape(shape)} {dtype}  version {version}"
            if freed:
                text += "  freed"
            out.append((text, "saved"))
    if grads is not None:
        g = grads.get(gn.node)
        if g is None:
            out.append(("grad: (none arrived)", "grad"))
        else:
            out.append(("grad " + fmt_grad(g), "grad"))
    return out


def _saved_info(node):
    fn = getattr(node, "saved_tensors_info", None)
    if fn is None:
        return []
    return [(n, s, d, v, f) for n, s, d, v, f in fn()]


# ------------------------------------------------------------------ gradients

def grad_summary(tensor) -> dict:
    """shape, norm, min, max, nonfinite of a gradient (JSON ``grad`` of a node)."""
    data = np.asarray(tensor._data)
    if data.dtype.kind == "b":
        data = data.astype(np.float64)
    d64 = data.astype(np.float64, copy=False)
    finite = np.isfinite(d64)
    nonfinite = not bool(finite.all())
    if d64.size == 0:
        return {"shape": list(data.shape), "norm": 0.0, "min": None, "max": None, "nonfinite": False}
    with np.errstate(all="ignore"):
        norm = float(np.sqrt(np.sum(d64 * d64)))
    return {"shape": list(data.shape), "norm": json_float(norm),
            "min": json_float(float(np.min(d64))), "max": json_float(float(np.max(d64))),
            "nonfinite": nonfinite}


def fmt_num(x) -> str:
    if isinstance(x, str) or x is None:
        return str(x)
    if x == 0:
        return "0"
    if abs(x) >= 1e5 or abs(x) < 1e-4:
        return f"{x:.4e}"
    return f"{x:.4f}".rstrip("0").rstrip(".") if "." in f"{x:.4f}" else f"{x:.4f}"


def fmt_grad(summary: dict) -> str:
    text = (f"{fmt_shape(summary['shape'])}  norm={fmt_num(summary['norm'])}  "
            f"min={fmt_num(summary['min'])}  max={fmt_num(summary['max'])}")
    if summary["nonfinite"]:
        text += "  NONFINITE"
    return text


# ------------------------------------------------------------------ text

def text_lines(model: GraphModel, *, saved=False, grads=None, width=None):
    """The tree as (prefix, [(text, style)]) lines: plain and rich rendering share it.

    With ``width``, no line is longer: the statement's source text gives way
    first, then the ``file:line``, then the shape; the tree's guides never do.
    """
    nodes = model.nodes
    # when one line must drop the directories of its file:line, every line does (so they agree)
    short = width is not None and any(
        len(ln.prefix) + len(ln.conn) + sum(len(t) for t, _s in node_parts(nodes[ln.gid])) + 3 > width
        and any(st == "where" and "/" in t for t, st in node_parts(nodes[ln.gid]))
        for ln in model.lines if ln.kind == "node")
    for ln in model.lines:
        head = ln.prefix + ln.conn
        if ln.kind == "node":
            gn = nodes[ln.gid]
            parts = node_parts(gn) + ([("  ", ""), ("↓", "ref")] if ln.below else [])
            if short:
                parts = [(t.rsplit("/", 1)[1], st) if st == "where" and "/" in t else (t, st)
                         for t, st in parts]
            yield head, fit_parts(head, parts, width)
            if saved or grads is not None:
                body = ln.prefix + ("│  " if ln.conn == "├─ " else "   " if ln.conn == "└─ " else "")
                guide = body + ("│    " if ln.more else "     ")
                for text, style in extra_lines(gn, saved, grads):
                    yield guide, fit_parts(guide, [(text, style)], width)
        elif ln.kind == "ref":
            yield head, fit_parts(head, ref_parts(nodes[ln.gid]), width)
        elif ln.kind == "block":
            yield "", []
            yield head, fit_parts(head, block_parts(nodes[ln.gid]), width)
        else:
            parts = run_parts(ln.run) + ([("  ", ""), ("↓", "ref")] if ln.below else [])
            yield head, fit_parts(head, parts, width)


#: How a line too wide gives way, in order: (part style, shortest it may be cut to; 0 = may go).
_GIVE_WAY = (("label", 12), ("where", 0), ("label", 0), ("meta", 0), ("var", 6), ("refname", 6),
             ("saved", 10), ("grad", 10), ("name", 10))


def fit_parts(head: str, parts: list, width: int | None) -> list:
    """``parts`` cut (``…``) or left out so that ``head`` + parts fits in ``width``.

    The source text gives way first (to 12 characters), then ``file:line``
    (a path first loses its directories), the rest of the source text, the
    shapes; the tree's guides and the node's id never do.
    """
    if width is None:
        return parts
    total = len(head) + sum(len(t) for t, _s in parts)
    if total <= width:
        return parts
    parts = list(parts)
    for i, (text, style) in enumerate(parts):
        if style == "where" and "/" in text:
            short = text.rsplit("/", 1)[1]
            total -= len(text) - len(short)
            parts[i] = (short, style)
    for style, floor in _GIVE_WAY:
        i = len(parts) - 1
        while i >= 0 and total > width:
            text, st = parts[i]
            if st == style and len(text) > floor:
                new_len = max(floor, len(text) - (total - width))
                if new_len <= 1:  # the part goes, with the spacing before it
                    start = i - 1 if i > 0 and parts[i - 1][1] == "" and parts[i - 1][0].isspace() else i
                    total -= sum(len(t) for t, _s in parts[start:i + 1])
                    del parts[start:i + 1]
                    i = start
                else:
                    parts[i] = (text[:new_len - 1] + "…", st)
                    total -= len(text) - new_len
            i -= 1
        if total <= width:
            return parts
    # still too wide (a very narrow width): cut the line's end
    room = max(1, width - len(head))
    text = "".join(t for t, _s in parts)
    return [(text[:room - 1] + "…", "")]


def render_text(model: GraphModel, write, *, saved=False, grads=None, width=None) -> None:
    """Plain text: one line per call of ``write``."""
    for head, parts in text_lines(model, saved=saved, grads=grads, width=width):
        write(head + "".join(t for t, _s in parts))


STYLES = {
    "id": "dim", "name": "bold cyan", "meta": "green", "label": "", "where": "dim",
    "var": "bold yellow", "ref": "magenta", "refname": "dim", "count": "bold magenta",
    "saved": "blue", "grad": "yellow",
}


# ------------------------------------------------------------------ JSON / DOT / Mermaid

def node_json(gn: GNode, *, saved=False, grads=None) -> dict:
    shape, dtype = gn.outputs[0] if gn.outputs else ((), None)
    o = gn.origin
    rec = {
        "id": gn.id,
        "name": gn.name,
        "shape": list(shape),
        "dtype": dtype,
        "var": (gn.leaf if gn.is_leaf and gn.leaf != "<unnamed leaf>" else None) if gn.is_leaf
        else (o.var if o else None),
        "source": o.where if o else None,
        "span": list(o.span) if o is not None and o.span is not None else None,
        "leaf": gn.leaf if gn.is_leaf else None,
    }
    if saved:
        rec["saved"] = [{"name": n, "shape": list(s), "dtype": d, "version": v, "freed": bool(f)}
                        for n, s, d, v, f in _saved_info(gn.node)]
    if grads is not None:
        rec["grad"] = grads.get(gn.node)
    return rec


class Export:
    """The graph as the exports draw it: collapsed runs become one group node each.

    A group stands for the nodes of one ``×N [...]`` line of the tree; edges
    into or out of its nodes become edges of the group, edges inside it go.
    With ``expand`` (or a model built with ``collapse=False``) nothing is
    grouped.  Ends are ``("n", id)`` for a node and ``("g", k)`` for group k.
    """

    def __init__(self, model: GraphModel, *, expand=False):
        self.model = model
        self.groups = [] if expand else list(model.groups)
        member = {}
        for k, (_count, _names, ids) in enumerate(self.groups):
            for gid in ids:
                member[gid] = k
        self.nodes = [gn for gn in model.nodes if gn.id not in member]
        edges, seen = [], set()
        for f, t, i in model.edges:
            a = ("g", member[f]) if f in member else ("n", f)
            b = ("g", member[t]) if t in member else ("n", t)
            if a == b:
                continue
            key = (a, b) if "g" in (a[0], b[0]) else (a, b, i)
            if key in seen:
                continue
            seen.add(key)
            edges.append((a, b, i if a[0] == "n" else None))
        self.edges = edges

    def group_label(self, k) -> list[str]:
        count, names, ids = self.groups[k]
        return [f"×{count} [" + " → ".join(names) + "]", f"#{ids[0]}–#{ids[-1]}, {len(ids)} nodes"]


def _end_json(end):
    return end[1] if end[0] == "n" else f"g{end[1]}"


def graph_json(model: GraphModel, target: str | None, *, saved=False, grads=None, expand=False) -> dict:
    ex = Export(model, expand=expand)
    return {
        "ok": True,
        "target": target,
        "root": 0 if model.nodes else None,
        "nodes": [node_json(gn, saved=saved, grads=grads) for gn in ex.nodes],
        "edges": [{"from": _end_json(a), "to": _end_json(b), "input": i} for a, b, i in ex.edges],
        "groups": [{"id": f"g{k}", "count": count, "names": list(names), "first": ids[0],
                    "last": ids[-1], "size": len(ids)}
                   for k, (count, names, ids) in enumerate(ex.groups)],
    }


def _label_lines(gn: GNode) -> list[str]:
    lines = [f"#{gn.id} {gn.name}"]
    out = fmt_outputs(gn)
    if gn.is_leaf:
        lines.append(gn.leaf + (f"  {out}" if out else ""))
    elif out:
        lines.append(out)
    o = gn.origin
    if o is not None and not gn.is_leaf:
        label = o.text or (o.var and f"{o.var} = …")
        if label:
            lines.append(label)
    if o is not None and o.where:
        lines.append(o.where_col)
    return lines


def _dot_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _dot_end(end) -> str:
    return f"n{end[1]}" if end[0] == "n" else f"g{end[1]}"


def render_dot(model: GraphModel, target: str | None, write, *, expand=False) -> None:
    ex = Export(model, expand=expand)
    write("digraph agrad {")
    write(f'  label="{_dot_escape("agrad graph of " + (target or "?"))}";')
    write('  node [shape=box, style="rounded", fontname="monospace"];')
    for gn in ex.nodes:
        label = "\\n".join(_dot_escape(s) for s in _label_lines(gn))
        extra = ', shape=ellipse, style=filled, fillcolor="lightblue"' if gn.is_leaf else ""
        write(f'  n{gn.id} [label="{label}"{extra}];')
    for k in range(len(ex.groups)):
        label = "\\n".join(_dot_escape(s) for s in ex.group_label(k))
        write(f'  g{k} [label="{label}", shape=box3d, style="dashed"];')
    multi = _multi_input(ex)
    for a, b, i in ex.edges:
        lab = f' [label="{i}"]' if a in multi and i is not None else ""
        write(f"  {_dot_end(a)} -> {_dot_end(b)}{lab};")
    write("}")


def _multi_input(ex):
    counts = {}
    for a, _b, _i in ex.edges:
        counts[a] = counts.get(a, 0) + 1
    return {a for a, c in counts.items() if c > 1}


_MERMAID = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "|": "#124;",
            "[": "#91;", "]": "#93;", "{": "#123;", "}": "#125;", "`": "#96;"}

#: Mermaid's default limits (``maxEdges``, ``maxTextSize``): past them it draws nothing.
MERMAID_MAX_EDGES = 500
MERMAID_MAX_CHARS = 50_000


def _mermaid_escape(s: str) -> str:
    return "".join(_MERMAID.get(ch, ch) for ch in s)


def _mermaid_lines(ex: Export, keep=None, folded=None) -> list[str]:
    """The flowchart of the ends in ``keep`` (all when None); ``folded``: end -> hidden count."""
    lines = ["flowchart TD"]
    multi = _multi_input(ex)
    for gn in ex.nodes:
        if keep is not None and ("n", gn.id) not in keep:
            continue
        label = "<br/>".join(_mermaid_escape(s) for s in _label_lines(gn))
        lines.append(f'  n{gn.id}(["{label}"])' if gn.is_leaf else f'  n{gn.id}["{label}"]')
    for k in range(len(ex.groups)):
        if keep is not None and ("g", k) not in keep:
            continue
        label = "<br/>".join(_mermaid_escape(s) for s in ex.group_label(k))
        lines.append(f'  g{k}[["{label}"]]')
    n_edges = 0
    for a, b, i in ex.edges:
        if keep is not None and (a not in keep or b not in keep):
            continue
        lab = f"|{i}|" if a in multi and i is not None else ""
        lines.append(f"  {_dot_end(a)} -->{lab} {_dot_end(b)}")
        n_edges += 1
    for end, hidden in (folded or {}).items():
        lines.append(f'  f{_dot_end(end)}[/"⋯ {hidden} more nodes"/]')
        lines.append(f"  {_dot_end(end)} -.-> f{_dot_end(end)}")
        n_edges += 1
    return lines, n_edges


def _depths(ex: Export):
    """Each end's distance from the root (breadth first), and the ends in that order."""
    out = {}
    adj = {}
    for a, b, _i in ex.edges:
        adj.setdefault(a, []).append(b)
    roots = [("n", 0)] if ex.nodes and ex.nodes[0].id == 0 else ([("g", 0)] if ex.groups else [])
    order = list(roots)
    for r in roots:
        out[r] = 0
    for end in order:
        for nxt in adj.get(end, ()):
            if nxt not in out:
                out[nxt] = out[end] + 1
                order.append(nxt)
    return out, order, adj


def _fold(ex: Export, depth: int, depths, order, adj):
    """Keep the ends up to ``depth``; each kept end with inputs below gets a summary node."""
    keep = {e for e in order if depths[e] <= depth}
    owner = {}
    frontier = [e for e in order if depths[e] == depth]
    queue = []
    for e in frontier:
        for nxt in adj.get(e, ()):
            if nxt not in keep and nxt not in owner:
                owner[nxt] = e
                queue.append(nxt)
    for e in queue:  # breadth first: a hidden end belongs to the first kept end that reaches it
        for nxt in adj.get(e, ()):
            if nxt not in keep and nxt not in owner:
                owner[nxt] = owner[e]
                queue.append(nxt)
    folded = {}
    for hidden, e in owner.items():
        size = len(ex.groups[hidden[1]][2]) if hidden[0] == "g" else 1
        folded[e] = folded.get(e, 0) + size
    return keep, folded


def render_mermaid(model: GraphModel, target: str | None, write, *, expand=False) -> None:
    """A ``flowchart TD``, within Mermaid's default limits: past them the deepest inputs fold."""
    ex = Export(model, expand=expand)
    lines, n_edges = _mermaid_lines(ex)
    if n_edges < MERMAID_MAX_EDGES and sum(len(s) + 1 for s in lines) < MERMAID_MAX_CHARS:
        for line in lines:
            write(line)
        return
    depths, order, adj = _depths(ex)
    lo, hi = 0, max(depths.values(), default=0)
    best = None
    while lo <= hi:  # the deepest cut that fits
        mid = (lo + hi) // 2
        keep, folded = _fold(ex, mid, depths, order, adj)
        cand, n = _mermaid_lines(ex, keep, folded)
        if n < MERMAID_MAX_EDGES and sum(len(s) + 1 for s in cand) < MERMAID_MAX_CHARS - 200:
            best, lo = (mid, cand, folded), mid + 1
        else:
            hi = mid - 1
    if best is None:  # not even the root's inputs fit: the root alone
        keep, folded = _fold(ex, 0, depths, order, adj)
        best = (0, *_mermaid_lines(ex, keep, folded)[:1], folded)
    depth, cand, folded = best
    hidden = sum(folded.values())
    write(cand[0])
    write(f"  %% agrad: {hidden} nodes deeper than {depth} steps from the root are folded into "
          f"'⋯ more nodes' boxes to stay within Mermaid's limits ({MERMAID_MAX_EDGES} edges, "
          f"{MERMAID_MAX_CHARS:,} characters); --format dot or json has every node")
    for line in cand[1:]:
        write(line)
