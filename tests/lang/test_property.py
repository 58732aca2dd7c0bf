"""Property: whatever the input -- text generated from the grammar itself,
or random text -- run() returns a result or a clean agrad error, and never
lets another Python exception out."""

from __future__ import annotations

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.lark import from_lark  # noqa: E402

from agrad.lang import ScriptError, Source, eval_expression, run  # noqa: E402
from agrad.lang.parser import grammar_path  # noqa: E402

COUNT = {"n": 0}


def _grammar():
    from lark import Lark
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer="basic",
                start=["script"])


GRAMMAR = _grammar()
EXPLICIT = {"_INDENT": st.sampled_from(["    ", "  ", "\t"]),
            "_DEDENT": st.just(""),
            "_NEWLINE": st.sampled_from(["\n", "\n    ", "  # c\n", "\n\n"])}

SETTINGS = settings(max_examples=400, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


def check(text: str) -> None:
    COUNT["n"] += 1
    res = run(Source("gen.py", text), timeout=2, max_elements=10**5, max_depth=50)
    if res.error is not None:
        _clean(res.error)
    assert isinstance(res.stdout, str)
    assert isinstance(res.namespace, dict)
    # the first line as a --set value (the `expression` start symbol)
    COUNT["n"] += 1
    try:
        eval_expression(text.split("\n")[0], timeout=2, max_elements=10**5, max_depth=50)
    except ScriptError as err:
        _clean(err)


def _clean(err):
    assert isinstance(err, ScriptError)
    assert isinstance(err.type_name, str) and err.type_name
    assert isinstance(err.message, str)
    assert "Traceback" not in err.render()
    assert err.to_dict()["type"] == err.type_name


# Generating from the `expression` start symbol directly makes hypothesis
# overrun its buffer on this deeply layered grammar (a handful of examples
# in 15 s), so expressions are generated inside scripts and each script's
# first line is also evaluated as an expression.
@SETTINGS
@given(from_lark(GRAMMAR, start="script", explicit=EXPLICIT))
def test_generated_scripts(text):
    check(text)


_ALPHABET = st.sampled_from(list("abxyz01239 \n\t()[]{}:;,.=+-*/%@<>!&|^~'\"#\\_") +
                            ["def ", "if ", "else", "lambda", "torch.", "ones(2)", "**", "__",
                             "for ", " in ", "while ", "return", "class ", "import ", "f'{",
                             "}'", "None", "print(", "x.grad", "backward()", "\u00e9", "\u4e2d"])


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_random_text(text):
    check(text)


def test_report_count(capsys):
    """Runs last in this file: says how many inputs the properties ran."""
    with capsys.disabled():
        print(f"\n[hypothesis] {COUNT['n']} generated inputs ran through run()")
    assert COUNT["n"] > 0
