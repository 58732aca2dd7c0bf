"""Random programs over agrad's whole op table, for the differential tester (tools/difftest.py).

A program is a list of Python statements using ``torch`` and ``F`` (its
``nn.functional``). The generator is shape- and dtype-aware because it runs
each candidate statement under PyTorch while it builds the program: the live
tensors' real shapes and dtypes steer the next arguments, and a statement
PyTorch rejects is kept only now and then (the error text is then compared).

What a program draws from: every public function and method of the op table
(``agrad.ops``: torch.*, Tensor methods, F.*, torch.linalg.*) with arguments
and keyword arguments chosen by parameter name; Python operators and their
in-place forms; 0-d, empty, non-contiguous (transposed, strided, expanded)
inputs of float32/float64/float16/int64/int32/uint8/bool dtypes; out= tensors
(tools/diffgen_out.py); in-place ops and item assignment on views; hooks and ``retain_grad``; ``backward`` with and
without ``gradient=``, ``create_graph`` and ``autograd.grad`` second derivatives.
"""

from __future__ import annotations

import inspect
import math
import os
import random
import warnings

import diffgen_out
from diffgen_recipes import RECIPES, special_arg

FRACTIONAL = {"fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
              "fractional_max_pool3d_with_indices"}
#: The share of the calls of a function with a recipe (diffgen_recipes.py) that use it: the rest take
#: random live tensors, mostly a test of PyTorch's argument checks.
RECIPE_SHARE = 0.85

#: Functions (a name, or one form: "Tensor.x") never drawn, with the reason (tools/difftest_coverage.py
#: lists every other public function the generator does not draw).
SKIPPED = {
    "manual_seed": "resets the random stream a seeded program starts with",
    "seed": "reseeds from the clock: nothing to compare",
    "initial_seed": "reads the global seed a program set (seeded programs compare the stream itself)",
    "get_rng_state": "global generator state",
    "set_rng_state": "global generator state",
    "empty": "uninitialised memory",
    "empty_like": "uninitialised memory",
    "empty_strided": "uninitialised memory",
    "new_empty": "uninitialised memory",
    "new_empty_strided": "uninitialised memory",
    "from_numpy": "takes a numpy array, which programs do not have",
    "cpu": "a copy to the one device there is: drawn through to()",
    "type": "a string result naming the class (torch.FloatTensor) that agrad spells as PyTorch but is no op",
    "LinAlgError": "an exception class",
    "tensor": "the literal every program builds its inputs with",
    "as_tensor": "the literal every program builds its inputs with",
    "__setitem__": "drawn as item assignment (view_inplace)",
    "__getitem__": "drawn as indexing (view_inplace)",
    "default_generator": "an object (the global generator), not a function",
    "channels_last": "a torch.memory_format constant, not a function (memory_format= is drawn: diffgen_recipes)",
    "channels_last_3d": "a torch.memory_format constant, not a function",
    "contiguous_format": "a torch.memory_format constant, not a function",
    "preserve_format": "a torch.memory_format constant, not a function",
    "data_ptr": "a made-up address (docs/semantics.md)",
    "const_data_ptr": "a made-up address (docs/semantics.md)",
    "bfloat16": "a dtype agrad does not have (a NotImplementedError)",
    "cfloat": "a dtype agrad does not have (a NotImplementedError)",
    "cdouble": "a dtype agrad does not have (a NotImplementedError)",
    "chalf": "a dtype agrad does not have (a NotImplementedError)",
}
SKIP = {name for name in SKIPPED if "." not in name}
#: Functions every call of which PyTorch 2.13 rejects: drawn, and kept (now and then) as a test of the error.
ERRORS_ONLY = {
    "eig": "removed in PyTorch 1.9 (its message names linalg.eig)",
    "symeig": "removed in PyTorch 1.9 (its message names linalg.eigh)",
    "lstsq": "removed in PyTorch 1.9 (its message names linalg.lstsq)",
    "solve": "removed in PyTorch 1.9 (its message names linalg.solve)",
    "matrix_rank": "removed in PyTorch 1.9 (its message names linalg.matrix_rank)",
    "cuda": "no CUDA on a CPU build: 'Torch not compiled with CUDA enabled'",
    "imag": "real tensors only: 'imag is not implemented for tensors with non-complex dtypes.'",
    "pin_memory": "no accelerator: 'Cannot access accelerator device when none is available.'",
}
# Functions that draw from the random stream: drawn only in seeded programs (about one in ten), which
# start with ``torch.manual_seed(k)``, so PyTorch's CPU generator and agrad's must give the same numbers.
RANDOM = {
    "rand", "rand_like", "randn", "randn_like", "randint", "randint_like", "randperm", "bernoulli",
    "bernoulli_", "multinomial", "normal", "normal_", "uniform_", "exponential_", "random_", "cauchy_",
    "geometric_", "log_normal_", "dropout", "dropout_", "dropout1d", "dropout2d", "dropout3d",
    "feature_dropout", "alpha_dropout", "feature_alpha_dropout", "rrelu", "rrelu_", "gumbel_softmax",
    "fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d_with_indices",
}
SEEDED_SHARE = 0.1
#: Parameters never passed (defaults only), with the reason.
NEVER = {
    "out": "PyTorch's Tensor methods take no out= (a TypeError); the torch/F/linalg/special forms draw it "
           "(tools/diffgen_out.py)",
    "device": "the one device there is",
    "layout": "strided is the only layout",
    "generator": "programs use the global generator (seeded programs)",
    "_stacklevel": "private",
    "size_average": "deprecated (reduction= is drawn)",
    "reduce": "deprecated (reduction= is drawn)",
    "requires_grad": "inputs are made with requires_grad= by the program's literals",
    "non_blocking": "no effect on one device",
    "copy": "to(copy=True) gives what a copy gives",
    "pin_memory": "no pinned memory on CPU-only builds",
    "cudnn_enable": "no cuDNN",
    "sparse": "sparse tensors are not modelled",
    "scale_grad_by_freq": "embedding's option, tested by the nn golden cases",
    "max_norm": "embedding's in-place renorm of the weight, tested by the nn golden cases",
    "norm_type": "embedding's renorm option (lp_pool's required norm_type is drawn)",
    "sparse_grad": "sparse gradients are not modelled",
    "seed": "global generator state",
    "indexing": "meshgrid's indexing=, tested by the op golden cases",
    "is_grads_batched": "vmap over gradients is not modelled",
}
#: Parameters of one function (a name or a form) never passed, with the reason.
NEVER_FOR: dict[str, dict[str, str]] = {
    "Tensor.set_": {p: "set_(source, storage_offset, size, stride) views a storage, which programs do not make; "
                       "drawn as set_() and set_(tensor)" for p in ("storage_offset", "size", "stride")},
    "linear_cross_entropy": {"options": "chunking options of PyTorch's fused kernel (no effect on the values)"},
}
PRIMARY = {"input", "self", "A", "x", "a", "x1", "tensor", "input1", "ndarray", "anchor", "logits"}
SECOND = {"other", "input2", "x2", "b", "B", "tensor1", "tensor2", "mat2", "vec", "vec2", "mat1", "mat",
          "batch1", "batch2", "weight", "target", "source", "src", "values", "end", "exponent", "y", "var",
          "bias", "pos_weight", "vec1", "positive", "negative", "bound", "append", "prepend", "the_template"}
