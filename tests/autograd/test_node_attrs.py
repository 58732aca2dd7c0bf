"""Autograd nodes list PyTorch's attributes (dir(), from autograd/node_attrs.txt written by
tools/gen_node_attrs.py) and answer the node API PyTorch's C++ nodes have (scripts:
tests/lang/test_node_attrs_escapes.py)."""

from __future__ import annotations

import pytest

import agrad as torch

F = torch.nn.functional
X = torch.tensor([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]], requires_grad=True)

API = ['__call__', '__class__', '__delattr__', '__dir__', '__doc__', '__eq__', '__format__', '__ge__',
       '__getattribute__', '__getstate__', '__gt__', '__hash__', '__init__', '__init_subclass__', '__le__', '__lt__',
       '__ne__', '__new__', '__reduce__', '__reduce_ex__', '__repr__', '__setattr__', '__sizeof__', '__str__',
       '__subclasshook__', '_input_metadata', '_register_hook_dict', '_sequence_nr', '_set_sequence_nr', 'metadata',
       'name', 'next_functions', 'register_hook', 'register_prehook', 'requires_grad']


@pytest.mark.parametrize("make,saved", [  # (PyTorch 2.13's lists)
    (lambda: X.exp(), ['_raw_saved_result', '_saved_result']),
    (lambda: X * 2, ['_raw_saved_other', '_raw_saved_self', '_saved_other', '_saved_self']),
    (lambda: X.sum(), ['_saved_self_sym_sizes']),
    (lambda: F.max_pool2d(X, 2), ['_raw_saved_result1', '_raw_saved_self', '_saved_ceil_mode', '_saved_dilation',
                                  '_saved_kernel_size', '_saved_padding', '_saved_result1', '_saved_self',
                                  '_saved_stride']),
    (lambda: X + X, ['_saved_alpha']),
    (lambda: X.view(9), ['_saved_self_sym_sizes']),
])
def test_dir_is_pytorchs(make, saved):
    assert dir(make().grad_fn) == sorted(API + saved)


def test_accumulate_grad_lists_its_variable():
    node = (X * 1).grad_fn.next_functions[0][0]
    assert dir(node) == sorted(API + ["variable"])
    assert node._sequence_nr() == 2 ** 64 - 1 and node.requires_grad is True


def test_node_api():
    node = (X * 2).grad_fn
    assert node.requires_grad is True
    later = (X * 3).grad_fn
    assert later._sequence_nr() == node._sequence_nr() + 1
    node._set_sequence_nr(7)
    assert node._sequence_nr() == 7
    (m,) = torch.cat([X, X]).grad_fn._input_metadata  # (the gradient it takes: the output's)
    assert (m.shape, m.dtype, str(m.device), m.is_nested_tensor) == ([2, 1, 3, 3], torch.float32, "cpu", False)


def test_saved_sizes_and_unkept_attributes():
    a = torch.ones(2, 3, requires_grad=True)
    assert torch.mm(a, torch.ones(3, 4)).grad_fn._saved_self_sym_sizes == (2, 3)
    assert a.sum(1).grad_fn._saved_self_sym_sizes == (2, 3)
    with pytest.raises(AttributeError, match="does not keep '_saved_kernel_size'"):
        F.max_pool2d(X, 2).grad_fn._saved_kernel_size
    with pytest.raises(AttributeError, match="does not keep '_saved_mat2_sym_sizes' of an input"):
        torch.mm(a, torch.ones(3, 4)).grad_fn._saved_mat2_sym_sizes
    with pytest.raises(AttributeError, match="no SavedTensor object for '_raw_saved_self'"):
        (a * a).grad_fn._raw_saved_self
    with pytest.raises(AttributeError, match="has no attribute '_saved_foo'"):
        (a * a).grad_fn._saved_foo
