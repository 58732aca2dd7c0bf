"""Regression cases of session 38's lead work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes as _outcomes


CASES = [
    # cumulative_trapezoid of a 0-d y: ATen slices before it wraps the dim (the slice's own error, whatever
    # dim), after its dtype and dx checks; with a 1-D x, y.size(dim)'s error (dt38a error-text)
    case("cumulative-trapezoid-0d",
         _outcomes(["torch.cumulative_trapezoid(torch.tensor(-0.25))",
                    "torch.cumulative_trapezoid(torch.tensor(-0.25), dx=2.)",
                    "torch.cumulative_trapezoid(torch.tensor(-0.25), dim=1)",
                    "torch.cumulative_trapezoid(torch.tensor(-0.25), torch.tensor(1.))",
                    "torch.cumulative_trapezoid(torch.tensor(1.), torch.tensor([1., 2]))",
                    "torch.cumulative_trapezoid(torch.tensor(True))",
                    "torch.cumulative_trapezoid(torch.tensor(1.), dx=True)"]),
         ["out"]),
    # reflection/replication pad: ATen's check_valid_input (only a batch dim may be empty) before the padding
    # checks (dt38a error-type:pad: an IndexError from inside agrad)
    case("pad-reflect-replicate-empty-dims",
         _outcomes([f"tuple(F.pad(torch.zeros({s}), {p}, mode='{m}').shape)"
                    for s in ["(2, 0)", "(0, 3)", "(2, 0, 3)", "(0, 2, 3)", "(1, 2, 0, 2)", "(0, 1, 2, 2)"]
                    for m in ["replicate", "reflect"] for p in ["(2, 1)", "(1, 1, 1, 1)", "(0, 0)"]]),
         ["out"]),
    # addr_: after the vectors' 1-D checks, self's 2-D shape (ATen's addr_), then beta and alpha (dt38a error-text)
    case("addr-inplace-check-order",
         ["i3 = torch.tensor([1, 2, 3])", "i33 = torch.ones(3, 3, dtype=torch.int64)", "v = torch.tensor([1, 2, 3])"] +
         _outcomes(["i3.clone().addr_(v, v, beta=2.0)", "i3.clone().addr_(v, v, alpha=True)",
                    "i33.clone().addr_(v, v, beta=2.0)", "i3.clone().addr_(i33, v, beta=2.0)",
                    "torch.ones(3, 4, dtype=torch.int64).addr_(v, v, beta=2.0)",
                    "torch.ones(1, 3, dtype=torch.int64).addr_(v, v, alpha=0.5)",
                    "torch.ones((), dtype=torch.int64).addr_(v, v, alpha=0.5)",
                    "i33.clone().addr_(v.float(), v, alpha=0.5)", "i33.clone().addr_(v, v, beta=2, alpha=3)"]),
         ["out"]),
    # binary_cross_entropy saves its (expanded) weight, binary_cross_entropy_with_logits its weight and
    # pos_weight: changed in place before backward, PyTorch's version error (dt38a raises-only-torch:backward)
    case("bce-saved-weight-version",
         ["x = torch.tensor([[0.25, 0.5, 0.75], [0.5, 0.125, 0.625]], requires_grad=True)",
          "t = torch.tensor([[0., 1, 1], [1, 0, 1]])", "out = []",
          "for k in range(5):\n    w = torch.tensor([1.5, 0.5, 2.0])\n    try:\n"
          "        if k == 0:\n            r = F.binary_cross_entropy(x, t, weight=w)\n"
          "        elif k == 1:\n            r = F.binary_cross_entropy(x, t, weight=w.expand(2, 3), reduction='none')\n"
          "        elif k == 2:\n            r = F.binary_cross_entropy_with_logits(x, t, weight=w)\n"
          "        elif k == 3:\n            r = F.binary_cross_entropy_with_logits(x, t, pos_weight=w)\n"
          "        else:\n            r = F.nll_loss(x, torch.tensor([2, 0]), weight=w)\n"
          "        w.mul_(2)\n        r.sum().backward()\n        out.append(x.grad.clone())\n"
          "    except RuntimeError as e:\n        out.append(str(e))",
          "w = torch.tensor([1.5, 0.5, 2.0])",
          "r1 = F.binary_cross_entropy(x, t, weight=w)", "r2 = F.binary_cross_entropy_with_logits(x, t, pos_weight=w)",
          "r3 = F.nll_loss(x, torch.tensor([2, 0]), weight=w)"],
         ["out", "r1.grad_fn._saved_weight", "r2.grad_fn._saved_pos_weight", "r2.grad_fn._saved_weight",
          "r3.grad_fn._saved_weight"]),
    # a leaf packed by a saved_tensors_hooks pack hook: its unpacked tensor's gradient reaches the leaf's
    # AccumulateGrad under create_graph (was "appears to not have been used in the graph")
    case("saved-tensors-hooks-leaf-double-backward",
         ["x = torch.tensor([[0.25, 0.5, 0.75], [0.5, 0.125, 0.625]], requires_grad=True)",
          "t = torch.tensor([[0., 1, 1], [1, 0, 0.5]], requires_grad=True)", "w = torch.tensor([1.5, 0.5, 2.0])",
          "with torch.autograd.graph.saved_tensors_hooks(lambda a: a * 1, lambda a: a):\n"
          "    r = F.binary_cross_entropy(x, t, weight=w) + x.sin().sum()\n"
          "    r = r + F.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=w * 2, reduction='sum')",
          "g = torch.autograd.grad(r, [x, t], create_graph=True)",
          "gg = torch.autograd.grad(g[0].sum() + g[1].sum(), [x, t])"],
         ["g", "gg"]),
    # renorm_: its meta function's checks (p, maxnorm, the input's dims, dim) before TensorIterator's overlap
    # error, the dtype's after (dt38a error-text:renorm_)
    case("renorm-inplace-meta-before-overlap",
         ["e = torch.ones(1, 3).expand(4, 3)", "i = torch.ones(1, 3, dtype=torch.int64).expand(4, 3)"] +
         _outcomes(["e.renorm_(-2.0, 0, 0.25)", "e.renorm_(2.0, 0, -0.25)", "e.renorm_(2.0, 3, 0.25)",
                    "e.renorm_(2.0, 0, 0.25)", "i.renorm_(2, 0, 1)", "i.renorm_(-2, 0, 1)",
                    "torch.ones(2, 3, dtype=torch.int64).renorm_(2, 0, 1)"]),
         ["out"]),
    # float64 convolutions of one-term reductions without a bias: one output position (as one output channel
    # per group) makes the slow kernel's gemm a matrix-vector product whose sums start at +0.0 (dt38a repr:conv1d)
    case("conv-one-term-zero-signs",
         ["out = []",
          "for g, cin, cout, L in [(2, 2, 4, 1), (1, 1, 2, 1), (1, 1, 3, 1), (2, 2, 4, 3), (3, 3, 6, 1), (1, 1, 1, 2)]:\n"
          "    x = -torch.arange(1., cin * L + 1, dtype=torch.float64).reshape(1, cin, L)\n"
          "    w = torch.zeros(cout, cin // g, 1, dtype=torch.float64)\n"
          "    out.append(torch.conv1d(x, w, groups=g))\n"
          "    out.append(torch.conv2d(x[..., None], w[..., None], groups=g))",
          "r = torch.conv1d(torch.tensor([[-0.75], [-1.75]], dtype=torch.float64), "
          "torch.tensor([[[-1.5]], [[-2.0]], [[0.0]], [[-2.0]]], dtype=torch.float64), padding='same', groups=2)"],
         ["out", "r"]),
    # torch.unflatten wraps the dim before its empty-sizes check, Tensor.unflatten checks the sizes first;
    # linalg.pinv's rcond is no optional: rcond=None is the parser's TypeError (dt38b error-type:unflatten,
    # raises-only-torch:pinv)
    case("unflatten-sizes-and-pinv-rcond-none",
         ["x = torch.tensor([[1.75], [-1.5]])"] +
         _outcomes(["torch.unflatten(torch.tensor(2.25), 1, ())", "torch.unflatten(torch.tensor(2.25), 0, ())",
                    "torch.tensor(2.25).unflatten(-2, ())", "torch.ones(2).unflatten(3, ())",
                    "torch.unflatten(torch.ones(2), 3, ())", "torch.ones(2, 3).unflatten(1, (3, 1))",
                    "torch.linalg.pinv(x, rcond=None)", "torch.linalg.pinv(x, None)",
                    "torch.linalg.pinv(x, rcond=None, hermitian=True)", "torch.linalg.pinv(x, rcond=0.1)",
                    "torch.linalg.pinv(x)", "torch.linalg.pinv(x, atol=None, rtol=None)"]),
         ["out"]),
    # a not-implemented derivative raises when no gradient reaches its node too (norm(0)'s backward gives
    # none): PyTorch's generated code runs not_implemented formulas unconditionally (dt38b raises-only-torch:grad)
    case("not-implemented-derivative-with-undefined-gradient",
         ["x1 = torch.tensor(0.75, requires_grad=True)", "y = torch.tensor(0.5)",
          "w = torch.tensor([1.0, 2.0], requires_grad=True)"] +
         _outcomes(["torch.autograd.grad(torch.igamma(x1, x1).norm(0.0), [x1], create_graph=True)",
                    "torch.autograd.grad(torch.igamma(x1, y).norm(0.0), [x1])",
                    "torch.autograd.grad(torch.igamma(y, x1).norm(0.0), [x1])",
                    "torch.autograd.grad(torch.igamma(x1, x1).norm(0.0), [x1], allow_unused=True, "
                    "materialize_grads=True)",
                    "torch.autograd.grad(torch.igammac(w, w).sign().sum(), [w])",
                    "torch.autograd.grad(torch.special.zeta(x1 + 1, x1).norm(0.0), [x1])",
                    "torch.autograd.grad(torch.special.zeta(torch.tensor(2.0), x1).norm(0.0), [x1])",
                    "torch.autograd.grad((torch.igamma(w, w) * 1).norm(0.0), [w], create_graph=True)"]),
         ["out"]),
    # an in-place op on a view under autograd.grad: the op's self edge (its view's node of the time) is wanted
    # when the base is, so igamma_'s not-implemented input raises as PyTorch's (dt38c raises-only-torch:grad)
    case("inplace-view-op-self-gradient-wanted-with-the-base",
         ["def prog(k):\n    x5 = torch.tensor([[0.0, 0.5, -1.5], [2.5, 0.0, -1.75]], requires_grad=True)\n"
          "    o = torch.tensor(-1.5, requires_grad=True)\n    r10 = x5 * 1\n"
          "    if k == 0:\n        r11 = r10[0].igamma_(o)\n    elif k == 1:\n        r11 = r10[0].igammac_(o)\n"
          "    else:\n        r11 = r10[1].mul_(o)\n"
          "    return torch.autograd.grad(r11.sum(), [x5], create_graph=True, allow_unused=True)"] +
         _outcomes(["prog(0)", "prog(1)", "prog(2)"]),
         ["out"]),
    # put/put_ with repeated indices: TensorIterator visits (source, index) in the source's memory order, so a
    # transposed source's last-visited value wins, and accumulate adds in that order (dt38c value:put)
    case("put-repeated-index-source-memory-order",
         ["x1 = torch.arange(48.).reshape(3, 4, 4)", "v2 = x1.transpose(0, -1)",
          "i = torch.tensor([[[-4, -3, -2, 4], [4, -1, -2, 2], [-3, -2, -3, 3], [2, -1, -3, 0]], "
          "[[-2, 3, -4, 1], [4, -3, 0, -3], [4, -2, -4, 3], [0, 1, -3, -3]], "
          "[[3, 1, 1, 0], [3, -1, -4, -4], [-3, -1, -4, 0], [1, -1, -4, -1]]]).transpose(0, -1)",
          "s = torch.tensor([[0.1, 0.2, 0.3], [1e8, 1.0, -1e8]]).t()",
          "j = torch.tensor([[0, 0], [1, 0], [0, 1]])"],
         ["x1.put(i, v2)", "x1.put(i, v2, accumulate=True)", "torch.zeros(2).put(j, s)",
          "torch.zeros(2).put(j, s, accumulate=True)", "torch.zeros(2).put_(j, s)"]),
    # bernoulli(p) draws into a C-ordered result whatever p's layout (dt38c stride:bernoulli)
    case("bernoulli-tensor-p-contiguous-result",
         ["torch.manual_seed(0)", "p = torch.full((4, 3), 0.5)",
          "ts = [p.t(), torch.full((2, 3, 4), 0.5).permute(0, 2, 1), "
          "torch.full((1, 3, 2, 2), 0.5).contiguous(memory_format=torch.channels_last)]",
          "out = [(torch.bernoulli(t), torch.bernoulli(t).stride(), t.bernoulli().stride()) for t in ts]"],
         ["out"]),
    # take's backward puts the gradient into zeros_like(self): laid out as take's input (a transposed or
    # permuted one too), so the leaf's gradient has PyTorch's strides (dt38d stride:grad)
    case("take-backward-zeros-like-self-layout",
         ["x2 = torch.tensor([[0.0, 1.5], [0.5, -0.0], [0.0, -1.5]], requires_grad=True)",
          "y = torch.arange(24.).reshape(2, 3, 4).requires_grad_()",
          "def g(v, leaf, cg):\n    r = torch.take(v, torch.tensor([0, 1, 1]))\n"
          "    out = torch.autograd.grad(r.sum(), [leaf], create_graph=cg)[0]\n    return out, out.stride()"],
         ["g(x2.t(), x2, True)", "g(x2.t(), x2, False)", "g(x2[::2], x2, False)", "g(y.permute(2, 0, 1), y, False)",
          "g(y.transpose(1, 2)[:, ::2], y, True)", "g(y[:1].expand(3, 3, 4), y, False)"]),
]
