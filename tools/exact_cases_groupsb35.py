"""Regression cases of session 35's groupsb work (issue 10), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


_Z = "((torch.arange({n}.) * 7919 % 1009 - 504) / 37).reshape({shape})"


CASES = [
    case("var-welford-order",  # var/std with several outputs and every var_mean/std_mean: ATen's Welford in
         # double, each slice read in TensorIterator's order (permuted, sliced, expanded inputs); var/std into
         # one element: std_var_all_cpu's two passes; float16 results rounded through float
         ["w = " + _Z.format(n=2640, shape="6, 11, 40") + " + 3", "d = w.double()", "p = w.permute(2, 0, 1)",
          "s = w[:, ::2, 1:]", "e = " + _Z.format(n=160, shape="4, 40, 1") + ".expand(4, 40, 3)",
          "h = w.half()"],
         ["w.var(dim=1).tolist()", "w.std(dim=(0, 2)).tolist()", "d.var(dim=(0, 2), correction=0).tolist()",
          "[t.tolist() for t in torch.var_mean(p, dim=0)]", "[t.tolist() for t in torch.std_mean(p, dim=(1, 2))]",
          "s.var(dim=(0, 2)).tolist()", "s.std(dim=(0, 1, 2)).item()", "s.var().item()", "p.var().item()",
          "[t.tolist() for t in torch.var_mean(e, dim=1)]", "e.std(dim=(0, 1)).tolist()",
          "[t.tolist() for t in torch.var_mean(w)]", "[t.tolist() for t in torch.std_mean(h, dim=(0, 1))]",
          "h.var(dim=2).tolist()", "w[:1, :, :1].var(dim=(0, 1)).tolist()"]),
    case("sum-threaded-columns",  # over GRAIN_SIZE, one reduced dim summed across contiguous columns: PyTorch's
         # threads split the columns at multiples of 128 bytes; each thread's columns summed as on one thread
         ["h = (" + _Z.format(n=700, shape="1, 700") + ").half().expand(60, 700)",
          "f = " + _Z.format(n=60000, shape="300, 200"), "g = f.double().reshape(120, 500)"],
         ["h.sum(dim=0).tolist()", "f.sum(dim=0).tolist()", "g.sum(dim=0).tolist()", "h.float().mean(dim=0).tolist()"]),
    case("crossmaplrn-backward-addcmul-fma",  # CrossMapLRN2d's backward as its Python Function: torch.sum's
         # order for the first window, addcmul_'s kernel as fma(value * t1, t2, self); addcmul itself
         ["x = (" + _Z.format(n=420, shape="2, 7, 5, 6") + " / 4).requires_grad_()",
          "xd = x.detach().double().requires_grad_()", "g = " + _Z.format(n=420, shape="2, 7, 5, 6") + ".flip(0)",
          "m = torch.nn.CrossMapLRN2d(7, alpha=0.05, beta=0.75, k=1.5)",
          "m(x).backward(g)", "m(xd).backward(g.double())",
          "i = torch.arange(2000.)", "a = (i * 7919 % 1009 - 504) / 37", "b = (i * 104729 % 1013 - 500) / 73",
          "c = (i * 3571 % 997 + 1) / 91"],
         ["x.grad.tolist()", "xd.grad.tolist()", "torch.addcmul(a, b, c, value=-0.37).tolist()",
          "a.double().addcmul(b.double(), c.double(), value=0.3).tolist()"]),
    case("silu-backward-nan-bits",  # both the gradient and the input NaN: the kernel's products keep the
         # sigmoid's NaN (sign flipped by -x), vector lanes and scalar tail alike
         ["v = torch.tensor([float('nan'), -float('nan'), 1.5, float('inf')], dtype=torch.float64)",
          "x = v.repeat(4).requires_grad_()", "d = v.repeat_interleave(4)",
          "torch.nn.functional.silu(x).backward(d)", "xf = x.detach().float().requires_grad_()",
          "torch.nn.functional.silu(xf).backward(d.float())"],
         ["x.grad.signbit().tolist()", "xf.grad.signbit().tolist()", "x.grad.isnan().tolist()"]),
    case("int-setitem-history",  # setitem into an integer/bool tensor with a value that requires grad:
         # copy_to's copy_ records nothing; index_put_ and a 0-d value's fill_ of a slice record into any dtype
         ["v = torch.tensor(2.5, requires_grad=True)", "a = torch.arange(6)", "a[a > 2] = v",
          "b = torch.arange(6)", "b[2:4] = v", "c = torch.arange(6)", "c[True] = v", "d = torch.arange(6)",
          "d[0] = v", "e = torch.tensor(3)", "e[...] = v", "f = torch.tensor(3.)", "f[()] = v",
          "g = torch.arange(6).reshape(2, 3)", "g[:, 1] = v", "h = torch.arange(6)", "h[1:3] = v.reshape(1).expand(2)",
          "k = torch.arange(6)", "k[k > 2] = torch.tensor([1.5], requires_grad=True)", "m = torch.zeros(6, dtype=torch.bool)",
          "m[m] = v", "n = torch.arange(6)", "y = n[1:]", "y[y > 2] = v"],
         [f"({t}.requires_grad, {t}.is_leaf, type({t}.grad_fn).__name__, {t}.tolist())"
          for t in "abcdefghkmny"] + ["k.grad_fn.next_functions[1][0].name()", "(a * 2.0).grad_fn.name()"]),
    case("expm1-nan-sign",  # float64 expm1 (Sleef's, tail included): a NaN comes out as it went in, its sign
         # kept past the first vectors too
         ["x = torch.tensor([float('nan'), -float('nan'), 1.5] * 5, dtype=torch.float64)"],
         ["torch.expm1(x).signbit().tolist()", "torch.expm1(x).isnan().tolist()"]),
]
