"""`cardsim runs`: what the results store holds."""

from __future__ import annotations

import json

import polars as pl
import typer

from cardsim.analysis.stats import proportion_table
from cardsim.commands.common import (
    JsonOpt,
    StoreOpt,
    command_app,
    resolve_store,
    show_table,
    show_value,
)
from cardsim.sims.core.runner import load_episodes
from cardsim.sims.core.store import find_run, list_runs
from cardsim.sims.registry import get_simulator

app = command_app("runs", help="List and inspect stored runs.", example="cardsim runs list")


@app.command("list")
def list_command(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """List stored runs.

    Example: cardsim runs list --store results
    """
    folder = resolve_store(store)
    rows = [
        {
            "id": run.run_id,
            "game": run.manifest.get("game", "?"),
            "n": run.manifest.get("n", 0),
            "chunks": run.manifest.get("chunks_done", 0),
            "seed": run.manifest.get("seed", 0),
            "version": run.manifest.get("version", "?"),
            "created": run.manifest.get("created", "?"),
        }
        for run in list_runs(folder)
    ]
    if not rows and not as_json:
        typer.echo(f"no runs in {folder}")
        return
    frame = pl.DataFrame(rows) if rows else pl.DataFrame({"id": [], "game": []})
    show_table(frame, title=f"runs in {folder}", name="runs", as_json=as_json)


@app.command("show")
def show_command(run_id: str, store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Show one run's manifest and its headline proportion with a 95% Wilson interval.

    Example: cardsim runs show gang-3f2a  (an id prefix is enough)
    """
    stored = find_run(resolve_store(store), run_id)
    manifest = stored.manifest
    headline = None
    if manifest.get("game") in ("gang", "thegame", "cashnguns", "bang"):
        column = get_simulator(manifest["game"]).headline
        episodes = load_episodes(stored)
        if column in episodes.columns:
            headline = proportion_table(episodes, [], column).to_dicts()[0] | {"column": column}
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
