"""Loading the grammar, building (and caching) the LALR parser, parsing.

The grammar is ``grammars/agrad.lark``.  It is looked up inside the
installed package first (``agrad/grammars/agrad.lark``, which the wheel gets
through hatch's force-include) and in the source tree second (an editable
checkout).  Building the LALR tables costs a few tenths of a second, so the
built parser is cached in a per-user folder (``$AGRAD_CACHE_DIR``, else
``$XDG_CACHE_HOME/agrad``, else ``~/.cache/agrad``), keyed by agrad's
version, the grammar's hash and lark's and Python's versions; when that
folder cannot be used the parser is simply built in memory.  lark itself is
imported only when something is parsed.

Public functions: :func:`parse_script`, :func:`parse_expression`,
:func:`get_parser`, :func:`grammar_path`.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from pathlib import Path

from .errors import ScriptSyntaxError, Source

_HERE = Path(__file__).resolve().parent

_parser = None
_parser_lock = threading.Lock()
_fast_lock = threading.Lock()  # taken before _parser_lock, never inside it
_parse_lock = threading.RLock()

#: Where the last parser came from: "fast cache" (the driver's tables, no Lark object),
#: "cache" (lark's cache), "built", or "built (no cache: ...)".
parser_origin: str | None = None


def grammar_path() -> Path:
    """The grammar file: the installed package's copy, else the source tree's."""
    candidates = [
        _HERE.parent / "grammars" / "agrad.lark",          # installed wheel
        _HERE.parent.parent.parent / "grammars" / "agrad.lark",  # src/agrad/lang -> repo
    ]
    for p in candidates:
        if p.is_file():
            return p
    raise FileNotFoundError(
        "agrad's grammar (agrad.lark) was not found; looked in: "
        + ", ".join(str(p) for p in candidates))


# ------------------------------------------------------------------ post-lexer

OPEN = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE"}
CLOSE = {"RPAR", "RSQB", "RBRACE"}


class _PostLexError(Exception):
    """Raised by the post-lexer; turned into a ScriptSyntaxError by the caller."""

    def __init__(self, message, line, column, end_column=None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.end_column = end_column


def _make_indenter():
    from lark.lark import PostLex
    from lark.lexer import Token

    class ScriptIndenter(PostLex):
        """Python-style blocks: _INDENT/_DEDENT from line starts, newlines
        inside brackets dropped, bracket mismatches reported with positions
        (lark's own Indenter asserts, and its DedentError has no line)."""

        always_accept = ("_NEWLINE",)

        def __init__(self):
            self.brackets: list = []
            self.indents = [0]

        def process(self, stream):
            self.brackets = []
            self.indents = [0]
            return self._process(stream)

        def _process(self, stream):
            brackets = self.brackets
            indents = self.indents
            tok = None
            for tok in stream:
                ty = tok.type
                if ty == "_NEWLINE":
                    if brackets:
                        continue
                    yield tok
                    indent_str = tok.rsplit("\n", 1)[1]
                    indent = len(indent_str.expandtabs(8))
                    if indent > indents[-1]:
                        indents.append(indent)
                        yield Token.new_borrow_pos("_INDENT", indent_str, tok)
                    else:
                        while indent < indents[-1]:
                            indents.pop()
                            yield Token.new_borrow_pos("_DEDENT", indent_str, tok)
                        if indent != indents[-1]:
                            raise _PostLexError(
                                "unindent does not match any outer indentation level",
                                tok.end_line, len(indent_str) + 1)
                    continue
                if ty in OPEN:
                    brackets.append(tok)
                elif ty in CLOSE:
                    if not brackets:
                        raise _PostLexError(f"unmatched '{tok}'", tok.line, tok.column,
                                            tok.end_column)
                    opener = brackets.pop()
                    if OPEN[opener.type] != ty:
                        where = "" if opener.line == tok.line else f" on line {opener.line}"
                        raise _PostLexError(
                            f"closing parenthesis '{tok}' does not match opening "
                            f"parenthesis '{opener}'{where}", tok.line, tok.column,
                            tok.end_column)
                yield tok
            if brackets:
                b = brackets[-1]
                raise _PostLexError(f"'{b}' was never closed", b.line, b.column, b.end_column)
            while len(indents) > 1:
                indents.pop()
                if tok is not None:
                    yield Token.new_borrow_pos("_DEDENT", "", tok)
                else:
                    yield Token("_DEDENT", "", 0, 1, 1, 1, 1, 0)

    return ScriptIndenter


# --------------------------------------------------------------- the parser

def _import_lark() -> None:
    """Import lark without the third-party ``regex`` module.

    lark imports ``regex`` whenever it is installed (about a third of lark's
    import time) but uses it only for grammars built with ``regex=True`` or
    Unicode categories, which agrad's is not; ``re`` does the rest.  The block
    is lifted as soon as lark is in, so anything else may still import it."""
    if "lark" in sys.modules:
        return
    blocked = "regex" not in sys.modules
    if blocked:
        sys.modules["regex"] = None  # makes ``import regex`` raise ImportError
    try:
        import lark  # noqa: F401
    finally:
        if blocked and sys.modules.get("regex", 0) is None:
            del sys.modules["regex"]


def _cache_dir() -> Path | None:
    env = os.environ.get("AGRAD_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None      # AGRAD_CACHE_DIR= (empty) disables
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "agrad"
    try:
        return Path.home() / ".cache" / "agrad"
    except Exception:   # no home directory
        return None


def _usable_dir(d: Path) -> bool:
    """True if ``d`` exists or can be made, and only we can write to it (the
    cache is a pickle: loading one that someone else wrote would run code)."""
    try:
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = d.stat()
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return False
        if st.st_mode & 0o022:
            return False
        return os.access(d, os.W_OK | os.X_OK)
    except OSError:
        return False


def _lark_options(postlex):
    return dict(parser="lalr", lexer="basic", postlex=postlex,
                start=["script", "expression"], propagate_positions=True,
                maybe_placeholders=True)


def _build(grammar_text: str):
    """Build the Lark object, through the cache when possible."""
    global parser_origin
    from lark import Lark
    import lark as _lark_mod

    indenter = _make_indenter()()
    opts = _lark_options(indenter)
    d = _cache_dir()
    reason = "AGRAD_CACHE_DIR is empty" if d is None else None
    if d is not None and not _usable_dir(d):
        reason = f"{d} is not a private writable folder"
        d = None
    if d is None:
        parser_origin = f"built (no cache: {reason})"
        return Lark(grammar_text, **opts)

    agrad_version = getattr(sys.modules.get("agrad"), "__version__", "dev")
    digest = hashlib.sha256(grammar_text.encode("utf-8")).hexdigest()[:16]
    name = (f"grammar-{agrad_version}-{digest}-lark{_lark_mod.__version__}"
            f"-py{sys.version_info[0]}{sys.version_info[1]}.cache")
    path = d / name
    try:
        if path.is_file():
            st = path.stat()
            if (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & 0o022:
                parser = Lark(grammar_text, cache=str(path), **opts)
                parser_origin = "cache"
                return parser
        # Build into a private temporary file, then move it into place, so a
        # concurrent run never reads a half-written cache.
        tmp = d / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            parser = Lark(grammar_text, cache=str(tmp), **opts)
            if tmp.is_file():
                os.replace(tmp, path)
        finally:
            try:
                tmp.unlink()
            except OSError:
                pass
        parser_origin = "built"
        return parser
    except Exception as e:   # an unreadable/corrupt cache or a full disk: no cache
        parser_origin = f"built (no cache: {type(e).__name__})"
        return Lark(grammar_text, **_lark_options(_make_indenter()()))


def get_parser():
    """The process-wide Lark parser (built or loaded on first use)."""
    global _parser
    if _parser is None:
        _import_lark()
        with _parser_lock:
            if _parser is None:
                text = grammar_path().read_text(encoding="utf-8")
                _parser = _build(text)
    return _parser


# ------------------------------------------------------------ error messages

_EXPR_START = {"NAME", "DEC_NUMBER", "HEX_NUMBER", "OCT_NUMBER", "BIN_NUMBER", "FLOAT_NUMBER",
               "IMAG_NUMBER", "STRING", "LONG_STRING", "LPAR", "LSQB", "LBRACE", "MINUS",
               "PLUS", "TILDE", "NOT", "LAMBDA", "NONE", "TRUE", "FALSE", "__ANON_ELLIPSIS"}

_OPERATORS = {"+", "-", "*", "/", "//", "%", "@", "**", "<<", ">>", "&", "|", "^", "<", ">",
              "==", ">=", "<=", "!=", "in", "not", "is", "and", "or", "if", "."}

_NAMED = {
    "NAME": "a name", "_NEWLINE": "end of line", "$END": "end of input",
    "_INDENT": "an indented block", "_DEDENT": "end of the block",
    "STRING": "a string", "LONG_STRING": "a string", "DEC_NUMBER": "a number",
    "HEX_NUMBER": "a number", "OCT_NUMBER": "a number", "BIN_NUMBER": "a number",
    "FLOAT_NUMBER": "a number", "IMAG_NUMBER": "a number",
    "AUGOP": "an augmented assignment ('+=', ...)",
}


def _terminal_text(parser, name: str) -> str | None:
    try:
        term = parser.get_terminal(name)
    except Exception:
        return None
    pat = term.pattern
    if type(pat).__name__ == "PatternStr":
        return pat.value
    if name == "DEC_NUMBER":
        return None
    return None


def _describe_expected(parser, expected) -> str:
    names = set(expected)
    words: list[str] = []
    starts = {n for n in names if n in _EXPR_START or _terminal_text(parser, n) in
              {"(", "[", "{", "-", "+", "~", "not", "lambda", "None", "True", "False", "..."}}
    if "NAME" in names and ({"DEC_NUMBER", "LPAR"} & names):
        words.append("an expression")
        names -= starts
        names -= {"STRING", "LONG_STRING", "DEC_NUMBER", "HEX_NUMBER", "OCT_NUMBER",
                  "BIN_NUMBER", "FLOAT_NUMBER", "IMAG_NUMBER"}
    if "_INDENT" in names:
        return "an indented block"
    texts = {n: _terminal_text(parser, n) for n in names}
    if {"pass", "def", "if"} <= set(texts.values()):
        words = ["a statement"]
        names = {n for n, tx in texts.items() if tx is None and n not in ("NAME",)}
        names -= _EXPR_START
        names -= {"STRING", "LONG_STRING", "DEC_NUMBER", "HEX_NUMBER", "OCT_NUMBER",
                  "BIN_NUMBER", "FLOAT_NUMBER", "IMAG_NUMBER", "$END", "_NEWLINE"}
    ops = {n for n, tx in texts.items() if tx in _OPERATORS}
    if len(ops) >= 5:
        words.append("an operator")
        names -= ops
    if "an expression" in words:
        names = {n for n in names if texts.get(n) != "*"}
    seen = set(words)
    punct, other = [], []
    for n in sorted(names):
        text = _terminal_text(parser, n)
        if text is not None:
            w = f"'{text}'"
            (other if text.isalpha() else punct).append(w)
        else:
            w = _NAMED.get(n, n.lower())
            other.append(w)
    for w in punct + other:
        if w not in seen:
            seen.add(w)
            words.append(w)
    if not words:
        return "something else"
    if len(words) > 7:
        words = words[:7] + ["..."]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _describe_token(parser, tok) -> str:
    ty = tok.type
    if ty == "$END":
        return "end of input"
    if ty == "_NEWLINE":
        return "end of line"
    if ty == "_INDENT":
        return "indent"
    if ty == "_DEDENT":
        return "dedent"
    if ty == "NAME":
        return f"name '{tok}'"
    if ty in ("STRING", "LONG_STRING"):
        return "string"
    if ty.endswith("_NUMBER"):
        return f"number {tok}"
    text = _terminal_text(parser, ty)
    if text is not None and text.isalpha():
        return f"keyword '{text}'"
    return f"'{tok}'"


def _syntax_error(source: Source, message: str, line, column, end_column=None,
                  line_offset=0, col_offset=0) -> ScriptSyntaxError:
    if line is not None:
        if line == 1:
            column = None if column is None else column + col_offset
            end_column = None if end_column is None else end_column + col_offset
        line = line + line_offset
    return ScriptSyntaxError(message, source=source.name, line=line, column=column,
                             end_line=line, end_column=end_column,
                             source_line=source.line_text(line) if line else "")


def _convert_lark_error(parser, e, source: Source, text: str, **off) -> ScriptSyntaxError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken, UnexpectedEOF

    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if 0 <= e.pos_in_stream < len(text) else ""
        if ch in ("'", '"'):
            msg = "unterminated string literal"
        elif ch == "\\":
            msg = "unexpected character after line continuation character"
        elif ch == "!":
            msg = "invalid syntax: '!' is only valid in '!='"
        elif ch:
            msg = f"invalid character '{ch}' (U+{ord(ch):04X})"
        else:
            msg = "invalid syntax"
        return _syntax_error(source, msg, e.line, e.column, e.column + 1, **off)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        ty = tok.type
        line, col = tok.line, tok.column
        end = tok.end_column
        if ty == "_INDENT":
            return _syntax_error(source, "unexpected indent", tok.end_line,
                                 len(str(tok).expandtabs(8)) + 1, None, **off)
        expected = _describe_expected(parser, _accepted(e))
        if expected == "an indented block":
            # the header is the last line before this one that ends with ':'
            header = None
            for ln in range((tok.line or 1), 0, -1):
                if source.line_text(ln).split("#")[0].rstrip().endswith(":"):
                    header = ln
                    break
            msg = "expected an indented block" + (f" after line {header}" if header else "")
            return _syntax_error(source, msg, tok.end_line if ty == "_NEWLINE" else line,
                                 1 if ty == "_NEWLINE" else col, None, **off)
        if ty in ("$END", "_NEWLINE", "_DEDENT"):
            # the newline token starts just past the code of the line that ended early
            end = None
            what = "end of line" if ty == "_NEWLINE" else (
                "end of input" if ty == "$END" else "end of the block")
            msg = f"unexpected {what}; expected {expected}"
        else:
            msg = f"invalid syntax: unexpected {_describe_token(parser, tok)}; expected {expected}"
        return _syntax_error(source, msg, line, col, end, **off)
    if isinstance(e, UnexpectedEOF):
        return _syntax_error(source, "unexpected end of input", None, None, **off)
    return _syntax_error(source, f"invalid syntax ({type(e).__name__})", None, None, **off)


def _accepted(e):
    """The terminals the parser could take here.  LALR merges lookaheads of
    similar states, so ``e.expected`` may list tokens that are not valid in
    this context; asking the interactive parser (which performs the pending
    reductions on a copy of this very stack) gives the exact set."""
    ip = getattr(e, "interactive_parser", None)
    if ip is not None:
        try:
            acc = ip.accepts()
            if acc:
                return acc
        except Exception:
            pass
    return e.expected


def _normalise(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class _FastLALR:
    """A leaner LALR driver over lark's own tables and tree callbacks.

    lark's ``propagate_positions`` wraps every reduction (about six per
    token with a Python-like precedence ladder) in a wrapper that inspects
    the children's metas; here positions travel on a parallel stack of
    tuples and are written only into trees that are actually created, and
    unit reductions (``?rule`` with one non-terminal child) skip the
    callback altogether.  The trees are the same as lark's (same callbacks:
    child filtering, inlining, placeholders) with the same ``meta``
    positions; errors are lark's ``UnexpectedToken`` with the exact set of
    acceptable terminals.

    The tables are lark's, coded as integers (:func:`_encode_tables`): per
    state a dict from a symbol to a shift or goto target (``>= 0``) or a
    reduction by rule ``~code``; rules are indexes into lists of their
    sizes, origins and callbacks (no hashing of ``Rule`` objects while
    parsing, and a cache that unpickles in a few milliseconds).
    """

    def __init__(self, tables, rules, lexer_conf, maybe_placeholders):
        from lark import Tree
        from lark.lexer import BasicLexer
        from lark.parse_tree_builder import ParseTreeBuilder

        (self.states, self.start_states, self.end_states, self.sizes, self.origins,
         self.unit) = tables
        builder = ParseTreeBuilder(rules, Tree, False, False, maybe_placeholders)
        callbacks = builder.create_callback(None)
        self.callbacks = [callbacks[rule] for rule in rules]
        self.Tree = Tree
        self.postlex = _make_indenter()()
        self.lexer = BasicLexer(lexer_conf)

    @classmethod
    def from_lark(cls, lark_obj):
        """The driver and what the fast cache stores of it: plain data that pickle
        loads in a few ms (lark's own cache rebuilds its tables element by element)."""
        import copy
        conf = copy.copy(lark_obj.lexer_conf)
        conf.postlex = None
        conf.skip_validation = True  # lark checked every terminal when it built the grammar
        rules = list(lark_obj.rules)
        tables = _encode_tables(lark_obj.parser.parser.parser.parse_table, rules)
        recorder = _PrecompiledRe()
        conf.re_module = recorder
        fast = cls(tables, rules, conf, lark_obj.options.maybe_placeholders)
        fast.lexer.scanner  # compiles the lexer's patterns (recorded for the cache)
        stored = copy.copy(conf)
        stored.re_module = None  # a module does not pickle; set again on load
        return fast, (tables, rules, stored, lark_obj.options.maybe_placeholders,
                      recorder.recorded())

    def lex(self, text):
        from lark.lexer import LexerThread
        stream = LexerThread.from_text(self.lexer, text).lex(None)
        return self.postlex.process(stream) if self.postlex is not None else stream

    def expected(self, state_stack, end_state):
        """Terminals that would be shifted (after reductions) from this stack."""
        out = set()
        states = self.states
        for term in states[state_stack[-1]]:
            if not term.isupper() and term != "$END":
                continue
            stack = list(state_stack)
            while True:
                act = states[stack[-1]].get(term)
                if act is None:
                    break
                if act >= 0:
                    out.add(term)
                    break
                size = self.sizes[~act]
                if size:
                    del stack[-size:]
                nxt = states[stack[-1]].get(self.origins[~act])
                if nxt is None:
                    break
                stack.append(nxt)
                if term == "$END" and stack[-1] == end_state:
                    out.add(term)
                    break
        return out

    def parse(self, text, start):
        from lark.exceptions import UnexpectedToken
        from lark.lexer import Token

        states = self.states
        callbacks = self.callbacks
        sizes = self.sizes
        origins = self.origins
        unit = self.unit
        Tree = self.Tree
        end_state = self.end_states[start]
        state_stack = [self.start_states[start]]
        value_stack: list = []
        pos_stack: list = []
        token = None

        def feed(token, is_end=False):
            ttype = token.type
            while True:
                act = states[state_stack[-1]].get(ttype)
                if act is None:
                    raise UnexpectedToken(token, self.expected(state_stack, end_state))
                if act >= 0:  # shift
                    state_stack.append(act)
                    value_stack.append(token)
                    pos_stack.append((token.line, token.column, token.end_line,
                                      token.end_column))
                    return None
                rule = ~act
                if unit[rule]:
                    del state_stack[-1]
                else:
                    size = sizes[rule]
                    if size:
                        kids = value_stack[-size:]
                        poss = pos_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                        del pos_stack[-size:]
                    else:
                        kids = []
                        poss = ()
                    first = last = None
                    for p in poss:
                        if p is not None:
                            if first is None:
                                first = p
                            last = p
                    value = callbacks[rule](kids)
                    pos = None if first is None else (first[0], first[1], last[2], last[3])
                    if pos is not None and type(value) is Tree and not any(
                            value is k for k in kids):
                        m = value.meta
                        if not hasattr(m, "line"):
                            m.line, m.column, m.end_line, m.end_column = pos
                            m.empty = False
                    value_stack.append(value)
                    pos_stack.append(pos)
                state_stack.append(states[state_stack[-1]][origins[rule]])
                if is_end and state_stack[-1] == end_state:
                    return value_stack[-1]

        for token in self.lex(text):
            feed(token)
        end = Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)
        return feed(end, True)


class _PrecompiledRe:
    """The ``re`` module as lark's lexer sees it, with its patterns compiled ahead.

    CPython compiles a regular expression in Python (``re._parser``,
    ``re._compiler``); the lexer's ~20 patterns (one of them the alternation of
    every terminal) took about as long as the rest of loading the parser.  The
    fast cache keeps each pattern's SRE code, and ``_sre.compile`` makes the
    pattern object from it directly.  Recording (no table given) compiles as
    ``re`` does and keeps the code of every pattern whose rebuilt object equals
    ``re``'s; a pattern not in the table, or a table from another SRE version,
    compiles as usual.
    """

    error = None  # set in __init__ (lark catches re.error)

    def __init__(self, compiled=None):
        import re
        import _sre
        self._re = re
        self.error = re.error
        self._record = compiled is None
        if compiled is not None and compiled.get("magic") != _sre.MAGIC:
            compiled = None
        self._codes = {} if compiled is None else compiled["codes"]
        self._patterns = {}

    def recorded(self) -> dict:
        import _sre
        return {"magic": _sre.MAGIC, "codes": self._codes}

    def compile(self, pattern, flags=0):
        key = (pattern, flags)
        compiled = self._patterns.get(key)
        if compiled is None:
            compiled = self._patterns[key] = self._compile(pattern, flags)
        return compiled

    def _compile(self, pattern, flags):
        import _sre
        args = self._codes.get((pattern, flags))
        if args is not None:
            try:
                return _sre.compile(*args)
            except Exception:  # not this interpreter's code: compile it below
                pass
        compiled = self._re.compile(pattern, flags)
        if self._record:
            args = self._sre_args(pattern, flags)
            if args is not None and _sre.compile(*args) == compiled:
                self._codes[(pattern, flags)] = args
        return compiled

    def match(self, pattern, string, flags=0):
        return self.compile(pattern, flags).match(string)

    @staticmethod
    def _sre_args(pattern, flags):
        """What ``re._compiler.compile`` passes to ``_sre.compile`` (None if unknown)."""
        try:
            from re import _compiler, _parser
            p = _parser.parse(pattern, flags)
            code = [int(c) for c in _compiler._code(p, flags)]  # plain ints: they pickle
            groupindex = dict(p.state.groupdict)
            indexgroup = [None] * p.state.groups
            for k, i in groupindex.items():
                indexgroup[i] = k
            return (pattern, flags | p.state.flags, code, p.state.groups - 1, groupindex,
                    tuple(indexgroup))
        except Exception:
            return None


def _encode_tables(parse_table, rules):
    """lark's LALR table as integers: (states, start states, end states, rule sizes,
    rule origins, unit flags); see :class:`_FastLALR`."""
    from lark.grammar import NonTerminal
    from lark.parsers.lalr_analysis import Shift

    index = {rule: i for i, rule in enumerate(rules)}
    states = [None] * (max(parse_table.states) + 1)
    for s, actions in parse_table.states.items():
        states[s] = {sym: (arg if action is Shift else ~index[arg])
                     for sym, (action, arg) in actions.items()}
    sizes = [len(rule.expansion) for rule in rules]
    origins = [rule.origin.name for rule in rules]
    unit = [bool(rule.options.expand1 and not rule.alias and len(rule.expansion) == 1
                 and isinstance(rule.expansion[0], NonTerminal)
                 and not rule.expansion[0].name.startswith("_")) for rule in rules]
    return (states, dict(parse_table.start_states), dict(parse_table.end_states), sizes,
            origins, unit)


_fast = None


def _fast_parser():
    """The fast driver: from the fast cache when there is one, else from the Lark
    parser (then written to the cache).  None if lark's internals changed."""
    global _fast
    if _fast is None:
        _import_lark()
        with _fast_lock:
            if _fast is None:
                _fast = _load_fast() or False
    return _fast or None


#: the layout of the fast cache (part of its file name): 3 = integer-coded tables
#: and the lexer's compiled patterns
_FAST_FORMAT = 3


def _fast_cache_path(grammar_text: str):
    d = _cache_dir()
    if d is None or not _usable_dir(d):
        return None
    import lark as _lark_mod
    agrad_version = getattr(sys.modules.get("agrad"), "__version__", "dev")
    digest = hashlib.sha256(grammar_text.encode("utf-8")).hexdigest()[:16]
    return d / (f"fast-{agrad_version}-{digest}-v{_FAST_FORMAT}-lark{_lark_mod.__version__}"
                f"-py{sys.version_info[0]}{sys.version_info[1]}.pickle")


def _load_fast():
    global parser_origin
    import pickle

    text = grammar_path().read_text(encoding="utf-8")
    path = _fast_cache_path(text)
    if path is not None and path.is_file():
        try:
            st = path.stat()
            if (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & 0o022:
                with open(path, "rb") as f:
                    tables, rules, conf, placeholders, compiled = pickle.load(f)
                conf.re_module = _PrecompiledRe(compiled)
                parser_origin = "fast cache"
                return _FastLALR(tables, rules, conf, placeholders)
        except Exception:  # a stale or corrupt cache: rebuild it below
            pass
    try:
        fast, parts = _FastLALR.from_lark(get_parser())
    except Exception:  # lark internals changed: use lark's own driver
        return None
    if path is not None:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with open(tmp, "wb") as f:
                pickle.dump(parts, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except Exception:
            try:
                tmp.unlink()
            except OSError:
                pass
    return fast


def parse_tree(text: str, start: str, source: Source, *, line_offset: int = 0,
               col_offset: int = 0):
    """Parse ``text`` from ``start`` into a lark tree, or raise ScriptSyntaxError.

    ``line_offset``/``col_offset`` shift the positions of error messages
    (used for f-string fields, whose text sits inside a string literal).
    """
    _import_lark()
    from lark.exceptions import LarkError

    text = _normalise(text)
    off = dict(line_offset=line_offset, col_offset=col_offset)
    if start == "script":
        _check_first_indent(text, source, off)
    with _parse_lock:
        fast = _fast_parser()
        try:
            if fast is not None:
                return fast.parse(text + "\n", start)
            parser = get_parser()
            return parser.parse(text + "\n", start=start)
        except _PostLexError as e:
            err = _syntax_error(source, e.message, e.line, e.column, e.end_column, **off)
        except LarkError as e:
            parser = get_parser()  # the full Lark object: only to explain an error
            postlex = fast.postlex if fast is not None else parser.options.postlex
            err = _unclosed_bracket(postlex, e, source, off) or \
                _convert_lark_error(parser, e, source, text + "\n", **off)
        except RecursionError:
            err = _syntax_error(source, "the text is nested too deeply to parse", None, None,
                                **off)
    raise err


def _unclosed_bracket(postlex, e, source, off):
    """Python's "'(' was never closed": an error on a later line than a
    bracket that is still open (``postlex`` ran the failed parse)."""
    tok = getattr(e, "token", None)
    brackets = getattr(postlex, "brackets", None)
    if tok is None or not brackets:
        return None
    b = brackets[-1]
    if tok.line is not None and b.line is not None and tok.line > b.line:
        return _syntax_error(source, f"'{b}' was never closed", b.line, b.column,
                             b.end_column, **off)
    return None


def _check_first_indent(text: str, source: Source, off) -> None:
    """Python rejects an indented first statement; lark would ignore it."""
    for i, ln in enumerate(text.split("\n"), 1):
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        if ln[0] in " \t":
            raise _syntax_error(source, "unexpected indent", i,
                                len(ln) - len(ln.lstrip()) + 1, None, **off)
        return


class _PausedGC:
    """Parsing builds many small acyclic objects; the cyclic collector's passes over
    them cost about as much as the parse itself (measured: 10,000 lines in 3.6 s
    with it, 1.9 s without), and reference counting frees them all anyway."""

    def __enter__(self):
        import gc
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        import gc
        if self.was_enabled:
            gc.enable()
        return False


def parse_script(source: Source, *, max_nesting: int | None = None):
    """Parse a whole script into an :class:`agrad.lang.ast.Module`."""
    from .builder import build
    with _PausedGC():
        tree = parse_tree(source.text, "script", source)
        return build(tree, source, max_nesting=max_nesting)


def parse_expression(text: str, source_name: str = "<expr>", *,
                     max_nesting: int | None = None):
    """Parse one expression into an :class:`agrad.lang.ast.Expression`."""
    from .builder import build
    source = Source(source_name, text)
    tree = parse_tree(text, "expression", source)
    return build(tree, source, max_nesting=max_nesting)
