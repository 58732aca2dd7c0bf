"""Regression cases of the last undocumented groups of run dt20k-29b and of the out= gaps
(helper "groups").

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("histogram-range-nan-is-the-first-met",  # (dt20k-29b error-text:histogram) aminmax over dim 0 is
         # one scalar loop per column: it stops at the first NaN and returns it, sign and all
         ["n = float('nan')", "x = torch.tensor([-1.75, 0.25, -2.0, 1.5], dtype=torch.float64)",
          "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)"],
         ["err(lambda: torch.arccos(x).histogram(3))", "err(lambda: torch.tensor([-n, 1.0, n]).histogram(2))",
          "err(lambda: torch.tensor([1.0, n, -n]).histogram(2))",
          "[v.signbit() for v in torch.tensor([[1.0, -n], [n, 2.0], [-n, n]]).aminmax(dim=0)]",
          "[v.signbit() for v in torch.tensor([[1.0, -n, n], [n, -n, 2.0]]).aminmax(dim=1)]"]),
    case("histc-range-around-one-value",  # (dt20k-29b error-text:histc) one below and one above the value;
         # for float and double an end that rounds back onto it is the next representable number
         ["def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)",
          "i = float('inf')"],
         ["err(lambda: torch.tensor(-i).histc())", "err(lambda: torch.tensor([i, i]).histc(3))",
          "err(lambda: torch.tensor(-i, dtype=torch.float64).histc(2))",
          "err(lambda: torch.tensor([-i, -i], dtype=torch.float16).histc(2))",
          "[torch.tensor([v, v]).histc(b) for v in (2.0 ** 24, -2.0 ** 24, 2.0 ** 25, 1e20, 4.0) for b in (2, 3)]",
          "[torch.tensor([v, v], dtype=torch.float64).histc(4) for v in (1e20, 2.0 ** 53, -3e300)]",
          "[torch.tensor([v, v], dtype=torch.float16).histc(3) for v in (2048.0, -2048.0, 4096.0)]",
          "err(lambda: torch.tensor([1e4, 1e4], dtype=torch.float16).histc(3, min=1e20, max=1e20))",
          "torch.tensor([], dtype=torch.float32).histc(3, min=1e20, max=1e20)"]),
    case("mvlgamma-polygamma-int-tensor-argument",  # (dt20k-29b error-type:mvlgamma_) the parser reads a 0-d
         # integer tensor as the int p (n); mvlgamma_out's own checks: bool input, p, then its cast text
         ["def err(f):\n    try:\n        return f()\n    except (RuntimeError, TypeError) as e:\n        return str(e)",
          "T = torch.tensor", "x = T([2.5, 3.0], requires_grad=True)"],
         ["err(lambda: T(0).swapdims_(-1, 0).mvlgamma_(T(3)))", "x.mvlgamma(T(2))", "torch.special.multigammaln(x, T(2))",
          "torch.autograd.grad(x.mvlgamma(p=T(3)).sum(), x)", "err(lambda: x.mvlgamma(T(2.)))", "err(lambda: x.mvlgamma(T([2])))",
          "err(lambda: x.mvlgamma(T(True)))", "err(lambda: torch.mvlgamma(T([True]), 0))", "err(lambda: T([True]).mvlgamma_(2))",
          "err(lambda: T([2]).mvlgamma_(0))", "err(lambda: T([2], dtype=torch.int32).mvlgamma_(2))",
          "err(lambda: torch.mvlgamma(T([2.5]), 2, out=torch.zeros(1, dtype=torch.int64)))",
          "err(lambda: torch.mvlgamma(T([2]), 2, out=torch.zeros(1, dtype=torch.int64)))",
          "torch.mvlgamma(T([2], dtype=torch.int32), 2, out=torch.zeros(1, dtype=torch.float16))",
          "err(lambda: torch.zeros(2, dtype=torch.int64).expand(2, 2).mvlgamma_(2))",
          "torch.polygamma(T(2), T([1.5]))", "T([1.5, 2.0]).polygamma_(T(1))", "torch.special.polygamma(T(1), x)",
          "err(lambda: torch.polygamma(T(2.), T([1.5])))"]),
    case("cast-keeps-a-dense-tensors-strides",  # (dt20k-29b stride:kron) to()'s preserve_format copy of a dense
         # tensor, and TensorIterator's cast of an operand, keep its very strides (size-1 dims' too)
         ["x1 = torch.tensor([[[0.0, 1.75, -0.5]], [[0.25, 2.5, -2.75]], [[0.0, 1.25, -2.0]]], dtype=torch.float16)",
          "x2 = torch.tensor([[0.75], [-1.0], [2.5], [-1.75]], dtype=torch.float32, requires_grad=True)",
          "r4 = x1.moveaxis(-1, -3)", "a = r4.reshape(3, 1, 3, 1, 1, 1)"],
         ["torch.kron(r4, x2).stride()", "torch.kron(r4.double(), x2).stride()", "torch.kron(x2, r4).stride()",
          "a.stride()", "a.float().stride()", "(a * x2.reshape(1, 1, 1, 4, 1, 1)).stride()[:4]",
          "(a.double() * x2.reshape(1, 1, 1, 4, 1, 1)).stride()[:4]"]),
    case("zero-tensor-gradient-strides",  # (dt20k-29b stride:grad) sgn's ZeroTensor gradient keeps the strides
         # its views give it (TBackward0: transposed), and views of it follow them
         ["x = torch.tensor([[-2.25, 2.25, 3.0], [3.0, float('nan'), -0.75], [0.0, 0.75, 0.75]], requires_grad=True)",
          "g, = torch.autograd.grad(x.t().sgn().reshape_as(x).sum(), [x], create_graph=True)",
          "h, = torch.autograd.grad(x.t().sgn().sum(), [x])",
          "y = torch.zeros(2, 3, 4, requires_grad=True)",
          "k, = torch.autograd.grad(y.permute(2, 0, 1).sgn().sum(), [y])"],
         ["g.stride()", "g.is_contiguous()", "h.stride()", "k.stride()", "g.reshape(9).stride()", "g.t().reshape(9)",
          "g.t().view(9)"]),
    case("nextafter-gradient-is-a-where",  # (dt20k-29b grad_fn:grad) at::where(self != other, grad, 0)
         [GRAPH, "x1 = torch.tensor([-2.0, -0.75], requires_grad=True)", "o = torch.tensor([2.0, 2.75], requires_grad=True)",
          "r9 = x1[0].nextafter(o).sinc()",
          "g, = torch.autograd.grad(r9.sum(), [x1], create_graph=True, allow_unused=True, materialize_grads=True)",
          "a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
          "ga, gb = torch.autograd.grad((a.nextafter(torch.tensor([2.0, 2.0, 1.0])) * a).sum(), [a, o],"
          " create_graph=True, allow_unused=True)"],
         ["graph(g.grad_fn)", "g", "ga", "graph(ga.grad_fn)", "gb"]),
    case("nansum-dtype-gradient-cast-first",  # (dt20k-29b grad_fn:backward) nansum_backward(grad.to(self's
         # dtype), ...): the cast, then the expand and the mask
         [GRAPH, "x1 = torch.tensor([[[-0.5], [0.0], [-3.0]], [[0.0], [1.5], [-0.5]]], dtype=torch.float16, requires_grad=True)",
          "r2 = x1.atan2(torch.tensor([[-1.0], [1.0], [-0.5]], dtype=torch.float16, requires_grad=True))",
          "r6 = (torch.nanmean(r2, dtype=torch.float32) / torch.tensor(2.0)).var(unbiased=False)",
          "r6.sum().backward(create_graph=True)",
          "y = torch.tensor([1.0, float('nan'), 2.0], dtype=torch.float16, requires_grad=True)",
          "gy, = torch.autograd.grad(torch.nansum(y * y, dtype=torch.float64), y, create_graph=True)"],
         ["graph(x1.grad.grad_fn)", "x1.grad", "graph(gy.grad_fn)", "gy"]),
    case("out-of-softmax-threshold-conj-physical-nansum",  # (docs/semantics.md's out= gaps) torch.softmax and
         # log_softmax, threshold and conj_physical take out=; nansum of floats into an integer out refuses
         [GRAPH, "def err(f):\n    try:\n        return f()\n    except (RuntimeError, TypeError, NotImplementedError) as e:\n"
          "        return type(e).__name__ + ': ' + str(e)",
          "x = torch.tensor([[1.0, 2.0, -3.0], [0.5, -1.0, 4.0]])", "xg = x.clone().requires_grad_()",
          "o1 = torch.zeros(3, 2).t()", "r1 = torch.softmax(x, 1, out=o1)", "o2 = torch.zeros(0)",
          "r2 = torch.log_softmax(xg, 1, out=o2)", "o3 = torch.zeros(1, 2, 3)", "r3 = torch.conj_physical(xg, out=o3[0])"],
         ["r1 is o1", "o1", "o1.stride()", "o2", "graph(o2.grad_fn)", "err(lambda: o2.sum().backward())",
          "o3", "graph(o3.grad_fn)",
          "err(lambda: torch.softmax(x, 1, out=torch.zeros(2, 3, dtype=torch.float64)))",
          "torch.softmax(x, 1, dtype=torch.float64, out=torch.zeros(2, 3, dtype=torch.float64))",
          "err(lambda: torch.softmax(torch.tensor([[1, 2]]), 1, out=torch.zeros(1, 2)))",
          "err(lambda: torch.log_softmax(x, 1, out=torch.zeros(2, 3, requires_grad=True)))",
          "err(lambda: x.softmax(1, out=torch.zeros(2, 3)))", "err(lambda: torch.special.log_softmax(x, 1, out=torch.zeros(2, 3)))",
          "torch.threshold(x, 0.5, -1.0, out=torch.zeros(2, 3, dtype=torch.float64))",
          "torch.threshold(torch.tensor([1, 2, 3]), 2.5, 0, out=torch.zeros(3, dtype=torch.long))",
          "err(lambda: torch.threshold(x, 0.5, -1.0, out=torch.zeros(2, 3, dtype=torch.int64)))",
          "err(lambda: torch.threshold(xg, 0.5, -1.0, out=torch.zeros(2, 3)))",
          "err(lambda: F.threshold(x, 0.5, -1.0, out=torch.zeros(2, 3)))",
          "err(lambda: torch.conj_physical(torch.tensor([1, 2]), out=torch.zeros(2)))",
          "torch.conj_physical(torch.tensor([True, False]), out=torch.zeros(2, dtype=torch.bool))",
          "[err(lambda: torch.nansum(x, 1, dtype=d, out=torch.zeros(2, dtype=o))) for d, o in ((None, torch.int64), "
          "(None, torch.bool), (torch.float64, torch.int64), (torch.int32, torch.int64), (torch.int64, torch.float32), "
          "(torch.int64, torch.int64), (None, torch.float64))]",
          "err(lambda: torch.nansum(xg, out=torch.zeros((), dtype=torch.int64)))"]),
    case("reductions-into-an-out-of-another-float-dtype",  # (docs/semantics.md's out= gaps) mean, var/std
         # over some dims and logsumexp reduce in out's dtype (logsumexp: exp in the input's, the sum,
         # log and add in out's); std/var over every dim into float/double keep the input's
         ["y = torch.tensor([[1e-3, 2.5, 3.7, 1e4], [0.1, 0.2, 0.3, 0.4]])",
          "def into(f, dt, shape=(2,)):\n    o = torch.zeros(shape, dtype=dt)\n    f(o)\n"
          "    return [v.hex() for v in o.double().flatten().tolist()]",
          "def err(f):\n    try:\n        return f()\n    except RuntimeError as e:\n        return str(e)"],
         ["[into(lambda o: torch.mean(y, 1, out=o), d) for d in (torch.float64, torch.float16)]",
          "into(lambda o: torch.mean(y, out=o), torch.float64, ())",
          "into(lambda o: torch.mean(y.double() * 1.0001, 1, out=o), torch.float32)",
          "err(lambda: torch.mean(y, 1, dtype=torch.float32, out=torch.zeros(2, dtype=torch.float64)))",
          "[into(lambda o: torch.std(y, 1, out=o), d) for d in (torch.float64, torch.float16)]",
          "into(lambda o: torch.var(y, 1, correction=0, out=o), torch.float64)",
          "into(lambda o: torch.var(y.half(), 1, out=o), torch.float32)",
          "[into(lambda o: torch.var(y, out=o), d, ()) for d in (torch.float64, torch.float16)]",
          "into(lambda o: torch.var(y[0], 0, out=o), torch.float64, ())",
          "[into(lambda o: torch.logsumexp(y, 1, out=o), d) for d in (torch.float64, torch.float16)]",
          "into(lambda o: torch.logsumexp(y.half(), 1, out=o), torch.float32)",
          "into(lambda o: torch.logsumexp(torch.tensor([[1, 2], [3, 40]]), 1, out=o), torch.float64)",
          "into(lambda o: torch.logsumexp(torch.tensor([[float('inf'), 1.0], [float('-inf'), float('-inf')]]), 1,"
          " out=o), torch.float64)",
          "into(lambda o: torch.logsumexp(torch.zeros(2, 0), 1, out=o), torch.float64)"]),
    case("out-resized-with-a-warning",  # (issue 10) ATen's resize_output: an out= with elements and another
         # shape is resized with a UserWarning (narrow_copy's kernel resizes quietly; an empty out quietly)
         ["x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])", "o1 = torch.sin(x, out=torch.zeros(3))",
          "o2 = torch.sum(x, 1, out=torch.zeros(1, 1))", "o3 = torch.mm(x, x, out=torch.zeros(0))",
          "o4 = torch.narrow_copy(x, 0, 0, 1, out=torch.zeros(3))",
          "o5 = torch.sort(x, out=(torch.zeros(5), torch.zeros(5, dtype=torch.long)))"],
         ["o1", "o2", "o3", "o4", "o5"]),
    case("trapezoid-spacing-left-slice-first",  # (seed 30888000: grad_fn:backward) ATen's x_left is sliced before
         # x_right: the older node, so x's double-backward graph adds the two slices' gradients in its order
         [GRAPH, "x3 = torch.tensor([-3.0, -1.5], requires_grad=True)",
          "y = torch.tensor([[-2.75, 2.75], [-0.25, -2.25]], requires_grad=True)",
          "torch.trapz(y, x3.expand(2, 2), dim=-2).sum().backward(create_graph=True)",
          "x4 = torch.tensor([0.5, 1.0, 3.0], requires_grad=True)",
          "g, = torch.autograd.grad(torch.cumulative_trapezoid(y.repeat(1, 2)[:, :3] * x4, x4).pow(2).sum(), x4,"
          " create_graph=True)"],
         ["graph(x3.grad.grad_fn)", "x3.grad", "graph(g.grad_fn)", "g"]),
]
