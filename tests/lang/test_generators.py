"""Generator functions in scripts: yield and yield from as statements, run lazily as Python runs them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agrad.lang import Source, run

SRC = str(Path(__file__).resolve().parents[2] / "src")

SCRIPT = textwrap.dedent("""
    import torch
    def gen(n):
        for i in range(n):
            if i % 2 == 0:
                yield i
            else:
                yield from [i, -i]
        print("done")
        return 5
    print(list(gen(4)))
    g = gen(2)
    print(next(g), next(g))
    for v in gen(3):
        print("got", v)
    def counter():
        i = 0
        while True:
            try:
                yield i
            finally:
                print("finally", i)
            i += 1
            if i > 2:
                return
    print([c * 10 for c in counter()])
    def nog():
        with torch.no_grad():
            yield torch.ones(1, requires_grad=True) * 2
    print(next(nog()))
    def bad():
        yield 1
        raise ValueError("boom")
    try:
        for v in bad():
            print(v)
    except ValueError as e:
        print("caught", e)
    def lazy():
        print("started")
        yield
    h = lazy()
    print("made")
    print(next(h))
    def rest():
        yield 1
    r = rest()
    next(r)
    try:
        next(r)
    except StopIteration:
        print("stop")
    print(sum(x for x in gen(3)))
""")

PRINTED = """done
[0, 1, -1, 2, 3, -3]
0 1
got 0
got 1
got -1
got 2
done
finally 0
finally 1
finally 2
[0, 10, 20]
tensor([2.])
1
caught boom
made
started
None
stop
done
2
"""


def test_generators_run_lazily_as_python_runs_them():
    res = run(Source("g.py", SCRIPT), timeout=30)
    assert res.error is None, res.error.render()
    assert res.stdout == PRINTED


def test_d2l_data_iter():
    """d2l's linear regression from scratch draws its batches with a generator."""
    res = run(Source("d.py", textwrap.dedent("""
        import random
        import torch
        random.seed(0)
        def data_iter(batch_size, features, labels):
            num_examples = len(features)
            indices = list(range(num_examples))
            random.shuffle(indices)
            for i in range(0, num_examples, batch_size):
                batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
                yield features[batch_indices], labels[batch_indices]
        f = torch.arange(10.0).reshape(5, 2)
        for X, y in data_iter(2, f, torch.arange(5)):
            print(X.tolist(), y.tolist())
    """)), timeout=30)
    assert res.error is None, res.error.render()
    assert res.stdout == ("[[4.0, 5.0], [2.0, 3.0]] [2, 1]\n[[0.0, 1.0], [8.0, 9.0]] [0, 4]\n"
                          "[[6.0, 7.0]] [3]\n")


@pytest.mark.parametrize("code,type_name,fragment", [
    ("yield 1", "SyntaxError", "'yield' outside function"),
    ("class A:\n    yield 1", "SyntaxError", "'yield' outside function"),
    ("def f():\n    x = yield 1", "SyntaxError", ""),
    ("def f():\n    yield from 3\nlist(f())", "TypeError", "'int' object is not iterable"),
    ("def f():\n    while True:\n        yield 1\nlist(f())", "TimeoutError", "did not finish"),
    ("def f():\n    yield 1\nf().gi_frame", None, "gi_frame"),
    ("def f():\n    yield 1\nf().send(None)", None, "send"),
    ("def f():\n    yield 1\nf()._gen", None, "_gen"),
    ("def f():\n    yield 1\nf()._interp", None, "_interp"),
    ("def f():\n    yield 1\nf().__next__", None, "__next__"),
    ("def f():\n    yield f\nnext(f()).__globals__", None, "__globals__"),
    ("def f():\n    yield from f()\nlist(f())", "RecursionError", "recursion"),
])
def test_bad_generators_are_refused(code, type_name, fragment):
    res = run(Source("bad.py", code), timeout=3 if "while True" in code else 30)
    assert res.error is not None, res.stdout
    if type_name is not None:
        assert res.error.type_name == type_name, res.error.render()
    assert fragment in res.error.message
    assert "Traceback" not in res.error.render()


def test_a_suspended_generator_leaves_no_traceback_at_exit():
    """Python clears module names at exit, then finalises what is left: a script
    generator suspended in a for loop then met ``except _Break`` with ``_Break``
    None and printed "Exception ignored ... TypeError".  The subprocess does what
    the interpreter's exit does, in that order: atexit handlers, cleared names,
    the last collection."""
    code = textwrap.dedent("""
        import atexit, gc, sys
        from agrad.lang import run, Source
        import agrad.lang.generators as G
        r = run(Source("g.py", "def f():\\n    for i in range(3):\\n        yield i\\n"
                               "h = f()\\nprint(next(h))\\n"))
        print(r.stdout, end="")
        atexit._run_exitfuncs()
        for name in ("_Break", "_Continue", "_Return", "Cancelled", "ScriptError"):
            setattr(G, name, None)
        del r
        gc.collect()
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": SRC}, timeout=60)
    assert p.returncode == 0 and p.stdout == "0\n", p.stderr
    assert p.stderr == ""
