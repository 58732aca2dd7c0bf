"""Regression cases of helper "groupsa40" (session 40): groups of the lead's runs dt39c/dt40a.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

# every node of a graph with its edges as indices, in breadth-first order (the order of next_functions
# shows which gradient an AddBackward0 of the engine's accumulation took first)
EDGES = ("def edges(f):\n"
         "    order, out, i = [f], [], 0\n"
         "    while i < len(order):\n"
         "        row = []\n"
         "        for n, _ in order[i].next_functions:\n"
         "            if n is not None and not any(n is o for o in order):\n"
         "                order.append(n)\n"
         "            row.append(None if n is None else [j for j, o in enumerate(order) if o is n][0])\n"
         "        out.append((order[i].name(), row))\n"
         "        i += 1\n"
         "    return out")

CASES = [
    case("householder-product-double-backward-order",  # (grad_fn:grad, dt39c) the create_graph graph of
         # householder_product_backward: PyTorch's C++ evaluates a product's right operand (and a call's last
         # argument) first, so its first-backward nodes are made in that order and a double backward's
         # gradients meet in it
         [EDGES, "a = torch.tensor([[1.0, -2.25], [-2.0, -2.0], [-0.75, -0.25]], dtype=torch.float64, "
                 "requires_grad=True)",
          "t = torch.tensor([0.0], dtype=torch.float64)",
          "g1, = torch.autograd.grad(a.orgqr(t).sum(), [a], create_graph=True)",
          "g2, = torch.autograd.grad(g1.sum(), [a], create_graph=True)",
          "b = torch.tensor([[0.5, 1.0], [-1.0, 0.25], [2.0, -0.5]], dtype=torch.float64, requires_grad=True)",
          "tb = torch.tensor([0.5, -0.75], dtype=torch.float64, requires_grad=True)",
          "c = torch.tensor([[1.0, -0.5, 0.25], [0.75, 2.0, -1.0]], dtype=torch.float64)",
          "h1 = torch.autograd.grad(torch.ormqr(b, tb, c, left=False).sum(), [b, tb], create_graph=True)",
          "h2 = torch.autograd.grad(h1[0].sum() + h1[1].sum(), [b, tb], create_graph=True)"],
         ["edges(g2.grad_fn)", "g2", "edges(h2[0].grad_fn)", "edges(h2[1].grad_fn)", "h2[0]"]),
    case("setitem-value-view-restrided",  # (raises-only-torch:setitem, dt39) copy_to views the value without
         # its leading dims of one: c10's computeStride restrides a dim of one beside stride-0 dims to 0
         # ((0, 1, 0) -> (0, 0, 0)), so the expanded value is not laid out as ``v[None]`` (0, 0, 1, 0): no
         # early exit, and copy_ refuses v's internal overlap; the same value of the slice's own shape is
         # copy_'s early exit
         ["b = torch.tensor([[4]])", "v = b.expand(2, 1, 2)", "c = torch.tensor([[4, 5]])", "w = c.expand(2, 1, 2)",
          *outcomes(["v.__setitem__(None, v)", "v.__setitem__((None, None), v)",
                     "v.__setitem__(None, v.expand(1, 2, 1, 2))", "v.__setitem__((None, Ellipsis), v[None])",
                     "v.__setitem__(slice(None), v)", "w.__setitem__((None, None), c)", "w.__setitem__(None, w)",
                     "v.__setitem__(slice(None), v[None])"])],
         ["out", "b", "c"]),
    case("put-saves-source",  # (put_ on a view from a source aliasing it, groupse39) PutBackward0 saves source
         # where source requires grad: modified in place before the backward (put_ itself bumping the version of
         # the base the source views) is the version-counter error; a source that does not require grad is not
         # saved (_saved_source None) and may change
         ["x = torch.tensor([1., 2., 3., 4., 5., 6., 7., 8.], requires_grad=True)", "y = x * 1",
          "i = torch.tensor([0, 1, 2, 3])", "y[::2].put_(i, y[:4], accumulate=True)",
          "p = torch.tensor([1., 2., 3., 4.], requires_grad=True)", "q = p * 1", "s = torch.tensor([1., 2.])",
          "r = q.put(torch.tensor([0, 1]), s)", "s.add_(1)", "r.sum().backward()",
          "z = torch.tensor([1., 2.], requires_grad=True)", "w = z * 1",
          "r2 = torch.zeros(3).put(torch.tensor([2, 0]), w, accumulate=True)", "w.mul_(2)",
          *outcomes(["y.sum().backward()", "r2.sum().backward()", "r.grad_fn._saved_source",
                     "r2.grad_fn._saved_source"])],
         ["out", "p.grad", "x.grad", "z.grad"]),
    case("zerotensor-div-functional-only",  # (groupsa39's left difference) a ZeroTensor z (sgn's gradient):
         # div.Tensor's ZeroTensor kernel gives t / z inf everywhere and z / z NaN; div_, true_divide_, /=,
         # div(out=), a rounding mode, //, addcdiv, mul_ and mul(out=) have none: PyTorch materialises z (-0.0,
         # NaN and IEEE quotients)
         ["x = torch.tensor([0.5, 0.5, 0.5, 0.5], requires_grad=True)",
          "z, = torch.autograd.grad(x.sgn().sum(), x)", "t = torch.tensor([-2.0, 0.0, float('nan'), -0.0])",
          *outcomes(["t / z", "z / z", "z / t", "torch.true_divide(t, z)", "t.clone().div_(z)", "z / t.clone().div_(z)",
                     "t.clone().true_divide_(z)", "t.clone().__itruediv__(z)", "torch.div(z, t, out=torch.empty(4))",
                     "torch.div(z, z, out=torch.empty(4))", "torch.div(z, t, rounding_mode='floor')",
                     "torch.div(z, t, rounding_mode='trunc')", "torch.div(z, z, rounding_mode=None)", "z // t",
                     "torch.addcdiv(t, z, t)", "torch.addcdiv(t, t, z)", "t.clone().mul_(z)", "t.clone().__imul__(z)",
                     "torch.mul(t, z, out=torch.empty(4))", "(t * z)._is_zerotensor()", "(z / t)._is_zerotensor()"])],
         ["out"]),
    case("zerotensor-add-sub-functional-only",  # a ZeroTensor z (sgn's gradient): add's and sub's ZeroTensor
         # kernels give t + z and t - z t as it is and z - t -t (a -0.0 kept or made); add_, sub_, +=, out= and
         # rsub materialise z (-0.0 + 0 is +0.0); the engine adds out of place under create_graph
         ["x = torch.tensor([0.5, 0.5, 0.5, 0.5], requires_grad=True)",
          "z, = torch.autograd.grad(x.sgn().sum(), x)", "t = torch.tensor([-2.0, 0.0, float('nan'), -0.0])",
          *outcomes(["t + z", "z - t", "t - z", "torch.add(t, z, alpha=2)", "torch.sub(z, t, alpha=2)",
                     "t.clone().add_(z)", "t.clone().__iadd__(z)", "z.__rsub__(t)", "torch.rsub(t, z)",
                     "torch.add(z, t, out=torch.empty(4))", "torch.sub(z, t, out=torch.empty(4))",
                     "t.clone().sub_(z, alpha=-1)"]),
          "y = torch.tensor([-0.0, 0.0, 1.0], requires_grad=True)", "w = y * 1",
          "loss = (w * torch.tensor([-0.0, -1.0, 1.0]) * torch.tensor([1.0, 0.0, -0.0])).sum() + w.sgn().sum()",
          "g1, = torch.autograd.grad(loss, w, create_graph=True)", "g2, = torch.autograd.grad(loss, w)"],
         ["out", "g1", "g2"]),
    case("zerotensor-renorm-plain",  # renorm of a ZeroTensor: its own kernel, a plain result (agrad's forward
         # multiplied the ZeroTensor's data, which numpy kept a ZeroTensor)
         ["x = torch.tensor([[0.5, 0.5], [0.5, 0.5]], requires_grad=True)",
          "z, = torch.autograd.grad(x.sgn().sum(), x)", "r = torch.renorm(z, 2, 0, 1)"],
         ["r._is_zerotensor()", "r.clone()", "r + torch.tensor([-0.0, 1.0])"]),
    case("vector-lanes-permuted-dims",  # (grad-value:backward, own run 39711000) operands dense in another order
         # of their dims (x.mT of a batch, an expanded gradient): TensorIterator walks them in that order, one
         # flat loop, so the vector code runs (logit_backward with a NaN eps: 0 there, the scalar loop's
         # dy / (x (1 - x)) elsewhere; gelu's tanh backward's own rounding); agrad took the scalar loop's
         ["x2 = torch.tensor([[[2.75, -0.75], [1.5, 2.5]], [[1.5, -1.5], [-1.25, 2.5]], [[-1.0, 1.0], [0.0, -0.75]], "
          "[[2.25, -2.0], [1.25, 0.0]]], requires_grad=True)",
          "torch.logit(x2.mT, float('nan')).sum().backward()",
          "x3 = (torch.arange(32.) / 7 - 2.3).reshape(2, 4, 4).requires_grad_()",
          "g3, = torch.autograd.grad(torch.nn.functional.gelu(x3.permute(1, 2, 0), approximate='tanh').sum(), x3)",
          "x4 = (torch.arange(32.) / 9 - 1.7).reshape(2, 4, 4).requires_grad_()",
          "g4, = torch.autograd.grad(torch.logit(x4.mT, float('nan')).sum(), x4)"],
         ["x2.grad", "g3", "g4"]),
    case("add-sub-alpha-fused",  # add / sub / rsub with an alpha, float32 and float64: PyTorch's kernel is
         # fma(other, alpha, self), rounded once (the vector code's fmadd, the scalar loop contracted), not
         # alpha * other rounded and then added
         ["a = torch.tensor([0.6870, -2.1580, 1.3071, 0.4476, -3.0127, 2.2253, 0.1, -0.77])",
          "b = torch.tensor([-1.1330, 0.6413, -0.2851, 1.9932, 0.5514, -0.0707, 2.3, 1.17])",
          "a64 = a.double() * 1.1", "b64 = b.double() / 3"],
         ["torch.add(a, b, alpha=0.7).tolist()", "torch.sub(a, b, alpha=-1.3).tolist()",
          "torch.rsub(a, b, alpha=0.3).tolist()", "a.clone().add_(b, alpha=0.1).tolist()",
          "torch.add(a64, b64, alpha=0.7).tolist()", "torch.sub(a64.t(), b64, alpha=1.9).tolist()",
          "a64.clone().sub_(b64, alpha=0.3).tolist()", "torch.rsub(a64, b64, alpha=-2.1).tolist()"]),
    case("add-sub-alpha-number",  # add / sub / rsub with an alpha and a number or 0-d tensor other (TensorIterator's
         # CPU scalar): the vector loop's fmadd, the compiled tail's first element fused, then SSE-wide groups adding
         # the product made once, the rest fused; a strided self fused throughout; rsub fused
         ["a = torch.linspace(-3.1, 2.9, 37)", "a64 = torch.linspace(-2.3, 3.7, 23, dtype=torch.float64)"],
         ["torch.add(a, 2.3, alpha=0.7).tolist()", "torch.sub(a, -0.37, alpha=-1.3).tolist()",
          "torch.add(a[::2], 1.7, alpha=0.1).tolist()", "torch.add(a, torch.tensor(2.3), alpha=0.7).tolist()",
          "torch.rsub(a, 2.3, alpha=0.7).tolist()", "torch.add(a64, 2.3, alpha=0.7).tolist()",
          "a64.clone().sub_(3, alpha=0.7).tolist()", "torch.rsub(a64, -0.37, alpha=0.1).tolist()"]),
]
