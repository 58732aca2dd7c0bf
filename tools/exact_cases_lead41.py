"""Golden cases of the lead's fixes in session 41 (each names the differential run's group)."""
from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("dilated-conv-one-term-zero-sign",  # (dt41a repr:conv1d) a dilated float64 convolution runs
         # slow_conv_dilated, which adds the gemm to a zeroed output: a one-term sum of -0.0 is +0.0 (an undilated
         # one keeps the product's -0.0; with a bias the sum starts at it)
         ["x = torch.tensor([[[-2.5, 0.0, 1.0], [1.0, -0.25, 0.0]]], dtype=torch.float64)",
          "w = torch.tensor([[[0.0]], [[-0.75]], [[-0.75]], [[-1.25]]], dtype=torch.float64)",
          "b = torch.full((4,), -0.0, dtype=torch.float64)",
          "r1 = torch.conv1d(x, w, dilation=2, groups=2)", "r2 = torch.conv1d(x, w, groups=2)",
          "r3 = torch.conv1d(x, w, b, dilation=2, groups=2)",
          "r4 = torch.conv2d(x[None], w[None].transpose(0, 1).reshape(4, 2, 1, 1)[:, :1], dilation=(2, 1), groups=2)"],
         ["r1", "r2", "r3", "r4"]),
]
CASES += [
    case("hardtanh-limits-before-overlap",  # (dt41a error-text:hardtanh_) hardtanh_'s unsigned-limits check comes
         # before TensorIterator's internal-overlap error of an expanded tensor
         ["x1 = torch.tensor([9, 1, 1], dtype=torch.uint8)", "v2 = x1.expand(2, 3)"] +
         outcomes(["F.hardtanh_(v2)", "F.hardtanh(v2, inplace=True)", "F.hardtanh_(v2, 0.0, 6.0)", "F.relu6(v2, True)"]),
         ["out"]),
    case("huge-int-unpacked-before-overlap",  # the parser unpacks a Python int given for a Scalar (int64, then
         # uint64) before the op runs: past both, its OverflowError comes before an in-place overlap error
         ["x = torch.tensor([9.0, 1.0, 1.0])", "v = x.expand(2, 3)"] +
         outcomes(["v.clamp_(-2**70)", "v.add_(2**64)", "v.mul_(-2**64)", "v.clamp_min_(2**70)", "v.lerp_(x, 2**70)",
                   "v.pow_(2**70)", "F.hardtanh_(v, -2**70, 1.0)", "F.leaky_relu_(v, -2**70)", "v.cumsum_(2**70)",
                   "v.addcmul_(x, x, value=2**70)", "v.clamp_(max=2**64 - 1)", "F.elu(x, 2**70)", "x.cumsum(2**63)"]),
         ["out"]),
]
CASES += [
    case("unrecorded-inplace-on-integer-view",  # (dt41a raises-only-agrad:gcd_) an in-place op that records nothing
         # (gcd_ of an integer view that requires grad) leaves the base's history; the view takes a new node from it
         ["x1 = torch.tensor([[[3]], [[2]], [[6]]], dtype=torch.uint8)", "v2 = x1[::2]",
          "x4 = torch.tensor([-1.75], dtype=torch.float16, requires_grad=True)", "r6 = v2.less_equal_(x4)",
          "f0 = x1.grad_fn", "r7 = torch.gcd_(r6, torch.tensor([6], dtype=torch.uint8))",
          "same = x1.grad_fn is f0", "edge = r7.grad_fn.next_functions[0][0] is f0",
          "r8 = r6.bitwise_and_(torch.tensor([3], dtype=torch.uint8))"],
         ["r7", "x1", "same", "edge", "r8"]),
    case("layer-norm-double-backward-bias-without-weight",  # (dt41a raises-only-torch:pow) layer_norm without a
         # weight: ATen's double backward adds an undefined expanded ggB to ggO when both the input's and the bias's
         # gradients flow back, and fails; either alone works
         ["x = torch.tensor([[2.5, -1.0, 0.5], [1.5, 0.0, -2.0]], requires_grad=True)",
          "b = torch.tensor([0.5, 0.25, -1.0], requires_grad=True)",
          "r = F.layer_norm(x, (3,), bias=b)", "w = torch.tensor([1.0, 2.0, 3.0])",
          "gx, gb = torch.autograd.grad((r * w).sum(), [x, b], create_graph=True)",
          "gx.pow(2).sum().backward(retain_graph=True)", "a = x.grad.clone()"] +
         outcomes(["(gx.pow(2).sum() + gb.pow(2).sum()).backward()"]),
         ["a", "out"]),
]
CASES += [
    case("dist-inf-norm-of-empty-difference",  # (dt41b error-type:dist) dist is the vector norm of the broadcast
         # difference: an empty one has no inf / -inf / negative norm (PyTorch's RuntimeError, not numpy's ValueError)
         ["x1 = torch.tensor([[-2], [1], [0]], dtype=torch.int64)", "e = torch.randperm(0, dtype=torch.float64)"] +
         outcomes(["torch.dist(x1, e, float('inf'))", "torch.dist(e, x1, -float('inf'))", "torch.dist(e, e, -1)",
                   "torch.dist(e, e, 0)", "torch.dist(x1, e, 2)", "torch.dist(x1.float(), e, 1.5)"]),
         ["out"]),
]
CASES += [
    case("unfold-backward-writes-disjoint-windows",  # (dt41c repr:grad) unfold_backward writes the gradient of
         # windows that do not overlap (step >= size), so a -0.0 stays; overlapping ones are summed from zeros
         ["a = torch.zeros(6, requires_grad=True)",
          "g1 = torch.autograd.grad(a.unfold(0, 2, 2), a, torch.full((3, 2), -0.0))[0]",
          "g2 = torch.autograd.grad(a.unfold(0, 2, 4), a, torch.full((2, 2), -0.0))[0]",
          "g3 = torch.autograd.grad(a.unfold(0, 2, 1), a, torch.full((5, 2), -0.0))[0]",
          "x1 = torch.tensor([[[0.25, -2.25, -0.25, -0.5], [-2.25, 0.0, -2.25, -0.5]]], requires_grad=True)",
          "r4 = torch.unfold_copy(torch.reshape(x1[:, 1:], (2, 2)), 1, 2, 2)", "r10 = r4.absolute_()",
          "r10[[0, 0]] = 0.001", "gs = torch.autograd.grad(r4.sum(), [x1], create_graph=True)"],
         ["g1", "g2", "g3", "gs"]),
]
CASES += [
    case("nan-to-num-integral-out-c-ordered",  # (dt41d stride:nan_to_num) an integral (or bool) input: ATen resizes
         # the out C-ordered and copies, where a float one takes TensorIterator's layout of the input
         ["x1 = torch.tensor([[-1.75, -2.0], [1.5, -1.0]], dtype=torch.float64)", "v2 = x1.mT",
          "a = torch.nan_to_num(v2 >= 0, posinf=1.0, out=torch.zeros(0, dtype=torch.bool)).stride()",
          "b = torch.nan_to_num((v2 >= 0).int(), out=torch.zeros(0, dtype=torch.int32)).stride()",
          "c = torch.nan_to_num(v2, out=torch.zeros(0, dtype=torch.float64)).stride()"],
         ["a", "b", "c"]),
]
CASES += [
    case("out-grad-refusal-names",  # (dt41d error-text:take_along_dim, error-text:svd) the out= refusal names the op
         # the composite calls: take_along_dim's gather, linalg.svd's and torch.svd's _linalg_svd
         ["x = torch.tensor([-3.0], dtype=torch.float64, requires_grad=True)",
          "m = torch.tensor([[2.0]], requires_grad=True)"] +
         outcomes(["torch.take_along_dim(x, torch.tensor([0]), out=x)",
                   "torch.take_along_dim(x, torch.tensor([0]), 0, out=torch.zeros(1, dtype=torch.float64))",
                   "torch.linalg.svd(m, out=(torch.zeros(0), torch.tensor([-3.0]), torch.tensor([[2.25]])))",
                   "torch.svd(m, out=(torch.zeros(0), torch.tensor([-3.0]), torch.tensor([[2.25]])))"]),
         ["out"]),
]
CASES += [
    case("cond-out-is-a-recorded-copy",  # (dt41d raises-only-agrad:cond) linalg.cond(out=) is ATen's composite:
         # out's dtype checked first, then resize_output and a recorded out.copy_ (CopyBackwards, no refusal)
         ["A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)",
          "r1 = torch.linalg.cond(A, out=torch.zeros(0))", "r2 = torch.linalg.cond(A, 1, out=torch.zeros(0, dtype=torch.float64))",
          "r3 = torch.linalg.cond(A, 'fro', out=torch.zeros(2, 2)[:, 0])"] +
         outcomes(["torch.linalg.cond(A, out=torch.zeros(0, dtype=torch.int32))",
                   "torch.linalg.cond(torch.ones(3), 2, out=torch.zeros(0, dtype=torch.int32))"]),
         ["r1", "r2", "r3", "out"]),
]
CASES += [
    case("tuple-out-index-dtype",  # (dt41d shape:max) a structured op's values out is resized before its indices
         # out's dtype error; median's and cummax's own texts for the indices
         ["x = torch.tensor([[-2.5, -1.75], [1.0, 2.5]])", "v = torch.zeros(0)", "s = torch.zeros(0)",
          "i = torch.tensor([[0], [1]], dtype=torch.int32)"] +
         outcomes(["torch.max(x, -1, True, out=(v, i))", "torch.sort(x, -1, out=(s, i))",
                   "torch.median(x, -1, out=(torch.zeros(0), torch.zeros(0, dtype=torch.int32)))",
                   "torch.cummax(x, -1, out=(torch.zeros(0), torch.zeros(0, dtype=torch.int32)))"]) +
         ["vs = v.shape", "ss = s.shape"],
         ["out", "vs", "ss"]),
]
