"""Regression cases of grid_sample's double backward and its NaN places (helper "grid", session 34).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


_SETUP_2D = [
    "x = (torch.arange(24.0, dtype=torch.float64).reshape(2, 1, 3, 4) * 0.37).sin()",
    "g = torch.tensor([[[[-1.2, 0.3], [0.45, -0.8], [1.25, 1.1]], [[0.05, -0.35], [-0.6, 0.9], [0.2, 0.2]]], "
    "[[[0.7, -1.3], [-0.15, 0.55], [0.95, -0.05]], [[-0.9, -0.95], [0.33, 0.66], [-1.1, 0.4]]]], dtype=torch.float64)",
    "w = torch.linspace(-1.0, 1.0, 24, dtype=torch.float64).reshape(2, 2, 3, 2)",
]

_SETUP_3D = [
    "x = (torch.arange(48.0, dtype=torch.float64).reshape(1, 2, 2, 3, 4) * 0.37).sin()",
    "g = torch.tensor([[[[[-1.2, 0.3, 0.1], [0.45, -0.8, -0.6]], [[1.25, 1.1, 0.9], [0.05, -0.35, 0.4]]], "
    "[[[0.7, -1.3, -0.2], [-0.15, 0.55, 1.2]], [[0.95, -0.05, -1.1], [-0.9, -0.95, 0.3]]]]], dtype=torch.float64)",
    "w = torch.linspace(-1.0, 1.0, 24, dtype=torch.float64).reshape(1, 2, 2, 2, 3)",
]

# values as integers at a fixed fraction of the tensor's largest magnitude (the double backward sums in
# its own order: last-bit differences, signed zeros of cancelling terms)
_Q = ("def q(t, digits=7):\n"
      "    if t is None:\n"
      "        return None\n"
      "    t = t.detach().double()\n"
      "    m = t.abs().max().item()\n"
      "    return (t * (10.0 ** digits / m)).round().long() if m else t.long()\n")

# the second derivatives of sum(y * y) through the first backward, for both outputs' gradients (each
# defined alone, then both), as (d grad_output, d input, d grid); None where PyTorch's is undefined
_SECOND = (
    "def second(x, g, w, mode, pad, ac, dt):\n"
    "    x = x.to(dt).requires_grad_()\n"
    "    g = g.to(dt).requires_grad_()\n"
    "    y = F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)\n"
    "    go = (y.detach() * 0.5 + 0.25).requires_grad_()\n"
    "    gx, gg = torch.autograd.grad(y, [x, g], go, create_graph=True)\n"
    "    out = [gx.grad_fn.name()]\n"
    "    for L in ((gx * gx).sum(), (gg * w.to(dt)).sum(), (gx * gx).sum() + (gg * gg).sum()):\n"
    "        r = torch.autograd.grad(L, [go, x, g], allow_unused=True, retain_graph=True)\n"
    "        out.append([q(t, 9 if dt is torch.float64 else 4) for t in r])\n"
    "    return out\n"
)


def cases(graph: str) -> list[dict]:
    loops2 = ("for mode in ('bilinear', 'nearest', 'bicubic') for pad in ('zeros', 'border', 'reflection') "
              "for ac in (False, True)")
    loops3 = "for mode in ('bilinear', 'nearest') for pad in ('zeros', 'border', 'reflection') for ac in (False, True)"
    return [
        case("grid-sample-2d-double-backward",  # grid_sampler_2d_backward's derivative (PyTorch 2.13's
             # grid_sampler_2d_double_backward): every mode, padding and align_corners, float64 and float32
             _SETUP_2D + [_Q, _SECOND],
             [f"[second(x, g, w, mode, pad, ac, torch.float64) {loops2}]",
              f"[second(x, g, w, mode, pad, ac, torch.float32) {loops2}]"]),
        case("grid-sample-3d-double-backward",  # ... grid_sampler_3d_double_backward (bilinear, nearest)
             _SETUP_3D + [_Q, _SECOND],
             [f"[second(x, g, w, mode, pad, ac, torch.float64) {loops3}]",
              f"[second(x, g, w, mode, pad, ac, torch.float32) {loops3}]"]),
        case("grid-sample-double-backward-graph",  # the node's saved tensors, the second derivatives' nodes
             # (ggI's terms are grid_sample of ggI and that sample's grid gradient: GridSampler2DBackward0 and
             # GridSampler2DBackwardBackward0; nearest's grid gradient a zero of the latter) and a third derivative
             _SETUP_2D + [_Q, graph,
                          "xs = x.clone().requires_grad_()",
                          "gs = g.clone().requires_grad_()",
                          "y = F.grid_sample(xs, gs, mode='bicubic', padding_mode='border', align_corners=False)",
                          "gx, gg = torch.autograd.grad((y * y).sum(), [xs, gs], create_graph=True)",
                          "n = gx.grad_fn",
                          "r = torch.autograd.grad((gx * gx).sum() + (gg * gg).sum(), [xs, gs], create_graph=True)",
                          "r3 = torch.autograd.grad((r[0] * r[0]).sum() + (r[1] * w).sum(), [xs, gs])",
                          "yn = F.grid_sample(xs, gs, mode='nearest', align_corners=True)",
                          "gn = torch.autograd.grad((yn * yn).sum(), [xs, gs], create_graph=True)",
                          "rn = torch.autograd.grad((gn[0] * gn[0]).sum(), [xs, gs], create_graph=True)"],
             ["n.name()", "[t.shape for t in (n._saved_grad_output, n._saved_input, n._saved_grid)]",
              "n._saved_grid.equal(gs)",
              "[t.grad_fn.name() for t in r]", "[q(t) for t in r3]", "[t.grad_fn.name() for t in rn]", "[q(t) for t in rn]"]),
        case("grid-sample-double-backward-zero-multiplier-signs",  # a clipped place (border's multiplier 0):
             # the grid's second derivative (m_b * (ggGrid_a * m_a)) * sum_c(gO * curvature), PyTorch's order
             ["torch.manual_seed(17)",
              "x1 = torch.randn(1, 2, 4, 1, dtype=torch.float64).requires_grad_()",
              "g1 = (torch.rand(1, 1, 1, 2, dtype=torch.float64) * 2.6 - 1.3).requires_grad_()",
              "r1 = F.grid_sample(x1, g1, mode='bilinear', padding_mode='border', align_corners=False)",
              "a1, b1 = torch.autograd.grad((r1 * r1).sum(), [x1, g1], create_graph=True)",
              "c1 = torch.autograd.grad((a1 * a1).sum() + (b1 * b1).sum(), [x1, g1], allow_unused=True)"],
             ["c1"]),
        case("grid-sample-double-backward-infinite-place",  # (value:grad, grad-value:pow) ggGrid's input term
             # at an infinite or NaN coordinate (zeros padding): each axis's floor as int64 (INT64_MIN) plus the
             # tap's offset, wrapping, clamped into the axis; NaN weights masked by a product land there
             ["x = torch.arange(1.0, 13.0, dtype=torch.float64).reshape(1, 1, 3, 4).requires_grad_()",
              "def dd(mode, gv):\n"
              "    g = torch.tensor([[[gv, [0.1, -0.2]]]], dtype=torch.float64).requires_grad_()\n"
              "    y = F.grid_sample(x, g, mode=mode, padding_mode='zeros', align_corners=False)\n"
              "    go = torch.ones_like(y).requires_grad_()\n"
              "    gx, gg = torch.autograd.grad(y, [x, g], go, create_graph=True)\n"
              "    return torch.autograd.grad(gg.sum(), [go, x, g], allow_unused=True)"],
             ["[dd(m, gv) for m in ('bilinear', 'bicubic') for gv in ([float('inf'), 0.3], [-float('inf'), 0.3], "
              "[0.3, float('inf')], [float('nan'), 0.3])]"]),
        case("grid-sample-border-nan-place-float32",  # (grad-value:backward) the float32 bilinear backward
             # under border/reflection: a NaN place's corners at offsets y * W + x from INT_MIN, wrapping (an
             # even W: rows 0 and 1), written with NaN weights, read for the grid's gradient, whose clip
             # multiplier is the scale (a NaN's bits are not 0's); a NaN from inf * 0 (a size-1 axis, align_corners)
             ["x3 = torch.tensor([[[[-1.0, 2.5, 0.0, 0.75]]]], requires_grad=True)",
              "x4 = torch.tensor([[[[-1.25, -1.25], [-1.0, float('inf')], [0.5, 0.4]]]], requires_grad=True)",
              "F.grid_sample(x3, x4, padding_mode='border', align_corners=True).sum().backward()",
              "xa = torch.arange(24.0).reshape(1, 2, 3, 4).requires_grad_()",
              "ga = torch.tensor([[[[0.2, float('nan')], [0.5, 0.5], [-0.7, float('nan')]]]], requires_grad=True)",
              "F.grid_sample(xa, ga, padding_mode='reflection', align_corners=False).sum().backward()",
              "xb = torch.arange(12.0).reshape(1, 2, 3, 2).requires_grad_()",
              "gb = torch.tensor([[[[0.2, float('nan')], [0.5, 0.5]]]], requires_grad=True)",
              "F.grid_sample(xb, gb, padding_mode='border', align_corners=False).sum().backward()"],
             ["x3.grad", "xa.grad", "ga.grad", "xb.grad", "gb.grad"]),
    ]


CASES = cases(GRAPH)