BOOLS = {"keepdim", "descending", "stable", "sorted", "largest", "unbiased", "equal_nan", "return_inverse",
         "return_counts", "log_input", "full", "log_target", "training", "inplace", "left", "as_tuple", "train", "with_replacement", "increasing",
         "hermitian", "some", "compute_uv", "pivot", "check_errors", "unitriangular", "transpose", "swap",
         "accumulate", "include_self", "replacement", "right", "out_int32", "invert", "assume_unique", "ceil_mode",
         "count_include_pad", "return_indices", "periodic", "align_corners", "antialias", "hard", "get_infos",
         "density", "implicit", "adjoint", "use_input_stats", "unpack_data", "unpack_pivots", "is_causal",
         "include_last_offset", "eigenvectors", "symmetric", "full_matrices", "wrap", "ambiguity_check"}
FLOATS = {"alpha", "beta", "value", "eps", "lambd", "threshold", "min", "max", "min_val", "max_val",
          "negative_slope", "margin", "delta", "label_smoothing", "p", "rtol", "atol", "nan", "posinf",
          "neginf", "fill_value", "lower", "upper", "weight", "exponent", "correction", "base", "maxnorm"}
INTS = {"low", "high", "k", "n", "chunks", "diagonal", "offset", "shifts", "decimals", "sections", "indices_or_sections",
        "split_size_or_sections", "length", "start", "num_classes", "padding_idx", "ignore_index", "steps",
        "split_sizes", "step", "m", "bins", "row", "col", "r", "N", "split_size", "num_samples"}
DIMS = {"dim", "dim0", "dim1", "dim2", "start_dim", "end_dim", "source", "destination", "axis0", "axis1",
        "dimension"}

DTYPES = ["float32"] * 8 + ["float64"] * 3 + ["int64"] * 2 + ["bool", "float16", "int32", "uint8"]
FLOAT_SCALARS = [0.5, -1.5, 2.0, 0.25, 1.0, -0.0, 0.0, 3.0, 1e-3, float("inf"), float("nan"), -2.0]


def op_table(random_ops=False):
    """(name, form, signature) for every public function: form is torch / method / F / linalg.
    ``random_ops`` adds the functions of RANDOM."""
    from agrad.ops import FUNCTIONAL, FUNCTIONS, LINALG, METHODS, SPECIAL

    table = []
    for form, names in (("torch", FUNCTIONS), ("method", METHODS), ("F", FUNCTIONAL), ("linalg", LINALG),
                        ("special", SPECIAL)):
        for name, fn in sorted(names.items()):
            if name in SKIP or (name.startswith("__") and name.endswith("__")):
                continue
            if name in RANDOM and not random_ops:
                continue
            sig = signature(name, fn, names)
            if sig is not None:
                table.append((name, form, sig))
    only = os.environ.get("DIFFGEN_ONLY")  # a focused run: DIFFGEN_ONLY=quantile,cdist draws only these
    if only:
        table = [row for row in table if row[0] in set(only.split(","))] or table
    return table


