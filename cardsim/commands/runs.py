"""`cardsim runs`: what the results store holds, and deleting what is no longer wanted."""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Annotated

import polars as pl
import typer

from cardsim.commands.common import (
    JsonOpt,
    StoreOpt,
    command_app,
    resolve_store,
    show_table,
    show_value,
)
from cardsim.errors import UserError
from cardsim.sims.core.runner import load_episodes
from cardsim.sims.core.store import (
    StoredRun,
    StoreWriteError,
    delete_run,
    find_run,
    scan_runs,
)
from cardsim.sims.registry import games, get_simulator
from cardsim.stats import proportion_table

app = command_app("runs", help="List, inspect and prune stored runs.", example="cardsim runs list")

_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_LONGEST = timedelta(days=365 * 1000)  # beyond this a duration is a typo (and overflows)
LIST_COLUMNS = ("id", "game", "n", "seed", "created", "stale", "config")


def parse_duration(text: str) -> timedelta:
    """'7d' -> 7 days; units s, m, h, d, w."""
    match = _DURATION.match(text)
    if not match:
        raise UserError(f"--older-than: expected a duration like 12h, 7d or 2w; got {text!r}")
    seconds = int(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if seconds > _LONGEST.total_seconds():
        raise UserError(f"--older-than: {text.strip()} is longer than any run can be old (at most {_LONGEST.days:,}d)")
    return timedelta(seconds=seconds)


def _existing_store(store: Path | None) -> Path:
    """The store to read: a folder named with --store must exist (the default ./results or
    $CARDSIM_STORE may not exist yet: nothing stored)."""
    folder = resolve_store(store)
    assert folder is not None  # no --no-store here
    if store is not None and not folder.exists():
        raise UserError(f"--store: no folder {folder}")
    return folder


def _stale_word(run: StoredRun) -> str:
    stale = run.is_stale()
    return "?" if stale is None else ("yes" if stale else "no")


def _list_row(run: StoredRun) -> dict[str, object]:
    manifest = run.manifest
    config = manifest.get("config_summary")
    if config is None:  # runs made before summaries: every field
        config = " ".join(f"{k}={v}" for k, v in (manifest.get("config") or {}).items())
    return {
        "id": run.run_id,
        "game": str(manifest.get("game", "?")),
        "n": manifest.get("n", 0),
        "seed": manifest.get("seed", 0),
        "created": str(manifest.get("created", "?")),
        "stale": _stale_word(run),
        "config": config,
    }


def _echo_rows(rows: list[dict[str, object]]) -> None:
    """Plain aligned rows, never cut at any width: the config comes last and may run on."""
    cells = [[f"{row[c]:,}" if c == "n" else str(row[c]) for c in LIST_COLUMNS] for row in rows]
    widths = [max(len(name), *(len(line[i]) for line in cells)) for i, name in enumerate(LIST_COLUMNS)]
    for line in [list(LIST_COLUMNS), *cells]:
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


@app.command("list")
def list_command(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """List stored runs: full id (paste it into `runs show`), game, n, seed, created, whether
    the code changed since (stale) and the config's non-default fields. Entries that are not
    readable runs are skipped with one line each on stderr.

    Example: cardsim runs list --store results
    """
    folder = _existing_store(store)
    runs, skipped = scan_runs(folder)
    for message in skipped:
        typer.echo(message, err=True)
    rows = [_list_row(run) for run in runs]
    if as_json:  # stale as true / false / null
        for row in rows:
            row["stale"] = {"yes": True, "no": False}.get(str(row["stale"]))
        frame = pl.DataFrame(rows) if rows else pl.DataFrame({c: [] for c in LIST_COLUMNS})
        show_table(frame, title=f"runs in {folder}", name="runs", as_json=True)
        return
    if not rows:
        typer.echo(f"no runs in {folder}")
        return
    _echo_rows(rows)


@app.command("show")
def show_command(
    run_id: str,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    trust_unhashed: Annotated[
        bool,
        typer.Option(
            "--trust-unhashed",
            help="Read chunks whose hash the manifest does not record (made "
            "before chunk hashes, or stripped) instead of refusing the run.",
        ),
    ] = False,
) -> None:
    """Show one run's manifest and its headline proportion with a 95% Wilson interval.

    Example: cardsim runs show gang-3f2a  (an id prefix is enough)
    """
    stored = find_run(resolve_store(store), run_id)
    manifest = stored.manifest
    headline = None
    if manifest.get("game") in games():
        column = get_simulator(manifest["game"]).headline
        episodes = load_episodes(stored, trust_unhashed=trust_unhashed)
        if column in episodes.columns:
            headline = proportion_table(episodes, [], column).to_dicts()[0] | {"column": column}
    if stored.unverified:
        typer.echo(
            f"note: {len(stored.unverified)} chunk(s) of {stored.run_id} have no recorded hash "
            "and were read unchecked (--trust-unhashed): the headline rests on them",
            err=True,
        )
    if as_json:
        show_value("id", stored.run_id)
        show_value("manifest", manifest)
        show_value("headline", headline)
        return
    typer.echo(f"run {stored.run_id} ({stored.path})")
    typer.echo(json.dumps(manifest, indent=2, sort_keys=True))
    if headline:
        typer.echo(
            f"{headline['column']}: {headline['p']:.4f} "
            f"(95% Wilson {headline['lo']:.4f}-{headline['hi']:.4f}, n={headline['n']:,})"
        )


def stdin_is_terminal() -> bool:
    """Whether a confirmation can be asked for (tests replace this)."""
    return sys.stdin.isatty()


@app.command("prune")
def prune_command(
    stale: Annotated[bool, typer.Option("--stale", help="Runs whose code changed since (see runs list).")] = False,
    older_than: Annotated[
        str | None,
        typer.Option("--older-than", help="Runs created longer ago than this: 12h, 7d, 2w."),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    store: StoreOpt = None,
) -> None:
    """Delete stored runs that match every filter given, after a confirmation (or --yes).
    Only cardsim run folders holding nothing but their own files are ever deleted.

    Example: cardsim runs prune --stale --older-than 7d
    """
    age = parse_duration(older_than) if older_than is not None else None
    if not stale and age is None:
        raise UserError("runs prune: say which runs to delete with --stale and/or --older-than")
    folder = _existing_store(store)
    runs, skipped = scan_runs(folder)
    for message in skipped:
        typer.echo(message, err=True)
    now = datetime.now(timezone.utc)
    chosen = [
        run
        for run in runs
        if (not stale or run.is_stale() is True)
        and (age is None or ((created := run.created()) is not None and now - created > age))
    ]
    if not chosen:
        typer.echo(f"no runs to delete in {folder}")
        return
    for run in chosen:
        typer.echo(f"to delete: {run.run_id}  {_list_row(run)['config']}")
    if not yes:
        if not stdin_is_terminal():
            raise UserError(
                f"not deleting {len(chosen)} run(s) without confirmation (no terminal to ask on); add --yes"
            )
        if not typer.confirm(f"delete {len(chosen)} run(s) from {folder}?", default=False):
            typer.echo("nothing deleted")
            return
    deleted = 0
    for run in chosen:
        try:
            delete_run(run)
            deleted += 1
        except StoreWriteError as exc:  # no permission: the next ones would fail alike
            raise UserError(f"{exc}; deleted {deleted} of {len(chosen)} run(s)") from None
        except UserError as exc:  # this folder holds something else: kept, go on
            typer.echo(f"error: {exc}", err=True)
    typer.echo(f"deleted {deleted} run(s) from {folder}")
    if deleted < len(chosen):
        raise typer.Exit(2)
