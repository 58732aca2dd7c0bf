"""Every op's backward against central differences in float64, independent of PyTorch.

Golden files could hide a formula that torch and agrad got wrong the same way
(or a golden regenerated from a wrong case); this test needs only agrad. Each
golden case with differentiable float inputs is re-run with its inputs in
float64, and the gradient of sum(out * W) is compared with central differences.
At a kink (relu at 0, ties in max, clamp at a bound) the derivative is not
defined and the one-sided differences disagree: such elements are skipped. A
case marked ``"numeric": False`` is one where PyTorch's gradient is by design not
the derivative (det of an exactly singular matrix is given a zero gradient).
"""

from __future__ import annotations

import numpy as np
import pytest

import golden_harness

# ops warn as PyTorch does (deprecations, size mismatches): expected here, not news
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

GOLDEN = golden_harness.load_golden()["cases"]
EPS = 1e-6


def _numeric_cases():
    for case_id, entry in GOLDEN.items():
        if "error" in entry or not entry.get("grads") or entry["case"].get("numeric") is False:
            continue
        if not any(rec["requires_grad"] for rec in entry["inputs"].values()):
            continue
        yield case_id


def _float64_inputs(agrad, entry):
    tensors = {}
    for name, rec in entry["inputs"].items():
        array = golden_harness.decode_array(rec)
        if array.dtype.kind == "f":
            array = array.astype(np.float64)
        tensors[name] = agrad.tensor(array, requires_grad=rec["requires_grad"])
    return tensors


@pytest.mark.parametrize("case_id", list(_numeric_cases()))
def test_backward_matches_central_differences(case_id):
    import agrad

    entry = GOLDEN[case_id]
    case = entry["case"]
    tensors = _float64_inputs(agrad, entry)
    weight = golden_harness.decode_array(entry["grad_weight"]).astype(np.float64)
    index = entry["grad_output"]

    def objective():
        result = golden_harness.evaluate(agrad, case, tensors)
        outputs = list(result) if isinstance(result, (tuple, list)) else [result]
        out = outputs[index]
        if not out.dtype.is_floating_point:
            pytest.skip("output is not floating point in float64")
        if out.dtype is not agrad.float64:  # e.g. written into a float32 factory tensor
            pytest.skip("output stays in a lower precision: central differences would measure its rounding")
        return (out.double() * agrad.tensor(weight)).sum()

    try:
        loss = objective()
    except (RuntimeError, TypeError, ValueError) as exc:  # float64 inputs change a dtype rule
        pytest.skip(f"case does not run with float64 inputs: {exc}")
    names = [n for n, rec in entry["inputs"].items() if rec["requires_grad"]]
    leaves = [tensors[n] for n in names]
    grads = agrad.autograd.grad(loss, leaves, allow_unused=True)
    checked = 0
    for name, leaf, g in zip(names, leaves, grads):
        analytic = np.zeros(leaf.shape) if g is None else g.numpy(force=True).astype(np.float64)  # (a ZeroTensor too)
        flat = leaf.detach().numpy().reshape(-1)  # shares memory with the leaf
        for k in range(flat.size):
            orig = flat[k]
            if not np.isfinite(orig):
                continue
            mid = objective().item()
            flat[k] = orig + EPS
            hi = objective().item()
            flat[k] = orig - EPS
            lo = objective().item()
            flat[k] = orig
            flat[k] = orig + 10 * EPS
            hi10 = objective().item()
            flat[k] = orig - 10 * EPS
            lo10 = objective().item()
            flat[k] = orig
            right, left = (hi - mid) / EPS, (mid - lo) / EPS
            num, coarse = (hi - lo) / (2 * EPS), (hi10 - lo10) / (20 * EPS)
            tol = 1e-3 * (1 + abs(num))
            if not np.isfinite(num) or abs(right - left) > tol or abs(num - coarse) > tol:
                continue  # a kink, a jump or a pole: no derivative to compare with
            a = analytic.reshape(-1)[k]
            assert abs(a - num) <= 1e-5 + 1e-4 * abs(num), (
                f"{case_id}: d/d{name}[{k}] analytic {a!r} vs numeric {num!r}")
            checked += 1
    if not checked:
        pytest.skip("no differentiable point to check")
