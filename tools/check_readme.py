"""Run the README's `$ agrad ...` examples and show where their output changed.

    python tools/check_readme.py            # every example; exit 1 if one differs
    python tools/check_readme.py --write    # replace the README's outputs by today's

Each fenced block whose first line starts with ``$ agrad`` is run as a user
would run it from the repository's root (in a scratch directory that links
``examples/``, so the files examples write do not land in the checkout) (``sh -c``, standard error on standard output
unless the command redirects it, 80 columns, no colour) and compared with the lines
that follow it in the block (or with its standard output alone, where the
README leaves the notes on standard error out).  Memory addresses are
ignored, and a line that is only "…" stands for any number of lines.  Blocks whose
command reads a terminal or a browser are skipped (``--open``, ``--serve``).
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```[a-z]*\n(\$ agrad .*?)^```\n", re.M | re.S)
ADDRESS = re.compile(r"0x[0-9a-f]{6,}")
SKIP = ("--open", "--serve", "--watch")


def examples(text):
    """(start, end, command, output) of each ``$ agrad`` command: a block may hold several."""
    for m in FENCE.finditer(text):
        pos = m.start(1)
        for part in re.split(r"(?m)^(?=\$ )", m.group(1)):
            if part:
                command, _, output = part.partition("\n")
                yield pos, pos + len(part), command[2:], output
            pos += len(part)


def run(command: str, merged: bool = True) -> str:
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb",
           "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    shell = command.replace("agrad ", f"{sys.executable} -m agrad ", 1) if command.startswith("agrad ") else command
    shell = re.sub(r"\| agrad ", f"| {sys.executable} -m agrad ", shell)
    with tempfile.TemporaryDirectory() as d:  # files the examples write (graph.html, ...) land there
        os.symlink(ROOT / "examples", Path(d) / "examples")
        r = subprocess.run(["sh", "-c", ("exec 2>&1; " if merged else "exec 2>/dev/null; ") + shell],
                           cwd=d, env=env, capture_output=True, text=True, timeout=300)
    return r.stdout


def normalise(text: str) -> list[str]:
    return [ADDRESS.sub("0x…", line.rstrip()) for line in text.rstrip("\n").splitlines()]


def matches(expected: list[str], got: list[str]) -> bool:
    """Line by line; a line that is only "…" in the README stands for any number of lines."""
    if not expected:
        return not got
    if expected[0] == "…":
        return any(matches(expected[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and expected[0] == got[0] and matches(expected[1:], got[1:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write today's outputs into the README")
    args = ap.parse_args()
    text = README.read_text(encoding="utf-8")
    changed = checked = 0
    pieces, last = [], 0
    for start, end, command, expected in examples(text):
        if any(flag in command for flag in SKIP):
            continue
        got = run(command)
        if got.startswith("sh: ") and "not found" in got.splitlines()[0]:
            continue  # a tool the example pipes into (dot, jq) is not installed here
        checked += 1
        want = normalise(expected)
        if not matches(want, normalise(got)):
            quiet = run(command, merged=False)  # the README may show standard output alone
            if matches(want, normalise(quiet)):
                continue
        if not matches(want, normalise(got)):
            changed += 1
            print(f"--- {command}")
            for line in difflib.unified_diff(normalise(expected), normalise(got), "README", "now", lineterm="", n=1):
                print(line)
            pieces += [text[last:start], f"$ {command}\n", got if got.endswith("\n") else got + "\n"]
            last = end
    pieces.append(text[last:])
    if args.write and changed:
        README.write_text("".join(pieces), encoding="utf-8")
    print(f"{checked} example(s) run, {changed} differ" + (" (written)" if args.write and changed else ""))
    return 1 if changed and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
