"""Regression cases of the nn-functional groups of the replayed run dt20k-31 (helper "groupsb", session 32).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


CASES = [
    case("ctc-loss-aten-default-reduction-is-none",  # (shape:ctc_loss) torch.ctc_loss's omitted reduction is
         # 0: the parser reads the signature's "at::Reduction::Mean" with atol; F.ctc_loss's is 'mean'
         [GRAPH, "lp = torch.tensor([[[1.25, 2.75], [-1.75, -2.0]], [[2.5, -2.5], [-1.25, -2.75]], [[0.5, -2.5],"
          " [-2.0, -2.75]], [[1.25, 1.5], [0.0, 2.25]], [[2.25, -1.25], [1.0, -1.75]]]).log_softmax(2)"
          ".requires_grad_()", "t = torch.tensor([[1], [1]])"],
         ["torch.ctc_loss(lp, t, (2, 1), (0, 0), zero_infinity=False)",
          "torch.ctc_loss(lp, t, torch.tensor([2, 1]), torch.tensor([0, 1]))",
          "torch.ctc_loss(lp, t, (2, 1), (1, 0), 0, 1)", "torch.ctc_loss(lp, t, (2, 1), (1, 1), 0, 2)",
          "torch.ctc_loss(lp[:, 0], t[0], (2,), (1,))", "F.ctc_loss(lp, t, (2, 1), (0, 1))",
          "graph(torch.ctc_loss(lp, t, (5, 3), (1, 1), blank=1).grad_fn)"]),
    case("upsample-linear-modes-as-aten-kernels",  # (value:upsample_bilinear, value:upsample, value:interpolate,
         # repr:upsample) ATen's generic kernel (fma(t0, w0, t1 * w1) per dim, weights 1 and 0 for an unchanged
         # size: an inf's neighbours NaN, -0.0 kept), the channels-last bilinear one (H_out + W_out <= 128:
         # corner products, vector lanes summed right to left), bicubic's contracted coefficients; the
         # backward's fused accumulation in output order
         ["x = torch.tensor([[[[-2.0, 1.0, 2.0, -2.25], [-1.75, 3.0, -2.25, -0.5]], [[1.75, -0.0, 3.0, 2.0],"
          " [-2.75, -1.75, 0.75, -1.5]]], [[[-1.0, -1.0, float('nan'), -2.0], [0.0, 0.25, 2.0, -2.25]],"
          " [[0.5, float('inf'), -1.75, -1.0], [0.0, -2.25, -2.5, 0.5]]]], dtype=torch.float64,"
          " requires_grad=True)",
          "y = ((torch.arange(360.) * 0.6180339).frac() - 0.5).reshape(2, 9, 5, 4).double().requires_grad_()",
          "y32 = y.detach().float().requires_grad_()",
          "z = torch.tensor([[[[[float('-inf'), 0.0]], [[1.75, -1.0]]], [[[2.5, -0.75]], [[0.0, -1.75]]]]],"
          " requires_grad=True)",
          "v = torch.tensor([[[-0.0, 1.0], [-1.25, 0.0]], [[1.5, -3.0], [1.0, float('inf')]]], dtype=torch.float64)",
          "def back(t, **kw):\n    o = F.interpolate(t, **kw)\n"
          "    g = torch.linspace(-1, 2, o.numel(), dtype=t.dtype).reshape(o.shape)\n"
          "    return o.tolist(), torch.autograd.grad(o, t, g)[0].tolist(), o.grad_fn.name(), o.stride()"],
         ["F.upsample_bilinear(x, scale_factor=3).tolist()", "F.interpolate(x, (4, 3), mode='bilinear').tolist()",
          "back(y, size=(7, 6), mode='bilinear')", "back(y32, size=(7, 6), mode='bilinear', align_corners=True)",
          "back(y32, scale_factor=1.7, mode='bilinear')", "back(y32[:, :3], size=(90, 50), mode='bilinear')",
          "back(y, size=(6, 9), mode='bicubic')", "back(y32, scale_factor=(1.0, 2.5), mode='bicubic')",
          "back(y32[:1, :2], size=(5, 11), mode='bicubic', align_corners=True)",
          "back(z, scale_factor=2.0, mode='trilinear', align_corners=True, recompute_scale_factor=True)",
          "back(y32[:, :5, None].contiguous(memory_format=torch.channels_last_3d), size=(2, 7, 3), mode='trilinear')",
          "back(y32[0, :4].contiguous(), size=9, mode='linear')", "back(y[0, :4, 1], scale_factor=2.5, mode='linear')",
          "F.interpolate(v, (2,), mode='linear', align_corners=True)",
          "F.interpolate(x.detach().half(), scale_factor=2.5, mode='bilinear').tolist()",
          "F.interpolate(y32.detach().half()[0, :4], size=7, mode='linear').tolist()"]),
    case("group-norm-fused-scale-and-bias",  # (value:group_norm, numeric:group_norm) GroupNormKernelImplInternal:
         # RowwiseMoments, rstd in double (eps a double), y = fma(scale, x, fma(-scale, mean, beta)): a group of
         # one element gives the product's rounding error, not 0
         ["x = torch.tensor([[2.75], [-2.5]], requires_grad=True)", "x3 = torch.tensor([[0.0], [-1.5], [2.0]])",
          "y = ((torch.arange(360.) * 0.6180339).frac() - 0.5).reshape(2, 6, 30)",
          "w = torch.linspace(-2, 2, 6)", "b = torch.linspace(1, 3, 6)"],
         ["torch.group_norm(x, 1, weight=torch.tensor([-0.75]), eps=1e-05, cudnn_enabled=False)",
          "torch.group_norm(x3, 1, bias=torch.tensor([2.75])).tolist()",
          "F.group_norm(y, 3, w, b).tolist()", "F.group_norm(y, 2).tolist()", "F.group_norm(y, 6, w).tolist()",
          "F.group_norm(y.double(), 3, None, b.double()).tolist()",
          "F.group_norm(y.reshape(2, 6, 5, 6) * 1e3, 2, w, b).tolist()"]),
    case("conv-backend-checks-and-one-term-products",  # (error-text:conv1d/conv2d/conv_transpose2d/3d,
         # raises-only-agrad:conv1d/conv_transpose1d/2d, repr:conv2d) a float32 convolution that oneDNN runs
         # (ConvParams::use_mkldnn) checks the weight's and bias's type with its own text and gives an empty
         # transposed output (a negative size: oneDNN's error); the slow kernel's one-term gemm keeps -0.0;
         # conv1d's padding-string overload has no bias dtype check
         ["def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)",
          "x = torch.ones(2, 2, 1, 4, requires_grad=True)", "w = torch.ones(1, 2, 1, 3, dtype=torch.float64)"],
         ["err(lambda: torch.conv2d(x, w))", "err(lambda: F.conv_transpose2d(x, w.transpose(0, 1).contiguous()))",
          "err(lambda: torch.conv1d(x[:, :, 0], w[:, :, 0]))",
          "err(lambda: F.conv_transpose3d(torch.ones(1, 2, 5, 2, 2), torch.ones(2, 1, 3, 1, 1, dtype=torch.float64), groups=2))",
          "err(lambda: torch.conv2d(x, w.float(), torch.ones(1, dtype=torch.float64)))",
          "err(lambda: torch.conv2d(x[:1], w.float(), torch.ones(1, dtype=torch.float64), padding=1))",
          "err(lambda: torch.conv1d(torch.ones(1, 2, 2), torch.ones(2, 2, 3, dtype=torch.float64), padding='same'))",
          "err(lambda: torch.conv2d(x.double(), w.float()))",
          "torch.conv1d(torch.ones(1, 2, 2), torch.ones(2, 2, 3), bias=torch.ones(2, dtype=torch.float64), padding='same')",
          "F.conv_transpose2d(torch.ones(2, 1, 2, 6, requires_grad=True), torch.ones(1, 2, 1, 3), stride=1, padding=1)",
          "F.conv_transpose1d(torch.ones(2, 1, 2), torch.ones(1, 2, 1), torch.ones(2), padding=1)",
          "err(lambda: F.conv_transpose1d(torch.ones(2, 1, 2), torch.ones(1, 2, 1), padding=2))",
          "err(lambda: F.conv_transpose1d(torch.ones(1, 1, 2, dtype=torch.float64), torch.ones(1, 2, 1, dtype=torch.float64), padding=1))",
          "F.conv2d(torch.tensor([[[[-1.0, float('nan'), 0.0], [0.0, float('inf'), 2.0]]]]), torch.tensor([[[[-1.75]]], [[[0.25]]]]))",
          "F.conv2d(torch.zeros(1, 1, 3, 3, dtype=torch.float64), torch.full((2, 1, 1, 1), -1.75, dtype=torch.float64), padding=1)",
          "F.conv1d(torch.zeros(1, 1, 3), torch.full((2, 1, 1), -1.75), torch.tensor([-0.0, 1.0]))",
          "F.conv2d(torch.zeros(2, 1, 3, 3), torch.full((1, 1, 1, 1), -1.75))",
          "F.conv2d(torch.zeros(1, 2, 3, 3), torch.full((1, 2, 1, 1), -1.75))"]),
    case("pooling-front-parses-as-aten",  # (error-text:adaptive_max_pool1d_with_indices, error-text:max_pool2d) F's
         # max pools pass their arguments to ATen's functions, whose parser refuses a bool, a float or a None
         ["def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)",
          "x = torch.ones(1, 1, 4, 4)"],
         ["err(lambda: F.adaptive_max_pool1d_with_indices(x[0], (None,)))", "err(lambda: F.adaptive_max_pool1d(x[0], 1.5))",
          "err(lambda: F.adaptive_max_pool1d(x[0], True))", "err(lambda: F.adaptive_max_pool1d(x[0], (None, 2)))",
          "err(lambda: F.max_pool2d(x, 1, True))", "err(lambda: F.max_pool2d(x, True))",
          "err(lambda: F.max_pool2d(x, 2, (1.5, 1)))", "err(lambda: F.max_pool2d(x, 2, 1, 0, True))",
          "err(lambda: F.max_pool2d(x, (2, None)))", "err(lambda: F.max_pool1d(x[0], 1, True))",
          "err(lambda: F.max_pool1d(x[0], 1, 1.5, return_indices=True))",
          "err(lambda: F.max_pool3d(x, 1, True))", "err(lambda: F.max_pool2d_with_indices(x, 1, True))",
          "err(lambda: F.max_pool2d(x, 2, True, return_indices=True))", "F.max_pool2d(x, 2, (1, True))"]),
    case("norm-running-stats-both-or-neither",  # (error-type:instance_norm) batch_norm_cpu's ValueError when only
         # one running statistic is given; instance_norm's own check without input statistics and its size(1)
         ["def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)",
          "x = torch.tensor([[[1.0, 3.0], [-3.0, 3.0], [1.5, -3.0]]], dtype=torch.float64, requires_grad=True)",
          "rv = torch.tensor([2.25, 0.5, 1.75])", "b = torch.tensor([1.5, -0.75, 2.0], requires_grad=True)"],
         ["err(lambda: F.instance_norm(x, running_var=rv, bias=b, momentum=0.5))",
          "err(lambda: F.instance_norm(x.float(), running_mean=rv))",
          "err(lambda: F.instance_norm(x.float(), running_mean=rv, use_input_stats=False))",
          "err(lambda: torch.instance_norm(torch.ones(3), None, None, torch.ones(4), None, True, 0.1, 1e-5, False))",
          "err(lambda: torch.instance_norm(torch.tensor(1.), None, None, None, None, True, 0.1, 1e-5, False))",
          "err(lambda: F.batch_norm(x.float(), None, rv, training=True))",
          "err(lambda: torch.batch_norm(x.int(), None, None, None, torch.ones(3), True, 0.1, 1e-5, False))",
          "err(lambda: torch.batch_norm(x.float(), None, None, torch.ones(3).double(), None, True, 0.1, 1e-5, False))",
          "err(lambda: torch.batch_norm(x.float(), None, None, torch.ones(3), None, False, 0.1, 1e-5, False))", "rv"]),
    case("max-pool-window-of-minus-inf-starts-inside",  # (value:max_pool2d_with_indices, value:max_pool3d,
         # value:max_pool3d_with_indices) a window of -inf and padding only: the kernel's starting index, its
         # first position inside the input (ih0, iw0 stepped by the dilation), not a padded one
         ["x = torch.tensor([[[float('-inf'), 0.0, -0.75, -2.75], [-0.75, -1.25, 0.0, 1.5], [0.0, -0.25, 2.5, 0.75],"
          " [2.25, -0.75, 1.25, -2.5], [0.25, 3.0, -0.5, 1.5]]], requires_grad=True)",
          "y = torch.tensor([[[[[-1.25, 1.75], [0.75, -2.0]], [[-0.5, 0.0], [1.25, 2.5]]]], [[[[-1.0, float('-inf')],"
          " [0.25, 0.0]], [[0.5, -1.5], [2.0, -1.25]]]]])", "m = torch.full((1, 5, 6), float('-inf'))"],
         ["F.max_pool2d_with_indices(x, 2, padding=1)", "F.max_pool2d(x, 3, padding=1, dilation=2, return_indices=True)",
          "F.max_pool2d(m, 3, 2, padding=1, dilation=2, return_indices=True)[1]",
          "F.max_pool2d(m[None].contiguous(memory_format=torch.channels_last), 2, padding=1, return_indices=True)[1]",
          "F.max_pool3d(y, 2, 2, 1, return_indices=True)[1]", "F.max_pool3d_with_indices(m[None], 2, padding=1)[1]",
          "F.max_pool1d(m[0], 2, 1, 1, return_indices=True)[1]",
          "torch.autograd.grad(F.max_pool2d(x, 2, padding=1).sum(), x)[0]"]),
    case("nll-loss-ignored-target-is-zero",  # (repr:nll_loss) an ignored target's loss is 0.0 (skipped), not
         # -x * 0 (-0.0, or NaN at an inf)
         ["x = torch.tensor([[[0.0, 0.25, 1.25], [2.25, 2.25, -0.25], [2.5, 0.25, -0.75]], [[0.5, 2.75, float('inf')],"
          " [-0.75, -2.0, 3.0], [-2.5, -2.5, -0.25]], [[-1.75, -0.5, 1.5], [-2.75, 0.0, 2.25], [0.25, 3.0, 0.0]]],"
          " requires_grad=True)", "t = torch.tensor([[1, 0, 0], [2, 2, 0], [1, 1, 2]])"],
         ["F.nll_loss(x, t, ignore_index=1, reduction='none')", "F.nll_loss(x, t, ignore_index=1, reduction='sum')",
          "F.nll_loss(x, t, ignore_index=1)", "F.nll_loss(x[:, :, 0], t[:, 0], ignore_index=1, reduction='none')",
          "F.nll_loss(-x[:, :, 2], t[:, 2], ignore_index=2, reduction='none')",
          "F.cross_entropy(x[:, :, 0], t[:, 0], ignore_index=1, reduction='none')",
          "torch.autograd.grad(F.nll_loss(x, t, ignore_index=1, reduction='none').sum(), x)[0]"]),
    case("sdpa-flash-row-masked-everywhere-is-zero",  # (value:scaled_dot_product_attention) the CPU flash kernel
         # gives a row masked everywhere probabilities 0: output and gradients 0, not NaN
         ["q = torch.tensor([[[[-0.5, -3.0], [-0.5, 1.0]]]], requires_grad=True)",
          "k = torch.tensor([[[[2.5, 2.5], [-1.25, -2.5]]]], requires_grad=True)",
          "v = torch.tensor([[[[-0.75, 0.0], [3.0, 1.5]]]], requires_grad=True)",
          "mask = torch.tensor([[2.0, -1.5], [-1.25, -2.75]]) > 0",
          "r = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)"],
         ["r", "torch.autograd.grad((r * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum(), [q, k, v])",
          "F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor([[0.0, -float('inf')], [-float('inf'), -float('inf')]]))",
          "F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=mask)"]),
    case("layer-norm-half-fused-in-float",  # (value:layer_norm) layer_norm_kernel_mixed_type: float16 (and
         # float16 with float32 parameters) as fma(fma(x, rstd, -rstd * mean), gamma, beta) in float: a row of
         # one element gives the product's rounding error, not 0
         ["x = torch.tensor([[[0.25], [-2.0], [1.25]]], dtype=torch.float16, requires_grad=True)",
          "y = ((torch.arange(360.) * 0.6180339).frac() - 0.5).reshape(4, 3, 30).half()"],
         ["torch.layer_norm((x * 1).i0_(), (1,)).tolist()", "F.layer_norm(y, (30,)).tolist()",
          "F.layer_norm(y, (3, 30), torch.linspace(-1, 1, 90).reshape(3, 30).half(),"
          " torch.linspace(0, 2, 90).reshape(3, 30).half()).tolist()",
          "F.layer_norm(y, (30,), torch.linspace(-1, 1, 30), torch.linspace(0, 2, 30)).tolist()",
          "F.layer_norm(y[:, :, :7], (7,), None, torch.linspace(0, 2, 7).half()).tolist()"]),
    case("interpolate-antialias-as-aten",  # (raises-only-agrad:interpolate) _upsample_bilinear2d_aa /
         # _upsample_bicubic2d_aa: PIL's filters, the width first then the height, GCC's unrolled sums (float64
         # bit for bit), one output column making every row take row 0's window; the backward's fused sums
         ["x = torch.tensor([[[[2.25, 1.0], [-0.75, -1.0], [2.5, 1.75], [-2.0, -2.25]], [[1.5, -1.75], [-0.75, 2.25],"
          " [-0.5, 1.5], [2.0, -2.0]]]], dtype=torch.float64, requires_grad=True)",
          "y = ((torch.arange(360.) * 0.6180339).frac() - 0.5).reshape(2, 2, 9, 10).double().requires_grad_()",
          "def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)",
          "r = F.interpolate(x, (1, 2), mode='bicubic', antialias=True)",
          "g, = torch.autograd.grad((r * r).sum(), x, create_graph=True)"],
         ["r", "g", "torch.autograd.grad(g.sum(), x)", "F.interpolate(y, (4, 3), mode='bilinear', antialias=True).tolist()",
          "F.interpolate(y, (5, 7), mode='bicubic', antialias=True, align_corners=True).tolist()",
          "F.interpolate(y, (3, 1), mode='bilinear', antialias=True).tolist()",
          "F.interpolate(y, scale_factor=0.4, mode='bicubic', antialias=True).tolist()",
          "torch.autograd.grad(F.interpolate(y, (4, 13), mode='bicubic', antialias=True).pow(2).sum(), y)[0].tolist()",
          "err(lambda: F.interpolate(x[0], (3,), mode='linear', antialias=True))",
          "err(lambda: F.interpolate(x.half(), (3, 1), mode='bilinear', antialias=True))"]),
]
