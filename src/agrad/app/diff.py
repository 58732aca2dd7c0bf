"""``agrad diff``: derivatives as expressions in the script's own names.

The derivative is the ``create_graph=True`` backward pass of the target: its
result is a tensor whose graph records, op by op, what each op's backward
formula computed (the formulas of ``src/agrad/ops``, written with agrad ops).
:class:`Capture` -- one of the engine's record hooks -- notes every recorded
op call (the op, its attributes, its inputs that need no gradient) while the
script runs and while agrad differentiates; :class:`Translator` then walks
the gradient's graph down to the leaves and turns each node into a
:mod:`.symbolic` expression through :data:`.readings.RULES`, which says how each op
*reads* (``MulBackward0`` is ``a * b``; a unary op is its torch function),
never how it differentiates: the derivative comes from the op table.

A node without a rule, a custom Function, or a formula that uses a value
it computed outside the graph (a mask such as ``x > 0``) has no symbolic
form: :class:`NoSymbolicForm` names the op, and the numeric value is still
shown.
"""

from __future__ import annotations

import weakref

import numpy as np

from . import symbolic as sx
from ..autograd.graph import accumulator_of
from .readings import _COMPARE, RULES, _RULES_TR, NoSymbolicForm, _attr, _unary_functions, has_symbolic_form  # noqa: F401


# ------------------------------------------------------------------ recording

class Capture:
    """A record hook (``agrad.autograd.graph.record_hooks``) and engine observer.

    ``calls``: node -> (op, constant inputs {index: tensor or number}, attrs)
    for every built-in op recorded while installed; ``script_consts``: the
    constant tensors (and arrays) the script's own ops read -- anything else
    a formula reads is a value the formula computed itself.
    """

    def __init__(self):
        self.calls = weakref.WeakKeyDictionary()
        self.formula_of = weakref.WeakKeyDictionary()  # node made by a formula -> the node it belongs to
        self.script_consts = {}  # id -> the object, kept alive so the id stays unique
        self.in_backward = False
        self.current = None
        self.masks = {}  # id(mask tensor) and id(its array) -> (op name, operands, mask)
        self.formula_masks = {}  # node whose formula ran -> the masks it made, in order
        self._held = []  # the stand-ins for masks an in-place logical op changed

    def __call__(self, node, inputs, outputs, call):
        if call is None or node in self.calls:
            return
        if len(call) != 3 or call[0] == "view":
            name = getattr(call[0], "__name__", None) or type(node).__name__
            self.calls[node] = ("custom" if len(call) != 3 else "view", name, None)
        else:
            op, arrays, attrs = call
            consts = {}
            for i, t in enumerate(inputs):
                if t is None:
                    if i < len(arrays):
                        consts[i] = arrays[i]
                elif not t._requires_grad:
                    consts[i] = t
                    if not self.in_backward:
                        self.script_consts[id(t)] = t
            for i in range(len(inputs), len(arrays)):  # numbers passed beside the tensors (rsub)
                consts[i] = arrays[i]
            if not self.in_backward:
                for v in attrs.values():
                    if isinstance(v, np.ndarray):
                        self.script_consts[id(v)] = v
            self.calls[node] = (op, consts, dict(attrs))
        if self.in_backward and self.current is not None:
            self.formula_of[node] = self.current

    def observe(self, node, grads):
        """engine.observers: the node whose formula runs next."""
        self.current = node

    def mask(self, name, operands, result):
        """ops.comparison.mask_hooks: where a comparison's (or logical op's) mask came from; an in-place
        logical op (``mask.logical_and_(m)``, clamp's backward) reads the mask as it was before."""
        from ..tensor import Tensor
        if operands and operands[0] is result:
            before = self.masks.get(id(result))
            if before is None:
                return
            held = Tensor._make(np.asarray(before[2]._data).copy())  # (a stand-in for the mask before, kept alive)
            self._held.append(held)
            self.masks[id(held)] = self.masks[id(held._data)] = (before[0], before[1], held)
            operands = (held,) + tuple(operands[1:])
        entry = (name, operands, result)
        self.masks[id(result)] = entry
        self.masks[id(result._data)] = entry
        if self.in_backward:  # a formula's masks, for the casts it makes of them ((x < 0).type_as(g))
            self.formula_masks.setdefault(self.current, []).append(entry)

    def __enter__(self):
        from ..autograd import graph
        from ..ops import comparison
        graph.record_hooks.append(self)
        comparison.mask_hooks.append(self.mask)
        return self

    def __exit__(self, *exc):
        from ..autograd import graph
        from ..ops import comparison
        graph.record_hooks.remove(self)
        comparison.mask_hooks.remove(self.mask)
        return False


