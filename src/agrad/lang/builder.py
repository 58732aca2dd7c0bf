"""From the parse tree to the AST (:mod:`.ast`).

:func:`build` converts a parse tree (agrad's driver's or lark's) into nodes without recursion (an explicit
stack, so thousands of nested brackets cannot overflow Python's stack), then
has :mod:`.checks` check the statements (``break`` outside a loop, ...) and
work out each function's local names, as Python's compiler does.
"""

from __future__ import annotations

import ast as _pyast
import warnings as _warnings

from .errors import ScriptSyntaxError, Source
from .ast import (DEFAULT_MAX_NESTING, AnnAssign, Assert, Assign, Attribute, AugAssign, BinOp, BoolOp, Break,
                  Call, ClassDef, Compare, Comprehension, Constant, Continue, Delete, Dict, DictComp,
                  ExceptHandler, ExprStmt, Expression, For, FunctionDef, GeneratorExp, Global, If, IfExp,
                  Import, ImportFrom, JoinedStr, Lambda, List, ListComp, Module, Name, Node, Nonlocal, Param,
                  Pass, Raise, Return, Set, SetComp, Slice, Starred, Subscript, Try, Tuple, UnaryOp, While,
                  With, Yield)
from .checks import Checker

class _Kw:
    __slots__ = ("name", "value")

    def __init__(self, name, value):
        self.name, self.value = name, value


def _pos(node, meta, depth=None):
    if getattr(meta, "empty", True) is False or hasattr(meta, "line"):
        node.line = getattr(meta, "line", None)
        node.col = getattr(meta, "column", None)
        node.end_line = getattr(meta, "end_line", None)
        node.end_col = getattr(meta, "end_column", None)
    else:
        node.line = node.col = node.end_line = node.end_col = None
    return node


def _tokpos(node, tok):
    node.line, node.col = tok.line, tok.column
    node.end_line, node.end_col = tok.end_line, tok.end_column
    return node


def _span(node, first, last):
    node.line, node.col = first.line, first.col
    node.end_line, node.end_col = last.end_line, last.end_col
    return node


_BINOPS = {"bit_or": "|", "bit_xor": "^", "bit_and": "&", "lshift": "<<", "rshift": ">>",
           "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//",
           "mod": "%", "matmul": "@", "pow": "**"}
_UNARY = {"pos": "+", "neg": "-", "invert": "~", "not_op": "not"}
_CMP = {"lt": "<", "gt": ">", "eq": "==", "ge": ">=", "le": "<=", "ne": "!=",
        "in_": "in", "not_in": "not in", "is_": "is", "is_not": "is not"}

_UNSUPPORTED_WORDS = frozenset({"yield", "async", "await"})

_KIND_NAMES = {
    "Call": "function call", "Constant": "literal", "JoinedStr": "f-string expression",
    "BinOp": "expression", "UnaryOp": "expression", "BoolOp": "expression",
    "Compare": "comparison", "IfExp": "conditional expression", "Lambda": "lambda",
    "Dict": "dict literal", "Set": "set display", "ListComp": "list comprehension",
    "SetComp": "set comprehension", "DictComp": "dict comprehension",
    "GeneratorExp": "generator expression", "Slice": "slice",
}


