"""Escape attempts through torch's memory formats (torch.channels_last & co): the values are
agrad objects whose only public face is their repr; their internals stay out of reach."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

PRE = "import torch\nx = torch.ones(1, 2, 3, 4)\n"

ESCAPES = [
    PRE + "torch.channels_last._name",
    PRE + "torch.channels_last.__reduce__()",
    PRE + "torch.memory_format.__init__",
    PRE + "type(torch.channels_last).__subclasses__()",
    PRE + "torch.preserve_format.__class__.__mro__",
    PRE + "'{0.__class__.__mro__}'.format(torch.contiguous_format)",
    PRE + "f'{torch.channels_last_3d.__slots__}'",
    PRE + "x.to(memory_format=torch.channels_last)._data.ctypes",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_memory_formats_do_not_open_an_escape(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(Source("attack.py", text), timeout=10)
    assert res.error is not None, f"not blocked: {text!r}"
    assert res.error.type_name in ("AttributeError", "TypeError"), res.error.render()
    assert "Traceback" not in res.error.render()
    assert list(tmp_path.iterdir()) == []


def test_memory_formats_run_in_scripts():
    text = (PRE + "y = x.to(memory_format=torch.channels_last)\n"
            "print(torch.channels_last, type(torch.channels_last), y.stride())\n"
            "print(y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))\n"
            "print(isinstance(torch.preserve_format, torch.memory_format), torch.channels_last == torch.channels_last)\n")
    res = run(Source("script.py", text), timeout=10)
    assert res.error is None, res.error.render()
    assert res.stdout.splitlines() == [
        "torch.channels_last <class 'torch.memory_format'> (24, 1, 8, 2)", "False True", "True True"]
