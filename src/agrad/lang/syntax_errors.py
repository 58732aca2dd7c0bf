"""Syntax-error messages: a lark error (or the post-lexer's) as a
:class:`ScriptSyntaxError` in Python's words, with the position of the
offending token and the terminals the parser could have taken, in words.

Imported only when a parse fails.
"""

from __future__ import annotations

from .errors import ScriptSyntaxError, Source

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


def syntax_error(source: Source, message: str, line, column, end_column=None,
                  line_offset=0, col_offset=0) -> ScriptSyntaxError:
    if line is not None:
        if line == 1:
            column = None if column is None else column + col_offset
            end_column = None if end_column is None else end_column + col_offset
        line = line + line_offset
    return ScriptSyntaxError(message, source=source.name, line=line, column=column,
                             end_line=line, end_column=end_column,
                             source_line=source.line_text(line) if line else "")


def convert_lark_error(parser, e, source: Source, text: str, **off) -> ScriptSyntaxError:
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
        return syntax_error(source, msg, e.line, e.column, e.column + 1, **off)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        ty = tok.type
        line, col = tok.line, tok.column
        end = tok.end_column
        if ty == "_INDENT":
            return syntax_error(source, "unexpected indent", tok.end_line,
                                 len(str(tok).expandtabs(8)) + 1, None, **off)
        expected = _describe_expected(parser, accepted(e))
        if expected == "an indented block":
            # the header is the last line before this one that ends with ':'
            header = None
            for ln in range((tok.line or 1), 0, -1):
                if source.line_text(ln).split("#")[0].rstrip().endswith(":"):
                    header = ln
                    break
            msg = "expected an indented block" + (f" after line {header}" if header else "")
            return syntax_error(source, msg, tok.end_line if ty == "_NEWLINE" else line,
                                 1 if ty == "_NEWLINE" else col, None, **off)
        if ty in ("$END", "_NEWLINE", "_DEDENT"):
            # the newline token starts just past the code of the line that ended early
            end = None
            what = "end of line" if ty == "_NEWLINE" else (
                "end of input" if ty == "$END" else "end of the block")
            msg = f"unexpected {what}; expected {expected}"
        else:
            msg = f"invalid syntax: unexpected {_describe_token(parser, tok)}; expected {expected}"
        return syntax_error(source, msg, line, col, end, **off)
    if isinstance(e, UnexpectedEOF):
        return syntax_error(source, "unexpected end of input", None, None, **off)
    return syntax_error(source, f"invalid syntax ({type(e).__name__})", None, None, **off)


def accepted(e):
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


def unclosed_bracket(postlex, e, source, off):
    """Python's "'(' was never closed": an error on a later line than a
    bracket that is still open (``postlex`` ran the failed parse)."""
    tok = getattr(e, "token", None)
    brackets = getattr(postlex, "brackets", None)
    if tok is None or not brackets:
        return None
    b = brackets[-1]
    if tok.line is not None and b.line is not None and tok.line > b.line:
        return syntax_error(source, f"'{b}' was never closed", b.line, b.column,
                             b.end_column, **off)
    return None
