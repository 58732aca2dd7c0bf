"""The LALR driver scripts are parsed with (:class:`FastLALR`), without lark.

lark builds the grammar's LALR table once (:mod:`.parser` caches it); what the
driver needs of it is plain data in the fast cache, made by :func:`from_lark`:

* the table coded as integers (:func:`encode_tables`): per state a dict from a
  symbol to a shift or goto target (``>= 0``) or a reduction by rule ``~code``;
  rules are indexes into lists of their sizes and origins;
* per rule, how lark's tree builder shapes its node (:func:`_rule_shape`): the
  children kept, ``_rule`` children inlined, ``None`` for an absent ``[x]``,
  a ``?rule`` with one child replaced by it;
* the lexer: the terminals' combined patterns, with their SRE code compiled ahead
  (:class:`PrecompiledRe`), the keywords each name-like terminal gives way to,
  and the terminals that are skipped or may span lines.

The trees and tokens are the same as lark's -- same node names, children and
``meta`` positions; :class:`Token` is a ``str`` with lark's fields -- so the
builder reads either.  Positions travel on a parallel stack and are written
only into trees that are made; unit reductions (a ``?rule`` with one
non-terminal child) skip the tree builder.  A text that does not parse raises
:class:`ParseFailure`; :mod:`.parser` then lets lark's own parser find the same
error and explain it, so lark is imported only for a syntax error (or to build
the cache).
"""

from __future__ import annotations

from .indenter import ScriptIndenter


class Token(str):
    """A token: its text, the terminal's name and its position (lark's ``Token`` fields)."""

    __slots__ = ("type", "start_pos", "value", "line", "column", "end_line", "end_column", "end_pos")

    def __new__(cls, type, value, start_pos=None, line=None, column=None, end_line=None,
                end_column=None, end_pos=None):
        inst = str.__new__(cls, value)
        inst.type = type
        inst.start_pos = start_pos
        inst.value = value
        inst.line = line
        inst.column = column
        inst.end_line = end_line
        inst.end_column = end_column
        inst.end_pos = end_pos
        return inst

    @classmethod
    def new_borrow_pos(cls, type_, value, borrow):
        return cls(type_, value, borrow.start_pos, borrow.line, borrow.column, borrow.end_line,
                   borrow.end_column, borrow.end_pos)

    def __repr__(self):
        return f"Token({self.type!r}, {self.value!r})"


class Meta:
    """A tree's position; no attributes when it has none (as lark's ``Meta``)."""

    __slots__ = ("line", "column", "end_line", "end_column", "empty")


class Tree:
    """A node of the parse tree: the rule's name, its children, its position."""

    __slots__ = ("data", "children", "meta")

    def __init__(self, data, children):
        self.data = data
        self.children = children
        self.meta = Meta()

    def __repr__(self):
        return f"Tree({self.data!r}, {self.children!r})"


class ParseFailure(Exception):
    """The text does not parse: ``token`` is where (None for a character no terminal
    matches), ``expected`` the terminals that could have come there."""

    def __init__(self, token, expected=frozenset()):
        super().__init__(token)
        self.token = token
        self.expected = expected


class _Scanner:
    """Terminals as combined patterns (named groups), tried in order."""

    __slots__ = ("mres",)

    def __init__(self, mres):
        self.mres = mres

    def match(self, text, pos):
        for mre in self.mres:
            m = mre.match(text, pos)
            if m:
                return m.group(0), m.lastgroup
        return None

    def fullmatch(self, text):
        for mre in self.mres:
            m = mre.fullmatch(text)
            if m:
                return m.lastgroup
        return None


def _callback(name, expand1, to_include, append_none):
    """The tree builder of one rule (lark's ``ChildFilterLALR`` + ``ExpandSingleChild``)."""
    if to_include is None:
        if expand1:
            return lambda children: children[0] if len(children) == 1 else Tree(name, children)
        return lambda children: Tree(name, children)

    def build(children):
        filtered = []
        for i, to_expand, add_none in to_include:
            if add_none:
                filtered += [None] * add_none
            if to_expand:
                if filtered:
                    filtered += children[i].children
                else:  # left recursion: take the child's list over
                    filtered = children[i].children
            else:
                filtered.append(children[i])
        if append_none:
            filtered += [None] * append_none
        if expand1 and len(filtered) == 1:
            return filtered[0]
        return Tree(name, filtered)

    return build


