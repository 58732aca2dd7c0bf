"""The LALR driver the parser runs on (:class:`FastLALR`): lark's own tables coded
as integers, positions on a parallel stack, and the lexer's patterns compiled
ahead (:class:`PrecompiledRe`), so that loading them from the fast cache takes
a few milliseconds.  :mod:`.parser` builds, caches and loads it.
"""

from __future__ import annotations

from .indenter import make_indenter

class FastLALR:
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

    The tables are lark's, coded as integers (:func:`encode_tables`): per
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
        self.postlex = make_indenter()()
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
        tables = encode_tables(lark_obj.parser.parser.parser.parse_table, rules)
        recorder = PrecompiledRe()
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
    rule origins, unit flags); see :class:`FastLALR`."""
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
