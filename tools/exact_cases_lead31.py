"""Regression cases of the lead's groups from run dt31a (seed 31000000, 20,000 programs on c34fb98).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations


_ERR = ("def err(f):\n    try:\n        return f()\n    except Exception as e:\n"
        "        return type(e).__name__ + ': ' + str(e).splitlines()[0]")


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": [_ERR, *code], "show": show}


CASES = [
    case("argument-checks-before-the-op",  # (raises-only-torch:broadcast_to, :flatten; warning:index_fill_)
         ["x = torch.tensor(-3)", "v = torch.tensor([False, True]).expand(2, 2)"],
         ["err(lambda: x.broadcast_to())", "err(lambda: torch.flatten(torch.tensor(2), start_dim=-1, end_dim=1))",
          "err(lambda: torch.flatten(torch.tensor(2), 1))", "torch.flatten(torch.tensor(2), -1, 0)",
          "err(lambda: v.index_fill_(torch.tensor([True])))", "err(lambda: torch.zeros(3).index_add_(0))"]),
    case("pool-kernel-names-by-dtype-and-layout",  # (raises-only-torch:max_pool1d, error-text:adaptive_max_pool1d)
         ["b = torch.zeros(2, 3, 4, 5, dtype=torch.bool)", "cl = b.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)"],
         ["err(lambda: torch.max_pool1d(torch.zeros(3, 3, dtype=torch.int32)[::2], 1))",
          "err(lambda: F.max_pool1d(torch.zeros(2, 3, dtype=torch.uint8), 1))",
          "F.max_pool1d(torch.arange(6).view(2, 3), 2, return_indices=True)",
          "err(lambda: F.adaptive_max_pool2d(cl, 3))", "err(lambda: F.max_pool2d(cl, 2))",
          "err(lambda: F.adaptive_max_pool1d(b[0].transpose(0, 1), 2))",
          "err(lambda: F.adaptive_max_pool2d(cl.int(), 3))"]),
    case("rsub-positional-alpha-takes-a-number",  # (grad_fn:rsub) the (input, Number other, Number alpha) overload
         ["x = torch.tensor([1.0, 2.0], requires_grad=True)"],
         ["torch.rsub(x, torch.tensor(2.0), 2)", "torch.rsub(x, torch.tensor(2.0), 2).grad_fn.next_functions",
          "torch.rsub(x.half(), torch.tensor(-1.5, dtype=torch.float64), -1.5)",
          "err(lambda: torch.rsub(x, torch.tensor(2.0, requires_grad=True), 2))",
          "err(lambda: torch.rsub(x, torch.tensor([2.0, 1.0]), 2))", "torch.rsub(x, torch.tensor(2.0), alpha=2)"]),
    case("expanded-write-keeps-signed-zeros",  # (repr:threshold_) a write through an expanded view: by bits
         ["x = torch.tensor([0.5, -1.25, -0.0], dtype=torch.float64)"],
         ["torch.threshold_(x.clone().expand(2, 3), 3.0, 0.0)", "torch.threshold_(x.clone().expand(2, 3), -3.0, 0.0)",
          "x.clone().expand(2, 3).fill_(0.0)", "torch.tensor([0.0, 1.0]).expand(2, 2).fill_(-0.0)"]),
    case("as-strided-backward-copies-a-gradient",  # (grad-repr:backward) a regenerated view's AsStridedBackward0
         ["x = torch.tensor([[0.25, 0.75], [2.0, -3.0], [1.5, 2.0]], requires_grad=True)", "v = x.t()",
          "with torch.no_grad():\n    v.transpose(0, -1).mul_(2)",
          "v.backward(gradient=torch.tensor([[-0.0, 0.75, -0.0], [-0.25, -2.5, 1.25]], dtype=torch.float64))"],
         ["v.grad_fn.name()", "x.grad"]),
    case("narrow-copy-own-checks",  # (error-text:narrow_copy) narrow_copy_dense_cpu_out's checks, not narrow's
         ["x = torch.ones(3, 2, 3)"],
         ["err(lambda: torch.narrow_copy(x, 2, 1, -1))", "err(lambda: torch.narrow_copy(x, 2, -1, 2))",
          "err(lambda: torch.narrow_copy(x, 3, 0, 1))", "err(lambda: torch.narrow_copy(x, -4, 0, 1))",
          "err(lambda: torch.narrow_copy(x, 2, 4, 0))", "torch.narrow_copy(x, 2, 3, 0).shape",
          "torch.narrow_copy(x, -1, -2, 2).shape", "err(lambda: torch.narrow_copy(torch.tensor(1.0), 0, 0, 1))"]),
    case("copysign-gradient-keeps-its-layout",  # (stride:grad) FunctionsManual's masked_fill_ in place
         ["x = torch.arange(24, dtype=torch.float64).view(3, 2, 4).sub(11).requires_grad_()",
          "o = torch.ones(3, 4, 2, dtype=torch.float64, requires_grad=True)",
          "g, = torch.autograd.grad(torch.copysign(x.mT, o).sum(), [x], create_graph=True)"],
         ["g.stride()", "g.grad_fn.next_functions[0][0].next_functions"]),
    case("float32-two-norm-as-the-kernel",  # (numeric:triplet_margin_loss) lanes, the 4-wide block, fma tail
         ["a = torch.tensor([0.5, -0.0])", "p = torch.tensor([-2.25, 1.5])", "n = torch.tensor([-2.75, -1.75])",
          "g = torch.Generator().manual_seed(7)",
          "r = [torch.randn(k, generator=g) * s for k in (2, 3, 4, 5, 7, 9, 12, 13, 21, 30) for s in (1.0, 100.0)]"],
         ["torch.triplet_margin_loss(a, p, n).item()", "F.pairwise_distance(a, p).item()",
          "[torch.linalg.vector_norm(t).item() for t in r]",
          "torch.linalg.vector_norm(torch.stack(r[4:6]), dim=-1).tolist()"]),
    case("memory-formats",  # (torch.channels_last & co: contiguous, is_contiguous, clone, to, *_like, empty)
         ["x = torch.arange(24.).view(1, 2, 3, 4).requires_grad_()", "cl = torch.channels_last",
          "y = x.contiguous(memory_format=cl)"],
         ["[torch.channels_last, torch.contiguous_format, torch.preserve_format, torch.channels_last_3d]",
          "(y.stride(), y.grad_fn.name(), y.is_contiguous(), y.is_contiguous(memory_format=cl))",
          "err(lambda: torch.ones(2, 3).contiguous(memory_format=cl))",
          "torch.ones(2, 3).is_contiguous(memory_format=cl)",
          "err(lambda: x.contiguous(memory_format=torch.channels_last_3d))",
          "err(lambda: x.contiguous(memory_format=3))",
          "(x.to(memory_format=cl).stride(), x.to(memory_format=cl).grad_fn.name())",
          "(x.to(memory_format=torch.contiguous_format) is x, y.to(memory_format=cl) is y)",
          "[x.clone(memory_format=cl).stride(), y.clone().stride(), y.clone(memory_format=torch.contiguous_format).stride()]",
          "[torch.empty_like(y).stride(), torch.zeros_like(x, memory_format=cl).stride(), "
          "torch.ones_like(y, memory_format=torch.contiguous_format).stride(), torch.full_like(x, 2, memory_format=cl).stride()]",
          "torch.empty(2, 3, 4, 5, memory_format=cl).stride()", "err(lambda: torch.empty(2, 3, memory_format=cl))",
          "torch.empty(2, 3, 4, 5, 6, memory_format=torch.channels_last_3d).stride()",
          "err(lambda: torch.empty(2, 3, 4, 5, memory_format=torch.preserve_format))",
          "[(y + 1).stride(), (y * x).stride(), y.double().stride(), y.to(torch.float64, memory_format=torch.contiguous_format).stride()]",
          "(torch.zeros(2, 1, 3, 1).contiguous(memory_format=cl).stride(), torch.zeros(2, 1, 3, 1).is_contiguous(memory_format=cl))",
          "(torch.manual_seed(0), torch.randn_like(x, memory_format=cl))[1]",
          "(torch.manual_seed(0), torch.rand_like(y))[1].stride()"]),
    case("module-to-memory-format",  # nn.Module.to(memory_format=): 4-D and 5-D tensors only
         ["torch.manual_seed(0)", "m = torch.nn.Conv2d(2, 3, 2).to(memory_format=torch.channels_last)",
          "y = torch.arange(24.).view(1, 2, 3, 4).contiguous(memory_format=torch.channels_last)"],
         ["(m.weight.stride(), m.bias.stride(), m(y).stride())", "m(y)"]),
    case("resize-memory-format",  # resize_(..., memory_format=): the storage restrided in that format
         ["x = torch.arange(24.)", "z = torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)"],
         ["x.clone().resize_(1, 2, 3, 4, memory_format=torch.channels_last).stride()",
          "x.clone().resize_(1, 2, 3, 4, memory_format=torch.channels_last).flatten()[:5]",
          "torch.arange(6.).resize_(1, 2, 3, 1, memory_format=torch.channels_last).stride()",
          "err(lambda: torch.zeros(3).resize_(2, 2, memory_format=torch.channels_last))",
          "err(lambda: torch.zeros(3).resize_(2, 2, memory_format=torch.preserve_format))",
          "torch.zeros(3).resize_(2, 2, memory_format=torch.contiguous_format).stride()",
          "(torch.zeros(1).resize_as_(z).stride(), torch.zeros(1).resize_as_(z, memory_format=torch.contiguous_format).stride())"]),
    case("end-run-keywords",  # (dt31b raises-only-agrad:*_window, :random_; warning:new_tensor)
         ["x = torch.zeros(3)", "import warnings"],
         ["(torch.manual_seed(0), x.random_(to=10))[1]", "(torch.manual_seed(0), x.random_(2, to=10))[1]",
          "torch.kaiser_window(3, periodic=True, beta=5.0)", "torch.hamming_window(4, periodic=False, alpha=0.5, beta=0.5)",
          "torch.bartlett_window(5, periodic=True, dtype=torch.float64)", "torch.blackman_window(2, periodic=True)",
          "torch.hann_window(4, periodic=False)", "x.new_tensor(x, dtype=torch.int64)"]),
]
