"""Malformed input and runtime errors: type, plain-words message, source,
line, column and the caret display -- never a Python traceback."""

from __future__ import annotations

import pytest

from agrad.lang import ScriptError, ScriptSyntaxError, Source, eval_expression, parse, run


def syntax_error(text, name="m.py") -> ScriptSyntaxError:
    with pytest.raises(ScriptSyntaxError) as ei:
        parse(Source(name, text))
    # run() reports the same error instead of raising
    res = run(Source(name, text))
    assert isinstance(res.error, ScriptSyntaxError)
    assert res.error.message == ei.value.message
    return ei.value


def runtime_error(text, name="m.py") -> ScriptError:
    res = run(Source(name, text))
    assert res.error is not None and not isinstance(res.error, ScriptSyntaxError)
    return res.error


@pytest.mark.parametrize("text,line,col,message", [
    ("x = (1 + 2\ny = 3\n", 1, 5, "'(' was never closed"),
    ("x = [1, 2\n", 1, 5, "'[' was never closed"),
    ("x = [1, 2)\n", 1, 10, "closing parenthesis ')' does not match opening parenthesis '['"),
    ("x = 1)\n", 1, 6, "unmatched ')'"),
    ("f(a=1, 2)\n", 1, 8, "positional argument follows keyword argument"),
])
def test_unbalanced_brackets(text, line, col, message):
    e = syntax_error(text)
    assert (e.line, e.column, e.message) == (line, col, message)
    assert e.type_name == "SyntaxError"


def test_dedent_error_has_a_line():
    e = syntax_error("if True:\n    x = 1\n  y = 2\n")
    assert (e.line, e.column) == (3, 3)
    assert e.message == "unindent does not match any outer indentation level"


def test_bad_indentation():
    e = syntax_error("x = 1\n    y = 2\n")
    assert (e.line, e.message) == (2, "unexpected indent")
    e = syntax_error("  x = 1\n")
    assert (e.line, e.column, e.message) == (1, 3, "unexpected indent")
    e = syntax_error("for i in range(3):\nprint(i)\n")
    assert (e.line, e.message) == (2, "expected an indented block after line 1")


def test_stray_characters():
    e = syntax_error("x = 1 $ 2\n")
    assert (e.line, e.column, e.message) == (1, 7, "invalid character '$' (U+0024)")
    e = syntax_error("y = 2\nx = 'abc\n")
    assert (e.line, e.column, e.message) == (2, 5, "unterminated string literal")


def test_expected_is_said_in_plain_words():
    assert syntax_error("if x\n    pass\n").message == "unexpected end of line; expected ':'"
    assert syntax_error("x = \n").message == "unexpected end of line; expected an expression"
    assert syntax_error("else:\n    pass\n").message == \
        "invalid syntax: unexpected keyword 'else'; expected a statement"
    e = syntax_error("print(1 2)\n")
    assert e.message.startswith("invalid syntax: unexpected number 2; expected")
    assert "')'" in e.message and "','" in e.message


def test_invalid_targets_and_misplaced_statements():
    assert syntax_error("f() = 3\n").message == "cannot assign to function call"
    assert syntax_error("None = 3\n").message == "cannot assign to None"
    assert syntax_error("break\n").message == "'break' outside loop"
    assert syntax_error("return 1\n").message == "'return' outside function"
    assert syntax_error("def f(a=1, b):\n    pass\n").message == \
        "non-default argument follows default argument"
    assert syntax_error("f(x=1, x=2)\n").message == "keyword argument repeated: x"
    assert syntax_error("x = b'bytes'\n").message == "bytes literals are not supported"
    assert syntax_error("x = f'{}'\n").message == "f-string: empty expression not allowed"


def test_syntax_error_render_has_file_line_caret():
    e = syntax_error("a = 1\nb = a +* 2\n", name="model.py")
    text = e.render()
    first, src_line, caret = text.splitlines()
    assert first.startswith("model.py:2:8: SyntaxError: ")
    assert src_line == "    b = a +* 2"
    assert caret == "           ^"
    assert e.to_dict() == {"type": "SyntaxError", "message": e.message, "source": "model.py",
                           "line": 2, "column": 8}


def test_unknown_name_suggests_the_closest():
    e = runtime_error("x = [1, 2]\ny = meen(x)\n")
    assert e.type_name == "NameError"
    assert e.message == "name 'meen' is not defined. Did you mean 'mean'?"
    assert (e.line, e.column, e.end_column) == (2, 5, 9)
    e = runtime_error("value = 1\nprint(valeu)\n")
    assert e.message == "name 'valeu' is not defined. Did you mean 'value'?"


def test_call_with_wrong_arguments():
    e = runtime_error("def f(a, b):\n    return a\nf(1)\n")
    assert e.type_name == "TypeError"
    assert e.message == "f() missing 1 required positional argument: 'b'"
    assert (e.line, e.column, e.end_column) == (3, 1, 5)
    e = runtime_error("def f(a):\n    return a\nf(1, 2)\n")
    assert e.message == "f() takes 1 positional argument but 2 were given"
    e = runtime_error("def f(a):\n    return a\nf(b=1)\n")
    assert e.message == "f() got an unexpected keyword argument 'b'"
    e = runtime_error("len(1, 2)\n")
    assert e.type_name == "TypeError" and "len()" in e.message


def test_runtime_error_points_at_the_failing_expression():
    e = runtime_error("x = 1\ny = [1, 2]\nz = x + y[5] * 2\n", name="calc.py")
    assert e.type_name == "IndexError" and e.message == "list index out of range"
    assert (e.source, e.line, e.column, e.end_column) == ("calc.py", 3, 9, 13)
    assert e.render().splitlines() == [
        "calc.py:3:9: IndexError: list index out of range",
        "    z = x + y[5] * 2",
        "            ^^^^",
    ]


def test_error_inside_a_function_points_into_it():
    e = runtime_error("def f(v):\n    return v / 0\nf(1)\n")
    assert e.type_name == "ZeroDivisionError" and (e.line, e.column) == (2, 12)


def test_errors_name_their_source_among_several():
    res = run([Source("a.py", "def f():\n    return undefined_thing\n"),
               Source("<expr 1>", "f()")])
    assert res.error.source == "a.py" and res.error.line == 2
    res = run([Source("a.py", "x = 1\n"), Source("<expr 1>", "x +")])
    assert isinstance(res.error, ScriptSyntaxError) and res.error.source == "<expr 1>"


def test_unsupported_import_names_module_and_what_is_supported():
    e = runtime_error("import scipy as sp\n")
    assert e.type_name == "ImportError"
    assert "'scipy'" in e.message and "torch, torch.nn, torch.nn.functional" in e.message
    assert "math" in e.message


def test_eval_expression_raises_script_errors():
    with pytest.raises(ScriptSyntaxError) as ei:
        eval_expression("1 +", source_name="--set x")
    assert ei.value.source == "--set x"
    with pytest.raises(ScriptError) as ei:
        eval_expression("nope + 1")
    assert ei.value.type_name == "NameError"


def test_deep_nesting_fails_cleanly():
    e = syntax_error("x = " + "-" * 500 + "1\n")
    assert "too deeply nested" in e.message
    e = syntax_error("x = " + "[" * 3000 + "]" * 3000 + "\n")
    assert "too deeply nested" in e.message
    src = "".join("    " * i + "if True:\n" for i in range(150)) + "    " * 150 + "pass\n"
    assert "too deeply nested" in syntax_error(src).message
    e = syntax_error("x = 1\n" + "y = " + "f(" * 400 + ")" * 400 + "\n")
    assert e.line == 2
