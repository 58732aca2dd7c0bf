"""Regression cases of the tensor-surface groups (in-place ops, errors) of the session-32 end run, replayed in
session 33 (helper "groupsc").

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


ERR = "def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)"


CASES = [
    case("index-put-accumulate-expanded-memory",  # (raises-only-agrad:index_put_) accumulate into an expanded
         # tensor is warned, not refused: every sum lands in the memory its elements share; the value and
         # index tensors must not overlap the written tensor; too many indices: "(got n)", masks past the dims
         [ERR, "i = torch.tensor([0, 0])",
          "v = torch.tensor([[-1, 0, 1, -2], [0, -2, -2, -4]])",
          "c = torch.tensor([[1., 2.]])"],
         ["torch.index_put_(torch.tensor([-4, 2, 3, 0]).expand(2, 4), (i,), v, True)",
          "torch.tensor([1., 2.]).expand(3, 2).index_put_((torch.tensor([0, 2]),), torch.tensor([5., 6.]), True)",
          "torch.tensor([1.]).expand(3).index_put_((torch.tensor([0, 2]),), torch.tensor([5., 6.]), True)",
          "torch.tensor([1., 2.]).expand(3, 2).index_put_((torch.tensor([True, False, True]),), torch.tensor(5.), True)",
          "torch.tensor([1., 2.]).expand(3, 2).index_put_((torch.tensor([0, 1]), torch.tensor([1, 1])), torch.tensor(5.), True)",
          "torch.tensor([1., 2.]).expand(3, 2).index_put((torch.tensor([0, 2]),), torch.tensor([5., 6.]), True)",
          "err(lambda: (lambda x: x.index_put_((torch.tensor([0, 1]),), x[1:3], True))(torch.arange(4.)))",
          "err(lambda: (lambda x: x.index_put_((x[:2],), torch.tensor([7, 8]), True))(torch.arange(4)))",
          "err(lambda: (lambda x: x.index_put_((torch.tensor([0, 1]),), x, True))(torch.arange(4.)))",
          "err(lambda: torch.zeros(2, 2).index_put_((i, i, torch.tensor(1)), torch.tensor(1.), True))",
          "err(lambda: torch.index_put(torch.zeros(2, 2), (i, i, i), torch.tensor(1.)))",
          "err(lambda: torch.tensor(0.).index_put_((torch.tensor(True),), torch.tensor(1.)))",
          "err(lambda: torch.zeros(2, 2).index_put_((torch.ones(2, 2, 2, dtype=torch.bool),), torch.tensor(1.)))",
          "err(lambda: torch.zeros(2, 2).expand(2, 2).index_put_((torch.ones(2, 2, dtype=torch.bool), i), torch.tensor(1.), True))",
          "(lambda e: (e.index_put_((torch.tensor([0, 2]),), torch.tensor([5., 6.], requires_grad=True), True), e.grad_fn.name()))"
          "(c.expand(3, 2))"]),
    case("addbmm-inplace-resizes-self",  # (raises-only-agrad:addbmm_) addbmm_out's resize_as_: self takes the
         # product's shape, the old self copied in element by element over the same storage; a one-element
         # self whose expanded strides differ is refused by the copy (after the resize); out= resizes quietly
         [ERR, "B1 = torch.ones(2, 2, 3)", "B2 = torch.ones(2, 3, 2)",
          "b1 = torch.tensor([[[0.0]], [[3.0]]])", "b2 = torch.tensor([[[-1.0]], [[0.5]]])",
          "def g(x, **kw):\n    r = x.addbmm_(B1, B2, **kw)\n    return r, r.stride(), r.storage_offset()",
          "def h():\n    a = torch.tensor([1., 2.], requires_grad=True)\n    x = a * 1\n"
          "    b = torch.ones(2, 2, 3, requires_grad=True)\n    r = x.addbmm_(b, B2, beta=2)\n    r.sum().backward()\n"
          "    return r, x.shape, a.grad, b.grad.sum(), [n[0].name() for n in r.grad_fn.next_functions if n[0]]",
          "def h2():\n    a = torch.tensor([1., 2.], requires_grad=True)\n    x = a * 1\n    v = x[:1]\n"
          "    r = v.addbmm_(torch.ones(2, 1, 3), torch.ones(2, 3, 1, requires_grad=True), beta=2)\n"
          "    r.sum().backward()\n    return r, x, a.grad"],
         ["(lambda x: (x[0].addbmm_(b1, b2, beta=0), x))(torch.tensor([[-2.5]]))",
          "g(torch.tensor([[1.], [2.]]))", "g(torch.tensor([[1., 2.]]))", "g(torch.tensor([5.]))",
          "g(torch.tensor(5.))", "g(torch.tensor([[1.], [2.]]), beta=0)", "g(torch.tensor([[1., 2.], [3., 4.]]).t())",
          "(lambda b: (g(b[0]), b))(torch.tensor([[1., 2.], [3., 4.]]))",
          "(lambda b: (g(b[:, 0]), b))(torch.tensor([[1., 2.], [3., 4.]]))",
          "torch.tensor([1, 2]).addbmm_(torch.ones(2, 2, 3, dtype=torch.int64), torch.ones(2, 3, 2, dtype=torch.int64))",
          "torch.tensor([1., 2.]).addbmm_(torch.ones(0, 2, 3), torch.ones(0, 3, 2), beta=2)",
          "(lambda x: (err(lambda: x.addbmm_(b1, b2)), x.shape))(torch.tensor(5.))",
          "err(lambda: torch.tensor([4., 5.])[1].addbmm_(b1, b2))",
          "err(lambda: torch.tensor([[4., 5.], [6., 7.]])[:1, 1].addbmm_(b1, b2))",
          "torch.tensor([4., 5.])[1:].addbmm_(b1, b2)", "torch.tensor(5.).addbmm_(b1, b2, beta=0)",
          "err(lambda: torch.zeros(4).addbmm_(B1, B2))",
          "torch.addbmm(torch.zeros(1), b1, b2, out=torch.zeros(1))", "h()", "h2()"]),
    case("multinomial-half-and-row-checks",  # (raises-only-agrad:multinomial, error-text:multinomial) half
         # samples (its Exp(1) draws cast to half through float, the cumulative sums in float); the fast
         # path's checks only on the fast path; with replacement each entry in turn: not >= 0 (NaN too), then
         # finite, row after row (a bad row fails after the rows before it drew)
         [ERR, "def draws(dt):\n    out = []\n    for seed in range(12):\n        torch.manual_seed(seed)\n"
          "        x = torch.rand(3, 7).to(dt)\n        out.append((x.multinomial(4), x.multinomial(5, True),"
          " x[0].multinomial(1), x.t().multinomial(2)))\n    return out",
          "def rows(vals, dt):\n    torch.manual_seed(1)\n    x = torch.tensor(vals, dtype=dt)\n"
          "    return err(lambda: x.multinomial(3, replacement=True)), torch.rand(2)",
          "def draw(f, n, i):\n    torch.manual_seed(0)\n    return f(torch.empty(n, dtype=torch.float16))[i].item()"],
         ["draws(torch.float16)", "draws(torch.float32)",
          "torch.tensor([2.25, 1.75], dtype=torch.float16, requires_grad=True).multinomial(1)",
          "[rows(v, dt) for dt in (torch.float16, torch.float32, torch.float64) for v in ([[1.5, 2.], "
          "[float('inf'), -1.]], [[float('nan'), 1.]], [[-1., float('inf')]], [[0., 0.]], [[1.6], [float('inf')]])]",
          "err(lambda: torch.tensor([1.5, float('inf')], dtype=torch.float16).multinomial(1, True))",
          "err(lambda: torch.tensor([[0., 0.]], dtype=torch.float16).multinomial(2))",
          "draw(lambda x: x.exponential_(2.5), 34860, 34859)", "draw(lambda x: x.cauchy_(1., 3.), 16978, 16977)",
          "draw(lambda x: x.log_normal_(0.3, 1.5), 2502, 2501)", "draw(lambda x: x[::2].normal_(1, 3), 26932, 13465)"]),
    case("ldexp-inplace-no-resize-warning",  # (warning:ldexp_) the out-of-place ldexp warns of a resized output
         # (a float input, an integer exponent, a broadcast shape); ldexp_ refuses without the warning
         [ERR, "e3 = torch.tensor([-3, 0, -1], dtype=torch.int32)"],
         ["err(lambda: torch.tensor([-1.5, 2.25])[0].ldexp_(e3))", "err(lambda: torch.tensor([-1.5]).ldexp_(e3))",
          "err(lambda: torch.tensor([[2.]]).ldexp_(torch.tensor([[1], [2]])))",
          "err(lambda: (torch.tensor([2.], requires_grad=True) * 1).ldexp_(torch.tensor([1, 2])))",
          "torch.ldexp(torch.tensor([1.]), e3)", "torch.tensor([2., 3.]).ldexp_(torch.tensor([1, 2]))"]),
    case("set-overload-mismatch",  # (raises-only-torch:set_) set_'s forms: () / (source) / (source,
         # storage_offset, size, stride=None); any other combination is the parser's TypeError
         [ERR, "def Y():\n    return torch.tensor([1., 2., 3.])"],
         ["err(lambda: torch.tensor([False]).set_(size=()))", "err(lambda: Y().set_(stride=(1,)))",
          "err(lambda: Y().set_(Y(), size=(2,)))", "err(lambda: Y().set_(Y(), 1))",
          "err(lambda: Y().set_(Y(), 1, stride=(1,)))", "err(lambda: Y().set_(Y(), stride=(1,)))",
          "err(lambda: Y().set_(Y(), 1.5, (2,)))", "err(lambda: Y().set_(Y(), 1, 2))",
          "err(lambda: Y().set_(None, 1, (2,)))", "Y().set_(source=Y())", "Y().set_(Y(), 1, (2,))",
          "Y().set_(Y(), storage_offset=1, size=(2,))", "Y().set_(Y(), 1, (2,), (1,))",
          "Y().set_(Y().untyped_storage(), 1, (2,))", "Y().set_()"]),
    case("instance-norm-running-stat-dtypes",  # (error-type:instance_norm) a running mean of another dtype than
         # the weight's (else the input's) converts both statistics (an undefined variance: its error); batch
         # norm's typed reads: the running statistics before the bias in training; the running updates unfused
         [ERR, "x = torch.tensor([[[-0.75, 0.5], [2.25, -0.75], [1.25, 1.25], [0.75, -0.25]]])",
          "m = torch.tensor([2.0, -1.0, 0.0, 0.75], dtype=torch.float64)",
          "v = torch.tensor([1.0, 2.0, 3.0, 0.75])",
          "def inn(dx, dw, db, dm, dv):\n    mm = None if dm is None else m.to(dm).clone()\n"
          "    vv = None if dv is None else v.to(dv).clone()\n"
          "    r = err(lambda: F.instance_norm(x.to(dx), mm, vv, weight=None if dw is None else torch.ones(4, dtype=dw),"
          " bias=None if db is None else torch.ones(4, dtype=db)))\n    return r, mm, vv",
          "def bn(training, *ds):\n    w, b, rm, rv = (torch.full((4,), 0.5, dtype=d) for d in ds)\n"
          "    r = err(lambda: F.batch_norm(x, rm, rv, w, b, training=training, momentum=0.3))\n    return r, rm, rv",
          "f32, f64, f16 = torch.float32, torch.float64, torch.float16"],
         ["err(lambda: F.instance_norm(x, m, bias=torch.ones(4), momentum=0.1, eps=1e-05))",
          "[inn(f32, None, None, dm, dv) for dm in (None, f32, f64, f16) for dv in (None, f32, f64, f16)]",
          "[inn(f32, dw, db, dm, None) for dw in (None, f32, f64) for db in (None, f64) for dm in (f32, f64)]",
          "[inn(f64, dw, None, f64, f64) for dw in (None, f64)]",
          "[inn(f32, f32, db, f32, dv) for db in (f64, f16) for dv in (f16, f64)]",
          "[bn(t, f32, db, dm, dv) for t in (True, False) for db in (f32, f64, f16) for dm in (f32, f64, f16)"
          " for dv in (f32, f64, f16)]",
          "[bn(True, d, d, d, d) for d in (f32, f64)]"]),
    case("conv-one-output-channel-plus-zero",  # (repr:conv2d) the slow kernel's one-term reduction keeps the
         # product's -0.0, except with one output channel per group and no bias (a matrix-vector product whose
         # sum starts at +0.0; with a bias, at the bias)
         ["def s(t):\n    return t.detach().signbit().int().flatten().tolist()"],
         ["F.conv2d(torch.tensor([[[[2.0]]]], requires_grad=True), torch.tensor([[[[-0.75]]]], requires_grad=True), padding=1)",
          "s(F.conv2d(torch.zeros(1, 1, 3, 3), -torch.ones(1, 1, 1, 1)))",
          "s(F.conv1d(torch.ones(1, 1, 3), -torch.ones(1, 1, 1), padding=1, stride=2))",
          "s(F.conv3d(torch.ones(1, 1, 1, 1, 1), -torch.ones(1, 1, 1, 1, 1), padding=1))",
          "[s(F.conv2d(x.to(dt), w.to(dt), None if b is None else b.to(dt), padding=1)) for b in (None, torch.tensor([-0.0]),"
          " torch.tensor([0.0])) for x in (torch.zeros(1, 1, 2, 2), -torch.zeros(1, 1, 2, 2)) for w in (-torch.ones(1, 1, 1, 1),"
          " torch.ones(1, 1, 1, 1)) for dt in (torch.float32, torch.float64)]",
          "s(F.conv2d(torch.zeros(1, 1, 2, 2, dtype=torch.float64), -torch.ones(2, 1, 1, 1, dtype=torch.float64), padding=1))",
          "s(F.conv2d(torch.zeros(1, 2, 2, 2, dtype=torch.float64), -torch.ones(2, 1, 1, 1, dtype=torch.float64), padding=1, groups=2))"]),
    case("loss-fronts-read-as-functional",  # (error-text:margin_ranking_loss) F's Python fronts: margin_ranking_loss
         # reads .dim() then .size() in its message; binary_cross_entropy compares sizes before weight.size(),
         # broadcast_shapes and expand, the kernel's mul_ of a larger weight; poisson_nll_loss's parser takes
         # bools; multilabel_soft_margin_loss's logsigmoid(input) parses first
         [ERR, "x = torch.tensor([0.25, 0.5])", "v = torch.tensor([[0.5, 0.5], [1., 0.]])"],
         ["err(lambda: F.margin_ranking_loss(x, v, 3))", "err(lambda: F.margin_ranking_loss(x, x, 3))",
          "err(lambda: F.margin_ranking_loss(3, v, x))", "err(lambda: F.margin_ranking_loss(x, 3., x))",
          "err(lambda: F.binary_cross_entropy(x, v, 3))", "err(lambda: F.binary_cross_entropy(x, x, 3))",
          "err(lambda: F.binary_cross_entropy(x, x, torch.ones(3)))", "err(lambda: F.binary_cross_entropy(x, x, torch.ones(2, 2)))",
          "err(lambda: F.binary_cross_entropy(x, 3.))", "F.binary_cross_entropy(x, x, torch.ones(1))",
          "F.binary_cross_entropy(x, x, torch.ones(2, dtype=torch.float64))",
          "err(lambda: F.poisson_nll_loss(x, v, 3))", "err(lambda: F.poisson_nll_loss(x, x, True, 1))",
          "err(lambda: F.multilabel_soft_margin_loss(3, x))", "err(lambda: F.multilabel_soft_margin_loss(3., x, v))"]),
    case("cast-memory-format-copy-layout",  # (stride:bool) a cast to another dtype with memory_format= is laid out
         # in that format even where the input's suggested format is it (a transpose); the same dtype aliases
         # when the suggested format is the one asked for
         ["x = torch.arange(12.).reshape(1, 4, 3).transpose(0, -1)",
          "y = torch.arange(24.).reshape(1, 2, 3, 4).permute(0, 2, 3, 1)"],
         ["[getattr(x, n)(memory_format=torch.contiguous_format).stride() for n in ('bool', 'double', 'half', 'int', 'long')]",
          "x.float(memory_format=torch.contiguous_format) is x", "x.bool(memory_format=torch.preserve_format).stride()",
          "x.to(torch.bool, memory_format=torch.contiguous_format).stride()",
          "x.to(torch.float32, memory_format=torch.contiguous_format).stride()",
          "y.bool(memory_format=torch.channels_last).stride()", "y.float(memory_format=torch.channels_last).stride()",
          "y.float(memory_format=torch.contiguous_format).stride()",
          "torch.ones(3, 4, 1, requires_grad=True).transpose(0, -1).bool(memory_format=torch.contiguous_format).stride()",
          "torch.ones(3, 4, 1, requires_grad=True).transpose(0, -1).long(memory_format=torch.contiguous_format).stride()"]),
    case("uint8-data-wraps-negative-ints",  # (raises-only-agrad:new) a uint8 tensor made from Python ints takes
         # -255..-1 wrapping round (c10's checked_convert of an unsigned type); a negative float or past -255 overflows
         [ERR, "x = torch.tensor([1, 0], dtype=torch.uint8)"],
         ["x.new([-3])", "x.new([True, -1])", "x.new([[-1, 2]])", "x.new_tensor([-3])", "torch.tensor([-255], dtype=torch.uint8)",
          "err(lambda: torch.tensor([-256], dtype=torch.uint8))", "err(lambda: x.new([-3.5]))", "err(lambda: x.new([300]))",
          "err(lambda: torch.tensor([-3], dtype=torch.int8).new([300]))"]),
    case("unique-dim-result-storage",  # (raises-only-agrad:as_strided_scatter) unique along a dim: its result's
         # storage is its own elements (as_strided_scatter's bounds, untyped_storage)
         ["x3 = torch.tensor([[[2.5], [-2.25]], [[-2.75], [-0.25]], [[-3.0], [-2.0]], [[2.75], [1.5]]], dtype=torch.float16)",
          "r6 = x3.unique(dim=2)"],
         ["(r6.shape, r6.stride(), r6.untyped_storage().size(), r6.storage_offset())",
          "r6.as_strided_scatter(torch.tensor([0.0, -0.5], dtype=torch.float16), (2,), (2,), 3)",
          "[(r.stride(), r.untyped_storage().size()) for r in (x3.unique(dim=0), x3.unique(dim=1))]"]),
    case("uint8-index-is-a-mask",  # (known: a 0-d uint8 index) a uint8 index tensor is a mask: 0-d as a bool
         # (no warning), more dims with the deprecation warning; a uint8 mask with one value is masked_fill_'s
         # refusal (index_put_ hands it over)
         [ERR, "x = torch.tensor([1., 2., 3.])", "u = torch.tensor([1, 0, 2], dtype=torch.uint8)",
          "def st(idx, v):\n    y = x.clone()\n    y[idx] = v\n    return y"],
         ["x[torch.tensor(1, dtype=torch.uint8)]", "x[torch.tensor(0, dtype=torch.uint8)]",
          "x[torch.tensor(2, dtype=torch.uint8)]", "x[torch.tensor(1, dtype=torch.uint8), 1]",
          "torch.tensor(5.)[torch.tensor(1, dtype=torch.uint8)]", "x[u]", "torch.ones(3, 2)[u, 1]",
          "st(torch.tensor(1, dtype=torch.uint8), 5.)", "st(torch.tensor(0, dtype=torch.uint8), torch.tensor([5.]))",
          "err(lambda: st(u, 5.))", "err(lambda: st(u, torch.tensor([5.])))", "st(u, torch.tensor([5., 6.]))",
          "x.clone().index_put_((u,), torch.tensor([5., 6.]))", "err(lambda: x.clone().index_put_((u,), torch.tensor(5.)))",
          "err(lambda: x.clone().index_put_((torch.tensor(1, dtype=torch.uint8),), torch.tensor(7.)))",
          "x.clone().index_put_((u,), torch.tensor(5.), True)"]),
    case("to-tensor-keyword",  # (known: x.to(tensor=t)) to(other)'s parameter by its name
         [ERR, "x = torch.tensor([1., 2., 3.])", "t = torch.zeros(2, dtype=torch.float64)"],
         ["x.to(tensor=t)", "x.to(tensor=t, non_blocking=True)", "x.to(tensor=x) is x", "x.to(tensor=x, copy=True) is x",
          "x.to(tensor=2.0)", "x.to(tensor=2)", "x.to(tensor=True)", "err(lambda: x.to(t, tensor=t))",
          "err(lambda: x.to(tensor=t, dtype=torch.float16))", "err(lambda: x.to(other=t))"]),
    case("reduced-loss-storage",  # (known: reduced losses' untyped_storage().size()) mse, smooth_l1, soft_margin
         # and binary_cross_entropy reduce into the unreduced loss's tensor: its storage keeps its elements
         ["a = torch.tensor([0.25, 0.5, 0.75])", "b = torch.tensor([0.5, 0.25, 1.0])",
          "def sz(r):\n    return r.untyped_storage().size(), r.stride(), r.storage_offset()"],
         ["[(f, red, sz(getattr(F, f)(a, b, reduction=red))) for f in ('mse_loss', 'l1_loss', 'smooth_l1_loss', 'huber_loss',"
          " 'soft_margin_loss', 'binary_cross_entropy', 'binary_cross_entropy_with_logits') for red in ('mean', 'sum', 'none')]",
          "sz(F.mse_loss(a.double(), b.double()))", "sz(F.mse_loss(a[:0], b[:0]))", "sz(F.mse_loss(a, b[:1]))",
          "sz(F.mse_loss(torch.ones(2, 3), torch.ones(2, 3), reduction='sum'))"]),
    case("as-strided-scatter-overlapping-slice",  # (known: as_strided_scatter with an overlapping view) the slice
         # is written with copy_: a stride 0 over more than one element is its internal-overlap refusal
         [ERR, "b = torch.arange(6.)"],
         ["err(lambda: b.as_strided_scatter(torch.ones(3), (3,), (0,)))",
          "err(lambda: b.as_strided_scatter(torch.ones(2, 2), (2, 2), (0, 1)))",
          "err(lambda: b.as_strided_scatter(torch.ones(2), (3,), (0,)))",
          "b.as_strided_scatter(torch.ones(1), (1,), (0,))", "b.as_strided_scatter(torch.ones(0, 2), (0, 2), (0, 0))",
          "b.as_strided_scatter(torch.ones(2, 2), (2, 2), (1, 1))"]),
    case("scatter-like-inplace-autograd-first",  # (error-text:put_) put_/index_add_: autograd's leaf check before
         # the op's own checks (dtypes, index type, sizes)
         [ERR, "x = torch.ones(4, requires_grad=True)"],
         ["err(lambda: x.put_(torch.tensor([0], dtype=torch.int32), torch.ones(1)))",
          "err(lambda: x.put_(torch.tensor([0]), torch.ones(1, dtype=torch.float64)))",
          "err(lambda: x.put_(torch.tensor([0]), torch.ones(2)))",
          "err(lambda: x.index_add_(0, torch.tensor([0.]), torch.ones(1)))",
          "err(lambda: x.index_add_(3, torch.tensor([0]), torch.ones(1)))",
          "err(lambda: torch.ones(4).put_(torch.tensor([0]), torch.ones(1, dtype=torch.float64)))"]),
]