# ------------------------------------------------------------------ graph -> expression

class Translator:
    """Turns gradient tensors (their graphs) into expressions."""

    def __init__(self, capture: Capture, leaf_name, names: dict, seeds=()):
        self.capture = capture
        self.leaf_name = leaf_name  # AccumulateGrad node -> name or None
        self.names = names  # id(tensor) -> the script's name for a constant tensor
        self.seeds = {id(t) for t in seeds}
        self.memo = {}
        self.unary = _unary_functions()
        self.constants = []  # [(name, value array)] of constants shown by name
        self._const_names = {}
        self._n_leaf = 0

    # constants --------------------------------------------------------
    def constant(self, value, node, *, bool_ok=False):
        from ..tensor import Tensor
        if value is None:
            return sx.num(0.0)
        m = self.capture.masks.get(id(value))
        if m is not None and m[2] is not None and (m[2] is value or m[2]._data is value):
            return self.mask_expr(m)
        if isinstance(value, Tensor):
            name = self.names.get(id(value))
            if name is not None:
                return sx.var(name, tuple(value._data.shape))
            arr, key = value._data, id(value)
        else:
            arr = np.asarray(value)
            key = id(value)
            if arr.ndim == 0 or not isinstance(value, np.ndarray):
                return sx.num(float(arr))
        shape = tuple(arr.shape)
        internal = key not in self.capture.script_consts and key not in self.seeds
        if internal and node is not None and arr.dtype.kind == "f":
            cast = self._cast_mask(arr, node)
            if cast is not None:
                return cast
        if internal and isinstance(value, Tensor):
            view = self._view_of_constant(value)
            if view is not None:
                return view
        if arr.dtype.kind == "b" and (internal and not bool_ok):
            raise NoSymbolicForm(self._formula_blame(node, "a mask"))
        if arr.size and arr.dtype.kind in "fiub" and (arr == arr.reshape(-1)[0]).all():
            return sx.num(float(arr.reshape(-1)[0]), shape)
        if internal and not bool_ok:
            raise NoSymbolicForm(self._formula_blame(node, "a value"))
        return self._named_constant(key, arr)

    def _view_of_constant(self, t):
        """A formula's view of a script constant (``W.t()`` in ``mv``'s formula), as an expression:
        the constant itself, reshaped or with its dims permuted."""
        import itertools
        from ..tensor import Tensor
        arr = t._data
        root = _root(arr)
        candidates = [c for c in self.capture.script_consts.values()
                      if isinstance(c, Tensor) and _root(c._data) is root]
        for c in candidates:
            whole = c._data
            if whole.size != arr.size:
                continue
            if whole.shape == arr.shape and np.array_equal(whole, arr):
                return self.constant(c, None)
            if whole.ndim == arr.ndim and whole.ndim <= 4 and sorted(whole.shape) == sorted(arr.shape):
                for p in itertools.permutations(range(whole.ndim)):
                    if whole.transpose(p).shape == arr.shape and np.array_equal(whole.transpose(p), arr):
                        src = self.constant(c, None)
                        if whole.ndim == 2:
                            return sx.permute(src, p, arr.shape, name="transpose", extras=(0, 1))
                        return sx.permute(src, p, arr.shape)
            if np.array_equal(whole.reshape(-1), arr.reshape(-1)):
                return sx.reshape(self.constant(c, None), arr.shape)
        return None

    def array_constant(self, arr):
        """A constant a reading rule made (a one-hot tensor): a number if uniform, else a name."""
        arr = np.ascontiguousarray(arr)
        if arr.size and (arr == arr.reshape(-1)[0]).all():
            return sx.num(float(arr.reshape(-1)[0]), arr.shape)
        return self._named_constant(("array", arr.shape, arr.dtype.str, arr.tobytes()), arr)

    def _cast_mask(self, arr, node):
        """A float copy of a mask the same formula just made (``(x < 0).type_as(grad)``)."""
        owner = self.capture.formula_of.get(node)
        if owner is None or not ((arr == 0) | (arr == 1)).all():
            return None
        for entry in reversed(self.capture.formula_masks.get(owner, ())):
            m = entry[2]._data
            if m.shape == arr.shape and np.array_equal(m, arr != 0):
                return self.mask_expr(entry)
        return None

    def mask_expr(self, entry):
        """A comparison (``x > 0``) or logical op of masks, from what it was computed from."""
        from ..tensor import Tensor
        name, operands, result = entry
        args = []
        for o in operands:
            if isinstance(o, Tensor):
                args.append(self.tensor(o) if o._requires_grad else self.constant(o, None, bool_ok=True))
            else:
                args.append(sx.num(float(o)))
        op = _COMPARE.get(name)
        if op is not None:
            return sx.compare(op, args[0], args[1])
        if name == "logical_and":
            return sx.logical_and(args[0], args[1])
        if name == "logical_or":
            return sx.logical_or(args[0], args[1])
        if name == "logical_not":
            return sx.logical_not(args[0])
        raise NoSymbolicForm(f"a mask made by {name} has no symbolic form")

    def _named_constant(self, key, arr):
        name = self._const_names.get(key)
        if name is None:
            name = f"c{len(self.constants) + 1}"
            taken = set(self.names.values())
            k = len(self.constants) + 1
            while name in taken:
                k += 1
                name = f"c{k}"
            self._const_names[key] = name
            self.constants.append((name, arr))
        return sx.var(name, tuple(arr.shape))

    def _formula_blame(self, node, what):
        owner = self.capture.formula_of.get(node) if node is not None else None
        if owner is not None:
            return (f"the derivative of {owner.name()} uses {what} its backward formula computed "
                    "outside the graph: it has no symbolic form")
        name = node.name() if node is not None else "an op"
        return f"{name} reads {what} computed outside the graph: it has no symbolic form"

    # the walk ---------------------------------------------------------
    def tensor(self, t):
        """The expression of tensor ``t`` (a gradient) in the leaves' names."""
        if t is None:
            return None
        if t._grad_fn is None:
            if id(t) in self.seeds:
                return sx.num(1.0, tuple(t._data.shape))
            acc = accumulator_of(t) if t._requires_grad else None
            if acc is not None:
                return self.edge((acc, 0))
            return self.constant(t, None)
        return self.edge((t._grad_fn, t._output_nr))

    def edge(self, root):
        from ..autograd.graph import AccumulateGrad
        memo = self.memo
        stack = [root]
        while stack:
            key = stack[-1]
            if key in memo:
                stack.pop()
                continue
            node, nr = key
            if isinstance(node, AccumulateGrad):
                stack.pop()
                memo[key] = self._leaf(node)
                continue
            pending = [e for e in node.next_functions if e[0] is not None and e not in memo]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            memo[key] = self._node(node, nr)
        return memo[root]

    def _leaf(self, node):
        var = node.variable
        if var is not None and id(var) in self.seeds:
            return sx.num(1.0, tuple(var._data.shape))
        name = self.leaf_name(node)
        if name is None:
            self._n_leaf += 1
            name = f"leaf{self._n_leaf}"
        shape = tuple(var._data.shape) if var is not None else tuple(node._out_meta[0][0])
        return sx.var(name, shape)

    def _node(self, node, nr):
        info = self.capture.calls.get(node)
        name = node.name()
        if info is None:
            raise NoSymbolicForm(f"{name} was not recorded while agrad watched: it has no symbolic form")
        if info[0] in ("custom", "view"):
            what = "a custom Function" if info[0] == "custom" else "an in-place op on a view"
            raise NoSymbolicForm(f"{name} is {what}: it has no symbolic form")
        op, consts, attrs = info
        self.node = node
        args = []
        for i, (fn, k) in enumerate(node.next_functions):
            if fn is not None:
                args.append(self.memo[(fn, k)])
            else:
                args.append(self.constant(consts.get(i), node))
        for i in range(len(node.next_functions), len(consts) + len(node.next_functions)):
            if i in consts:
                args.append(self.constant(consts[i], node))
        shape = tuple(node._out_meta[nr][0]) if nr < len(node._out_meta) else ()
        rule = RULES.get(name)
        if rule is not None:
            return rule(args, info, shape)
        if name == "UnbindBackward0":
            dim = _attr(info, "dim")
            return sx.index(args[0], sx.index_text((slice(None),) * dim + (nr,)), shape)
        rule = _RULES_TR.get(name)
        if rule is not None:
            return rule(args, info, shape, self)
        fname = self.unary.get(op)
        if fname is not None and len(args) == 1 and not attrs:
            a = args[0]
            if a.kind == "num":
                return sx.num(_fold(fname, a.data), shape)
            return sx.call(fname, (a,), shape, pointwise=True)
        owner = self.capture.formula_of.get(node)
        if owner is not None and owner.name() != name:
            raise NoSymbolicForm(f"the derivative of {owner.name()} uses {name}, which has no symbolic form")
        raise NoSymbolicForm(f"{name} has no symbolic form")


