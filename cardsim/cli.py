"""The `cardsim` command line: parses, then delegates to `cardsim.commands.*`.

Every user error (``UserError``, a bad option) ends as one line on stderr and exit code 2;
Ctrl-C during a run keeps the finished chunks and exits 130.
"""

from __future__ import annotations

import importlib
import sys

import typer

from cardsim import __version__
from cardsim.errors import Interrupted, UserError



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

app = typer.Typer(
    name="cardsim",
    help="Monte Carlo strategy analysis for The Gang, The Game, Cash'n Guns and Bang!",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

GAME_APPS = {
    "gang": "The Gang: heist success and game win rates per player model, mode and card.",
    "thegame": "The Game: win rates and cards left per player count and strategy.",
    "cashnguns": "Cash'n Guns: payoff matrices of strategies and their equilibria.",
    "bang": "Bang!: role and character win rates for 4-7 players.",
    "runs": "List and inspect stored runs.",
    "tune": "Difficulty tuning: configurations closest to a target win rate.",
}


def _not_yet(name: str, help_text: str) -> typer.Typer:
    placeholder = typer.Typer(help=f"{help_text} (not yet available)")

    @placeholder.callback(invoke_without_command=True)
    def unavailable() -> None:
        raise UserError(f"'cardsim {name}' is not yet available")

    return placeholder


def _sub_app(name: str, help_text: str) -> typer.Typer:
    module_name = f"cardsim.commands.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return _not_yet(name, help_text)
    return module.app


for _name, _help in GAME_APPS.items():
    app.add_typer(_sub_app(_name, _help), name=_name, help=_help)


@app.command("bench")
def bench(
    target: str = typer.Argument(..., help="poker, gang, thegame, cashnguns or bang."),
    quick: bool = typer.Option(False, "--quick", help="Shorter measurements (rougher figures)."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Speed benchmarks, as ratios against a reference run in the same process.

    Example: cardsim bench poker
    """
    from cardsim.commands.bench import bench_command

    bench_command(target, quick, as_json)


def _register_report() -> None:
    module_name = "cardsim.commands.report"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise

        def report_unavailable() -> None:
            """Write the HTML and PDF report (not yet available).

            Example: cardsim report
            """
            raise UserError("'cardsim report' is not yet available")

        app.command("report")(report_unavailable)
        return
    app.command("report")(module.report_command)


_register_report()


@app.command("version")
def version() -> None:
    """Print the package version."""
    typer.echo(__version__)


def main() -> None:
    """Console-script entry point: turns every user error into one line and an exit code."""
    try:
        code = app(standalone_mode=False)
    except UserError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except Interrupted as exc:
        typer.echo(str(exc), err=True)
        sys.exit(130)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except CLICK_ERRORS as exc:
        typer.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
