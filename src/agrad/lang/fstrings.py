"""f-strings: split into literal text and fields whose expressions are parsed
by agrad's own parser (so they are evaluated by the interpreter, with its
attribute allow-lists, never by Python's f-string machinery)."""

from __future__ import annotations

import codecs
import keyword
import re

from . import ast as A


def _decode(text: str, raw: bool) -> str:
    if raw or "\\" not in text:
        return text
    return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")


class _FString:
    def __init__(self, builder, tok, prefix):
        self.b = builder
        self.tok = tok
        text = str(tok)
        rest = text[len(prefix):]
        quote = rest[:3] if rest[:3] in ('"""', "'''") else rest[0]
        self.text = text
        self.start = len(prefix) + len(quote)
        self.body = text[self.start:len(text) - len(quote)]
        self.raw = "r" in prefix

    # absolute (line, col) of body index k
    def where(self, k):
        off = self.start + k
        before = self.text[:off]
        nl = before.count("\n")
        if nl == 0:
            return self.tok.line, self.tok.column + off
        return self.tok.line + nl, off - before.rfind("\n")

    def error(self, msg, k):
        line, col = self.where(k)

        class _P:
            pass
        p = _P()
        p.line, p.col, p.end_line, p.end_col = line - self.b.line_offset, col, None, None
        if p.line == 1 and self.b.col_offset:
            p.col -= self.b.col_offset
        return self.b.error("f-string: " + msg, p)

    def scan(self, i, in_spec, level):
        """Parts from body index i up to the end (or, in a format spec, up to
        the closing '}').  Returns (parts, index of the stop)."""
        body, n = self.body, len(self.body)
        parts: list = []
        lit: list[str] = []

        def flush():
            if lit:
                parts.append(_decode("".join(lit), self.raw))
                lit.clear()

        while i < n:
            c = body[i]
            if c == "{":
                if not in_spec and body.startswith("{{", i):
                    lit.append("{")
                    i += 2
                    continue
                if level >= 2:
                    raise self.error("expressions nested too deeply", i)
                flush()
                node, i = self.field(i, level)
                parts.extend(node)
                continue
            if c == "}":
                if in_spec:
                    flush()
                    return parts, i
                if body.startswith("}}", i):
                    lit.append("}")
                    i += 2
                    continue
                raise self.error("single '}' is not allowed", i)
            if c == "\\" and not self.raw:
                if body.startswith("\\N{", i):
                    j = body.find("}", i)
                    if j < 0:
                        raise self.error("malformed \\N character escape", i)
                    lit.append(body[i:j + 1])
                    i = j + 1
                    continue
                lit.append(body[i:i + 2])
                i += 2
                continue
            lit.append(c)
            i += 1
        if in_spec:
            raise self.error("expecting '}'", i)
        flush()
        return parts, i

    def field(self, i, level):
        body, n = self.body, len(self.body)
        j = i + 1
        depth = 0
        quote = None
        debug = None
        while j < n:
            ch = body[j]
            if quote:
                if body.startswith(quote, j):
                    j += len(quote)
                    quote = None
                    continue
            elif ch in "'\"":
                quote = body[j:j + 3] if body[j:j + 3] in ("'''", '"""') else ch
                j += len(quote)
                continue
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                if depth == 0:
                    if ch == "}":
                        break
                    raise self.error(f"unmatched '{ch}'", j)
                depth -= 1
            elif depth == 0 and ch == "!" and not body.startswith("!=", j):
                break
            elif depth == 0 and ch == ":":
                break
            elif depth == 0 and ch == "=" and not body.startswith("==", j) \
                    and body[j - 1] not in "=!<>" :
                k = j + 1
                while k < n and body[k] in " \t\n":
                    k += 1
                if k < n and body[k] in "}!:":
                    debug = body[i + 1:k]
                    expr_end = j
                    j = k
                    break
            j += 1
        if quote is not None or j >= n:
            raise self.error("expecting '}'", i)
        expr_text = body[i + 1:(expr_end if debug is not None else j)]
        if not expr_text.strip():
            raise self.error("empty expression not allowed", i)
        value = self.expression(expr_text, i + 1)
        conversion = None
        if body[j] == "!":
            conversion = body[j + 1:j + 2]
            if conversion not in ("r", "s", "a"):
                raise self.error("invalid conversion character: expected 's', 'r', or 'a'", j)
            j += 2
        spec = None
        if j < n and body[j] == ":":
            spec_parts, j = self.scan(j + 1, True, level + 1)
            spec = A.JoinedStr(spec_parts)
            spec.line, spec.col, spec.end_line, spec.end_col = (
                value.line, value.col, value.end_line, value.end_col)
            spec.depth = 1 + max([p.depth for p in spec_parts if isinstance(p, A.Node)] or [0])
        if j >= n or body[j] != "}":
            raise self.error("expecting '}'", j)
        if debug is not None and conversion is None and spec is None:
            conversion = "r"
        fv = A.FormattedValue(value, conversion, spec, debug)
        fv.line, fv.col, fv.end_line, fv.end_col = (value.line, value.col, value.end_line,
                                                   value.end_col)
        fv.depth = 1 + max(value.depth, spec.depth if spec is not None else 0)
        out = [fv] if debug is None else [debug, fv]
        return out, j + 1

    def expression(self, text, k):
        line, col = self.where(k)
        simple = _SIMPLE.match(text)
        if simple and not any(p in _KEYWORDS for p in text.split(".")):
            return self._dotted(text, line, col)
        from .builder import Builder
        from .checks import Checker
        from .parser import parse_tree
        # the sub-parse sees "(" + text + ")": its (1, c) is our column col + c - 2
        line_offset = line - 1
        col_offset = col - 2
        b = self.b
        tree = parse_tree("(" + text + ")", "expression", b.source,
                          line_offset=line_offset + b.line_offset, col_offset=col_offset)
        sub = Builder(b.source, b.max_nesting, line_offset=line_offset + b.line_offset,
                      col_offset=col_offset)
        node = sub.build(tree).body
        Checker(sub).expr(node, None)
        for n in A.walk(node):
            if n.line == 1:
                n.col = None if n.col is None else n.col + col_offset
            if n.end_line == 1:
                n.end_col = None if n.end_col is None else n.end_col + col_offset
            if n.line is not None:
                n.line += line_offset
            if n.end_line is not None:
                n.end_line += line_offset
        return node


    def _dotted(self, text, line, col):
        """``name`` or ``name.attr.attr`` without a parse (the common field)."""
        parts = text.split(".")
        c = col
        node = A.Name(parts[0])
        node.line, node.col, node.end_line, node.end_col = line, c, line, c + len(parts[0])
        node.depth = 1
        end = c + len(parts[0])
        for attr in parts[1:]:
            end += 1 + len(attr)
            outer = A.Attribute(node, attr)
            outer.line, outer.col, outer.end_line, outer.end_col = line, col, line, end
            outer.depth = node.depth + 1
            node = outer
        if node.depth > self.b.max_nesting:
            raise self.b.error("too deeply nested", node)
        return node


_SIMPLE = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*\Z")
_KEYWORDS = frozenset(keyword.kwlist) | {"yield", "async", "await"}


def parse_fstring(builder, tok, prefix):
    fs = _FString(builder, tok, prefix)
    parts, _ = fs.scan(0, False, 0)
    return parts
