"""torch.nn.utils.rnn in scripts: pad_sequence/unpad_sequence run (values: tests/golden/exact.json case
pad-sequence); the packing functions say they are not built; the module reaches nothing more."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run


def test_pad_sequence_in_a_collate_function(run_ok):
    res = run_ok("import torch\nfrom torch.nn.utils.rnn import pad_sequence\nimport torch.nn.utils.rnn as rnn\n"
                 "batch = [torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])]\n"
                 "x = pad_sequence(batch, batch_first=True, padding_value=0)\n"
                 "print(x.tolist(), x.dtype, rnn.unpad_sequence(x, torch.tensor([3, 1, 2]), batch_first=True))\n")
    assert res.stdout == ("[[1, 2, 3], [4, 0, 0], [5, 6, 0]] torch.int64 "
                          "[tensor([1, 2, 3]), tensor([4]), tensor([5, 6])]\n")


@pytest.mark.parametrize("name", ["pack_padded_sequence", "pad_packed_sequence", "pack_sequence",
                                  "unpack_sequence", "PackedSequence"])
def test_packing_says_it_is_not_built(name):
    err = run(Source("s.py", f"import torch\nfrom torch.nn.utils.rnn import {name}\n{name}([torch.ones(2, 1)])\n"),
              timeout=20).error
    assert err is not None and err.type_name == "NotImplementedError"
    assert f"torch.nn.utils.rnn.{name} is not supported yet in agrad" in err.message


@pytest.mark.parametrize("use", [
    "rnn.__dict__", "rnn._not_built", "rnn.__loader__", "rnn.pad_sequence.__globals__", "rnn.Tensor.__subclasses__",
    "rnn.pack_sequence.__closure__", "rnn.pad_sequence.__code__", "getattr(rnn, '__spec__')", "rnn.FUNCTIONS",
    "rnn.annotations", "import torch.nn.utils.rnn.os", "from torch.nn.utils.rnn import _not_built",
])
def test_rnn_module_reaches_nothing_more(use):
    err = run(Source("attack.py", f"import torch\nimport torch.nn.utils.rnn as rnn\n{use}\nprint('not blocked')\n"),
              timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render()