def _root(arr):
    while arr.base is not None and isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr


def _fold(fname, v):
    import agrad
    from ..ops._op import FUNCTIONS
    with np.errstate(all="ignore"):
        return float(FUNCTIONS[fname](agrad.tensor(v, dtype=agrad.float64))._data)


# ------------------------------------------------------------------ the derivatives

class Derivative:
    """One derivative: its label, the expression (or why there is none), its value."""

    def __init__(self, of, wrt, expr, reason, value, dtype):
        self.of, self.wrt = of, tuple(wrt)
        self.expr, self.reason = expr, reason
        self.value, self.dtype = value, dtype  # numpy array, dtype name

    @property
    def label(self) -> str:
        n = len(self.wrt)
        if n == 1:
            return f"d{self.of}/d{self.wrt[0]}"
        if len(set(self.wrt)) == 1:
            return f"d{n}{self.of}/d{self.wrt[0]}{n}"
        return f"d{n}{self.of}/" + "".join(f"d{w}" for w in self.wrt)

    @property
    def latex_label(self) -> str:
        n = len(self.wrt)
        top = sx.latex_name(self.of)
        if n == 1:
            return rf"\frac{{\partial {top}}}{{\partial {sx.latex_name(self.wrt[0])}}}"
        if len(set(self.wrt)) == 1:
            return rf"\frac{{\partial^{n} {top}}}{{\partial {sx.latex_name(self.wrt[0])}^{n}}}"
        den = r" \, ".join(rf"\partial {sx.latex_name(w)}" for w in self.wrt)
        return rf"\frac{{\partial^{n} {top}}}{{{den}}}"


