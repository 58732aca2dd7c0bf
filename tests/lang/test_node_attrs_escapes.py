"""Autograd nodes' attributes in scripts: the public ones and ``_saved_*`` are reachable (PyTorch's
saved sizes, a clear error for what agrad does not keep); the node API's private names are not."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run

HEAD = "import torch\nx = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"


def test_scripts_read_public_and_saved_names(run_ok):
    res = run_ok(HEAD + "n = x.sum(0).grad_fn\nprint(n.requires_grad, n._saved_self_sym_sizes)\n"
                 "try:\n    n._saved_dim\nexcept AttributeError as e:\n    print(str(e)[:40])\n")
    assert res.stdout == "True (2, 2)\nagrad's SumBackward1 does not keep '_sav\n"


@pytest.mark.parametrize("use", [
    "x.sum().grad_fn._input_metadata", "x.sum().grad_fn._input_metadata[0].__class__.__mro__",
    "x.sum().grad_fn._sequence_nr", "x.sum().grad_fn._set_sequence_nr", "x.sum().grad_fn._register_hook_dict",
    "x.sum().grad_fn.__dir__", "x.sum().grad_fn.__class__._saved_dim.fget.__globals__",
    "x.sum().grad_fn._saved_self_sym_sizes.__class__.__subclasses__",
])
def test_private_node_api_is_blocked(use):
    err = run(Source("attack.py", HEAD + f"print({use})\n"), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert err.type_name == "AttributeError" and "Traceback" not in err.render(), err.render()
