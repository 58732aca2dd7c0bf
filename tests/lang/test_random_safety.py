"""torch.Generator in scripts: PyTorch's methods work, nothing else is reachable."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run


def _run(text):
    return run(Source("gen.py", "import torch\n" + text), timeout=10)


def test_generator_methods_work():
    res = _run("g = torch.Generator()\nprint(g.initial_seed())\ng.manual_seed(3)\n"
               "s = g.get_state()\na = torch.rand(2, generator=g)\ng.set_state(s)\n"
               "print(bool((a == torch.rand(2, generator=g)).all()), g.device)\n"
               "print(torch.default_generator.initial_seed() == torch.initial_seed())\n"
               "print(isinstance(torch.seed(), int))")
    assert res.ok, res.error.render()
    assert res.stdout == "67280421310721\nTrue cpu\nTrue\nTrue\n"


ESCAPES = [
    "torch.Generator()._bg",
    "torch.Generator()._random32(2)",
    "torch.Generator()._key_pos()",
    "torch.Generator().__class__.__mro__",
    "torch.Generator().get_state.__self__",
    "torch.Generator().manual_seed.__func__",
    "torch.Generator().__slots__",
    "torch.Generator.__init__.__globals__",
    "torch.Generator._engine",
    "torch.default_generator._bg",
    "torch.default_generator.__reduce__()",
    "torch.Generator().random_raw",
    "'{0._bg}'.format(torch.Generator())",
    "f'{torch.Generator()._key}'",
    "g = torch.Generator()\ng._bg = 1",
    "g = torch.Generator()\ng.seed = 1",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_generator_escapes_are_blocked(text):
    res = _run(text)
    assert res.error is not None, f"not blocked: {text!r}"
    assert res.error.type_name in ("AttributeError", "NameError")
    assert "Traceback" not in res.error.render()