class Result:
    """Everything ``agrad diff`` shows."""

    def __init__(self, target, derivatives, translator, summed):
        self.target = target
        self.derivatives = derivatives
        self.constants = translator.constants  # [(name, array)]
        self.summed = summed  # the target is not a scalar: these are the derivatives of its sum
        roots = [d.expr for d in derivatives]
        taken = set(translator.names.values()) | {n for n, _ in self.constants}
        self.named = sx.Named(roots, taken=taken)
        names = self.named.names
        # a derivative that is itself a repeated expression prints in full, not as t1
        self.definitions = [(names[id(e)], e) for e in self.named.order]
        self.names = names

    def text(self, e) -> str:
        return sx.to_text(e, self.names)

    def latex(self, e) -> str:
        return sx.to_latex(e, self.names)

    def tree(self, e):
        return sx.to_tree(e, self.names)

    @staticmethod
    def latex_name(name: str) -> str:
        return sx.latex_name(name)


def differentiate(target, target_name, leaves, order, capture, leaf_name, names):
    """The derivatives of ``target`` of ``order`` 1 or 2 w.r.t. ``leaves`` [(name, tensor)]."""
    from ..autograd import engine, grad_mode
    from ..tensor import Tensor

    ts = [t for _, t in leaves]
    # The seed requires grad, so that every op of the backward pass is recorded -- also
    # those that only combine it with constants (x * W: the gradient W is seed * W).
    seed = Tensor._make(np.ones(target._data.shape, target._data.dtype), requires_grad=True)
    seeds = [seed]
    pairs = []  # (indices into leaves, gradient tensor or None)
    capture.in_backward = True
    engine.observers.append(capture.observe)
    try:
        with capture, grad_mode.enable_grad():
            first = engine.grad([target], ts, [seed], retain_graph=True, create_graph=True,
                                allow_unused=True)
            if order == 1:
                pairs = [((i,), g) for i, g in enumerate(first)]
            else:
                for i, g in enumerate(first):
                    rest = ts[i:]
                    if g is None or not g._requires_grad:
                        pairs += [((i, i + j), None) for j in range(len(rest))]
                        continue
                    s2 = Tensor._make(np.ones(g._data.shape, g._data.dtype), requires_grad=True)
                    seeds.append(s2)
                    second = engine.grad([g], rest, [s2], retain_graph=True, create_graph=True,
                                         allow_unused=True)
                    pairs += [((i, i + j), h) for j, h in enumerate(second)]
    finally:
        capture.in_backward = False
        capture.current = None
        engine.observers.remove(capture.observe)
    tr = Translator(capture, leaf_name, names, seeds)
    out = []
    with sx.Table():
        for idx, g in pairs:
            leaf = ts[idx[-1]]
            shape = tuple(leaf._data.shape)
            if g is None:
                value = np.zeros(shape)
                expr, reason = sx.num(0.0, shape), None
            else:
                value = np.array(g._data)
                try:
                    expr, reason = tr.tensor(g), None
                except NoSymbolicForm as exc:
                    expr, reason = None, str(exc)
                except RecursionError:
                    expr, reason = None, "the expression is too deeply nested to print"
                except sx.TooLarge as exc:
                    expr, reason = None, f"the expression is too large to print ({exc})"
            out.append(Derivative(target_name, [leaves[k][0] for k in idx], expr, reason, value,
                                  leaf.dtype.name))
        result = Result(target_name, out, tr, summed=target._data.size != 1)
    return result


