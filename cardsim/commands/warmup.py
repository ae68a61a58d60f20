"""`cardsim warmup [GAMES]`: compile every numba kernel of the games before a first real run.

Imports nothing heavy at module level: cli.py registers this command for every invocation."""

from __future__ import annotations

import time

import typer

from cardsim.errors import UserError
from cardsim.sims.registry import names as game_names


def warmup_command(
    games: list[str] | None = typer.Argument(None, help=f"Games to compile (default: all): {', '.join(game_names())}."),
    jobs: int | None = typer.Option(None, "--jobs", help="Worker processes (default: all cores)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or notes."),
) -> None:
    """Compile (and cache on disk) every kernel of the games, one process per game, in parallel.

    The first command after installing otherwise spends up to a minute compiling; after this
    every command starts at once.

    Example: cardsim warmup thegame gang
    """
    from cardsim.coldstart import warm_up
    from cardsim.commands.common import search_jobs

    known = game_names()
    chosen = list(dict.fromkeys(games)) if games else known
    unknown = [g for g in chosen if g not in known]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)}; choose from: {', '.join(known)}")
    workers = search_jobs(jobs)
    started = time.perf_counter()
    bar = _bar(len(chosen), quiet)

    def done(finished: tuple[str, int, float]) -> None:
        game, configs, seconds = finished
        if bar is not None:
            bar[0].advance(bar[1])
        if not quiet:
            typer.echo(f"  {game}: {configs} configs compiled in {seconds:.0f} s", err=True)

    try:
        warm_up(chosen, workers, on_done=done)
    finally:
        if bar is not None:
            bar[0].stop()
    if not quiet:
        typer.echo(f"warm-up done in {time.perf_counter() - started:.0f} s", err=True)


def _bar(total: int, quiet: bool):
    """A rich progress bar over the games on stderr (None when quiet or not a terminal)."""
    if quiet:
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        return None
    progress = Progress(
        TextColumn("[bold]compiling"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        console=console,
    )
    progress.start()
    return progress, progress.add_task("compiling", total=total)
