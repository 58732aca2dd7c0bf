"""Regression cases of helper "uint8interp40" (session 40): F.interpolate of uint8 images.

ATen resizes uint8 tensors in bilinear and bicubic mode (antialias or not) with its own integer kernels
(int16 weights with a precision shift, uint8 between the width and the height pass; see
src/agrad/ops/_upsample_uint8.py): the AVX2 kernel for up to 4 channels, the generic separable one past 4.
"""

from __future__ import annotations

from exact_case_form import case, outcomes

# a deterministic uint8 image: (N, C, H, W) of a hash of the position
IMG = "def img(*shape):\n    return (torch.arange(math.prod(shape)) * 97 % 251).to(torch.uint8).reshape(shape)"
# a checksum of every element and its position (results too large to show whole)
SUM = "def csum(r):\n    return (r.long() * (torch.arange(r.numel()) % 13 + 1).reshape(r.shape)).sum().item()"

CASES = [
    case("uint8-interpolate-bilinear",  # up and down, align_corners or not, 1 to 6 channels (AVX2 and generic)
         ["import math", IMG, "x = img(1, 3, 5, 6)", "y = img(2, 6, 4, 3)",
          "r0 = F.interpolate(x, size=(7, 4), mode='bilinear')",
          "r1 = F.interpolate(x, size=(3, 9), mode='bilinear', align_corners=True)",
          "r2 = F.interpolate(y, scale_factor=1.7, mode='bilinear')",
          "r3 = F.interpolate(y, scale_factor=(0.6, 2.5), mode='bilinear', recompute_scale_factor=True)",
          "r4 = F.interpolate(x[:, :1], size=(5, 2), mode='bilinear')",
          "r5 = F.interpolate(y[:, :5], size=(4, 7), mode='bilinear', align_corners=True)"],
         ["r0", "r1", "r2", "r3", "r4", "r5"]),
    case("uint8-interpolate-bicubic-clamped",  # a checkerboard's overshoot clamped to 0 and 255
         [
          "x = (((torch.arange(6).reshape(6, 1) + torch.arange(7)) % 2) * 255).to(torch.uint8).expand(1, 2, 6, 7)",
          "r0 = F.interpolate(x, size=(9, 10), mode='bicubic')",
          "r1 = F.interpolate(x.repeat(1, 3, 1, 1), size=(4, 11), mode='bicubic', align_corners=True)",
          "r2 = F.interpolate(x, scale_factor=0.5, mode='bicubic')"],
         ["r0", "r1", "r2"]),
    case("uint8-interpolate-antialias",  # PIL's filters: windows normalised, precision from the largest weight
         ["import math", IMG, SUM, "x = img(1, 4, 23, 17)", "y = img(1, 5, 9, 40)",
          "r0 = F.interpolate(x, size=(5, 4), mode='bilinear', antialias=True)",
          "r1 = F.interpolate(x, size=(6, 3), mode='bicubic', antialias=True, align_corners=True)",
          "r2 = F.interpolate(y, size=(3, 7), mode='bicubic', antialias=True)",
          "r3 = F.interpolate(y[:, :3], scale_factor=(1.5, 0.1), mode='bilinear', antialias=True)",
          "r4 = F.interpolate(x[:, :1], size=(40, 30), mode='bicubic', antialias=True)",
          "c4 = csum(r4)",
          "r5 = F.interpolate(img(1, 2, 3, 900), size=(2, 4), mode='bicubic', antialias=True)"],
         ["r0", "r1", "r2", "r3", "r4[0, 0, ::7, ::5]", "c4", "r5"]),
    case("uint8-interpolate-channels-last",  # the result keeps the input's layout; C = 3 and 4 channels-last
         ["import math", IMG,
          "x = img(2, 3, 6, 5).contiguous(memory_format=torch.channels_last)",
          "z = img(1, 4, 6, 5).contiguous(memory_format=torch.channels_last)",
          "w = img(1, 6, 5, 6).contiguous(memory_format=torch.channels_last)",
          "r0 = F.interpolate(x, size=(4, 8), mode='bilinear', antialias=True)",
          "r1 = F.interpolate(z, size=(9, 5), mode='bicubic')",
          "r2 = F.interpolate(w, size=(3, 1), mode='bilinear')",
          "r3 = F.interpolate(x.transpose(2, 3), size=(3, 3), mode='bicubic', antialias=True)",
          "r4 = F.interpolate(x, size=(6, 5), mode='bilinear')",
          "flags = [(r.is_contiguous(), r.is_contiguous(memory_format=torch.channels_last)) "
          "for r in (r0, r1, r2, r3, r4)]"],
         ["r0", "r1", "r2", "r3", "r4.data_ptr() == x.data_ptr()", "flags"]),
    case("uint8-interpolate-one-column-rows",  # the generic kernel (past 4 channels, channels-first) with one
         # output column: every row of a loop takes the window of the loop's first row; 4 channels do not
         ["import math", IMG, SUM, "x = img(1, 5, 9, 4)",
          "r0 = F.interpolate(x, size=(5, 1), mode='bilinear')",
          "r1 = F.interpolate(x, size=(4, 1), mode='bicubic', antialias=True)",
          "r2 = F.interpolate(x[:, :4], size=(5, 1), mode='bilinear')",
          "r3 = F.interpolate(x.contiguous(memory_format=torch.channels_last), size=(5, 1), mode='bilinear')",
          # (more than GRAIN_SIZE outputs: the intra-op pool's chunks start loops mid-image)
          "r4 = F.interpolate(img(1, 5, 40, 3), size=(7001, 1), mode='bicubic')", "c4 = csum(r4)"],
         ["r0", "r1", "r2", "r3", "c4"]),
    case("uint8-interpolate-one-column-view",  # up to 4 channels, one column, contiguous with stride(3) not
         # stride(2) (a transpose): unpack_rgb reads row h at h * stride(3), here inside the storage
         ["import math", IMG, "b = img(3, 6, 9, 8)", "x = b[:1, :1, :1, :7].transpose(2, 3)",
          "r0 = F.interpolate(x, size=(3, 1), mode='bilinear')",
          "r1 = F.interpolate(x, size=(12, 2), mode='bicubic', antialias=True)",
          "r2 = F.interpolate(b[:1, :1, :7, :1], size=(3, 1), mode='bilinear')",
          "r3 = F.interpolate(b[:, :2, 0, :].unsqueeze(-1), size=(3, 2), mode='bicubic')"],
         ["x.is_contiguous()", "r0", "r1", "r2", "r3"]),
    case("uint8-interpolate-errors",  # what PyTorch refuses for uint8 (and bicubic of another rank)
         ["x3 = torch.zeros(1, 2, 5, dtype=torch.uint8)",
          "x4 = torch.zeros(1, 2, 5, 5, dtype=torch.uint8)", "x5 = torch.zeros(1, 2, 3, 5, 5, dtype=torch.uint8)"]
         + outcomes(["F.interpolate(x3, size=7, mode='linear')", "F.interpolate(x5, size=(2, 3, 4), mode='trilinear')",
                     "F.interpolate(x5, size=(2, 3, 4), mode='bicubic')", "F.interpolate(x3, size=4, mode='bicubic')",
                     "F.interpolate(x4.float(), size=4, mode='bicubic').shape",
                     "F.interpolate(x5.float(), scale_factor=2, mode='bicubic')",
                     "F.interpolate(x4, size=3, mode='area')", "F.interpolate(x4.char(), size=3, mode='bilinear')",
                     "F.interpolate(x4.int(), size=3, mode='bicubic', antialias=True)",
                     "F.interpolate(x4.requires_grad_(), size=3, mode='bilinear')",
                     "F.interpolate(x4, size=(3, 0), mode='bilinear', antialias=True)",
                     "F.interpolate(x4, size=3, mode='bicubic').requires_grad",
                     # (3 channels-first channels to a 1 x 1 output: the AVX2 kernel's assertion)
                     "F.interpolate(torch.zeros(2, 3, 5, 5, dtype=torch.uint8), size=1, mode='bicubic', antialias=True)",
                     "F.interpolate(torch.zeros(2, 3, 4, 1, dtype=torch.uint8), size=1, mode='bilinear')",
                     "F.interpolate(torch.zeros(2, 3, 1, 4, dtype=torch.uint8), size=1, mode='bilinear').shape",
                     "F.interpolate(torch.zeros(2, 4, 4, 4, dtype=torch.uint8), size=1, mode='bilinear').shape",
                     "F.interpolate(torch.zeros(2, 3, 4, 4, dtype=torch.uint8).transpose(2, 3), size=1, "
                     "mode='bilinear').shape"]),
         ["out"]),
]
