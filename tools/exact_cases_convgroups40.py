"""Regression cases of helper "convgroups40" (session 40, issue 10): grouped float32 convolutions on oneDNN.

A grouped or depthwise float32 convolution runs a oneDNN kernel that either never reads the padding (jit_dw,
brdgmm_dw, jit:avx2: an inf or NaN weight, or grad_output, over a padded position adds nothing) or multiplies
the padded zeros (gemm: inf * 0 = NaN); agrad names the kernel from the shapes (src/agrad/ops/_conv_groups.py).
Each case shows the output and both gradients. Same form as tools/exact_cases.py.
"""

from __future__ import annotations

from exact_case_form import case

_INF = "float('inf')"


def _run(name, make, call, grad="torch.ones_like(y)", extra=(), after=(), show=()):
    """``make``: statements defining x and w (float32, requires_grad set below); ``call``: y's expression."""
    code = list(make) + list(extra) + ["x.requires_grad_()", "w.requires_grad_()", f"y = {call}",
                                       f"y.backward({grad})"] + list(after)
    return case(name, code, ["y.tolist()", "x.grad.tolist()", "w.grad.tolist()"] + list(show))


def _grid(shape, scale=0.25):
    n = 1
    for s in shape:
        n *= s
    return f"(torch.arange({n}, dtype=torch.float32).reshape{tuple(shape)} % 7 - 3) * {scale}"


CASES = [
    # (grad-value:backward, dt40a) a depthwise conv_transpose3d: its input gradient is oneDNN's brdgmm_dw forward
    # convolution of grad_output, which never reads the padding
    _run("convgroups-transpose3d-depthwise-input-grad",
         [f"x = {_grid((1, 2, 3, 4, 4))}", f"w = {_grid((2, 1, 3, 3, 3))}", f"w[0, 0, 1, 0, 2] = {_INF}",
          "w[1, 0, 2, 2, 0] = float('nan')"],
         "F.conv_transpose3d(x, w, padding=1, groups=2)"),
    # depthwise conv1d/conv2d: jit_dw (kernel past the padding, unroll covering it) skips; a 1-wide kernel
    # over a padding of 1 is gemm's (reads it: NaN)
    _run("convgroups-depthwise-jit-dw-skips",
         [f"x = {_grid((2, 3, 5, 6))}", f"w = {_grid((3, 1, 3, 3))}", f"w[0, 0, 0, 0] = {_INF}",
          f"w[2, 0, 2, 1] = -{_INF}"],
         "F.conv2d(x, w, padding=1, groups=3)"),
    _run("convgroups-depthwise-gemm-reads",
         [f"x = {_grid((2, 2, 5))}", f"w = {_grid((2, 1, 1))}", f"w[0, 0, 0] = {_INF}"],
         "F.conv1d(x, w, padding=1, groups=2)"),
    # 3-D depthwise: brdgmm_dw without dilation (skips), gemm with it (reads)
    _run("convgroups-depthwise3d-brdgmm-and-dilated",
         [f"x = {_grid((1, 2, 3, 3, 4))}", f"w = {_grid((2, 1, 2, 2, 2))}", f"w[1, 0, 0, 0, 0] = {_INF}"],
         "torch.cat([F.conv3d(x, w, padding=1, groups=2).flatten(), "
         "F.conv3d(x, w, padding=1, dilation=2, groups=2).flatten()])"),
    # 8 output channels a group: jit:avx2 (flat) below 8 input channels in all (skips), gemm at 8 (reads)
    _run("convgroups-eight-outputs-a-group",
         [f"x = {_grid((1, 2, 4, 4))}", f"w = {_grid((16, 1, 3, 3))}", f"w[0, 0, 0, 0] = {_INF}",
          f"x8 = {_grid((1, 8, 4, 4))}", f"w8 = {_grid((16, 4, 3, 3))}", f"w8[0, 0, 0, 0] = {_INF}"],
         "torch.cat([F.conv2d(x, w, padding=1, groups=2).flatten(), F.conv2d(x8, w8, padding=1, groups=2).flatten()])",
         extra=["x8.requires_grad_()", "w8.requires_grad_()"], show=["x8.grad.tolist()", "w8.grad.tolist()"]),
    # two channels a group: gemm reads the padding
    _run("convgroups-two-a-group-reads",
         [f"x = {_grid((1, 4, 4, 4))}", f"w = {_grid((4, 2, 3, 3))}", f"w[0, 1, 0, 2] = {_INF}"],
         "F.conv2d(x, w, padding=1, groups=2)"),
    # the weight gradient: a depthwise one with an inf in grad_output (jit_dw's backward-weights skips the
    # padding for a kernel up to 3 wide; gemm's reads it for 4 wide)
    _run("convgroups-depthwise-weight-grad",
         [f"x = {_grid((2, 2, 5, 5))}", f"w = {_grid((2, 1, 3, 3))}", f"w4 = {_grid((2, 1, 3, 4))}",
          "g = torch.ones(2, 2, 5, 5)", f"g[0, 0, 0, 0] = {_INF}", "g4 = torch.ones(2, 2, 5, 4)",
          f"g4[1, 1, 4, 3] = {_INF}", "w4.requires_grad_()"],
         "F.conv2d(x, w, padding=1, groups=2)", grad="g",
         after=["F.conv2d(x.detach(), w4, padding=1, groups=2).backward(g4)"], show=["w4.grad.tolist()"]),
    # a depthwise conv_transpose2d's weight gradient (its input non-finite) and input gradient
    _run("convgroups-transpose2d-depthwise-grads",
         [f"x = {_grid((2, 2, 4, 4))}", f"x[0, 1, 0, 0] = {_INF}", f"w = {_grid((2, 1, 3, 3))}",
          f"w[0, 0, 2, 2] = -{_INF}"],
         "F.conv_transpose2d(x, w, padding=1, groups=2)"),
    # (value:logit, own run 40400000) eps > 0.5 puts lo above hi: the scalar loop's x < lo ? lo : (x > hi ? hi : x)
    # and the vector code's clamp, min(hi, max(lo, x)) = hi, differ; a non-dense input's vector lanes take the latter
    case("logit-eps-above-half-vector-clamp",
         ["x = (torch.arange(96, dtype=torch.float64).reshape(3, 4, 8) % 11 - 5) * 0.3", "x[0, 0, 0] = float('nan')",
          "xf = x.float()"],
         ["torch.special.logit(x[::2], 1.0).tolist()", "torch.special.logit(x[::2], 0.7).tolist()",
          "torch.logit(xf[::2], 0.75).tolist()", "torch.logit(x[:, :, ::2], 1.0).tolist()",
          "torch.logit(x, 1.0).tolist()"]),
    # (error-text:grad, own run 40470000) margin_ranking_loss's loss before its reduction is ATen's clamp_min_ in
    # place: version 1, which a later in-place change and backward's error text count from
    case("margin-ranking-loss-output-version",
         ["a = torch.tensor([1., 2., 3.], requires_grad=True)",
          "r = torch.margin_ranking_loss(a, torch.tensor([0.25, -0.25, 2.0]), torch.tensor([-2.25, -1.75, -0.0]))",
          "r2 = F.margin_ranking_loss(a, torch.tensor([0.5, 2.5, 2.0]), torch.tensor([1.0, 1.0, -1.0]), reduction='none')",
          "y = a ** r", "r.sub_(0.0)",
          "try:\n    y.sum().backward()\nexcept RuntimeError as e:\n    err = str(e)[:200]"],
         ["r._version", "r2._version", "r2.grad_fn.name()", "err"]),
]
