"""``agrad trace``: the recorded backward pass as text, rich text or JSON.

Each step is one node run by the engine, in its order, headed like a line
of ``agrad graph`` (the same ids), then what happened there: ``in`` the
gradient that arrived for each output (after the tensor hooks), ``saved``
the saved tensors the formula read with the version each expected and the
version it had, ``hook`` each hook that fired and what it returned,
``out`` the gradient sent along each edge (to the input's node), and
``.grad`` the leaf's gradient after ``AccumulateGrad``.  Steps repeating the
same sequence of node names collapse into one line, as in the graph view.
"""

from __future__ import annotations

import numpy as np

from .records import json_float
from .graphmodel import GNode, MAX_PERIOD, MIN_REPEATS
from .graphview import fit_parts, fmt_grad, fmt_num, fmt_shape, node_parts


class TraceView:
    """The steps to show, their graph ids, and the collapsed runs."""

    def __init__(self, steps, model, *, limit=None, node_id=None, collapse=True, failed=False):
        self.model = model
        self.total = len(steps)
        self.last = steps[-1] if steps else None
        self.failed = failed  # the pass (or the script) ended in an error
        self._extra = {}  # node -> GNode of nodes the model does not hold (another pass's root)
        if node_id is not None:
            steps = [s for s in steps if model.id_of(s.node) == node_id]
        self.matched = len(steps)
        if limit is not None:
            steps = steps[:limit]
        self.steps = steps
        self.items = _runs(steps) if collapse else [(s, None) for s in steps]

    def gnode(self, node) -> GNode:
        gid = self.model.id_of(node)
        if gid is not None:
            return self.model.nodes[gid]
        gn = self._extra.get(node)
        if gn is None:
            gn = self._extra[node] = GNode("?", node, self.model)
        return gn

    def id_of(self, node):
        return self.model.id_of(node)


def _plain(step) -> bool:
    """A step that may hide in a collapsed run: nothing happened there but the formula."""
    if step.hooks or step.retained or step.accumulated is not None:
        return False
    return all(now is None or now == expected for _n, _s, _d, expected, now, _f in step.saved)


def _runs(steps):
    """Single steps and collapsed runs ``(count, names, steps covered)``, in order."""
    names = [type(s.node).__name__ for s in steps]
    ok = [_plain(s) for s in steps]
    out = []
    i, n = 0, len(steps)
    while i < n:
        best = None
        if ok[i]:
            for p in range(1, MAX_PERIOD + 1):
                if i + p * MIN_REPEATS > n:
                    break
                if not all(ok[i:i + p]):
                    break
                pat = names[i:i + p]
                k, j = 1, i + p
                while j + p <= n and names[j:j + p] == pat and all(ok[j:j + p]):
                    k += 1
                    j += p
                if k >= MIN_REPEATS and (best is None or k * p > best[0] * best[1]):
                    best = (k, p)
        if best is None:
            out.append((steps[i], None))
            i += 1
            continue
        k, p = best
        out.append((None, (k, names[i:i + p], steps[i:i + k * p])))
        i += k * p
    return out


# ------------------------------------------------------------------ text

def _grad_text(g) -> str:
    return "(none)" if g is None else fmt_grad(g)


def _returned_text(r) -> str:
    if r == "kept":
        return "returned None (gradient kept)"
    if isinstance(r, dict):
        return "returned " + fmt_grad(r)
    if isinstance(r, list):
        return "returned (" + "; ".join(_grad_text(g) for g in r) + ")"
    return f"returned {r}"


def step_lines(view: TraceView, step):
    """(head, [(text, style)]) lines of one step."""
    gn = view.gnode(step.node)
    head = f"{step.index + 1:>{len(str(view.total))}}  "
    yield head, node_parts(gn)
    pad = " " * len(head) + "  "
    for kind, index, name, returned in step.hooks:
        if kind == "tensor":
            what = f"hook {name} (tensor hook of output {index})"
        elif kind == "pre":
            what = f"hook {name} (node pre-hook)"
        else:
            what = f"hook {name} (node hook)"
        yield pad, [(what + ": " + _returned_text(returned), "hook")]
    multi = len(step.grads_in) > 1 or any(i != 0 for i in step.grads_in)
    if not step.grads_in:
        yield pad, [("in   (no gradient arrived)", "grad")]
    for idx, g in step.grads_in.items():
        yield pad, [(f"in{f' [{idx}]' if multi else ''}   " + _grad_text(g), "grad")]
    for name, shape, dtype, expected, now, freed in step.saved:
        text = f"saved {name}  {fmt_shape(shape)} {dtype}  version {expected}"
        if now is not None and now != expected:
            text += f", now {now}: modified in place"
        elif freed:
            text += ", freed"
        yield pad, [(text, "saved")]
    for idx, g in step.retained:
        yield pad, [(f"retain_grad output {idx}: .grad " + _grad_text(g), "grad")]
    if step.grads_out is not None:
        for k, nxt, g in step.grads_out:
            target = view.gnode(nxt)
            yield pad, [(f"out [{k}] → ", "grad"), (f"#{target.id}", "id"), (" ", ""),
                        (target.name, "refname"), ("  ", ""), (_grad_text(g), "grad")]
    elif step.accumulated is not None:
        leaf = view.gnode(step.node).leaf or "leaf"
        yield pad, [(f"{leaf}.grad = " + fmt_grad(step.accumulated), "var")]
    elif not step.ran:
        if any(now is not None and now != expected for _n, _s, _d, expected, now, _f in step.saved):
            yield pad, [("raised: a saved tensor was modified in place", "hook")]
        elif step is view.last and view.failed:
            yield pad, [("raised the error below", "hook")]
        else:
            yield pad, [("(not run: no gradient needed from it)", "grad")]