# ------------------------------------------------------------------ checking what is printed

def verify(result, namespace, *, rtol=1e-3, atol=1e-5):
    """Evaluate the printed expressions with agrad's language in ``namespace``; a derivative
    whose expression disagrees with its value loses the expression (and says why)."""
    values = evaluate(result, namespace)
    for d, v in zip(result.derivatives, values):
        if d.expr is None:
            continue
        if isinstance(v, str):
            d.reason = f"its expression could not be evaluated ({v}); agrad shows only the value"
        elif not _close(v, d.value, rtol, atol):
            d.reason = ("its expression does not evaluate to the gradient (an agrad bug: please "
                        "report it); agrad shows only the value")
        else:
            continue
        d.expr = None


def _close(v, ref, rtol, atol):
    try:
        v = np.broadcast_to(np.asarray(v, dtype=np.float64), ref.shape)
    except ValueError:
        return False
    ref = ref.astype(np.float64)
    scale = atol * max(1.0, float(np.nanmax(np.abs(ref))) if ref.size and np.isfinite(ref).any() else 1.0)
    return bool(np.allclose(v, ref, rtol=rtol, atol=scale, equal_nan=True))


def script_of(result) -> tuple[str, list[str]]:
    """The definitions and expressions as one agrad script; the names holding the derivatives."""
    lines = [f"{name} = {sx.to_text(e, result.names)}" for name, e in result.definitions]
    out = []
    for k, d in enumerate(result.derivatives):
        if d.expr is not None:
            lines.append(f"_agrad_d{k} = {result.text(d.expr)}")
            out.append(f"_agrad_d{k}")
        else:
            out.append(None)
    return "\n".join(lines) + "\n", out


