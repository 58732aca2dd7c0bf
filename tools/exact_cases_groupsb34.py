"""Regression cases of the indexing, in-place and argument-checking groups of the replayed run dt20k-33 (helper
"groupsb", session 34).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("adaptive-avg-pool-empty-output-and-check-order",  # (raises-only-agrad:interpolate) an output size 0
         # is an empty result (2-D: before the dtype dispatch); a negative size, 1 x 1 as a mean before any input
         # check, 2-D's rank then last two dims, 3-D's every non-batch dim then rank; the backward's empty check
         ["x = torch.tensor([[[2.5]], [[-0.75]]], requires_grad=True)",
          "r = F.interpolate(x, scale_factor=0.5, mode='area', recompute_scale_factor=False)",
          "y = torch.ones(1, 2, 3, 3, dtype=torch.float64, requires_grad=True)",
          "z = torch.ones(0, 3, 3, requires_grad=True)"],
         ["r", "torch.autograd.grad(r.sum(), x)", "F.adaptive_avg_pool2d(y, (0, 2))",
          "torch.autograd.grad(F.adaptive_avg_pool3d(y, (2, 0, 2)).sum(), y)",
          "torch.autograd.grad(F.adaptive_avg_pool2d(z, (2, 2)).sum(), z)",
          "F.adaptive_avg_pool2d(torch.ones(2, 0, 1, 2), (1, 2))", "F.adaptive_avg_pool3d(torch.ones(0, 2, 2, 2), (1, 1, 2))",
          "F.adaptive_avg_pool2d(torch.ones(1, 2, 2, dtype=torch.int64), (1, 0))",
          "F.adaptive_avg_pool3d(torch.ones(1, 2, 2, 2, dtype=torch.int64), (1, 0, 1))",
          "F.adaptive_avg_pool2d(torch.ones(2, 2, 2, dtype=torch.int32), (0, -1))",
          "F.adaptive_avg_pool3d(torch.ones(1, 2, 2, 2), (1, -2, 1))", "torch.adaptive_avg_pool1d(torch.ones(2, 2), -1)",
          "F.adaptive_avg_pool2d(torch.ones(2, 2), 1)", "F.adaptive_avg_pool2d(torch.ones(2, 2), (1, 2))",
          "torch.adaptive_avg_pool1d(torch.ones(2, 0), 1)", "F.adaptive_avg_pool2d(torch.ones(1, 0, 2), (1, 2))",
          "F.adaptive_avg_pool3d(torch.ones(2, 0, 2), 2)", "F.adaptive_avg_pool3d(torch.ones(2, 1, 0, 2, 2), (1, 2, 1))",
          "F.adaptive_avg_pool2d(torch.ones(2, 2, 1, dtype=torch.bool), (1, 1))"]),
    case("unfold-padded-1x1-columns-writable-through-a-view",  # (raises-only-agrad:mul_) a 1x1 kernel's columns
         # of a padded input were read-only windows of the padded copy; a view of the result writes into it
         ["x = torch.tensor([[[[2.25, -2.75], [-2.0, 0.0], [-1.5, -0.75]]], [[[2.75, -2.5], [1.75, -0.25], [1.75, -3.0]]]],"
          " requires_grad=True)",
          "r = F.unfold(x, 1, padding=1)", "r[None].mul_(torch.arange(20.0))",
          "u = F.unfold(torch.ones(2, 3, 3), 1, padding=(1, 0))", "u[0].add_(1)"],
         ["r", "torch.autograd.grad(r.sum(), x)", "u", "u.stride()"]),
    case("integer-tensor-requiring-grad-in-place-records",  # (raises-only-agrad:setitem, :index_put_) an integer
         # tensor an in-place op gave a history takes index_put_'s node (setitem's too); a slice of it is a view
         # autograd refuses, as is an op that saves self.clone(); copy_ into it is not recorded
         ["w = torch.tensor(-3.0, requires_grad=True)",
          "def mk():\n    return torch.tensor([2, 1, 0]).le_(w)",
          "a = mk()", "a[[0, 0]] = 2.0", "b = mk()", "b[torch.tensor([True, False, True])] = 5",
          "c = mk()", "c.index_put_((torch.tensor([1]),), torch.tensor(7), accumulate=True)",
          "d = torch.tensor([[3, 4], [3, -1]], dtype=torch.int32)", "d[:] = torch.tensor(1.75, requires_grad=True)",
          "d.index_put_((torch.tensor([0, 0]),), torch.tensor([[1, -2]], dtype=torch.int32))",
          "e = mk()", "e.copy_(torch.tensor([5, 6, 7]))", "f = mk()", "f[...] = 4", "g = mk()", "g[:] = 4"],
         ["a", "b", "c", "d", "e", "e._version", "f", "g", "(lambda r: r.__setitem__(0, 2))(mk())",
          "(lambda r: r.__setitem__(slice(1, None), torch.tensor([5, 6, 7])))(mk())", "mk().abs_()",
          "mk().clamp_(0, 1)", "mk().neg_()", "mk().mul_(2)", "mk().unsqueeze(0)"]),
    case("scalar-values-checked-as-the-kernels-convert",  # (raises-only-agrad:scatter_) c10's checked_convert of
         # a number: scatter's value (uint8 takes -1 as 255), where's number (not float16's), pow's exponent
         # (integers and float16; a number base wraps), index_add's alpha (in its loop order)
         ["x = torch.tensor([3, 5], dtype=torch.uint8)", "c = torch.tensor([True, False])",
          "m = torch.zeros(2, 3, dtype=torch.int32)"],
         ["x.scatter(0, torch.tensor([0]), -1)", "x.scatter(0, torch.tensor([0]), -129, reduce='add')",
          "x.scatter(0, torch.tensor([0]), 256)", "x.half().scatter(0, torch.tensor([0]), 70000)",
          "x.float().scatter_(0, torch.tensor([0]), 1e300)", "x.scatter(0, torch.tensor([0]), -2**70)",
          "x.float().scatter_add_(0, torch.tensor([1.0]), x.float())", "x.scatter(0, torch.tensor([1], dtype=torch.int16), 1)",
          "torch.where(c, x, 256)", "torch.where(c, -1, x)", "torch.where(c, x.float(), 1e300)", "torch.where(c, x.half(), 1e300)",
          "torch.where(torch.ones(2), x, 256)", "torch.where(x, x, 1)", "x.pow(256)", "x.half().pow(1e300)",
          "torch.pow(-1, x)", "256 ** x", "x.index_add(0, torch.tensor([0]), x[:1], alpha=300)",
          "x.index_add(0, torch.tensor([], dtype=torch.long), x[:0], alpha=-0.5)",
          "m.index_add(1, torch.tensor([1, 4]), torch.ones(2, 2, dtype=torch.int32), alpha=2**40)",
          "m.index_add(1, torch.tensor([4, 1]), torch.ones(2, 2, dtype=torch.int32), alpha=2**40)",
          "m.index_add(1, torch.tensor([4]), torch.ones(2, 1, dtype=torch.int32))",
          "m.index_add(1, torch.tensor([], dtype=torch.long), torch.ones(2, 0, dtype=torch.int32), alpha=2**40)",
          "torch.zeros(2, 0).index_add(0, torch.tensor([5]), torch.zeros(1, 0))",
          "torch.tensor(2**63)", "torch.tensor([1, -2**63 - 1], dtype=torch.uint8)", "torch.ones(2).fill_(-2**70)"]),
    case("index-reduce-bool-and-excluded-self-order",  # (raises-only-torch:index_reduce, :index_reduce_) a bool
         # self: the excluded self's init dispatch, one dim's loop, more dims' mean division; the excluded self's
         # index_fill_ errors, an empty dim's select; scatter_reduce's bool mean kernel
         ["b = torch.tensor([True, True, False])", "s = torch.tensor([False, False, True])", "i = torch.tensor([2, 1, 1])",
          "b2 = torch.ones(3, 2, dtype=torch.bool)"],
         ["b.index_reduce(0, i, s, 'prod', include_self=False)", "b.clone().index_reduce_(0, i, s, 'amax', include_self=False)",
          "b.index_reduce(0, i, s, 'amin')", "b.index_reduce(0, i[:0], s[:0], 'mean')",
          "b2.index_reduce(0, i[:2], b2[:2], 'prod')", "b2.index_reduce(0, i[:2], b2[:2], 'mean')",
          "b2.index_reduce(0, i[:0], b2[:0], 'mean')", "b2.index_reduce(0, torch.tensor([5]), b2[:1], 'mean')",
          "torch.ones(3).index_reduce(0, torch.tensor([5]), torch.ones(1), 'prod', include_self=False)",
          "torch.ones(0).index_reduce(0, torch.tensor([1, 1]), torch.ones(2), 'amax', include_self=False)",
          "torch.ones(0, 2).index_reduce(0, torch.tensor([5]), torch.ones(1, 2), 'mean')",
          "b.scatter_reduce(0, i, s, 'mean')", "b.scatter_reduce(0, torch.tensor([5]), s[:1], 'mean')",
          "b.scatter_reduce(0, torch.tensor([5]), s[:1], 'mean', include_self=False)",
          "b.scatter_reduce(0, i[:0], s[:0], 'mean')", "b.scatter_reduce(0, i, s, 'prod', include_self=False)"]),
    case("set-none-matches-no-form",  # (known: set_(None)) a None given for source, storage_offset or size (a
         # stride without a size) is the parser's TypeError for the call as written; storage and Generator names
         ["x = torch.ones(2, 3)"],
         ["x.set_(None)", "x.set_(source=None)", "x.set_(x.untyped_storage(), None)", "x.set_(x, 0, None)",
          "x.set_(x, storage_offset=None)", "x.set_(x, stride=None)", "x.set_(x, 0, (2,), None)",
          "x.set_(x, 0, (2,), stride=None)", "x.set_(x, x.untyped_storage())", "x.set_(x, torch.Generator())",
          "x.set_()", "x.set_(torch.ones(4))"]),
    case("set-keyword-source-text-and-prelu-0d",  # (error-text:set_, raises-only-agrad:prelu, mini run seed
         # 34350000) set_'s TypeError for a call with keywords names them; prelu of a 0-d input takes a 0-d weight
         ["x = torch.tensor([2.5, -2.0, 0.5, 2.25], requires_grad=True)", "v = x.expand(2, 4)",
          "w = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)",
          "r = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True).prelu(w)"],
         ["v.set_(source=1)", "v.set_(x, storage_offset=1)", "v.set_(x, 1, (2,), stride=1.5)",
          "r", "torch.autograd.grad(r, w)", "r.grad_fn.next_functions",
          "torch.tensor(2.0).prelu(torch.tensor([0.5, 1.0]))"]),
    case("div-in-place-integer-written-until-zero",  # (value:divide_, dt34a) div_/divide_ with a floor or trunc
         # rounding of integers write their results in TensorIterator's order up to the first zero divisor
         ["x = torch.tensor([[[-4], [-4], [-4]], [[3], [2], [0]]])", "y = torch.tensor([[[2], [-2], [-4]], [[4], [0], [-1]]])",
          "z = torch.tensor([3, -7, 0, 5])"],
         ["x.divide_(y, rounding_mode='floor')", "x", "z.div_(torch.tensor([4, 2, 0, 2]), rounding_mode='trunc')", "z",
          "z.divide_(torch.tensor(2.0), rounding_mode=None)"]),
]
