"""Golden cases of the lead's fixes in session 44 (each names the differential run's group)."""
from __future__ import annotations

from exact_case_form import GRAPH, case, outcomes

CASES = [
    case("sdpa-flash-saves-its-mask",  # (dt44a raises-only-torch:backward) the flash node saves the float mask
         # it is given, so changing the mask in place before the backward is the version error; a bool mask is
         # saved as its 0 / -inf conversion
         ["q = torch.tensor([[[[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0]]]], requires_grad=True)",
          "k = torch.tensor([[[[1.0, 0.5], [-0.5, 0.75], [0.25, -1.25]]]], requires_grad=True)",
          "v = torch.tensor([[[[2.0, -0.5], [0.5, 1.0], [-1.0, 0.25]]]], requires_grad=True)",
          "m1 = torch.tensor([[-1.5], [3.0], [1.0]])",
          "m2 = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])",
          "r1 = F.scaled_dot_product_attention(q, k, v, m1, is_causal=True, scale=0.5)",
          "r2 = F.scaled_dot_product_attention(q, k, v, m2)",
          "s = (r1.grad_fn._saved_attn_mask is m1, r2.grad_fn._saved_attn_mask, "
          "F.scaled_dot_product_attention(q, k, v).grad_fn._saved_attn_mask)",
          "m1[1:].sigmoid_()", "m2.logical_not_()"] +
         outcomes(["r1.sum().backward()", "r2.sum().backward(create_graph=True)"]),
         ["s", "out", "q.grad"]),
    case("inv-into-its-own-column-major-input",  # (dt44a value:inv) linalg_inv_ex_out fills its result with the
         # identity and solves in place: a kept out (batched column-major, else a proxy) that is A reads the
         # identity; a row-major out of more than one column is a proxy (the inverse); out's dtype is checked first
         ["a = torch.tensor([[[2.5]], [[-0.75]]])", "torch.linalg.inv(a, out=a)",
          "b = torch.tensor([[3.0, 0.5], [-1.0, 2.0]]).mT.contiguous().mT", "torch.inverse(b, out=b)",
          "c = torch.tensor([[3.0, 0.5], [-1.0, 2.0]], dtype=torch.float64)", "torch.linalg.inv(c, out=c)",
          "d = torch.tensor([[[3.0, 0.5], [-1.0, 2.0]], [[1.5, 0.0], [0.25, -2.0]]])",
          "torch.linalg.inv_ex(d[0], out=(d[1].mT, torch.empty(0, dtype=torch.int32)))"] +
         outcomes(["torch.linalg.inv(torch.zeros(2, 2), out=torch.empty(2, 2, dtype=torch.float64))",
                   "torch.inverse(torch.eye(2, requires_grad=True), out=torch.empty(2, 2, dtype=torch.float64))",
                   "torch.linalg.inv_ex(torch.eye(2), out=(torch.empty(2, 2, dtype=torch.float64), "
                   "torch.empty(0, dtype=torch.int32)))"]),
         ["a", "b", "c", "d", "out"]),
    case("copy-backwards-casts-before-the-sum",  # (left44's run 42406000 grad_fn:grad) CopyBackwards casts src's
         # gradient to src's dtype itself; the engine then sums a broadcast src: SumBackward1 over ToCopyBackward0
         [GRAPH, "s = torch.tensor([[0.3], [-1.7]], dtype=torch.float16, requires_grad=True)",
          "b = torch.zeros(4, 37)", "b[::2].copy_(s)", "w = torch.linspace(-3.0, 3.0, 74).reshape(2, 37)",
          "g, = torch.autograd.grad((b[::2] * w).sum(), [s], create_graph=True)", "n = graph(g.grad_fn)",
          "t = torch.tensor([0.1], dtype=torch.float64, requires_grad=True)", "d = torch.zeros(3, 5)",
          "d.copy_(t)", "h, = torch.autograd.grad((d * torch.arange(15.0).reshape(3, 5)).sum(), [t])"],
         ["g", "n", "h"]),
    case("multilabel-margin-float-target-read-as-int64",  # (runs44a's seed 42548297 error-type) the range check
         # reads target.min()/max() as item<int64_t>(): a NaN or inf float target is c10's overflow error
         ["x = torch.tensor([[0.5, -1.0, 2.0]])"] +
         outcomes([f"F.multilabel_margin_loss(x, torch.tensor([[{v}, 0.0, -1.0]], dtype=torch.{d}))"
                   for v, d in (("float('nan')", "float32"), ("float('-inf')", "float64"), ("1.5", "float16"),
                                ("2.5", "float64"))]),
         ["out"]),
    case("view-gradient-after-base-as-strided-to-other-strides",  # (runs44a's left: 16 probe lines) a base
         # as_strided_ in place to a non-contiguous geometry that no longer holds the view's elements: the regenerated
         # view's as_strided_backward goes through storage space and reads the base at its own positions
         ["x = torch.tensor([[2.25, 2.75, -0.75], [-2.75, -2.75, -1.75]], dtype=torch.float64, requires_grad=True)",
          "r = x * 1", "v = r[1:].sin_()", "r.as_strided_((2, 2), (1, 2), 1)", "v.sum().backward()",
          "y = torch.tensor([[2.25, 2.75, -0.75], [-2.75, -2.75, -1.75]], dtype=torch.float64, requires_grad=True)",
          "q = y * 1", "w = q[...].mul_(2)", "q.as_strided_((2, 2), (3, 1), 1)",
          "g, = torch.autograd.grad(w.pow(2).sum(), [y], create_graph=True)", "h, = torch.autograd.grad(g.sum(), [y])"],
         ["x.grad", "g", "h"]),
    case("vecdot-of-vectors-resizes-out-before-vdot",  # (dt44c shape:vecdot) linalg_vecdot_out of two vectors
         # resizes out to 0-d (resize_output, its warning) before vdot_out's autograd refusal
         ["x = torch.tensor([2.75, -0.0, -0.5], dtype=torch.float16, requires_grad=True)", "r = x * 1",
          "y = torch.tensor([-2.25, -2.0, -1.0], dtype=torch.float16)",
          "o1 = torch.zeros(0, dtype=torch.float16)", "o2 = torch.zeros(3, dtype=torch.float16)"] +
         outcomes(["torch.linalg.vecdot(r, y, out=o1)", "torch.linalg.vecdot(r, y, out=o2)",
                   "torch.linalg.vecdot(r.detach(), y, out=torch.zeros(2, dtype=torch.float32))"]) +
         ["s = (o1.shape, o2.shape)"],
         ["out", "s"]),
    case("empty-batch-norm-1d-and-nearest-backward",  # (strides44's probe) batch_norm of an empty 1-D input is
         # ATen's empty path too (a clone times weight[0]: select's refusal of an empty weight); nearest
         # interpolation's backward of an empty batch
         ["x = torch.zeros(0, requires_grad=True)", "w = torch.ones(1, requires_grad=True)",
          "y = F.batch_norm(x, torch.zeros(1), torch.ones(1), weight=w, bias=w, training=True)", "y.sum().backward()",
          "z = torch.zeros(0, 2, 3, 3, requires_grad=True)", "F.interpolate(z, size=(4, 5)).sum().backward()",
          "s = (y.shape, y.grad_fn.name(), x.grad.shape, w.grad, z.grad.shape)"] +
         outcomes(["F.batch_norm(x, torch.zeros(0), torch.ones(0), weight=torch.ones(0))"]),
         ["s", "out"]),
    case("multi-dot-resizes-out-before-mm",  # (dt44e shape:multi_dot) multi_dot_impl resizes out to the result's
         # shape (resize_output, its warning) before its mm_out's autograd refusal
         ["x = torch.tensor([1.5, 3.0, -0.5], requires_grad=True)", "y = torch.tensor([1.25, -2.0, 1.5])",
          "o1 = torch.zeros(0)", "o2 = torch.zeros(4)", "o3 = torch.zeros(0)"] +
         outcomes(["torch.linalg.multi_dot([x, y], out=o1)", "torch.linalg.multi_dot([x, torch.ones(3, 2)], out=o2)",
                   "torch.linalg.multi_dot([x, torch.ones(3, 2), torch.ones(2)], out=o3)",
                   "torch.linalg.multi_dot([x.detach(), y], out=torch.zeros(2, dtype=torch.float64))"]) +
         ["s = (o1.shape, o2.shape, o3.shape)"],
         ["out", "s"]),
]
