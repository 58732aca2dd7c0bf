"""The exact numeric kernels (ops/_sleef.py, _vec_math.py, _glibc_float.py, _erf_math.py, _tanh64.py,
_activation_kernels.py and the ops' own array kernels) keep their bits: each kernel's results over
2,000 values (random bit patterns, every magnitude, ±0, ±inf, NaN, subnormals, the kernels'
thresholds), in chunks of 1 to 2,048 elements (the small-size paths, the vector blocks and their
tails, rows and transposed rows), hash to the digests recorded in tools/kernel_bits.json before the
kernels were made cheaper for small tensors. ``python tools/kernel_bits.py`` checks 300,000 values each."""

import importlib.util
import json
import os

import numpy as np
import pytest

_TOOL = os.path.join(os.path.dirname(__file__), "..", "tools", "kernel_bits.py")
_spec = importlib.util.spec_from_file_location("kernel_bits", _TOOL)
kernel_bits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_bits)

_DIGESTS = json.load(open(kernel_bits.DIGESTS))["2000"]
_KERNELS = kernel_bits.kernels()

pytestmark = pytest.mark.skipif(np.finfo(np.longdouble).nmant != 63,
                                reason="the digests are of x86-64's kernels (x87 long double)")


@pytest.mark.parametrize("name", sorted(_DIGESTS))
def test_kernel_keeps_its_bits(name):
    import hashlib

    r = kernel_bits.run(name, _KERNELS[name], 2000)
    assert hashlib.sha256(r.tobytes()).hexdigest() == _DIGESTS[name], name


def test_every_kernel_has_a_digest():
    assert sorted(_DIGESTS) == sorted(_KERNELS)


@pytest.mark.parametrize("name", sorted(_KERNELS))
def test_kernel_of_empty_arrays(name):
    """No element: an empty result of the input's type (a range computed only when an element is
    in it must not leave the result undefined: erfinv's Newton steps call erf on none)."""
    dtype, count, fn = _KERNELS[name]
    with np.errstate(all="ignore"):
        r = np.asarray(fn(*[np.zeros(0, dtype) for _ in range(count)]))
    assert r.shape == (0,) and r.dtype == dtype