def evaluate(result, namespace):
    """The value of each derivative's expression (None without one, a message on failure)."""
    import agrad
    from .. import lang
    from ..tensor import Tensor

    text, names = script_of(result)
    if not any(names):
        return [None] * len(names)
    bindings = dict(namespace)
    for name, arr in result.constants:
        bindings[name] = Tensor._make(np.array(arr))
    bindings.update(sum=agrad.sum, inf=float("inf"), nan=float("nan"))
    r = lang.run(lang.Source("<diff>", text), bindings)
    if r.error is not None:
        msg = f"{r.error.type_name}: {r.error.message}"
        return [msg if n else None for n in names]
    out = []
    for n in names:
        v = r.namespace.get(n) if n else None
        out.append(np.asarray(v._data) if isinstance(v, Tensor) else (None if v is None else np.asarray(v)))
    return out


# ------------------------------------------------------------------ the command

def run_diff(req, kw) -> int:
    """The body of ``agrad diff``: run the script, differentiate the target, show the result."""
    from ..render import diffview
    from ..tensor import Tensor
    from .commands import (EXIT_OK, EXIT_SCRIPT, _Live, _output, _script_error_code, _show_error,
                           _show_warnings, _start, _suggest, _target_note, _usage)
    from .session import describe, leaf_names

    out = _output(kw)
    fmt = out.format
    as_json = fmt == "json"
    live = _Live(req, out, show_output=False)
    capture = Capture()
    s, usage = _start(req, kw, capture=capture, record_calls=True)
    if usage is not None:
        return _usage(out, "diff", usage)
    if s.error is not None:
        if as_json:
            from ..render.evalview import error_json
            out.json(diffview.diff_json(None, error=error_json(s.error)))
        else:
            _show_warnings(out, s.warnings[live.warned:])
            _show_error(out, s.error)
        return _script_error_code(s.error)
    if not as_json:
        _show_warnings(out, s.warnings[live.warned:])
    t, name = s.target, s.target_name
    problem = None
    if name is None:
        problem = "the script bound no tensor: nothing to differentiate"
    elif not isinstance(t, Tensor):
        problem = f"the target {name} is {describe(t)}, not a tensor: nothing to differentiate" + _suggest(s)
    elif not t._requires_grad:
        problem = f"{name} does not require grad: nothing to differentiate" + _suggest(s)
    elif t._grad_fn is None:
        problem = f"{name} is a leaf: there is nothing to differentiate" + _suggest(s)
    elif not t.dtype.is_floating_point:
        problem = f"{name} is {t.dtype.name}: only float targets can be differentiated"
    if problem is not None:
        return _usage(out, "diff", problem)
    names = leaf_names(s)
    leaves = _leaves_of(t, names)
    leaf_name = {accumulator_of(lt): n for n, lt in leaves}.get
    wrt = list(dict.fromkeys(kw.get("wrt") or ()))
    if wrt:
        known = {n for n, _ in leaves}
        unknown = [w for w in wrt if w not in known]
        if unknown:
            have = ", ".join(n for n, _ in leaves) or "none"
            return _usage(out, "diff", f"--wrt {unknown[0]}: not a leaf that {name} depends on "
                                       f"(its leaves: {have})")
        leaves = [next(lt for lt in leaves if lt[0] == w) for w in wrt]
    if not leaves:
        return _usage(out, "diff", f"{name} depends on no leaf that requires grad")
    _target_note(out, s)
    if t._data.size != 1:
        shape = "[" + ", ".join(map(str, t._data.shape)) + "]"
        out.info(f"agrad: {name} has shape {shape}: these are the derivatives of sum({name}) "
                 "(a vector-Jacobian product with ones)")
    const_names = {}
    for k, v in s.namespace.items():
        if isinstance(v, Tensor) and not v._requires_grad:
            const_names.setdefault(id(v), k)
    try:
        if _freed(t):
            from .check import CheckError
            try:
                t, leaves = _replay(s, t, leaves, capture, const_names)
            except CheckError as exc:
                raise RuntimeError(str(exc)) from None
            leaf_name = {accumulator_of(lt): n for n, lt in leaves}.get
            out.info(f"agrad: the script's backward pass freed the graph of {name}: agrad differentiates "
                     "it replayed from its leaves, in float64")
        result = differentiate(t, name, leaves, kw.get("order") or 1, capture, leaf_name, const_names)
    except RuntimeError as exc:
        message = str(exc)
        if "backward through the graph a second time" in message:
            message = (f"the script's own backward pass freed the graph of {name}; call it with "
                       "retain_graph=True, or leave it out (agrad diff differentiates by itself)")
        err = {"type": "RuntimeError", "message": message, "source": None, "line": None, "column": None}
        if as_json:
            out.json(diffview.diff_json(None, error=err))
        else:
            out.note(f"agrad: cannot differentiate {name}: {message}")
        return EXIT_SCRIPT
    verify(result, s.namespace)
    if as_json:
        out.json(diffview.diff_json(result))
    elif fmt == "latex":
        diffview.render_latex(out, result)
    elif fmt == "rich":
        diffview.render_rich(out, result)
    else:
        diffview.render_text(out, result)
    return EXIT_OK


