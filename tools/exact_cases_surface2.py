"""Regression cases of the torch.* surface issue 10 added (session 30, helper "torchsurf"):
finfo/iinfo, the global settings, torch.return_types, the top-level in-place forms and
fill/rsub/detach/is_complex/scalar_tensor/typename, ... (tools/exact_cases.py adds them).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``;
``graph`` is exact_cases.GRAPH.
"""

from __future__ import annotations


def case(case_id: str, code: list[str], show: list[str]) -> dict:
    return {"id": case_id, "code": code, "show": show}


def cases(graph: str) -> list[dict]:
    return [
        case("finfo-and-iinfo",  # numpy's limits; repr with C++'s default 6 digits; resolution 10**-digits10
             [],
             ["torch.finfo()", "torch.finfo(torch.float16)", "torch.finfo(torch.float64)", "str(torch.finfo(torch.half))",
              "[(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype) for f in "
              "(torch.finfo(torch.float32), torch.finfo(torch.float64), torch.finfo(type=torch.float16))]",
              "[torch.iinfo(d) for d in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)]",
              "[(i.bits, i.max, i.min, i.dtype) for i in (torch.iinfo(torch.int64), torch.iinfo(type=torch.uint8))]",
              "[torch.finfo(torch.float32) == torch.finfo(torch.float), torch.finfo() == torch.finfo(torch.float64), "
              "torch.iinfo(torch.int32) == torch.iinfo(torch.int32), torch.finfo() != torch.finfo()]",
              "torch.finfo(torch.int32)", "torch.finfo(torch.bool)", "torch.finfo('float')", "torch.finfo(None)",
              "torch.finfo(torch.float32, 1)", "torch.finfo(dtype=torch.float32)", "torch.iinfo(torch.bool)",
              "torch.iinfo(torch.float16)", "torch.iinfo()", "torch.iinfo('int')", "type(torch.finfo().eps)",
              "type(torch.iinfo(torch.int64).max)", "torch.finfo(torch.float64).eps * 2"]),
        case("global-settings",  # kept and read back; each check's text as PyTorch's
             ["n0 = torch.get_num_threads()", "torch.set_num_threads(3)", "torch.use_deterministic_algorithms(True, warn_only=True)",
              "torch.set_float32_matmul_precision('high')", "torch.set_warn_always(True)",
              "with torch.inference_mode():\n    inside = [torch.is_inference_mode_enabled(), torch.is_grad_enabled()]"],
             ["torch.get_num_threads()", "torch.set_num_threads(0)", "torch.set_num_threads(-1)", "torch.set_num_threads(1.5)",
              "torch.set_num_interop_threads(0)", "torch.set_num_interop_threads('a')",
              "[torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled(), "
              "torch.get_deterministic_debug_mode()]",
              "torch.use_deterministic_algorithms(1)", "torch.use_deterministic_algorithms()",
              "[torch.set_deterministic_debug_mode('error'), torch.get_deterministic_debug_mode(), "
              "torch.is_deterministic_algorithms_warn_only_enabled()]",
              "torch.set_deterministic_debug_mode('x')", "torch.set_deterministic_debug_mode(5)",
              "torch.set_deterministic_debug_mode(1.0)",
              "[torch.set_deterministic_debug_mode(0), torch.are_deterministic_algorithms_enabled()]",
              "torch.get_float32_matmul_precision()", "torch.set_float32_matmul_precision('bad')",
              "torch.get_float32_matmul_precision()", "torch.set_float32_matmul_precision(1)",
              "[torch.set_float32_matmul_precision('highest'), torch.get_float32_matmul_precision()]",
              "torch.is_warn_always_enabled()", "torch.set_warn_always(1)",
              "[torch.set_warn_always(False), torch.is_warn_always_enabled()]",
              "torch.is_inference_mode_enabled()", "inside",
              "[torch.set_num_threads(n0), torch.get_num_threads() == n0]"]),
        case("return-types-module",  # the classes the ops return; made from a sequence too
             ["x = torch.tensor([[1.5, -2.0, 0.5], [3.0, 0.5, 0.5]])"],
             ["isinstance(x.max(0), torch.return_types.max)", "isinstance(torch.sort(x), torch.return_types.sort)",
              "[isinstance(x.min(1), torch.return_types.min), isinstance(x.max(0), torch.return_types.min)]",
              "[isinstance(x.median(0), torch.return_types.median), isinstance(torch.topk(x, 1), torch.return_types.topk)]",
              "[isinstance(x.kthvalue(1), torch.return_types.kthvalue), isinstance(x.mode(), torch.return_types.mode)]",
              "[isinstance(x.cummax(0), torch.return_types.cummax), isinstance(torch.aminmax(x), torch.return_types.aminmax)]",
              "[isinstance(torch.frexp(x), torch.return_types.frexp), isinstance(torch.linalg.slogdet(x[:, :2]), "
              "torch.return_types.linalg_slogdet)]",
              "torch.return_types.max([x[0], x[1].long()])", "torch.return_types.sort((x[0], x[1]))",
              "torch.return_types.max", "torch.return_types.linalg_qr", "torch.return_types.max([x[0], x[1]]).indices",
              "type(x.max(0)) is torch.return_types.max"]),
        case("inplace-forms-at-top-level",  # torch.X_(input, ...) is input.X_(...)
             ["x = torch.tensor([[1.5, -2.0], [3.0, 0.25]])", "w = torch.tensor([[1.5, -2.0], [3.0, 0.25]], requires_grad=True)"],
             ["[torch.abs_(y := x.clone()), y]", "torch.abs_(x.clone()) is not None", "torch.exp_(x.clone())",
              "torch.sin_(x.clone())", "torch.sqrt_(x.clone())", "torch.clamp_(x.clone(), min=0)", "torch.clamp_(x.clone(), -1, 1)",
              "torch.clip_(x.clone(), max=1)", "torch.clamp_min_(x.clone(), 0.5)", "torch.clamp_max_(x.clone(), 0.5)",
              "torch.fill_(x.clone(), 2)", "torch.fill_(x.clone(), torch.tensor(3.0))", "torch.fill_(x.clone(), x)",
              "torch.zero_(x.clone())", "torch.detach_(x.clone())", "torch.xlogy_(x.clone(), 2)",
              "torch.nan_to_num_(torch.tensor([float('nan'), float('inf')]))", "torch.round_(x.clone())",
              "torch.logit_(x.clone().sigmoid())", "torch.ldexp_(x.clone(), torch.tensor([1, 2]))", "torch.relu_(x.clone())",
              "torch.addmv_(torch.zeros(2), x, torch.ones(2))", "torch.sigmoid_(w)", "torch.tanh_(w * 1)",
              "torch.abs_(w * 1).grad_fn", "graph(torch.exp_(w * 1).grad_fn)", "torch.abs_(1)", "torch.abs_(x, 2)",
              "torch.abs_()", "torch.abs_(input=x.clone())", "torch.clamp_(1)", "torch.zero_(x.clone(), 1)",
              "torch.fill_(x.clone())", "torch.conj_physical_(x.clone())", "torch.square_(x.long())",
              "torch.reciprocal_(x.clone())", "torch.neg_(x.clone().bool())"]),
        case("fill-rsub-detach-scalar-tensor-typename",  # FillBackward0/1, RsubBackward0/1 (alpha)
             ["x = torch.tensor([1.0, -2.0], requires_grad=True)", "v = torch.tensor(3.0, requires_grad=True)",
              "t = torch.ones(2, 3).t()"],
             ["torch.fill(x, 2)", "torch.fill(x, v)", "graph(torch.fill(x, v).grad_fn)", "torch.fill(x.detach(), v)",
              "torch.fill(x, 2.5).dtype", "torch.fill(x.detach().long(), 2.5)", "torch.fill(x, torch.ones(2))", "torch.fill(x)",
              "torch.fill(t, 1).stride()", "torch.autograd.grad(torch.fill(x, v).sum(), [x, v], allow_unused=True)",
              "torch.autograd.grad(torch.fill(x, 2).sum(), x)",
              "torch.rsub(x, 2)", "torch.rsub(x, v)", "torch.rsub(x, v, alpha=3)", "torch.rsub(x.detach().long(), 2.5)",
              "torch.rsub(x, 2, 3)", "torch.rsub(x.detach().bool(), True)", "torch.rsub(2, x)", "torch.rsub(t, 1).stride()",
              "torch.rsub(x.detach().long(), 2, alpha=1.5)", "torch.rsub(x, torch.ones(3, 1))",
              "torch.autograd.grad(torch.rsub(x, v, alpha=2).sum(), [x, v])",
              "torch.autograd.grad(torch.rsub(x, 1.5, alpha=-2).sum(), [x])",
              "graph(torch.autograd.grad(torch.rsub(x, v, alpha=2).sum(), x, create_graph=True)[0].grad_fn)",
              "torch.detach(x)", "torch.detach(x).requires_grad", "torch.detach(x)._version", "torch.is_complex(x)",
              "torch.is_complex(input=x)", "torch.is_complex(1)", "torch.scalar_tensor(3)", "torch.scalar_tensor(3, dtype=torch.int64)",
              "torch.scalar_tensor(True)", "torch.scalar_tensor(2.5, dtype=torch.float64, device='cpu')",
              "torch.scalar_tensor(2, requires_grad=True)", "torch.scalar_tensor(x)", "torch.scalar_tensor()",
              "torch.scalar_tensor(2, torch.int64)", "torch.typename(x)", "torch.typename(x.long())", "torch.typename(x.bool())",
              "torch.typename(x.double())", "torch.typename(x.half())", "torch.typename(x.int())", "torch.typename(x.byte())",
              "torch.typename(1)", "torch.typename('a')", "torch.typename(None)", "torch.typename(torch.float32)",
              "torch.typename(torch.nn.Linear(1, 1))", "torch.typename(torch.nn.Parameter(x.detach()))"]),
        case("window-functions",  # ATen's steps (float16: Scalars rounded to half; kaiser: 1 - x*x fused)
             [],
             ["torch.hann_window(8)", "torch.hann_window(7, False, dtype=torch.float64)", "torch.hann_window(0)",
              "torch.hann_window(1)", "torch.hann_window(5, dtype=torch.float16)", "torch.hamming_window(6, dtype=torch.float16)",
              "torch.hamming_window(5, False, 0.6, 0.3, dtype=torch.float64)", "torch.hamming_window(9, True, 0.6)",
              "torch.blackman_window(8, dtype=torch.float64)", "torch.blackman_window(12, dtype=torch.float16)",
              "torch.bartlett_window(9)", "torch.bartlett_window(5, True, dtype=torch.float16)",
              "torch.bartlett_window(30, False).tolist()", "torch.kaiser_window(6)", "torch.kaiser_window(40, False, 3.0).tolist()",
              "torch.kaiser_window(33, True, 8.5, dtype=torch.float64).tolist()", "torch.kaiser_window(17, dtype=torch.float16)",
              "torch.kaiser_window(5, True, -1.0)", "torch.hann_window(4, requires_grad=True)", "torch.hann_window(4, dtype=torch.int64)",
              "torch.hann_window(3, dtype=torch.int8, layout=torch.strided)", "torch.hann_window(-1)",
              "torch.kaiser_window(-2, dtype=torch.float16)", "torch.blackman_window(2, dtype=torch.bool)", "torch.hann_window(1.5)",
              "torch.hann_window(True)", "torch.kaiser_window(3, beta=2.0)", "torch.hamming_window(3, alpha=0.5)",
              "torch.hann_window(3, True, torch.float64)", "torch.bartlett_window(1, dtype=torch.float64)",
              "torch.hann_window(1000, dtype=torch.float16).sum()", "torch.bartlett_window(1000, dtype=torch.float64).sum()"]),
        case("view-copies",  # the view's values in C order; node <view node>_copy, the view's formula
             ["x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()", "w = torch.arange(24.0).reshape(2, 3, 4)"],
             ["torch.view_copy(x, (6, 4))", "torch.view_copy(x.transpose(0, 1), (6, 4)).stride()",
              "torch.permute_copy(x, (2, 0, 1)).stride()", "graph(torch.transpose_copy(x, 0, 2).grad_fn)",
              "torch.t_copy(x[0])", "torch.unsqueeze_copy(x, 1).stride()", "torch.squeeze_copy(x[:, :1]).grad_fn",
              "torch.squeeze_copy(x[:, :1], 1).grad_fn", "torch.squeeze_copy(x[:, :1], (0, 1)).grad_fn",
              "torch.select_copy(x, 1, 2)", "torch.slice_copy(x, 2, 1, 3).stride()", "torch.slice_copy(x, 0, None, None, 2).shape",
              "torch.diagonal_copy(x, 1, 1, 2)", "torch.expand_copy(x[:, :1], (2, 5, 4)).stride()", "torch.alias_copy(x).grad_fn",
              "torch.split_copy(x, 2, 2)", "torch.split_with_sizes_copy(x, [1, 3], 2)[1].stride()", "torch.unbind_copy(x, 1)[2]",
              "torch.unfold_copy(x, 2, 2, 1).stride()", "torch.narrow_copy(x, 2, 1, 2)", "torch.detach_copy(x)",
              "torch.autograd.grad((torch.permute_copy(x, (2, 0, 1)) * w.permute(2, 0, 1)).sum(), x)",
              "torch.autograd.grad(torch.split_copy(x, 3, 2)[1].sum(), x)", "torch.autograd.grad(torch.unbind_copy(x)[0].sum(), x)",
              "torch.autograd.grad(torch.expand_copy(x[:, :1], (2, 5, 4)).sum(), x)",
              "torch.autograd.grad(torch.narrow_copy(x, 2, 1, 2).sum(), x)", "torch.detach_copy(x).sum().backward()",
              "torch.permute_copy(x.detach(), (1, 0, 2)).is_contiguous()", "torch.view_copy(x, -1)", "torch.expand_copy(x[:, :1], 2, 5, 4)",
              "torch.permute_copy(x, 2, 0, 1)", "torch.split_copy(x, [1, 3], 2)", "torch.t_copy(x)", "torch.select_copy(x, 0, 5)",
              "torch.unsqueeze_copy(x, 5)", "torch.expand_copy(torch.ones(3, 1).t(), (2, 3)).stride()",
              "torch.t_copy(x[0].detach(), out=torch.empty(4, 3))", "torch.t_copy(x[0].detach(), out=torch.empty(4, 3, dtype=torch.int64))"]),
    ]
