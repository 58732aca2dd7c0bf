"""dataclasses and functools decorators in scripts: Python's behaviour (output compared
with CPython running the same script), and no way to Python's internals through them."""

from __future__ import annotations

import contextlib
import io

import pytest

from agrad.lang import Source, run

SCRIPT = """\
from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass, FrozenInstanceError
import dataclasses
import functools
from typing import List

@dataclass
class Point:
    x: int
    y: int = 0
    tags: List[str] = field(default_factory=list)

p = Point(1)
print(p, p == Point(1, 0), p == Point(2))
print([f.name for f in fields(p)], [f.type for f in fields(Point)], fields(p)[1].default)
print(asdict(p), astuple(Point(3, 4, ['a'])))
print(replace(p, y=5), is_dataclass(p), is_dataclass(3))

@dataclass(frozen=True, order=True)
class V:
    a: float
    b: float = 1.0
    def norm(self):
        return (self.a ** 2 + self.b ** 2) ** 0.5

v = V(3.0, 4.0)
print(v, v.norm(), V(1.0) < V(2.0), sorted([V(2.0), V(1.0, 5.0), V(1.0)]), {v: 1}[V(3.0, 4.0)])
try:
    v.a = 2
except FrozenInstanceError as e:
    print("frozen:", e)
try:
    Point()
except TypeError as e:
    print(e)
try:
    Point(1, 2, [], 4)
except TypeError as e:
    print(e)

@dataclass
class Config:
    lr: float = 0.1
    epochs: int = 3
    name: str = field(default="run", repr=False)
    def __post_init__(self):
        self.steps = self.epochs * 10
c = Config(epochs=5)
print(c, c.steps)

@dataclass
class Sub(Point):
    z: int = 9
print(Sub(1, 2), Sub.__name__ if False else "")

@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), fib.cache_info())

@functools.cache
def sq(n):
    return n * n
print(sq(4))

@functools.total_ordering
class Ver:
    def __init__(self, n):
        self.n = n
    def __eq__(self, o):
        return self.n == o.n
    def __lt__(self, o):
        return self.n < o.n
print(Ver(1) >= Ver(2), Ver(3) > Ver(2))
print(Point, type(p).__name__ if False else "")
@dataclass(kw_only=True)
class K:
    a: int
    b: int = 2
print(K(a=1))
try:
    K(1)
except TypeError as e:
    print(e)
try:
    K()
except TypeError as e:
    print(e)
@dataclass
class E:
    pass
print(E(), E() == E())
try:
    @dataclass
    class Bad:
        a: int = 1
        b: int
except TypeError as e:
    print(e)
try:
    @dataclass
    class Bad2:
        a: list = []
except ValueError as e:
    print(e)
@dataclass(eq=False)
class NE:
    a: int
print(NE(1) == NE(1))
@dataclass
class Three:
    a: int
    b: int
    c: int
try:
    Three()
except TypeError as e:
    print(e)
print(Three(1, 2, 3) != Three(1, 2, 4))
"""


def _agrad(code):
    res = run(Source("dc.py", code), timeout=60)
    assert res.error is None, res.error.render()
    return res.stdout


def _python(code):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "dc.py", "exec", dont_inherit=True), {"__name__": "__main__"})   # noqa: S102 (the reference: CPython itself)
    return buf.getvalue()


def test_dataclasses_behave_as_in_python():
    assert _agrad(SCRIPT) == _python(SCRIPT)


def test_field_repr_and_missing():
    out = _agrad("import dataclasses\n@dataclasses.dataclass\nclass P:\n    x: int = 1\n"
                 "f = dataclasses.fields(P)[0]\n"
                 "print(f.name, f.type, f.default, f.default_factory is dataclasses.MISSING, "
                 "f.init, f.repr, f.hash, f.compare, f.kw_only, f.metadata)\nprint(P.x)")
    assert out == "x <class 'int'> 1 True True True None True False {}\n1\n"


