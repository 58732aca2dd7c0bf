"""Differential tester: random programs run under PyTorch and agrad, every observable compared.

Usage:
    python tools/difftest.py --n 20000 [--seed 0] [--examples] [--json FILE] [--chunk 500]
    python tools/difftest.py --replay FILE [--examples] [--json LEFT]   # an earlier run's groups, today

With ``--chunk``, programs run in child processes, so a crash inside PyTorch or a C
library (PyTorch 2.13 segfaults on a few generated hook programs) or a hang (a
watchdog ends a program after 300 s) skips that one program, which the summary
names, instead of ending the run: the child writes a line per program, and a new
child carries on from the program after the one that died.

Each program (tools/diffgen.py) runs statement by statement in both
libraries (one process: ``torch`` is PyTorch or agrad's Python API). After
every statement the tester records, for every live variable, the value
(dtype, shape, data), ``repr``, the layout (``stride()`` of the dims of more
than one element), ``requires_grad``/``is_leaf``, the whole
``grad_fn`` graph (every node name and ``next_functions`` edge with its
input number), the leaf gradients, and for the statement itself the
exception (type and text) and the warnings (category and text). The first
statement where the two differ names the mismatch group: what differs
(``error-text``, ``grad_fn``, ``value``, ...) and the op the statement calls.
Each group's first program is shrunk to a minimal reproducer (statements
dropped while the same group still shows).

Tolerated, as the issue's "Done when" allows: float rounding (elementwise
within 2 ulp, otherwise 1e-6 relative to the tensor's largest magnitude in
float32, 1e-14 in float64, 1e-3 in float16), PyTorch's warn-once behaviour
and its "(Triggered internally at ...)" suffix. Larger float differences
up to 1e-3 relative are reported as group ``numeric`` (accumulated rounding
in long programs), separately from wrong values.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT / "src", ROOT / "tools"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import diffgen  # noqa: E402
import difftest_blas  # noqa: E402
import difftest_gelu  # noqa: E402
import difftest_lapack  # noqa: E402
import difftest_sinc  # noqa: E402
import difftest_uninit  # noqa: E402
import difftest_vmlsqrt  # noqa: E402
from difftest_compare import (  # noqa: E402,F401  (the tests reach them through difftest)
    STRICT, TORCH_WARNED, WARN_ONCE_PREFIXES, compare_data, compare_desc, compare_statement, op_of)
from difftest_rules import (  # noqa: E402,F401
    CONDITIONED_OPS, DOCUMENTED, _agree_once, _agrees_but_where, _zero_signs_within, documented)

_SUFFIX = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?\s*$", re.S)
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
_FRAMES = re.compile(r"\nException raised from .*", re.S)
HIDDEN = {"torch", "F", "__builtins__"}


def norm_warning(message: str) -> str:
    return _SUFFIX.sub("", str(message))


def norm_error(message: str) -> str:
    """An error's text without the C++ backtrace some of PyTorch's carry (its addresses change per run)."""
    return _FRAMES.sub("", message)


# --- running ------------------------------------------------------------------------

def run_program(mod, lines: list[str]) -> list[dict]:
    """Run ``lines`` with ``torch`` bound to ``mod``; one observation per statement."""
    ns = {"torch": mod, "F": mod.nn.functional}
    mod.manual_seed(0)  # random ops (log_normal_, cauchy_, ...) compare on PyTorch's stream
    observations = []
    for stmt in lines:
        error = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(stmt, ns)
            except Exception as e:  # noqa: BLE001 - compared, not handled
                error = (type(e).__name__, norm_error(str(e)))
            snapshot = {name: describe(mod, v) for name, v in sorted(ns.items()) if name not in HIDDEN and not name.startswith("__")}
            identities(mod, ns, snapshot)
        warned = [(w.category.__name__, norm_warning(w.message)) for w in caught]
        observations.append({"error": error, "warnings": warned, "vars": snapshot})
    return observations


def identities(mod, ns: dict, snapshot: dict) -> None:
    """Marks each tensor (a variable, or an item of a tuple variable) that is the very object of an
    earlier variable (by name) with ``same_as``: what ``r = torch.add(a, b, out=o)`` returns is ``o``
    itself, as an in-place method returns its tensor, and writing one then writes the other."""
    first = {}
    for name in snapshot:
        v = ns[name]
        if isinstance(v, mod.Tensor):
            seen = first.setdefault(id(v), name)
            if seen != name:
                snapshot[name]["same_as"] = seen
    for name, desc in snapshot.items():
        if desc["kind"] == "seq":
            for item, v in zip(desc["items"], ns[name]):
                if item["kind"] == "tensor" and id(v) in first:
                    item["same_as"] = first[id(v)]


def describe(mod, v, depth: int = 0):
    if isinstance(v, mod.Tensor):
        return describe_tensor(mod, v, depth)
    if isinstance(v, (tuple, list)) and depth < 2:
        kind = type(v).__module__.replace("agrad", "torch") + "." + type(v).__name__
        items = [describe(mod, x, depth + 1) for x in v]
        return {"kind": "seq", "type": kind, "items": items, "repr": _safe_repr(v)}
    if isinstance(v, (bool, int, float, str, type(None))):
        if isinstance(v, float) and v != v:
            return {"kind": "py", "type": "float", "value": "nan"}
        return {"kind": "py", "type": type(v).__name__, "value": v}
    if callable(v) and not hasattr(v, "remove"):
        return {"kind": "callable"}
    if hasattr(v, "remove"):  # a hook handle
        return {"kind": "handle"}
    return {"kind": "other", "repr": _ADDRESS.sub("", _safe_repr(v))}


def _safe_repr(v) -> str:
    try:
        return repr(v)
    except Exception as e:  # noqa: BLE001
        return f"<repr raised {type(e).__name__}: {e}>"


def describe_tensor(mod, t, depth: int) -> dict:
    try:
        # (numpy() of the tensor itself would mark PyTorch's storage not resizable: a later resize_ that
        # grows it would then fail under the tester only; a ZeroTensor is read as itself, since its clone
        # is an ordinary tensor)
        copy = mod.__name__ == "torch" and not t._is_zerotensor()
        data = (t.detach().clone() if copy else t.detach()).numpy().copy()
    except Exception as e:  # noqa: BLE001
        data = f"<{type(e).__name__}>"
    try:  # a view modified where PyTorch forbids it raises on reading its history
        is_leaf, history = t.is_leaf, graph(t.grad_fn)
    except RuntimeError as e:
        is_leaf = history = f"<{type(e).__name__}: {e}>"
    out = {"kind": "tensor", "dtype": str(t.dtype), "shape": list(t.shape), "data": data,
           "requires_grad": t.requires_grad, "is_leaf": is_leaf, "repr": _safe_repr(t),
           "graph": history, "stride": _layout(t)}
    if depth == 0 and (is_leaf is True or getattr(t, "retains_grad", False)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = t.grad
        out["grad"] = None if g is None else describe_tensor(mod, g, 1)
    return out


def _layout(t):
    """The layout: ``stride()`` of the dims of other than one element (a dim of one element may have
    any stride; an empty tensor's strides are PyTorch's too: agrad carries them, _layout.carried)."""
    try:
        return [s if n != 1 else None for n, s in zip(t.shape, t.stride())]
    except Exception as e:  # noqa: BLE001
        return f"<{type(e).__name__}>"


def graph(fn, limit: int = 80):
    """Every node reachable from ``fn``: [name, [(child index | None, input_nr), ...]] in BFS order."""
    if fn is None:
        return None
    index = {id(fn): 0}
    order = [fn]
    out = []
    i = 0
    while i < len(order) and i < limit:
        node = order[i]
        edges = []
        for child, nr in node.next_functions:
            if child is None:
                edges.append((None, nr))
                continue
            if id(child) not in index:
                index[id(child)] = len(order)
                order.append(child)
            edges.append((index[id(child)], nr))
        out.append([node.name(), edges])
        i += 1
    return out



def lapack_zero_signs(lines, i, got, w, g) -> bool:
    """``lapack-downstream`` for a ``repr`` difference: zeros' signs only (the rest within the tolerance),
    the values being what PyTorch's replay with agrad's LAPACK results gives (``round_`` of a float32
    ``pinverse``'s -1.5e-7, +1.2e-8 in agrad: -0. against 0.; run 39490000)."""
    return _zero_signs_within(w, g) and difftest_lapack.explained(
        lines, i, got, w, g, op_of, CONDITIONED_OPS, compare_desc, _agree_once)


def diff_program(lines: list[str]):
    """(group key, statement index, detail) of the first difference, or None. A difference
    that docs/semantics.md lists as deliberate is keyed ``documented:<name>:<op>``; the
    program is not compared further (what follows depends on it)."""
    import torch

    import agrad

    want = run_program(torch, lines)
    for obs in want:
        for _, message in obs["warnings"]:
            TORCH_WARNED.add(message)
    got = run_program(agrad, lines)
    for i, (w, g) in enumerate(zip(want, got)):
        found = compare_statement(w, g)
        if found:
            aspect, detail = found
            name = documented(aspect, lines[i], w, g, (lines, want, i))
            storage = aspect == "repr" and op_of(lines[i]) == "untyped_storage"  # (a LAPACK result's bytes)
            if not name and (aspect in ("value", "numeric") or storage) and difftest_lapack.explained(
                    lines, i, got, w, g, op_of, CONDITIONED_OPS, compare_desc, _agree_once):
                name = "lapack-downstream"
            if not name and aspect == "repr" and lapack_zero_signs(lines, i, got, w, g):
                name = "lapack-downstream"
            if not name and aspect in ("value", "numeric") and difftest_uninit.view_growth(
                    lines, i, want, got, compare_desc, _agree_once):
                name = "resize-view-growth"
            if not name and aspect in ("value", "numeric", "repr") and difftest_lapack.explained(
                    lines, i, got, w, g, op_of, difftest_uninit.RESIZE_OPS, compare_desc, _agree_once):
                name = "resize-uninitialised"  # (a later read of the grown tensor's uninitialised elements)
            if not name and (aspect in ("value", "numeric") or storage) and difftest_lapack.explained(
                    lines, i, got, w, g, op_of, difftest_lapack.VML_OPS, compare_desc, _agree_once, True):
                name = "vml-downstream"
            if not name and aspect == "grad-numeric" and difftest_lapack.explained_gradient(
                    lines, i, got, w, g, op_of, difftest_lapack.VML_OPS, compare_desc):
                name = "vml-downstream"
            # (the gradients a backward leaves in .grad, or those ``gs = torch.autograd.grad(...)`` returns)
            gradients = aspect in ("grad-value", "grad-numeric") or (
                aspect in ("value", "numeric") and op_of(lines[i]) == "grad")
            if not name and aspect in ("grad-value", "grad-numeric") and difftest_lapack.explained_gradient(
                    lines, i, got, w, g, op_of, CONDITIONED_OPS, compare_desc, ("tensor", "seq")):
                name = "lapack-downstream"
            if not name and aspect in ("value", "numeric") and difftest_lapack.explained(
                    lines, i, got, w, g, op_of, difftest_blas.SGEMM_OPS, compare_desc, _agree_once):
                name = "gemm-downstream"
            if not name and aspect in ("value", "numeric") and difftest_gelu.downstream(
                    lines, i, got, w, g, op_of, compare_desc, _agree_once):
                name = "gelu-onednn"
            if not name and gradients and difftest_lapack.zero_gradient_noise(
                    lines, want, i, w, g, op_of, CONDITIONED_OPS, _agrees_but_where):
                name = "lapack-zero-gradient"
            if not name and gradients and difftest_lapack.zero_gradient_noise(
                    lines, want, i, w, g, op_of, difftest_blas.SGEMM_OPS, _agrees_but_where):
                name = "gemm-zero-gradient"
            if not name and gradients and difftest_lapack.zero_gradient_noise(
                    lines, want, i, w, g, op_of, difftest_lapack.VML_OPS | difftest_lapack.VML_INSIDE_OPS,
                    _agrees_but_where):
                name = "vml-zero-gradient"
            if not name and aspect == "grad-numeric" and difftest_lapack.sqrt_inside_gradient(
                    lines, i, w, g, op_of, _agrees_but_where):
                name = "vml-sqrt-gradient"
            if not name and aspect in ("numeric", "grad-numeric") and difftest_vmlsqrt.rounded_root_gradient(
                    lines, i, w, g, op_of, compare_desc):
                name = "vml-sqrt-inside"
            if not name and aspect in ("numeric", "grad-numeric") and difftest_lapack.cos_inside_gradient(
                    lines, i, w, g, op_of, _agrees_but_where):
                name = "vml-sinc-gradient"
            if not name and aspect in ("numeric", "grad-numeric", "value", "grad-value") and \
                    difftest_sinc.exact_cos_explains(lines, i, w, g, compare_desc):
                name = "vml-sinc-gradient"  # (near x = 0, past the bound: the replay with agrad's cos and sin)
            if not name and aspect in ("numeric", "grad-numeric") and difftest_lapack.log_inside_gradient(
                    lines, i, w, g, op_of, _agrees_but_where):
                name = "vml-log-gradient"
            if name:
                return f"{DOCUMENTED}:{name}:{op_of(lines[i])}", i, detail
            return f"{aspect}:{op_of(lines[i])}", i, detail
    return None


def count_differing(groups: dict) -> tuple[int, int]:
    """(programs that differ, programs whose difference is a documented, deliberate one)."""
    known = sum(c for k, (c, _) in groups.items() if k.startswith(DOCUMENTED + ":"))
    return sum(c for c, _ in groups.values()) - known, known


def shrink(lines: list[str], key: str) -> list[str]:
    """Drop statements while the program still shows the mismatch ``key``."""
    current = list(lines)
    found = diff_program(current)
    if found:  # nothing after the first differing statement matters
        current = current[: found[1] + 1]
    changed = True
    while changed:
        changed = False
        for i in range(len(current) - 2, -1, -1):
            trial = current[:i] + current[i + 1:]
            found = diff_program(trial)
            if found and found[0] == key:
                current = trial[: found[1] + 1]
                changed = True
    return current


def generate(seed: int) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lines = diffgen.generate(seed)
    for w in caught:  # warn-once warnings fire here first, under the generator
        TORCH_WARNED.add(norm_warning(w.message))
    return lines


#: a program that runs longer than this (in PyTorch or agrad) stops a long run with its seed
HANG_SECONDS = 300


class _Watchdog:
    """A hang inside a C library (LAPACK looping on an inf) cannot be interrupted from
    Python: a thread prints the program that hangs and ends the run (exit status 3)."""

    def __init__(self):
        self.now = None
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self):
        while True:
            time.sleep(10)
            now = self.now
            if now is not None and time.time() - now[2] > HANG_SECONDS:
                print(f"program of seed {now[0]} has run for more than {HANG_SECONDS} s (a hang):\n  "
                      + "\n  ".join(now[1]), file=sys.stderr, flush=True)
                os._exit(3)


