"""Regression cases of session 37's convolution work (helper convonednn37, issue 10), compared with PyTorch 2.13.

float32 convolutions (up to _conv_order.FMA_CAP multiply-adds) that oneDNN runs with its AVX2 direct kernels
(jit:avx2, jit_1x1:avx2): each output an FMA chain from the bias over input-channel blocks of 8, then the taps,
then the block's channels (src/agrad/ops/_conv_order.py; docs/semantics.md, "float32 convolution"). Same form as
tools/exact_cases.py. Values are shown with .tolist() (every bit of each float32).
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


def _conv2d(name, shapes, extra=""):
    """shapes: (N, ic, oc, H, k, stride, pad) as the lead measured them."""
    code, show = ["torch.manual_seed(37)", "F = torch.nn.functional"], []
    for i, (n, ic, oc, h, k, s, p) in enumerate(shapes):
        code += [f"x{i} = torch.randn({n}, {ic}, {h}, {h})", f"w{i} = torch.randn({oc}, {ic}, {k}, {k})"]
        show.append(f"F.conv2d(x{i}, w{i}, None, {s}, {p}{extra})[:, :8].tolist()")
    return case(name, code, show)


def cases(graph: str) -> list[dict]:
    del graph
    r = "torch.manual_seed(37)"
    return [
        _conv2d("conv-onednn-direct-plain-src",  # below 8 input channels: one block, plain src
                [(6, 3, 4, 16, 4, 2, 1), (2, 4, 6, 9, 5, 1, 2), (1, 3, 4, 16, 4, 2, 1), (8, 1, 6, 28, 5, 1, 0),
                 (4, 6, 16, 12, 5, 1, 0), (3, 5, 7, 11, 3, 2, 0)]),
        _conv2d("conv-onednn-direct-blocked",  # aBcd8b: blocks of 8 channels, taps inside a block
                [(2, 8, 8, 10, 3, 1, 1), (2, 16, 8, 10, 3, 1, 1), (4, 24, 8, 12, 3, 1, 1), (2, 12, 12, 6, 3, 1, 1),
                 (2, 16, 12, 6, 3, 1, 1), (2, 16, 16, 6, 3, 1, 1), (3, 20, 10, 7, 3, 2, 1)]),
        _conv2d("conv-onednn-direct-many-blocks",
                [(2, 64, 8, 8, 3, 1, 1), (2, 32, 16, 6, 3, 1, 1), (2, 64, 16, 4, 3, 1, 1), (2, 112, 8, 4, 3, 1, 1)]),
        _conv2d("conv-onednn-1x1", [(2, 16, 32, 8, 1, 1, 0), (2, 40, 16, 5, 1, 1, 0), (2, 9, 20, 9, 1, 2, 0)]),
        _conv2d("conv-onednn-dilated", [(3, 5, 7, 11, 3, 1, 2), (2, 12, 8, 9, 2, 2, 1)], ", 2"),
        case("conv-onednn-bias-starts-the-chain",  # the accumulator starts at the bias (plain, blocked, 1x1)
             [r, "F = torch.nn.functional", "x = torch.randn(3, 12, 7, 7)", "w = torch.randn(8, 12, 3, 3)",
              "b = torch.randn(8) * 10", "xs = torch.randn(2, 3, 9, 9)", "ws = torch.randn(5, 3, 4, 4)"],
             ["F.conv2d(x, w, b, 1, 1).tolist()", "F.conv2d(x, w[:, :, :1, :1], b).tolist()",
              "F.conv2d(xs, ws, b[:5], 2, 1).tolist()"]),
        case("conv-onednn-negative-zero-bias",  # a -0.0 bias stays where the taps read only zeros and the padding
             ["F = torch.nn.functional", "x = torch.zeros(2, 3, 4, 4)", "x[0, :, 0, 0] = 1.0",
              "w = -torch.ones(2, 3, 2, 2)", "b = torch.tensor([-0.0, 0.0])"],
             ["F.conv2d(x, w, b, 1, 1).tolist()", "F.conv2d(x, w, None, 1, 1).tolist()",
              "F.conv2d(x, -w, b, 1, 1).tolist()"]),
        case("conv-onednn-conv1d-conv3d",  # 1-D as ATen passes it (2-D of height 1); 3-D: kd, kh, kw in the block
             [r, "F = torch.nn.functional", "a = torch.randn(3, 10, 30)", "u = torch.randn(6, 10, 5)",
              "v = torch.randn(2, 9, 6, 5, 7)", "k = torch.randn(4, 9, 3, 2, 3)", "c = torch.randn(4)"],
             ["F.conv1d(a, u, None, 2, 2).tolist()", "F.conv1d(a, u, c.repeat(2)[:6], 1, 0, 3).tolist()",
              "F.conv3d(v, k, c, 1, 1).tolist()", "F.conv3d(v, k, None, (1, 2, 1), (0, 1, 1)).tolist()"]),
        case("conv-onednn-fma-tie",  # a float64 sum on a float32 tie but inexact: the FMA rounds the exact sum
             ["x = torch.tensor([[[[1 + 2**-23]], [[1 + 2**-23]]]] * 2)",
              "w = torch.tensor([[[[1.0]], [[2**-24 * (1 - 2**-23)]]]])"],
             ["(torch.nn.functional.conv2d(x, w) - 1).tolist()",
              "(torch.nn.functional.conv1d(x[..., 0], w[..., 0]) - 1).tolist()"]),
        case("conv-onednn-input-grad-chunks",  # backward data, stride 1: chunks of 4 / 2 / 1 blocks of 8 output
             # channels by the output's width (below 15, below 40, else), each chunk a chain, the chunks added
             [r, "F = torch.nn.functional", "x = torch.randn(2, 8, 9, 9, requires_grad=True)",
              "w = torch.randn(40, 8, 3, 3)",
              "F.conv2d(x, w, None, 1, 1).backward(torch.randn(2, 40, 9, 9))",
              "u = torch.randn(2, 4, 20, 20, requires_grad=True)", "v = torch.randn(20, 4, 3, 3)",
              "F.conv2d(u, v, None, 1, 1).backward(torch.randn(2, 20, 20, 20))",
              "a = torch.randn(2, 3, 50, requires_grad=True)", "c = torch.randn(24, 3, 3)",
              "F.conv1d(a, c).backward(torch.randn(2, 24, 48))"],
             ["x.grad.tolist()", "u.grad[:, :, :6].tolist()", "a.grad.tolist()"]),
        case("conv-onednn-input-grad-kinds",  # 1x1 (jit_1x1: chunks of 64), 3-D (chunks of 8), dilated
             [r, "F = torch.nn.functional", "x = torch.randn(2, 16, 5, 5, requires_grad=True)",
              "w = torch.randn(72, 16, 1, 1)",
              "F.conv2d(x, w).backward(torch.randn(2, 72, 5, 5))",
              "v = torch.randn(2, 8, 4, 5, 6, requires_grad=True)", "k = torch.randn(16, 8, 2, 3, 2)",
              "F.conv3d(v, k, None, 1, (1, 1, 0)).backward(torch.randn(2, 16, 5, 5, 5))",
              "d = torch.randn(2, 5, 10, 10, requires_grad=True)", "e = torch.randn(12, 5, 3, 3)",
              "F.conv2d(d, e, None, 1, 2, 2).backward(torch.randn(2, 12, 10, 10))"],
             ["x.grad.tolist()", "v.grad.tolist()", "d.grad.tolist()"]),
        case("conv-onednn-transposed",  # stride 1: oneDNN's backward-data chains, the bias added after; the input
             # gradient (any stride): its forward kernel's chains; the DCGAN generator's first layer
             [r, "F = torch.nn.functional", "z = torch.randn(6, 8, 1, 1)", "g = torch.randn(8, 16, 4, 4)",
              "x = torch.randn(2, 40, 5, 5, requires_grad=True)", "w = torch.randn(40, 8, 3, 3)", "b = torch.randn(8)",
              "y = F.conv_transpose2d(x, w, b, 2, 1)", "y.backward(torch.randn(y.shape))",
              "a = torch.randn(3, 12, 20)", "c = torch.randn(12, 5, 4)"],
             ["F.conv_transpose2d(z, g).tolist()", "F.conv_transpose2d(x, w, b, 1, 1).tolist()",
              "F.conv_transpose1d(a, c, b[:5], 1, 2, 0, 1, 2).tolist()", "x.grad.tolist()"]),
        case("conv-onednn-weight-grad",  # jit:avx2 backward-weights: samples split over the reducer's threads,
             # each thread's FMA chain over its samples, rows, columns; the bias's plain sums alike
             [r, "F = torch.nn.functional", "x = torch.randn(8, 1, 10, 10)",
              "w = torch.randn(6, 1, 3, 3, requires_grad=True)",
              "b = torch.randn(6, requires_grad=True)", "F.conv2d(x, w, b).backward(torch.randn(8, 6, 8, 8))",
              "u = torch.randn(5, 9, 7, 8)", "v = torch.randn(3, 9, 1, 3, requires_grad=True)",
              "c = torch.randn(3, requires_grad=True)",
              "F.conv2d(u, v, c, 1, (0, 1)).backward(torch.randn(5, 3, 7, 8))",
              "a = torch.randn(7, 3, 16)", "q = torch.randn(20, 3, 5, requires_grad=True)",
              "F.conv1d(a, q, None, 1, 2).backward(torch.randn(7, 20, 16))"],
             ["w.grad.tolist()", "b.grad.tolist()", "v.grad.tolist()", "c.grad.tolist()", "q.grad.tolist()"]),
        case("conv-onednn-modules",  # nn.Conv2d with its bias, the DCGAN discriminator's first layer
             [r, "nn = torch.nn", "m = nn.Conv2d(3, 4, 4, 2, 1)", "d = nn.Conv2d(4, 8, 4, 2, 1, bias=False)",
              "q = nn.Conv2d(3, 8, 3, 1, 1)",
              "x = torch.rand(6, 3, 16, 16)"],
             ["m(x).tolist()", "d(m(x)).sum().item()", "nn.functional.leaky_relu(m(x), 0.2).mean().item()",
              "torch.autograd.grad(q(x.requires_grad_()).square().sum(), x)[0][:2].tolist()"]),
    ]


CASES = cases(GRAPH)
