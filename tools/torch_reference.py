"""Imported first by every tool that asks PyTorch for reference output.

agrad reproduces PyTorch's AVX2 CPU kernels: their order of additions, their
split between vector and scalar loops, their float16 rounding (docs/semantics.md,
"Differential testing"). On a machine with AVX-512, PyTorch dispatches to its
AVX-512 kernels instead, which round differently; ``ATEN_CPU_CAPABILITY=avx2``
pins the kernels the goldens were made with, whatever this machine has.
Set it to something else yourself to see the other kernels. agrad itself, imported
here before numpy, asks numpy for its AVX2 kernels the same way (src/agrad/__init__.py),
so both sides of a comparison compute as they would on an AVX2 machine.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
# oneDNN picks its own kernels by the machine's ISA (float32 gelu: NaN at +inf with AVX-512, inf with
# AVX2; docs/semantics.md, "float32 gelu"): its AVX2 ones on every machine too
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
import agrad  # noqa: E402, F401  (before numpy: see above)
