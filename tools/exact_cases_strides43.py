"""Regression cases of helper "strides43" (session 43): the strides of empty tensors.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes


CASES = [
    case("empty-strides-views",  # views of empty tensors keep PyTorch's stride arithmetic: a slice's step,
         # a transpose, expand's 0, unsqueeze's size times stride (0 before a dim of 0), diagonal's sum,
         # as_strided / empty_strided as given; view / reshape to another shape: contiguous over max(size, 1)
         ["x = torch.zeros(0, 3)", "y = torch.empty(3, 0, 4)", "z = torch.zeros(0, 4)[::2, ::2]",
          "e = torch.empty_strided((2, 0), (0, 5))",
          "strides = [t.stride() for t in (x, x[::2], x[:, ::2], x.t(), x.expand(2, 0, 3), x[None], x[:, None],"
          " x.unsqueeze(0), y.permute(2, 0, 1), y.transpose(0, 2)[::3], y[1:1], y[:, :, 1::2], y.select(2, 1),"
          " y.narrow(2, 1, 2), y.diagonal(0, 0, 2), y.unfold(2, 2, 1), y.view(0, 6), y.reshape(4, 0, 3),"
          " y.movedim(0, -1), y.mT, z, z.t(), z.flatten(), e, e.t(), x.as_strided((0, 2), (7, 3)),"
          " torch.arange(6.).reshape(2, 3).t()[:, :0], torch.zeros(2, 3).expand(4, 2, 3)[:, :0])]"],
         ["strides"]),
    case("empty-strides-results",  # results made like an empty tensor keep its very strides (every empty
         # tensor is dense): clone, empty_like, zeros_like, contiguous (itself), a cast, flip, roll, sort;
         # TensorIterator's output follows its order of the dims (products of the sizes, 0 too), contiguous
         # from its fast set-up; channels-last strides are products of the sizes too
         ["x = torch.zeros(2, 3).t()[:, :0]", "y = torch.empty(3, 0, 4).transpose(0, 2)",
          "c = torch.zeros(2, 2, 0, 3).contiguous(memory_format=torch.channels_last)",
          "strides = [t.stride() for t in (x.clone(), torch.empty_like(x), torch.zeros_like(y), y.contiguous(),"
          " y.double(), y.flip(0), y.roll(1, 0), y.sort(0)[0], x + 1, y * 2, y + y, y.exp(), x >= 0,"
          " torch.where(x > 0, x, 0.), c, c + 1, c.clone(), torch.zeros(0, 2).t() + 1)]",
          "flags = [(t.is_contiguous(), t.is_contiguous(memory_format=torch.channels_last)) for t in"
          " (torch.zeros(0, 1, 3, 1), torch.zeros(3, 0)[:, None, :, None], c, y)]"],
         ["strides", "flags"]),
    case("empty-strides-identity",  # data_ptr is 0 for every empty tensor; is_set_to compares the strides
         ["x1 = torch.zeros(0, dtype=torch.float64).requires_grad_()", "a = torch.arange(6.)",
          "x = torch.zeros(0, 3)",
          "r = [x1[::2].is_set_to(x1), x1[:].is_set_to(x1), x.is_set_to(x.t().t()), x.is_set_to(x[::2]),"
          " a[2:2].data_ptr(), x.data_ptr(), x.t().data_ptr()]"],
         ["r"]),
    case("empty-strides-gradients",  # the gradients of empty leaves: expand's 0 kept through roll (a clone
         # that keeps the layout), a transpose's turned back, clamp's mask laid out like the input
         ["x = torch.empty(3, 0, 4).requires_grad_()", "w = torch.zeros(2, 3).t()[:, :0].requires_grad_()",
          "g1, = torch.autograd.grad(x.roll(1, 1).sum(), x)",
          "g2, = torch.autograd.grad((x.transpose(0, -1) * 2).sum(), x)",
          "g3, = torch.autograd.grad(w.clamp(0, 1).sum(), w)", "g4, = torch.autograd.grad(x.sum(), x)"],
         ["[g.stride() for g in (g1, g2, g3, g4)]"]),
    case("index-result-layout",  # x[tensor]: TensorIterator over the input restrided (stride 0 in the indexed
         # dims, one element too) and the indices viewed by reshape_indexer (computeStride's strides)
         ["x = torch.arange(6.).reshape(3, 1, 2).transpose(0, -1)", "y = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)",
          "strides = [t.stride() for t in (x[torch.tensor([0])], x[torch.tensor([0])] + 1, y[:, torch.tensor([1])],"
          " y[torch.tensor([[0], [1]]), :, torch.tensor([0, 2])], x[:, :, torch.tensor([0]).expand(3)])]"],
         ["strides"]),
    case("index-shape-mismatch-text",  # make_info's words, with the indices' shapes (a mask's as its nonzero's)
         ["x = torch.arange(24.).reshape(2, 3, 4)",
          *outcomes(["x[torch.tensor([0, 1]), torch.tensor([0, 1, 2])]",
                     "x[torch.tensor([[True, False, True], [False, False, True]]), torch.tensor([0, 1])]",
                     "x[True, torch.tensor([0, 1]), torch.tensor([0, 1, 2])]"])],
         ["out"]),
    case("empty-strides-pad-gradient",  # constant_pad_nd's narrow of an expanded gradient keeps its strides (0)
         ["x = torch.zeros(3, 0).requires_grad_()", "y = torch.nn.functional.pad(x.cumsum(1), (1, 0))",
          "g, = torch.autograd.grad(y.sum(), x)"],
         ["g.stride()"]),
    case("empty-strides-retained-grad-and-deg2rad",  # retain_grad's clone(MemoryFormat::Contiguous) of an empty
         # gradient (an expand's 0s) is contiguous; deg2rad/rad2deg write into empty_like(self): its strides
         ["x3 = torch.zeros(3, 1, 4, requires_grad=True)", "v4 = x3[:, 1:]", "v4.retain_grad()", "v4.sum().backward()",
          "b = torch.zeros(0)[::2]", "c = torch.zeros(0, 3)[:, ::2]"],
         ["v4.grad.stride()", "[b.deg2rad().stride(), b.rad2deg().stride(), c.deg2rad().stride(), (c * 2).stride()]"]),
    case("ldexp-float64-self-power-layout",  # _pow2 of a float64 self: full({}, 2.0).pow(other), laid out like other
         ["x1 = torch.tensor([-1.75, 1.25, -0.25], dtype=torch.float64)",
          "o = (torch.arange(9.) * 1.3 - 5.1).reshape(3, 3).t()", "r = x1.ldexp(o)", "h = x1.half().ldexp(o.half())"],
         ["r.stride()", "h.stride()", "r", "h", "x1.float().ldexp(o).stride()"]),
    case("empty-strides-mean-gradient",  # mean_backward's division of the expanded gradient: TensorIterator's strides
         ["x = torch.zeros(1, 0, 1).requires_grad_()", "u = x.mean(0).unflatten(-1, (1, 1)).expand(2, 0, 1, 1)",
          "g, = torch.autograd.grad(u.sum(), x)"],
         ["g.stride()"]),
    case("nonzero-empty-result-strides",  # nonzero's (n, ndim) result is column by column, (1, n): (1, 0) for none
         ["xs = [torch.tensor(0), torch.tensor(3), torch.zeros(3), torch.zeros(0, 2), torch.ones(2, 3)]"],
         ["[(torch.nonzero(x).stride(), torch.argwhere(x).stride()) for x in xs]",
          "torch.argwhere(torch.tensor(4) >> torch.tensor(4)).stride()"]),
    case("kron-out-resized-before-refusal",  # kron_out: resize_output(out) first, then mul_out refuses an input
         # that requires grad (out keeps its new shape and version); a resize warns for a non-empty out
         ["a = torch.tensor([1., 2.]); b = torch.tensor([2.5, -1.5, 0.75], requires_grad=True)",
          "o = torch.zeros(0)", "o2 = torch.zeros(2)",
          *outcomes(["torch.kron(a, b, out=o)", "torch.kron(a, b, out=o2)"])],
         ["out", "(o.shape, o._version, o2.shape, o2._version)"]),
]
