"""Regression cases of helper "alias42" (session 42, issue 10): ``out=`` that is one of the op's own inputs.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("out-alias-reductions-identity",  # (value:sum/amin/amax/prod/nanmean, dt41c, probe_out_alias) the
         # reduction's out is its input: the kernel fills out with the identity, then reads its own element
         ["x1 = torch.tensor([[-1.5], [2.0], [0.5]])", "torch.sum(x1, 1, keepdim=True, out=x1)",
          "x2 = torch.tensor(-0.5)", "torch.amin(x2, out=x2)",
          "x3 = torch.tensor([[3], [-2]])", "torch.amax(x3, keepdim=True, dim=1, out=x3)",
          "x4 = torch.tensor([[3], [-2]], dtype=torch.int32)", "torch.amin(x4, 1, True, out=x4)",
          "x5 = torch.tensor([[3], [-2]])", "torch.amin(x5, 1, True, out=x5)",
          "x6 = torch.tensor([-3])", "torch.prod(x6, 0, True, out=x6)",
          "x7 = torch.tensor([[float('nan')], [2.0]])", "torch.nanmean(x7, 1, True, out=x7)",
          "x8 = torch.tensor([[float('nan')], [2.0]], dtype=torch.float64)", "torch.nansum(x8, 1, True, out=x8)",
          "x9 = torch.tensor([[1.0, 2.0], [3.0, 4.0]])", "torch.mean(x9, (0, 1), True, out=x9)",
          "x10 = torch.tensor([[True], [False]])", "torch.amax(x10, 1, True, out=x10)",
          "x11 = torch.tensor([[True], [False]])", "torch.any(x11, -1, True, out=x11)",
          "x12 = torch.tensor([[1], [0]], dtype=torch.uint8)", "torch.all(x12, 1, True, out=x12)",
          "x13 = torch.tensor(True)", "torch.any(x13, out=x13)"],
         ["x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13"]),
    case("out-alias-reductions-resized",  # the input resized to the result's shape with out (one tensor)
         ["x1 = torch.arange(12.).reshape(3, 4)", "torch.sum(x1, 1, keepdim=True, out=x1)",
          "x2 = torch.arange(12).reshape(3, 4)", "torch.amin(x2, 1, keepdim=True, out=x2)",
          "x3 = torch.arange(12.).reshape(3, 4)", "torch.amax(x3, 0, out=x3)"],
         ["x1", "x2", "x3"]),
    case("out-alias-avg-pool",  # (value:avg_pool2d/avg_pool3d, dt41e) each output zeroed, then its window read
         ["x1 = torch.tensor([[[0.0]], [[2.5]]], dtype=torch.float64)", "F.avg_pool2d(x1, 1, 1, out=x1)",
          "x2 = torch.arange(12.).reshape(3, 2, 2) - 5", "F.avg_pool2d(x2, 1, out=x2)",
          "x3 = torch.arange(24.).reshape(1, 2, 3, 4) - 5", "x3 = x3.contiguous(memory_format=torch.channels_last)",
          "F.avg_pool2d(x3, 1, divisor_override=2, out=x3)",
          "x4 = torch.arange(54.).reshape(1, 2, 3, 3, 3) - 5", "F.avg_pool3d(x4, 3, 1, 1, out=x4)",
          "x6 = torch.zeros(1, 1, 2, 2, 2)", "F.avg_pool3d(x6, 3, 1, 1, out=x6)",
          "x5 = torch.arange(24).reshape(2, 3, 4) - 5", "F.avg_pool2d(x5, 1, out=x5)"],
         ["x1", "x2", "x3", "x4", "x5", "x6"]),
    case("avg-pool3d-strided-out-packed",  # (value:avg_pool3d, dt41e/dt41c) avg_pool3d writes from out's data
         # pointer on in C order whatever its strides
         ["x1 = torch.arange(40.).reshape(1, 1, 4, 5, 2)", "b1 = torch.zeros(1, 1, 2, 3, 2)",
          "F.avg_pool3d(x1, 2, ceil_mode=True, out=b1.view(1, 1, 2, 1, 6)[..., ::2].mT)",
          "x2 = torch.arange(240.).reshape(1, 2, 4, 5, 6) % 7", "b2 = torch.zeros(1, 2, 2, 3, 6)",
          "F.avg_pool3d(x2, 2, ceil_mode=True, out=b2[..., 1::2])",
          "x3 = torch.arange(240.).reshape(1, 2, 3, 5, 8).transpose(-1, -2) % 7",
          "F.avg_pool3d(x3, 3, 1, padding=1, out=x3)"],
         ["b1", "b2", "x3"]),
    case("out-alias-normal",  # (value:normal) out drawn into, then mul_(std).add_(mean): a mean or std that
         # is out reads the draws
         ["torch.manual_seed(3)", "m1 = torch.arange(6.).reshape(2, 3)", "torch.normal(m1, 1.5, out=m1)",
          "m2 = torch.arange(6.).reshape(2, 3)", "torch.normal(m2, m2.abs() + 1, out=m2)",
          "s3 = torch.arange(6.).reshape(2, 3)", "torch.normal(2.0, s3, out=s3)",
          "s4 = torch.arange(6.).reshape(2, 3)", "torch.normal(s4, s4, out=s4)"],
         ["m1", "m2", "s3", "s4"]),
    case("out-alias-kron-full-overlap",  # (raises-only-agrad:kron) an operand that is out, of the result's
         # shape, is a full overlap: mul_out allows it
         ["x1 = torch.arange(6).reshape(2, 3)", "torch.kron(x1, torch.tensor(-3), out=x1)",
          "x2 = torch.arange(6.).reshape(3, 2).T", "torch.kron(torch.tensor([[2.]]), x2, out=x2)"],
         ["x1", "x2"]),
    case("out-alias-matrix-products",  # (value:mm/matmul/bmm/baddbmm/multi_dot/matrix_power) BLAS's zeroed
         # out read back as an operand; ATen's own bmm loop reading what it wrote
         ["a1 = torch.tensor([[1., 2.], [3., float('inf')]])", "torch.mm(a1, torch.ones(2, 2), out=a1)",
          "a2 = torch.tensor([[1., -2.], [3., 0.5]], dtype=torch.float64)", "v2 = torch.tensor([0.5, -1.5], dtype=torch.float64)",
          "torch.mv(a2, v2, out=v2)",
          "a3 = torch.tensor([[1., -2.], [3., 0.5]])", "torch.matmul(torch.ones(2, 2), a3, out=a3)",
          "A4 = torch.arange(8.).reshape(2, 2, 2) - 3", "B4 = torch.arange(8.).reshape(2, 2, 2) % 3 - 1",
          "torch.bmm(A4, B4, out=A4)",
          "A5 = torch.arange(18.).reshape(2, 3, 3) - 7", "B5 = torch.arange(18.).reshape(2, 3, 3) % 4 - 1",
          "S5 = torch.arange(18.).reshape(2, 3, 3) % 5 - 2", "torch.baddbmm(S5, A5, B5, beta=0.5, alpha=2, out=B5)",
          "A6 = torch.arange(8).reshape(2, 2, 2) - 3", "B6 = torch.arange(8).reshape(2, 2, 2) % 3 - 1",
          "torch.baddbmm(B6, A6, B6, beta=0, out=A6)",
          "a7 = torch.tensor([[1., 2.], [3., 4.]])", "torch.linalg.multi_dot([a7, torch.ones(2, 2)], out=a7)",
          "a8 = torch.tensor([[1., 2.], [3., 4.]])", "torch.matrix_power(a8, 3, out=a8)",
          "a9 = torch.tensor([[1., 2.], [3., 4.]])", "torch.matrix_power(a9, 5, out=a9)",
          "a10 = torch.tensor([[1., 2.], [3., 4.]])", "torch.matrix_power(a10, 4, out=a10)"],
         ["a1", "v2", "a3", "A4", "B5", "A6", "a7", "a8", "a9", "a10"]),
    case("out-internal-overlap-iterator",  # (raises-only-torch:logit, dt42a) TensorIterator's check of an out
         # whose elements share memory (an expanded input as out), before its dtype checks; the cumulative
         # kernels' after out's resize (an out of another shape is a new one); logcumsumexp's dtype check first
         ["x1 = torch.tensor([0.25, 0.5, 0.75]).expand(2, 3)",
          "try:\n    torch.logit(x1, eps=0.1, out=x1)\nexcept RuntimeError as e:\n    e1 = str(e)[:50]",
          "o2 = torch.zeros(1, dtype=torch.int64).expand(2, 3)",
          "try:\n    torch.angle(torch.rand(2, 3), out=o2)\nexcept RuntimeError as e:\n    e2 = str(e)[:50]",
          "try:\n    torch.bitwise_not(torch.rand(2, 3), out=torch.zeros(3).expand(2, 3))\nexcept RuntimeError as e:\n    e3 = str(e)[:50]",
          "try:\n    torch.logical_xor(torch.rand(2, 3), torch.rand(3), out=torch.zeros(3).expand(2, 3))\nexcept RuntimeError as e:\n    e4 = str(e)[:50]",
          "try:\n    torch.cumsum(torch.ones(2, 3), 0, out=torch.zeros(3, dtype=torch.int64).expand(2, 3))\nexcept RuntimeError as e:\n    e5 = str(e)[:50]",
          "o6 = torch.zeros(3).expand(3, 3)", "torch.cumprod(torch.ones(2, 3) * 2, 0, out=o6)",
          "try:\n    torch.logcumsumexp(torch.ones(2, 3), 0, out=torch.zeros(3, dtype=torch.float64).expand(2, 3))\nexcept RuntimeError as e:\n    e7 = str(e)[:50]",
          "try:\n    torch.nan_to_num(torch.rand(2, 3), out=torch.zeros(3).expand(2, 3))\nexcept RuntimeError as e:\n    e8 = str(e)[:50]"],
         ["e1", "e2", "e3", "e4", "e5", "o6", "e7", "e8"]),
    case("kthvalue-values-unsqueezed-before-indices-refused",  # (shape:kthvalue, dt41e) the values out is
         # unsqueezed and resized to the kept shape before the indices' dtype is refused: it stays so
         ["x1 = torch.tensor([-0.25]).expand(2, 1)", "o1 = torch.tensor([-0.75, -2.75])",
          "i1 = torch.tensor([2.5, 2.25], dtype=torch.float16)",
          "try:\n    torch.kthvalue(x1, 1, out=(o1, i1))\nexcept RuntimeError as e:\n    e1 = str(e)",
          "o2 = torch.zeros(6)[::3]", "i2 = torch.tensor([2, 2], dtype=torch.int32)",
          "try:\n    torch.kthvalue(torch.rand(2, 3), 1, out=(o2, i2))\nexcept RuntimeError as e:\n    e2 = str(e)",
          "s2 = o2.stride()", "o3 = torch.zeros(5)",
          "try:\n    torch.kthvalue(torch.rand(2, 3), 1, out=(o3, i2))\nexcept RuntimeError as e:\n    e3 = str(e)"],
         ["o1.shape", "e1", "o2.shape", "s2", "e2", "o3.shape", "e3"]),
    case("sort-one-tensor-for-both-outs",  # (value:sort, dt41d) values copied in, indices filled over them,
         # the pairs sorted in place: the sorted positions
         ["x1 = torch.tensor([[1, 2, -3], [2, -3, 3], [3, -1, -2]])", "v1 = x1.mT", "r1 = torch.sort(v1, out=(v1, v1))",
          "x2 = torch.tensor([[1, 2, -3], [2, -3, 3], [3, -1, -2], [0, 0, 1]])",
          "r2 = torch.sort(x2, 0, descending=True, out=(x2, x2))",
          "x3 = torch.tensor([[1, 2, -3], [2, -3, 3]])", "r3 = torch.sort(x3, 1, out=(x3, torch.zeros(0, dtype=torch.int64)))"],
         ["x1", "r1", "x2", "r2", "x3", "r3"]),
    case("out-internal-overlap-no-overlap-ops",  # (raises-only-torch:vstack/index_add, probe_out_alias) an out
         # whose elements share memory: cat/stack/vstack, index_add, index_copy, gather refuse it first
         # (assert_no_internal_overlap), after a resize (a new one: no refusal) and, index_add/gather, their
         # dtype check (index_add's "Expected out tensor to have dtype")
         ["x1 = torch.tensor([True, False, False]).expand(2, 3)",
          "try:\n    torch.vstack([x1], out=x1)\nexcept RuntimeError as e:\n    e1 = str(e)[:50]",
          "o2 = torch.zeros(3, dtype=torch.float64).expand(2, 3)",
          "try:\n    torch.cat([torch.ones(1, 3), torch.ones(1, 3)], out=o2)\nexcept RuntimeError as e:\n    e2 = str(e)[:50]",
          "o3 = torch.zeros(3).expand(4, 3)", "torch.stack([torch.ones(3), torch.ones(3)], out=o3)",
          "v4 = torch.zeros(4).expand(2, 4)",
          "try:\n    torch.index_add(v4, 1, torch.tensor([0, 1, 0]), torch.ones(2, 3), alpha=-1, out=v4)\nexcept RuntimeError as e:\n    e4 = str(e)[:50]",
          "o5 = torch.zeros(4, dtype=torch.int64).expand(2, 4)",
          "try:\n    torch.index_add(torch.ones(2, 4), 1, torch.tensor([0, 1, 0]), torch.ones(2, 3), out=o5)\nexcept RuntimeError as e:\n    e5 = str(e)",
          "o6 = torch.zeros(4).expand(2, 4)",
          "try:\n    torch.gather(torch.ones(2, 4), 1, torch.tensor([[0, 1, 1, 0], [1, 3, 0, 0]]), out=o6)\nexcept RuntimeError as e:\n    e6 = str(e)[:50]"],
         ["e1", "e2", "o3", "e4", "e5", "e6"]),
    case("out-alias-batched-matrix-power",  # (value:matrix_power, dt42b) a batch's matmul_out is bmm: ATen's
         # own small loop reads what it wrote (a larger one: BLAS's zeroed result)
         ["x1 = torch.tensor([[[-3.0, -2.75], [0.5, 0.75]], [[2.25, -1.5], [2.75, 0.0]]])",
          "torch.linalg.matrix_power(x1, 2, out=x1)",
          "x2 = torch.arange(16.).reshape(2, 2, 2, 2) / 4 - 1", "torch.linalg.matrix_power(x2, 3, out=x2)",
          "x3 = torch.arange(18.).reshape(2, 3, 3) - 7", "torch.linalg.matrix_power(x3, 5, out=x3)",
          "x4 = torch.arange(64.).reshape(1, 8, 8) / 8 - 1", "torch.linalg.matrix_power(x4, 2, out=x4)"],
         ["x1", "x2", "x3", "x4"]),
    case("tensorinv-tensorsolve-out-copied",  # (stride:tensorinv, own run 41500000) ATen's composites: out's
         # dtype checked first, resize_output C-ordered, out.copy_ recorded (CopyBackwards, no refusal)
         ["x1 = torch.tensor([[[1.25, -0.75]], [[-3.0, 2.0]], [[0.25, 3.0]], [[-2.0, 0.0]]])[::2].rsqrt()",
          "o1 = torch.zeros(0)", "torch.linalg.tensorinv(x1, 1, out=o1)", "s1 = o1.stride()",
          "y2 = (torch.arange(16.).reshape(4, 4).sin() + 3 * torch.eye(4)).reshape(4, 2, 2).requires_grad_()",
          "o2 = torch.zeros(0)", "r2 = torch.linalg.tensorinv(y2, 1, out=o2)",
          "try:\n    torch.linalg.tensorinv(y2.detach(), 0, out=torch.zeros(0, dtype=torch.int64))\n"
          "except RuntimeError as e:\n    e3 = str(e)",
          "A4 = (torch.arange(36.).reshape(6, 6).sin() + 4 * torch.eye(6)).reshape(6, 2, 3).requires_grad_()",
          "o4 = torch.zeros(3, 2).T", "r4 = torch.linalg.tensorsolve(A4, torch.arange(6.).cos(), out=o4)",
          "s4 = o4.stride()"],
         ["o1", "s1", "o2", "e3", "o4", "s4"]),
    case("nll-loss-backward-node-saves-target-weight",  # (raises-only-torch:backward, own run 41500000)
         # nll_loss_backward's node (a create_graph gradient's) saves target and weight: freed by a backward
         # through it, a second one is PyTorch's error
         ["x1 = torch.tensor([[[0.5], [0.0], [-0.75]], [[-1.75], [2.0], [-0.25]]], requires_grad=True)",
          "t1 = torch.tensor([[2], [0]])", "w1 = torch.tensor([0.0, 2.25, 0.75])",
          "g1, = torch.autograd.grad(F.nll_loss(x1, t1, w1), [x1], create_graph=True)",
          "g1.pow(2).sum().backward()", "a1 = x1.grad.clone()",
          "try:\n    g1.backward(gradient=torch.ones(2, 3, 1))\nexcept RuntimeError as e:\n    e1 = str(e)[:60]",
          "x2 = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)",
          "g2, = torch.autograd.grad(F.nll_loss(x2, torch.tensor([2, 0])), [x2], create_graph=True)",
          "(g2 * g2).sum().backward(retain_graph=True)", "(g2 * g2).sum().backward()", "t2 = g2.grad_fn._saved_target"],
         ["a1", "e1", "x2.grad", "t2"]),
    case("index-reduce-out-dtype",  # (raises-only-torch:index_reduce, own run 41506000) the meta's check of
         # out's dtype, after self/source's and the shapes', before the kernel (and its beta warning)
         ["x1 = torch.tensor([-3.0, -2.25, -1.75])",
          "try:\n    torch.index_reduce(x1, 0, torch.tensor([0]), torch.tensor([-0.75]), 'prod', "
          "out=torch.zeros(3, dtype=torch.float64))\nexcept RuntimeError as e:\n    e1 = str(e)",
          "try:\n    torch.index_reduce(x1, 0, torch.tensor([0]), torch.tensor([-0.75]).double(), 'amax', "
          "out=torch.zeros(0, dtype=torch.float64))\nexcept RuntimeError as e:\n    e2 = str(e)"],
         ["e1", "e2"]),
    case("out-alias-integer-mv",  # an integer mv into its vector (row-major matrix): ATen's own gemv, a dot
         # per row in turn, reading the vector as the earlier rows left it
         ["a1 = torch.arange(16, dtype=torch.int32).reshape(4, 4) % 5 - 2",
          "v1 = torch.tensor([1, -2, 3, 1], dtype=torch.int32)", "torch.mv(a1, v1, out=v1)",
          "a2 = torch.arange(9).reshape(3, 3) - 4", "v2 = torch.tensor([1, -2, 3])", "torch.mv(a2, v2, out=v2)"],
         ["v1", "v2"]),
]
