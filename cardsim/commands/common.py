"""Options and helpers shared by every command: run through the runner, print tables."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Annotated, Any

import polars as pl
import typer

from cardsim.errors import UserError
from cardsim.sims.core.runner import RunResult, run
from cardsim.sims.registry import get_simulator

DEFAULT_STORE = Path("results")

NOpt = Annotated[int, typer.Option("--n", help="Episodes to play (minimum when --precision is set).")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Root seed: same seed, same numbers.")]
JobsOpt = Annotated[
    int | None, typer.Option("--jobs", help="Worker processes (default: all cores).")
]
BackendOpt = Annotated[
    str, typer.Option("--backend", help="joblib (this machine) or dask (a cluster).")
]
SchedulerOpt = Annotated[
    str | None, typer.Option("--scheduler", help="Dask scheduler address, tcp://host:port.")
]
StoreOpt = Annotated[
    Path | None,
    typer.Option("--store", help="Results folder (default $CARDSIM_STORE or ./results)."),
]
PrecisionOpt = Annotated[
    float | None,
    typer.Option(
        "--precision", help="Stop when the headline's 95% Wilson half-width is below this."
    ),
]
MaxNOpt = Annotated[
    int | None, typer.Option("--max-n", help="Upper bound on episodes with --precision.")
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or notes.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
NoStoreOpt = Annotated[
    bool, typer.Option("--no-store", help="Keep results in memory only (nothing written).")
]


def resolve_store(store: Path | None, no_store: bool = False) -> Path | None:
    """The results folder: the option, else $CARDSIM_STORE, else ./results (None: no store)."""
    if no_store:
        return None
    if store is not None:
        return store
    env = os.environ.get("CARDSIM_STORE")
    return Path(env) if env else DEFAULT_STORE


def default_jobs(jobs: int | None) -> int:
    """All cores unless told otherwise."""
    return jobs if jobs is not None else (os.cpu_count() or 1)


def execute(
    game: str,
    config: Any,
    *,
    n: int,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "joblib",
    scheduler: str | None = None,
    store: Path | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    quiet: bool = False,
    no_store: bool = False,
) -> RunResult:
    """Run ``config`` of ``game`` through the runner and the store, with a progress bar."""
    result = run(
        get_simulator(game),
        config,
        n=n,
        seed=seed,
        jobs=default_jobs(jobs),
        backend=backend,
        scheduler=scheduler,
        store=resolve_store(store, no_store),
        precision=precision,
        max_n=max_n,
        progress=not quiet,
    )
    if not quiet:
        where = f" -> {result.path}" if result.path else ""
        typer.echo(f"[{game}] {result.stop_rule}{where}", err=True)
    return result


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


def parse_range(text: str, *, name: str = "players") -> list[int]:
    """'4' -> [4]; '3-6' -> [3, 4, 5, 6]; '3,5' -> [3, 5]."""
    values: list[int] = []
    for part in text.split(","):
        match = _RANGE.match(part)
        if not match:
            raise UserError(f"{name}: expected a number, a range like 3-6 or a list like 3,5; got {text!r}")
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if high < low:
            raise UserError(f"{name}: empty range {part.strip()!r}")
        values.extend(range(low, high + 1))
    return values


def parse_choice(text: str, choices: list[str], *, name: str) -> list[str]:
    """'all' -> every choice; 'a,b' -> [a, b], each checked against ``choices``."""
    if text == "all":
        return list(choices)
    picked = [item.strip() for item in text.split(",") if item.strip()]
    unknown = [item for item in picked if item not in choices]
    if unknown or not picked:
        raise UserError(f"unknown {name} {', '.join(unknown) or text!r}; choose from: {', '.join(choices)}, all")
    return picked


def _format(value: Any) -> str:
    if isinstance(value, float):
        if value != value:  # nan
            return "-"
        return f"{value:.4f}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def show_table(frame: pl.DataFrame, *, title: str = "", as_json: bool = False) -> None:
    """Print a table readably (rich) or as JSON rows."""
    if as_json:
        typer.echo(json.dumps({"title": title, "rows": frame.to_dicts()}, default=str))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title or None, show_lines=False)
    for column in frame.columns:
        numeric = frame.schema[column].is_numeric()
        table.add_column(column, justify="right" if numeric else "left")
    for row in frame.iter_rows():
        table.add_row(*(_format(value) for value in row))
    Console().print(table)
