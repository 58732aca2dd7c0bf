"""What the differential tester's generator (tools/diffgen.py) draws, against the whole op table.

Usage: python tools/difftest_coverage.py [--trials 40] [--all]

For every public function and method docs/ops.md lists (each way it is reachable:
``torch.x``, ``Tensor.x``, ``F.x``, ``linalg.x``, ``special.x``) the tool asks the
generator for up to ``--trials`` calls of it, each in a fresh program with a
few random inputs, and records which calls PyTorch ran and which of the
function's optional parameters those calls passed. It prints

- the forms never drawn: not in the generator's table, or never a statement
  PyTorch runs (a required argument the generator cannot make, or arguments
  PyTorch always rejects), unless ``diffgen.SKIPPED`` gives the reason;
- the forms drawn without some of their keyword arguments, unless
  ``diffgen.NEVER`` (any function) or ``diffgen.NEVER_FOR`` (one function)
  gives the reason;

and the share of the table drawn. tests/autograd/test_difftest_coverage.py
fails when a form or keyword argument shows up here without a reason.
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import argparse
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT / "src", ROOT / "tools"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import diffgen  # noqa: E402
import diffgen_out  # noqa: E402

#: docs/ops.md's prefix -> the generator's form
FORMS = {"torch": "torch", "Tensor": "method", "F": "F", "linalg": "linalg", "special": "special"}


def public_forms() -> list[tuple[str, str]]:
    """(prefix, name) for every place docs/ops.md says a public function is reachable."""
    import gen_ops_doc

    out = []
    for entry in gen_ops_doc.public_functions().values():
        for where in entry["where"]:
            prefix, name = where.split(".", 1)
            out.append((prefix, name))
    return sorted(set(out))


def rows() -> dict:
    """(form, name) -> the generator's row, for every function it can draw (random ones included)."""
    table = {(form, name): (name, form, sig) for name, form, sig in diffgen.op_table()}
    for name, form, sig in diffgen.op_table(random_ops=True):
        table.setdefault((form, name), (name, form, sig))
    return table


def optional_params(sig, form: str) -> list[str]:
    params = list(sig.parameters.values())
    if form == "method":
        params = params[1:]
    return [p.name for p in params if p.default is not p.empty
            and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def probe(row, trials: int, seed: int = 0) -> dict:
    """Up to ``trials`` calls of one row: how many PyTorch ran, and the optional parameters they passed;
    then, for a function that takes out= (tools/diffgen_out.py), up to ``trials`` calls that pass one."""
    name, form, sig = row
    wanted = set(optional_params(sig, form))
    ran, passed, tried = 0, set(), 0
    for share, enough in ((0.0, wanted - {"out"}), (1.0, {"out"})):
        if share and (not ran or "out" not in wanted):
            break
        for i in range(trials):
            gen = diffgen.Generator(seed + i, steps=0)
            gen.out_share = share
            for _ in range(gen.rng.randint(1, 3)):
                gen.new_input()
            tried += 1
            if gen.call(row):
                ran += 1
                passed.update(gen.last_params)
            if ran and enough <= passed:
                break
    return {"tried": tried, "ran": ran, "passed": passed, "optional": wanted}


def never_reason(prefix: str, name: str, param: str) -> str | None:
    """Why ``param`` of ``prefix.name`` is never passed (None: it should be). out= is drawn for every form
    but the Tensor methods' (tools/diffgen_out.py), unless NEVER_FOR names the function."""
    return diffgen.NEVER_FOR.get(f"{prefix}.{name}", {}).get(param) or diffgen.NEVER_FOR.get(name, {}).get(
        param) or (diffgen.NEVER.get(param) if param != "out" or prefix == "Tensor" else
                   diffgen_out.never_reason(name))


def measure(trials: int = 40, seed: int = 0, progress: bool = False, only=None) -> dict:
    table = rows()
    result = {}
    forms = [f for f in public_forms() if only is None or ".".join(f) in only]
    for k, (prefix, name) in enumerate(forms):
        row = table.get((FORMS[prefix], name))
        if progress and k % 100 == 0:
            print(f"  {k}/{len(forms)}", file=sys.stderr, flush=True)
        if row is None:
            result[(prefix, name)] = {"tried": 0, "ran": 0, "passed": set(), "optional": set(), "in_table": False}
            continue
        info = probe(row, trials, seed)
        info["in_table"] = True
        result[(prefix, name)] = info
    return result


def report(result: dict) -> tuple[list, list, list]:
    """(forms never drawn without a reason, (form, missing kwargs) without a reason, deliberately skipped)."""
    never, kwargs, skipped = [], [], []
    for (prefix, name), info in sorted(result.items()):
        form = f"{prefix}.{name}"
        reason = diffgen.SKIPPED.get(form) or diffgen.SKIPPED.get(name)
        if info["ran"] == 0:
            if not reason and info["in_table"] and name in diffgen.ERRORS_ONLY:
                continue  # (drawn: every call is a test of PyTorch's error)
            (skipped if reason else never).append(form)
            continue
        missing = sorted(p for p in info["optional"] - info["passed"] if not never_reason(prefix, name, p))
        if missing:
            kwargs.append((form, missing))
    return never, kwargs, skipped


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", help="forms to measure, comma-separated (torch.conv2d,Tensor.abs_)")
    ap.add_argument("--all", action="store_true", help="also list the forms skipped with a reason")
    args = ap.parse_args(argv)
    result = measure(args.trials, args.seed, progress=True,
                     only=set(args.only.split(",")) if args.only else None)
    never, kwargs, skipped = report(result)
    total = len(result)
    drawn = sum(1 for info in result.values() if info["ran"])
    names = {name for _, name in result}
    names_drawn = {name for (_, name), info in result.items() if info["ran"]}
    print(f"{drawn} of {total} forms drawn ({100 * drawn / total:.1f}%); "
          f"{len(names_drawn)} of {len(names)} functions ({100 * len(names_drawn) / len(names):.1f}%)")
    full = sum(1 for (p, n), info in result.items() if info["ran"] and not any(
        not never_reason(p, n, q) for q in info["optional"] - info["passed"]))
    print(f"{full} forms drawn with every keyword argument not excluded with a reason")
    print(f"\nnever drawn, no reason ({len(never)}):")
    for form in never:
        info = result[tuple(form.split(".", 1))]
        why = "not in the generator's table" if not info["in_table"] else f"PyTorch ran 0 of {info['tried']}"
        print(f"  {form}: {why}")
    print(f"\ndrawn without keyword arguments, no reason ({len(kwargs)}):")
    for form, missing in kwargs:
        print(f"  {form}: {', '.join(missing)}")
    if args.all:
        print(f"\nskipped with a reason ({len(skipped)}):")
        for form in skipped:
            print(f"  {form}: {diffgen.SKIPPED.get(form) or diffgen.SKIPPED.get(form.split('.', 1)[1])}")
    return 1 if never or kwargs else 0


if __name__ == "__main__":
    raise SystemExit(main())