class FastLALR:
    """The parser: lexer, post-lexer (:class:`.indenter.ScriptIndenter`) and LALR driver."""

    def __init__(self, data):
        tables, shapes, lexer, compiled = data
        (self.states, self.start_states, self.end_states, self.sizes, self.origins,
         self.unit) = tables
        self.callbacks = [_callback(*shape) for shape in shapes]
        re_ = PrecompiledRe(compiled)
        mres, unless, self.ignore_types, self.newline_types = lexer
        self.scanner = _Scanner([re_.compile(p, f) for p, f in mres])
        self.unless = {t: _Scanner([re_.compile(p, f) for p, f in pats]) for t, pats in unless.items()}
        self.postlex = ScriptIndenter(Token)

    def lex(self, text):
        """Tokens as lark's basic lexer makes them (before the post-lexer)."""
        match = self.scanner.match
        ignore, newline, unless = self.ignore_types, self.newline_types, self.unless
        pos, line, line_start, end = 0, 1, 0, len(text)
        while pos < end:
            res = match(text, pos)
            if res is None:
                raise ParseFailure(None)
            value, type_ = res
            column = pos - line_start + 1
            start_line = line
            if type_ in newline:
                n = value.count("\n")
                if n:
                    line += n
                    line_start = pos + value.rindex("\n") + 1
            new_pos = pos + len(value)
            if type_ not in ignore:
                tok = Token(type_, value, pos, start_line, column, line, new_pos - line_start + 1, new_pos)
                keywords = unless.get(type_)
                if keywords is not None:
                    kw = keywords.fullmatch(value)
                    if kw is not None:
                        tok.type = kw
                yield tok
            pos = new_pos

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
        states = self.states
        callbacks = self.callbacks
        sizes = self.sizes
        origins = self.origins
        unit = self.unit
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
                    raise ParseFailure(token, self.expected(state_stack, end_state))
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

        for token in self.postlex.process(self.lex(text)):
            feed(token)
        end = Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)
        return feed(end, True)


def from_lark(lark_obj):
    """What the fast cache stores of a Lark parser (plain data: pickle loads it without
    lark), or None when the grammar uses what the driver does not do."""
    import copy

    from lark.lexer import BasicLexer, UnlessCallback
    from lark.parse_tree_builder import (ChildFilterLALR, ChildFilterLALR_NoPlaceholders,
                                         maybe_create_child_filter)

    conf = copy.copy(lark_obj.lexer_conf)
    if conf.callbacks or lark_obj.options.lexer != "basic" or lark_obj.options.parser != "lalr":
        return None
    conf.postlex = None
    conf.skip_validation = True  # lark checked every terminal when it built the grammar
    recorder = PrecompiledRe()
    conf.re_module = recorder
    lexer = BasicLexer(conf)
    scanner = lexer.scanner  # compiles the lexer's patterns (recorded for the cache)
    keys = {id(compiled): key for key, compiled in recorder._patterns.items()}
    unless = {}
    for type_, cb in lexer.callback.items():
        if type(cb) is not UnlessCallback:
            return None
        unless[str(type_)] = [keys[id(m)] for m in cb.scanner._mres]
    lexer_data = ([keys[id(m)] for m in scanner._mres], unless, frozenset(map(str, lexer.ignore_types)),
                  frozenset(map(str, lexer.newline_types)))

    rules = list(lark_obj.rules)
    placeholders = lark_obj.options.maybe_placeholders
    shapes = []
    for rule in rules:
        options = rule.options
        name = str(rule.alias or options.template_source or rule.origin.name)
        expand1 = bool(options.expand1 and not rule.alias)
        filt = maybe_create_child_filter(rule.expansion, options.keep_all_tokens, False,
                                         options.empty_indices if placeholders else None)
        if filt is None:
            shapes.append((name, expand1, None, 0))
        elif filt.func is ChildFilterLALR:
            to_include, append_none = filt.args
            shapes.append((name, expand1, [tuple(x) for x in to_include], append_none))
        elif filt.func is ChildFilterLALR_NoPlaceholders:
            shapes.append((name, expand1, [(i, x, 0) for i, x in filt.args[0]], 0))
        else:
            return None
    tables = encode_tables(lark_obj.parser.parser.parser.parse_table, rules)
    return tables, shapes, lexer_data, recorder.recorded()


class PrecompiledRe:
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


def encode_tables(parse_table, rules):
    """lark's LALR table as integers: (states, start states, end states, rule sizes,
    rule origins, unit flags); names as plain ``str`` (lark's are Tokens: no lark
    class may be in the cache, or loading it would import lark)."""
    from lark.grammar import NonTerminal
    from lark.parsers.lalr_analysis import Shift

    index = {rule: i for i, rule in enumerate(rules)}
    states = [None] * (max(parse_table.states) + 1)
    for s, actions in parse_table.states.items():
        states[s] = {str(sym): (arg if action is Shift else ~index[arg])
                     for sym, (action, arg) in actions.items()}
    sizes = [len(rule.expansion) for rule in rules]
    origins = [str(rule.origin.name) for rule in rules]
    unit = [bool(rule.options.expand1 and not rule.alias and len(rule.expansion) == 1
                 and isinstance(rule.expansion[0], NonTerminal)
                 and not rule.expansion[0].name.startswith("_")) for rule in rules]
    return (states, {str(k): v for k, v in parse_table.start_states.items()},
            {str(k): v for k, v in parse_table.end_states.items()}, sizes, origins, unit)
