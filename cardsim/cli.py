"""The `cardsim` command line: parses, then delegates to `cardsim.commands.*`.

Only the sub-command named on the command line is imported (a game's numba kernels and the
report's matplotlib cost seconds to import), so `cardsim runs list` starts fast. Every user error
(``UserError``, a bad option) ends as one line on stderr and exit code 2; an unforeseen file
system error (disk full) as one line and exit code 1; Ctrl-C during a run keeps the finished
chunks and exits 130.
"""

from __future__ import annotations

import importlib
import os
import sys

import typer

from cardsim import __version__
from cardsim.commands.common import wrap_root_command
from cardsim.errors import Interrupted, UserError
from cardsim.sims.core.game import resolve

# Sub-commands that are not games (the games' come from the registry, before these).
HELPERS: dict[str, str] = {
    "poker": "Poker engine: hand scores, equity, exact percentiles, the pre-flop table.",
    "runs": "List, inspect and prune stored runs.",
    "tune": "Difficulty tuning: configurations closest to a target win rate.",
}
HELPER_EXAMPLES: dict[str, str] = {
    "poker": 'cardsim poker equity "As Ah" --board "Kd 7c 2s"',
    "runs": "cardsim runs list",
    "tune": "cardsim tune gang --players 3-6 --model history --target 0.5",
}
REPORT_HELP = "Write reports/cardsim-report.html and .pdf from the default experiment suite."


def _click_exception_types() -> tuple[type[Exception], ...]:
    """Click's usage-error base class: recent typer releases vendor click, older ones import it."""
    found = []
    for module_name in ("typer._click.exceptions", "click.exceptions"):
        try:
            found.append(importlib.import_module(module_name).ClickException)
        except (ImportError, AttributeError):
            continue
    return tuple(found)


CLICK_ERRORS = _click_exception_types()
# The environment variable through which a shell asks for completions (typer's convention).
COMPLETE_VARIABLE = "_CARDSIM_COMPLETE"


def sub_apps() -> dict[str, tuple[str, str, str]]:
    """Sub-command -> (one-line help, example, dotted path of its typer app): every registered
    game that declares a command line, in the registry's order, then the helpers."""
    from cardsim.sims.registry import games

    found = {name: (game.help, game.example, game.cli) for name, game in games().items() if game.cli}
    for name, help_text in HELPERS.items():
        found.setdefault(name, (help_text, HELPER_EXAMPLES[name], f"cardsim.commands.{name}:app"))
    return found


def _group_help(help_text: str, example: str) -> str:
    """A group's one-line help and its example (``\\b`` keeps click from re-flowing it)."""
    return f"{help_text}\n\n\b\nExample: {example}"


def _game_titles() -> str:
    """Every registered game's title, as "The Gang, The Game, Cash'n Guns and Bang!"."""
    from cardsim.sims.registry import games

    titles = [game.title for game in games().values()]
    return " and ".join(filter(None, [", ".join(titles[:-1]), titles[-1]]))


def _stub(help_text: str) -> typer.Typer:
    """A help-only entry for a sub-command that is not the one being run."""
    return typer.Typer(help=help_text, rich_markup_mode=None)


def _bench_targets() -> str:
    """'poker, gang, ... or compile': the benchmark targets for the help line."""
    from cardsim.sims.registry import games

    names = ["poker", *(name for name, game in games().items() if game.bench), "envs", "strategies", "compile"]
    return f"{', '.join(names)} or report."


def bench(
    target: str = typer.Argument(..., help=_bench_targets()),
    quick: bool = typer.Option(False, "--quick", help="Shorter measurements (rougher figures)."),
    as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
    record: bool = typer.Option(
        False,
        "--record",
        help="Also save the rows with the date, commit and machine "
        "in benchmarks/results/DATE-TARGET.json (a source checkout's).",
    ),
) -> None:
    """Speed benchmarks, as ratios against a reference run in the same process; 'report' times
    the README's main command from a fresh clone (clone, venv, install, cardsim report).

    strategies: each game's engine for user strategies, with a trivial strategy, beside its
    kernel on the same table, against the targets per CPU-second.

    Example: cardsim bench poker
    """
    from cardsim.commands.bench import bench_command

    bench_command(target, quick, as_json, record=record)


