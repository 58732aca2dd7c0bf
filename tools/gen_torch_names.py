"""Write src/agrad/lang/torch_names.txt: the public names PyTorch has, per module.

    python tools/gen_torch_names.py        # needs torch installed

agrad's "Did you mean" hints come from names agrad knows *and* PyTorch has,
and a name PyTorch has but agrad lacks is reported as such (``torch.cuda``
is not "Did you mean 'cummax'?").  One line per module: ``module: name name ...``;
``Tensor`` lists the tensor attributes and methods; ``classes`` maps each public class
to the name it prints with (``torch.nn.Linear=torch.nn.modules.linear.Linear``), so
``print(type(x))`` in a script shows PyTorch's text.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import importlib
from pathlib import Path

import torch

MODULES = ["torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
           "torch.autograd", "torch.autograd.graph", "torch.autograd.forward_ad", "torch.autograd.function", "torch.optim", "torch.optim.lr_scheduler", "torch.utils.data",
           "torch.linalg", "torch.special", "torch.fft", "torch.distributions", "torch.distributions.kl",
           "torch.distributions.constraints"]
OUT = Path(__file__).resolve().parents[1] / "src" / "agrad" / "lang" / "torch_names.txt"


def public(obj) -> list[str]:
    return sorted(n for n in dir(obj) if not n.startswith("_"))


def main() -> None:
    lines = [f"# public names of PyTorch {torch.__version__}, by tools/gen_torch_names.py"]
    for name in MODULES:
        lines.append(f"{name}: " + " ".join(public(importlib.import_module(name))))
    lines.append("Tensor: " + " ".join(public(torch.Tensor)))
    classes = []
    for name in MODULES:
        mod = importlib.import_module(name)
        for attr in public(mod):
            obj = getattr(mod, attr)
            if isinstance(obj, type) and " " not in (shown := f"{obj.__module__}.{obj.__qualname__}"):
                classes.append(f"{name}.{attr}={shown}")
    lines.append("classes: " + " ".join(classes))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
