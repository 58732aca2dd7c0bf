"""``agrad graph --format json|dot|mermaid``: the graph model as data and diagrams.

Collapsed runs of the tree become one group node each (:class:`Export`);
Mermaid output stays within Mermaid's default limits by folding the deepest
inputs.
"""

from __future__ import annotations

from .graphmodel import GNode, GraphModel
from .graphview import saved_info, fmt_outputs


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
                        for n, s, d, v, f in saved_info(gn.node)]
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