def _freed(target) -> bool:
    """Whether a backward pass already freed saved tensors of ``target``'s graph."""
    seen, stack = set(), [target._grad_fn]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        if n._saved and any(slot.freed for slot in n._saved.values()):
            return True
        stack.extend(fn for fn, _ in n.next_functions if fn is not None)
    return False


def _replay(s, target, leaves, capture, const_names):
    """``target`` recomputed from its leaves (``agrad check``'s float64 replay), with new leaves
    of the same names; the replay's constants take the names of equal script constants."""
    from ..autograd import grad_mode
    from ..tensor import Tensor
    from .check import Replay

    replay = Replay((target._grad_fn, target._output_nr), s.calls)
    fresh = {leaf: Tensor._make(replay.leaf_values[leaf].copy(), requires_grad=True) for leaf in replay.leaves}
    before = set(capture.script_consts)
    with capture, grad_mode.enable_grad():
        new_target = replay.run(fresh)
    named = [(k, v) for k, v in s.namespace.items() if isinstance(v, Tensor) and not v._requires_grad]
    for key in set(capture.script_consts) - before:
        c = capture.script_consts[key]
        if isinstance(c, Tensor):
            for k, v in named:
                if v._data.shape == c._data.shape and np.array_equal(v._data, c._data):
                    const_names[key] = k
                    break
    new_leaves = []
    for name, lt in leaves:
        acc = accumulator_of(lt)
        if acc in fresh:
            new_leaves.append((name, fresh[acc]))
    return new_target, new_leaves


def _leaves_of(target, names):
    """[(name, leaf tensor)] of the leaves ``target`` depends on, in the script's order."""
    from ..autograd.graph import AccumulateGrad
    found, seen, stack = [], set(), [target._grad_fn]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        if isinstance(n, AccumulateGrad):
            if n.variable is not None:
                found.append(n)
            continue
        stack.extend(fn for fn, _ in n.next_functions if fn is not None)
    order = {node: k for k, node in enumerate(names)}
    found.sort(key=lambda n: order.get(n, len(order)))
    out, k = [], 0
    for n in found:
        name = names.get(n)
        if name is None:
            k += 1
            name = f"leaf{k}"
        out.append((name, n.variable))
    return out
