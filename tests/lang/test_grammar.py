"""Every statement and expression form of the grammar: it parses into the
right AST node, with positions, and evaluates with Python's semantics.
These use plain Python values (no engine needed)."""

from __future__ import annotations

import pytest

from agrad.lang import Source, parse, run
from agrad.lang import ast as A
from agrad.lang.parser import get_parser, grammar_path, parse_expression


def body(text):
    return parse(Source("t.py", text))[0].body


def expr(text):
    return parse_expression(text, "<e>").body


def value(text, **kw):
    res = run(Source("t.py", text), **kw)
    assert res.error is None, res.error.render()
    return res


def out(text):
    return value(text).stdout


# ------------------------------------------------------------------ grammar

def test_grammar_file_is_found_and_is_lalr():
    p = grammar_path()
    assert p.name == "agrad.lark" and p.is_file()
    parser = get_parser()
    assert parser.options.parser == "lalr"
    assert set(parser.options.start) == {"script", "expression"}


STATEMENTS = [
    ("x = 1", A.Assign),
    ("a = b = None", A.Assign),
    ("a, b = 1, 2", A.Assign),
    ("[a, *b] = [1, 2, 3]", A.Assign),
    ("x += 1", A.AugAssign),
    ("x.y **= 2", A.AugAssign),
    ("x[0] //= 2", A.AugAssign),
    ("x: int = 3", A.AnnAssign),
    ("b[0] = 100", A.Assign),
    ("w.requires_grad = True", A.Assign),
    ("f(x)", A.ExprStmt),
    ("del x, y[0]", A.Delete),
    ("pass", A.Pass),
    ("return", None),
    ("raise ValueError('x') from None", A.Raise),
    ("global g", A.Global),
    ("assert x, 'msg'", A.Assert),
    ("import torch", A.Import),
    ("import torch.nn.functional as F", A.Import),
    ("from torch import nn, optim", A.ImportFrom),
    ("from torch.autograd import (Function as Fn,)", A.ImportFrom),
    ("if a:\n    pass\nelif b:\n    pass\nelse:\n    pass", A.If),
    ("while x:\n    break\nelse:\n    pass", A.While),
    ("for i, x in enumerate(y):\n    continue", A.For),
    ("try:\n    pass\nexcept ValueError as e:\n    pass\nelse:\n    pass\nfinally:\n    pass",
     A.Try),
    ("try:\n    pass\nfinally:\n    pass", A.Try),
    ("with no_grad(), enable_grad() as g:\n    pass", A.With),
    ("def f(a, b=2, *args, c, d=4, **kw) -> int:\n    '''doc'''\n    return a", A.FunctionDef),
    ("@staticmethod\ndef f(ctx):\n    pass", A.FunctionDef),
    ("class F(Function):\n    pass", A.ClassDef),
    ("x = 1; y = 2;", A.Assign),
]


@pytest.mark.parametrize("text,node", STATEMENTS, ids=[s for s, _ in STATEMENTS])
def test_statement_forms_parse(text, node):
    if node is None:       # 'return' is only valid inside a function
        text = "def f():\n    " + text
        node = A.FunctionDef
    stmts = body(text + "\n")
    assert isinstance(stmts[0], node)
    assert stmts[0].line == 1 and stmts[0].col == 1


EXPRESSIONS = [
    ("a + b", A.BinOp, "+"), ("a - b", A.BinOp, "-"), ("a * b", A.BinOp, "*"),
    ("a / b", A.BinOp, "/"), ("a // b", A.BinOp, "//"), ("a % b", A.BinOp, "%"),
    ("a @ b", A.BinOp, "@"), ("a ** b", A.BinOp, "**"), ("a << b", A.BinOp, "<<"),
    ("a >> b", A.BinOp, ">>"), ("a & b", A.BinOp, "&"), ("a | b", A.BinOp, "|"),
    ("a ^ b", A.BinOp, "^"), ("-a", A.UnaryOp, "-"), ("+a", A.UnaryOp, "+"),
    ("~a", A.UnaryOp, "~"), ("not a", A.UnaryOp, "not"), ("a and b", A.BoolOp, "and"),
    ("a or b", A.BoolOp, "or"),
]


