"""The AST of agrad scripts: the node classes and :class:`Scope`.

Every node keeps ``line``, ``col``, ``end_line``, ``end_col`` (1-based,
``end_col`` exclusive) and ``depth`` (how deeply it nests: the evaluator
recurses that far, so the builder rejects trees deeper than ``max_nesting``
with a clean SyntaxError).  A chain of left-associative binary operators
(``a + b + c + ...``) does not count as nesting: the evaluator walks such
chains in a loop.

:mod:`.builder` makes these nodes from lark's parse tree; :mod:`.checks`
checks the statements and works out each function's local names.
"""

from __future__ import annotations

DEFAULT_MAX_NESTING = 100


class Node:
    """A node: its ``_fields`` (in order) and its position.

    The node classes below are written out, a plain ``__init__`` each: a generic
    setattr loop costs twice as much per node, and classes made at import time
    (``exec`` of generated code) cost about 15 M instructions at every start-up."""

    __slots__ = ("line", "col", "end_line", "end_col", "depth")
    _fields: tuple = ()

    def children(self):
        for f in self._fields:
            v = getattr(self, f)
            if isinstance(v, Node):
                yield v
            elif isinstance(v, list):
                for x in v:
                    if isinstance(x, Node):
                        yield x
                    elif isinstance(x, tuple):
                        for y in x:
                            if isinstance(y, Node):
                                yield y
                    elif isinstance(x, list):
                        for y in x:
                            if isinstance(y, Node):
                                yield y

    def __repr__(self):
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({fields})"


class Stmt(Node):
    __slots__ = ()


class Expr(Node):
    __slots__ = ()


# statements
class Module(Node):
    __slots__ = _fields = ("body",)

    def __init__(self, body):
        self.body = body
        self.depth = 0


class Expression(Node):
    __slots__ = _fields = ("body",)

    def __init__(self, body):
        self.body = body
        self.depth = 0


class ExprStmt(Stmt):
    __slots__ = _fields = ("value",)

    def __init__(self, value):
        self.value = value
        self.depth = 0


class Assign(Stmt):
    __slots__ = _fields = ("targets", "value")

    def __init__(self, targets, value):
        self.targets = targets
        self.value = value
        self.depth = 0


class AugAssign(Stmt):
    __slots__ = _fields = ("target", "op", "value")

    def __init__(self, target, op, value):
        self.target = target
        self.op = op
        self.value = value
        self.depth = 0


class AnnAssign(Stmt):
    __slots__ = _fields = ("target", "value", "annotation")

    def __init__(self, target, value, annotation):
        self.target = target
        self.value = value
        self.annotation = annotation
        self.depth = 0


class Delete(Stmt):
    __slots__ = _fields = ("targets",)

    def __init__(self, targets):
        self.targets = targets
        self.depth = 0


class Pass(Stmt):
    __slots__ = _fields = ()

    def __init__(self):
        self.depth = 0


class Break(Stmt):
    __slots__ = _fields = ()

    def __init__(self):
        self.depth = 0


class Continue(Stmt):
    __slots__ = _fields = ()

    def __init__(self):
        self.depth = 0


class Return(Stmt):
    __slots__ = _fields = ("value",)

    def __init__(self, value):
        self.value = value
        self.depth = 0


class Yield(Stmt):
    """``yield value`` (``value`` None: a bare yield) or ``yield from value``, as a statement."""

    __slots__ = _fields = ("value", "is_from")

    def __init__(self, value, is_from):
        self.value = value
        self.is_from = is_from
        self.depth = 0


class Raise(Stmt):
    __slots__ = _fields = ("exc", "cause")

    def __init__(self, exc, cause):
        self.exc = exc
        self.cause = cause
        self.depth = 0


class Global(Stmt):
    __slots__ = _fields = ("names",)

    def __init__(self, names):
        self.names = names
        self.depth = 0