def _holds(pred, v) -> bool:
    """``pred(v)``, False where PyTorch refuses to answer (``is_leaf`` of a custom Function's view output
    modified in place since, as the deprecated ``resize`` makes, raises)."""
    try:
        return pred(v)
    except RuntimeError:
        return False


def signature(name: str, fn, names: dict):
    """``fn``'s signature; an in-place form made generically (``(self, *args, **kwargs)``) takes its
    out-of-place op's, and the few generic ones with no such op take PyTorch's (``SIGNATURES``)."""
    from agrad.ops import FUNCTIONS, METHODS

    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    kinds = {p.kind for p in sig.parameters.values()}
    if "args" in sig.parameters and name in SIGNATURES:
        return inspect.signature(SIGNATURES[name])
    if inspect.Parameter.VAR_POSITIONAL not in kinds or inspect.Parameter.VAR_KEYWORD not in kinds \
            or "args" not in sig.parameters:
        return sig
    base = name[:-1] if name.endswith("_") else None
    for table in (names, METHODS, FUNCTIONS):
        if base in table:
            try:
                return inspect.signature(table[base])
            except (TypeError, ValueError):
                return sig
    return sig


def _solve_triangular(A, B, *, upper, left=True, unitriangular=False):  # (PyTorch's signature)
    raise NotImplementedError


def _zero_(input):  # (PyTorch's signature)
    raise NotImplementedError


def _logical_not_(input):  # (PyTorch's signature)
    raise NotImplementedError


#: PyTorch's signatures of the op-table functions whose own is ``(*args, **kwargs)``.
SIGNATURES = {"solve_triangular": _solve_triangular, "zero_": _zero_, "logical_not_": _logical_not_}


def _focused_random() -> bool:
    """Whether a focused run (DIFFGEN_ONLY) names a function of RANDOM: its programs are then seeded
    one time in two, so that function is drawn."""
    only = os.environ.get("DIFFGEN_ONLY")
    return bool(only) and bool(set(only.split(",")) & RANDOM)


def fmt_float(v: float) -> str:
    if math.isnan(v):
        return "float('nan')"
    if math.isinf(v):
        return "float('inf')" if v > 0 else "float('-inf')"
    return repr(v)