@pytest.mark.parametrize("text,node,op", EXPRESSIONS, ids=[e for e, _, _ in EXPRESSIONS])
def test_operator_forms(text, node, op):
    e = expr(text)
    assert isinstance(e, node) and e.op == op
    assert (e.line, e.col) == (1, 1) and e.end_col == len(text) + 1


@pytest.mark.parametrize("text,node", [
    ("a < b <= c", A.Compare), ("a in b", A.Compare), ("a not in b", A.Compare),
    ("a is not None", A.Compare), ("a if c else b", A.IfExp), ("lambda g: g * 2", A.Lambda),
    ("lambda *a, k=1, **kw: 0", A.Lambda), ("f(1, *a, k=2, **kw)", A.Call),
    ("f(x for x in y)", A.Call), ("x.y", A.Attribute), ("a[0]", A.Subscript),
    ("a[:, 1:3]", A.Subscript), ("a[..., None]", A.Subscript), ("a[::2]", A.Subscript),
    ("(1, 2)", A.Tuple), ("()", A.Tuple), ("[1, *b]", A.List), ("{1: 2, **d}", A.Dict),
    ("{1, 2}", A.Set), ("[x for x in y if x]", A.ListComp), ("{x for x in y}", A.SetComp),
    ("{k: v for k, v in d}", A.DictComp), ("(x for x in y)", A.GeneratorExp),
    ("f'{x!r:>{w}}'", A.JoinedStr), ("'a' 'b'", A.Constant), ("1e-3", A.Constant),
    ("0x1F", A.Constant), ("1_000", A.Constant), ("2j", A.Constant), ("None", A.Constant),
    ("True", A.Constant), ("...", A.Constant), ('"""doc"""', A.Constant),
])
def test_expression_forms(text, node):
    assert isinstance(expr(text), node)


def test_positions_are_kept_for_nested_nodes():
    e = expr("loss.backward(retain_graph=True)")
    assert isinstance(e, A.Call)
    assert (e.line, e.col, e.end_col) == (1, 1, 33)
    assert (e.func.col, e.func.end_col) == (1, 14)
    stmts = body("x = 1\nif x:\n    y = (x +\n         2)\n")
    inner = stmts[1].body[0]
    assert (inner.line, inner.col, inner.end_line) == (3, 5, 4)


def test_fstring_fields_have_source_positions():
    e = expr("f'ab{x.y}'")
    fv = e.parts[1]
    assert isinstance(fv.value, A.Attribute)
    assert (fv.value.line, fv.value.col, fv.value.end_col) == (1, 6, 9)


# -------------------------------------------------------------- semantics

def test_arithmetic_and_precedence():
    assert out("print(1 + 2 * 3 ** 2, -2 ** 2, (1 + 2) * 3, 7 // 2, 7 % 3, 2 ** -1)") == \
        "19 -4 9 3 1 0.5\n"
    assert out("print(1 << 4, 256 >> 2, 6 & 3, 6 | 3, 6 ^ 3, ~5)") == "16 64 2 7 5 -6\n"


def test_comparisons_and_boolean_ops():
    assert out("print(1 < 2 < 3, 1 < 3 < 2, 2 in [1, 2], 3 not in (1,), None is None, "
               "1 is not None)") == "True False True True True True\n"
    assert out("print(0 or 'x', 1 and 0, not 1, [] or [1])") == "x 0 False [1]\n"


def test_chained_tuple_and_star_assignment():
    assert out("a = b = [1]\nb.append(2)\nprint(a)\nx, (y, z) = 1, (2, 3)\n"
               "first, *rest = range(4)\nprint(x, y, z, first, rest)") == \
        "[1, 2]\n1 2 3 0 [1, 2, 3]\n"


def test_augmented_assignment_forms():
    assert out("x = 1\nx += 2\nx *= 3\nl = [1]\nl += [2]\nd = {'a': 1}\nd['a'] -= 1\n"
               "print(x, l, d)") == "9 [1, 2] {'a': 0}\n"


def test_subscript_and_slices():
    assert out("a = list(range(10))\nprint(a[1:3], a[::3], a[-1], a[:-8])\n"
               "a[0] = 100\na[1:3] = [7]\ndel a[-1]\nprint(a)") == \
        "[1, 2] [0, 3, 6, 9] 9 [0, 1]\n[100, 7, 3, 4, 5, 6, 7, 8]\n"


