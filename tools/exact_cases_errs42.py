"""Regression cases of helper "errs42" (session 42): leftover groups of the lead's run dt41e.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


def _err(i, stmt):
    return f"try:\n    {stmt}\nexcept Exception as e:\n    err{i} = type(e).__name__ + ': ' + str(e)"


CASES = [
    case("diag-out-cast-check-then-fallback",  # (error-text:diag, dt41e) torch.diag of a vector into out=:
         # the result type must cast to out's first ("diag: result type ..."), then diag_embed's out overload
         # runs (autograd's fallback: an input that requires grad gives out a NotImplemented node); a matrix's
         # is diagonal_copy's
         ["x1 = torch.tensor([9, 8, 7], dtype=torch.uint8)", "o1 = torch.zeros(0, dtype=torch.bool)",
          _err(1, "torch.diag(x1, out=o1)"),
          "o2 = torch.zeros(0, dtype=torch.int64)", _err(2, "torch.diag(x1, out=o2)"),
          _err(3, "torch.diag(x1.reshape(3, 1).expand(3, 3), out=o1)"),
          "x4 = torch.tensor([1.5, -2.0], requires_grad=True)", "o4 = torch.zeros(0)",
          "r4 = torch.diag(x4, out=o4)", "n4 = type(o4.grad_fn).__name__",
          _err(5, "o4.sum().backward()"),
          "o6 = torch.zeros(0, requires_grad=True)", _err(6, "torch.diag(x4, out=o6)"),
          "x7 = torch.ones(2, 2, requires_grad=True)", "o7 = torch.zeros(0)", "torch.diag(x7, out=o7)",
          _err(7, "o7.sum().backward()")],
         ["err1", "err2", "err3", "o4", "n4", "err5", "err6", "o7", "err7"]),
    case("view-copy-outs-autograd-fallback",  # (found probing diag's family) the view ops' copies into
         # out= (view_copy.out, ...) are ATen-generated overloads with no autograd kernel: an input that
         # requires grad is not refused, out takes a NotImplemented node; an out that requires grad is
         # refused as aten::NAME
         ["x1 = torch.ones(2, 3, requires_grad=True)", "o1 = torch.zeros(0)",
          "torch.transpose_copy(x1, 0, 1, out=o1)", "n1 = type(o1.grad_fn).__name__",
          _err(1, "o1.sum().backward()"),
          "o2 = torch.zeros(0, requires_grad=True)", _err(2, "torch.view_copy(x1, [6], out=o2)"),
          "o3 = torch.zeros(0, dtype=torch.float64)", _err(3, "torch.select_copy(x1, 0, 1, out=o3)"),
          "b4 = torch.zeros(2, 6)", "torch.view_copy(x1, [6], out=b4[1])", "n4 = type(b4.grad_fn).__name__",
          "o5 = torch.zeros(0)", _err(5, "torch.narrow_copy(x1, 0, 0, 1, out=o5)")],
         ["n1", "err1", "err2", "err3", "b4", "n4", "err5"]),
    case("histogram-outs-checks-order",  # (error-text:histogram, dt41e) histogramdd_prepare_out's
         # texts (bin_edges' names its dimension) and ATen's order: for a bin count the outs' dtypes come
         # before the input's dtype and the range; for edges given, the edges' and weight's checks first
         ["x1 = torch.tensor([1.0, 0.0, 2.0], dtype=torch.float64)",
          "o1 = (torch.zeros(0, dtype=torch.float64), torch.zeros(0, dtype=torch.int32))",
          _err(1, "torch.histogram(x1, 1, out=o1)"),
          "x2 = torch.tensor([1, 0, 2])",
          "o2 = (torch.zeros(0, dtype=torch.float64), torch.zeros(0, dtype=torch.float64))",
          _err(2, "torch.histogram(x2, 3, out=o2)"),
          "o3 = (torch.zeros(0, dtype=torch.int64), torch.zeros(0, dtype=torch.int64))",
          _err(3, "torch.histogram(x2, 3, range=(0, 1), out=o3)"), "s3 = [tuple(t.shape) for t in o3]",
          "o4 = (torch.zeros(0, dtype=torch.float32), torch.zeros(0, dtype=torch.float64))",
          _err(4, "torch.histogram(x1, torch.tensor([0.0, 1.0]), weight=torch.ones(3), out=o4)")],
         ["err1", "err2", "err3", "s3", "err4"]),
    case("histogram-out-bin-edges-rebased-on-output-0",  # (raises-only-torch:backward, dt41e) autograd's
         # fallback rebases each out onto output 0 of its NotImplemented node: bin_edges' backward reaches it,
         # its gradient checked against output 0's shape (hist's): PyTorch's validate_outputs error
         ["x1 = torch.tensor([1.0, 2.0], requires_grad=True)", "h1 = torch.zeros(0)", "e1 = torch.zeros(0)",
          "torch.histogram(x1, 3, out=(h1, e1))", "nr = (h1.output_nr, e1.output_nr)",
          "same = h1.grad_fn is e1.grad_fn", _err(1, "h1.sum().backward()"),
          _err(2, "e1.sum().backward()"), _err(3, "(e1 * 2).sum().backward(create_graph=True)")],
         ["nr", "same", "err1", "err2", "err3"]),
    case("out-refusal-names-of-composites",  # (error-text:logsigmoid, dt41e) the out overload autograd
         # refuses is the composite's inner one: log_sigmoid_forward, linalg_lu_factor_ex, _linalg_slogdet,
         # _linalg_solve_ex, multi_dot's last mm (log_sigmoid's before out is resized)
         ["x1 = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)",
          "o1 = torch.zeros(3)", _err(1, "F.logsigmoid(x1, out=o1)"), "s1 = o1.shape",
          _err(2, "torch.linalg.lu_factor(x1, out=(torch.zeros(0), torch.zeros(0, dtype=torch.int32)))"),
          _err(3, "torch.linalg.slogdet(x1, out=(torch.zeros(0), torch.zeros(0)))"),
          _err(4, "torch.linalg.solve_ex(x1, x1, out=(torch.zeros(0), torch.zeros(0, dtype=torch.int32)))"),
          _err(5, "torch.linalg.multi_dot([x1, x1, x1], out=torch.zeros(0))")],
         ["err1", "s1", "err2", "err3", "err4", "err5"]),
    case("svd-outs-meta-order",  # (shape:svd, dt41e) torch.svd(out=) transposes V in place, runs
         # linalg_svd's out overload into (U, S, V) (its meta: U, then Vh, then S, each checked and resized
         # column-major in turn) and transposes V back; without compute_uv, U's and V's dtypes come first
         ["x = torch.tensor([[[1.75, 0.0, -0.75, 2.5], [3.0, -2.0, 0.0, 0.0]]] * 3)",
          "o1 = (torch.zeros(0), torch.zeros(0, dtype=torch.int64), torch.zeros(2, 2, dtype=torch.uint8))",
          _err(1, "torch.svd(x, True, out=o1)"), "s1 = [(tuple(t.shape), t.stride()) for t in o1]",
          "o2 = (torch.zeros(0), torch.zeros(2, 2, dtype=torch.float64), torch.zeros(0))",
          _err(2, "torch.svd(x, out=o2)"), "s2 = [(tuple(t.shape), t.stride()) for t in o2]",
          "o3 = (torch.zeros(0), torch.zeros(0, dtype=torch.float64), torch.zeros(0, dtype=torch.uint8))",
          _err(3, "torch.svd(x, compute_uv=False, out=o3)"),
          "o4 = (torch.zeros(0), torch.zeros(0), torch.zeros(0, dtype=torch.float64))",
          _err(4, "torch.linalg.svd(x, out=o4)"), "s4 = [(tuple(t.shape), t.stride()) for t in o4]",
          "o5 = (torch.zeros(0), torch.zeros(0), torch.zeros(0))", "r5 = torch.svd(x, out=o5)",
          "s5 = [(tuple(t.shape), t.stride()) for t in o5]", "o6 = torch.zeros(0)", "torch.linalg.svdvals(x, out=o6)"],
         ["err1", "s1", "err2", "s2", "err3", "err4", "s4", "s5", "type(r5).__name__", "o6"]),
    case("huge-int-scalar-parsed-first",  # (note41) a Python int past int64 given for a Scalar: the parser's
         # OverflowError (past uint64) comes before float_power_'s dtype check, sub's bool check, pow_'s
         # negative-power check, clamp's bounds and an in-place op's leaf check; one in uint64's range beside a
         # bool tensor is a UInt64 Scalar whose promotion PyTorch refuses (pow's meta: its toLong())
         ["x = torch.ones(2)", "b = torch.ones(2, dtype=torch.bool)", "i = torch.ones(2, dtype=torch.int64)",
          "leaf = torch.ones(2, requires_grad=True)",
          _err(1, "x.float_power_(2 ** 70)"), _err(2, "x.float_power(-2 ** 70)"), _err(3, "b.sub(2 ** 70)"),
          _err(4, "i.pow_(-2 ** 70)"), _err(5, "x.clamp_(2 ** 70)"), _err(6, "leaf.mul_(2 ** 70)"),
          _err(7, "x.fmod_(2 ** 64)"), _err(8, "b.add_(2 ** 63)"), _err(9, "b.remainder(2 ** 63)"),
          _err(10, "b.pow(2 ** 63)"), "r11 = i.add(2 ** 63 + 5)"],
         ["err1", "err2", "err3", "err4", "err5", "err6", "err7", "err8", "err9", "err10", "r11"]),
    case("inplace-clone-of-non-float-self-first",  # (runs41's renorm_ group) renorm_, abs_, square_, cumprod_,
         # nan_to_num_, mvlgamma_ of a bool/long tensor that requires grad (lt_ with an other that requires
         # grad makes one): VariableType's self.clone() refuses its dtype before the op's own checks
         ["t = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)",
          "def made(dt):\n    r = torch.zeros(3, dtype=dt)\n    r.lt_(t)\n    return r",
          _err(1, "made(torch.bool).renorm_(2, 0, 1.0)"), _err(2, "made(torch.bool).abs_()"),
          _err(3, "made(torch.bool).square_()"), _err(4, "made(torch.bool).cumprod_(0)"),
          _err(5, "made(torch.int64).nan_to_num_()"), _err(6, "made(torch.bool).mvlgamma_(1)"),
          _err(7, "made(torch.int64).renorm_(2, 0, 1.0)"), "r8 = torch.zeros(3, dtype=torch.int64).nan_to_num_()"],
         ["err1", "err2", "err3", "err4", "err5", "err6", "err7", "r8"]),
    case("interpolate-tensor-scale-factor-parser",  # (outs41's note) F.interpolate hands its scale factors
         # to the upsample op as given: a tensor first in them is the op's parser error (its overload list,
         # per mode and rank); area and recompute_scale_factor compute the size in Python instead
         ["x1 = torch.ones(1, 2, 4)", "x2 = torch.ones(1, 2, 4, 4)",
          _err(1, "F.interpolate(x1, scale_factor=torch.tensor(2.0))"),
          _err(2, "F.interpolate(x2, scale_factor=[torch.tensor(2.0), 2.0], mode='bilinear')"),
          _err(3, "F.interpolate(x2, scale_factor=(torch.tensor(2.0), 2), mode='bicubic', antialias=True)"),
          _err(4, "F.interpolate(x1, scale_factor=(torch.tensor(2.0),), mode='nearest-exact')"),
          "r5 = F.interpolate(x1, scale_factor=torch.tensor(2.0), mode='area')",
          "r6 = F.interpolate(x2, scale_factor=[2.0, torch.tensor(2)])",
          "r7 = F.interpolate(x1, scale_factor=torch.tensor(2.0), mode='linear', recompute_scale_factor=True)",
          _err(8, "F.interpolate(x2, scale_factor=torch.tensor([2.0, 2.0]), mode='area')")],
         ["err1", "err2", "err3", "err4", "r5.shape", "r6.shape", "r7", "err8"]),
    case("out-refusal-before-op-checks",  # (found probing the logsigmoid group) an out overload with a
         # derivative (or a composite handing out= on first) refuses an argument that requires grad in its
         # VariableType, before the op's own checks (dims, shapes, index dtypes, k, modes)
         ["x = torch.ones(2, 3, requires_grad=True)", "z = torch.zeros(0)", "i = torch.zeros(0, dtype=torch.int64)",
          _err(1, "torch.sort(x, 5, out=(z, i))"), _err(2, "torch.topk(x, 5, out=(z, i))"),
          _err(3, "torch.index_select(x, 0, torch.tensor([0.]), out=z)"), _err(4, "torch.mm(x, x, out=z)"),
          _err(5, "torch.linalg.cholesky(x, out=z)"), _err(6, "torch.linalg.qr(x, mode='x', out=(z, z))"),
          _err(7, "torch.max(x, torch.ones(2, 2), out=z)"), _err(8, "torch.max(x, 5, out=(z, i))"),
          _err(9, "torch.pow(x, torch.ones(2, 2), out=z)"), _err(10, "torch.mean(x, 5, out=z)"),
          _err(11, "torch.diag(torch.ones(2, 2, 2), out=z)"), _err(12, "torch.linalg.det(x, out=z)"),
          "with torch.no_grad():\n    r13 = torch.mm(x, x.t(), out=torch.zeros(0))"],
         ["err1", "err2", "err3", "err4", "err5", "err6", "err7", "err8", "err9", "err10", "err11", "err12", "r13"]),
    case("mode-out-unsqueezed-where-it-can",  # (warning:mode, own run 41600000) mode's kernel unsqueezes
         # each out at dim (not keepdim) wherever dim is a place of its dims, then resizes it to the kept shape:
         # a 0-d out and a reduced dim past its rank are resized as they are (the warning's shape); a 0-d
         # input's outs are resize_({})'d quietly (its trivial case, own run 41609000)
         ["x = torch.ones(2, 3)", "x3 = torch.ones(2, 3, 4)",
          "o1, i1 = torch.zeros(1), torch.tensor(0)", "torch.mode(x, 1, out=(o1, i1))",
          "o2, i2 = torch.zeros(5), torch.zeros(0, dtype=torch.int64)", "torch.mode(x3, 2, out=(o2, i2))",
          "o3, i3 = torch.zeros(()), torch.zeros(0, dtype=torch.int64)", "torch.mode(x, 0, out=(o3, i3))",
          "o4, i4 = torch.zeros(2), torch.zeros(3, dtype=torch.int64)", "torch.mode(torch.tensor(-3.), out=(o4, i4))"],
         ["o1.shape", "i1.shape", "o2.shape", "o3.shape", "o4", "i4"]),
    case("lu-factor-non-square-reciprocal-and-outs",  # (raises-only-agrad:lu_factor, dt41e) MKL's getrf
         # scales a column by the pivot's reciprocal in every matrix that is not square (the division of the
         # last element below the pivot is the square kernels' only): the 2 x 3 matrix's U[1,1] is 2.2e-16,
         # not zero, and lu_factor does not raise; the outs' meta sets LU (column-major) before the pivots' check
         ["x = torch.tensor([[-2.25, -2.25, 0.5], [1.75, 1.75, 0.75]], dtype=torch.float64)",
          "lu, piv = torch.linalg.lu_factor(x)", "bits = lu.view(torch.int64)",
          "o = (torch.zeros(0, dtype=torch.float64), torch.zeros(0, dtype=torch.int64))",
          _err(1, "torch.linalg.lu_factor(x.expand(2, 2, 3), out=o)"), "s1 = [(tuple(t.shape), t.stride()) for t in o]",
          "p = (torch.zeros(0), torch.zeros(0, dtype=torch.float64), torch.zeros(0))",
          _err(2, "torch.linalg.lu(x.float(), out=p)"), "s2 = [(tuple(t.shape), t.stride()) for t in p]"],
         ["bits", "piv", "err1", "s1", "err2", "s2"]),
    case("linspace-integral-ends-checked",  # (error-type:histogram, own run 41606000) linspace/logspace of an
         # integral dtype take their ends through the checked Scalar conversion: outside the dtype PyTorch
         # refuses them (histogram of a uint8 input over range=(-2, 2) too); uint8's negative ints wrap round
         [_err(1, "torch.linspace(-2.0, 2.0, 5, dtype=torch.uint8)"), _err(2, "torch.logspace(0, 300, 3, dtype=torch.int8)"),
          _err(3, "torch.histogram(torch.tensor([4, 3, 9], dtype=torch.uint8), range=(-2.0, 2.0))"),
          "r4 = torch.linspace(-1, 2, 3, dtype=torch.uint8)", "r5 = torch.linspace(0.5, 2.5, 3, dtype=torch.int16)"],
         ["err1", "err2", "err3", "r4", "r5"]),
    case("factory-dtype-must-match-out",  # (raises-only-torch:linspace, own run 41612000) a factory given both
         # dtype= and out=: its Python binding refuses a dtype that is not out's, before anything else
         ["o = torch.tensor([3])", _err(1, "torch.linspace(2, torch.tensor(1.25), 1, dtype=torch.bool, out=o)"),
          _err(2, "torch.arange(3, dtype=torch.float32, out=o)"), _err(3, "torch.zeros(2, dtype=torch.bool, out=o)"),
          _err(4, "torch.randn(2, dtype=torch.float32, out=o)"), "r5 = torch.ones(2, dtype=torch.int64, out=o)"],
         ["err1", "err2", "err3", "err4", "r5"]),
    case("cond-singular-batch-inverse-recorded",  # (grad_fn:cond, own run 41618000) linalg.cond with a norm
         # order takes linalg_inv_ex of the whole batch (recorded) and masks a singular matrix's inverse with inf
         # in place (MaskedFillBackward0), so its graph holds the inverse path and a backward refuses the
         # modified saved tensor
         ["x = torch.tensor([[[0.0]], [[1.0]], [[2.25]], [[-2.75]]], dtype=torch.float64, requires_grad=True)",
          "r = torch.linalg.cond(x, p=float('inf'))", "names = []",
          "todo = [r.grad_fn]\nwhile todo:\n    f = todo.pop(0)\n    if f is not None:\n"
          "        names.append(f.name())\n        todo.extend(n for n, _ in f.next_functions)",
          _err(1, "r.sum().backward()")],
         ["r", "names", "err1"]),
]