def shrink_examples(groups: dict) -> None:
    """Each group's example shrunk to a minimal program that still shows the group."""
    for key, (_, example) in groups.items():
        example["shrunk"] = shrink(example["program"], key)
        again = diff_program(example["shrunk"])
        example["detail"] = again[2] if again else example["detail"]


def run(n: int, seed: int = 0, examples: bool = True, progress: bool = False, journal=None):
    """Run ``n`` programs (seeds seed..seed+n-1): (groups: key -> [count, example], programs, seconds).
    ``journal`` (a file) gets one JSON line per program as soon as it is compared."""
    np.seterr(all="ignore")
    groups: dict = {}
    start = time.time()
    watch = _Watchdog() if progress else None
    for s in range(seed, seed + n):
        lines = generate(s)
        if watch:
            watch.now = (s, lines, time.time())
        found = diff_program(lines)
        if journal is not None:
            journal.write(json.dumps({"seed": s, "key": found and found[0], "detail": found and found[2],
                                      "program": lines if found else None}) + "\n")
            journal.flush()
        if found:
            key = found[0]
            entry = groups.setdefault(key, [0, None])
            entry[0] += 1
            if entry[1] is None:
                entry[1] = {"seed": s, "program": lines, "detail": found[2]}
        if progress and (s - seed + 1) % 500 == 0:
            print(f"  {s - seed + 1} programs, {sum(c for c, _ in groups.values())} differ "
                  f"({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
    if watch:
        watch.now = None
    if examples:
        shrink_examples(groups)
    return groups, n, time.time() - start


def _run_child(n: int, seed: int, out: Path) -> int:
    """Run seeds seed..seed+n-1 in a child process (no shrinking) that writes one line per
    program to ``out`` as it goes: its exit status."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--n", str(n), "--seed", str(seed),
           "--journal", str(out)]
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


def run_chunked(n: int, seed: int, chunk: int, examples: bool = True):
    """``run`` in child processes of ``chunk`` programs each, so a crash inside PyTorch or a
    C library (a segfault, a LAPACK hang) costs one program, not the run: the child writes a
    line per program compared, so when its process dies the program after its last line is
    the one that killed it; that program is reported in ``crashed`` (seed, exit status) and
    the chunk goes on in a new child from the next seed.
    Returns (groups, programs compared, seconds, crashed)."""
    groups: dict = {}
    crashed: list = []
    compared = 0
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "chunk.jsonl"
        pending = [(s, min(chunk, seed + n - s)) for s in range(seed, seed + n, chunk)]
        while pending:
            s, k = pending.pop(0)
            out.write_text("")
            status = _run_child(k, s, out)
            done = [json.loads(line) for line in out.read_text().splitlines() if line.endswith("}")]
            for record in done:
                if record["key"]:
                    mine = groups.setdefault(record["key"], [0, None])
                    mine[0] += 1
                    if mine[1] is None or record["seed"] < mine[1]["seed"]:
                        mine[1] = {"seed": record["seed"], "program": record["program"], "detail": record["detail"]}
            compared += len(done)
            if status != 0 and len(done) < k:
                dead = s + len(done)
                crashed.append((dead, status))
                if len(done) + 1 < k:
                    pending.insert(0, (dead + 1, k - len(done) - 1))
            print(f"  {compared + len(crashed)} programs, {sum(c for c, _ in groups.values())} differ, "
                  f"{len(crashed)} crashed ({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
    if examples:
        shrink_examples(groups)
    return groups, compared, time.time() - start, crashed


def replay(path: str) -> tuple[dict, dict]:
    """Re-run each group's reproducer from an earlier ``--json`` file: (still differ: key ->
    [count, example with today's detail and key], agree: key -> count). A group whose
    reproducer now shows another mismatch counts as still differing, under its new key; one
    that now shows a documented difference is in ``agree`` as "documented:... (was key)"."""
    np.seterr(all="ignore")
    still, agree = {}, {}
    for key, entry in json.loads(Path(path).read_text())["groups"].items():
        example = entry["example"]
        lines = example.get("shrunk") or example["program"]
        found = diff_program(lines)
        if found is None:
            agree[key] = entry["count"]
        elif found[0].startswith(DOCUMENTED + ":") and not key.startswith(DOCUMENTED + ":"):
            agree[found[0] + " (was " + key + ")"] = entry["count"]
        else:
            still[key] = [entry["count"], dict(example, shrunk=lines, detail=found[2], now=found[0])]
    return still, agree


def by_aspect(groups: dict) -> dict:
    out = collections.Counter()
    for key, (count, _) in groups.items():
        out[key.split(":")[0]] += count
    return dict(out.most_common())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="number of programs")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--examples", action="store_true", help="print a shrunk reproducer per group")
    parser.add_argument("--json", help="write the groups (counts, examples) to this file")
    parser.add_argument("--top", type=int, default=60, help="groups to list")
    parser.add_argument("--chunk", type=int, default=0,
                        help="run in child processes of this many programs: a program that crashes "
                             "PyTorch or hangs in a C library is reported and skipped (long runs)")
    parser.add_argument("--replay", metavar="JSON",
                        help="re-run the reproducers of an earlier --json run instead of new programs")
    parser.add_argument("--journal", help=argparse.SUPPRESS)  # a chunk's child: a line per program
    args = parser.parse_args(argv)
    if args.journal:
        with open(args.journal, "a") as journal:
            run(args.n, args.seed, examples=False, progress=True, journal=journal)
        return 0
    if args.replay:
        return _print_replay(*replay(args.replay), args)
    crashed = []
    if args.chunk:
        groups, n, seconds, crashed = run_chunked(args.n, args.seed, args.chunk,
                                                  examples=args.examples or bool(args.json))
    else:
        groups, n, seconds = run(args.n, args.seed, examples=args.examples or bool(args.json), progress=True)
    differ, known = count_differing(groups)
    print(f"{n} programs in {seconds:.0f} s: {differ} differ ({100 * differ / max(n, 1):.1f}%), "
          f"{len(groups)} groups; {known} more differ as docs/semantics.md says they do")
    for s, status in crashed:
        how = f"signal {-status}" if status < 0 else f"exit status {status}"
        print(f"not compared: the program of seed {s} ended its process ({how}); "
              f"rerun it alone with --n 1 --seed {s}")
    print("by aspect: " + ", ".join(f"{k} {v}" for k, v in by_aspect(groups).items()))
    ranked = sorted(groups.items(), key=lambda kv: -kv[1][0])
    for key, (count, example) in ranked[: args.top]:
        print(f"{count:6d}  {key}")
        if args.examples and example:
            for line in example.get("shrunk", example["program"]):
                print("          " + line.replace("\n", "\n          "))
            print("          -> " + example["detail"].replace("\n", "\n             ")[:600])
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"programs": n, "seconds": seconds, "crashed": crashed, "groups": {k: {"count": c, "example": e} for k, (c, e) in ranked}},
            indent=1, default=str))
    return 0


def _print_replay(still: dict, agree: dict, args) -> int:
    before = sum(c for c, _ in still.values()) + sum(agree.values())
    left = sum(c for c, _ in still.values())
    known = {k: c for k, c in agree.items() if k.startswith(DOCUMENTED + ":")}
    print(f"{len(still) + len(agree)} groups ({before} programs) replayed: {len(agree)} groups "
          f"({before - left} programs) agree now or differ as docs/semantics.md says "
          f"({len(known)} groups, {sum(known.values())} programs), {len(still)} groups ({left} programs) "
          f"still differ")
    for key, (count, example) in sorted(still.items(), key=lambda kv: -kv[1][0]):
        moved = f"  (now {example['now']})" if example["now"] != key else ""
        print(f"{count:6d}  {key}{moved}")
        if args.examples:
            for line in example["shrunk"]:
                print("          " + line.replace("\n", "\n          "))
            print("          -> " + example["detail"].replace("\n", "\n             ")[:600])
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"groups": {k: {"count": c, "example": e} for k, (c, e) in still.items()},
             "agree": agree}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
