"""The graph model ``agrad graph`` and its exports share: nodes, ids, edges and the tree's lines.

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
from .records import node_display_name

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
        self._kinds: list = []
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
        # id -> the node's class, noted while the node is at hand (the collapse compares them)
        kinds = self._kinds = []
        add_kind = kinds.append
        # the edges: a chain step's edge to its input numbered next (id -> id + 1, input 0)
        # as its id in ``steps``; every other edge as three columns, an input not numbered
        # yet resolved at the end
        steps, e_from, e_to, e_idx, pending = [], [], [], [], []
        add_from, add_to, add_idx = e_from.append, e_to.append, e_idx.append
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
            # the chain: steps[first:] are the ids of its steps that go on to an input numbered
            # next (-1 for the others); ``refs`` chain position -> id of the input already
            # numbered beside such a step (``y * w``'s w); ``other`` the other steps: chain
            # position -> (id, inputs shown beside it, collapsible)
            first = len(steps)
            other = {}
            refs = {}
            cur = node
            gid = len(raw)
            while True:
                ids[cur] = gid
                add_raw(cur)
                add_kind(type(cur))
                nf = cur.next_functions
                n_in = len(nf)
                # the common step of a chain: one input, the first (``x + 1``: (x, None))
                if n_in == 1 or (n_in == 2 and nf[1][0] is None):
                    nxt = nf[0][0]
                    if nxt is not None and nxt not in ids and not isinstance(nxt, leaf_type):
                        add_step(gid)  # its input is numbered next
                        gid += 1
                        cur = nxt
                        continue
                elif n_in == 2:
                    # a step with a second input already numbered (``y * w``): the chain
                    # goes on through the first, the second is a reference beside it
                    nxt, ref = nf[0][0], nf[1][0]
                    if (nxt is not None and ref is not None and nxt is not ref and ref in ids
                            and nxt not in ids and not isinstance(nxt, leaf_type)):
                        t = ids[ref]
                        add_from(gid)
                        add_to(t)
                        add_idx(1)
                        refs[len(steps) - first] = t
                        add_step(gid)  # nxt is numbered next
                        gid += 1
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
                        add_kind(type(nxt))
                        collapsible = False
                other[at - first] = (gid, side, collapsible)
                cur = big_node
                gid = len(raw)
            gids = steps[first:]
            for k, (gid, _side, _c) in other.items():
                gids[k] = gid
            children = kids if (len(big) != 1 or repeated) else []
            if children and len(body) >= limit:
                # too deep: this node's inputs become a block of their own below the tree
                self._emit_chain(gids, other, refs, prefix, conn, body, False)
                lines[-1].below = True
                below.append((gids[-1], children))
                continue
            self._emit_chain(gids, other, refs, prefix, conn, body, bool(children))
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

    def _emit_chain(self, gids, other, refs, prefix, conn, body, has_children):
        """The lines of a chain: ``gids`` its nodes' ids, ``other`` chain position ->
        (id, inputs shown beside it, collapsible) of the steps that are not plain, ``refs``
        chain position -> the id of the one input shown beside a plain step (a reference)."""
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
            side = other[pos][1] if pos in other else (("ref", refs[pos]),) if pos in refs else ()
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
        types = list(map(self._kinds.__getitem__, gids))
        by_name: dict = {}  # two node classes of one name count as one name
        code_of = {t: by_name.setdefault(t.__name__, len(by_name)) for t in dict.fromkeys(types)}
        code = np.fromiter(map(code_of.__getitem__, types), dtype=np.int64, count=n)
        ok = np.ones(n, dtype=bool)
        for k, (_gid, _side, collapsible) in other.items():
            ok[k] = collapsible
        pos = np.arange(n)

        def run_length(flags):  # per position, how many True follow from it (itself included)
            m = len(flags)
            stop = np.where(flags, m, pos[:m])
            return np.minimum.accumulate(stop[::-1])[::-1] - pos[:m]

        ok_run = run_length(ok)
        eqs = [None]  # eqs[p][i]: steps i and i + p match (names equal, both collapsible)
        same = {}  # same[p][i]: how many of eqs[p] hold from i on (None: none anywhere)

        def same_of(p):
            if p not in same:
                eq = eqs[p]
                same[p] = np.concatenate([run_length(eq), np.zeros(p, dtype=np.int64)]) if eq.any() else None
            return same[p]

        best_len = np.zeros(n, dtype=np.int64)  # steps covered by the best run from each position
        best_p = np.zeros(n, dtype=np.int64)
        for p in range(1, min(MAX_PERIOD, n // MIN_REPEATS) + 1):
            eq = (code[:-p] == code[p:]) & ok[:-p] & ok[p:]
            eqs.append(eq)
            if np.count_nonzero(eq) < p * (MIN_REPEATS - 1):
                continue  # no run of MIN_REPEATS repetitions anywhere (the common case)
            reps = 1 + same_of(p) // p
            fine = (ok_run >= p) & (reps >= MIN_REPEATS)
            fine[n - p * MIN_REPEATS + 1:] = False  # the run would end past the chain
            for d in range(1, p):  # a shorter period repeated: its own run covers as much
                if p % d == 0 and same_of(d) is not None:
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
            # what a collapsible step shows beside it are references, to nodes numbered before it
            out.append((None, (length // p, names, ids[0], max(ids))))
            i += length
        return out
