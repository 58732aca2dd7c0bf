"""Regression cases of helper "bits41" (session 41): ``Tensor.view(dtype)`` and the NaN bits of the
clamp/maximum/minimum family.

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

CASES = [
    case("view-dtype-same-and-other-sizes",  # Tensor.view(dtype): the bytes read as another dtype; a
         # smaller element scales the last dim up, a larger one down (with the strides and the offset)
         ["x = torch.tensor([[1.5, -2.0, 3.0, 0.25], [0.0, -0.0, 65504.0, 1e-3]])",
          "a = x.view(torch.int32)", "b = x.view(dtype=torch.float16)", "c = x.view(torch.float64)",
          "d = x[1:].view(torch.uint8)", "e = x.t().view(torch.int32)", "f = x[:, 2:].view(torch.int64)",
          "g = torch.tensor([True, False, True, True]).view(torch.int8)",
          "h = torch.arange(8, dtype=torch.int16).view(torch.float64)",
          "k = torch.tensor([1, 0, 1], dtype=torch.uint8).view(torch.bool)",
          "m = torch.view_copy(x.t(), torch.int32)"],
         ["a", "b", "c", "d", "e", "f", "g", "h", "k", "m",
          "(b.shape, b.stride(), c.shape, c.stride(), d.storage_offset(), e.stride(), f.stride(), f.storage_offset())",
          "(m.stride(), m.storage_offset())"]),
    case("view-dtype-errors",  # ATen's checks in ATen's order, and the parser's for a dtype with a size
         ["x = torch.arange(12.).view(3, 4)"] + outcomes([
             "torch.tensor(1.).view(torch.int16)", "x[:, :3].view(torch.float64)", "x.view(-1)[1:5].view(torch.float64)",
             "x.t().view(torch.float16)", "x.t().view(torch.float64)", "x[:, 1:3].view(torch.float64)",
             "x.view(4, 3)[:, :2].view(torch.float64)", "x.view(torch.int16, 3)", "x.view(dtype=torch.int16, size=3)",
             "x.view(4, dtype=torch.int16)", "x.view(dtype=None)", "x.view('float')", "x.view()",
             "torch.view_copy(x, dtype=torch.int32, size=(12,))", "x.view(4, 3).view(torch.float32).shape",
             "torch.tensor(2.).expand(3).view(torch.float16)", "torch.empty(4, 0).view(torch.float64)"]),
         ["out"]),
    case("view-dtype-shares-storage-not-autograd",  # not differentiable: no grad_fn, no _base, never requires
         # grad; the version counter is the input's, so a write through it is seen by saved tensors
         ["x = torch.tensor([1.5, -2.0, 3.0, 0.25], requires_grad=True)", "v = x.view(torch.int32)",
          "s = (v.requires_grad, v.grad_fn, v._base, v.is_leaf, x.view(torch.float32).requires_grad)",
          "v.add_(1)", "ver = (x._version, v._version)",
          "y = x.exp()", "y.view(torch.int32).zero_()",
          "try:\n    y.sum().backward()\nexcept RuntimeError as ex:\n    err = str(ex)[:80]",
          "z = torch.zeros(4)", "w = z.view(torch.int32)", "w[1] = 1065353216", "u = w[2:]", "u.fill_(1073741824)",
          "p = (u._base is w, u.data_ptr() - z.data_ptr(), z.view(torch.int16)[3:].data_ptr() - z.data_ptr())",
          "e = torch.arange(8.)[7:7].view(torch.int16).storage_offset()",
          "with torch.inference_mode():\n    i = torch.ones(2)\n    iv = i.view(torch.int32)",
          "inf = (iv.is_inference(), i.view(torch.int16).is_inference(), i.view(torch.int16)._version)"],
         ["s", "x", "ver", "err", "z", "p", "e", "inf"]),
    case("extremum-nan-bits-vector-and-tail",  # (repr:untyped_storage, dt40c) AVX2's max/min code ORs its NaN
         # mask in: a NaN made in the vector lanes has every bit set; the scalar tail gives quiet_NaN() (clamp
         # with both tensor bounds: self's own NaN); float64's blocks are 8, float16's 32; a strided operand runs
         # the scalar loop throughout; fmax/fmin quiet a signaling NaN and give the second of two NaNs
         ["x1 = torch.tensor([[[1.25, 1.5, -2.25, 1.75]], [[0.0, 1.25, -1.5, -3.0]], [[-3.0, -3.0, 0.0, 1.5]], "
          "[[2.5, -1.5, 0.0, 0.25]]])",
          "m1 = torch.tensor([[[2.75, -1.0, 2.5, 1.0]], [[1.0, -2.75, 1.5, 0.5]], [[float('nan'), 2.0, 0.5, 0.0]], "
          "[[-0.5, -2.5, -3.0, 0.25]]])",
          "r1 = torch.clamp_min(x1, m1)", "s1 = list(r1.untyped_storage())[32:36]",
          "a = torch.arange(20.)", "a[0] = a[17] = float('nan')", "b = torch.zeros(20)", "b[5] = b[19] = -float('nan')",
          "bits = [torch.maximum(a, b).view(torch.int32), torch.minimum(b, a).view(torch.int32),"
          " torch.clamp_max(a, b).view(torch.int32), torch.clamp(a, min=b).view(torch.int32),"
          " torch.clamp(a, b, b + 1).view(torch.int32), torch.clamp(a, -b, b).view(torch.int32),"
          " torch.max(a.double(), b.double()).view(torch.int64), torch.maximum(a.half(), b.half()).view(torch.int16),"
          " torch.maximum(a[::2], b[::2]).view(torch.int32), torch.maximum(torch.cat([a, a]), b.repeat(2)).view(torch.int32)]",
          "c = a.clone()", "c.clamp_min_(b)", "inplace = c.view(torch.int32)",
          "z = torch.tensor([0.0] * 20)", "nz = torch.tensor([-0.0] * 20)",
          "ties = [torch.maximum(z, nz).view(torch.int32), torch.minimum(nz, z).view(torch.int32)]",
          "s = torch.tensor([2139095041, 2143289344, 2143289349, -8388606] * 5, dtype=torch.int32).view(torch.float32)",
          "f = torch.tensor([5.0, float('nan')] * 10)",
          "fm = [torch.fmax(s, f).view(torch.int32), torch.fmin(f, s).view(torch.int32), torch.fmax(s, s.flip(0)).view(torch.int32)]"],
         ["s1", "bits", "inplace", "ties", "fm"]),
    case("float16-conversion-nan-bits",  # float16 to float32 of a dense tensor: blocks of 8 make a NaN quiet,
         # the elements after the last whole block give 0x7fffffff; not dense: quiet; to float64: quiet; to
         # float16: the quiet bit set (numpy kept a signaling NaN signaling); type promotion converts alike
         ["h = torch.tensor([-1, 32257, -512, 31745] * 5, dtype=torch.int16).view(torch.float16)",
          "a = h.float().view(torch.int32)", "b = h[::2].float().view(torch.int32)", "c = h.double().view(torch.int64)",
          "d = (h * torch.ones(20)).view(torch.int32)", "e = h.view(4, 5).t().float().view(torch.int32)",
          "f = torch.tensor([2139095041, -8388606, 2143289345], dtype=torch.int32).view(torch.float32).half().view(torch.int16)",
          "g = torch.tensor([9218868437227405313], dtype=torch.int64).view(torch.float64).half().view(torch.int16)",
          "k = torch.zeros(20)", "k.copy_(h)", "k = k.view(torch.int32)",
          "m = torch.zeros(3, dtype=torch.float16)", "m[...] = torch.tensor([2139095041, -8388606, 2143289345], "
          "dtype=torch.int32).view(torch.float32)", "m = m.view(torch.int16)"],
         ["a", "b", "c", "d", "e", "f", "g", "k", "m"]),
    case("binary-cross-entropy-float32-glibc-logs",  # (numeric:binary_cross_entropy, own run 41460000) the
         # kernel's scalar loop calls glibc's logf/log1pf: numpy's float32 log is an ulp off in ~20% of inputs
         ["x7 = (torch.tensor([[2.5, -0.25, 2.5], [-1.0, 0.25, 1.5]], dtype=torch.float32).sigmoid()).requires_grad_()",
          "x8 = torch.tensor([[2.0, 2.75, 0.5], [-0.25, 0.25, -0.5]], dtype=torch.float32).sigmoid()",
          "x9 = torch.tensor([[-1.0, -1.25, -1.0], [2.0, -3.0, 2.5]], dtype=torch.float64)",
          "r10 = F.binary_cross_entropy(x7, x8, weight=x9)",
          "u = torch.linspace(0.001, 0.999, 97)",
          "r11 = F.binary_cross_entropy(u, u.flip(0), reduction='none').view(torch.int32)"],
         ["r10", "r11"]),
]
