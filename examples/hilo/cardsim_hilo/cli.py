"""``cardsim hilo``: the example game's command line."""

from __future__ import annotations

from typing import Annotated

import typer

from cardsim.commands.common import JsonOpt, NOpt, RunOptions, RunOpts, game_app, record_result, show_table

app = game_app("hilo")


@app.command("run")
def run_command(
    strategy: Annotated[str, typer.Option("--strategy", help="Strategies (comma separated) or 'all'.")] = "all",
    target: Annotated[int, typer.Option("--target", help="Right calls in a row to win.")] = 5,
    n: NOpt = 20_000, run: RunOpts = RunOptions(), as_json: JsonOpt = False,
) -> None:
    """Win rate per strategy with its 95% interval, and the mean number of right calls.

    Example: cardsim hilo run --strategy counting,middle --n 20000
    """
    from cardsim_hilo.api import hilo

    result = hilo.run(strategy=strategy, target=target, n=n, options=run)
    record_result(result)
    show_table(result.table, title=f"Higher or Lower: {target} right calls in a row", name="wins",
               as_json=as_json)