def test_if_elif_else_and_loops():
    src = """
for i in range(6):
    if i == 1:
        continue
    elif i == 4:
        break
    else:
        print(i)
else:
    print('never')
n = 0
while n < 3:
    n += 1
else:
    print('done', n)
"""
    assert out(src) == "0\n2\n3\ndone 3\n"


def test_functions_defaults_varargs_kwargs_and_closures():
    src = """
def f(a, b=2, *args, c=3, **kw):
    return (a, b, args, c, kw)
print(f(1))
print(f(1, 5, 6, 7, c=8, d=9))
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = counter()
c(); c()
print(c())
g = 10
def setg():
    global g
    g = 11
setg()
print(g)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(10))
"""
    assert out(src) == ("(1, 2, (), 3, {})\n(1, 5, (6, 7), 8, {'d': 9})\n3\n11\n3628800\n")


def test_lambda_and_comprehensions():
    src = """
sq = lambda v, p=2: v ** p
print(sq(3), sq(2, p=3))
print([i * j for i in range(3) for j in range(3) if i != j])
print({k: v for k, v in zip('ab', (1, 2))}, sorted({x % 3 for x in range(10)}))
print(sum(x * x for x in range(4)))
fs = [lambda: i for i in range(3)]
print([f() for f in fs])
"""
    assert out(src) == "9 8\n[0, 0, 0, 2, 0, 2]\n{'a': 1, 'b': 2} [0, 1, 2]\n14\n[2, 2, 2]\n"


def test_strings_and_fstrings():
    src = r"""
x = 3.14159
name = 'w'
print(f'{name}={x:.2f} {x!r} {name!s:>3} {{braces}} {x=}')
w = 8
print(f'[{name:>{w}}]', 'a' 'b', r'\n', '\t'.strip() == '', '%s-%d' % ('a', 3))
print('{} {k}'.format(1, k=2), '{0[1]}'.format([5, 6]))
s = '''multi
line'''
print(len(s), f'''{s.upper()}''')
"""
    assert out(src) == ("w=3.14 3.14159   w {braces} x=3.14159\n"
                        "[       w] ab \\n True a-3\n1 2 6\n10 MULTI\nLINE\n")


def test_try_except_finally_and_raise():
    src = """
try:
    [][1]
except (KeyError, IndexError) as e:
    print('caught', e)
finally:
    print('finally')
def f():
    try:
        return 1
    finally:
        print('cleanup')
print(f())
try:
    raise ValueError('bad value')
except ValueError as e:
    print(e.args)
"""
    assert out(src) == "caught list index out of range\nfinally\ncleanup\n1\n('bad value',)\n"


def test_assert_and_del():
    res = run("x = 1\ndel x\nassert True\nassert 1 == 2, 'nope'\n")
    assert res.error.type_name == "AssertionError" and res.error.message == "nope"
    assert res.error.line == 4
    assert "x" not in res.namespace


def test_docstrings_and_comments():
    assert out('"""module doc"""\n# comment\nx = 1  # trailing\ndef f():\n    """doc"""\n'
               '    return 2\nprint(f())\n') == "2\n"


def test_line_continuation_and_brackets_span_lines():
    assert out("x = 1 + \\\n    2\ny = (1,\n     2)\nprint(x, y)\n") == "3 (1, 2)\n"


def test_builtins_win_over_torch_names():
    # sum/abs/max are Python's, as in a file that did `import torch`
    assert out("print(sum([1, 2]), abs(-1), max(1, 2), round(2.5), pow(2, 3))") == "3 1 2 2 8\n"


def test_last_expression_is_underscore_not_printed():
    res = value("x = 2\nx * 21\n")
    assert res.stdout == "" and res.last_value == 42 and res.target_name == "_"
    res = value("x = 2\nprint(x)\n")
    assert not res.has_last_value


def test_windows_newlines_and_bom():
    assert out("\ufeffx = 1\r\nif x:\r\n    print(x)\r\n") == "1\n"


def test_thousands_of_nested_parentheses_survive():
    text = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\nprint(x)\n"
    assert out(text) == "1\n"


def test_long_operator_chains_do_not_count_as_nesting():
    text = "x = " + " + ".join(["1"] * 3000) + "\nprint(x)\n"
    assert out(text) == "3000\n"
