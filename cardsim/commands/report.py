"""`cardsim report`: run (or reuse) the default experiment suite and write the HTML and PDF report.

Signature registered by cli.py as ``app.command("report")(report_command)``::

    report_command(game: list[str] = all landed, quick: bool = False, out: Path = reports,
                   seed: int = 0, jobs: int | None = all cores, store: Path | None = results,
                   no_store: bool = False, quiet: bool = False, verbose: bool = False,
                   backend: str = joblib, scheduler: str | None = None) -> None

A thin wrapper over :func:`cardsim.api.report`, which writes ``<out>/cardsim-report.html`` and
``<out>/cardsim-report.pdf``; this prints where, and the notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardsim.commands.common import (
    AllCoresJobsOpt,
    ClusterOptions,
    ClusterOpts,
    NoStoreOpt,
    QuietOpt,
    SeedOpt,
    StoreOpt,
    resolve_store,
)
from cardsim.sims.registry import games


def report_command(
    game: Annotated[
        list[str] | None,
        typer.Option(
            "--game",
            help="Limit to these games (comma separated or repeated): "
            f"{', '.join(n for n, g in games().items() if g.report_section)}.",
        ),
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="Small samples (under 2 minutes, wide intervals).")] = False,
    out: Annotated[Path, typer.Option("--out", help="Folder for the report files.")] = Path("reports"),
    seed: SeedOpt = 0,
    jobs: AllCoresJobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    quiet: QuietOpt = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Also print one line per experiment (its n and stop rule).")
    ] = False,
) -> None:
    """Write reports/cardsim-report.html and .pdf from the default experiment suite.

    Runs each landed game's experiments (reusing stored chunks), then renders one self-contained
    HTML file and one PDF, and findings.json beside them (every figure with n and 95%
    intervals: the file of record the README and guides are generated from; --quick writes
    findings-quick.json instead, never shipped). Same store and seed: byte-identical files.
    Shows one progress bar over all experiments (done, time elapsed); --verbose adds a line
    per experiment.

    Example: cardsim report --quick --game gang
    """
    from cardsim.api import report

    result = report(
        game=game or (),
        quick=quick,
        out=out,
        seed=seed,
        jobs=jobs,
        **cluster.keywords(),
        store=resolve_store(store, no_store),
        verbose=verbose,
        quiet=quiet,
    )
    manifest = result.manifest
    if not quiet:
        for line in manifest["skipped"]:
            typer.echo(f"note: {line}", err=True)
        typer.echo(f"done in {manifest['seconds']:.0f} s", err=True)
    typer.echo(f"{manifest['html']}\n{manifest['pdf']} ({manifest['pdf_pages']} pages)\n{manifest['findings']}")
