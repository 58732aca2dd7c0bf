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


def _node(name, fields, base=Node):
    # a plain __init__ per class (a generic setattr loop costs twice as much
    # and nodes are made by the hundred thousand for big scripts)
    params = "".join(", " + f for f in fields)
    body = "".join(f"    self.{f} = {f}\n" for f in fields)
    ns: dict = {}
    exec(f"def __init__(self{params}):\n{body}    self.depth = 0\n", ns)   # noqa: S102
    cls = type(name, (base,), {"__slots__": fields, "_fields": fields,
                               "__init__": ns["__init__"]})
    return cls


class Stmt(Node):
    __slots__ = ()


class Expr(Node):
    __slots__ = ()


# statements
Module = _node("Module", ("body",))
Expression = _node("Expression", ("body",))
ExprStmt = _node("ExprStmt", ("value",), Stmt)
Assign = _node("Assign", ("targets", "value"), Stmt)
AugAssign = _node("AugAssign", ("target", "op", "value"), Stmt)
AnnAssign = _node("AnnAssign", ("target", "value", "annotation"), Stmt)
Delete = _node("Delete", ("targets",), Stmt)
Pass = _node("Pass", (), Stmt)
Break = _node("Break", (), Stmt)
Continue = _node("Continue", (), Stmt)
Return = _node("Return", ("value",), Stmt)
Raise = _node("Raise", ("exc", "cause"), Stmt)
Global = _node("Global", ("names",), Stmt)
Nonlocal = _node("Nonlocal", ("names",), Stmt)
Assert = _node("Assert", ("test", "msg"), Stmt)
Import = _node("Import", ("names",), Stmt)            # [(dotted, asname)]
ImportFrom = _node("ImportFrom", ("module", "names"), Stmt)   # names: [(name, asname)] or "*"
If = _node("If", ("test", "body", "orelse"), Stmt)
While = _node("While", ("test", "body", "orelse"), Stmt)
For = _node("For", ("target", "iter", "body", "orelse"), Stmt)
Try = _node("Try", ("body", "handlers", "orelse", "finalbody"), Stmt)
ExceptHandler = _node("ExceptHandler", ("type", "name", "body"))
With = _node("With", ("items", "body"), Stmt)          # items: [(expr, target|None)]
FunctionDef = _node("FunctionDef", ("name", "params", "body", "decorators", "scope", "doc"), Stmt)
ClassDef = _node("ClassDef", ("name", "bases", "keywords", "body", "decorators"), Stmt)

# expressions
Name = _node("Name", ("id",), Expr)
Constant = _node("Constant", ("value",), Expr)
JoinedStr = _node("JoinedStr", ("parts",), Expr)       # parts: str | FormattedValue
FormattedValue = _node("FormattedValue", ("value", "conversion", "spec", "debug"), Expr)
BinOp = _node("BinOp", ("op", "left", "right"), Expr)
UnaryOp = _node("UnaryOp", ("op", "operand"), Expr)
BoolOp = _node("BoolOp", ("op", "values"), Expr)
Compare = _node("Compare", ("left", "ops", "comparators"), Expr)
IfExp = _node("IfExp", ("test", "body", "orelse"), Expr)
Lambda = _node("Lambda", ("params", "body", "scope"), Expr)
Call = _node("Call", ("func", "args", "keywords"), Expr)   # keywords: [(name|None, expr)]
Attribute = _node("Attribute", ("value", "attr"), Expr)
Subscript = _node("Subscript", ("value", "index"), Expr)
Slice = _node("Slice", ("lower", "upper", "step"), Expr)
Starred = _node("Starred", ("value",), Expr)
Tuple = _node("Tuple", ("elts",), Expr)
List = _node("List", ("elts",), Expr)
Set = _node("Set", ("elts",), Expr)
Dict = _node("Dict", ("items",), Expr)                 # items: [(key|None, value)]
ListComp = _node("ListComp", ("elt", "generators"), Expr)
SetComp = _node("SetComp", ("elt", "generators"), Expr)
GeneratorExp = _node("GeneratorExp", ("elt", "generators"), Expr)
DictComp = _node("DictComp", ("key", "value", "generators"), Expr)
Comprehension = _node("Comprehension", ("target", "iter", "ifs"))
Param = _node("Param", ("name", "kind", "default"))    # kind: pos | vararg | kwonly | kwarg


class Scope:
    """The names a function binds locally, and those it declares global/nonlocal."""

    __slots__ = ("locals", "globals", "nonlocals")

    def __init__(self):
        self.locals: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()


def walk(node):
    """All nodes under ``node`` (iteratively)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children())
