"""The post-lexer: Python-style blocks (``_INDENT``/``_DEDENT`` from line starts),
newlines inside brackets dropped, bracket mismatches reported with positions.

:class:`ScriptIndenter` works on agrad's tokens (the fast driver) or lark's
(:func:`make_indenter`: lark's own parser, imported only when needed).
"""

from __future__ import annotations

OPEN = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE"}
CLOSE = {"RPAR", "RSQB", "RBRACE"}


class PostLexError(Exception):
    """Raised by the post-lexer; turned into a ScriptSyntaxError by the caller."""

    def __init__(self, message, line, column, end_column=None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.end_column = end_column


class ScriptIndenter:
    """Python-style blocks: _INDENT/_DEDENT from line starts, newlines
    inside brackets dropped, bracket mismatches reported with positions
    (lark's own Indenter asserts, and its DedentError has no line)."""

    always_accept = ("_NEWLINE",)

    def __init__(self, token_cls):
        self.Token = token_cls  # agrad's (lalr_driver.Token) or lark's
        self.brackets: list = []
        self.indents = [0]

    def process(self, stream):
        self.brackets = []
        self.indents = [0]
        return self._process(stream)

    def _process(self, stream):
        brackets = self.brackets
        indents = self.indents
        Token = self.Token
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
                        raise PostLexError(
                            "unindent does not match any outer indentation level",
                            tok.end_line, len(indent_str) + 1)
                continue
            if ty in OPEN:
                brackets.append(tok)
            elif ty in CLOSE:
                if not brackets:
                    raise PostLexError(f"unmatched '{tok}'", tok.line, tok.column,
                                        tok.end_column)
                opener = brackets.pop()
                if OPEN[opener.type] != ty:
                    where = "" if opener.line == tok.line else f" on line {opener.line}"
                    raise PostLexError(
                        f"closing parenthesis '{tok}' does not match opening "
                        f"parenthesis '{opener}'{where}", tok.line, tok.column,
                        tok.end_column)
            yield tok
        if brackets:
            b = brackets[-1]
            raise PostLexError(f"'{b}' was never closed", b.line, b.column, b.end_column)
        while len(indents) > 1:
            indents.pop()
            if tok is not None:
                yield Token.new_borrow_pos("_DEDENT", "", tok)
            else:
                yield Token("_DEDENT", "", 0, 1, 1, 1, 1, 0)


def make_indenter():
    """The post-lexer as lark's ``PostLex`` (for lark's own parser, which builds the
    tables and explains syntax errors)."""
    from lark.lark import PostLex
    from lark.lexer import Token

    class LarkIndenter(ScriptIndenter, PostLex):
        def __init__(self):
            ScriptIndenter.__init__(self, Token)

    return LarkIndenter
