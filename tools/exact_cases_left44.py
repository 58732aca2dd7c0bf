"""Regression cases of helper "left44" (session 44): leftovers of session 43 and the groups of its own runs.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("index-reduce-amin-amax-zero-tie-by-slice-loop",  # (repr:index_reduce, dt43d) a self of 2+ dims:
         # each index's slice is reduced by minimum_stub / maximum_stub, whose vector code (whole blocks of
         # 16 floats along the result's row) takes the source's zero on a tie, its scalar loop self's; the
         # result's own layout (in place, out=) decides the rows
         ["s = torch.zeros(3, 17).neg()", "src = torch.zeros(2, 17)", "i = torch.tensor([1, 0])",
          "r1 = torch.index_reduce(s, 0, i, src, 'amin')",
          "r2 = torch.index_reduce(s, 0, i, src, 'amax', include_self=False)",
          "o = torch.empty(17, 3).t()", "r3 = torch.index_reduce(s, 0, i, src, 'amin', out=o)",
          "r4 = s.t().contiguous().t().index_reduce_(0, i, src, 'amax')",
          "r5 = torch.index_reduce(s.double(), 0, i, src.double(), 'amin')",
          "r6 = torch.index_reduce(s[:, :8], 0, i, src[:, :8], 'amin')",
          "n = s.clone()", "n[1, ::2] = float('nan')", "r7 = torch.index_reduce(n, 0, i, src, 'amin')"],
         ["r1.signbit()", "r2.signbit()", "r3.signbit()", "r4.signbit()", "r5.signbit()", "r6.signbit()",
          "r7.signbit()", "r7.isnan()"]),
]
CASES += [
    case("scatter-index-ops-read-overlapping-src-in-loop-order",  # (value:scatter_add_, run 42242000) self a
         # strided view of src (c10 finds the overlap too hard: no error): the kernel reads each source element
         # from memory after its earlier writes -- scatter's loop over the index's elements, index_add_ /
         # index_reduce_'s over the index's slices, index_copy_'s over the source's elements
         ["idx = torch.tensor([[0, 0], [1, 1], [1, 0]])",
          "x1 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]], requires_grad=True)",
          "r1 = x1 * 1", "r1[::2].scatter_add_(0, idx, r1)", "r1.sum().backward()",
          "r2 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])", "r2[::2].scatter_(0, idx, r2)",
          "r3 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])",
          "r3[::2].scatter_reduce_(0, idx, r3, 'prod', include_self=False)",
          "r4 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]], dtype=torch.float64)",
          "r4[::2].index_add_(0, torch.tensor([0, 1, 1]), r4, alpha=2)",
          "r5 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])",
          "r5[::2].index_reduce_(0, torch.tensor([0, 1, 1]), r5, 'mean')",
          "r6 = torch.tensor([[-1.5, 0.25], [2.25, -2.75], [1.0, -3.0]])",
          "r6[::2].index_copy_(0, torch.tensor([1, 0]), r6[:2])",
          "r7 = torch.arange(12.).reshape(3, 4)", "r7[:, ::2].scatter_add_(1, torch.tensor([[1, 0, 1]] * 3), r7)"],
         ["r1", "x1.grad", "r2", "r3", "r4", "r5", "r6", "r7"]),
]
CASES += [
    case("layer-norm-mixed-type-dweight-dbias-float-sum-of-half-buffers",  # (grad-value:layer_norm, dt43) a half
         # input with float weight and bias: each thread's rows summed into half buffers (a fused
         # dy * (rstd * x - rstd * mean) added per row), the buffers added in float and kept float
         ["x = torch.tensor([[0.5, -1.25, 2.0, 0.375, -0.75, 1.5, 0.125, -2.0, 0.625], [1.75, 0.25, -0.5, -1.5, 2.25, "
          "-0.125, 0.875, -1.0, 0.3125], [-0.875, 1.125, 0.0625, 1.375, -1.625, 0.5625, -0.25, 1.875, -0.4375]], "
          "dtype=torch.float16, requires_grad=True)",
          "w = torch.tensor([0.3, -1.1, 0.7, 1.3, -0.4, 0.9, -1.7, 0.2, 1.05], requires_grad=True)",
          "b = torch.tensor([0.1, 0.2, -0.3, 0.4, -0.5, 0.6, -0.7, 0.8, -0.9], requires_grad=True)",
          "g = torch.tensor([[0.3, -0.7, 1.1, 0.45, -1.3, 0.2, 0.85, -0.6, 1.7], [-1.2, 0.35, 0.9, -0.15, 0.6, -1.9, "
          "0.4, 1.25, -0.8], [0.55, 1.45, -0.35, -1.05, 0.15, 0.75, -1.6, 0.05, 0.95]], dtype=torch.float16)",
          "torch.nn.functional.layer_norm(x, (9,), w, b).backward(g)",
          "x2 = x.detach()[:1].clone().requires_grad_()", "w2 = w.detach().clone().requires_grad_()",
          "torch.nn.functional.layer_norm(x2, (9,), w2, b).backward(g[:1])"],
         ["w.grad", "b.grad", "w2.grad", "w.grad.dtype"]),
]
CASES += [
    case("half-from-double-rounds-through-float",  # (found with layer_norm's probe) c10::Half is made from a float:
         # a double (a Python float, a float64 tensor, a 0-d float64 value) rounds to float32 first, then to half --
         # 0.009059905645078636 is 0x1.29p-7 so, 0x1.28cp-7 rounded once; fill_ and full take a float past half's
         # range as inf (an integer is checked), masked_fill checks
         ["x = 0.009059905645078636", "H = torch.float16", "z = torch.zeros(2, dtype=H)",
          "f64 = torch.tensor([x, -x], dtype=torch.float64)",
          "def hx(t):\n    return [float(v).hex() for v in t.float().reshape(-1).tolist()]"],
         ["hx(torch.tensor([x, 1.0], dtype=H))", "hx(torch.tensor(x, dtype=H))", "hx(torch.full((2,), x, dtype=H))",
          "hx(z.clone().fill_(x))", "hx(f64.half())", "hx(z.clone().copy_(f64))", "hx(z + x)", "hx(x - z)",
          "hx(torch.where(torch.tensor([True, False]), x, z))", "hx(z.clamp(min=x))", "hx(z.add(torch.ones(2, dtype=H), alpha=x))",
          "hx(torch.linspace(x, 3.0, 3, dtype=H))", "hx(z.clone().fill_(torch.tensor(x, dtype=torch.float64)))",
          "hx(torch.tensor([float('nan')], dtype=H).nan_to_num(x))", "hx(z.masked_fill(torch.tensor([True, False]), x))",
          "hx(torch.full((1,), 1e300, dtype=H))", "hx(torch.zeros(1, dtype=H).fill_(65519.99))", "hx(z.clone().fill_(65504.5))", "(torch.tensor([0.1], dtype=H) == 0.1).tolist()"]),
]
CASES += [
    case("grid-sample-bicubic-double-backward-wild-taps",  # (grad-value:pow, dt43b) the double backward's
         # kernel casts a tap's floor to int64: NaN, +-inf or a place past int64 is INT64_MIN, whose tap -1
         # wraps round to INT64_MAX -- a border clip puts the taps at both ends, reflection at
         # fmod(2**63, span) + min rounded to the nearest index; the fraction is the place less INT64_MIN
         ["x = torch.tensor([[[[0.0, -1.5, -1.25, 2.0], [-0.75, -0.5, 1.5, 2.0], [1.0, 0.5, -0.25, 1.25]]]], "
          "requires_grad=True)",
          "def dd(pts, pad, ac):\n    x.grad = None\n    g = torch.tensor([[pts]]).requires_grad_()\n"
          "    r = F.grid_sample(x, g, mode='bicubic', padding_mode=pad, align_corners=ac)\n"
          "    gs = torch.autograd.grad(r.sum(), [x, g], create_graph=True)\n"
          "    sum(t.pow(2).sum() for t in gs).backward()\n    return x.grad.isnan().int().tolist(), g.grad.isnan().int().tolist()"],
         ["dd([[-1.5, float('nan')], [0.2, -0.4]], 'border', False)", "dd([[float('inf'), 0.3], [0.2, -0.4]], 'border', True)",
          "dd([[0.3, float('-inf')], [0.2, -0.4]], 'reflection', False)", "dd([[float('nan'), 0.3]], 'reflection', True)",
          "dd([[1e30, -1.7], [0.2, -0.4]], 'zeros', False)", "dd([[0.3, -1e30]], 'border', False)"]),
]
CASES += [
    case("scatter-reduce-overlapping-src-dim-outside",  # (value:scatter_add_ follow-up) dim 0 of a 2-d self, an
         # index of (5, 2): PyTorch walks dim outside the row (reads src after the earlier steps' writes), the
         # -inf init of include_self=False read back through the overlap
         ["vals = [3.0, 1.5, -2.5, -1.25, -1.25, -2.5, 3.0, 1.5, -0.0, 1.5, 2.25, -0.0, 2.25, 3.0, -0.0, -1.25, "
          "-0.0, 2.25, 0.5, 3.0]", "idx = torch.tensor([[3, 2], [2, 3], [2, 3], [2, 3], [1, 3]])",
          "r1 = torch.tensor(vals).reshape(4, 5)", "r1[:, ::2].scatter_add_(0, idx, r1.t())",
          "r2 = torch.tensor(vals).reshape(4, 5)", "r2[:, ::2].scatter_reduce_(0, idx, r2.t(), 'amax', include_self=False)",
          "r3 = torch.tensor(vals).reshape(4, 5)", "r3[:, ::2].scatter_(0, idx, r3.t())",
          "r4 = torch.tensor(vals).reshape(5, 4)",
          "r4[::2].scatter_add_(1, torch.tensor([[3, 2, 1, 1, 0], [2, 3, 0, 1, 1]]), r4.t())"],
         ["r1", "r2", "r3", "r4"]),
]
CASES += [
    case("slogdet-small-float32-log-kernel",  # (value:slogdet, run 42406000) the LU's log|pivots| by PyTorch's
         # float32 log (through double here), not numpy's float32 loop: log 1.25 + log 0.8 is -2**-24
         ["x = torch.tensor([[-1.25, 0.75], [0.75, -1.25]])"],
         ["torch.slogdet(x)", "torch.logdet(x)", "torch.linalg.slogdet(x)"]),
]
