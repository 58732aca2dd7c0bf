"""Regression cases of helper "groupsc40" (session 40): its own differential runs and the probes around
what they found (out= arguments, in-place ops on a tensor whose elements share memory).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("out-refused-by-the-parser",  # torch.sum/prod without a dim, relu and every Tensor method take no
         # out= in PyTorch (its parser refuses before anything runs); agrad's shared functions took it
         ["x = torch.tensor([[1.0, 2.0], [0.5, 0.25]])", "o = torch.zeros(2, 2)"] + outcomes([
             "torch.sum(x, out=o)", "torch.prod(x, out=o)", "torch.relu(x, out=o)", "x.sum(0, out=o)",
             "x.add(x, out=o)", "x.sin(out=o)", "x.max(0, out=(o, o.long()))", "torch.sum(x, 0, out=o[0])",
             "torch.prod(x, 1, out=o[1])", "torch.narrow_copy(x, 0, 0, 1, out=o)"]),
         ["out", "o"]),
    case("any-all-uint8-out",  # any/all write a bool or a uint8 out= whatever the input's dtype (a uint8
         # input into a bool out was refused as 'got: Bool'); other dtypes are refused
         ["a = torch.tensor([[1, 0], [2, 0]], dtype=torch.uint8)", "f = torch.tensor([[0.5, 0.0], [2.0, 0.0]])"]
         + outcomes(["torch.any(a, out=torch.zeros(3, dtype=torch.bool))",
                     "torch.all(f, 0, out=torch.zeros(2, dtype=torch.uint8))",
                     "torch.any(f, (0, 1), out=torch.zeros((), dtype=torch.uint8))",
                     "torch.all(a, 1, out=torch.zeros(2, dtype=torch.float32))"]),
         ["out"]),
    case("range-factories-out-of-as-many-elements",  # arange/range/linspace/logspace resize only an out=
         # of another numel: one of as many elements keeps its shape and strides (values in logical order)
         ["import warnings", "warnings.simplefilter('ignore')",
          "o1 = torch.zeros(2, 2)", "r1 = torch.arange(4, out=o1)",
          "o2 = torch.zeros(2, 2).t()", "r2 = torch.linspace(0, 1, 4, out=o2)",
          "o3 = torch.zeros(4, 1, dtype=torch.float64)", "r3 = torch.logspace(0, 1, 4, out=o3)",
          "o4 = torch.zeros(3, 2)", "r4 = torch.range(0, 5, out=o4)",
          "o5 = torch.zeros(4, 2)[:, :1]", "r5 = torch.arange(4, out=o5)"],
         ["o1", "o1.stride()", "o2", "o2.stride()", "o3", "o4", "o5.stride()", "o5"]),
    case("random-factories-draw-into-out-as-laid-out",  # rand/randn/randint/normal(size) resize_ out= (which
         # keeps one of the size) and draw into it in its memory order, not C order
         ["torch.manual_seed(5)", "o1 = torch.zeros(3, 2).t()", "torch.rand(2, 3, out=o1)",
          "o2 = torch.zeros(5, 4).t()", "torch.randn(4, 5, out=o2)",
          "o3 = torch.zeros(3, 2, dtype=torch.int64).t()", "torch.randint(0, 9, (2, 3), out=o3)",
          "o4 = torch.zeros(4, 3, 2).permute(2, 1, 0)", "torch.normal(2., 3., (2, 3, 4), out=o4)",
          "after = torch.rand(2)"],
         ["o1", "o2", "o3", "o4", "after"]),
    case("normal-tensor-mean-out-broadcasts-with-out",  # normal(Tensor mean, float std, out=): the shape is
         # infer_size(mean, out's own shape) (an empty or mismatched out is an error, a larger one is kept),
         # out is resized with resize_output's warning, drawn into, then mean is added
         ["m = torch.tensor([[1., 2.], [3., 4.]])", "s = torch.tensor([[1., 2.], [0.5, 4.]])",
          "torch.manual_seed(1)"] + outcomes([
              "torch.normal(m, 1., out=torch.zeros(0))", "torch.normal(m, 1., out=torch.zeros(5))",
              "torch.normal(m, 2., out=torch.zeros(3, 2, 2))", "torch.normal(m[0], 1., out=torch.zeros(2, 2))",
              "torch.normal(m, s, out=torch.zeros(1))", "torch.normal(1., s, out=torch.zeros(2, 1))"])
         + ["after = torch.rand(2)"],
         ["out", "after"]),
    case("out-resized-keeps-its-storage",  # an out= of another shape is resize_d over its own storage (from
         # its offset on) and restrided as the result: a view's base sees the written values
         ["import warnings", "warnings.simplefilter('ignore')", "x = torch.tensor([1., 2., 3.])",
          "b1 = torch.zeros(6)", "o1 = b1[1:5]", "torch.add(x, 1, out=o1)",
          "b2 = torch.zeros(6)", "o2 = b2.view(2, 3)", "torch.sum(x.reshape(3, 1), 1, out=o2)",
          "b3 = torch.zeros(6)", "o3 = b3[:2]", "torch.cat([x, x], out=o3)",
          "b4 = torch.zeros(2, 4)", "o4 = b4[:, 1:]", "torch.mul(x.reshape(3, 1), 2, out=o4)"],
         ["b1", "o1.storage_offset()", "b2", "b3", "b4", "o4.stride()", "o4.storage_offset()"]),
    case("inplace-on-shared-elements-writes-in-sequence",  # (value:addcmul_, run 39809000) an in-place op
         # on a self whose elements share memory without a stride of 0 (unfold with overlapping windows):
         # PyTorch lets it run ("too hard" to judge) and its loop reads each element as the earlier writes
         # left it; agrad computed the whole result from the old values
         ["t1 = torch.tensor([[2.5, 1.0], [-2.0, 1.75], [-3.0, 2.75]], dtype=torch.float64)",
          "t2 = torch.tensor([[0.75, -3.0], [-0.5, 3.0], [-3.0, -2.5]], dtype=torch.float64)",
          "x1 = torch.tensor([-2.0, -0.5, 0.0, -3.0], dtype=torch.float64)",
          "r2 = x1.unfold(0, 2, 1)", "r3 = r2.addcmul_(t1, t2)",
          "x2 = torch.tensor([-2.0, -0.5, 0.0, -3.0])", "x2.unfold(0, 2, 1).add_(x2.unfold(0, 2, 1))",
          "x3 = torch.tensor([1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])",
          "x3.unfold(0, 3, 1).logical_and_(torch.tensor([[1., 1, 1], [1, 1, 1], [1, 1, 0], [1, 1, 1], "
          "[1, 1, 1], [1, 1, 1]]))",
          "x4 = torch.tensor([-2.0, -0.5, 0.0, -3.0, 1.5], dtype=torch.float64)",
          "x4.as_strided((3, 3), (1, 1)).masked_fill_(torch.eye(3, dtype=torch.bool), 7.0).exp_()",
          "torch.manual_seed(0)", "x5 = torch.zeros(8, dtype=torch.float64)", "x5.unfold(0, 2, 1).t().uniform_()",
          "x6 = torch.zeros(8)", "x6.as_strided((3, 2), (1, 2)).normal_()",
          "x7 = torch.tensor([0.5, 1.5, 2.0, 3.0])", "x7.unfold(0, 2, 1).mvlgamma_(1)"],
         ["x1", "r3", "x2", "x3", "x4", "x5", "x6", "x7"]),
    case("out-cast-resize-warns-twice",  # a structured TensorIterator op casting its common dtype into an
         # out= of another dtype works through a temporary of out's old shape: resize_output warns for the
         # temporary and for out (clamp with tensor bounds casts; with number bounds it is refused)
         ["import warnings", "a = torch.tensor([0.5, 1.5, 2.5])", "i = torch.tensor([1, 2, 3])",
          "def count(f):\n    with warnings.catch_warnings(record=True) as w:\n        warnings.simplefilter('always')\n"
          "        try:\n            f()\n        except RuntimeError as e:\n            return str(e)\n    return len(w)",
          "n = [count(lambda: torch.sin(a, out=torch.zeros(5, dtype=torch.float64))), "
          "count(lambda: torch.sin(i, out=torch.zeros(5))), count(lambda: torch.add(a, a, out=torch.zeros(5))), "
          "count(lambda: torch.add(i, i, out=torch.zeros(5))), count(lambda: torch.eq(a, a, out=torch.zeros(5))), "
          "count(lambda: torch.eq(i, a.long(), out=torch.zeros(5))), count(lambda: torch.eq(a, a, out=torch.zeros(5, dtype=torch.bool))), "
          "count(lambda: torch.clamp(a, a, out=torch.zeros(5, dtype=torch.float64))), "
          "count(lambda: torch.clamp(a, 0.5, out=torch.zeros(5, dtype=torch.float64))), "
          "count(lambda: torch.clamp_min(a, a, out=torch.zeros(5, dtype=torch.float16))), "
          "count(lambda: torch.lerp(a, a, 0.5, out=torch.zeros(5, dtype=torch.float64))), "
          "count(lambda: torch.sum(a, 0, out=torch.zeros(5, dtype=torch.float64))), "
          "count(lambda: torch.floor_divide(a, a, out=torch.zeros(5, dtype=torch.float64)))]"],
         ["n"]),
    case("out-dtype-checks-of-their-own",  # the out= dtype checks PyTorch makes before the kernel's: where's
         # before its condition's, frac/abs/sgn/bitwise_not/round's check_all_same_dtype before the kernel's
         # dtype refusal, lerp with a tensor weight the same, heaviside/float_power/nan_to_num their own texts
         ["a = torch.tensor([0.5, 1.5, 2.5])", "i = torch.tensor([1, 2, 3])"] + outcomes([
             "torch.where(a, a, a, out=torch.zeros(3, dtype=torch.float64))",
             "torch.where(a > 1, i, i, out=torch.zeros(3))", "torch.frac(i, out=torch.zeros(3))",
             "torch.abs(torch.tensor([True]), out=torch.zeros(1))", "torch.sgn(i, out=torch.zeros(3))",
             "torch.bitwise_not(a, out=torch.zeros(3, dtype=torch.int64))", "torch.round(i, decimals=1, out=torch.zeros(3))",
             "torch.lerp(i, i, i, out=torch.zeros(3))", "torch.lerp(a, a, a, out=torch.zeros(3, dtype=torch.float64))",
             "torch.heaviside(a, a, out=torch.zeros(3, dtype=torch.float64))",
             "torch.float_power(a, 2, out=torch.zeros(3))", "torch.float_power(i, i, out=torch.zeros(3, dtype=torch.int32))",
             "torch.nan_to_num(a, out=torch.zeros(3, dtype=torch.float64))",
             "torch.clamp_max(a, a, out=torch.zeros(3, dtype=torch.float64))", "torch.clamp_max(a, 0.5, out=torch.zeros(3, dtype=torch.float64))"]),
         ["out"]),
    case("out-checked-and-resized-before-the-kernel",  # a TensorIterator op checks out='s dtype and
         # resizes it before its kernel refuses the dtype: the cast error comes first, else out is resized
         ["import warnings", "warnings.simplefilter('ignore')", "f = torch.tensor([[0.5, 1.5, 2.5]])",
          "i = torch.tensor([[1, 2, 3]])", "b = torch.tensor([[True, False, True]])",
          "outs = [torch.zeros(5, dtype=torch.bool), torch.zeros(5), torch.zeros(5), torch.zeros(5, dtype=torch.bool), "
          "torch.zeros(5), torch.zeros(5, dtype=torch.int64), torch.zeros(5), torch.zeros(5, dtype=torch.bool), "
          "torch.zeros(5, dtype=torch.bool), torch.zeros(5, dtype=torch.float64), torch.zeros(5, dtype=torch.int64)]"]
         + outcomes(["torch.gcd(f, f, out=outs[0])", "torch.gcd(f, f, out=outs[1])", "torch.bitwise_and(f, f, out=outs[2])",
                     "torch.abs(b, out=outs[3])", "torch.nextafter(i, i, out=outs[4])",
                     "torch.lerp(i, i, 0.5, out=outs[5])", "torch.hypot(i, i, out=outs[6])",
                     "torch.pow(b, b, out=outs[7])", "torch.addcmul(b, b, b, out=outs[8])",
                     "torch.bitwise_not(f.double(), out=outs[9])", "torch.bitwise_left_shift(f, 1, out=outs[10])"])
         + ["shapes = [tuple(o.shape) for o in outs]"],
         ["out", "shapes"]),
    case("dot-mean-cat-out-orders",  # dot/vdot resize out to 0-d and check its dtype against the first
         # input's before their own checks; mean into an integer out sums into it, then div_ refuses the
         # Float quotient (mean() without a dim: mean.dtype_out's text); cat checks the cast before shapes
         ["import warnings", "warnings.simplefilter('ignore')", "a = torch.tensor([0.5, 1.5, 2.5])",
          "m = torch.tensor([[1.0, 0.5, 3.0], [-1.0, 3.0, 1.0]])",
          "outs = [torch.zeros(3), torch.zeros(2, dtype=torch.float64), torch.zeros(4), torch.zeros(5, dtype=torch.int32), "
          "torch.zeros(3, dtype=torch.bool), torch.zeros(3, dtype=torch.int64)]"]
         + outcomes(["torch.dot(a, a.reshape(3, 1), out=outs[0])", "torch.vdot(a, a, out=outs[1])",
                     "torch.dot(a, a, out=outs[2])", "torch.mean(m, 1, out=outs[3])", "torch.mean(m, out=outs[4])",
                     "torch.mean(m.half(), 0, True, out=outs[5])",
                     "torch.cat([m, a], out=torch.zeros(1, dtype=torch.bool))"])
         + ["shapes = [(tuple(o.shape), o.tolist()) for o in outs]"],
         ["out", "shapes"]),
    case("var-std-out-resized-before-the-cast-check",  # var/std's meta resizes out= (resize_reduction)
         # before the iterator refuses its dtype; outer (mul_out) casts through a temporary: two warnings
         ["import warnings", "m = torch.tensor([[2.0, -0.5, 3.0], [1.0, 0.5, 0.0]])",
          "o1 = torch.zeros(5, dtype=torch.uint8)", "o2 = torch.zeros(2, 3, dtype=torch.int64)"]
         + outcomes(["torch.var(m, 0, out=o1)", "torch.std(m, 1, keepdim=True, out=o2)"])
         + ["with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n"
            "    torch.outer(torch.tensor([1, 2]), torch.tensor([3, 4]), out=torch.zeros(5))\n    n = len(w)"],
         ["out", "o1.shape", "o2.shape", "n"]),
    case("unary-result-of-shared-elements-layout",  # (stride:relu, run 39818000) a one-input op on a tensor
         # whose dims tie in stride (x.unfold(0, 3, 1)): TensorIterator's sort puts the smaller tied dim
         # inside, numpy's "K" order the other; also through casts (int exp, to(), logical_not, isnan)
         ["x = torch.arange(48).reshape(4, 3, 4)", "r = x.unfold(0, 3, 1)", "f = r.float()"],
         ["torch.relu(r).stride()", "torch.exp(r).stride()", "r.to(torch.float64).stride()",
          "torch.logical_not(f).stride()", "torch.isnan(f).stride()", "torch.abs(f).stride()",
          "(r.bool() * 2).stride()", "torch.relu(r.transpose(1, 3)).stride()"]),
    case("heaviside-inplace-dtype-check-before-overlap",  # (error-text:heaviside_, run 39821000) heaviside's
         # meta check of the dtypes comes before TensorIterator's overlap check of an expanded self
         ["x1 = torch.tensor([-2, 3, -1], dtype=torch.int32)"] + outcomes([
             "x1.expand(2, 3).heaviside_(torch.tensor([[2.75, 1.5, 1.75], [-1.0, 2.5, 1.75]]))",
             "x1.expand(2, 3).heaviside_(torch.tensor([[2, 1, 1], [1, 2, 1]], dtype=torch.int32))",
             "x1.expand(2, 3).heaviside_(torch.tensor(1.5))",
             "x1.float().expand(2, 3).lerp_(torch.ones(2, 3, dtype=torch.float64), 0.5)",
             "x1.float().expand(2, 3).lerp_(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64))",
             "x1.float().expand(2, 3).lerp_(torch.ones(2, 3), torch.tensor(0.5, dtype=torch.float64))"]),
         ["out"]),
    case("full-like-memory-format-before-the-fill",  # (error-text:full_like, run 39824000) full_like is
         # empty_like (its memory_format checks) then fill_ (the value's conversion)
         ["x = torch.tensor([[1, 1], [2, 2]], dtype=torch.int32)"] + outcomes([
             "torch.full_like(x, float('inf'), memory_format=torch.channels_last)",
             "torch.full_like(x, 2 ** 40, memory_format=torch.channels_last_3d)",
             "torch.full_like(x, float('inf'))"]),
         ["out"]),
]
