"""`cardsim report`: run (or reuse) the default experiment suite and write the HTML and PDF report.

Signature registered by cli.py as ``app.command("report")(report_command)``::

    report_command(game: list[str] = all landed, quick: bool = False, out: Path = reports,
                   seed: int = 0, jobs: int | None = all cores, store: Path | None = results,
                   quiet: bool = False, verbose: bool = False) -> None

Writes ``<out>/cardsim-report.html`` and ``<out>/cardsim-report.pdf``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from cardsim.commands.common import (
    AllCoresJobsOpt,
    QuietOpt,
    SeedOpt,
    StoreOpt,
    check_output_folder,
    default_jobs,
    resolve_store,
    split_names,
)
from cardsim.errors import UserError
from cardsim.reports.build import ALL_GAMES, write_report
from cardsim.reports.suite import PROFILES


def report_command(
    game: Annotated[
        list[str] | None,
        typer.Option("--game", help="Limit to these games (comma separated or repeated): gang, "
                     "thegame, cashnguns, bang."),
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="Small samples (under 2 minutes, wide intervals).")
    ] = False,
    out: Annotated[Path, typer.Option("--out", help="Folder for the report files.")] = Path("reports"),
    seed: SeedOpt = 0,
    jobs: AllCoresJobsOpt = None,
    store: StoreOpt = None,
    quiet: QuietOpt = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Also print one line per experiment (its n and stop rule).")
    ] = False,
) -> None:
    """Write reports/cardsim-report.html and .pdf from the default experiment suite.

    Runs each landed game's experiments (reusing stored chunks), then renders one self-contained
    HTML file and one PDF. Same store and seed: byte-identical files. Shows one progress bar
    with ETA over all experiments; --verbose adds a line per experiment.

    Example: cardsim report --quick --game gang
    """
    check_output_folder(out, what="--out")
    games = split_names(game, name="game") or list(ALL_GAMES)
    unknown = [g for g in games if g not in ALL_GAMES]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)}; choose from: {', '.join(ALL_GAMES)}")
    profile = PROFILES["quick" if quick else "default"]
    started = time.perf_counter()
    written = write_report(
        list(dict.fromkeys(games)), profile=profile, seed=seed, jobs=default_jobs(jobs),
        store=resolve_store(store), out_dir=out, progress=not quiet, verbose=verbose and not quiet,
    )
    if not quiet:
        for line in written.skipped:
            typer.echo(f"note: {line}", err=True)
        typer.echo(f"done in {time.perf_counter() - started:.0f} s", err=True)
    typer.echo(f"{written.html}\n{written.pdf} ({written.pdf_pages} pages)")
