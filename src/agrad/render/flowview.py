"""``agrad graph --flow``: how much gradient reached each node, vanishing and exploding flow.

Per node the norm of the gradient that arrived in the backward pass (its
first output's), relative to the norm that reached the root.  A node is
flagged ``vanishing`` when that ratio is below :data:`VANISHING` (a zero
gradient included), ``exploding`` when the norm is above :data:`EXPLODING`,
``nonfinite`` when a NaN or infinity arrived.  The text follows the tree's
lines, so repeated runs collapse the same way (a run shows its range of
norms and how many of its nodes are flagged).
"""

from __future__ import annotations

from .graphview import fit_parts, fmt_num

VANISHING = 1e-7  # relative to the root's gradient norm
EXPLODING = 1e4  # absolute norm

FLAG_TEXT = {"vanishing": "VANISHING", "exploding": "EXPLODING", "nonfinite": "NONFINITE"}


def flow_records(model, grads) -> dict:
    """The JSON ``flow`` record: thresholds, the root's norm, one entry per node."""
    root_norm = None
    if model.nodes:
        g = grads.get(model.nodes[0].node)
        if g is not None and not isinstance(g["norm"], str):
            root_norm = g["norm"]
    nodes = []
    for gn in model.nodes:
        g = grads.get(gn.node)
        if g is None:
            nodes.append({"id": gn.id, "name": gn.name, "norm": None, "relative": None, "flag": None})
            continue
        norm = g["norm"]
        rel, flag = None, None
        if isinstance(norm, str) or g.get("nonfinite"):
            flag = "nonfinite"
        else:
            if root_norm:
                rel = norm / root_norm
            if norm > EXPLODING:
                flag = "exploding"
            elif rel is not None and rel < VANISHING:
                flag = "vanishing"
        nodes.append({"id": gn.id, "name": gn.name, "norm": norm, "relative": rel, "flag": flag})
    return {"root_norm": root_norm, "vanishing_below": VANISHING, "exploding_above": EXPLODING,
            "nodes": nodes,
            "vanishing": [n["id"] for n in nodes if n["flag"] == "vanishing"],
            "exploding": [n["id"] for n in nodes if n["flag"] == "exploding"],
            "nonfinite": [n["id"] for n in nodes if n["flag"] == "nonfinite"]}


def _norm_text(n) -> str:
    if n["norm"] is None:
        return "(no gradient arrived)"
    text = f"norm {fmt_num(n['norm'])}"
    if n["relative"] is not None and n["id"] != 0:
        text += f"  ×{fmt_num(n['relative'])} of the root"
    return text


def text_lines(model, record: dict, width=None):
    """(head, [(text, style)]) lines of the section, after the tree."""
    by_id = record["nodes"]
    yield "", []
    root = record["root_norm"]
    yield "", fit_parts("", [("gradient flow: the norm of the gradient that reached each node", "id")],
                        width)
    if root is not None:
        yield "", fit_parts("", [(f"(root {fmt_num(root)}; vanishing < 1e-7 × root, exploding > 1e4)",
                                  "id")], width)
    else:
        yield "", fit_parts("", [("(no gradient reached the root)", "id")], width)
    for ln in model.lines:
        if ln.kind == "node":
            n = by_id[ln.gid]
            parts = [(f"#{n['id']}", "id"), (" ", ""), (n["name"], "name"), ("  ", ""),
                     (_norm_text(n), "grad")]
            if n["flag"]:
                parts += [("  ", ""), (FLAG_TEXT[n["flag"]], "hook")]
            yield "  ", fit_parts("  ", parts, width)
        elif ln.kind == "run":
            count, names, first, last = ln.run
            members = [by_id[i] for i in range(first, last + 1)]
            norms = [n["norm"] for n in members if isinstance(n["norm"], float)]
            parts = [(f"×{count}", "count"), (" ", ""), (f"#{first}–#{last}", "id")]
            if norms:
                parts += [("  ", ""), (f"norm {fmt_num(min(norms))} – {fmt_num(max(norms))}", "grad")]
            for flag, label in FLAG_TEXT.items():
                k = sum(1 for n in members if n["flag"] == flag)
                if k:
                    first_id = next(n["id"] for n in members if n["flag"] == flag)
                    parts += [("  ", ""), (f"{k} {label} from #{first_id}", "hook")]
            yield "  ", fit_parts("  ", parts, width)
    flagged = [(flag, record[flag]) for flag in ("vanishing", "exploding", "nonfinite") if record[flag]]
    summary = "; ".join(f"{len(ids)} {flag}" for flag, ids in flagged) or "no node flagged"
    yield "", fit_parts("", [(summary, "hook" if flagged else "id")], width)
