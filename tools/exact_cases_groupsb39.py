"""Regression cases of session 39's groupsb39 work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    # (dt38d warning:ldexp) a float self with a bool exponent: the kernel's TensorIterator resizes its out
    # (self's own, or out=) with the warning before the dispatch refuses Bool; ldexp_ refuses quietly
    case("ldexp-bool-exponent-resize-warns-first", [
        "r1 = torch.cos(torch.tensor([-0.5, -2.5], dtype=torch.float16))[:1].ldexp(torch.ones(4, 0, 3, dtype=torch.bool))",
        "r2 = torch.ldexp(torch.ones(1), torch.ones(2, dtype=torch.bool), out=torch.ones(1, 1, dtype=torch.float64))",
        "r3 = torch.ldexp(torch.ones(0), torch.ones(3, 0, dtype=torch.bool))",
        "r4 = torch.ones(2, 2).ldexp_(torch.ones(2, dtype=torch.bool))",
        "r5 = torch.ldexp(torch.ones(1, requires_grad=True), torch.ones(2, dtype=torch.bool), out=torch.ones(3))",
        "r6 = torch.ldexp(torch.ones(1, dtype=torch.int64), torch.ones(5, dtype=torch.bool), out=torch.ones(1))",
    ], ["r6"]),
    # (dt38d value:erfinv) a float64 bmm of fewer than 400 multiply-adds a matrix is ATen's own loop (a
    # sequential sum from zero), as float32's: affine_grid's grid (and so erfinv's arguments near +-1)
    case("bmm-float64-own-loop-sequential", [
        "x = torch.tensor([[[-2.5, 1.75, 0.25, 1.25], [1.5, -2.0, -1.25, -0.25], [-3.0, 3.0, 2.0, float('-inf')]],"
        " [[-1.5, -1.25, 2.75, -2.75], [-0.75, 0.0, 0.0, 2.5], [float('inf'), -0.5, 0.0, 3.0]]], dtype=torch.float64,"
        " requires_grad=True)",
        "g = F.affine_grid(x, (2, 1, 3, 3, 2), False)",
        "g.backward((torch.arange(108, dtype=torch.float64).view(2, 3, 3, 2, 3) - 50) / 13)",
        "a = (torch.arange(60, dtype=torch.float64).view(2, 6, 5) - 29) / 7",
        "b = (torch.arange(40, dtype=torch.float64).view(2, 5, 4) - 17) / 11",
        "s = torch.linspace(-1, 1, 48, dtype=torch.float64).view(2, 6, 4) / 3",
    ], ["[v.hex() for v in g.flatten().tolist()]", "[v.hex() for v in x.grad.flatten().tolist()]",
        "[v.hex() for v in a.bmm(b).flatten().tolist()]", "[v.hex() for v in (a @ b).flatten().tolist()]",
        "[v.hex() for v in torch.baddbmm(s, a, b, beta=0.5, alpha=-1.5).flatten().tolist()]",
        "[v.hex() for v in g.erfinv().flatten().tolist()]"]),
    # (dt38b repr:conv1d) oneDNN's jit_1x1 (and jit:avx2 from 9 channels) reads an input blocked by 8 channels,
    # zeros after the last: their +0.0 products end each chain, no -0.0 sum; ATen's slow_conv2d/3d (a small
    # one-sample float32 convolution, any float64 one) is a gemm per sample into rows holding the bias:
    # MKL's sums start from it (float64's zero signs: dgemm's, dgemv's blocks of 4 and 4 x 12 ones aside)
    case("conv-bias-zero-signs-and-slow-gemm-from-bias", [
        "x = torch.tensor([[[-0.0, -2.5, 2.0]], [[0.25, -2.5, -1.5]]])",
        "r1 = F.conv1d(x, torch.tensor([[[2.25]]]), bias=torch.tensor([-0.0]), dilation=2)",
        "r2 = F.conv1d(x, torch.tensor([[[2.25]]]), bias=torch.tensor([-0.0]), stride=2)",
        "r3 = F.conv1d(-torch.zeros(2, 9, 5), torch.ones(2, 9, 2), -torch.zeros(2))",
        "r4 = F.conv2d(-torch.zeros(2, 8, 3, 3), torch.ones(1, 8, 1, 1), -torch.zeros(1))",
        "xs = (torch.arange(60.0).view(1, 3, 4, 5) - 29) / 7",
        "ws = (torch.arange(54.0).view(2, 3, 3, 3) - 25) / 11",
        "r5 = F.conv2d(xs, ws, torch.tensor([0.3, -1.7]), padding=1)",
        "r6 = F.conv1d(xs[:, :, 0], ws[:, :, 0], torch.tensor([0.3, -1.7]))",
        "r7 = F.conv3d(xs.view(1, 3, 2, 2, 5), ws[:, :, :2, :2].reshape(2, 3, 2, 1, 2), torch.tensor([1e-3, -2.5]))",
        "z = [F.conv1d(-torch.zeros(1, c, l, dtype=torch.float64), torch.ones(o, c, k, dtype=torch.float64),"
        " -torch.zeros(o, dtype=torch.float64)) for c, l, k, o in ((1, 2, 2, 3), (5, 2, 2, 3), (2, 20, 2, 5),"
        " (3, 14, 1, 4), (3, 6, 2, 2))]",
        "t = torch.addmm(-torch.zeros(5, 13, dtype=torch.float64), -torch.zeros(5, 3, dtype=torch.float64),"
        " torch.ones(3, 13, dtype=torch.float64))",
    ], ["r1", "r2", "r3", "r4", "[v.hex() for v in r5.flatten().tolist()]", "[v.hex() for v in r6.flatten().tolist()]",
        "[v.hex() for v in r7.flatten().tolist()]", "[str(v.flatten().tolist()) for v in z]", "str(t.tolist())"]),
    # (dt38d grad-value:backward) a float32 convolution's weight gradient is oneDNN's jit kernel, which skips the
    # padding, only where jit_avx2_conv_bwd_weights_kernel_f32::init_conf accepts it (1-D/2-D, undilated, each
    # side's padding below the kernel, a kernel no taller than the input); else gemm:jit's im2col multiplies an inf
    # by its padded zeros: NaN (a transposed 3-D one's here; its roles: grad_output the input, input the gradient)
    case("conv-weight-grad-jit-or-gemm-padding", [
        "x = torch.tensor([[[[[2.75, 2.0, 2.25], [-2.25, 2.25, -0.5], [-0.75, -1.75, 0.0], [2.75, -3.0, 2.75]],"
        " [[float('inf'), -0.25, 2.25], [3.0, -2.25, 1.75], [0.0, -1.0, 0.0], [-2.0, -3.0, 1.25]]]],"
        " [[[[0.0, 2.5, -3.0], [0.0, 3.0, 0.0], [-0.5, -0.25, -2.5], [-0.0, 2.25, -2.0]], [[3.0, 1.75, -0.5],"
        " [-2.25, -1.0, -1.25], [0.5, 2.25, 1.0], [0.75, 0.0, -2.75]]]]], requires_grad=True)",
        "w = torch.tensor([[[[[-3.0, -1.0], [2.0, 0.25], [1.25, -2.75]], [[-1.75, -3.0], [-0.25, -3.0], [1.25, -1.25]]]]],"
        " requires_grad=True)",
        "torch.conv_transpose3d(x, w, torch.tensor([-2.25]), padding=1).sum().backward()",
        "x2 = x[:, :, 1].detach().requires_grad_()",
        "w2 = w[:, :, 0].detach().requires_grad_()",
        "F.conv_transpose2d(x2, w2, padding=1).sum().backward()",
        "w3 = w[:, :, 0].detach().requires_grad_()",
        "F.conv_transpose2d(x2, w3, padding=1, dilation=2).sum().backward()",
        "w4 = torch.ones(2, 3, 2, requires_grad=True)",
        "r4 = F.conv1d(torch.ones(2, 3, 1), w4, padding=1)",
        "(r4 * torch.tensor([[[1.0, float('inf')], [1.0, 2.0]], [[0.5, 1.0], [1.0, 1.0]]])).sum().backward()",
        "w5 = torch.ones(1, 2, 3, 2, requires_grad=True)",
        "r5 = F.conv2d(torch.ones(2, 2, 1, 3), w5, padding=1)",
        "(r5 * torch.where(torch.arange(r5.numel()).view(r5.shape) == 3, float('inf'), 1.0)).sum().backward()",
    ], ["w.grad", "w2.grad", "w3.grad", "w4.grad", "w5.grad"]),
    # (own run, seed 39200000: error-text:backward) torch.autograd's _make_grads checks every seed's shape (its
    # message's indices from list.index, each earlier seed compared with ==) and an implicit seed's scalar output
    # before the engine refuses an output that does not require grad (element i, not always 0)
    case("backward-seed-checks-before-requires-grad", [
        "a = torch.ones(2, requires_grad=True) * 2",
        "b = torch.ones(3)",
        "c = torch.ones(2, 2, requires_grad=True) * 3",
        "b.backward(torch.ones(2))",
        "torch.autograd.backward([a, b], [torch.ones(2), torch.ones(3)])",
        "torch.autograd.backward([b, a], [torch.ones(4), torch.ones(2)])",
        "torch.autograd.backward([a, c], [torch.ones(2), torch.ones(3)])",
        "torch.autograd.backward([b, c], [None, None])",
        "torch.autograd.grad([a, b], [c], [torch.ones(2), torch.ones(3)])",
        "torch.autograd.grad([b], [c], [torch.ones(5)])",
    ], []),
    # (dt38d value:erfinv) MKL's float64 vdErfInv is (nearly always) correctly rounded; agrad's long-double Newton
    # steps on Cody's erf land within some 0.012 ulp: near a midpoint of two doubles erf(midpoint) in decimals
    # decides (30,387 probe values: 40 differing -> 3, where MKL is not correctly rounded)
    case("erfinv-float64-rounded-at-midpoints", [
        "x = torch.tensor([-0.9336688192733864, -0.7397635902989819, -0.49624395925217124, -0.5732070403640201,"
        " -0.9953101125550127, 0.9953101125550127, 0.25, -1.0, 1.0 - 2 ** -40], dtype=torch.float64)",
    ], ["[v.hex() for v in x.erfinv().tolist()]"]),
    # (own run, seed 39240000: error-text:set_) set_(source=Tensor) checks the dtypes before autograd's in-place
    # checks (a leaf, a view of one); its storage form (an offset and sizes) after them
    case("set-source-dtype-before-leaf-check", [
        "x = torch.ones(2, dtype=torch.float64, requires_grad=True)",
        "v = torch.ones(4, dtype=torch.float64, requires_grad=True)[:2]",
        "x.set_(source=torch.ones(3))",
        "v.set_(torch.ones(3, dtype=torch.int64))",
        "x.set_(torch.ones(3), 0, (2,))",
        "x.set_(source=torch.ones(3, dtype=torch.float64))",
    ], []),
]
