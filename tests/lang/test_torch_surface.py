"""The torch.* names issue 10 added, as a script sees them: finfo/iinfo, the global settings
(kept for one run only), torch.return_types, the top-level in-place forms; and escape attempts
through them, which fail as any other attribute outside the allow-lists does."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run


def _run(text):
    res = run(Source("s.py", "import torch\n" + text), timeout=10)
    assert res.error is None, res.error.render()
    return res.stdout


def test_finfo_and_iinfo_in_a_script():
    out = _run("print(torch.finfo(torch.float32).eps, torch.finfo().dtype, torch.iinfo(torch.int8))\n"
               "print(torch.finfo(torch.float16))\nprint(type(torch.finfo()))")
    assert out.splitlines() == [
        "1.1920928955078125e-07 float32 iinfo(min=-128, max=127, dtype=int8)",
        "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, smallest_normal=6.10352e-05, "
        "tiny=6.10352e-05, dtype=float16)",
        "<class 'torch.finfo'>"]


def test_settings_last_one_run():
    first = _run("torch.set_num_threads(1)\ntorch.use_deterministic_algorithms(True)\n"
                 "torch.set_float32_matmul_precision('medium')\ntorch.set_warn_always(True)\n"
                 "print(torch.get_num_threads(), torch.are_deterministic_algorithms_enabled(), "
                 "torch.get_float32_matmul_precision(), torch.is_warn_always_enabled())")
    assert first == "1 True medium True\n"
    second = _run("print(torch.are_deterministic_algorithms_enabled(), torch.get_float32_matmul_precision(), "
                  "torch.is_warn_always_enabled())\ntorch.set_num_interop_threads(2)")
    assert second == "False highest False\n"
    # the interop count may be set once per run, as once per PyTorch process
    _run("torch.set_num_interop_threads(3)\nprint(torch.get_num_interop_threads())")


def test_set_num_interop_threads_twice_fails():
    res = run(Source("s.py", "import torch\ntorch.set_num_interop_threads(2)\ntorch.set_num_interop_threads(2)"),
              timeout=10)
    assert res.error is not None and res.error.type_name == "RuntimeError"
    assert "cannot set number of interop threads" in res.error.render()


def test_return_types_module():
    out = _run("x = torch.tensor([[1.0, 3.0], [2.0, 0.0]])\nfrom torch.return_types import sort\n"
               "print(isinstance(x.max(0), torch.return_types.max), isinstance(x.sort(), sort))\n"
               "print(torch.return_types.topk([x[0], x[1]]).indices)")
    assert out == "True True\ntensor([2., 0.])\n"


def test_inplace_forms_at_top_level():
    out = _run("x = torch.tensor([-1.5, 2.0])\ny = torch.abs_(x)\nprint(y is x, x)\nprint(torch.zero_(x), "
               "torch.rsub(x, 2, alpha=3), torch.typename(x))")
    assert out == "True tensor([1.5000, 2.0000])\ntensor([0., 0.]) tensor([2., 2.]) torch.FloatTensor\n"


ESCAPES = [
    "torch.finfo()._values.__class__.__mro__",
    "torch.finfo.__init__.__globals__",
    "torch.finfo().__dict__",
    "torch.finfo()._values['dtype']",
    "torch.iinfo(torch.int8).__class__.__mro__",
    "torch.return_types.max.__new__.__globals__",
    "torch.return_types._CLASSES",
    "torch.return_types.max._make.__func__",
    "torch.set_num_threads.__globals__",
    "torch.abs_.__closure__",
    "torch.typename.__code__",
    "torch.finfo().eps = 3",
    "x = torch.ones(2, 3, requires_grad=True)\ntorch.permute_copy(x, (1, 0)).grad_fn.view.ctypes",
    "x = torch.ones(2, 3, requires_grad=True)\ntorch.permute_copy(x, (1, 0)).grad_fn.view.tofile('p.bin')",
    "x = torch.ones(2, 3, requires_grad=True)\ntorch.permute_copy(x, (1, 0)).grad_fn.node._formula",
    "x = torch.ones(2, 3, requires_grad=True)\ntorch.split_copy(x, 1)[0].grad_fn.node.__class__.__mro__",
    "x = torch.ones(4, requires_grad=True)\ny = x.scatter_reduce(0, torch.tensor([0, 0]), x[:2] * 1, 'amax')\ny.grad_fn.idx.dump('p.bin')",
    "x = torch.ones(4, requires_grad=True)\ny = torch.put(x, torch.tensor([0]), x[:1] * 1)\ny.grad_fn._saved_index.__array_interface__",
    "x = torch.ones(4, requires_grad=True)\ntorch.as_strided(x, (2,), (2,)).grad_fn.idx.ctypes",
    "torch.gradient.__wrapped__",
    "torch.hann_window.__globals__",
    "torch.scatter_reduce.__code__",
]


@pytest.mark.parametrize("text", ESCAPES)
def test_new_names_do_not_open_an_escape(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(Source("attack.py", "import torch\n" + text), timeout=10)
    assert res.error is not None, f"not blocked: {text!r}"
    assert res.error.type_name == "AttributeError", res.error.render()
    assert "Traceback" not in res.error.render()
    assert list(tmp_path.iterdir()) == []


def test_window_functions_in_a_script():
    out = _run("print(torch.hann_window(4), torch.bartlett_window(5, False).tolist())\n"
               "print(torch.kaiser_window(3, False, 2.0, dtype=torch.float64).tolist())")
    assert out == ("tensor([0.0000, 0.5000, 1.0000, 0.5000]) [0.0, 0.5, 1.0, 0.5, 0.0]\n"
                   "[0.4386762798370488, 1.0, 0.4386762798370488]\n")


def test_new_ops_run_in_scripts():
    out = _run("x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
               "y = x.scatter_reduce(0, torch.tensor([0, 0, 1]), x * 2, 'amax', include_self=False)\n"
               "z = torch.permute_copy(torch.diagflat(x), (1, 0))\n"
               "(y.sum() + z.sum() + torch.gradient(x)[0].sum()).backward()\n"
               "print(y.grad_fn, z.grad_fn.name(), x.grad)")
    assert out.startswith("<ScatterReduceBackward0 object at 0x")
    assert out.rstrip().endswith("PermuteBackward0_copy tensor([-0.5000,  3.0000,  5.5000])")
