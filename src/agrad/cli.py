"""The ``agrad`` command: eval, graph, check, diff, jacobian, hessian (SPEC §3).

Thin by design: options are parsed here, scripts run through
:mod:`agrad.lang` (via :mod:`agrad.app`), and everything shown
comes from :mod:`agrad.render`.  Exit status: 0 success, 1 the script
raised, 2 usage or syntax error, 3 ``check`` found a mismatch, 130 Ctrl-C.
"""

from __future__ import annotations

import os
import sys

import click

from . import __version__

EXAMPLES = """\b
Examples:
  agrad eval examples/backward_experiment.py
  agrad eval -e 'loss = mean((x*w1+w2)*(x*w1*w3))' --set 'x=ones(2,2)' \\
             --param w1=2 --param w2=3 --param w3=4
  agrad graph examples/backward_experiment.py --saved --grads
  agrad graph model.py --format dot | dot -Tsvg > graph.svg
  agrad graph model.py -o graph.html
  agrad check examples/custom_function.py
  agrad diff -e 'y = sin(x)**2' --param x=1.0
  agrad jacobian -e 'y = sin(x) * x' --param x=[0.5,1.0,2.0]
  agrad hessian -e 'loss = (w ** 3).sum() + w[0] * w[1]' --param w=[1.0,2.0]
  printf 'a = tensor([1., 3.], requires_grad=True)\\nloss = (a*a).sum()\\n' | agrad eval - --format json
"""

EXIT_OK, EXIT_SCRIPT, EXIT_USAGE, EXIT_MISMATCH, EXIT_INTERRUPT = 0, 1, 2, 3, 130


def _seconds(ctx, param, value):
    import math
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value!r} is not a positive number of seconds")
    return value


def _memory_size(ctx, param, value):
    if value is None:
        return None
    from .app.contained import parse_size
    try:
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _chunks(ctx, param, value):
    if value == "auto":  # the default: app.backend is not needed for a numpy run
        return value
    from .app.backend import parse_chunks
    try:
        return parse_chunks(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _contained(command, run, kw) -> int:
    """The command's body runs in a contained child process (app/contained.py)."""
    from .app.contained import run_command
    return run_command(command, run, _request(kw), kw)


def _input_options(formats):
    """The options every command shares (SOURCE, -e, --set, --param, --format, ...), put
    before the command's own when it first needs its parameters (see :class:`_Command`)."""
    def deco(f):
        f.__agrad_formats__ = tuple(formats)
        return f
    return deco


def _input_option_list(formats) -> list:
    """The shared options as click parameters, in the order the help shows them."""
    decorators = [
        click.argument("sources", nargs=-1, metavar="[SOURCE]...",
                       type=click.Path(allow_dash=True, dir_okay=True)),
        click.option("-e", "--expr", "exprs", multiple=True, metavar="CODE",
                     help="Code to run after the SOURCE files (repeatable; named <expr N>)."),
        click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                     help="Bind NAME before the script runs: an agrad expression, or "
                          "@file.npy, @file.npz:key, @file.csv."),
        click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
                     help="Bind tensor(VALUE) as a leaf with requires_grad=True."),
        click.option("--of", "of", metavar="NAME",
                     help="The target variable (default: the tensor of the script's last "
                          "backward(), else the last non-leaf scalar, else the last tensor)."),
        click.option("--format", "fmt", type=click.Choice(formats), default="auto",
                     show_default=True, help="auto = rich on a terminal, plain text when piped."),
        click.option("--columns", type=click.IntRange(min=20), default=None, metavar="N",
                     help="Width of the output (default: the terminal's, else $COLUMNS, else 80)."),
        click.option("-q", "--quiet", is_flag=True,
                     help="No notes on stderr (which target, the automatic backward); "
                          "warnings and errors still show."),
        click.option("--color/--no-color", "color", default=None,
                     help="Colour the rich output, or not (default: on a terminal; "
                          "NO_COLOR and FORCE_COLOR are honoured)."),
        click.option("--dtype", type=click.Choice(["float32", "float64"]), default=None,
                     help="Default float dtype (float32)."),
        click.option("--seed", type=int, default=None, help="manual_seed(N) before the run."),
        click.option("--max-elements", "max_elements", type=click.IntRange(min=0), default=None,
                     metavar="N", help="Largest tensor, list or string (default 10^8; 0: no limit)."),
        click.option("--timeout", type=float, default=None, callback=_seconds,
                     metavar="SECONDS", help="End the run after this long (exit 1)."),
        click.option("--max-memory", "max_memory", default=None, metavar="SIZE",
                     callback=_memory_size,
                     help="Memory the run may use (default 4G; 0: no limit)."),
        click.option("--backend", type=click.Choice(["numpy", "dask", "cupy"]), default="numpy",
                     show_default=True,
                     help="Arrays under the tensors: dask makes @file.npy data lazy and "
                          "chunked (data larger than memory); cupy puts data on a GPU."),
        click.option("--chunks", default="auto", callback=_chunks, metavar="auto|N|N,M|SIZE",
                     help="Chunks of lazy @file data: rows of the first axis, sizes per "
                          "axis, or bytes per chunk (64M); default auto."),
        click.option("--scheduler", default="threads", metavar="threads|processes|ADDRESS",
                     help="Where dask computes: threads (default), processes or a "
                          "dask.distributed scheduler's address; the last two need --trusted."),
        click.option("--trusted", is_flag=True,
                     help="Turn the contained run's system-call filter off (processes, "
                          "network, GPU); the resource limits stay."),
        click.option("--debug", is_flag=True, hidden=True,
                     help="Show Python tracebacks of internal errors."),
    ]

    def holder():  # what click's parameter decorators attach their parameters to
        pass

    for d in reversed(decorators):
        d(holder)
    return holder.__click_params__[::-1]


