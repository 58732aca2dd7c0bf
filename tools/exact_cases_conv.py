"""Regression cases of convolution's double backward (helper "conv"; tools/exact_cases.py adds them).

convolution_backward under create_graph is one ConvolutionBackwardBackward0 (edges to grad_output, input and
weight) whose own gradients are _convolution_double_backward's terms as ATen builds them: convolutions
(ConvolutionBackward0), the weight term's transposes, per-group narrows (SliceBackward0) and cat, the
transposed convolution's input term cut to size, the bias term's view + expand.  Same form as
tools/exact_cases.py; ``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


def _leaf(name: str, shape: str, step: float) -> str:
    """A float64 leaf of small distinct values in [-1, 1)."""
    n = 1
    for d in shape.split(","):
        n *= int(d)
    return (f"{name} = (torch.arange({n}.0).reshape({shape}) * {step} % 2 - 1).double().requires_grad_()")


CASES = [
    case("convolution-double-backward-terms",  # grouped, strided, dilated conv1d with bias
         [GRAPH, _leaf("x", "2, 4, 7", 0.37), _leaf("w", "6, 2, 3", 0.53),
          "b = torch.tensor([0.5, -1.0, 2.0, 0.25, -0.75, 1.5], dtype=torch.float64, requires_grad=True)",
          "y = F.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2)",
          "gx, gw, gb = torch.autograd.grad((y.pow(2) * 0.5 + y).sum(), [x, w, b], create_graph=True)",
          "hx, hw, hb = torch.autograd.grad(gx.pow(2).sum() + gw.pow(2).sum() + gb.pow(2).sum(), [x, w, b], "
          "create_graph=True)",
          "tx, tw = torch.autograd.grad(hx.pow(2).sum() + hw.pow(2).sum(), [x, w])"],
         ["graph(gx.grad_fn)", "graph(hx.grad_fn)", "graph(hw.grad_fn)", "(hx, hw, hb)", "(tx, tw)"]),
    case("convolution-double-backward-mask",  # which of the input/weight/bias gradients the second loss uses
         [GRAPH, _leaf("x", "1, 2, 5, 4", 0.29), _leaf("w", "3, 2, 2, 3", 0.41),
          "b = torch.tensor([0.25, -0.5, 1.0], dtype=torch.float64, requires_grad=True)",
          "y = F.conv2d(x, w, b, stride=(2, 1), padding=(1, 0))",
          "gx, gw, gb = torch.autograd.grad(y.pow(2).sum(), [x, w, b], create_graph=True)",
          "h1 = torch.autograd.grad(gx.pow(2).sum(), [x, w, b], allow_unused=True, create_graph=True)",
          "h2 = torch.autograd.grad(gw.pow(2).sum(), [x, w, b], allow_unused=True, create_graph=True)",
          "h3 = torch.autograd.grad(gb.pow(2).sum(), [x, w, b], allow_unused=True, create_graph=True)",
          "x2 = x.detach().requires_grad_()", "w2 = w.detach()",
          "g2, = torch.autograd.grad(F.conv2d(x2, w2).sum(), [x2], create_graph=True)"],
         ["[None if t is None else graph(t.grad_fn) for t in h1]", "[None if t is None else graph(t.grad_fn) for t in h2]",
          "[None if t is None else graph(t.grad_fn) for t in h3]", "h1", "h2", "h3",
          "(g2.requires_grad, graph(g2.grad_fn))"]),
    case("convolution-double-backward-transposed",  # conv_transpose: gI is a convolution cut to the input's size
         [GRAPH, _leaf("x", "1, 4, 3, 2", 0.31), _leaf("w", "4, 1, 2, 2", 0.47),
          "y = F.conv_transpose2d(x, w, stride=2, padding=(0, 1), output_padding=(1, 0), groups=2, dilation=(1, 2))",
          "gx, gw = torch.autograd.grad(y.pow(2).sum(), [x, w], create_graph=True)",
          "hx, hw = torch.autograd.grad(gx.pow(2).sum() + gw.pow(2).sum(), [x, w], create_graph=True)",
          "z = (torch.arange(10.0).reshape(1, 2, 5) * 0.43 % 2 - 1).double().requires_grad_()",
          _leaf("k", "2, 3, 3", 0.23),
          "gz, gk = torch.autograd.grad(F.conv_transpose1d(z, k, stride=2, padding=1).pow(2).sum(), [z, k], "
          "create_graph=True)",
          "hz, hk = torch.autograd.grad(gz.pow(2).sum() + gk.pow(2).sum(), [z, k], create_graph=True)"],
         ["graph(gx.grad_fn)", "graph(hx.grad_fn)", "graph(hw.grad_fn)", "(hx, hw)",
          "torch.autograd.grad(hx.sum(), [x, w])", "(hz, hk)", "torch.autograd.grad(hz.sum() + hk.sum(), [z, k])"]),
    case("convolution-double-backward-3d-and-same",
         [GRAPH, _leaf("x", "1, 4, 3, 4, 3", 0.19), _leaf("w", "2, 2, 1, 2, 2", 0.61),
          "gx, gw = torch.autograd.grad(F.conv3d(x, w, stride=(1, 2, 1), dilation=(1, 1, 2), padding=(0, 1, 1), "
          "groups=2).pow(2).sum(), [x, w], create_graph=True)",
          "hx, hw = torch.autograd.grad(gx.pow(2).sum() + gw.pow(2).sum(), [x, w])",
          _leaf("u", "3, 5", 0.37), _leaf("k", "2, 3, 2", 0.53),
          "r = F.conv1d(u, k, padding='same')",
          "gu, gk = torch.autograd.grad(r.pow(2).sum(), [u, k], create_graph=True)",
          "hu, hk = torch.autograd.grad(gu.pow(2).sum() + gk.pow(2).sum(), [u, k])"],
         ["graph(gx.grad_fn)", "(hx, hw)", "graph(r.grad_fn)", "graph(gu.grad_fn)", "(hu, hk)"]),
    case("convolution-results-are-contiguous",  # col2im's crop of the padding is a new tensor
         ["c = torch.arange(200.0).reshape(1, 8, 25)", "f = F.fold(c, (4, 4), 2, padding=1)",
          "t = F.conv_transpose2d(torch.ones(1, 3, 4, 4), torch.ones(3, 2, 3, 3), padding=(1, 2), stride=2)",
          "x = torch.ones(2, 2, 5, dtype=torch.float64, requires_grad=True)",
          "w = torch.ones(3, 2, 3, dtype=torch.float64)",
          "gx, = torch.autograd.grad(F.conv1d(x, w, padding=2).sum(), [x], create_graph=True)",
          "u = f.view(-1)", "u[0] = -1.0",
          "z = torch.ones(1, 1, 5, 2, dtype=torch.float64, requires_grad=True)",
          "gz, = torch.autograd.grad(F.conv2d(z, torch.ones(2, 1, 1, 2, dtype=torch.float64), stride=(2, 1), "
          "padding=(1, 0), dilation=(2, 1)).pow(2).sum(), [z], create_graph=True)"],
         ["(f.stride(), f.is_contiguous(), f[0, 0, 0])", "(t.stride(), t.is_contiguous())",
          "(gx.stride(), gx.is_contiguous(), gx.view(-1)[:3])", "(gz.stride(), gz)"]),
    case("convolution-double-backward-empty",
         [GRAPH, "x = torch.ones(0, 2, 5, dtype=torch.float64, requires_grad=True)",
          "w = torch.ones(3, 2, 2, dtype=torch.float64, requires_grad=True)",
          "b = torch.ones(3, dtype=torch.float64, requires_grad=True)",
          "gs = torch.autograd.grad(F.conv1d(x, w, b).sum(), [x, w, b], create_graph=True)",
          "hs = torch.autograd.grad(sum(g.sum() for g in gs), [x, w, b], allow_unused=True)",
          "c = torch.ones(2, 0, 5, dtype=torch.float64, requires_grad=True)",
          "v = torch.ones(3, 0, 2, dtype=torch.float64, requires_grad=True)",
          "cs = torch.autograd.grad(F.conv1d(c, v, b).pow(2).sum(), [c, v, b], create_graph=True)"],
         ["gs", "[graph(g.grad_fn) for g in gs]", "hs", "cs",
          "torch.autograd.grad(sum(g.pow(2).sum() for g in cs), [c, v, b], allow_unused=True)"]),
]
