"""Golden cases of the lead's fixes in session 43 (each names the differential run's group)."""
from __future__ import annotations

from exact_case_form import GRAPH, case, outcomes

CASES = [
    case("ndtr-of-integral-input-no-cast-node",  # (dt43a grad_fn:ndtr) special_ndtr's first mul promotes an
         # integral input: a comparison's result that requires grad keeps GtBackward1 as MulBackward1's edge
         [GRAPH, "a = torch.tensor([1.5, -2.0, 0.25], requires_grad=True)",
          "b = torch.tensor([True, False, True]).greater_(a)", "r = torch.special.ndtr(b)",
          "g = graph(r.grad_fn)",
          "v = [torch.special.ndtr(torch.tensor([0, 1, 3, -2]).to(d)) for d in (torch.bool, torch.uint8, torch.int64)]"],
         ["r", "g", "v"]),
    case("float16-scalar-product-in-float-backward",  # (dt43a grad-numeric:backward) a formula's float16
         # gradient times a number is the kernel's float math with the number read as float (ldexp's ln 2)
         ["x1 = torch.tensor([-0.5, -2.5, -1.5], dtype=torch.float16, requires_grad=True)",
          "x2 = torch.tensor(2.0, requires_grad=True)", "x1.ldexp(x2).sum().backward()",
          "a = torch.tensor([0.37, -1.3, 2.9], dtype=torch.float16, requires_grad=True)",
          "b = torch.tensor([1.1, 0.61], dtype=torch.float16, requires_grad=True)",
          "torch.addr(torch.ones(2, 3, dtype=torch.float16), b, a, alpha=0.37, beta=0.61).sum().backward()"],
         ["x1.grad", "x2.grad", "a.grad", "b.grad"]),
    case("diff-n0-out-copies-input",  # (dt43a raises-only-agrad:diff) diff_out's n = 0: out resized (in its
         # version), its dtype checked, then out.copy_(input): CopyBackwards, prepend and append unread
         [GRAPH, "x = torch.tensor([[1.75, -2.25, 0.0]], requires_grad=True)",
          "o1 = torch.zeros(1, 3)", "r1 = torch.diff(x, n=0, append=torch.ones(1, 2, requires_grad=True), out=o1)",
          "g = graph(r1.grad_fn)", "o2 = torch.zeros(0)", "r2 = torch.diff(x.detach(), n=0, out=o2)",
          "s = (o1._version, o2._version, o2.shape, r1 is o1)"] +
         outcomes(["torch.diff(x, n=0, out=torch.zeros(1, 3, requires_grad=True))",
                   "torch.diff(x, n=0, out=torch.zeros(2, 2, dtype=torch.float64))",
                   "torch.diff(x, n=1, out=torch.zeros(1, 2))",
                   "torch.diff(torch.tensor([[1, 2, 3]]), n=0, out=torch.zeros(1, 3))"]),
         ["r1", "g", "r2", "s", "out"]),
    case("out-versions-of-composites",  # (found beside dt43a's diff) kron_out writes an _unsafe_view of out
         # (its own version counter: out's stays); nanmean_out is nansum_out then div_ (two writes)
         ["a = torch.tensor([[1., 2.]])", "o = torch.zeros(1, 4)", "v = o[:, 1:]", "torch.kron(a, a, out=o)",
          "s1 = (o._version, v._version)", "m = torch.zeros(0)",
          "torch.nanmean(torch.tensor([[1., float('nan')], [2., 3.]]), 1, out=m)", "s2 = (m, m._version)"],
         ["o", "s1", "s2"]),
    case("slice-scatter-src-gradient-is-a-slice",  # (dt43a grad_fn:backward) slice_scatter's src gradient is
         # grad.slice(...): a SliceBackward0 over the whole dim too (x[:] would be an alias)
         [GRAPH, "x = torch.tensor([-0.75, -0.25, 2.25, 0.75], requires_grad=True)",
          "y = torch.tensor([2.0, 2.0, 3.0, 2.25], requires_grad=True)",
          "r = x.slice_scatter(y, dim=0, step=1).exp_()", "r.sum().backward(create_graph=True)",
          "g = graph(y.grad.grad_fn)"],
         ["x.grad", "y.grad", "g"]),
    case("cdist-two-dtypes",  # (dt43b error-type:cdist) the kernel dispatches on x1's dtype (no Half), then reads
         # x2 as it; the matmul path (p = 2, more than 25 rows) refuses as its matmul does; empty: x1's dtype
         ["h, f, d = torch.float16, torch.float32, torch.float64"] +
         outcomes([f"torch.cdist(torch.ones({s}, dtype={a}), torch.ones({s}, dtype={b}), {p}).dtype"
                   for s in ("2, 3, 4", "2, 30, 4", "30, 4", "0, 30, 4") for p in ("2.0", "1.0")
                   for a, b in (("h", "f"), ("f", "h"), ("d", "h"), ("f", "d"))]),
         ["out"]),
    case("bmm-two-dtypes-by-path",  # (found beside dt43b's cdist) bmm_out_or_baddbmm_: its own kernel under 400
         # multiply-adds (batch1's dtype), MKL's gemm for a float/double result over dense batches (the result's),
         # else an mm (baddbmm: addmm_) per batch
         ["h, f, d, i = torch.float16, torch.float32, torch.float64, torch.int32"] +
         outcomes([f"torch.{fn}(torch.zeros(2, {m}, {k}, dtype={a}){sl}, torch.zeros(2, {k}, {m}, dtype={b}))"
                   .replace("torch.baddbmm(", f"torch.baddbmm(torch.zeros(1, dtype={a}), ")
                   for fn in ("bmm", "baddbmm") for m, k, sl in ((5, 6, ""), (9, 6, ""), (9, 12, "[:, :, ::2]"))
                   for a, b in (("h", "f"), ("f", "h"), ("f", "d"), ("i", "f"))]),
         ["out"]),
    case("lerp-0d-weight-promotes",  # (dt43c raises-only-agrad:lerp) a 0-d weight takes part in the promotion and
         # the common dtype is cast into out= safely; a weight with dims must have self's dtype (check_all_same_dtype)
         ["b = torch.tensor([True, False, True])", "c = torch.tensor([False, True, True])"] +
         outcomes([f"torch.lerp(b, c, {w}, out=torch.zeros(3, dtype=torch.{o}))"
                   for w in ("torch.tensor(-2.25)", "torch.tensor(0.5, dtype=torch.float16)", "torch.tensor([0.5, 1.0, 2.0])")
                   for o in ("float16", "float64", "bool")] +
                  ["torch.lerp(b, c, torch.tensor(0.5))",
                   "torch.lerp(torch.ones(2, dtype=torch.float16), torch.zeros(2, dtype=torch.float16), torch.tensor(0.3), "
                   "out=torch.zeros(2, dtype=torch.uint8))",
                   "torch.lerp(torch.ones(2), torch.zeros(2), torch.tensor([0.3, 0.6]), out=torch.zeros(2, dtype=torch.float64))"]),
         ["out"]),
    case("layer-norm-half-input-float-params-backward",  # (dt43c raises-only-torch:grad) the mixed-type kernel:
         # stats in float, d input in float math, d weight / d bias float (NativeLayerNormBackwardBackward0, no cast
         # node); a float bias without a weight runs the half kernel, which refuses the float d bias
         ["x = torch.tensor([[0.25, 0.75, -1.5]], dtype=torch.float16, requires_grad=True)",
          "w = torch.tensor([1.25, 3.0, -0.5], requires_grad=True)", "b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)",
          "g = torch.tensor([[1., 2., -1.]], dtype=torch.float16)",
          "y = torch.layer_norm(x, (3,), w, b)", "gs = torch.autograd.grad(y, [x, w, b], g, create_graph=True)",
          "names = [t.grad_fn.name() for t in gs]",
          "y2 = torch.layer_norm(x, (3,), bias=b)"] +
         outcomes(["torch.autograd.grad(y2, [x, b], g)", "torch.autograd.grad(y2, [x], g)"]),
         ["y", "gs", "names", "out"]),
    case("view-of-a-base-made-overlapping",  # (dt43c value:grad) a view regenerated after its base was as_strided_ to
         # overlapping elements: as_strided_backward in storage space, the base's share divided by how many read it
         ["x = torch.arange(8.).requires_grad_()", "r2 = x * 1", "r3 = r2.view(2, 2, 2)",
          "r2.as_strided_((1, 2), (2, 0), storage_offset=1)",
          "g1 = torch.autograd.grad(r3.sum(), [x], retain_graph=True)",
          "y = torch.arange(8.).requires_grad_()", "b = y * 1", "v = b[2:6]", "b.as_strided_((3,), (0,), storage_offset=3)",
          "g2 = torch.autograd.grad((v * torch.arange(4.)).sum(), [y], create_graph=True)"],
         ["g1", "g2"]),
    case("dt43d-empty-norm-set-lu",  # (dt43d raises-only-torch:pairwise_distance, stride:set_, stride:lu) the norm of
         # an empty last dim with p < 0 or inf refuses as vector_norm does; set_() of a (0,) tensor keeps its strides
         # (resize_impl's shortcut); lu_factor of an empty integer matrix is laid out batched column-major
         ["z = torch.zeros(0, dtype=torch.float64)", "e = torch.zeros(2, 0)",
          "s1 = torch.zeros(0)[::2].set_().stride()", "s2 = torch.zeros(5)[::2].set_().stride()",
          "lu = torch.linalg.lu_factor(torch.zeros(0, dtype=torch.uint8).expand(2, 0))",
          "s3 = (lu[0].shape, lu[0].stride(), lu[1].shape)"] +
         outcomes([f"torch.pairwise_distance({a}, {a}, {p}, eps=-2.0)" for a in ("z", "e")
                   for p in ("-2.0", "float('inf')", "0.5")]),
         ["s1", "s2", "s3", "out"]),
    case("product-out-elements-sharing-memory",  # (dt43d raises-only-torch:matmul) mm/addmm/addmv/baddbmm refuse a
         # kept out whose elements share memory (after the grad refusal, the dtype check and a resize); mv and bmm
         # do not; addr's iterator refuses it first
         ["A = torch.tensor([[-1.5, 0.0], [1.0, -0.75]])", "o = torch.zeros(1, 1).expand(2, 2)",
          "d = torch.zeros(1, 1, dtype=torch.float64).expand(2, 2)"] +
         outcomes(["torch.matmul(A, A, out=o)", "torch.mm(A, A, out=d)", "torch.addmm(A, A, A, out=o)",
                   "torch.addmv(A[0], A, A[0], out=o[0])", "torch.mv(A, A[0], out=o[0]).tolist()",
                   "torch.bmm(A[None], A[None], out=o[None]).tolist()",
                   "torch.baddbmm(A[None], A[None], A[None], out=o[None])", "torch.addr(A, A[0], A[1], out=d)"]),
         ["out"]),
    case("dt43e-ldexp-put-std-add",  # (dt43e value:ldexp, error-text:put_, warning:std, raises-only-torch:add_)
         # ldexp of a float by an integer is the kernel's std::ldexp in double (no 0 * inf, no float32 power);
         # put_ into an empty tensor; std/var into an integral out: the cast check after the resize, before the
         # degrees-of-freedom warning; an in-place op over overlapping memory checks the broadcast shape first
         ["x = torch.tensor([0.0, 1.5, -0.0, float('inf')])", "e = torch.tensor([247, 247, 200, 247], dtype=torch.uint8)",
          "r1 = (x.ldexp(e), x.double().ldexp(e.long()), x.half().ldexp(e.int()))",
          "v = torch.tensor([0, 0]).expand(2, 2)",
          "x1 = torch.tensor([[[3.0, -1.0, 0.0]]])", "o = torch.zeros(5, dtype=torch.int64)"] +
         outcomes(["torch.zeros(0).put_(torch.tensor([0]), torch.tensor([1.0]))",
                   "torch.std(x1, dim=1, out=o)", "o.shape", "v[1:].add_(v)"]),
         ["r1", "out"]),
]