class _Command(click.Command):
    """A command whose shared input options are made when it first needs its
    parameters (it runs or shows its help): making click's 150 options of all seven
    commands at import cost about 10 M instructions of every start-up."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._formats = getattr(self.callback, "__agrad_formats__", None)

    @property
    def params(self):
        if self._formats is not None:
            formats, self._formats = self._formats, None
            self._params[:0] = _input_option_list(formats)
        return self._params

    @params.setter
    def params(self, value):
        self._params = value


class _Group(click.Group):
    """The ``agrad`` group: its ``main`` turns every outcome into an exit status.

    Usage errors become one message (or one JSON object with ``--format
    json``), Ctrl-C exit 130, a closed pipe a quiet end -- never a traceback.
    """

    command_class = _Command

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        from ._collector import paced
        # Scripts make many small objects (tensors, graph nodes) and keep most of them,
        # in graphs that reference counting frees: the imported modules are frozen, and
        # collections are paced (agrad/_collector.py; docs/semantics.md, Memory)
        # instead of walking a growing graph again and again.
        with paced():
            code = _run(lambda: super(_Group, self).main(
                args=args, prog_name=prog_name or "agrad", complete_var=complete_var,
                standalone_mode=False, **extra), args)
        if not standalone_mode:
            return code
        commands = sys.modules.get("agrad.app.commands")
        if commands is not None and commands.hard_exit_pending():
            # a timed-out script is still running in its worker thread: do not wait for it
            _flush()
            os._exit(code)
        sys.exit(code)


@click.group(cls=_Group,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog=EXAMPLES)
@click.version_option(__version__, "--version", prog_name="agrad", message="%(prog)s %(version)s")
def cli():
    """Differentiate expressions and inspect autograd graphs, with PyTorch's semantics.

    Scripts are a safe subset of Python with the torch namespace in scope;
    tutorial snippets that `import torch` run unchanged.
    """


def _request(kw):
    from .app.session import Request
    return Request(files=kw["sources"], exprs=kw["exprs"], sets=kw["sets"], params=kw["params"],
                   dtype=kw["dtype"], seed=kw["seed"], max_elements=kw["max_elements"],
                   timeout=kw["timeout"], of=kw["of"], backend=_backend(kw))


def _backend(kw):
    """The backend options, checked before the run starts (a usage error, exit 2)."""
    if (kw["backend"] == "numpy" and kw["chunks"] == "auto" and kw["scheduler"] == "threads"
            and not kw["trusted"]):
        return None
    from .app import backend
    from .app.contained import DEFAULT_MAX_MEMORY
    max_memory = kw.get("max_memory")
    cfg = backend.Config(kw["backend"], kw["chunks"], kw["scheduler"], kw["trusted"],
                         DEFAULT_MAX_MEMORY if max_memory is None else max_memory,
                         kw["quiet"] or kw.get("fmt") == "json")  # quiet: no progress either
    try:
        backend.check_options(cfg)
    except backend.BackendError as exc:
        raise click.UsageError(str(exc)) from None
    return cfg


def _plot_out(ctx, param, value):
    """--plot-out FILE: checked before the run (the parent writes it; the child cannot)."""
    if value is None:
        return None
    path = os.path.abspath(value)
    if os.path.isdir(path):
        raise click.BadParameter(f"{value!r} is a directory")
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise click.BadParameter(f"cannot write {value!r}: no such directory {folder!r}")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise click.BadParameter(f"cannot write {value!r}: permission denied")
    if not os.path.exists(path) and not os.access(folder, os.W_OK | os.X_OK):
        raise click.BadParameter(f"cannot write {value!r}: directory {folder!r} is not writable")
    return value


@cli.command("eval", epilog=EXAMPLES)
@_input_options(("auto", "rich", "text", "json"))
@click.option("--no-backward", is_flag=True, help="Never run the automatic backward pass.")
@click.option("--no-table", is_flag=True, help="Show only the script's output, not the table of tensors.")
@click.option("--anomaly", is_flag=True,
              help="Report where the first non-finite value and gradient were made (exit 1 if any).")
@click.option("--plot", "plot", multiple=True, metavar="NAME",
              help="Record scalar variable NAME at the end of each iteration of the loop that "
                   "assigns it; draw a chart after the run (repeatable).")
@click.option("--plot-out", "plot_out", metavar="FILE.svg", callback=_plot_out,
              help="Also write the --plot chart(s) as an SVG file.")
def eval_cmd(**kw):
    """Run a script; show its output and a table of its tensors.

    If the script made no backward pass and the target is a scalar that
    requires grad, agrad runs target.backward() first (a note on stderr says so).
    """
    if kw.get("plot_out") and not kw.get("plot"):
        raise click.UsageError("--plot-out needs --plot NAME (the variable to chart)")
    from .app.commands import run_eval
    return _contained("eval", run_eval, kw)


@cli.command("graph", epilog=EXAMPLES)
@_input_options(("auto", "rich", "text", "json", "dot", "mermaid", "html", "svg"))
@click.option("--saved", is_flag=True, help="Show each node's saved tensors.")
@click.option("--grads", is_flag=True, help="Show the gradient that reached each node.")
@click.option("--expand", is_flag=True,
              help="Draw every node: no collapsed runs (×N [...]) in any format.")
@click.option("--anomaly", is_flag=True,
              help="Report where the first non-finite value and gradient were made (exit 1 if any).")
@click.option("-o", "--output", "output", metavar="FILE", type=click.Path(dir_okay=False, writable=False),
              help="Write the result to FILE instead of standard output (with --format auto, "
                   "the format follows FILE's suffix: .html, .svg, .json, .dot, .mmd).")
@click.option("--flow", is_flag=True,
              help="After the graph: the norm of the gradient that reached each node, flagging "
                   "vanishing (< 1e-7 of the root's) and exploding (> 1e4) flow.")
@click.option("--versions", is_flag=True,
              help="After the graph: each tensor modified in place, its versions with the statement "
                   "that made each, and the saved tensors that expect a version of it.")
def graph_cmd(**kw):
    """Show the autograd graph behind the target, from the root down to the leaves.

    --format html writes one self-contained page to explore it (search, collapse
    and expand, details of each node); --format svg a static picture.
    """
    from .app.commands import run_graph
    return _contained("graph", run_graph, kw)


@cli.command("trace", epilog=EXAMPLES)
@_input_options(("auto", "rich", "text", "json"))
@click.option("--limit", type=click.IntRange(min=0), default=None, metavar="N",
              help="Show the first N steps only.")
@click.option("--node", "node", type=click.IntRange(min=0), default=None, metavar="ID",
              help="Show only the step of node #ID (the ids of agrad graph).")
@click.option("--expand", is_flag=True, help="Show every step: no collapsed runs (×N [...]).")
def trace_cmd(**kw):
    """Replay the backward pass step by step, in the engine's order.

    Per step: the node, the gradients in, the gradient out along each edge,
    the saved tensors read (with versions), the hooks that fired and what they
    returned, and each AccumulateGrad result.  The script's last backward pass,
    else an automatic target.backward().
    """
    from .app.inspector import run_trace
    return _contained("trace", run_trace, kw)


@cli.command("check", epilog=EXAMPLES)
@_input_options(("auto", "rich", "text", "json"))
@click.option("--eps", type=click.FloatRange(min=0, min_open=True), default=1e-6, show_default=True,
              help="Central-difference step.")
@click.option("--atol", type=click.FloatRange(min=0), default=1e-5, show_default=True)
@click.option("--rtol", type=click.FloatRange(min=0), default=1e-3, show_default=True)
@click.option("--samples", type=click.IntRange(min=0), default=64, show_default=True,
              help="Elements checked per leaf (sampled); 0 checks all.")
@click.option("--nodes", is_flag=True,
              help="Also check each node's backward alone (float64) and name the first wrong one.")
def check_cmd(**kw):
    """Check the target's gradients against central differences, in float64.

    Exit status 3 when a leaf's gradient disagrees.
    """
    from .app.commands import run_check
    return _contained("check", run_check, kw)


@cli.command("diff", epilog=EXAMPLES)
@_input_options(("auto", "rich", "text", "json", "latex"))
@click.option("--wrt", "wrt", multiple=True, metavar="NAME",
              help="A leaf to differentiate by (repeatable; default: every leaf the target depends on).")
@click.option("--order", type=click.IntRange(1, 2), default=1, show_default=True,
              help="1: first derivatives; 2: second derivatives (every pair of leaves).")
def diff_cmd(**kw):
    """Print the target's derivatives as expressions in the script's names, then their values.

    The expressions are read from the create_graph=True backward graph and
    simplified; `--format latex` writes LaTeX, `--format json` the expression trees.
    """
    from .app.diff import run_diff
    return _contained("diff", run_diff, kw)


@cli.command("jacobian", epilog=EXAMPLES)
@_input_options(("auto", "rich", "text", "json"))
def jacobian_cmd(**kw):
    """Show the Jacobian of the target with respect to every leaf it depends on.

    One row per element of the target, one column per element of each leaf
    that requires grad (labelled y[0], w[1, 2]); one batched backward pass.
    """
    from .app.commands import run_jacobian
    return _contained("jacobian", run_jacobian, kw)


@cli.command("hessian", epilog=EXAMPLES)
@_input_options(("auto", "rich", "text", "json"))
def hessian_cmd(**kw):
    """Show the Hessian of a scalar target with respect to every leaf it depends on.

    Rows and columns are the elements of the leaves (labelled w[0], b); the
    gradient is taken with create_graph=True and differentiated again.
    """
    from .app.commands import run_hessian
    return _contained("hessian", run_hessian, kw)


# ------------------------------------------------------------------ entry point

def _wants_json(args) -> bool:
    for i, a in enumerate(args):
        if a == "--format" and i + 1 < len(args) and args[i + 1] == "json":
            return True
        if a == "--format=json":
            return True
    return False


def _command_of(args):
    for a in args:
        if a in ("eval", "graph", "check", "diff", "jacobian", "hessian", "trace"):
            return a
        if not a.startswith("-"):
            return None
    return None


def main(argv=None) -> None:
    """Console-script entry point (``agrad = "agrad.cli:main"``)."""
    from .app.contained import process_started
    process_started()  # --timeout counts from here
    code = cli.main(args=argv, prog_name="agrad", standalone_mode=False)
    # The work is done and flushed: skip tearing down the interpreter (module
    # globals, numpy, the frozen heap), which takes longer than the run of a
    # small script.  Output files are closed by then (written with `with`).
    _flush()
    os._exit(code if isinstance(code, int) else EXIT_OK)


def _run(call, args) -> int:
    """Run the group; map every outcome to SPEC §3's exit status."""
    as_json, command = _wants_json(args), _command_of(args)
    from . import _limits, dtypes
    saved = (dtypes.get_default_dtype(), _limits.get_max_elements())
    try:
        rv = call()
        code = rv if isinstance(rv, int) else EXIT_OK
    except click.exceptions.Exit as e:
        code = e.exit_code
    except click.exceptions.NoArgsIsHelpError as e:
        click.echo(e.ctx.get_help() if e.ctx else str(e))
        code = EXIT_USAGE
    except click.ClickException as e:
        from .app.commands import report_usage_error
        code = report_usage_error(e, command, as_json)
    except (click.exceptions.Abort, KeyboardInterrupt):
        code = _interrupted(as_json, command)
    except BrokenPipeError:
        _quiet_pipe()
        code = EXIT_OK
    except Exception as exc:  # a bug in agrad: one line, not a traceback
        if "--debug" in args:
            import traceback
            traceback.print_exc()
        from .app.commands import report_internal_error
        code = report_internal_error(exc, command, as_json)
    finally:
        # --dtype and --max-elements last for one run (the CLI may be driven in-process)
        dtypes.set_default_dtype(saved[0])
        _limits.set_max_elements(saved[1])
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_pipe()
    except (OSError, ValueError, AttributeError):  # AttributeError: stdout closed (>&-)
        pass
    return code


def _flush() -> None:
    for s in (sys.stdout, sys.stderr):
        try:
            s.flush()
        except (OSError, ValueError, AttributeError):
            pass


def _interrupted(as_json, command) -> int:
    from .app.commands import report_interrupt
    report_interrupt(as_json, command)
    from .app.commands import set_hard_exit
    set_hard_exit()  # the script's thread may still be running: the process ends at once
    return EXIT_INTERRUPT


def _quiet_pipe() -> None:
    """Standard output was closed (``agrad ... | head``): end without a word."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    main()