class Builder:
    def __init__(self, source: Source, max_nesting: int | None, *, line_offset=0, col_offset=0):
        self.source = source
        self.max_nesting = DEFAULT_MAX_NESTING if max_nesting is None else max_nesting
        self.line_offset = line_offset
        self.col_offset = col_offset

    # -- errors
    def error(self, msg, node_or_tok) -> ScriptSyntaxError:
        line = getattr(node_or_tok, "line", None)
        col = getattr(node_or_tok, "col", None)
        if col is None:
            col = getattr(node_or_tok, "column", None)
        end_line = getattr(node_or_tok, "end_line", None)
        end_col = getattr(node_or_tok, "end_col", None)
        if end_col is None:
            end_col = getattr(node_or_tok, "end_column", None)
        if end_line != line:
            end_col = None
        if line == 1 and self.col_offset:
            col = None if col is None else col + self.col_offset
            end_col = None if end_col is None else end_col + self.col_offset
        if line is not None:
            line += self.line_offset
        return ScriptSyntaxError(msg, source=self.source.name, line=line, column=col,
                                 end_line=line, end_column=end_col,
                                 source_line=self.source.line_text(line) if line else "")

    def nest(self, node, depth):
        node.depth = depth
        if depth > self.max_nesting:
            raise self.error(
                f"too deeply nested: expressions and blocks may nest at most "
                f"{self.max_nesting} levels", node)
        return node

    def dmax(self, *items):
        d = 0
        for it in items:
            if isinstance(it, Node):
                if it.depth > d:
                    d = it.depth
            elif isinstance(it, (list, tuple)):
                for x in it:
                    if isinstance(x, Node):
                        if x.depth > d:
                            d = x.depth
                    elif isinstance(x, (list, tuple)):
                        for y in x:
                            if isinstance(y, Node) and y.depth > d:
                                d = y.depth
        return d

    def mk(self, node, meta, *children):
        _pos(node, meta)
        return self.nest(node, 1 + self.dmax(*children))

    # -- the walk
    def build(self, tree):
        handlers = {}
        for name in dir(self):
            if name.startswith("r_"):
                handlers[name[2:]] = getattr(self, name)
        for name in _BINOPS:
            handlers[name] = self.binop
        for name in _UNARY:
            handlers[name] = self.unary
        for name in _CMP:
            handlers[name] = self.cmpop

        out: list = []
        stack = [(tree, False)]
        pop, push = stack.pop, stack.append
        while stack:
            t, done = pop()
            if done is None:          # a token or a None placeholder
                out.append(t)
                continue
            if done:
                n = len(t.children)
                if n:
                    kids = out[-n:]
                    del out[-n:]
                else:
                    kids = []
                h = handlers.get(t.data)
                if h is None:
                    raise self.error(f"unsupported syntax ({t.data})", t.meta)
                out.append(h(t, kids))
                continue
            push((t, True))
            for c in reversed(t.children):
                # a token (a str) or a None placeholder, else a tree (agrad's or lark's)
                push((c, None) if c is None or isinstance(c, str) else (c, False))
        assert len(out) == 1
        return out[0]

    # -- leaves (tokens and None placeholders are passed through)

    # -- statements
    def r_script(self, t, kids):
        node = Module(kids)
        node.line, node.col = 1, 1
        node.end_line = node.end_col = None
        node.depth = self.dmax(kids)
        return node

    def r_expression(self, t, kids):
        node = Expression(kids[0])
        node.line, node.col, node.end_line, node.end_col = (
            kids[0].line, kids[0].col, kids[0].end_line, kids[0].end_col)
        node.depth = kids[0].depth
        return node

    def r_suite(self, t, kids):
        return kids

    def r_expr_stmt(self, t, kids):
        return self.mk(ExprStmt(kids[0]), t.meta, kids[0])

    def r_assign(self, t, kids):
        targets = [self.target(k) for k in kids[:-1]]
        return self.mk(Assign(targets, kids[-1]), t.meta, kids)

    def r_aug_assign(self, t, kids):
        target, op, value = kids
        if not isinstance(target, (Name, Attribute, Subscript)):
            raise self.error(
                f"'{self.kind(target)}' is an illegal expression for augmented assignment",
                target)
        return self.mk(AugAssign(target, str(op)[:-1], value), t.meta, target, value)

    def r_ann_assign(self, t, kids):
        target, annotation, value = kids
        if isinstance(target, Tuple):
            raise self.error("only single target (not tuple) can be annotated", target)
        self.target(target)
        return self.mk(AnnAssign(target, value, annotation), t.meta, target, value, annotation)

    def r_del_stmt(self, t, kids):
        tgt = kids[0]
        targets = tgt.elts if isinstance(tgt, Tuple) else [tgt]
        for x in targets:
            if not isinstance(x, (Name, Attribute, Subscript)):
                raise self.error(f"cannot delete {self.kind(x)}", x)
        return self.mk(Delete(targets), t.meta, targets)

    def r_pass_stmt(self, t, kids):
        return self.mk(Pass(), t.meta)

    def r_break_stmt(self, t, kids):
        return self.mk(Break(), t.meta)

    def r_continue_stmt(self, t, kids):
        return self.mk(Continue(), t.meta)

    def r_return_stmt(self, t, kids):
        return self.mk(Return(kids[0]), t.meta, kids)

    def r_yield_stmt(self, t, kids):
        return self.mk(Yield(kids[0], False), t.meta, kids)

    def r_yield_from(self, t, kids):
        return self.mk(Yield(kids[0], True), t.meta, kids)

    def r_raise_stmt(self, t, kids):
        exc, cause = (kids + [None, None])[:2]
        return self.mk(Raise(exc, cause), t.meta, kids)

    def r_global_stmt(self, t, kids):
        return self.mk(Global([str(k) for k in kids]), t.meta)

    def r_nonlocal_stmt(self, t, kids):
        return self.mk(Nonlocal([str(k) for k in kids]), t.meta)

    def r_assert_stmt(self, t, kids):
        return self.mk(Assert(kids[0], kids[1]), t.meta, kids)

    def r_import_stmt(self, t, kids):
        return self.mk(Import(list(kids)), t.meta)

    def r_dotted_as_name(self, t, kids):
        return (kids[0], None if kids[1] is None else str(kids[1]))

    def r_dotted_name(self, t, kids):
        return ".".join(str(k) for k in kids)

    def r_from_import(self, t, kids):
        module = kids[0]
        if len(kids) == 2 and kids[1] == "*":
            return self.mk(ImportFrom(module, "*"), t.meta)
        return self.mk(ImportFrom(module, list(kids[1:])), t.meta)

    def r_import_as_name(self, t, kids):
        return (str(kids[0]), None if kids[1] is None else str(kids[1]))

    def r_import_star(self, t, kids):
        return "*"

    def r_if_stmt(self, t, kids):
        test, body = kids[0], kids[1]
        elifs = kids[2:-1]
        orelse = kids[-1] or []
        for (etest, ebody, emeta) in reversed(elifs):
            node = If(etest, ebody, orelse)
            _pos(node, emeta)
            self.nest(node, 1 + self.dmax(etest, ebody, orelse))
            orelse = [node]
        return self.mk(If(test, body, orelse), t.meta, test, body, orelse)

    def r_elif_clause(self, t, kids):
        return (kids[0], kids[1], t.meta)

    def r_else_clause(self, t, kids):
        return kids[0]

    def r_while_stmt(self, t, kids):
        test, body, orelse = kids
        return self.mk(While(test, body, orelse or []), t.meta, test, body, orelse)

    def r_for_stmt(self, t, kids):
        target, it, body, orelse = kids
        target = self.target(target)
        return self.mk(For(target, it, body, orelse or []), t.meta, target, it, body, orelse)

    def r_try_stmt(self, t, kids):
        body = kids[0]
        handlers = [k for k in kids[1:-2]]
        orelse, final = kids[-2], kids[-1]
        for h in handlers[:-1]:
            if h.type is None:
                raise self.error("default 'except:' must be last", h)
        return self.mk(Try(body, handlers, orelse or [], final or []), t.meta,
                       body, handlers, orelse, final)

    def r_try_finally(self, t, kids):
        body, final = kids
        return self.mk(Try(body, [], [], final), t.meta, body, final)

    def r_except_clause(self, t, kids):
        typ, name, body = kids
        return self.mk(ExceptHandler(typ, None if name is None else str(name), body),
                       t.meta, typ, body)

    def r_finally_clause(self, t, kids):
        return kids[0]

    def r_with_stmt(self, t, kids):
        items, body = kids[:-1], kids[-1]
        return self.mk(With(items, body), t.meta, items, body)

    def r_with_item(self, t, kids):
        expr, target = kids
        if target is not None:
            target = self.target(target)
        return (expr, target)

    def r_funcdef(self, t, kids):
        name, params, _returns, body = kids
        params = params or []
        doc = None
        if body and isinstance(body[0], ExprStmt) and isinstance(body[0].value, Constant) \
                and isinstance(body[0].value.value, str):
            doc = body[0].value.value
        node = FunctionDef(str(name), params, body, [], None, doc)
        return self.mk(node, t.meta, [p.default for p in params], body)

    def r_parameters(self, t, kids):
        return self.check_params(kids)

    def r_param(self, t, kids):
        name, _ann, default = kids
        return _tokpos(Param(str(name), "pos", default), name)

    def r_star_param(self, t, kids):
        name = kids[0]
        p = Param(None if name is None else str(name), "vararg", None)
        return _pos(p, t.meta)

    def r_kwstar_param(self, t, kids):
        return _tokpos(Param(str(kids[0]), "kwarg", None), kids[0])

    def r_lambda_params(self, t, kids):
        return self.check_params(kids)

    def r_lparam(self, t, kids):
        name, default = kids
        return _tokpos(Param(str(name), "pos", default), name)

    def r_lstar_param(self, t, kids):
        name = kids[0]
        return _pos(Param(None if name is None else str(name), "vararg", None), t.meta)

    def r_lkwstar_param(self, t, kids):
        return _tokpos(Param(str(kids[0]), "kwarg", None), kids[0])

    def check_params(self, params):
        seen = set()
        star = False
        kwarg = False
        default_seen = False
        for i, p in enumerate(params):
            if kwarg:
                raise self.error("arguments cannot follow var-keyword argument", p)
            if p.kind == "vararg":
                if star:
                    raise self.error("* argument may appear only once", p)
                star = True
                if p.name is None and (i == len(params) - 1 or params[i + 1].kind == "kwarg"):
                    raise self.error("named arguments must follow bare *", p)
            elif p.kind == "kwarg":
                kwarg = True
            else:
                if star:
                    p.kind = "kwonly"
                elif p.default is not None:
                    default_seen = True
                elif default_seen:
                    raise self.error("non-default argument follows default argument", p)
            if p.name is not None:
                if p.name in seen:
                    raise self.error(f"duplicate argument '{p.name}' in function definition", p)
                seen.add(p.name)
        return params

    def r_classdef(self, t, kids):
        name, args, body = kids
        bases, keywords = [], []
        for a in args or []:
            if isinstance(a, _Kw):
                keywords.append((a.name, a.value))
            elif isinstance(a, Starred):
                raise self.error("starred class bases are not supported", a)
            else:
                bases.append(a)
        node = ClassDef(str(name), bases, keywords, body, [])
        return self.mk(node, t.meta, bases, [v for _, v in keywords], body)

    def r_decorated(self, t, kids):
        decorators, definition = kids[:-1], kids[-1]
        definition.decorators = decorators
        _pos(definition, t.meta)
        return self.nest(definition, max(definition.depth, 1 + self.dmax(decorators)))

    def r_decorator(self, t, kids):
        return kids[0]

    # -- expressions
    def r_tuple(self, t, kids):
        return self.mk(Tuple(list(kids)), t.meta, kids)

    def r_star_expr(self, t, kids):
        return self.mk(Starred(kids[0]), t.meta, kids[0])

    def r_ifexp(self, t, kids):
        body, test, orelse = kids
        return self.mk(IfExp(test, body, orelse), t.meta, kids)

    def r_lambdef(self, t, kids):
        params, body = kids
        params = params or []
        return self.mk(Lambda(params, body, None), t.meta, [p.default for p in params], body)

    def r_or_op(self, t, kids):
        return self.boolop("or", t, kids)

    def r_and_op(self, t, kids):
        return self.boolop("and", t, kids)

    def boolop(self, op, t, kids):
        a, b = kids
        if isinstance(a, BoolOp) and a.op == op and getattr(a, "_chain", True):
            values = a.values + [b]
        else:
            values = [a, b]
        node = BoolOp(op, values)
        _pos(node, t.meta)
        return self.nest(node, max(a.depth, b.depth + 1))

    def unary(self, t, kids):
        return self.mk(UnaryOp(_UNARY[t.data], kids[0]), t.meta, kids[0])

    def binop(self, t, kids):
        a, b = kids
        node = BinOp(_BINOPS[t.data], a, b)
        _pos(node, t.meta)
        if t.data == "pow":
            return self.nest(node, 1 + max(a.depth, b.depth))
        return self.nest(node, max(a.depth, b.depth + 1))

    def cmpop(self, t, kids):
        return _CMP[t.data]

    def r_compare(self, t, kids):
        left = kids[0]
        ops = kids[1::2]
        comps = kids[2::2]
        return self.mk(Compare(left, ops, comps), t.meta, kids[0::2])

    def r_getattr(self, t, kids):
        obj, name = kids
        return self.mk(Attribute(obj, str(name)), t.meta, obj)

    def r_call(self, t, kids):
        func, args = kids
        pos, kws = [], []
        seen = set()
        for a in args or []:
            if isinstance(a, _Kw):
                if a.name is not None:
                    if a.name in seen:
                        raise self.error(f"keyword argument repeated: {a.name}", a.value)
                    seen.add(a.name)
                kws.append((a.name, a.value))
            else:
                if kws:
                    if isinstance(a, Starred):
                        if any(n is None for n, _ in kws):
                            raise self.error(
                                "iterable argument unpacking follows keyword argument unpacking", a)
                    else:
                        if any(n is None for n, _ in kws):
                            raise self.error(
                                "positional argument follows keyword argument unpacking", a)
                        raise self.error("positional argument follows keyword argument", a)
                pos.append(a)
        return self.mk(Call(func, pos, kws), t.meta, func, pos, [v for _, v in kws])

    def r_call_genexp(self, t, kids):
        func, (elt, gens, meta) = kids
        g = GeneratorExp(elt, gens)
        _pos(g, meta)
        self.nest(g, 1 + self.dmax(elt, gens))
        return self.mk(Call(func, [g], []), t.meta, func, g)

    def r_arguments(self, t, kids):
        return kids

    def r_kwarg(self, t, kids):
        return _Kw(str(kids[0]), kids[1])

    def r_star_arg(self, t, kids):
        return self.mk(Starred(kids[0]), t.meta, kids[0])

    def r_kwstar_arg(self, t, kids):
        return _Kw(None, kids[0])

    def r_getitem(self, t, kids):
        obj, index = kids
        return self.mk(Subscript(obj, index), t.meta, obj, index)

    def r_subscript_tuple(self, t, kids):
        return self.mk(Tuple(list(kids)), t.meta, kids)

    def r_slice(self, t, kids):
        lo, hi, step = kids
        return self.mk(Slice(lo, hi, step), t.meta, kids)

    def r_var(self, t, kids):
        tok = kids[0]
        if tok in _UNSUPPORTED_WORDS:
            raise self.error(f"'{tok}' is not supported in agrad scripts", tok)
        node = _tokpos(Name(str(tok)), tok)
        node.depth = 1
        return node

    def r_number(self, t, kids):
        tok = kids[0]
        text = str(tok).replace("_", "")
        try:
            if tok.type == "DEC_NUMBER":
                value = int(text, 10)
            elif tok.type in ("HEX_NUMBER", "OCT_NUMBER", "BIN_NUMBER"):
                value = int(text, 0)
            elif tok.type == "FLOAT_NUMBER":
                value = float(text)
            else:
                value = complex(0, float(text[:-1]))
        except ValueError:
            raise self.error("integer literal too large", tok) from None
        node = _tokpos(Constant(value), tok)
        node.depth = 1
        return node

    def r_strings(self, t, kids):
        parts: list = []
        any_f = False
        for tok in kids:
            prefix = _prefix(str(tok))
            if "b" in prefix:
                raise self.error("bytes literals are not supported", tok)
            if "f" in prefix:
                any_f = True
                parts.extend(self.fstring(tok, prefix))
            else:
                parts.append(self.plain_string(tok, prefix))
        if not any_f:
            node = _pos(Constant("".join(parts)), t.meta)
            node.depth = 1
            return node
        merged: list = []
        for p in parts:
            if isinstance(p, str) and merged and isinstance(merged[-1], str):
                merged[-1] += p
            elif p != "":
                merged.append(p)
        return self.mk(JoinedStr(merged), t.meta, [p for p in merged if isinstance(p, Node)])

    def plain_string(self, tok, prefix):
        text = str(tok)
        try:
            with _warnings.catch_warnings():
                _warnings.simplefilter("ignore")
                return _pyast.literal_eval(text)
        except (SyntaxError, ValueError) as e:
            raise self.error(f"invalid string literal ({getattr(e, 'msg', e)})", tok) from None

    def fstring(self, tok, prefix):
        from .fstrings import parse_fstring
        return parse_fstring(self, tok, prefix)

    def r_genexp(self, t, kids):
        elt, gens, _meta = kids[0]
        return self.mk(GeneratorExp(elt, gens), t.meta, elt, gens)

    def r_list(self, t, kids):
        return self.mk(List(list(kids)), t.meta, kids)

    def r_listcomp(self, t, kids):
        elt, gens, _meta = kids[0]
        return self.mk(ListComp(elt, gens), t.meta, elt, gens)

    def r_set(self, t, kids):
        return self.mk(Set(list(kids)), t.meta, kids)

    def r_setcomp(self, t, kids):
        elt, gens, _meta = kids[0]
        return self.mk(SetComp(elt, gens), t.meta, elt, gens)

    def r_dict(self, t, kids):
        return self.mk(Dict(list(kids)), t.meta, kids)

    def r_dictcomp(self, t, kids):
        key, value, gens = kids[0]
        return self.mk(DictComp(key, value, gens), t.meta, key, value, gens)

    def r_kv(self, t, kids):
        return (kids[0], kids[1])

    def r_kv_unpack(self, t, kids):
        return (None, kids[0])

    def r_comprehension(self, t, kids):
        return (kids[0], list(kids[1:]), t.meta)

    def r_dict_comprehension(self, t, kids):
        return (kids[0], kids[1], list(kids[2:]))

    def r_comp_for(self, t, kids):
        target = self.target(kids[0])
        node = Comprehension(target, kids[1], list(kids[2:]))
        return self.mk(node, t.meta, target, kids[1], kids[2:])

    def r_comp_if(self, t, kids):
        return kids[0]

    def r_ellipsis(self, t, kids):
        return self.const(..., t)

    def r_const_none(self, t, kids):
        return self.const(None, t)

    def r_const_true(self, t, kids):
        return self.const(True, t)

    def r_const_false(self, t, kids):
        return self.const(False, t)

    def const(self, value, t):
        node = _pos(Constant(value), t.meta)
        node.depth = 1
        return node

    # -- helpers
    def kind(self, node):
        return _KIND_NAMES.get(type(node).__name__, "expression")

    def target(self, node, starred_ok=False):
        if isinstance(node, Name):
            return node
        if isinstance(node, (Attribute, Subscript)):
            return node
        if isinstance(node, (Tuple, List)):
            stars = 0
            for e in node.elts:
                if isinstance(e, Starred):
                    stars += 1
                    if stars > 1:
                        raise self.error("multiple starred expressions in assignment", e)
                    self.target(e.value)
                else:
                    self.target(e)
            return node
        if isinstance(node, Starred):
            raise self.error("starred assignment target must be in a list or tuple", node)
        if isinstance(node, Constant):
            if node.value is None or node.value is True or node.value is False or node.value is ...:
                raise self.error(f"cannot assign to {node.value!r}", node)
        raise self.error(f"cannot assign to {self.kind(node)}", node)


def _prefix(text: str) -> str:
    i = 0
    while i < len(text) and text[i] not in "'\"":
        i += 1
    return text[:i].lower()


def build(tree, source: Source, *, max_nesting: int | None = None,
          line_offset: int = 0, col_offset: int = 0):
    """Turn a lark tree (start ``script`` or ``expression``) into AST nodes."""
    b = Builder(source, max_nesting, line_offset=line_offset, col_offset=col_offset)
    node = b.build(tree)
    if isinstance(node, Module):
        Checker(b).module(node.body)
    else:
        Checker(b).expr(node.body, None)
    return node
