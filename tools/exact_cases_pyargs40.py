"""Regression cases of helper pyargs40 (session 40, issue 10): arguments PyTorch's argument parser refuses
(or takes) for a Number / float / int / bool parameter, compared with PyTorch 2.13."""

from __future__ import annotations

from exact_case_form import case, outcomes

#: the argument kinds: a 0-d tensor, a one-element 1-d tensor, one that requires grad, a bool tensor,
#: numpy's bool, numpy's float, a str
KINDS = ("torch.tensor(0.5)", "torch.tensor([0.5])", "torch.tensor(0.5, requires_grad=True)", "torch.tensor(True)",
         "np.bool_(True)", "np.float64(0.5)", "'a'")
SETUP = ["x = torch.tensor([[-1.0, 2.0], [0.5, -0.25]])", "import numpy as np"]


def calls(*forms):
    return [form.format(v=v) for form in forms for v in KINDS]


CASES = [
    case("python-level-number-args",  # nn.functional's Python functions pass their numbers on to ATen by
         # position (leaky_relu's negative_slope, hardtanh's bounds, threshold's, rrelu's, pad's value,
         # cdist's p): its parser refuses a one-element 1-d tensor, one that requires grad, a str
         SETUP + outcomes(calls("F.leaky_relu(x, {v})", "F.hardtanh(x, min_val={v})", "F.hardtanh(x, -2.0, {v})",
                                "F.threshold(x, {v}, 2.0)", "F.threshold(x, 0.0, {v})", "F.rrelu(x, lower={v})",
                                "F.rrelu(x.clone(), 0.1, {v}, False, True)", "F.pad(x, (1, 1), value={v})",
                                "torch.cdist(x, x, p={v})", "F.normalize(x, eps={v})",
                                "F.leaky_relu(x.clone(), {v}, True)")),
         ["out"]),
    case("python-level-dim-args",  # F.glu / F.softmax / F.log_softmax / F.softmin pass dim on (input.softmax(dim)):
         # an int, or a 0-d integral tensor, only (and ATen's ops a str dim: the parser's text)
         SETUP + outcomes(calls("F.glu(x, dim={v})", "F.softmax(x, dim={v})", "F.log_softmax(x, {v})",
                                "F.softmin(x, {v})")
                          + ["F.softmax(x, True)", "F.glu(x, True)", "F.softmax(x, torch.tensor(0))",
                             "F.softmax(x, np.int64(-1))", "x.cumsum('a')", "torch.transpose(x, 'a', 1)"]),
         ["out"]),
]
CASES += [
    case("aten-number-args",  # ATen's Number / float parameters (agrad/ops/_scalar_params_table.py): a one-element
         # 1-d tensor, one that requires grad, a str refused; a 0-d tensor passed on as its item() (a bool
         # tensor's alpha is a bool: add's error), numpy's bool as a double (pdist takes both, add's alpha too)
         SETUP + outcomes(calls("F.softplus(x, beta={v})", "F.hardshrink(x, {v})", "torch.add(x, x, alpha={v})",
                                "x.sub(x, alpha={v})", "F.pdist(x, p={v})", "F.cosine_similarity(x, x, eps={v})",
                                "torch.renorm(x, {v}, 0, 1.0)", "x.renorm(2, 0, maxnorm={v})",
                                "torch.full((2,), {v})", "torch.rrelu(x, {v})", "x.lerp(x * 2, {v})")),
         ["out"]),
]
CASES += [
    case("python-level-norm-and-margin-args",  # F.layer_norm / group_norm / batch_norm / instance_norm / rms_norm /
         # triplet_margin_loss / multi_margin_loss pass their floats (and group_norm's num_groups) on to ATen
         SETUP + ["x4 = torch.arange(16.).reshape(1, 1, 4, 4) / 10", "t = torch.tensor([0, 1])"] +
         outcomes(calls("F.layer_norm(x, (2,), eps={v})", "F.group_norm(x4, {v})", "F.group_norm(x4, 1, eps={v})",
                        "F.batch_norm(x, None, None, training=True, momentum={v})",
                        "F.batch_norm(x, None, None, training=True, eps={v})", "F.instance_norm(x4, eps={v})",
                        "F.rms_norm(x, (2,), eps={v})", "F.triplet_margin_loss(x, x, x, margin={v})",
                        "F.triplet_margin_loss(x, x, x, p={v})", "F.triplet_margin_loss(x, x, x, eps={v})",
                        "F.multi_margin_loss(x, t, margin={v})") + ["F.group_norm(x4, True)"]),
         ["out"]),
]
CASES += [
    case("aten-int-args",  # ATen's int parameters (agrad/ops/_scalar_params_table.py): an int or a 0-d integral
         # tensor; a bool, numpy's bool, a float tensor refused with the parser's text
         SETUP + ["x4 = torch.arange(16.).reshape(1, 1, 4, 4) / 10", "ti = torch.tensor(1)", "ni = np.int64(1)"] +
         outcomes(calls("x.diag({v})", "torch.cat([x, x], {v})", "F.pixel_shuffle(x4, {v})", "x.tril({v})")
                  + [f"{f}({v})" for f in ("x.diag", "x.tril", "torch.cat([x, x], dim=0) if 0 else torch.stack")
                     for v in ("True", "ti", "ni")][:6] + ["torch.cat([x, x], True)", "torch.cat([x, x], ti)"]),
         ["out"]),
]
