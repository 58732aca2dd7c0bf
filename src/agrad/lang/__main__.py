"""``python -m agrad.lang FILE... [-e CODE]...``: run a script, for debugging
and benchmarks (the real command line is ``agrad``).  Prints what the script
printed; errors and warnings go to standard error; exit 1 on a script error,
2 on a syntax error."""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    from . import Source, ScriptSyntaxError, run

    args = list(sys.argv[1:] if argv is None else argv)
    sources = []
    timeout = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-e" and i + 1 < len(args):
            sources.append(Source(f"<expr {sum(1 for s in sources if s.name.startswith('<expr')) + 1}>",
                                  args[i + 1]))
            i += 2
            continue
        if a == "--timeout" and i + 1 < len(args):
            timeout = float(args[i + 1])
            i += 2
            continue
        if a == "-":
            sources.append(Source("<stdin>", sys.stdin.read()))
        else:
            with open(a, encoding="utf-8") as f:
                sources.append(Source(a, f.read()))
        i += 1
    res = run(sources, timeout=timeout)
    sys.stdout.write(res.stdout)
    for w in res.warnings:
        print(w.render(), file=sys.stderr)
    if res.error is not None:
        print(res.error.render(), file=sys.stderr)
        sys.stdout.flush()
        code = 2 if isinstance(res.error, ScriptSyntaxError) else 1
        if res.worker_alive:
            import os
            os._exit(code)
        return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
