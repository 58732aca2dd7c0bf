"""PyTorch's once-per-process warnings (TORCH_WARN_ONCE): agrad gives them once too (agrad/_warn_once.py)."""

from __future__ import annotations

import warnings

import pytest

import agrad as torch

F = torch.nn.functional
ONCE = {
    "adjoint() is deprecated on 0-D tensors. Consider using x.conj().": lambda: torch.tensor(1.).adjoint(),
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.":
        lambda: torch.meshgrid(torch.ones(2), torch.ones(3)),
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky": lambda: torch.cholesky(torch.eye(2)),
    "The use of `x.T` on tensors of dimension other than 2": lambda: torch.ones(3).T,
    "Using torch.cross without specifying the dim arg is deprecated.":
        lambda: torch.cross(torch.ones(3), torch.ones(3)),
    "torch.qr is deprecated in favor of torch.linalg.qr": lambda: torch.qr(torch.eye(2)),
    "The reduce argument of torch.scatter with Tensor src is deprecated":
        lambda: torch.ones(2, 2).scatter(0, torch.zeros(1, 1, dtype=torch.long), torch.ones(1, 1), reduce="add"),
    "Using backward() with create_graph=True will create a reference cycle":
        lambda: torch.ones(2, requires_grad=True).exp().sum().backward(create_graph=True),
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.":
        lambda: float(torch.ones((), requires_grad=True)),
    "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy":
        lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 2, 2), padding="same"),
}


def given(fn) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # Python's filters do not bring a once-warning back
        fn()
    return [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("text", list(ONCE))
def test_warned_once_per_process(text):
    first = given(ONCE[text])
    assert len(first) == 1 and first[0][0] == "UserWarning" and first[0][1].startswith(text), first
    assert given(ONCE[text]) == []


def test_implicit_softmax_dim_warns_every_time_and_before_the_dtype_check():
    for _ in range(2):
        with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax has been deprecated"):
            with pytest.raises(NotImplementedError, match='"log_softmax_lastdim_kernel_impl" not implemented'):
                F.log_softmax(torch.tensor([0]))


@pytest.mark.torch
@pytest.mark.parametrize("text", list(ONCE))
def test_once_like_pytorch(text):
    import subprocess
    import sys
    # a fresh process each: torch's once-state is per process
    code = ("import warnings, sys\nimport torch\nF = torch.nn.functional\nwarnings.simplefilter('always')\n"
            "fn = lambda: " + _SOURCE[text] + "\n"
            "for _ in range(2):\n    with warnings.catch_warnings(record=True) as w:\n"
            "        warnings.simplefilter('always')\n        fn()\n    print(len(w))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert out.split() == ["1", "0"]


_SOURCE = {
    "adjoint() is deprecated on 0-D tensors. Consider using x.conj().": "torch.tensor(1.).adjoint()",
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.":
        "torch.meshgrid(torch.ones(2), torch.ones(3))",
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky": "torch.cholesky(torch.eye(2))",
    "The use of `x.T` on tensors of dimension other than 2": "torch.ones(3).T",
    "Using torch.cross without specifying the dim arg is deprecated.": "torch.cross(torch.ones(3), torch.ones(3))",
    "torch.qr is deprecated in favor of torch.linalg.qr": "torch.qr(torch.eye(2))",
    "The reduce argument of torch.scatter with Tensor src is deprecated":
        "torch.ones(2, 2).scatter(0, torch.zeros(1, 1, dtype=torch.long), torch.ones(1, 1), reduce='add')",
    "Using backward() with create_graph=True will create a reference cycle":
        "torch.ones(2, requires_grad=True).exp().sum().backward(create_graph=True)",
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.":
        "float(torch.ones((), requires_grad=True))",
    "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy":
        "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 2, 2), padding='same')",
}
