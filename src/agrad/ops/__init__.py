"""The op table: every op module in this package registers its functions here.

Every ``agrad/ops/<family>.py`` not starting with an underscore is a family, and
loads on first use (agrad/ops/_families.py): adding a family is adding one file,
then ``python tools/gen_op_index.py`` (its names in agrad/ops/_index.py).  The families follow
the groups of PyTorch's documentation:

- pointwise: ``pointwise`` (arithmetic, promotion, clamp, where, masked_fill), ``division``
  (floor_divide, remainder, reciprocal),
  ``power`` (pow's three overloads), ``unary`` (exp, log, trigonometry, erf), ``rounding`` (floor, round, trunc, frac, sgn, nan_to_num), ``binary`` (atan2, fmod,
  lerp, xlogy, addcmul, ...), ``operators`` (Tensor's ``+``, ``==``, ``&``, ...);
- ``comparison``: comparisons, logical and bitwise ops, isnan/isclose,
  maximum/minimum; ``sorting``: sort/topk, median/kthvalue/mode, unique;
- ``reductions`` (sum, max, prod, ...), ``logsumexp``, ``means`` (mean, nanmean), ``variance``
  (var/std, var_mean/std_mean) and ``cumulative`` (cumsum, cumprod, cummax, logcumsumexp);
- ``views`` (views, reshaping, copies), ``unfold`` (Tensor.unfold's windows), ``casts`` (to, type, new_*), ``joining`` (cat/stack,
  split/chunk, repeat, flip, meshgrid), ``indexing`` (``x[...]``, select) and
  ``scatter_gather`` (gather/scatter, index_select/add/copy, masked_*, take), ``index_fill``, ``nonzero``
  (nonzero, nonzero_static);
- ``linalg`` (matrix products), ``contractions`` (einsum, tensordot, kron),
  ``matrix`` (trace, diagonal, tril/triu, cross, norms), ``determinants``
  (det, slogdet), ``solvers`` (inverse, solve), ``decompositions``, ``pseudoinverse``
  (pinv, matrix_rank, cond), ``matrix_functions``
  (matrix_exp, matrix_power, multi_dot) and ``lu``;
- nn.functional: ``nn`` (linear, dropout, pad, embedding, layer_norm,
  distances, and what activations and losses share), ``activations``,
  ``softmax``, ``losses``, ``cross_entropy`` (nll_loss, cross_entropy);
  convolution, pooling and normalisation families get their own files next to
  them;
- ``special`` (lgamma, digamma, polygamma, mvlgamma, erfinv, i0, igamma/igammac and torch.special);
- ``special_functions`` (torch.special's Bessel and Airy functions, orthogonal polynomials);
- ``factories`` (tensor, zeros, arange, rand, ...); ``inplace_view`` (in-place
  changes through views: CopySlices); ``aliases`` (swapaxes, Tensor.broadcast_to, and the
  attributes that record nothing: real/imag, conj, nbytes, is_signed, is_nonzero, ...).
"""

import importlib

from . import _families
from ._op import ALL_OPS, FUNCTIONAL, FUNCTIONS, LINALG, METHODS, OPS, SPECIAL, export, method  # noqa: F401

FAMILIES = list(_families.FAMILIES)
for _name in _families.EAGER:
    importlib.import_module(f"{__name__}.{_name}")


def _export_inplace_forms():
    from .functional_forms import export_inplace_forms

    export_inplace_forms()  # (torch.abs_ & co: those no family exports, loaded or not)


_export_inplace_forms()


def _finish_eager():
    """What the eager families (and torch.abs_ & co) registered: argument checks, methods on Tensor
    (a family loaded later does the same for its names: _families._finish)."""
    import sys

    from ..tensor import Tensor
    from ._argcheck import install

    tables = {"FUNCTIONS": FUNCTIONS, "METHODS": METHODS, "FUNCTIONAL": FUNCTIONAL, "LINALG": LINALG,
              "SPECIAL": SPECIAL}
    own = {}
    for key, table in tables.items():
        lazy = _families.owners(key)
        own[key] = [n for n in dict.keys(table) if n not in lazy]
    install(*tables.values(), only=own)
    for name in own["METHODS"]:
        setattr(Tensor, name, dict.__getitem__(METHODS, name))
    from ._index import FAMILIES as index
    _families._finished.update(f for f in FAMILIES if f"{__name__}.{f}" in sys.modules and not index.get(f))
    _families.settle()  # (a lazy family an eager one imported: its own names)
    _families.install_stubs()


_finish_eager()
