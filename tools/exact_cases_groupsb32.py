"""Regression cases of the nn-functional groups of the replayed run dt20k-31 (helper "groupsb", session 32).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("ctc-loss-aten-default-reduction-is-none",  # (shape:ctc_loss) torch.ctc_loss's omitted reduction is
             # 0: the parser reads the signature's "at::Reduction::Mean" with atol; F.ctc_loss's is 'mean'
             [graph, "lp = torch.tensor([[[1.25, 2.75], [-1.75, -2.0]], [[2.5, -2.5], [-1.25, -2.75]], [[0.5, -2.5],"
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
    ]