def version() -> None:
    """Print the package version (same as `cardsim --version`)."""
    typer.echo(__version__)


def _show_version(value: bool) -> None:
    """``--version``: print the package version and stop (eager, before any sub-command)."""
    if value:
        typer.echo(__version__)
        raise typer.Exit()


def _root(
    show_version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Print the package version and exit."
    ),
) -> None:
    """Monte Carlo strategy analysis (the root's options only; sub-commands do the work)."""


def _listed_only() -> None:
    """Never runs: stands in the command list for a sub-command that was not imported."""


def build_app(wanted: str | None = None) -> typer.Typer:
    """The typer app; only the sub-command ``wanted`` is imported (None: every one)."""
    app = typer.Typer(
        name="cardsim",
        help=f"Monte Carlo strategy analysis for {_game_titles()}",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=True,
        rich_markup_mode=None,
    )
    app.callback()(_root)
    for name, (help_text, example, where) in sub_apps().items():
        sub_app = resolve(where) if wanted in (None, name) else _stub(help_text)
        app.add_typer(sub_app, name=name, help=_group_help(help_text, example), short_help=help_text)
    if wanted in (None, "report"):
        report_command = importlib.import_module("cardsim.commands.report").report_command
        app.command("report", help=None)(wrap_root_command(report_command, "report"))
    else:
        app.command("report", help=REPORT_HELP)(_listed_only)
    app.command("bench")(wrap_root_command(bench, "bench"))
    app.command("warmup")(importlib.import_module("cardsim.commands.warmup").warmup_command)
    app.command("version")(version)
    return app


def __getattr__(name: str) -> typer.Typer:
    """``cardsim.cli.app``: the full app with every sub-command (for tests and typer's runner)."""
    if name == "app":
        return build_app()
    raise AttributeError(name)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: turns every user error into one line and an exit code
    (``argv``: the arguments, default ``sys.argv[1:]``)."""
    args = sys.argv[1:] if argv is None else list(argv)
    words = [word for word in args if not word.startswith("-")]
    wanted: str | None = words[0] if words and words[0] in (*sub_apps(), "report") else ""
    if os.environ.get(COMPLETE_VARIABLE):
        wanted = None  # shell completion: every sub-command's options, not stubs
    try:
        code = build_app(wanted)(args=args, prog_name="cardsim", standalone_mode=False)
    except UserError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except Interrupted as exc:
        typer.echo(str(exc), err=True)
        sys.exit(130)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo(
            "interrupted: finished runs and chunks are kept in the store (if any); run the same command to resume",
            err=True,
        )
        sys.exit(130)
    except CLICK_ERRORS as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            # bare `cardsim` (or `cardsim gang`): the help is what was asked for, not an error
            typer.echo(exc.format_message())
            sys.exit(0)
        typer.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        # the reader went away (`cardsim ... | head`): stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as exc:
        # a file system error the command did not foresee (disk full, permissions): one line
        where = f": {exc.filename}" if exc.filename else ""
        typer.echo(f"error: {exc.strerror or exc}{where}", err=True)
        sys.exit(1)
    except Exception as exc:
        if not _worker_lost(exc):
            raise
        # Ctrl-C (or a kill) reached the worker processes only, outside a stored run's chunks
        typer.echo(
            f"interrupted: a worker process was stopped ({type(exc).__name__}); finished "
            "runs are kept in the store (if any); run the same command to resume",
            err=True,
        )
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


def _worker_lost(exc: BaseException) -> bool:
    """Whether ``exc`` is a worker pool's 'a worker process died' error (joblib's loky, the
    standard library's, or dask's: a task whose workers kept dying, a lost scheduler), told by
    name so the command line never imports joblib or dask to ask."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & {"BrokenProcessPool", "TerminatedWorkerError", "KilledWorker", "CommClosedError"})


if __name__ == "__main__":
    main()