class Generator:
    """Builds one program: ``Generator(seed).program()`` -> list of statements."""

    def __init__(self, seed: int, torch_module=None, steps: int | None = None):
        import torch

        self.torch = torch_module or torch
        self.rng = random.Random(seed)
        self.steps = steps if steps is not None else self.rng.randint(3, 10)
        self.ns = {"torch": self.torch, "F": self.torch.nn.functional}
        self.lines: list[str] = []
        self.count = 0
        # (calls of a function that takes out= passing one; a focused run may ask for more)
        self.out_share = float(os.environ.get("DIFFGEN_OUT_SHARE", diffgen_out.OUT_SHARE))
        # decided by a stream of its own, so that the programs of unseeded seeds stay as they were
        self.seeded = random.Random(seed * 7919 + 1).random() < (0.5 if _focused_random() else SEEDED_SHARE)
        self.table = _TABLE_CACHE.get(None) or _TABLE_CACHE.setdefault(None, op_table())
        if self.seeded:  # a call then draws a random function two times in five
            self.random_table = _TABLE_CACHE.get("random") or _TABLE_CACHE.setdefault(
                "random", [row for row in op_table(True) if row[0] in RANDOM])
            if not self.random_table:  # (a focused run of functions that draw nothing)
                self.random_table = self.table
        if self.seeded:
            self.try_add(f"torch.manual_seed({seed % 1000})")

    # --- running candidates under torch ---------------------------------------------

    def try_add(self, stmt: str, keep_error: float = 0.08) -> bool:
        """Runs ``stmt`` under PyTorch and keeps it (True) unless it raised; a statement PyTorch rejects is
        kept now and then, as a test of the error text. ``self.last_ran`` says whether PyTorch ran it."""
        snapshot = dict(self.ns)
        self.last_ran = False
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(stmt, self.ns)
        except Exception as e:  # noqa: BLE001 - PyTorch's own rejection: maybe a test of the error text
            self.ns.clear()
            self.ns.update(snapshot)
            if isinstance(e, (NameError, SyntaxError)) or self.rng.random() > keep_error:
                return False
        else:
            self.last_ran = True
        self.lines.append(stmt)
        return True

    def fresh(self, prefix: str = "t") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def tensors(self, pred=None) -> list[str]:
        out = []
        for name, v in self.ns.items():
            if isinstance(v, self.torch.Tensor) and (pred is None or _holds(pred, v)):
                out.append(name)
        return sorted(out)

    # --- literals -------------------------------------------------------------------

    def shape(self) -> tuple:
        r = self.rng.random()
        if r < 0.12:
            return ()
        if r < 0.2:
            return tuple(self.rng.choice([0, 2, 3]) for _ in range(self.rng.randint(1, 2)))
        return tuple(self.rng.randint(1, 4) for _ in range(self.rng.randint(1, 3)))

    def scalar_value(self, dtype: str):
        rng = self.rng
        if dtype == "bool":
            return rng.random() < 0.5
        if dtype == "uint8":
            return rng.randint(0, 9)
        if dtype.startswith("int"):
            return rng.randint(-4, 4)
        r = rng.random()
        if r < 0.03:
            return rng.choice([float("nan"), float("inf"), float("-inf"), -0.0])
        if r < 0.08:
            return 0.0
        return rng.randint(-12, 12) / 4

    def literal(self, shape: tuple, dtype: str) -> str:
        def build(dims):
            if not dims:
                v = self.scalar_value(dtype)
                return fmt_float(v) if isinstance(v, float) else repr(v)
            return "[" + ", ".join(build(dims[1:]) for _ in range(dims[0])) + "]"

        if 0 in shape:
            return f"torch.zeros({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''} dtype=torch.{dtype})"
        return f"torch.tensor({build(shape)}, dtype=torch.{dtype})"

    def new_input(self) -> None:
        dtype = self.rng.choice(DTYPES)
        shape = self.shape()
        lit = self.literal(shape, dtype)
        if dtype in ("float32", "float64", "float16") and self.rng.random() < 0.75:
            lit = lit[:-1] + ", requires_grad=True)" if lit.startswith("torch.tensor") \
                else f"{lit}.requires_grad_()"
        name = self.fresh("x")
        self.try_add(f"{name} = {lit}")
        if len(shape) >= 2 and self.rng.random() < 0.3:  # a non-contiguous view of it
            view = self.rng.choice(["{}.t()", "{}.transpose(0, -1)", "{}[::2]", "{}[:, 1:]", "{}.mT"])
            self.try_add(f"{self.fresh('v')} = {view.format(name)}")
        elif len(shape) == 1 and self.rng.random() < 0.2:
            self.try_add(f"{self.fresh('v')} = {name}.expand(2, {shape[0]})")

    # --- arguments ------------------------------------------------------------------

    def like(self, primary) -> str:
        """A second operand for ``primary``: same shape, broadcastable, another live tensor or a scalar."""
        rng = self.rng
        r = rng.random()
        shape = tuple(primary.shape) if primary is not None else self.shape()
        dtype = str(primary.dtype).split(".")[-1] if primary is not None else "float32"
        if r < 0.12:
            v = self.scalar_value(rng.choice([dtype, "float32", "int64"]))
            return fmt_float(v) if isinstance(v, float) else repr(v)
        if r < 0.3:
            pool = self.tensors()
            if pool:
                return rng.choice(pool)
        if r < 0.4:
            shape = shape[rng.randint(0, len(shape)):] if shape else ()
        if rng.random() < 0.1:
            dtype = rng.choice(DTYPES)
        lit = self.literal(shape, dtype)
        if dtype.startswith("float") and rng.random() < 0.3:
            lit = lit[:-1] + ", requires_grad=True)" if lit.startswith("torch.tensor") else lit
        return lit

    def dim(self, t) -> int:
        nd = max(t.dim(), 1) if t is not None else 1
        if self.rng.random() < 0.05:
            return nd
        return self.rng.randint(-nd, nd - 1)

    def sizes(self, t) -> list[int]:
        n = t.numel() if t is not None else 1
        dims = []
        for f in (2, 3, 2, 5, 7):
            while n % f == 0 and n > 1 and self.rng.random() < 0.7:
                dims.append(f)
                n //= f
        if n > 1:
            dims.append(n)
        if t is not None and t.numel() == 0:
            dims = [0, self.rng.randint(1, 3)]
        self.rng.shuffle(dims)
        if dims and self.rng.random() < 0.3:
            dims[self.rng.randrange(len(dims))] = -1
        if self.rng.random() < 0.3:
            dims.insert(self.rng.randint(0, len(dims)), 1)
        return dims

    def arg(self, pname: str, primary, pname_kind) -> str | None:
        rng = self.rng
        t = primary
        if pname in PRIMARY:
            return None  # filled by the caller
        if pname in ("index", "indices"):
            high = max(min(t.shape) if t is not None and t.dim() else 1, 1)
            shape = tuple(t.shape) if t is not None and rng.random() < 0.5 else (rng.randint(1, 3),)
            lit = self.literal(shape, "int64")
            return f"{lit}.clamp(0, {high - 1})" if rng.random() < 0.9 else lit
        if pname in ("mask", "condition"):
            if t is not None:
                return f"({rng.choice(self.tensors()) if rng.random() < 0.2 else self.var_of(t)} > 0)"
            return "True"
        cur = getattr(self, "current", "")
        special = special_arg(self, pname, t, cur)
        if special is not None:
            return special
        if pname in DIMS and not (pname == "source" and rng.random() < 0.5):
            return str(self.dim(t))
        if pname in SECOND:
            return self.like(t)
        if pname in BOOLS:
            return repr(rng.random() < 0.5)
        if pname == "dtype":
            return "torch." + rng.choice(["float32", "float64", "int64", "bool", "float16"])
        if pname == "reduction":
            return repr(rng.choice(["mean", "sum", "none"]))
        if pname == "rounding_mode":
            return repr(rng.choice([None, "trunc", "floor"]))
        if pname == "q":  # quantile's: a number or a 1-D tensor of the input's dtype, mostly in [0, 1]
            if rng.random() < 0.5:
                return fmt_float(rng.choice([0.0, 0.25, 0.5, 1.0, 0.3, 0.9, 1.5]))
            qs = ", ".join(fmt_float(rng.choice([0.0, 0.1, 0.5, 0.75, 1.0])) for _ in range(rng.randint(0, 3)))
            return f"torch.tensor([{qs}], dtype={t.dtype if t is not None else 'torch.float32'})"
        if pname == "compute_mode":
            return repr(rng.choice(["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                    "donot_use_mm_for_euclid_dist"]))
        if pname == "interpolation":
            return repr(rng.choice(["linear", "lower", "higher", "midpoint", "nearest"]))
        if pname == "approximate":
            return repr(rng.choice(["none", "tanh"]))
        if pname == "ord":
            return repr(rng.choice([None, 1, 2, -1, 0, "fro", "nuc", 3])).replace("inf", "float('inf')")
        if pname == "mode":
            return repr(rng.choice(["constant", "reflect", "replicate"]))
        if pname == "equation":
            nd = t.dim() if t is not None else 1
            return repr({0: "->", 1: rng.choice(["i->", "i->i", "i,i->"]), 2: rng.choice(["ij->ji", "ii->i", "ij->"])}
                        .get(nd, "...->..."))
        if pname in ("dims", "shifts_dims"):
            nd = t.dim() if t is not None else 1
            perm = list(range(nd))
            rng.shuffle(perm)
            return repr(tuple(perm))
        if pname == "norm_type":  # (lp_pool's required p; embedding's optional one is never passed)
            return fmt_float(rng.choice([1.0, 2.0, 3.0, 1.5, float("inf"), 0.5]))
        if pname == "output_size" and getattr(self, "current", "").startswith("adaptive_max"):
            # (adaptive_avg_pool's output_size is not drawn yet: 19 of 100 focused programs differ, issue left)
            return str(rng.choice([1, 2, 3]))
        if pname == "kernel_size":
            return str(rng.choice([1, 2, 3]))
        if pname == "size" and getattr(self, "current", "") == "local_response_norm":
            return str(rng.choice([1, 2, 3, 5]))
        if pname in ("size", "shape", "sizes"):
            return repr(tuple(self.sizes(t)))
        if pname in ("pad",):
            return repr(tuple(rng.randint(0, 2) for _ in range(rng.choice([2, 4]))))
        if pname == "normalized_shape":
            return repr(tuple(t.shape[-1:])) if t is not None else "(1,)"
        if pname in ("tensors", "operands"):
            return "[" + ", ".join([self.var_of(t)] + [self.like(t) for _ in range(rng.randint(0, 2))]) + "]"
        if pname in INTS:
            return str(rng.choice([0, 1, 2, 1, -1, 3]))
        if pname in FLOATS:
            return fmt_float(rng.choice(FLOAT_SCALARS))
        return "__unknown__"

    def var_of(self, t) -> str:
        for name, v in self.ns.items():
            if v is t:
                return name
        raise KeyError("tensor not in namespace")

    # --- calls whose arguments must fit together (built whole) -----------------------

    def ctc_call(self, form: str) -> None:
        """ctc_loss: log_probs (T, N, C) or (T, C), padded or concatenated targets, lengths as tensors or tuples."""
        rng = self.rng
        T, N, C = rng.randint(1, 6), rng.randint(1, 3), rng.randint(2, 5)
        dtype = rng.choice(["float32", "float32", "float64"])
        batched = rng.random() < 0.85
        shape = (T, N, C) if batched else (T, C)
        lp = self.fresh("x")
        lit = self.literal(shape, dtype)
        if not self.try_add(f"{lp} = {lit[:-1]}, requires_grad=True).log_softmax(-1)" if lit.startswith("torch.tensor")
                            else f"{lp} = {lit}"):
            return
        n = N if batched else 1
        blank = rng.choice([0, 0, 0, C - 1])
        S = rng.randint(0, 4)
        labels = [c for c in range(C) if c != blank] or [0]
        tl = [rng.randint(0, S) for _ in range(n)]
        il = [rng.randint(0, T) if rng.random() < 0.3 else T for _ in range(n)]
        if rng.random() < 0.5 or not batched:  # padded
            rows = [[rng.choice(labels) for _ in range(max(S, 1))] for _ in range(n)]
            targets = f"torch.tensor({rows if batched else rows[0]})"
        else:
            targets = f"torch.tensor({[rng.choice(labels) for _ in range(sum(tl))]}, dtype=torch.int64)"
        if not batched:
            lengths = (f"torch.tensor({il[0]})", f"torch.tensor({tl[0]})")
        elif rng.random() < 0.5:
            lengths = (f"torch.tensor({il})", f"torch.tensor({tl})")
        else:
            lengths = (repr(tuple(il)), repr(tuple(tl)))
        red = rng.choice(["mean", "sum", "none"])
        zi = rng.random() < 0.3
        if form == "torch":
            call = f"torch.ctc_loss({lp}, {targets}, {lengths[0]}, {lengths[1]}, {blank}, {['none', 'mean', 'sum'].index(red)}, {zi})"
        else:
            call = f"F.ctc_loss({lp}, {targets}, {lengths[0]}, {lengths[1]}, blank={blank}, reduction={red!r}, zero_infinity={zi})"
        self.try_add(f"{self.fresh('r')} = {call}")

    def fractional_call(self, name: str) -> None:
        """fractional_max_pool2d/3d (seeded programs: the samples come from the stream)."""
        rng = self.rng
        n = 3 if "3d" in name else 2
        dtype = rng.choice(["float32", "float32", "float64"])
        shape = ((rng.randint(1, 2),) if rng.random() < 0.7 else ()) + (rng.randint(1, 3),) + tuple(
            rng.randint(2, 6) for _ in range(n))
        x = self.fresh("x")
        if not self.try_add(f"{x} = {self.literal(shape, dtype)[:-1]}, requires_grad=True)"):
            return
        k = [rng.randint(1, 3) for _ in range(n)]
        sizes = shape[-n:]
        if rng.random() < 0.5:
            limit = [s - kk + 1 if n == 2 else s - kk for s, kk in zip(sizes, k)]
            out = f"output_size={tuple(max(1, rng.randint(1, max(1, l))) for l in limit)}"
        else:
            out = f"output_ratio={tuple(rng.choice([0.3, 0.5, 0.7]) for _ in range(n))}"
        idx = ", return_indices=True" if rng.random() < 0.3 and "indices" not in name else ""
        self.try_add(f"{self.fresh('r')} = F.{name}({x}, {tuple(k)}, {out}{idx})")

    def conv_tbc_call(self, form: str) -> None:
        rng = self.rng
        T, B, I, O, K = rng.randint(1, 5), rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
        dtype = rng.choice(["float32", "float64"])
        names = []
        for shape in ((T, B, I), (K, I, O), (O,)):
            v = self.fresh("x")
            rg = ", requires_grad=True)" if rng.random() < 0.7 else ")"
            if not self.try_add(f"{v} = {self.literal(shape, dtype)[:-1]}{rg}"):
                return
            names.append(v)
        pad = rng.randint(0, 2)
        self.try_add(f"{self.fresh('r')} = {'torch' if form == 'torch' else 'F'}.conv_tbc({', '.join(names)}, {pad})")

    def grid_sample_call(self) -> None:
        """grid_sample of a 4-D input at a grid of places in [-1.25, 1.25] (every mode, padding, align_corners)."""
        rng = self.rng
        dtype = rng.choice(["float32", "float32", "float64"])
        N, C, H, W = rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 4), rng.randint(1, 4)
        x, g = self.fresh("x"), self.fresh("x")
        rg = ", requires_grad=True)" if rng.random() < 0.8 else ")"
        if not self.try_add(f"{x} = {self.literal((N, C, H, W), dtype)[:-1]}{rg}"):
            return
        Ho, Wo = rng.randint(1, 3), rng.randint(1, 4)
        if not self.try_add(f"{g} = ({self.literal((N, Ho, Wo, 2), dtype)[:-1]}) / 2.4).requires_grad_()"):
            return
        mode = rng.choice(["bilinear", "nearest", "bicubic", "bicubic"])
        pad = rng.choice(["zeros", "border", "reflection"])
        self.try_add(f"{self.fresh('r')} = F.grid_sample({x}, {g}, mode={mode!r}, padding_mode={pad!r}, "
                     f"align_corners={rng.random() < 0.5})")

    def call(self, row=None) -> bool | None:
        """One call of an op-table function (``row``, or one drawn): True when PyTorch ran the statement,
        False when it raised, None when no statement was made (``self.last_params`` names the parameters passed).
        A drawn ctc_loss, fractional max pool, conv_tbc or grid_sample is built whole half the time (the
        ``*_call`` builders above), otherwise by its recipe (diffgen_recipes.py), as a ``row`` always is."""
        rng = self.rng
        built = row is None
        if row is None:
            table = self.random_table if self.seeded and rng.random() < 0.4 else self.table
            row = rng.choice(table)
        name, form, sig = row
        self.last_params = []
        if built and name in {"ctc_loss", "conv_tbc", "grid_sample"} | FRACTIONAL and rng.random() < 0.5:
            if name == "ctc_loss":
                return self.ctc_call(form)
            if name.startswith("fractional_max_pool"):
                return self.fractional_call(name)
            if name == "conv_tbc":
                return self.conv_tbc_call(form)
            return self.grid_sample_call()
        pool = self.tensors()
        if not pool:
            return None
        pvar = rng.choice(pool)
        self.current, self.current_form = name, form
        recipe = {}
        if name in RECIPES and rng.random() < RECIPE_SHARE:
            recipe = {k: v for k, v in RECIPES[name](self, name).items() if v is not None}
            pvar = recipe.pop("@primary", pvar)  # (and "@required"/"@omit": parameters always/never passed)
        primary = self.ns[pvar]
        if form == "method" and name.endswith("_") and _holds(lambda v: v.requires_grad and v.is_leaf, primary) \
                and rng.random() < 0.8:  # (mostly on a non-leaf copy: a leaf's in-place change is an error)
            copy = self.fresh("r")
            if self.try_add(f"{copy} = {pvar} * 1", keep_error=0.0):
                pvar, primary = copy, self.ns[copy]
        args, kwargs = [], []
        params = list(sig.parameters.values())
        if form == "method":
            params = params[1:]
        positional_ok = True
        for p in params:
            if "@only" in recipe and p.name != recipe["@only"]:
                continue
            if p.name in NEVER and p.default is not p.empty and p.name not in recipe:
                continue
            if p.kind is p.VAR_KEYWORD:
                continue
            if p.kind is p.VAR_POSITIONAL:
                if p.name in ("size", "shape", "sizes", "dims"):
                    gen = recipe.get("@shape") or self.arg(p.name, primary, p.kind)
                    # (torch.reshape(x, (2, 3)), torch.flip(x, (0,)): PyTorch's functions take one tuple)
                    args.append(gen if form == "torch" and p.name != "size" else gen[1:-1].rstrip(","))
                elif p.name in ("tensors", "operands", "matrices"):
                    args.extend([pvar] + [self.like(primary) for _ in range(rng.randint(0, 1))])
                elif p.name == "args" and "@args" in recipe:
                    args.append(recipe["@args"])
                elif p.name == "args":
                    value = self.like(primary)
                    if name == "new" and value not in self.ns and not value.startswith("torch."):
                        value = f"[{value}]"  # (x.new(2) is uninitialised memory, as torch.empty: the data form)
                    args.append(value)
                positional_ok = False
                continue
            if p.name in PRIMARY and form != "method" and not args:
                args.append(recipe.get(p.name, pvar))
                self.last_params.append(p.name)
                continue
            if p.name in recipe.get("@omit", ()):
                positional_ok = False
                continue
            required = p.default is p.empty or p.name in recipe.get("@required", ())
            if p.kind is p.POSITIONAL_ONLY and not positional_ok:
                continue  # (uniform_'s from_: PyTorch's name is `from`, which no keyword argument can be)
            if not required and rng.random() > (0.5 if p.name in recipe else 0.3):
                positional_ok = False
                continue
            value = recipe[p.name] if p.name in recipe else self.arg(p.name, primary, p.kind)
            if value is None:
                value = pvar if rng.random() < 0.6 else self.like(primary)
            if value == "__unknown__":
                if required:
                    return None
                continue
            self.last_params.append(p.name)
            if positional_ok and p.kind is not p.KEYWORD_ONLY and (
                    required or p.kind is p.POSITIONAL_ONLY or rng.random() < 0.5):
                args.append(value)
            else:
                kwargs.append(f"{p.name}={value}")
                positional_ok = False
        call_args = ", ".join([a for a in args if a != ""] + kwargs)
        callee = {"torch": f"torch.{name}", "F": f"F.{name}", "linalg": f"torch.linalg.{name}",
                  "special": f"torch.special.{name}",
                  "method": f"{pvar}.{name}"}[form]
        if self.out_share and diffgen_out.takes_out(name, form, sig) and rng.random() < self.out_share \
                and diffgen_out.draw(self, callee, call_args):
            return self.last_ran
        if form == "method" and rng.random() < 0.1 and primary.dim() >= 1:  # through a view
            callee = f"{pvar}[{rng.choice(['0', ':1', '...', '::2'])}].{name}"
        self.try_add(f"{self.fresh('r')} = {callee}({call_args})")
        return self.last_ran

    def operator(self) -> None:
        rng = self.rng
        pool = self.tensors()
        if not pool:
            return
        a = rng.choice(pool)
        if rng.random() < 0.15:
            self.try_add(f"{self.fresh('r')} = {rng.choice(['-', '~', '+'])}{a}")
            return
        op = rng.choice(["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "<", "==", ">="])
        b = self.like(self.ns[a])
        if rng.random() < 0.2:
            self.try_add(f"{self.fresh('r')} = {b} {op} {a}" if not b.startswith("torch") else
                         f"{self.fresh('r')} = {a} {op} {b}")
        elif rng.random() < 0.25 and op not in ("<", "==", ">=", "@"):
            target = self.fresh("r")
            self.try_add(f"{target} = {a} * 1")
            self.try_add(f"{target} {op}= {b}")
        else:
            self.try_add(f"{self.fresh('r')} = {a} {op} {b}")

    def view_inplace(self) -> None:
        rng = self.rng
        pool = self.tensors(lambda v: v.dim() >= 1)
        if not pool:
            return
        a = rng.choice(pool)
        t = self.ns[a]
        base = a
        if _holds(lambda v: v.requires_grad and v.is_leaf, t) and rng.random() < 0.8:
            base = self.fresh("r")
            if not self.try_add(f"{base} = {a} * 1"):
                return
        idx = rng.choice(["0", ":", "1:", "::2", "..., 0", "None", "-1", f"{base} > 0", "[0, 0]", ":, 0"])
        value = self.like(t) if rng.random() < 0.5 else fmt_float(rng.choice(FLOAT_SCALARS))
        kind = rng.random()
        if kind < 0.4:
            self.try_add(f"{base}[{idx}] = {value}")
        elif kind < 0.8:
            method = rng.choice(["add_", "mul_", "sub_", "div_", "clamp_", "zero_", "fill_", "copy_", "exp_",
                                 "sigmoid_", "relu_", "abs_", "pow_"])
            arg = "" if method in ("zero_", "exp_", "sigmoid_", "relu_", "abs_") else (
                "min=0.0" if method == "clamp_" else value)
            self.try_add(f"{base}[{idx}].{method}({arg})")
        else:
            view = rng.choice(["view(-1)", "t()", "transpose(0, -1)", "unsqueeze(0)", "narrow(0, 0, 1)",
                               "diagonal()", "select(0, 0)", "unbind(0)[0]", "split(1)[0]", "detach()"])
            method = rng.choice(["add_(1)", "mul_(2)", "neg_()", "fill_(0.5)", "detach_()"])
            with_ng = rng.random() < 0.2
            stmt = f"{base}.{view}.{method}"
            if with_ng:
                stmt = f"with torch.no_grad():\n    {stmt}"
            self.try_add(stmt)

    def hook(self) -> None:
        rng = self.rng
        pool = self.tensors(lambda v: v.requires_grad)
        if not pool:
            return
        a = rng.choice(pool)
        r = rng.random()
        if r < 0.4:
            self.try_add(f"{self.fresh('h')} = {a}.register_hook(lambda g: g * 2)")
        elif r < 0.6:
            self.try_add(f"{self.fresh('h')} = {a}.register_hook(lambda g: None)")
        else:
            self.try_add(f"{a}.retain_grad()")

    def backward(self) -> None:
        rng = self.rng
        pool = self.tensors(lambda v: v.requires_grad and v.is_floating_point())
        if not pool:
            return
        a = rng.choice(pool)
        t = self.ns[a]
        leaves = self.tensors(lambda v: v.requires_grad and v.is_leaf)
        r = rng.random()
        if r < 0.35:
            self.try_add(f"{a}.sum().backward()", keep_error=0.5)
        elif r < 0.55:
            dtype = rng.choice(["float32", "float64", str(t.dtype).split(".")[-1]])
            g = self.fresh("g")
            self.try_add(f"{g} = {self.literal(tuple(t.shape), dtype)}")
            self.try_add(f"{a}.backward(gradient={g})", keep_error=0.5)
            if rng.random() < 0.5:
                self.try_add(f"{a}.sum().backward()", keep_error=0.5)
        elif r < 0.7:
            self.try_add(f"{a}.sum().backward(create_graph=True)", keep_error=0.5)
        elif leaves:
            chosen = rng.sample(leaves, min(len(leaves), rng.randint(1, 2)))
            gs = self.fresh("gs")
            extra = ", materialize_grads=True" if rng.random() < 0.25 else ""
            if self.try_add(f"{gs} = torch.autograd.grad({a}.sum(), [{', '.join(chosen)}], create_graph=True, "
                            f"allow_unused=True{extra})", keep_error=0.5):
                for i in range(len(chosen)):
                    self.try_add(f"{self.fresh('q')} = {gs}[{i}]")
                if rng.random() < 0.7:
                    self.try_add(f"sum(g.pow(2).sum() for g in {gs} if g is not None).backward()", keep_error=0.5)

    def program(self) -> list[str]:
        for _ in range(self.rng.randint(1, 3)):
            self.new_input()
        for _ in range(self.steps):
            r = self.rng.random()
            if r < 0.1:
                self.new_input()
            elif r < 0.6:
                self.call()
            elif r < 0.75:
                self.operator()
            elif r < 0.87:
                self.view_inplace()
            elif r < 0.93:
                self.hook()
            else:
                self.backward()
        self.backward()
        return self.lines


_TABLE_CACHE: dict = {}


def generate(seed: int, steps: int | None = None) -> list[str]:
    return Generator(seed, steps=steps).program()
