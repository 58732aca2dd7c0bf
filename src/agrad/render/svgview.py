"""``agrad graph --format svg``: a static picture of the graph, without Graphviz.

The same top-down layout as the HTML page (``page/graph.js``) in its first
state: collapsed runs are one stacked box each, every other node has its
box.  Each node hangs below its in-neighbour with the smallest key (its id,
a run's first id) -- the node that reached it first in the tree's walk --
so the graph's spanning tree is drawn with solid edges, leaves packed left
to right and each parent centred over its first and last child.  The other
edges are dashed when they go at most three rows down and six columns
across, and otherwise
written as ``↑#4`` / ``↓#9`` references in the box (as the text tree
writes ``↑ #4``).  Text is cut to the box (``…``); all of it is escaped.
"""

from __future__ import annotations

import re

from .graphexport import Export
from .graphmodel import GraphModel
from .graphview import fmt_num, fmt_outputs

COL, ROW, BW, BH, PAD = 250, 96, 226, 66, 30
CHARS = 31  # characters of 11.5px monospace in a box
#: characters XML 1.0 does not allow (they become U+FFFD)
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

STYLE = """
text { font: 11.5px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; fill: #333; }
.t { font-weight: 700; fill: #0e5a8a; } .id { font-weight: 400; fill: #7a8294; }
.m { fill: #2f7d32; } .w { fill: #7a8294; font-size: 10.5px; } .r { fill: #7d3fb0; font-size: 10.5px; }
rect { fill: #fff; stroke: #b8c0cf; } .leaf rect { fill: #e9f3ff; stroke: #8fb5e0; }
.grp rect { fill: #fbf7ff; stroke: #8d63b8; stroke-dasharray: 5 3; } .grp .t { fill: #6b3aa0; }
.bad rect { stroke: #d32f2f; stroke-width: 2.5; }
path { fill: none; stroke: #8d96a8; stroke-width: 1.3; } path.x { stroke: #b9a0d6; stroke-dasharray: 4 3; }
"""


