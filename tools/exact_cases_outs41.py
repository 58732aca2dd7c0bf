"""Regression cases of helper "outs41" (session 41): out= arguments and scalar/list parameters that
sessions 40's helpers left (out resized before a kernel's refusal, partial writes before an integer
ZeroDivisionError, check orders; numpy scalars as Python numbers, int-list parameters).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
Every out= that an error leaves resized shrinks (or keeps its size): a grown one would hold PyTorch's
uninitialised memory.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("out-resized-before-the-kernel-refuses-a-dtype",  # TensorIterator (and the reductions' meta functions)
         # check and resize out= before the kernel refuses the dtype: agrad raised first, out untouched
         ["b = torch.tensor([[True, False, True], [False, True, True]])", "i = torch.tensor([3, 1, 2])",
          "f = torch.tensor([[1.5, 2.0, 0.5], [3.0, 0.0, 1.5]])",
          "o1 = torch.arange(9)", "o2 = torch.ones(8, dtype=torch.bool)", "o3 = torch.arange(7.)",
          "o4 = torch.arange(7, dtype=torch.int32)", "o5 = torch.arange(8, dtype=torch.uint8)",
          "o6 = torch.arange(7, dtype=torch.uint8)", "o7 = torch.arange(7)", "o8 = torch.arange(7)",
          "o9 = torch.ones(7, dtype=torch.bool)", "o10 = torch.arange(7)", "o11 = torch.arange(7.)",
          "o12 = torch.arange(7, dtype=torch.int32)"] + outcomes([
              "torch.logaddexp(b, i, out=o1)", "torch.logaddexp2(b, b, out=o2)", "torch.igamma(b, i, out=o3)",
              "torch.igammac(b, i, out=torch.zeros(3, dtype=torch.bool))", "torch.frac(i.int(), out=o4)",
              "torch.fmod(b, b, out=o5)", "torch.floor_divide(b, b, out=o6)", "torch.remainder(b, b, out=o7)",
              "torch.div(b, b, rounding_mode='floor', out=o8)", "torch.floor(b, out=o9)",
              "torch.nansum(f, 0, out=o10)", "torch.cumsum(b, 1, out=o11)", "torch.cumprod(f, 0, out=o12)",
              "torch.round(b, out=torch.ones(7, dtype=torch.bool))"]),
         ["out", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o9", "o10", "o11", "o12"]),
    case("out-checks-before-the-kernel",  # cumsum's meta refuses a dtype= other than out's before anything;
         # mean() over all dims (mean.dtype_out) checks that the input casts into out before mean_out's own
         # checks; var/std of float16 over every dim into a float/double out: std_var_all has no Half kernel
         # (out resized first); nansum of an empty float input into an integer out: zeros, no kernel
         ["f = torch.tensor([[1.5, 2.0, 0.5], [3.0, 0.0, 1.5]])", "o1 = torch.arange(7.)", "o2 = torch.arange(7.)",
          "o3 = torch.arange(7)"] + outcomes([
              "torch.cumsum(f, 0, dtype=torch.float64, out=torch.zeros(7))",
              "torch.cumprod(f, 0, dtype=torch.bool, out=torch.zeros(7, dtype=torch.int64))",
              "torch.mean(f.long(), out=torch.zeros(2, dtype=torch.bool))",
              "torch.mean(f, dtype=torch.float64, out=torch.zeros(2, dtype=torch.int64))",
              "torch.mean(f, dtype=torch.int64, out=torch.zeros(2, dtype=torch.int32))",
              "torch.var(f.half(), out=o1)", "torch.std(f.half(), (0, 1), keepdim=True, out=o2)",
              "torch.std(f.half(), 0, out=torch.zeros(3, dtype=torch.float64))",
              "torch.nansum(torch.ones(0, 3), 0, out=o3)", "torch.nansum(torch.ones(2, 0), out=o3)"]),
         ["out", "o1", "o2", "o3"]),
    case("integer-division-out-written-up-to-the-zero",  # an integer fmod/remainder/floor_divide/div(floor)
         # into out= writes the results before the first zero divisor in TensorIterator's walk (a
         # column-major out is walked column by column), after out's resize; a cast into another dtype goes
         # through a temporary (out left as it was, but resized by the structured ops)
         ["a = torch.tensor([[7, -8, 9], [10, 11, -12]])", "b = torch.tensor([[2, 3, 0], [4, 0, 5]])",
          "c = torch.tensor([[2], [0]])",
          "o1 = torch.arange(100, 106).reshape(2, 3)", "o2 = torch.arange(100, 106).reshape(3, 2).t()",
          "o3 = torch.arange(100, 109)", "o4 = torch.arange(100, 109).reshape(9, 1)",
          "o5 = torch.arange(100, 106).reshape(3, 2).t()", "o6 = torch.arange(100, 108, dtype=torch.int32)",
          "o7 = torch.arange(100, 108, dtype=torch.int32)", "o8 = torch.arange(100, 106)",
          "o9 = torch.arange(100, 107)"] + outcomes([
              "torch.fmod(a, b, out=o1)", "torch.remainder(a, b, out=o2)", "torch.floor_divide(a, c, out=o3)",
              "torch.div(a, b, rounding_mode='trunc', out=o4)", "torch.div(a, c, rounding_mode='floor', out=o5)",
              "torch.remainder(a, b, out=o6)", "torch.floor_divide(a, b, out=o7)", "torch.fmod(a, 0, out=o8)",
              "torch.remainder(a, torch.tensor(0), out=o9)"]),
         ["out", "o1", "o2", "o2.stride()", "o3", "o4", "o5", "o6", "o7", "o8", "o9"]),
    case("matrix-products-out-checks-in-aten-order",  # mm/bmm/addmm/addmv/baddbmm's meta: out's dtype
         # (mm's self's, bmm's batch2's) before the kernel's dtype checks, out resized before them and
         # before the bool kernel's refusal; matmul hands out to dot/mv/mm/bmm (mv: addmv with out as self
         # when it has one dim and n or 1 elements); addbmm resizes out, copies self (cast) into it, then
         # each batch's addmm_ checks out's dtype; addr casts into out as TensorIterator does
         ["f = torch.tensor([[1., 2., 0.5], [3., 0., 1.5]])", "g = torch.tensor([[1., 2.], [0.5, 3.], [0., 1.5]])",
          "b = (f > 1)", "o1 = torch.arange(7.)", "o2 = torch.ones(7, dtype=torch.bool)", "o3 = torch.arange(9.)",
          "o4 = torch.arange(7.)", "o5 = torch.arange(7).double()", "o6 = torch.arange(7.)", "o7 = torch.arange(9.)",
          "o8 = torch.zeros(2, 2, 2).transpose(0, 2)", "o9 = torch.arange(7)", "o10 = torch.arange(7)"] + outcomes([
              "torch.mm(f.long(), g, out=torch.zeros(2, 2))", "torch.mm(f, g.long(), out=o1)",
              "torch.mm(b, g > 1, out=o2)", "torch.bmm(f[None].long(), g[None], out=torch.zeros(2, 2, 2))",
              "torch.bmm(f[None], g[None].long(), out=o3)", "torch.addmm(f, f, g, out=o4)",
              "torch.addmm(f[:, :2].half(), f.half(), g.half(), out=torch.zeros(2, 2))",
              "torch.mv(f, g[:, 0].double(), out=o5)", "torch.addmv(b[:, 0], b, b[0], out=torch.ones(7, dtype=torch.bool))",
              "torch.baddbmm(f[None, :, :2], f[None], g[None].long(), out=torch.zeros(1, 2, 2))",
              "torch.matmul(f[0], g, out=o6)", "torch.matmul(f.long(), g[:, 0].long(), out=torch.zeros(3))",
              "torch.matmul(f.expand(2, 2, 3), g, out=o7)", "torch.matmul(f.expand(2, 2, 3).contiguous(), g, out=o8)",
              "torch.matmul(b[None], b.t()[None], out=torch.zeros(1, 2, 2, dtype=torch.bool))",
              "torch.addbmm(f[:, :2].long(), f[None], g[None], out=o9)", "torch.addbmm(g[:2], f[None], g[None], out=o10)",
              "torch.addr(f[:2, :2] > 1, b[0, :2], b[1, :2], out=torch.zeros(2, 2))"]),
         ["out", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o8.stride()", "o9", "o10"]),
    case("stack-out-resized-before-cat-checks",  # stack_out below the last dim resizes out (resize_output,
         # with its warning) before its cat into a view of out refuses the cast; at the last dim, cat's check
         # comes first; the dim is wrapped before the sizes are compared
         ["a = torch.tensor([[1.5, 2.0, 0.5], [3.0, 0.0, 1.5]])", "o1 = torch.arange(13, dtype=torch.uint8)",
          "o2 = torch.arange(13)", "o3 = torch.arange(13, dtype=torch.int32)"] + outcomes([
              "torch.stack([a, a], 0, out=o1)", "torch.stack([a, a.long()], 1, out=o2)",
              "torch.stack([a, a], 2, out=o3)", "torch.stack([a, a[0]], 5)",
              "torch.stack([a, a], -1, out=torch.zeros(2, 2, 2).transpose(0, 2))"]),
         ["out", "o1", "o2", "o3"]),
    case("functional-builtins-take-out",  # F.gelu/softplus/softshrink/hardshrink/logsigmoid/linear/avg_pool2d/
         # avg_pool3d are PyTorch's C functions with an out overload (agrad's took none); F.sigmoid/F.tanh are
         # Python functions of input alone (agrad's were torch's, which take out); F.gelu of a contiguous
         # float32 input into an out that is not contiguous leaves out as it was (oneDNN writes a copy)
         ["x = torch.tensor([[-1.0, 0.5, 2.0], [1.0, 0.25, -3.0]])", "o1 = torch.zeros(7)",
          "o2 = torch.zeros(3, 2).t()", "o3 = torch.zeros(7, dtype=torch.int64)", "o4 = torch.arange(7.)",
          "o5 = torch.zeros(3, 2).t()", "o6 = torch.zeros(7)", "o7 = torch.zeros(7)", "o8 = torch.zeros(7)",
          "o9 = torch.zeros(2, 2, 2)", "o10 = torch.zeros(2, 2, 2)"] + outcomes([
              "F.gelu(x, out=o1)", "F.gelu(x, out=o2)", "F.gelu(x.double(), out=torch.zeros(2, 3))",
              "F.gelu(x.long(), out=o3)", "F.gelu(x, approximate='x', out=o4)", "F.gelu(x, approximate='tanh', out=o5)",
              "F.softplus(x, 2, out=o6)", "F.softshrink(x, -1.0, out=torch.zeros(2, 3, dtype=torch.float64))",
              "F.softshrink(x, 0.5, out=torch.zeros(0, dtype=torch.float64))", "F.hardshrink(x, out=o7)",
              "torch.hardshrink(x, 0.5, out=torch.zeros(2, 3))", "x.hardshrink(out=torch.zeros(2, 3))",
              "F.logsigmoid(x, out=torch.zeros(7, dtype=torch.float64))", "F.logsigmoid(x, out=o8)",
              "F.linear(x, torch.ones(2, 3), torch.ones(2), out=torch.zeros(2, 2, dtype=torch.float64))",
              "F.linear(x[None], torch.ones(2, 3), torch.ones(2), out=o9)",
              "F.linear(x.requires_grad_(False)[None], torch.ones(2, 3), out=torch.zeros(1, 2, 2, dtype=torch.float64))",
              "F.avg_pool2d(x[None], 1, out=torch.zeros(1, 2, 3, dtype=torch.float64))",
              "F.avg_pool3d(x[None, None], 1, out=o10)", "F.sigmoid(x, out=torch.zeros(2, 3))",
              "F.tanh(x, out=torch.zeros(2, 3))", "F.sigmoid(x)", "F.tanh(input=x)"]),
         ["out", "o1", "o2", "o3", "o4", "o5", "o5.stride()", "o6", "o7", "o8", "o9", "o10"]),
    case("numpy-scalars-are-python-numbers",  # PyTorch's parser reads a numpy integer as an int and a numpy
         # float or bool as a double (no dtype carried): agrad took np.int64 for a float (an int tensor times
         # it gave float32) and pow's exponent as a float64 array; arange/full of np.float32 or np.bool_ are
         # float; torch.tensor([...]) promotes each numpy scalar's own dtype with the rest (promoteTypes);
         # an integer tensor refuses a numpy bool or float32 leaf, setitem refuses np.float32/np.bool_
         ["import numpy as np", "x = torch.tensor([[-1.0, 2.0], [0.5, 0.25]])", "xi = torch.tensor([[1, 2], [3, 4]])",
          "xb = torch.tensor([True, False])", "t1 = xi.clone()", "t1[0] = np.int32(7)", "t2 = x.clone()",
          "t2[1] = np.float64(2.5)", "def assign(t, v):\n    t[0] = v\n    return t"] + outcomes([
              "xi * np.int64(2)", "np.int32(2) * xi", "xb.int() - np.uint8(1)", "xb * np.bool_(True)", "x.pow(np.int64(2))",
              "xi.pow(np.int32(2))", "xi ** np.uint8(2)", "torch.pow(np.int64(2), xi)", "torch.where(xb, np.int64(2), 0)",
              "xi.clamp(max=np.int64(2))", "F.lp_pool2d(x[None, None], np.int64(2), 2)", "F.lp_pool1d(x[None], np.float64(2), 2)",
              "torch.arange(np.float32(1.5))", "torch.arange(np.bool_(True))", "torch.arange(0, np.float16(2.5))",
              "torch.full((2,), np.bool_(True))", "x.polygamma(np.int64(1))", "(x.abs() + 2).mvlgamma(np.int64(2))",
              "torch.tensor([np.float64(1.5), 1])", "torch.tensor([np.float16(1.5), 1])", "torch.tensor([np.int32(1), 2.5])",
              "torch.tensor([np.uint8(3), True])", "torch.tensor([np.bool_(True), 1])", "torch.tensor([np.float32(1.5)], dtype=torch.int64)",
              "torch.tensor([np.bool_(True)], dtype=torch.bool)", "torch.tensor([torch.tensor(1.5, dtype=torch.float64), 1.0])",
              "torch.tensor([np.float32(2.5)], dtype=torch.float64)",
              "t1.index_fill(0, torch.tensor([1]), np.int64(5))",
              "x[np.float64(1.0)]", "x[np.float32(1)]", "x[1.5]", "assign(x.clone(), np.float32(1.5))",
              "assign(xi.clone(), np.bool_(True))", "assign(xi.clone(), np.int64(9))", "assign(x.clone(), np.float64(9.5))"]),
         ["out", "t1", "t2"]),
    case("int-list-parameters-as-the-parser-takes-them",  # F.unfold/F.fold pass _pair(v) to im2col/col2im, whose
         # parser reads the first element of each int list (a bool, str, float or float tensor refused) and
         # whose template checks the lengths, then kernel/dilation/padding/stride; the adaptive pools'
         # _list_with_default result goes to the parser too; a one-element integral or bool tensor is an int
         # to avg_pool2d/max_pool2d (agrad iterated it), a two-element tensor or a float in a list is refused
         ["import numpy as np", "x4 = torch.arange(32.).reshape(1, 2, 4, 4) / 10", "cols = F.unfold(x4, 2)"] + outcomes([
              "F.unfold(x4, torch.tensor(2))", "F.unfold(x4, torch.tensor([0.5]))", "F.unfold(x4, 'ab')",
              "F.unfold(x4, np.bool_(True))", "F.unfold(x4, np.float64(2))", "F.unfold(x4, True)", "F.unfold(x4, np.int64(2))",
              "F.unfold(x4, [2])", "F.unfold(x4, 2, stride=[1, 1, 1])", "F.unfold(x4, 0, dilation=0)",
              "F.unfold(x4, 2, padding=-1, stride=0)", "F.unfold(x4, 2, stride=torch.tensor([2, 1]))",
              "F.fold(cols, [4], 2)", "F.fold(cols, 4, 2, padding=-1, stride=0)", "F.fold(cols, 4, [2, 1.5])",
              "F.adaptive_avg_pool2d(x4, torch.tensor([0.5]))", "F.adaptive_avg_pool2d(x4, 'a')",
              "F.adaptive_avg_pool2d(x4, True)", "F.adaptive_max_pool2d(x4, [2, 1.5])", "F.adaptive_avg_pool3d(x4[None], ['a'])",
              "F.adaptive_avg_pool2d(x4, [None, 2])", "F.avg_pool2d(x4, torch.tensor(2))", "F.avg_pool2d(x4, torch.tensor(True))",
              "F.max_pool2d(x4, torch.tensor(1))", "F.avg_pool2d(x4, torch.tensor([2, 1]))", "F.avg_pool2d(x4, [2, 1.5])",
              "F.conv2d(x4, torch.ones(1, 2, 1, 1), stride=[2, 1.5])", "F.avg_pool2d(x4, [2, True])"]),
         ["out"]),
    case("pool-parameter-checks-in-aten-order",  # the 2-D/3-D pools' meta: each int list of one or n ints (their
         # own texts), then pooling_output_shape's stride-zero and pad checks (C's division: kernel -1 passes
         # the half check), then pool2d/3d_shape_check's kernel/stride/dilation > 0
         ["x4 = torch.arange(32.).reshape(1, 2, 4, 4)", "x5 = x4[None]"] + outcomes([
              "F.avg_pool2d(x4, [2, 2, 2])", "F.avg_pool2d(x4, 2, [])", "F.avg_pool2d(x4, 2, [1, 1, 1])",
              "F.max_pool2d(x4, 2, padding=[0, 0, 0])", "F.max_pool2d(x4, 2, dilation=[1, 1, 1])",
              "F.avg_pool3d(x5, [2, 2])", "F.avg_pool3d(x5, 2, [1, 1])", "F.max_pool3d(x5, [2, 2])",
              "F.avg_pool2d(x4, -1)", "F.avg_pool2d(x4, 0)", "F.max_pool2d(x4, 2, -1)", "F.max_pool2d(x4, 2, 0)",
              "F.max_pool2d(x4, 2, dilation=0)", "F.avg_pool2d(x4, 2, padding=-1)", "F.avg_pool3d(x5, [2, -1, 2], 1)",
              "F.max_pool3d(x5, 2, dilation=0)", "F.max_pool3d(x5, 2, -1)",
              "F.max_pool1d(x4[0], [2, 2])", "F.max_pool1d(x4[0], 2, [1, 1])", "F.max_pool1d(x4[0], -1)",
              "F.max_pool1d(x4[0], 2, padding=5)", "F.max_pool1d(x4[0], 2, 0)", "F.max_pool1d(x4[0], 2, dilation=0)",
              "F.max_pool1d(x4[0], [2, 2], return_indices=True)", "F.max_pool1d(x4[0], 2, 0, return_indices=True)",
              "F.avg_pool1d(x4[0], [2, 2])", "F.avg_pool1d(x4[0], 2, [1, 1])", "F.avg_pool1d(x4[0], 2, 1, [0, 0])",
              "F.avg_pool1d(x4[0], -1)"]),
         ["out"]),
    case("tensor-with-dims-is-no-number",  # arange/range's Number parameters take a 0-d tensor, not a tensor with
         # dimensions of one element (agrad took its item()): the parser's TypeError
         [] + outcomes(["torch.arange(torch.tensor([0.5]), 3)", "torch.arange(torch.tensor(0.5), 3)",
                        "torch.arange(0, torch.tensor([[3]]))", "torch.range(0, torch.tensor([3]))",
                        "torch.arange(torch.tensor(2., requires_grad=True))",
                        "torch.linspace(0, torch.tensor(2., requires_grad=True), 3)",
                        "torch.arange(0, 3, torch.tensor(2., requires_grad=True))"]),
         ["out"]),
]
