"""Regression cases of session 31's groups (helper "groupsa"): result layouts (the strides of
dims of one element too, which TensorIterator's later sorts read), and errors.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("scatter-ops-keep-input-strides",  # (dt30 stride:slice_scatter) ATen's clone_preserve_strides: the
         # input's very strides (and storage), gaps of a stepped view too; an expanded input is cloned dense
         ["y = torch.arange(48.).reshape(4, 12)[:, 1::2]", "w = torch.arange(24.).reshape(2, 3, 4)[:, :, ::2]",
          "e = torch.arange(4.).expand(3, 4)", "z = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)"],
         ["torch.slice_scatter(y, torch.zeros(2, 6), 0, 0, 2).stride()",
          "torch.slice_scatter(y, torch.zeros(2, 6), 0, 0, 2).as_strided((4,), (1,), 0)",
          "torch.select_scatter(y, torch.zeros(6), 0, 1).stride()",
          "torch.diagonal_scatter(y, torch.zeros(4)).stride()",
          "torch.slice_scatter(w, torch.zeros(2, 1, 2), 1, 0, 1).stride()",
          "torch.diagonal_scatter(w, torch.zeros(2, 2), 0, 1, 2)",
          "torch.slice_scatter(e, torch.zeros(1, 4), 0, 0, 1).stride()",
          "torch.select_scatter(z, torch.zeros(4, 3), 1, 0).stride()",
          "y.t().slice_scatter(torch.ones(6, 2), 1, 1, 3).stride()"]),
    case("size-one-dims-fast-setup",  # (dt30 stride:%, unary results' strides in size-1 dims) TensorIterator's
         # fast set-up: operands of one shape that are dense with the same strides give the result those
         # strides (dims of one element too), channels-last contiguous ones channels-last strides; a Python
         # number operand (x % 3, fmod, xlogy, copysign) makes the shapes differ: the dims are sorted
         ["x = torch.arange(1., 7., dtype=torch.float64).reshape(1, 3, 1, 2)",
          "b = torch.tensor([1.5, 2.5], dtype=torch.float64).reshape(2, 1, 1).permute(1, 2, 0)",
          "a = torch.tensor([[1], [2], [3], [4]], dtype=torch.int32)"],
         [f"[{e} for z in (x.permute(0, 3, 2, 1), x.permute(2, 0, 3, 1), x.permute(0, 1, 3, 2), x.permute(3, 0, 1, 2), b)]"
          for e in ("z.exp().stride()", "(-z).stride()", "(z + z).stride()", "(z + 1).stride()", "(z % 3).stride()",
                    "torch.fmod(z, 3).stride()", "torch.xlogy(z, 2.0).stride()", "torch.copysign(z, -1.0).stride()",
                    "torch.zeros_like(z).stride()", "z.clone().stride()", "F.hardtanh(z).stride()",
                    "z.nan_to_num().stride()", "z.signbit().stride()", "z.isnan().stride()", "z.int().isinf().stride()",
                    "z.float().stride()", "z.flip(0).stride()", "z.sort(0)[0].stride()")]
         + ["(a % b.exp()).stride()", "(b.exp() % a).stride()", "(a % (b % 3)).stride()", "((b % 3) % a).stride()",
            "(a % F.hardtanh(b)).stride()", "(a.expand(4, 1) * torch.xlogy(b, 2.0)).stride()"]),
    case("size-one-dims-casts-reductions-repeat",  # (dt30 stride:%) a cast of a tensor that is not dense takes
         # infer_dense_strides; a keepdim reduction and repeat are C-contiguous with C's strides of dims of one
         ["x = torch.arange(1., 19.).reshape(3, 1, 3, 2).pow(2).transpose(0, -1).flip(0).split(1)[0]",
          "t = torch.arange(6.).reshape(2, 1, 3).transpose(0, -1)",
          "r = torch.arange(6., dtype=torch.float64).reshape(1, 3, 2, 1).permute(3, 2, 0, 1)"],
         ["x.double().stride()", "x.double().sigmoid().stride()", "x.sigmoid().stride()",
          "[t.sum(0, keepdim=True).stride(), t.sum(-1, keepdim=True).stride(), t.prod(0, keepdim=True).stride()]",
          "[r.repeat(1, 1, 1, 1).stride(), r.repeat(2, 1, 1, 1).stride()]",
          "(t.sum(0, keepdim=True) % 2).stride()"]),
    case("kron-views-strides",  # (dt30 stride:kron) ATen's kron: _unsafe_view(mul(_unsafe_view(self, ...),
         # _unsafe_view(other, ...)), ...): the views' dims of one element take computeStride's strides, which
         # the product's sort of its dims reads
         ["a = torch.arange(1., 9.).reshape(1, 2, 2, 2)",
          "b = torch.arange(1., 3., dtype=torch.float64).reshape(2, 1, 1, 1).mean(-1, keepdim=True).movedim(0, -1).long()",
          "c = torch.arange(1., 7.).reshape(1, 3, 1, 2)[:, :, :, :1].movedim(0, -1)",
          "d = torch.arange(1, 5, dtype=torch.int32).reshape(2, 2)",
          "e = torch.arange(1., 19.).reshape(3, 3, 2, 1).movedim(0, -1).double()",
          "f = torch.arange(1., 3.).reshape(1, 2, 1)"],
         ["b.shape, b.stride()", "torch.kron(a, b).stride()", "torch.kron(b, a).stride()", "torch.kron(c, d).stride()",
          "torch.kron(d.t(), c).stride()", "torch.kron(e, f).stride()", "torch.kron(f, e).stride()",
          "torch.kron(e, f).sum()", "torch.arange(6.).reshape(2, 3).t().reshape(3, 1, 2).stride()"]),
    case("index-fill-checks-in-aten-order",  # (dt30 error-type:index_fill) the value's dims, the index's dtype,
         # the dim, the index's dims; an empty self's restrided storage (setStorage); indices checked only
         # where the kernel visits one
         ["def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return f'{type(e).__name__}: {e}'",
          "i0, f0, e = torch.tensor([0]), torch.tensor([0.0]), torch.tensor([], dtype=torch.int64)"],
         ["[err(lambda: torch.zeros(0).index_fill(0, i, 1.5)) for i in (i0, f0, e, torch.tensor([5]))]",
          "[err(lambda: torch.zeros(0, 2).index_fill(d, i, 1.5)) for d in (0, 1, 2) for i in (i0, f0, torch.tensor([5]))]",
          "[err(lambda: torch.zeros(2, 0, dtype=torch.float64).index_fill_(d, torch.tensor([1, 7]), v)) "
          "for d in (0, 1) for v in (2.0, torch.tensor(2.0), torch.tensor([2.0]))]",
          "[err(lambda: torch.zeros(3)[:0].index_fill_(0, i, True)) for i in (i0, f0)]",
          "[err(lambda: torch.zeros(3).index_fill(0, i, torch.tensor(1.0))) for i in (f0, torch.tensor([0], dtype=torch.int32), "
          "torch.tensor([[0]]))]",
          "[err(lambda: torch.zeros(3).index_fill(d, torch.tensor([[0]]), 1.0)) for d in (0, 3)]",
          "[err(lambda: torch.tensor(2.0).index_fill(0, i, 1.0)) for i in (e, torch.tensor([-1]), torch.tensor(1))]",
          "err(lambda: torch.zeros(3, requires_grad=True)[:0].index_fill(0, i0, 1.0))"]),
    case("ldexp-cast-check-first",  # (dt30/dt31 error-text:ldexp_) ldexp_out's own dtype check, before the
         # shapes, the exponent's dtype and the in-place overlap check
         ["def err(f):\n    try:\n        r = f()\n        return r.dtype, r.shape\n    except Exception as e:\n"
          "        return f'{type(e).__name__}: {e}'",
          "i = torch.tensor([[1], [2], [3]])", "f = torch.tensor([[1.5], [2.0], [-3.0]])"],
         ["[err(lambda: i.clone().ldexp_(b)) for b in (i, f, f.half(), torch.ones(2, 2), i.bool())]",
          "[err(lambda: i.to(d).ldexp_(f)) for d in (torch.int32, torch.uint8, torch.bool)]",
          "[err(lambda: torch.ldexp(i, b, out=torch.zeros(3, 1, dtype=torch.int64))) for b in (i, f, torch.ones(2, 2))]",
          "[err(lambda: torch.ldexp(f, b, out=torch.zeros(3, 1, dtype=torch.float16))) for b in (f, f.double())]",
          "[err(lambda: f.clone().ldexp_(b)) for b in (i.bool(), f.double(), i)]",
          "err(lambda: torch.ones(3, dtype=torch.int64).expand(2, 3).ldexp_(torch.ones(3)))",
          "err(lambda: torch.ones(3).expand(2, 3).ldexp_(torch.ones(3)))",
          "err(lambda: torch.ldexp(i, f, out=torch.zeros(3, 1, requires_grad=True)))"]),
    case("removed-linalg-signatures",  # (dt30/dt31 error-type:symeig) the removed functions' Python stubs:
         # torch.symeig is torch._linalg_utils._symeig, Tensor's methods have signatures of their own
         ["def err(f):\n    try:\n        return f()\n    except Exception as e:\n        return f'{type(e).__name__}: {str(e)[:60]}'",
          "x = torch.ones(2, 2)"],
         ["[err(f) for f in (lambda: x.symeig(upper=0.25), lambda: x.symeig(True, True), lambda: x.symeig(eigenvectors=True), "
          "lambda: x.symeig(out=None), lambda: torch.symeig(x, upper=False), lambda: torch.symeig(x, 1, 2, 3), lambda: torch.symeig())]",
          "[err(f) for f in (lambda: x.eig(e=None), lambda: x.eig(True, True), lambda: torch.eig(x, e=None), lambda: torch.eig(x, foo=2))]",
          "[err(f) for f in (lambda: x.lstsq(), lambda: x.lstsq(A=x), lambda: x.lstsq(other=x), lambda: x.lstsq(x, out=None), "
          "lambda: torch.lstsq(x, A=x), lambda: torch.lstsq(x))]",
          "[err(f) for f in (lambda: x.solve(), lambda: x.solve(A=x), lambda: x.solve(other=x), lambda: torch.solve(x, A=x))]",
          "[err(f) for f in (lambda: torch.matrix_rank(x, symmetric=True), lambda: torch.matrix_rank(x, hermitian=True))]"]),
    case("not-implemented-derivative-before-version-check",  # (dt30/dt31 error-type:backward, grad) a tensor
         # read only by one input's formula is saved only when that input needs its gradient (igamma/igammac's
         # and zeta's self and other for other's, self's being not_implemented; ldexp's other and result)
         ["def err(f):\n    try:\n        f()\n        return 'ok'\n    except Exception as e:\n        return f'{type(e).__name__}: {str(e)[:70]}'",
          "def run(fn, a_grad, x_grad, modify):\n    a0 = torch.tensor([1.5, 2.0, 0.5], requires_grad=a_grad)\n"
          "    x0 = torch.tensor([0.5, 1.0, 2.5], requires_grad=x_grad)\n    a, x = a0 * 1, x0 * 1\n    y = fn(a, x)\n"
          "    (a if modify == 'a' else x).add_(1)\n    return err(lambda: y.sum().backward())",
          "x1 = torch.tensor([[-0.25, 2.0, -2.75, 2.5], [-1.5, -1.5, 2.75, 0.0]], requires_grad=True)", "v2 = x1.mT",
          "r6 = x1[:1].igammac(torch.tensor([[-1.25, -1.0, 2.5, -0.5], [2.5, 0.5, -2.0, 1.5]]))",
          "with torch.no_grad():\n    v2.split(1)[0].mul_(2)"],
         ["err(lambda: r6.sum().backward())"]
         + [f"[run({fn}, *g, m) for g in ((True, False), (False, True), (True, True)) for m in 'ax']"
            for fn in ("torch.igamma", "torch.igammac", "lambda a, x: torch.special.zeta(a + 2, x + 1)", "torch.ldexp",
                       "torch.special.xlog1py")]),
    case("rrelu-bounds-checked-per-draw",  # (dt30 raises-only-agrad:rrelu_) ATen's rrelu_with_noise makes a
         # uniform_real_distribution(lower, upper), with its range check, for each element <= 0 only; the
         # bounds go to float first for float32 (checked); huge bounds' fma exact
         ["def err(f):\n    try:\n        torch.manual_seed(0)\n        return f(), torch.rand(1)\n    except Exception as e:\n"
          "        return f'{type(e).__name__}: {str(e)[:60]}'",
          "i = float('inf')"],
         ["[err(lambda: torch.rrelu_(torch.tensor(x, dtype=d), lo, hi, True)) for x in ([1.0, 2.0], [], [-1.0, 2.0], [float('nan')]) "
          "for d in (torch.float32, torch.float64) for lo, hi in ((0.1, i), (-i, 0.3), (-i, i), (i, i))]",
          "[err(lambda: F.rrelu_(torch.tensor([0.5, 3.0]), lo, hi, training=True)) for lo, hi in ((0.1, i), (-i, -i))]",
          "[err(lambda: torch.rrelu_(torch.tensor([-1.0, 0.5, -2.0], dtype=d), lo, hi, True)) for d in (torch.float32, torch.float64) "
          "for lo, hi in ((0.1, 1e300), (-1e300, 0.2), (0.1, 3e38), (1e300, 1e308))]",
          "err(lambda: torch.empty(4, dtype=torch.float64).uniform_(-1e308, 1e308))"]),
]