def _esc(text: str) -> str:
    text = _BAD_XML.sub("\ufffd", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _cut(text: str, n: int = CHARS) -> str:
    return text if len(text) <= n else text[:n - 1] + "…"


class TreeLayout:
    """Positions of the ends of an :class:`Export` (nodes and collapsed runs), top-down."""

    def __init__(self, ex: Export):
        self.ex = ex
        ends = [("n", gn.id) for gn in ex.nodes] + [("g", k) for k in range(len(ex.groups))]
        key = {e: (e[1] if e[0] == "n" else min(ex.groups[e[1]][2])) for e in ends}
        self.key = key
        best: dict = {}
        self.inputs: dict = {e: [] for e in ends}
        for a, b, _i in ex.edges:
            if b not in self.inputs[a]:
                self.inputs[a].append(b)
            if key[a] < key[b] and (b not in best or key[a] < key[best[b]]):
                best[b] = a
        ends.sort(key=key.get)
        self.root = ends[0] if ends else None
        self.parent = {e: best.get(e, self.root) for e in ends[1:]}
        self.children: dict = {e: [] for e in ends}
        for e in ends[1:]:  # in key order: each parent's children come sorted
            self.children[self.parent[e]].append(e)
        self.depth, self.x, self.order = {}, {}, []
        stack = [self.root] if ends else []
        if ends:
            self.depth[self.root] = 0
        while stack:
            e = stack.pop()
            self.order.append(e)
            for c in reversed(self.children[e]):
                self.depth[c] = self.depth[e] + 1
                stack.append(c)
        col = 0
        for e in self.order:
            if not self.children[e]:
                self.x[e] = col
                col += 1
        for e in reversed(self.order):
            kids = self.children[e]
            if kids:
                self.x[e] = (self.x[kids[0]] + self.x[kids[-1]]) / 2
        self.columns = max(col, 1)
        self.rows = max(self.depth.values(), default=0) + 1

    def pos(self, e) -> tuple[float, float]:
        return PAD + self.x[e] * COL, PAD + self.depth[e] * ROW

    def extra(self, e):
        """The inputs of ``e`` that are not tree edges: (dashed lines, references)."""
        lines, refs = [], []
        for b in self.inputs[e]:
            if self.parent.get(b) == e:
                continue
            dd = self.depth[b] - self.depth[e]
            (lines if 0 < dd <= 3 and abs(self.x[b] - self.x[e]) <= 6 else refs).append(b)
        return lines, refs


def _wrap(text: str) -> tuple[str, str]:
    """``text`` on two lines of a box, broken before an arrow (the second cut if still too long)."""
    if len(text) <= CHARS:
        return text, ""
    cut = text.rfind(" → ", 0, CHARS + 3)  # the arrow starts the second line
    if cut <= 0:
        return text[:CHARS], text[CHARS:]
    return text[:cut], text[cut + 1:]


def _curve(x1, y1, x2, y2) -> str:
    ym = (y1 + y2) / 2
    return f"M{x1:g},{y1:g}C{x1:g},{ym:g} {x2:g},{ym:g} {x2:g},{y2:g}"


def where_of(lay: TreeLayout, e) -> str:
    """``file:line:col`` of a node, or of a run's first node."""
    gid = e[1] if e[0] == "n" else min(lay.ex.groups[e[1]][2])
    o = lay.ex.model.nodes[gid].origin
    return o.where_col if o is not None and o.where else ""


def _box_lines(lay: TreeLayout, e, grads):
    """(css class, [(text, class)] for the 4 lines) of one end."""
    ex = lay.ex
    if e[0] == "g":
        count, names, ids = ex.groups[e[1]]
        first_line, second_line = _wrap("[" + " → ".join(names) + "]")
        return "grp", [(f"×{count} repeats of {len(names)} node" + ("s" if len(names) > 1 else ""), "t"),
                       (first_line, ""), (second_line, ""),
                       (f"#{min(ids)}–#{max(ids)}, {len(ids):,} nodes", "w")]
    gn = ex.model.nodes[e[1]]
    o = gn.origin
    g = grads.get(gn.node) if grads is not None else None
    cls = "leaf" if gn.is_leaf else ""
    if g is not None and g["nonfinite"]:
        cls += " bad"
    if gn.is_leaf:
        meta = f"{gn.leaf}  {fmt_outputs(gn)}"
        label = f"grad norm={fmt_num(g['norm'])}" if g is not None else "leaf"
    else:
        meta = fmt_outputs(gn)
        label = (o.text or (o.var and f"{o.var} = …") or "") if o is not None else ""
    where = o.where_col.rsplit("/", 1)[-1] if o is not None and o.where else ""
    return cls, [(f"#{gn.id} {gn.name}", "t"), (meta, "m"), (label, ""), (where, "w")]


def render_svg(model: GraphModel, target: str | None, write, *, grads=None) -> None:
    ex = Export(model)
    lay = TreeLayout(ex)
    width = 2 * PAD + lay.columns * COL - (COL - BW)
    height = 2 * PAD + lay.rows * ROW - (ROW - BH) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}">',
           f"<title>{_esc('agrad graph' + (f' of {target}' if target else ''))}</title>",
           f"<style>{STYLE}</style>", '<rect x="0" y="0" width="100%" height="100%" style="fill:#f6f7f9;stroke:none"/>']
    solid, dashed = [], []
    for e in lay.order:
        x, y = lay.pos(e)
        for c in lay.children[e]:
            cx, cy = lay.pos(c)
            solid.append(_curve(x + BW / 2, y + BH, cx + BW / 2, cy))
        for b in lay.extra(e)[0]:
            bx, by = lay.pos(b)
            dashed.append(_curve(x + BW / 2, y + BH, bx + BW / 2, by))
    if solid:
        out.append(f'<path d="{"".join(solid)}"/>')
    if dashed:
        out.append(f'<path class="x" d="{"".join(dashed)}"/>')
    for e in lay.order:
        x, y = lay.pos(e)
        cls, lines = _box_lines(lay, e, grads)
        refs = lay.extra(e)[1]
        rx = 14 if "leaf" in cls else 6
        tip = "\n".join(lay.ex.group_label(e[1]) + [where_of(lay, e)] if e[0] == "g"
                        else [t for t, _c in lines if t])
        out.append(f'<g class="{cls}" transform="translate({x:g},{y:g})"><title>{_esc(tip)}</title>'
                   f'<rect width="{BW}" height="{BH}" rx="{rx}"/>')
        ref_text = " ".join(("↑" if lay.depth[b] <= lay.depth[e] else "↓") + f"#{lay.key[b]}"
                            for b in refs[:3]) + (f" +{len(refs) - 3}" if len(refs) > 3 else "")
        for k, (text, tcls) in enumerate(lines):
            room = CHARS - (len(ref_text) + 1 if k == 3 and ref_text else 0)
            attr = f' class="{tcls}"' if tcls else ""
            if k == 0 and e[0] == "n":
                ident, _, rest = text.partition(" ")
                body = f'<tspan class="id">{_esc(ident)}</tspan> {_esc(_cut(rest, room - len(ident) - 1))}'
            else:
                body = _esc(_cut(text, room))
            out.append(f'<text x="7" y="{15 + 15 * k}"{attr}>{body}</text>')
        if ref_text:
            out.append(f'<text x="{BW - 7}" y="60" class="r" text-anchor="end">{_esc(ref_text)}</text>')
        out.append("</g>")
    if not lay.order:
        out.append(f'<text x="{PAD}" y="{PAD + 15}">no graph to show</text>')
    out.append("</svg>\n")
    write(("\n".join(out)).encode("ascii", "xmlcharrefreplace").decode("ascii"))