class Nonlocal(Stmt):
    __slots__ = _fields = ("names",)

    def __init__(self, names):
        self.names = names
        self.depth = 0


class Assert(Stmt):
    __slots__ = _fields = ("test", "msg")

    def __init__(self, test, msg):
        self.test = test
        self.msg = msg
        self.depth = 0


class Import(Stmt):  # [(dotted, asname)]
    __slots__ = _fields = ("names",)

    def __init__(self, names):
        self.names = names
        self.depth = 0


class ImportFrom(Stmt):  # names: [(name, asname)] or "*"
    __slots__ = _fields = ("module", "names")

    def __init__(self, module, names):
        self.module = module
        self.names = names
        self.depth = 0


class If(Stmt):
    __slots__ = _fields = ("test", "body", "orelse")

    def __init__(self, test, body, orelse):
        self.test = test
        self.body = body
        self.orelse = orelse
        self.depth = 0


class While(Stmt):
    __slots__ = _fields = ("test", "body", "orelse")

    def __init__(self, test, body, orelse):
        self.test = test
        self.body = body
        self.orelse = orelse
        self.depth = 0


class For(Stmt):
    __slots__ = _fields = ("target", "iter", "body", "orelse")

    def __init__(self, target, iter, body, orelse):
        self.target = target
        self.iter = iter
        self.body = body
        self.orelse = orelse
        self.depth = 0


class Try(Stmt):
    __slots__ = _fields = ("body", "handlers", "orelse", "finalbody")

    def __init__(self, body, handlers, orelse, finalbody):
        self.body = body
        self.handlers = handlers
        self.orelse = orelse
        self.finalbody = finalbody
        self.depth = 0


class ExceptHandler(Node):
    __slots__ = _fields = ("type", "name", "body")

    def __init__(self, type, name, body):
        self.type = type
        self.name = name
        self.body = body
        self.depth = 0


class With(Stmt):  # items: [(expr, target|None)]
    __slots__ = _fields = ("items", "body")

    def __init__(self, items, body):
        self.items = items
        self.body = body
        self.depth = 0


class FunctionDef(Stmt):
    __slots__ = _fields = ("name", "params", "body", "decorators", "scope", "doc")

    def __init__(self, name, params, body, decorators, scope, doc):
        self.name = name
        self.params = params
        self.body = body
        self.decorators = decorators
        self.scope = scope
        self.doc = doc
        self.depth = 0


class ClassDef(Stmt):
    __slots__ = _fields = ("name", "bases", "keywords", "body", "decorators")

    def __init__(self, name, bases, keywords, body, decorators):
        self.name = name
        self.bases = bases
        self.keywords = keywords
        self.body = body
        self.decorators = decorators
        self.depth = 0

# expressions


class Name(Expr):
    __slots__ = _fields = ("id",)

    def __init__(self, id):
        self.id = id
        self.depth = 0


class Constant(Expr):
    __slots__ = _fields = ("value",)

    def __init__(self, value):
        self.value = value
        self.depth = 0


class JoinedStr(Expr):  # parts: str | FormattedValue
    __slots__ = _fields = ("parts",)

    def __init__(self, parts):
        self.parts = parts
        self.depth = 0


class FormattedValue(Expr):
    __slots__ = _fields = ("value", "conversion", "spec", "debug")

    def __init__(self, value, conversion, spec, debug):
        self.value = value
        self.conversion = conversion
        self.spec = spec
        self.debug = debug
        self.depth = 0


class BinOp(Expr):
    __slots__ = _fields = ("op", "left", "right")

    def __init__(self, op, left, right):
        self.op = op
        self.left = left
        self.right = right
        self.depth = 0


class UnaryOp(Expr):
    __slots__ = _fields = ("op", "operand")

    def __init__(self, op, operand):
        self.op = op
        self.operand = operand
        self.depth = 0


class BoolOp(Expr):
    __slots__ = _fields = ("op", "values")

    def __init__(self, op, values):
        self.op = op
        self.values = values
        self.depth = 0


