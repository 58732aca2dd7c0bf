"""Regression cases of session 39's softmax / exp speed work (issue 12), compared with PyTorch 2.13.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
Each result is shown as a checksum of its bits (an ulp anywhere changes it) besides its sum: the
transposed short-row steps of ops/softmax.py, the blocked float64 exp and the float32 exp's
checked steps of up to 16,384 elements must give PyTorch's bits.
"""

from __future__ import annotations

from exact_case_form import GRAPH, case


def _bits(name: str, itype: str) -> str:
    """The mantissas of every element as integers (frexp), summed modulo a prime with the exponents."""
    scale = "2.0 ** 24" if itype == "int32" else "2.0 ** 53"
    return (f"[((torch.frexp({name}.detach())[0].double() * {scale}).long() % 1000003).sum(), "
            f"torch.frexp({name}.detach())[1].sum(), torch.isnan({name}).sum()]")


def _classify(dtype: str, itype: str, rows: int, cols: int) -> list[str]:
    return [
        f"x = ((torch.arange({rows * cols}, dtype=torch.{dtype}).reshape({rows}, {cols}) * 37 % 101 - 50) * 0.09375)"
        ".requires_grad_()",
        f"t = torch.arange({rows}) * 7 % {cols}",
        "g = (torch.arange(x.numel(), dtype=x.dtype).reshape(x.shape) * 53 % 89 - 44) * 0.046875",
        "y = torch.softmax(x, -1)",
        "ly = torch.log_softmax(x, -1)",
        "gy, = torch.autograd.grad(y, [x], g)",
        "gly, = torch.autograd.grad(ly, [x], g)",
        "loss = F.cross_entropy(x, t)",
        "gl, = torch.autograd.grad(loss, [x])",
    ], [_bits(v, itype) for v in ("y", "ly", "gy", "gly", "gl")] + ["loss", "y.sum()"]


def cases(graph: str) -> list[dict]:
    del graph
    out = []
    for dtype, itype in (("float32", "int32"), ("float64", "int64")):
        for rows, cols in ((1000, 10), (300, 7), (64, 32), (4096, 2)):
            code, show = _classify(dtype, itype, rows, cols)
            out.append(case(f"speedexp39-classify-{dtype}-{rows}x{cols}", code, show))
        # rows with a NaN, an infinity, zeros of both signs (the last-dim steps for those rows)
        code, show = _classify(dtype, itype, 500, 10)
        code.insert(1, "x.data[3, 4] = float('nan'); x.data[5] = 0.0; x.data[6, ::2] = -0.0; x.data[7, 1] = float('inf')")
        show = [_bits(v, itype) for v in ("y", "ly", "gy", "gly")]
        out.append(case(f"speedexp39-classify-specials-{dtype}", code, show))
        # sigmoid (Sleef's exp below GRAIN_SIZE) of arrays across the exp kernels' size thresholds (4,096 /
        # 8,192 / 16,384); (torch.exp itself is MKL VML's: docs/semantics.md)
        for n in (4000, 9000, 16384, 20000, 30000):
            out.append(case(f"speedexp39-sigmoid-{dtype}-{n}", [
                f"z = (torch.arange({n}, dtype=torch.{dtype}) * 7919 % 20011 - 4000) * 0.001953125"],
                [_bits("torch.sigmoid(z)", itype), _bits("torch.sigmoid(z.reshape(-1, 8).t())", itype)]))
        # long rows (the float64 exp a block at a time)
        code, show = _classify(dtype, itype, 64, 1000)
        out.append(case(f"speedexp39-classify-{dtype}-64x1000", code, show))
    return out


CASES = cases(GRAPH)