def test_annotations_are_evaluated_in_class_bodies():
    res = run(Source("dc.py", "import dataclasses\n@dataclasses.dataclass\nclass P:\n"
                              "    x: Undefined = 1\n"), timeout=30)
    assert res.error is not None and res.error.type_name == "NameError"


@pytest.mark.parametrize("code,fragment", [
    ("from dataclasses import dataclass, fields\n@dataclass\nclass P:\n    x: int\n"
     "fields(P)[0].__class__.__mro__", "dunder names are blocked"),
    ("from dataclasses import dataclass, fields\n@dataclass\nclass P:\n    x: int\n"
     "f = fields(P)[0]\nf.name = '__class__'", "cannot set attribute 'name' of 'Field'"),
    ("from dataclasses import dataclass, fields\n@dataclass\nclass P:\n    x: int\n"
     "fields(P)[0]._field_type", "'_field_type'"),
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n"
     "P(1).__dataclass_fields__", "dunder names are blocked"),
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\nP.__init__",
     "dunder names are blocked"),
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n"
     "P(1).__post_init__", "dunder names are blocked"),
    ("import dataclasses\ndataclasses.dataclass(int)", "applies to classes defined in the script"),
    ("import dataclasses, torch\ndataclasses.dataclass(torch.nn.Linear)",
     "applies to classes defined in the script"),
    ("import dataclasses\ndataclasses._FIELDS", "has no attribute '_FIELDS'"),
    ("import dataclasses\ndataclasses.CLASS_ANNOTATIONS", "has no attribute 'CLASS_ANNOTATIONS'"),
    ("import dataclasses\ndataclasses.make_dataclass", "has no attribute 'make_dataclass'"),
    ("from dataclasses import dataclass, replace\n@dataclass\nclass P:\n    x: int\n"
     "replace(P(1), __class__=int)", "unexpected keyword argument '__class__'"),
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n"
     "P(**{'__dict__': {}})", "unexpected keyword argument '__dict__'"),
    ("from dataclasses import dataclass\n@dataclass(slots=True)\nclass P:\n    x: int",
     "slots=True) is not supported"),
    ("import dataclasses\nclass P:\n    __dataclass_fields__ = {}", "cannot define"),
    ("import functools\nf = functools.lru_cache(maxsize=2)(abs)\nf.__wrapped__",
     "dunder names are blocked"),
    ("import functools\nf = functools.lru_cache(maxsize=2)(abs)\nf.cache_parameters",
     "'cache_parameters'"),
    ("import functools\nfunctools.wraps", "has no attribute 'wraps'"),
    ("import functools\n@functools.partial\ndef f():\n    pass", "support only @staticmethod"),
    ("import functools\n@functools.reduce\ndef f():\n    pass", "support only @staticmethod"),
])
def test_no_escape_through_dataclasses(code, fragment):
    res = run(Source("attack.py", code), timeout=30)
    assert res.error is not None, res.stdout
    assert fragment in res.error.message, res.error.message


def test_functools_decorators():
    out = _agrad("import functools\n@functools.lru_cache\ndef g(x):\n    return x * 2\n"
                 "print(g(3), g(3), g.cache_info().hits)\n@functools.lru_cache(maxsize=1)\n"
                 "def h(x):\n    return -x\nprint(h(1), h(2), h(1), h.cache_info())\n"
                 "h.cache_clear()\nprint(h.cache_info().currsize)")
    assert out == ("6 6 1\n-1 -2 -1 CacheInfo(hits=0, misses=3, maxsize=1, currsize=1)\n0\n")


def test_tensors_in_dataclasses():
    out = _agrad("import torch\nfrom dataclasses import dataclass, field, asdict\n@dataclass\n"
                 "class Batch:\n    x: torch.Tensor\n    y: torch.Tensor = field(default_factory="
                 "lambda: torch.zeros(2))\nb = Batch(torch.ones(2, requires_grad=True))\n"
                 "d = asdict(b)\nprint(b)\nprint(d['x'] is b.x, d['x'].requires_grad)")
    assert out == ("Batch(x=tensor([1., 1.], requires_grad=True), y=tensor([0., 0.]))\n"
                   "False True\n")
