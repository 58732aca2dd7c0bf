"""The differential tester's generator draws the whole op table (issue 10, item 3).

Every public function and method docs/ops.md lists is drawn, each way it is
reachable (torch.x, Tensor.x, F.x, linalg.x, special.x), in statements PyTorch
runs, with each of its keyword arguments, unless tools/diffgen.py names it
with a reason (SKIPPED, ERRORS_ONLY; NEVER/NEVER_FOR for arguments). A new op
the generator cannot call fails here until it gets arguments (diffgen.arg,
diffgen_recipes.RECIPES) or a reason. ``python tools/difftest_coverage.py``
prints the same list.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

pytest.importorskip("torch")  # (the generator runs its statements under PyTorch)

import diffgen  # noqa: E402
import difftest_coverage  # noqa: E402


def test_every_reason_is_given_and_names_a_function_there_is():
    table = {name for name, _, _ in diffgen.op_table(random_ops=True)}
    public = {name for _, name in difftest_coverage.public_forms()}
    for what, reasons in (("SKIPPED", diffgen.SKIPPED), ("ERRORS_ONLY", diffgen.ERRORS_ONLY),
                          ("NEVER_FOR", diffgen.NEVER_FOR)):
        for key, reason in reasons.items():
            assert reason, f"diffgen.{what}[{key!r}] gives no reason"
            name = key.split(".", 1)[-1]
            assert name in public or name in table or name in diffgen.SKIP, f"diffgen.{what}: no function {key!r}"
    assert all(diffgen.NEVER.values())
    for name in diffgen_recipes_names():
        assert name in table, f"a recipe for {name!r}, which the op table does not have"


def diffgen_recipes_names():
    from diffgen_recipes import RECIPES

    return RECIPES


def test_every_public_form_is_in_the_generators_table_or_skipped():
    rows = difftest_coverage.rows()
    missing = [f"{prefix}.{name}" for prefix, name in difftest_coverage.public_forms()
               if (difftest_coverage.FORMS[prefix], name) not in rows
               and not (diffgen.SKIPPED.get(f"{prefix}.{name}") or diffgen.SKIPPED.get(name))]
    assert not missing, f"not drawn and not in diffgen.SKIPPED with a reason: {missing}"


def test_the_coverage_report_names_what_is_not_drawn():
    result = {("torch", "made_up"): {"tried": 5, "ran": 0, "passed": set(), "optional": set(), "in_table": True},
              ("F", "conv2d"): {"tried": 5, "ran": 2, "passed": {"bias"}, "optional": {"bias", "stride", "out"},
                                "in_table": True},
              ("Tensor", "add"): {"tried": 5, "ran": 5, "passed": {"alpha"}, "optional": {"alpha", "out"},
                                  "in_table": True},
              ("torch", "eig"): {"tried": 5, "ran": 0, "passed": set(), "optional": set(), "in_table": True},
              ("torch", "empty"): {"tried": 0, "ran": 0, "passed": set(), "optional": set(), "in_table": False}}
    never, kwargs, skipped = difftest_coverage.report(result)
    assert never == ["torch.made_up"]
    # (out= is drawn for the torch/F/linalg/special forms, diffgen_out.py; a Tensor method takes none)
    assert kwargs == [("F.conv2d", ["out", "stride"])]
    assert skipped == ["torch.empty"]  # (eig: every call raises, drawn as a test of the error)


@pytest.mark.torch
def test_generator_draws_every_public_form_with_its_keyword_arguments():
    result = difftest_coverage.measure(trials=40)
    never, kwargs, _ = difftest_coverage.report(result)
    assert not never, ("never drawn in a statement PyTorch runs (give it arguments in tools/diffgen.py or "
                       f"tools/diffgen_recipes.py, or a reason in diffgen.SKIPPED): {never}")
    assert not kwargs, ("drawn without these keyword arguments (draw them, or give a reason in diffgen.NEVER / "
                        f"NEVER_FOR): {kwargs}")


def _calls(name, form, seeds, out_share=None):
    """(generator, ran) for one call of ``name`` (its ``form``) in each of ``seeds``' fresh programs."""
    row = next(r for r in diffgen.op_table() if r[0] == name and r[1] == form)
    for seed in seeds:
        gen = diffgen.Generator(seed, steps=0)
        if out_share is not None:
            gen.out_share = out_share
        for _ in range(gen.rng.randint(1, 3)):
            gen.new_input()
        yield gen, gen.call(row)


@pytest.mark.torch
def test_out_tensors_are_drawn_of_each_kind_and_mostly_run():
    """out= (tools/diffgen_out.py): the right shape and dtype, no elements, another shape or dtype, a view,
    one of the inputs; PyTorch runs most of them, and a tuple result gets a tuple of outs."""
    kinds, ran, drawn = set(), 0, 0
    for gen, ok in _calls("add", "torch", range(60), out_share=1.0):
        call = gen.lines[-1] if gen.lines else ""
        if "out=" not in call:  # (PyTorch refused the call, with or without an out: mostly not kept)
            assert not ok, gen.lines
            continue
        drawn += 1
        ran += bool(ok)
        out = call.split("out=")[1].rstrip(")")
        made = [line for line in gen.lines if line.startswith(f"{out} = ")]
        kinds.add("input" if not out.startswith("o") else "view" if "::2]" in made[0] or "1::2]" in made[0]
                  else "empty" if "torch.zeros(0," in made[0] else "other")
    assert kinds == {"input", "view", "empty", "other"}
    assert drawn >= 20 and ran >= drawn // 3, (ran, drawn)
    tuples = [gen.lines[-1] for gen, ok in _calls("sort", "torch", range(20), out_share=1.0) if ok]
    assert any("out=(o" in line for line in tuples), tuples


@pytest.mark.torch
def test_interpolate_draws_uint8_images_and_histogramdd_its_range_and_weight():
    uint8 = [gen.lines[-1] for gen, ok in _calls("interpolate", "F", range(150))
             if ok and any("torch.uint8" in line for line in gen.lines[-2:-1])]
    modes = {m for m in ("nearest", "bilinear", "bicubic") for line in uint8 if f"'{m}'" in line}
    assert modes == {"nearest", "bilinear", "bicubic"}, uint8
    passed = set()
    for gen, ok in _calls("histogramdd", "torch", range(30)):
        if ok:
            passed.update(gen.last_params)
    assert {"range", "weight", "density"} <= passed