def run_lines(view: TraceView, run):
    count, names, covered = run
    first, last = covered[0].index + 1, covered[-1].index + 1
    head = " " * (len(str(view.total)) + 2)
    ids = [view.id_of(s.node) for s in covered]
    ids = [i for i in ids if i is not None]
    norms = [g["norm"] for s in covered for g in s.grads_in.values()
             if g is not None and not isinstance(g["norm"], str)]
    parts = [(f"×{count}", "count"), (" ", ""), ("[" + " → ".join(names) + "]", "name"),
             ("  ", ""), (f"steps {first}–{last}", "id")]
    if ids:
        parts += [("  ", ""), (f"#{min(ids)}–#{max(ids)}", "id")]
    if norms:
        parts += [("  ", ""), (f"grad norm {fmt_num(min(norms))}–{fmt_num(max(norms))}", "grad")]
    yield head, parts


def text_lines(view: TraceView, width=None, header=""):
    if header:
        yield "", fit_parts("", [(header, "id")], width)
    for step, run in view.items:
        lines = step_lines(view, step) if run is None else run_lines(view, run)
        for head, parts in lines:
            yield head, fit_parts(head, parts, width)
    hidden = view.matched - len(view.steps)
    if hidden > 0:
        yield "", fit_parts("", [(f"… {hidden} more steps (--limit)", "id")], width)


STYLES = {"id": "dim", "name": "bold cyan", "meta": "green", "label": "", "where": "dim",
          "var": "bold yellow", "ref": "magenta", "refname": "cyan", "count": "bold magenta",
          "saved": "blue", "grad": "yellow", "hook": "bold red"}


# ------------------------------------------------------------------ JSON

class _Grads:
    """Gradient summaries for JSON, their float32 values written as the shortest decimal
    that reads back as the same float32 (as eval's JSON) -- converted in one batch."""

    def __init__(self):
        self.pending = []  # (record, dtype)

    def __call__(self, g):
        if g is None or "values" not in g:
            return g
        out = dict(g)
        dtype = g.get("dtype")
        if dtype in ("float32", "float16"):
            self.pending.append((out, dtype))
        else:
            out["values"] = [json_float(v) if isinstance(v, float) else v for v in g["values"]]
        return out

    def finish(self) -> None:
        for dtype in ("float32", "float16"):
            recs = [r for r, d in self.pending if d == dtype]
            if not recs:
                continue
            flat = np.array([v for r in recs for v in r["values"]], dtype=dtype)
            shown = flat.astype(str).tolist()
            k = 0
            for r in recs:
                n = len(r["values"])
                r["values"] = [json_float(float(t)) for t in shown[k:k + n]]
                k += n
        self.pending = []


def step_json(view: TraceView, step, grad_json) -> dict:
    gn = view.gnode(step.node)
    o = gn.origin
    return {
        "step": step.index + 1,
        "id": gn.id if gn.id != "?" else None,
        "node": gn.name,
        "source": o.where if o else None,
        "span": list(o.span) if o is not None and o.span is not None else None,
        "grads_in": [{"output": idx, "grad": grad_json(g)} for idx, g in step.grads_in.items()],
        "saved": [{"name": n, "shape": list(s), "dtype": d, "version": v, "version_now": now,
                   "freed": bool(f)} for n, s, d, v, now, f in step.saved],
        "hooks": [{"kind": kind, "output": index, "hook": name,
                   "returned": _returned_json(r, grad_json)} for kind, index, name, r in step.hooks],
        "retained": [{"output": idx, "grad": grad_json(g)} for idx, g in step.retained],
        "grads_out": None if step.grads_out is None else [
            {"input": k, "to": view.id_of(nxt), "to_node": view.gnode(nxt).name, "grad": grad_json(g)}
            for k, nxt, g in step.grads_out],
        "accumulated": grad_json(step.accumulated),
        "ran": step.ran,
    }


def _returned_json(r, grad_json):
    if r == "kept":
        return None
    if isinstance(r, dict):
        return grad_json(r)
    if isinstance(r, list):
        return [grad_json(g) for g in r]
    return r


def trace_json(view: TraceView, target, passes) -> dict:
    runs = []
    for step, run in view.items:
        if run is not None:
            count, names, covered = run
            ids = [i for i in (view.id_of(st.node) for st in covered) if i is not None]
            runs.append({"count": count, "names": list(names), "first_step": covered[0].index + 1,
                         "last_step": covered[-1].index + 1, "size": len(covered),
                         "first_id": min(ids) if ids else None, "last_id": max(ids) if ids else None})
    grads = _Grads()
    steps = [step_json(view, s, grads) for s, run in view.items if run is None]
    grads.finish()
    return {"ok": True, "target": target, "passes": passes, "total_steps": view.total,
            "steps": steps, "runs": runs}
