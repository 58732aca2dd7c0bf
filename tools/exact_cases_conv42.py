"""Regression cases of helper "conv42" (session 42, issue 10): oneDNN's order of additions in grouped float32
convolutions (src/agrad/ops/_conv_group_order.py), channels-last grouped convolution gradients and group_norm of
channels-last inputs.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

_HEX = "def hexes(t):\n    return [v.hex() for v in t.detach().flatten().tolist()]"
_F = "F = torch.nn.functional"


def _vals(name, n, shape, mul, zeros=False):
    """A float32 tensor of ``n`` values in ``shape``: a deterministic spread (with ``zeros``: every third a
    signed zero)."""
    expr = f"((torch.arange({n}.) * {mul}) % 2.3 - 1.1)"
    if zeros:
        expr = f"torch.where(torch.arange({n}) % 3 == 0, torch.where(torch.arange({n}) % 2 == 0, 0.0, -0.0), {expr})"
    return f"{name} = {expr}.reshape{shape}"


CASES = [
    case("onednn-grouped-conv-forward-order",  # (issue 10) a grouped float32 convolution's forward in the order
         # of oneDNN's kernel: jit_dw (depthwise 1-D/2-D: from the bias, the taps in order, the padding skipped,
         # so a -0.0 bias stays -0.0 where every product is -0.0), brdgmm_dw (depthwise 3-D: from +0.0, the
         # bias added after), jit:avx2 (8 output channels a group: per block of 8 input channels, the taps,
         # the channels), x64:gemm:jit (one output channel a group: a chain over the im2col rows from
         # +0.0, then the bias; its sgemv for one output position: 8 lanes)
         [_F, _HEX,
          _vals("x1", 24, "(2, 4, 3)", 0.61, True), _vals("w1", 8, "(4, 1, 2)", 0.83, True),
          "b1 = torch.tensor([-0.0, 1.5, -0.0, -0.0])",
          _vals("x2", 72, "(2, 4, 3, 3)", 0.47, True), _vals("w2", 16, "(4, 1, 2, 2)", 0.71, True),
          _vals("x3", 96, "(2, 2, 3, 4, 2)", 0.53), _vals("w3", 16, "(2, 1, 2, 2, 2)", 0.91),
          _vals("xj", 64, "(2, 4, 8)", 0.57), _vals("wj", 96, "(16, 2, 3)", 0.67),
          _vals("xg", 108, "(2, 6, 9)", 0.59), _vals("wg", 18, "(2, 3, 3)", 0.79),
          "bg = torch.tensor([0.5, -0.0])",
          _vals("xv", 36, "(2, 18, 1)", 0.43), _vals("wv", 72, "(4, 9, 2)", 0.97),
          "outs = [F.conv1d(x1, w1, b1, padding=1, groups=4), F.conv2d(x2, w2, torch.full((4,), -0.0), padding=1,"
          " groups=4), F.conv3d(x3, w3, torch.tensor([0.25, -0.0]), padding=1, groups=2),"
          " F.conv1d(xj, wj, torch.full((16,), -0.0), padding=1, groups=2), F.conv1d(xg, wg, bg, groups=2),"
          " F.conv1d(xv, wv, None, padding=1, stride=2, groups=2)]"],
         ["[hexes(o) for o in outs]"]),
    case("group-norm-channels-last-kernels",  # (issue 10) group_norm of a channels-last(-3d) input runs ATen's
         # channels-last kernels: column moments in K-lane vectors (fewer than 1024 positions) or per-thread row
         # sums (1024 or more), y = fma(x, scale, bias); the backward's per-block sums (fewer than 2048 positions)
         # or per-thread row sums; the input gradient laid out channels-last
         [_F, _HEX,
          "x = ((torch.arange(240.) * 0.37) % 2.3 - 1.1).reshape(2, 12, 5, 2).contiguous("
          "memory_format=torch.channels_last).requires_grad_()",
          "w = (torch.arange(12.) * 0.3 - 1.7).requires_grad_()", "b = (torch.arange(12.) * -0.2 + 0.5).requires_grad_()",
          "y = F.group_norm(x, 3, w, b)", "dy = ((torch.arange(240.) * 0.53) % 1.9 - 0.7).reshape(2, 12, 5, 2)",
          "gx, gw, gb = torch.autograd.grad(y, (x, w, b), dy)",
          "x3 = ((torch.arange(2 * 9 * 3 * 4 * 3.) * 0.41) % 2.1 - 1.0).reshape(2, 9, 3, 4, 3).double().contiguous("
          "memory_format=torch.channels_last_3d).requires_grad_()",
          "y3 = F.group_norm(x3, 3)", "g3, = torch.autograd.grad(y3, x3, torch.ones_like(y3) * 0.5 + x3.detach())",
          "xl = ((torch.arange(2 * 4 * 36 * 32.) * 0.29) % 2.7 - 1.3).reshape(2, 4, 36, 32).contiguous("
          "memory_format=torch.channels_last).requires_grad_()",
          "wl = (torch.arange(4.) * 0.7 + 0.2).requires_grad_()",
          "yl = F.group_norm(xl, 2, wl)", "gl = torch.autograd.grad(yl, (xl, wl), xl.detach() * 0.25 - 0.1)",
          "xh = ((torch.arange(8 * 48 * 48.) * 0.31) % 2.2 - 1.0).reshape(1, 8, 48, 48).contiguous("
          "memory_format=torch.channels_last).requires_grad_()",
          "yh = F.group_norm(xh, 4)", "gh, = torch.autograd.grad(yh, xh, xh.detach() * -0.5 + 0.3)"],
         ["hexes(y)", "(y.stride(), gx.stride(), g3.stride(), gh.stride())", "hexes(gx)", "hexes(gw)", "hexes(gb)",
          "hexes(y3)", "hexes(g3)", "hexes(yl)[::7]", "hexes(gl[0])[::7]", "hexes(gl[1])", "hexes(yh)[::11]",
          "hexes(gh)[::11]"]),
    case("onednn-gemm-conv-bias-gradient-rows",  # (issue 10) the bias gradient of a float32 convolution whose
         # backward-weights kernel is oneDNN's x64:gemm:jit (grouped, plain layouts): per output channel from +0.0,
         # each output row's sum (in order from its first element) added in turn
         [_F, _HEX,
          _vals("xb", 2 * 6 * 2 * 23, "(2, 6, 2, 23)", 0.61), _vals("wb", 6 * 2, "(6, 2, 1, 1)", 0.77),
          "bb = torch.zeros(6, requires_grad=True)", "yb = F.conv2d(xb, wb, bb, groups=3)",
          "gob = ((torch.arange(2 * 6 * 2 * 23.) * 0.377) % 1.3 - 0.6).reshape(2, 6, 2, 23)",
          "gbb, = torch.autograd.grad(yb, bb, gob)",
          _vals("x1", 3 * 4 * 13, "(3, 4, 13)", 0.59), _vals("w1", 4 * 2 * 3, "(4, 2, 3)", 0.83),
          "b1 = torch.zeros(4, requires_grad=True)", "y1 = F.conv1d(x1, w1, b1, padding=2, groups=2)",
          "g1, = torch.autograd.grad(y1, b1, ((torch.arange(3 * 4 * 15.) * 0.29) % 1.7 - 0.8).reshape(3, 4, 15))"],
         ["hexes(gbb)", "gbb.stride()", "hexes(g1)"]),
    case("softshrink-out-strided-scalar-loop",  # (own run 41800000, repr:softshrink) softshrink into an existing
         # out= whose strides are not the input's: TensorIterator's rows follow out, a strided row runs the scalar
         # loop throughout (x * 0: -0.0 for a negative input inside the band; the vector code gives +0.0)
         ["F = torch.nn.functional",
          "x = torch.tensor([[2.75, -0.25, 0.5], [3.0, 0.25, -1.0], [2.25, -0.5, -2.5], [3.25, -0.5, 2.0]], "
          "dtype=torch.float64)",
          "b = torch.zeros(4, 6, dtype=torch.float64)", "o = b.view(3, 8)[..., ::2].mT", "F.softshrink(x, out=o)",
          "c = torch.zeros(4, 3, dtype=torch.float64)", "F.softshrink(x, out=c)",
          "t = torch.zeros(3, 4).mT", "F.softshrink(x.float(), 0.3, out=t)"],
         ["[v.hex() for v in b.flatten().tolist()]", "[v.hex() for v in c.flatten().tolist()]",
          "[v.hex() for v in t.flatten().tolist()]"]),
    case("nonzero-as-tuple-refuses-out",  # (own run 41800000, raises-only-torch:nonzero) torch.nonzero's binding
         # refuses out= with as_tuple=True before the op, whatever out is
         outcomes(["torch.nonzero(torch.tensor(0.25, requires_grad=True), as_tuple=True, out=torch.tensor([-4]))",
                   "torch.nonzero(torch.tensor([1., 0.]), out=torch.tensor([1.5]), as_tuple=True)",
                   "torch.nonzero(torch.tensor([1., 0.]), as_tuple=True, out=None)"]),
         ["out"]),
    case("onednn-channels-last-dilated-depthwise-jit-dw",  # (issue 10) a dilated depthwise 2-D float32
         # convolution of a channels-last input runs oneDNN's jit_dw (its nhwc dispatch): the chain from the bias
         # over the taps, the padding skipped, as the plain layout's
         [_F, _HEX,
          _vals("xc", 2 * 4 * 5 * 6, "(2, 4, 5, 6)", 0.61, True),
          "xc = xc.contiguous(memory_format=torch.channels_last)",
          _vals("wc", 4 * 9, "(4, 1, 3, 3)", 0.73, True),
          "yc = F.conv2d(xc, wc, torch.tensor([-0.0, 0.5, -0.0, -1.25]), padding=2, dilation=2, groups=4)",
          _vals("xf", 1 * 3 * 6 * 7, "(1, 3, 6, 7)", 0.57),
          "xf = xf.contiguous(memory_format=torch.channels_last)", _vals("wf", 3 * 6, "(3, 1, 2, 3)", 0.91),
          "yf = F.conv2d(xf, wf, None, padding=(1, 2), dilation=(2, 1), groups=3)"],
         ["hexes(yc)", "yc.stride()", "hexes(yf)"]),
    case("onednn-gemm-grouped-conv-forward-sgemm-kernels",  # (issue 10) a grouped float32 convolution on oneDNN's
         # x64:gemm:jit: per thread piece of an image (balance211 over samples, groups and positions) one sgemm,
         # whose no-copy kernels (jit_avx_gemm_f32) sum 16-row blocks of 4-6 columns in one fused chain, 3 columns
         # or 8-row blocks in two (even and odd terms), 1-2 columns in two unfused ones, an odd K's last term
         # after; one position: its sgemv's 8 lanes; then the bias
         [_F, _HEX,
          _vals("xa", 2 * 6 * 20, "(2, 6, 20)", 0.61), _vals("wa", 18 * 3 * 3, "(18, 3, 3)", 0.79),
          "ya = F.conv1d(xa, wa, torch.arange(18.) * 0.1 - 0.8, padding=1, groups=2)",
          _vals("xb", 2 * 4 * 12, "(2, 4, 12)", 0.53), _vals("wb", 16 * 2 * 3, "(16, 2, 3)", 0.87),
          "yb = F.conv1d(xb, wb, None, groups=2)",
          _vals("xc", 1 * 3 * 9, "(1, 3, 9)", 0.47), _vals("wc", 27 * 1 * 2, "(27, 1, 2)", 0.91),
          "yc = F.conv1d(xc, wc, None, padding=1, stride=1, dilation=2, groups=3)",
          _vals("xd", 2 * 6 * 3 * 3, "(2, 6, 3, 3)", 0.57), _vals("wd", 12 * 3 * 2 * 2, "(12, 3, 2, 2)", 0.73),
          "yd = F.conv2d(xd, wd, None, padding=1, stride=2, groups=2)"],
         ["hexes(ya)", "hexes(yb)", "hexes(yc)", "hexes(yd)"]),
    case("setitem-bool-mask-value-checked-convert",  # (own run 41806000, raises-only-torch:setitem) a bool-mask
         # setitem (also after int indices) or masked_fill_ with a one-element tensor value is masked_fill_ of
         # value.item(): c10's checked_convert refuses a value out of the destination's range (no dtype match
         # needed); a valid one is written converted
         outcomes(["torch.tensor([3], dtype=torch.uint8).__setitem__(torch.tensor([True]), "
                   "torch.tensor(-0.75, requires_grad=True))",
                   "torch.tensor([3], dtype=torch.int8).__setitem__(torch.tensor([True]), torch.tensor(-200.))",
                   "torch.tensor([3], dtype=torch.uint8).masked_fill_(torch.tensor([True]), torch.tensor(float('nan')))",
                   "torch.tensor([3.], dtype=torch.float16).__setitem__(torch.tensor([True]), torch.tensor(1e6))",
                   "torch.tensor([[3, 1]], dtype=torch.int16).__setitem__((0, torch.tensor([True, False])), "
                   "torch.tensor(70000.))",
                   "torch.tensor([[3, 1]], dtype=torch.uint8).__setitem__(torch.tensor([[True, False]]), "
                   "torch.tensor([-0.75]))",
                   "torch.tensor([3, 1], dtype=torch.uint8).index_put_((torch.tensor([True, False]),), torch.tensor(-0.75))",
                   "torch.index_put(torch.tensor([3, 1], dtype=torch.uint8), (torch.tensor([True, False]),), "
                   "torch.tensor(-0.75))",
                   "torch.index_put(torch.tensor([3, 1], dtype=torch.int16), (torch.tensor([True, False]),), "
                   "torch.tensor(7.9))",
                   "torch.tensor([3., 1.]).index_put_((torch.tensor([True, False]),), torch.tensor(5), accumulate=True)"])
         + ["x = torch.tensor([[3, 1]], dtype=torch.int16)", "x[0, x[0] > 2] = torch.tensor(7.9, dtype=torch.float64)",
            "y = torch.tensor([3, 1], dtype=torch.uint8)", "y[y > 2] = torch.tensor(-1)"],
         ["out", "x", "y"]),
    case("onednn-gemm-ungrouped-conv-forward-sgemm-kernels",  # (issue 10) an ungrouped float32 convolution that
         # oneDNN's direct kernels refuse (padding past the kernel's reach, a wide kernel's unroll) runs x64:gemm:jit:
         # the same sgemm kernels and thread pieces as a grouped one's
         [_F, _HEX,
          _vals("xe", 2 * 5 * 11, "(2, 5, 11)", 0.61), _vals("we", 9 * 5 * 2, "(9, 5, 2)", 0.79),
          "ye = F.conv1d(xe, we, torch.arange(9.) * 0.3 - 1.1, padding=2)",
          _vals("xf", 3 * 4 * 5 * 4, "(3, 4, 5, 4)", 0.53), _vals("wf", 7 * 4 * 3 * 2, "(7, 4, 3, 2)", 0.87),
          "yf = F.conv2d(xf, wf, None, padding=(3, 2), dilation=(1, 2))"],
         ["hexes(ye)", "hexes(yf)"]),
    case("onednn-gemm-grouped-conv-weight-gradient",  # (issue 10) the weight gradient of a grouped float32
         # convolution whose backward-weights kernel is x64:gemm:jit: per group, per sample (and depth plane) one
         # sgemm over its positions added onto the last (the no-copy kernels' orders; one output channel a group,
         # or one row: the sgemv, its blocks added onto C one by one)
         [_F, _HEX,
          _vals("xg", 3 * 6 * 4 * 5, "(3, 6, 4, 5)", 0.61), "xg.requires_grad_()",
          _vals("wg", 18 * 3 * 1 * 2, "(18, 3, 1, 2)", 0.79), "wg.requires_grad_()",
          "yg = F.conv2d(xg, wg, None, padding=1, groups=2)",
          "gwg, = torch.autograd.grad(yg, wg, ((torch.arange(float(yg.numel())) * 0.377) % 1.3 - 0.6).reshape(yg.shape), retain_graph=True)",
          _vals("xh", 2 * 6 * 9, "(2, 6, 9)", 0.53), "xh.requires_grad_()",
          _vals("wh", 2 * 3 * 2, "(2, 3, 2)", 0.87), "wh.requires_grad_()",
          "yh = F.conv1d(xh, wh, None, padding=2, groups=2)",
          "gwh, = torch.autograd.grad(yh, wh, ((torch.arange(float(yh.numel())) * 0.29) % 1.7 - 0.8).reshape(yh.shape), retain_graph=True)",
          # (the input gradient on its gemm: per sample and group one sgemm, then col2im's taps in order)
          "gxg, = torch.autograd.grad(yg, xg, ((torch.arange(float(yg.numel())) * 0.41) % 1.9 - 0.9).reshape(yg.shape))",
          "gxh, = torch.autograd.grad(yh, xh, ((torch.arange(float(yh.numel())) * 0.33) % 1.1 - 0.5).reshape(yh.shape))"],
         ["hexes(gwg)", "hexes(gwh)", "hexes(gxg)", "hexes(gxh)"]),
    case("take-along-dim-out-dtype-is-gathers",  # (own run 41818000, raises-only-torch:take_along_dim)
         # take_along_dim(out=) is gather_out: out of another dtype refused ("Expected out tensor to have dtype")
         ["x1 = torch.tensor([[[-2], [4], [1], [0]]])"]
         + outcomes(["torch.take_along_dim(x1, torch.tensor([2]), out=torch.tensor([-1.0], dtype=torch.float16))",
                     "torch.take_along_dim(x1, torch.tensor([[[0], [1]]]), dim=1, out=torch.tensor([-1.0]))",
                     "torch.take_along_dim(x1.float(), torch.tensor([[[0], [1]]]), dim=1, "
                     "out=torch.tensor([-1.0], dtype=torch.float64))",
                     "torch.take_along_dim(x1.float(), torch.tensor([2]), out=torch.zeros(0))"]),
         ["out"]),
]
