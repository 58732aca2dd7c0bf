"""Rules for grid_sample's double backward (docs/semantics.md, ``F.grid_sample``): its second
derivative's ggGrid terms are agrad's own composition of tensor ops, equal in value to PyTorch 2.13's
grid_sampler_{2,3}d_double_backward but with other nodes under the top ones (a graph under
create_graph shows them), and, where a clipped place's multiplier is 0, other signs of some zeros."""

from __future__ import annotations

import re

_DOUBLE = re.compile(r"GridSampler[23]DBackwardBackward0")
_CREATE_GRAPH = re.compile(r"create_graph\s*=\s*True")


def after_double_backward(lines: list[str], i: int) -> bool:
    """Statement ``i`` comes after a grid_sample and a backward pass with create_graph=True."""
    before = lines[:i]
    return any("grid_sample(" in s for s in before) and any(_CREATE_GRAPH.search(s) for s in before + [lines[i]])


def composed_graph_only(want: dict, got: dict, agree_once) -> bool:
    """True when the variables that differ are tensors whose graphs both hold a grid sampler's
    double-backward node and that agree once the graphs (and the reprs, which name the top node) are
    set aside."""
    def strip(w, g):
        """(w, g) with the graphs in question set aside (a tuple's items too), or None."""
        if w["kind"] == "seq" and g["kind"] == "seq" and len(w["items"]) == len(g["items"]):
            pairs = [strip(a, b) or (a, b) for a, b in zip(w["items"], g["items"])]
            if all(p[0] is a for p, a in zip(pairs, w["items"])):
                return None
            return dict(w, items=[p[0] for p in pairs], repr=""), dict(g, items=[p[1] for p in pairs], repr="")
        if w["kind"] != "tensor" or g["kind"] != "tensor" or not w.get("graph") or not g.get("graph"):
            return None
        if not (_DOUBLE.search(str(w["graph"])) and _DOUBLE.search(str(g["graph"]))) or w["graph"] == g["graph"]:
            return None
        return dict(w, graph=None, repr=""), dict(g, graph=None, repr="")
    return agree_once(want, got, strip)
