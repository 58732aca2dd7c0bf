"""Regression cases of helper "runs44b" (session 44).

Same form as tools/exact_cases.py: ``{"id": group name, "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case

# float32 NaNs of distinct payloads and signs (the third and fourth signaling), as int32 bits
_NANS32 = "[0x7fc00001, -0x3ffffe, 0x7f800003, -0x7ffffc, 0x7fc00005, -0x400000, 0x7f800007, 0x7fc00008]"
_NANS32B = "[-0x3ffff0, 0x7fc00011, -0x7fffee, 0x7f800013, 0x7fc00014, 0x7fc00000, -0x3fffea, 0x7f800017]"

CASES = [
    case("mul-nan-of-two-nans-by-lanes",  # (issue 10) PyTorch's float32/float64 mul gives, where both
         # operands are NaN, one of them quieted as its compiled loops pick: blocks of two AVX2 vectors
         # other's, the vectorised tail after them self's in 4-wide (2-wide) steps, a CPU scalar's in
         # the tail's first 1 + 4k, a strided row's other's; numpy's loops picked otherwise
         [f"a = torch.tensor({_NANS32} * 5, dtype=torch.int32).view(torch.float32)",
          f"b = torch.tensor({_NANS32B} * 5, dtype=torch.int32).view(torch.float32)",
          "bits = lambda t: t.view(torch.int32 if t.dtype == torch.float32 else torch.int64).tolist()",
          "r1 = bits(a[:31] * b[:31])", "r2 = bits(a[:23] * b[1])", "r3 = bits(a[2] * b[:23])",
          "r4 = bits(a[::2] * b[1::2])", "r5 = bits(a[:15].clone().mul_(b[:15]))",
          "r6 = bits(a[:7] * float('nan'))", "r7 = bits(-float('nan') * a[:6])",
          "o = torch.empty(0)", "torch.mul(a[:12], b[:12], out=o)", "r8 = bits(o)",
          "r9 = bits(a[:15].double() * b[:15].double())", "r10 = bits(a[:7].double() * b[3].double())",
          "r11 = bits(a[:30].reshape(3, 10) * b[:3].reshape(3, 1))", "r12 = bits(float('nan') / a[:9])",
          "r13 = bits(a[:12] / b[:12])"],
         [f"r{i}" for i in range(1, 14)]),
    case("half-mul-nan-of-two-nans-by-lanes",  # (issue 10) float16 mul: blocks of 32 and the contiguous
         # tail self's NaN (a row of one element other's); beside a one-element other (a number, 0-d,
         # expanded) the reduced-float kernel over self alone: other's; other repeating along a row:
         # the block's first 16 self's, the last 16 other's, each tail's first element other's
         ["a = torch.tensor([0x7e01, -0x1fe, 0x7c03] * 24, dtype=torch.int16).view(torch.float16)",
          "b = torch.tensor([-0x1ef, 0x7e11, 0x7c13] * 24, dtype=torch.int16).view(torch.float16)",
          "bits = lambda t: t.view(torch.int16).tolist()",
          "r1 = bits(a[:35] * b[:35])", "r2 = bits(a[:1] * b[:1])", "r3 = bits(a[:5] * b[4])",
          "r4 = bits(a[:36] * float('nan'))", "r5 = bits(a[:1].expand(35) * b[:35])",
          "r6 = bits(a[:70].reshape(2, 35) * b[:2].reshape(2, 1))", "r7 = bits(a[1].expand(34) * b[2].expand(34))"],
         ["r1", "r2", "r3", "r4", "r5", "r6", "r7"]),
    case("mul-backward-nan-of-two-nans",  # (issue 10) MulBackward0's grad * other and grad * self are
         # mul's kernel: its NaN of two NaNs (the gradient the first operand)
         [f"a = torch.tensor({_NANS32} * 3, dtype=torch.int32).view(torch.float32).requires_grad_()",
          f"b = torch.tensor({_NANS32B} * 3, dtype=torch.int32).view(torch.float32).requires_grad_()",
          "g = torch.tensor([0x7fc00021, -0x3fffde, 0x7f800023, 1065353216] * 6, dtype=torch.int32).view(torch.float32)",
          "(a * b).backward(g[:24])", "x = torch.tensor([0.5] * 9, dtype=torch.float64, requires_grad=True)",
          "(x * float('nan')).backward(torch.full((9,), float('nan'), dtype=torch.float64).neg())",
          "bits = lambda t: t.view(torch.int32 if t.dtype == torch.float32 else torch.int64).tolist()",
          "r1 = bits(a.grad)", "r2 = bits(b.grad)", "r3 = bits(x.grad)"],
         ["r1", "r2", "r3"]),
    case("empty-view-offset-past-storage-end",  # (issue 10) an empty view may lie past its storage's end
         # (as_strided, set_, slicing and views of such a view): its storage_offset() is PyTorch's, unclamped,
         # and view(dtype) checks it; as_strided's negative offset: setStrided's own text, after the bounds
         ["x = torch.arange(6.)", "e = x.as_strided((0, 3), (3, 1), 9)",
          "r1 = [e.storage_offset(), e[:, 1:].storage_offset(), e[:, 2].storage_offset(), e.t().storage_offset(),"
          " e.view(torch.int16).storage_offset(), e.reshape(-1).storage_offset(), e.narrow(1, 1, 2).storage_offset(),"
          " [t.storage_offset() for t in e.unbind(1)], e.view(torch.int16).view(torch.float32).storage_offset(),"
          " e.as_strided((0,), (1,)).storage_offset(), e.clone().storage_offset()]",
          "try:\n    e.view(torch.float64)\nexcept RuntimeError as err:\n    r2 = str(err)",
          "h = x.view(torch.float16).as_strided((0, 4), (4, 1), 14)", "r3 = h.view(torch.float32).storage_offset()",
          "try:\n    h.view(torch.float64)\nexcept RuntimeError as err:\n    r4 = str(err)",
          "s = torch.empty(0).set_(x.untyped_storage(), 30, (0, 2))", "r5 = [s.storage_offset(), s.stride()]",
          "try:\n    x.as_strided((0,), (1,), -1)\nexcept RuntimeError as err:\n    r6 = str(err)",
          "try:\n    x.as_strided((2,), (1,), -1)\nexcept RuntimeError as err:\n    r7 = str(err)",
          "r8 = torch.empty(0).as_strided((0,), (1,), 5).storage_offset()"],
         ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "e"]),
    case("empty-diagonal-and-resize-keep-storage-offset",  # (issue 10, nearby) ATen's diagonal skips the
         # offset's adjustment when the diagonal is empty; resize_ to an empty shape keeps the storage offset
         # (past the storage's end too) and does not grow the storage
         ["r1 = [torch.zeros(0, 3).diagonal(1).storage_offset(), torch.zeros(3, 0).diagonal(-2).storage_offset(),"
          " torch.zeros(2, 3).diagonal(2).storage_offset(), torch.zeros(2, 3)[1:].diagonal(4).storage_offset()]",
          "x = torch.arange(6.)", "v = x[3:]", "v.resize_(0, 2)", "w = x.as_strided((0,), (1,), 9)", "w.resize_(0)",
          "r2 = [v.storage_offset(), v.stride(), w.storage_offset(), x.untyped_storage().nbytes()]"],
         ["r1", "r2"]),
    case("tensor-norm-positional-dtype",  # (raises-only-agrad:norm, run 42600000) Tensor.norm(p, dim, keepdim,
         # dtype): torch/_tensor.py's signature has no out, a fourth positional argument is the dtype (agrad's
         # method was torch.norm's, taking it for out= and refusing a tensor that requires grad)
         ["x = torch.tensor([[3.0, 4.0]], requires_grad=True)",
          "r1 = x[0].norm(-1.5, -1, False, torch.float64)", "r2 = x.norm('fro', None, True, torch.float64)",
          "r3 = x.norm(2, 1, False, None)",
          "try:\n    x.norm(2, 1, False, torch.float64, 5)\nexcept TypeError as e:\n    r4 = str(e)",
          "try:\n    x.norm(2, 1, out=torch.empty(0))\nexcept TypeError as e:\n    r5 = str(e)",
          "r1.backward()"],
         ["r1", "r2", "r3", "r4", "r5", "x.grad"]),
    case("addcdiv-integer-tensor2-fill-overflow",  # (error-text:backward, run 42600000) tensor1's gradient
         # grad * (value / tensor2) is C++'s empty_like(tensor2).fill_(value).div_(tensor2): an integer tensor2
         # refuses a value its dtype cannot hold (fill_'s overflow) before the division's cast
         ["t = torch.tensor([[3.0, -1.25, 0.0]], requires_grad=True)",
          "r = []",
          "for dt, v in ((torch.int64, float('inf')), (torch.int64, 0.5), (torch.uint8, 300), (torch.int32, -1e10),"
          " (torch.bool, float('nan'))):\n"
          "    try:\n        torch.addcdiv(torch.zeros(3), t, torch.tensor([1, 2, 4], dtype=dt), value=v).sum().backward()\n"
          "    except RuntimeError as e:\n        r.append(str(e))"],
         ["r"]),
    case("conv3d-weight-grad-skips-padding",  # (grad-value:backward, run 42603000) oneDNN's jit:avx2 backward-
         # weights kernel takes 3-D float32 convolutions too (no depth padding at either end): it never reads the
         # padding, so an inf of the output gradient over a padded position makes no NaN in the weight's gradient
         ["x9 = (torch.tensor([[[[[-2.25, 2.25, -2.0], [0.25, -1.75, 2.5], [3.0, 0.0, 3.0]]], [[[-2.0, float('nan'), 0.5], [-1.25, 0.0, 1.25], [2.75, 1.75, -0.75]]]], [[[[-0.25, -0.25, -2.5], [1.5, float('-inf'), 0.5], [-0.5, 0.5, -0.5]]], [[[-2.5, 2.75, -0.0], [0.0, float('nan'), 0.0], [-2.0, -2.0, 1.0]]]]], dtype=torch.float32)).requires_grad_()", "x10 = (torch.tensor([[[[[-2.0, 0.75], [0.75, -1.5], [2.5, -1.5]]], [[[-0.25, 1.75], [-0.25, 2.0], [-0.75, 1.75]]]], [[[[2.5, -3.0], [-1.25, -2.0], [-1.0, 1.5]]], [[[1.5, -0.75], [float('-inf'), 0.25], [0.0, 0.75]]]]], dtype=torch.float32)).requires_grad_()", "r12 = F.conv3d(x9, x10, stride=1, padding='same', groups=1)", "g13 = torch.tensor([[[[[1.5, 1.0, -2.5], [float('inf'), 0.25, -2.75], [-0.75, -2.5, 0.25]]], [[[2.0, 0.0, -2.75], [2.0, -3.0, -0.75], [0.25, float('-inf'), 1.5]]]], [[[[0.0, 1.75, -0.25], [-2.75, -2.75, -1.0], [0.75, 1.0, 1.5]]], [[[0.5, float('inf'), 0.0], [-2.75, 1.5, -3.0], [-2.75, -0.75, 0.0]]]]], dtype=torch.float32)", 'r12.backward(gradient=g13)'],
         ["x10.grad", "x9.grad"]),
    case("failed-gradient-check-keeps-saved-tensors",  # (error-text:backward, run 42606000) the engine
         # releases a node's saved tensors after validate_outputs: a gradient refused there (one flowing into
         # an integer tensor an in-place comparison made) leaves them, so a second backward fails the same way
         ['x1 = torch.tensor([1, 7], dtype=torch.uint8)', 'r8 = x1.eq_(torch.tensor([1.0, -0.25], dtype=torch.float32, requires_grad=True))', 'r9 = torch.special.i0(x1)', 'g15 = torch.tensor([2.75, 1.0], dtype=torch.float64)', 'try:\n    r9.backward(gradient=g15)\nexcept RuntimeError as e:\n    e1 = str(e)[:60]', 'g16 = torch.tensor([-1.75, 0.0], dtype=torch.float32)', 'try:\n    r9.backward(gradient=g16)\nexcept RuntimeError as e:\n    e2 = str(e)[:60]', 'b = torch.tensor([1, 2])', 'b.ge_(torch.tensor([1., 2.], requires_grad=True))', 'z = torch.special.i0(b) * 1.0', 'try:\n    z.sum().backward()\nexcept RuntimeError as e:\n    e3 = str(e)[:60]', 'try:\n    z.sum().backward()\nexcept RuntimeError as e:\n    e4 = str(e)[:60]'],
         ["e1", "e2", "e3", "e4"]),
    case("cholesky-out-castable-check",  # (error-text:cholesky, run 42612000) cholesky_out's
         # checkLinalgCompatibleDtype (from the input's dtype) before at::cholesky's own checks
         ["x = torch.tensor([[2.0, 0.5], [0.5, 3.0]])", "r = []",
          "for o in (torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.bool), torch.empty(0, dtype=torch.int32)):\n"
          "    try:\n        torch.cholesky(x[0] if o.dtype == torch.int32 else x, False, out=o)\n"
          "    except RuntimeError as e:\n        r.append(str(e))",
          "o = torch.empty(0, dtype=torch.float64)", "torch.cholesky(x, out=o)"],
         ["r", "o"]),
]
