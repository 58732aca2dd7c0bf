"""Regression cases of helper "strides42" (session 42): dims of one element that PyTorch strides 0.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes


CASES = [
    case("size1-stride0-producers",  # a 0-d tensor expanded, a size-1 slice of an expanded dim, as_strided's
         # and empty_strided's 0, a sum's gradient: stride 0 in the dim of one element, kept through
         # permute / unsqueeze / view / clone, and read by view(dtype)'s stride check
         ["x = torch.tensor(1.)", "z = torch.arange(4.).expand(3, 4)",
          "w = torch.ones(1, 3, 1, requires_grad=True)", "g, = torch.autograd.grad(w.sum(), w)",
          "a = torch.arange(8.).as_strided((1, 1, 2), (0, 0, 1))",
          "e = torch.empty_strided((2, 1), (1, 0))",
          "strides = [t.stride() for t in (x.expand(2, 3, 1), x.expand(1), z[1:2], z[1:2].t(), z[1:2].unsqueeze(2),"
          " z[1:2].view(1, 2, 2), z[1:2].clone(), x.expand(3, 1).t(), x.expand(3, 1).permute(1, 0).unsqueeze(0),"
          " g, g.permute(2, 1, 0), a, a.permute(2, 0, 1), e, e.t(), z.narrow(0, 1, 1), z[1:2].unfold(0, 1, 1),"
          " x.expand(2, 3).reshape(1, 1, 6)[0], z.unsqueeze(0).diagonal(0, 0, 1), z.split(1)[1], z.chunk(3)[2],"
          " torch.tensor_split(z, 3)[0], z.split([2, 1])[1])]",
          *outcomes(["z[1:2].view(torch.float16).stride()", "x.expand(2, 1).view(torch.int8).stride()",
                     "a.view(torch.float64).stride()", "g.view(torch.int16)"])],
         ["strides", "out"]),
    case("size1-stride0-layouts",  # those strides in TensorIterator's sort of a result's dims and in clone
         ["a = torch.tensor([[1], [2], [3], [4]], dtype=torch.int32)",
          "b = torch.tensor([1.5, 2.5]).reshape(2, 1, 1).expand(2, 3, 1)[:, :1].permute(1, 2, 0)", "r = a % b",
          "c = torch.tensor(2.).expand(1, 1)", "s = c + c", "u = c.clone()", "v = torch.empty_like(c)",
          "k = torch.kron(torch.tensor([[1.0, 2.0]]), torch.tensor([[1, 3]], dtype=torch.int32).t().expand(2, 2, 1))"],
         ["b.stride()", "r.stride()", "s.stride()", "u.stride()", "v.stride()", "k.stride()", "r"]),
    case("size1-stride0-setitem",  # copy_'s early exit for the very same elements laid out alike (PyTorch's
         # strides 0 on both sides), and its overlap refusal where only one side has them
         ["x1 = torch.tensor([2.25], requires_grad=True)",
          "q9 = torch.autograd.grad(x1.sum(), [x1], create_graph=True)[0]",
          "b = torch.tensor([-3])", "vb = b.expand(2, 1, 2)", "b2 = torch.tensor([[4]])", "vb2 = b2.expand(2, 1)[:1]",
          *outcomes(["q9.__setitem__(None, q9)",
                     "vb.__setitem__((Ellipsis, 0), b.reshape(-1)[:1])",
                     "vb2.__setitem__((slice(None), slice(None)), b2[:1])"]),
          "x = torch.tensor(4.)", "v = x.expand(1, 1)", "v[:] = x.reshape(1, 1)[0]",
          "p = torch.tensor(4.)", "t = p.expand(2, 1)[:1]", "t[...] = p.reshape(1)"],
         ["out", "v", "t", "q9.stride()", "vb", "vb2"]),
    case("resized-output-checked-against-its-node",  # a tensor resized by out= (or .data =, set_) after its node
         # recorded it: the engine checks each gradient against the node's record (validate_outputs), the
         # consumer's name and the output's index in the text, before the producer reads its saved tensors
         ["import warnings", "warnings.simplefilter('ignore')",
          "x = torch.ones(3, 3, requires_grad=True)", "y = x.exp()",
          "with torch.no_grad():\n    torch.sum(torch.ones(2, 2), (0, 1), out=y)", "s = y.sum()",
          "y2 = x * 2", "w2 = y2 * 1", "with torch.no_grad():\n    torch.add(torch.ones(3), 1, out=y2)",
          "y3 = x * 2", "with torch.no_grad():\n    torch.add(torch.ones(2, 2), 1, out=y3)",
          "y4 = x * 2", "y4.data = torch.ones(2)",
          "y5 = x * 2", "with torch.no_grad():\n    y5.set_(torch.ones(2))",
          "x6 = torch.ones(3, requires_grad=True)", "y6 = x6 * 2",
          "with torch.no_grad():\n    torch.add(torch.ones(2, 3), 1, out=y6)",
          *outcomes(["s.backward()", "(y2.sum() + w2.sum()).backward()", "(y2.sum() + y2[0].sum()).backward()",
                     "y2.exp().sum().backward()", "torch.autograd.grad(y3, x, torch.ones(2, 2))",
                     "torch.autograd.grad([x * 3, y3], x, [torch.ones(3, 3), torch.ones(2, 2)])",
                     "y4.sum().backward()", "y5.sum().backward()", "(y6 * 3).sum().backward()",
                     "y6.backward(torch.ones(2, 3))"])],
         ["out", "x.grad", "x6.grad"]),
    case("grad-results-are-no-grad-views",  # torch.autograd.grad without create_graph hands out the tensor the last
         # formula made: a view made in no_grad mode where that formula makes one (sum's expand, a view's reshape,
         # transpose, unsqueeze, a sum_to dropping leading dims), so an in-place op on it with an operand that
         # requires grad is refused; not where the formula makes a new tensor (mean, mul, a slice's)
         ["x = torch.ones(2, 3, requires_grad=True)", "w = torch.ones(2, 3, requires_grad=True)",
          "v = torch.ones(6)", "x1 = torch.ones(3, requires_grad=True)", "y1 = torch.ones(2, 3)",
          "gs = [torch.autograd.grad(f(), x)[0] for f in (lambda: x.sum(), lambda: x.view(6).sum(), lambda: x.mean(),"
          " lambda: x.t().exp().sum(), lambda: (x * 2).sum(), lambda: x.unsqueeze(0).sum(), lambda: x[0].sum(),"
          " lambda: x.sum(1, keepdim=True).sum(), lambda: x.expand(2, 2, 3).sum(), lambda: (x.t() + 1).sum())]",
          "bases = [None if g._base is None else (tuple(g._base.shape), g._base.tolist()) for g in gs]",
          *outcomes(["[g.mul_(w) is g for g in gs[:1]]", "gs[2].mul_(w).grad_fn.name()", "gs[3].mul_(w)",
                     "gs[4].add_(w).grad_fn.name()"]),
          "out1 = out",
          "g5, = torch.autograd.grad(x.view(6), x, v)", "g6, = torch.autograd.grad((x1 * y1).sum(), x1)",
          *outcomes(["g5._base is v", "g6._base.shape", "g6.mul_(x1)", "g6.mul_(2)", "g5.stride()"])],
         ["bases", "out1", "out", "[g.stride() for g in gs]"]),
    case("resized-leaf-takes-its-gradient-in-its-new-shape",  # a leaf resized after use (.data =, out=): AccumulateGrad
         # copies the first gradient into the leaf's new layout (copy_'s broadcast or its size error), adds a later one
         ["import warnings", "warnings.simplefilter('ignore')",
          "x1 = torch.ones(3, 3, requires_grad=True)", "y1 = x1 * 2", "x1.data = torch.ones(2)",
          "x2 = torch.ones(3, requires_grad=True)", "y2 = x2 * 2", "x2.data = torch.ones(2, 3)",
          "x3 = torch.ones(3, 3, requires_grad=True)", "y3 = x3 * 2",
          "with torch.no_grad():\n    torch.add(torch.ones(2, 2), 1, out=x3)",
          "x4 = torch.ones(3, requires_grad=True)", "y4 = x4 * 2", "z4 = x4 * 3", "x4.data = torch.ones(2, 3)",
          "x4.grad = torch.zeros(2, 3)",
          *outcomes(["y1.sum().backward()", "y2.sum().backward()", "y3.sum().backward()", "z4.sum().backward()",
                     "torch.autograd.grad(y2.sum(), x2)"])],
         ["out", "x1.grad", "x2.grad", "x4.grad"]),
    case("copy-slices-value-gradient-is-a-clone",  # (value:backward, own run 41709000) x[0] = v: CopySlices hands
         # copy_'s backward a clone of the gradient's slice, so a leaf v takes no view of the caller's gradient=, and
         # a later accumulation into v.grad leaves that gradient alone
         ["x3 = torch.tensor(-0.75, requires_grad=True)", "x6 = torch.tensor([0.75, 0.0, 1.0], requires_grad=True)",
          "r7 = x6 * 1", "r7[0] = x3", "g8 = torch.tensor([-2.5, 0.0, 2.25])", "r7.backward(gradient=g8)",
          "base = x3.grad._base", "(x3 + 1).backward()",
          "x9 = torch.tensor([1.0, 2.0], requires_grad=True)", "r9 = torch.zeros(3, 2) * 1", "r9[1] = x9",
          "g9 = torch.ones(3, 2)", "r9.backward(g9)", "x9.grad.add_(1)"],
         ["g8", "x3.grad", "base", "g9", "x9.grad"]),
    case("normal-std-nan-refused",  # (raises-only-torch:normal, own run 41712000) ATen checks std.min() >= 0: the
         # min of a std holding a NaN is NaN, refused; an inf or -0.0 passes
         ["torch.manual_seed(0)",
          *outcomes(["torch.normal(torch.zeros(2, dtype=torch.float64), torch.tensor([float('nan'), 1.0], dtype=torch.float64))",
                     "torch.normal(0.0, torch.tensor([float('nan')])).shape",
                     "torch.normal(torch.zeros(2), torch.tensor([1.0, float('inf')])).shape",
                     "torch.normal(torch.zeros(2), torch.tensor([-0.0, 1.0])).shape"])],
         ["out"]),
]
