"""Write src/agrad/autograd/node_attrs.txt: the saved attributes of PyTorch's autograd nodes.

    python tools/gen_node_attrs.py        # needs torch installed

PyTorch's node classes (``torch._C._functions``) each expose what their formula saved as
``_saved_<name>`` (and a saved tensor also as ``_raw_saved_<name>``, its SavedTensor).  One line
per node: ``NodeName: name *name ...``, a ``*`` marking a saved tensor (or a list of them).  agrad's
nodes list these names in ``dir()`` as PyTorch's do (agrad/autograd/graph.py).
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

from pathlib import Path

import torch

OUT = Path(__file__).resolve().parents[1] / "src" / "agrad" / "autograd" / "node_attrs.txt"


def saved(cls) -> list[str]:
    names = set(dir(cls))
    out = []
    for n in sorted(names):
        if n.startswith("_saved_"):
            name = n[len("_saved_"):]
            out.append(("*" if "_raw_saved_" + name in names else "") + name)
    return out


def main() -> None:
    funcs = torch._C._functions
    lines = [f"# saved attributes of PyTorch {torch.__version__}'s autograd nodes, by tools/gen_node_attrs.py"]
    for name in sorted(dir(funcs)):
        cls = getattr(funcs, name)
        if isinstance(cls, type) and hasattr(cls, "next_functions"):
            lines.append(f"{name}: " + " ".join(saved(cls)))
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 1} nodes to {OUT.relative_to(OUT.parents[3])}")


if __name__ == "__main__":
    main()
