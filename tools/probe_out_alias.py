"""Probe: ``out=`` that aliases one of the call's inputs (``torch.sum(x, 0, out=x)``), drawn over every op
the generator calls with out=, run under PyTorch and agrad.

The generator (tools/diffgen.py) draws programs with out= on every call that takes one
(DIFFGEN_OUT_SHARE=1) and, where an input fits, that input as the out (tools/diffgen_out.py's alias
kind, forced here; ``--resized``: an input of the result's dtype but another shape too, which PyTorch
resizes under its kernel). Each program is cut after its first aliasing call and compared; the
differences at that call are counted by group (aspect:op).

    PYTHONPATH=src ATEN_CPU_CAPABILITY=avx2 python tools/probe_out_alias.py --n 400 --seed 0 [--examples]
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path

os.environ.setdefault("DIFFGEN_OUT_SHARE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import difftest  # noqa: E402  (first: torch_reference)
import diffgen_out  # noqa: E402

_ALIASED: list = []
_RESIZED = [False]


def _one(gen, t, inputs):
    """An input as the out where one has the result's shape and dtype (or only its dtype, ``--resized``)."""
    shape = tuple(t.shape)
    fits = [v for v in inputs if tuple(gen.ns[v].shape) == shape and gen.ns[v].dtype == t.dtype]
    if _RESIZED[0]:
        fits += [v for v in inputs if gen.ns[v].dtype == t.dtype and v not in fits and gen.ns[v].numel() >= t.numel()]
    if fits:
        name = gen.rng.choice(fits)
        _ALIASED.append(name)
        return name
    return _original(gen, t, inputs)


_original = diffgen_out._one
diffgen_out._one = _one


def aliased_program(seed):
    """The seed's program up to its first call with an input as out (None: it has none)."""
    _ALIASED.clear()
    lines = difftest.generate(seed)
    for i, line in enumerate(lines):
        if "out=" in line and any(f"out={v}" in line or f"out=({v}," in line or f", {v})" in line
                                  for v in _ALIASED if v in line.split("out=", 1)[1]):
            return lines[:i + 1]
    return None


def _child(args):
    """Compare seeds args.seed.. (a child process: a line per seed to the journal)."""
    import json

    import numpy as np
    np.seterr(all="ignore")
    with open(args.journal, "a") as journal:
        for s in range(args.seed, args.seed + args.n):
            lines = aliased_program(s)
            found = difftest.diff_program(lines) if lines else None
            key = found[0] if found and found[1] == len(lines) - 1 else None
            journal.write(json.dumps({"seed": s, "aliased": lines is not None, "key": key,
                                      "call": lines and lines[-1], "detail": key and found[2]}) + "\n")
            journal.flush()


def main(argv=None):
    import json
    import subprocess
    import tempfile

    p = argparse.ArgumentParser()
    p.add_argument("--journal")
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--examples", action="store_true")
    p.add_argument("--resized", action="store_true")
    p.add_argument("--only-undocumented", action="store_true")
    args = p.parse_args(argv)
    _RESIZED[0] = args.resized
    if args.journal:
        return _child(args)
    groups = collections.Counter()
    example = {}
    calls = 0
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "j.jsonl"
        s, end = args.seed, args.seed + args.n
        while s < end:
            journal.write_text("")
            cmd = [sys.executable, __file__, "--journal", str(journal), "--seed", str(s), "--n", str(end - s)]
            cmd += ["--resized"] if args.resized else []
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            done = [json.loads(x) for x in journal.read_text().splitlines() if x.endswith("}")]
            for r in done:
                calls += r["aliased"]
                if r["key"]:
                    groups[r["key"]] += 1
                    example.setdefault(r["key"], (r["seed"], r["call"], r["detail"]))
            s += len(done) + (1 if s + len(done) < end else 0)  # (the one that crashed skipped)
    differ = sum(c for k, c in groups.items() if not k.startswith("documented"))
    print(f"{args.n} programs, {calls} aliasing calls, {differ} differ at the call "
          f"({sum(groups.values()) - differ} documented)")
    for key, c in groups.most_common():
        print(f"{c:5d}  {key}")
        if args.examples:
            s, call, detail = example[key]
            print(f"        seed {s}: " + call.replace("\n", " ") + "\n        -> " + detail[:300])


if __name__ == "__main__":
    main()
