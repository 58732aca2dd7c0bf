"""The fast parser (lalr_driver.FastLALR): lark's tables as plain data, the lexer's
patterns compiled ahead, the same trees as lark's; lark imported only for a syntax
error (and then without ``regex``)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

from agrad.lang import lalr_driver, parser, syntax_errors

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = str(ROOT / "src")
SCRIPTS = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "tests" / "golden" / "seeds").glob("*.py"))


def _same_tree(a, b):
    """Equal trees (``a`` agrad's driver's, ``b`` lark's): tokens (type, text, positions)
    and node positions."""
    from lark import Token, Tree
    if isinstance(b, Tree):
        assert isinstance(a, lalr_driver.Tree) and a.data == b.data and len(a.children) == len(b.children)
        for attr in ("line", "column", "end_line", "end_column"):
            assert getattr(a.meta, attr, None) == getattr(b.meta, attr, None), (a.data, attr)
        for x, y in zip(a.children, b.children):
            _same_tree(x, y)
    elif isinstance(b, Token):
        assert isinstance(a, lalr_driver.Token) and (a.type, str(a)) == (b.type, str(b))
        assert (a.line, a.column, a.end_line, a.end_column) == (b.line, b.column, b.end_line, b.end_column)
        assert (a.start_pos, a.end_pos, a.value) == (b.start_pos, b.end_pos, b.value)
    else:
        assert a == b


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_fast_driver_builds_lark_s_trees(path):
    text = parser._normalise(path.read_text(encoding="utf-8")) + "\n"
    fast = parser._fast_parser()
    assert fast is not None
    _same_tree(fast.parse(text, "script"), parser.get_parser().parse(text, start="script"))


def test_fast_driver_expected_terminals_match_lark_s():
    from lark.exceptions import UnexpectedToken
    fast = parser._fast_parser()
    for text in ("y = 1 2\n", "if x\n", "x = = 1\n", "def f(a b):\n    pass\n", "for in x:\n    pass\n"):
        with pytest.raises(lalr_driver.ParseFailure) as mine:
            fast.parse(text, "script")
        with pytest.raises(UnexpectedToken) as lark_s:
            parser.get_parser().parse(text, start="script")
        assert mine.value.token.type == lark_s.value.token.type
        assert (mine.value.token.line, mine.value.token.column) == (lark_s.value.token.line,
                                                                    lark_s.value.token.column)
        assert set(mine.value.expected) <= set(lark_s.value.expected)
        assert mine.value.expected == set(syntax_errors.accepted(lark_s.value))


def test_fast_driver_refuses_what_lark_s_lexer_refuses():
    from lark.exceptions import UnexpectedCharacters
    fast = parser._fast_parser()
    for text in ("x = 1 $ 2\n", "y = `a`\n"):
        with pytest.raises(lalr_driver.ParseFailure) as mine:
            fast.parse(text, "script")
        assert mine.value.token is None
        with pytest.raises(UnexpectedCharacters):
            parser.get_parser().parse(text, start="script")


def test_the_fast_cache_holds_no_lark_object():
    """Loading it must not import lark: plain data only."""
    import pickle
    import pickletools
    data = lalr_driver.from_lark(parser.get_parser())
    assert data is not None
    for op, _arg, _ in pickletools.genops(pickle.dumps(data)):  # builtins' opcodes only: no class
        assert op.name not in ("STACK_GLOBAL", "GLOBAL", "INST", "OBJ", "REDUCE", "NEWOBJ", "BUILD"), op.name
    lalr_driver.FastLALR(data).parse("x = 1\n", "script")


def test_precompiled_patterns_equal_re_s(monkeypatch):
    patterns = [(r"(?P<NAME>[^\W\d]\w*)|(?P<NUM>\d+)", 0), (r"#[^\n]*", re.M), (r"[ \t]+", 0)]
    expected = {(p, f): re.compile(p, f) for p, f in patterns}
    recorder = lalr_driver.PrecompiledRe()
    for p, f in patterns:
        assert recorder.compile(p, f) == expected[(p, f)]
    table = recorder.recorded()
    assert len(table["codes"]) == len(patterns)

    def no_compile(*a, **k):
        raise AssertionError("compiled again")

    loaded = lalr_driver.PrecompiledRe(table)
    monkeypatch.setattr(re, "compile", no_compile)
    for p, f in patterns:
        assert loaded.compile(p, f) == expected[(p, f)]   # same pattern, flags and SRE code
    assert loaded.match(patterns[0][0], "x1").lastgroup == "NAME"
    monkeypatch.undo()
    # another SRE version's table is not used: the patterns compile as usual
    stale = lalr_driver.PrecompiledRe({"magic": -1, "codes": table["codes"]})
    assert stale._codes == {} and stale.compile(*patterns[1]) == expected[patterns[1]]


def test_lark_is_imported_only_for_a_syntax_error_and_without_regex(tmp_path):
    code = ("import sys\nfrom agrad.lang import run\nr = run('x = 1')\n"
            "print(r.error is None, 'lark' in sys.modules)\n"
            "r = run('x = = 1')\n"
            "print(r.error is not None, 'lark' in sys.modules, 'regex' in sys.modules)\n"
            "import importlib.util\n"
            "if importlib.util.find_spec('regex'):\n    import regex\n    print(regex.__name__)\n"
            "else:\n    print('regex')")
    env = {**os.environ, "PYTHONPATH": SRC, "AGRAD_CACHE_DIR": str(tmp_path / "c")}
    first = subprocess.run([sys.executable, "-c", "from agrad.lang import run; run('x = 1')"],
                           capture_output=True, text=True, env=env, timeout=60)  # writes the caches
    assert first.returncode == 0, first.stderr
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.stdout.split() == ["True", "False", "True", "True", "False", "regex"], out.stderr