class Compare(Expr):
    __slots__ = _fields = ("left", "ops", "comparators")

    def __init__(self, left, ops, comparators):
        self.left = left
        self.ops = ops
        self.comparators = comparators
        self.depth = 0


class IfExp(Expr):
    __slots__ = _fields = ("test", "body", "orelse")

    def __init__(self, test, body, orelse):
        self.test = test
        self.body = body
        self.orelse = orelse
        self.depth = 0


class Lambda(Expr):
    __slots__ = _fields = ("params", "body", "scope")

    def __init__(self, params, body, scope):
        self.params = params
        self.body = body
        self.scope = scope
        self.depth = 0


class Call(Expr):  # keywords: [(name|None, expr)]
    __slots__ = _fields = ("func", "args", "keywords")

    def __init__(self, func, args, keywords):
        self.func = func
        self.args = args
        self.keywords = keywords
        self.depth = 0


class Attribute(Expr):
    __slots__ = _fields = ("value", "attr")

    def __init__(self, value, attr):
        self.value = value
        self.attr = attr
        self.depth = 0


class Subscript(Expr):
    __slots__ = _fields = ("value", "index")

    def __init__(self, value, index):
        self.value = value
        self.index = index
        self.depth = 0


class Slice(Expr):
    __slots__ = _fields = ("lower", "upper", "step")

    def __init__(self, lower, upper, step):
        self.lower = lower
        self.upper = upper
        self.step = step
        self.depth = 0


class Starred(Expr):
    __slots__ = _fields = ("value",)

    def __init__(self, value):
        self.value = value
        self.depth = 0


class Tuple(Expr):
    __slots__ = _fields = ("elts",)

    def __init__(self, elts):
        self.elts = elts
        self.depth = 0


class List(Expr):
    __slots__ = _fields = ("elts",)

    def __init__(self, elts):
        self.elts = elts
        self.depth = 0


class Set(Expr):
    __slots__ = _fields = ("elts",)

    def __init__(self, elts):
        self.elts = elts
        self.depth = 0


class Dict(Expr):  # items: [(key|None, value)]
    __slots__ = _fields = ("items",)

    def __init__(self, items):
        self.items = items
        self.depth = 0


class ListComp(Expr):
    __slots__ = _fields = ("elt", "generators")

    def __init__(self, elt, generators):
        self.elt = elt
        self.generators = generators
        self.depth = 0


class SetComp(Expr):
    __slots__ = _fields = ("elt", "generators")

    def __init__(self, elt, generators):
        self.elt = elt
        self.generators = generators
        self.depth = 0


class GeneratorExp(Expr):
    __slots__ = _fields = ("elt", "generators")

    def __init__(self, elt, generators):
        self.elt = elt
        self.generators = generators
        self.depth = 0


class DictComp(Expr):
    __slots__ = _fields = ("key", "value", "generators")

    def __init__(self, key, value, generators):
        self.key = key
        self.value = value
        self.generators = generators
        self.depth = 0


class Comprehension(Node):
    __slots__ = _fields = ("target", "iter", "ifs")

    def __init__(self, target, iter, ifs):
        self.target = target
        self.iter = iter
        self.ifs = ifs
        self.depth = 0


class Param(Node):  # kind: pos | vararg | kwonly | kwarg
    __slots__ = _fields = ("name", "kind", "default")

    def __init__(self, name, kind, default):
        self.name = name
        self.kind = kind
        self.default = default
        self.depth = 0


class Scope:
    """The names a function binds locally, and those it declares global/nonlocal."""

    __slots__ = ("locals", "globals", "nonlocals", "yielding")

    def __init__(self):
        self.locals: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        #: a generator function's statements that yield or hold one that does (None: not a generator)
        self.yielding: set | None = None


def walk(node):
    """All nodes under ``node`` (iteratively)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children())
