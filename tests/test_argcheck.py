"""One argument-type check for the public functions (agrad/ops/_argcheck.py): PyTorch's TypeError texts."""

from __future__ import annotations

import inspect
import warnings

import pytest

import agrad
from agrad.ops import FUNCTIONAL, FUNCTIONS, LINALG, METHODS
from agrad.ops._argcheck import PARSED_FIRST
from agrad.ops._pyargs import parser_error
from agrad.ops._argcheck_table import TABLE

NAMESPACES = {"torch": FUNCTIONS, "F": FUNCTIONAL, "linalg": LINALG, "method": METHODS}


def _call(key, args):
    form, name = key.split(".", 1)
    fn = NAMESPACES[form][name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


@pytest.mark.parametrize("key", sorted(set(TABLE) - PARSED_FIRST))
def test_wrong_type_gets_pytorchs_message(key):
    # (the functions parsed first give PyTorch's parser messages: tests/test_pyargs.py)
    for index, _name, kind, message, element in TABLE[key]:
        # a method's positions count after self
        args = [agrad.ones(2, 2) for _ in range(index + key.startswith("method."))]
        if key == "torch.einsum":
            args = ["i,i->"]
        bad = [agrad.ones(2), "text"] if kind == "vararg" else ["text"]
        # (where a Python-level nn.functional of PyTorch's reads an attribute of the argument first,
        # its AttributeError: the table's message says so)
        attribute = kind != "vararg" and message.startswith("AttributeError: ")
        short = _short_of_arguments(key, args + bad)
        with pytest.raises(AttributeError if attribute and not short else TypeError) as info:
            _call(key, args + bad)
        want = element.format(1, "str") if kind == "vararg" else message.removeprefix("AttributeError: ").format("str")
        # where PyTorch's parser refuses this shorter call for another reason (too few arguments for
        # every signature ...), its message comes first (agrad/ops/_pyargs.py, tests/test_pyargs.py)
        want = parser_error(key, tuple(args[key.startswith("method."):] + bad), {}) or want
        if short:  # a Python-level nn.functional: its binding's error first
            assert info.type is TypeError and "missing" in str(info.value), str(info.value)
            continue
        assert str(info.value) == want


def _short_of_arguments(key, args) -> bool:
    """Whether the call of the Python-level nn.functional ``key`` (one without a parser signature) lacks a
    required argument: Python's TypeError (``pad() missing 1 required positional argument: 'pad'``) then
    comes first, as in PyTorch, before any read of the argument of the wrong type."""
    from agrad.ops._pyargs import _signatures
    if not key.startswith("F.") or _signatures(key) is not None:
        return False
    try:
        inspect.signature(FUNCTIONAL[key[2:]]).bind(*args)
    except TypeError:
        return True
    return False


def test_python_level_functionals_fail_binding_first():
    # PyTorch: the call binds before the body reads its arguments (the table's check would come first)
    x = agrad.ones(2, 3)
    cases = {
        "agrad.nn.functional.huber_loss(1, x, size_average=False)":
            "huber_loss() got an unexpected keyword argument 'size_average'",
        "agrad.nn.functional.pad('text')": "pad() missing 1 required positional argument: 'pad'",
        "agrad.nn.functional.max_pool2d('text')": "_max_pool2d() missing 1 required positional argument: 'kernel_size'",
        "agrad.nn.functional.max_pool1d('text', return_indices=True)":
            "max_pool1d_with_indices() missing 1 required positional argument: 'kernel_size'",
        "agrad.nn.functional.max_pool3d(1, 2, 1, 0, 1, False, False, foo=1)":
            "_max_pool3d() got an unexpected keyword argument 'foo'",
    }
    for expr, message in cases.items():
        with pytest.raises(TypeError) as info:
            eval(expr)
        assert str(info.value) == message, expr
    with pytest.raises(AttributeError, match="'int' object has no attribute 'size'"):  # (it binds: the read fails)
        agrad.nn.functional.huber_loss(1, x)


def test_examples_from_the_issue():
    x = agrad.ones(2)
    cases = {
        "agrad.nn.functional.relu(1.0)": "relu(): argument 'input' (position 1) must be Tensor, not float",
        "agrad.minimum(x, 0.5)": "minimum(): argument 'other' (position 2) must be Tensor, not float",
        "agrad.logical_or(x, 2)": "logical_or(): argument 'other' (position 2) must be Tensor, not int",
        "agrad.cat([x, 1.5])": "expected Tensor as element 1 in argument 0, but got float",
        "agrad.dot(x, [1, 2])": "dot(): argument 'tensor' (position 2) must be Tensor, not list",
        "x.dot(None)": "dot(): argument 'tensor' (position 1) must be Tensor, not NoneType",
    }
    for expr, message in cases.items():
        with pytest.raises(TypeError) as info:
            eval(expr, {"agrad": agrad, "x": x})
        assert str(info.value) == message, expr
    assert agrad.add(1.5, x).tolist() == [2.5, 2.5]  # PyTorch takes a number there
    assert agrad.nn.functional.linear(x, agrad.ones(1, 2), None).shape == (1,)


def test_no_internal_attribute_errors_for_a_number_in_place_of_a_tensor():
    leaks = []
    for key in sorted(TABLE):
        form, name = key.split(".", 1)
        args = [agrad.ones(2, 2)] if form == "method" else []
        theirs = {c[3].removeprefix("AttributeError: ").format("float") for c in TABLE[key] if c[3]}
        try:
            _call(key, args + [1.5])
        except AttributeError as e:
            if str(e) not in theirs:  # (PyTorch's own AttributeError, as the table says, is not a leak)
                leaks.append(f"{key}: {e}")
        except Exception:  # noqa: BLE001 - PyTorch's own errors
            pass
    assert not leaks


def test_wrappers_keep_the_signature():
    assert str(inspect.signature(agrad.relu)) == str(inspect.signature(agrad.relu.__wrapped__))


def test_numpy_keyword_names_agree():
    """The wrappers' quick test for numpy's keyword names matches the parser's table."""
    from agrad.ops._argcheck import _NUMPY_ALIASES
    from agrad.ops._pyargs import NUMPY_ALIASES

    assert set(NUMPY_ALIASES) == _NUMPY_ALIASES
