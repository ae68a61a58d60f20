"""`cardsim tune gang|thegame`: configurations closest to a target win rate, and a difficulty ladder.

Sub-app registered by cli.py as ``cardsim tune``::

    cardsim tune gang --players 4 --model history [--levels 1] --target 0.5
        [--top 8] [--precision 0.02] [--max-n 2500] [--seed 0] [--jobs N] [--store DIR | --no-store] [--quiet] [--json]
    cardsim tune thegame --players 3 --strategy signals --target 0.3  (same run options)

Functions: ``tune_gang(...)`` and ``tune_thegame(...)`` (the two commands), ``tune_and_print``
(shared by both). The precision and bound default to the report's tuning profile, so a tune run
and the report reuse each other's stored chunks. Candidates come from
:func:`cardsim.analysis.tuning.gang_candidates` and :func:`~cardsim.analysis.tuning.thegame_candidates`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import polars as pl
import typer

from cardsim.analysis.tuning import (
    Candidate,
    check_target,
    evaluate_candidates,
    gang_candidates,
    ladder,
    rank_candidates,
    thegame_candidates,
)
from cardsim.commands.common import (
    JobsOpt,
    command_app,
    JsonOpt,
    NoStoreOpt,
    QuietOpt,
    SeedOpt,
    StoreOpt,
    default_jobs,
    resolve_store,
    show_table,
    show_value,
)
from cardsim.errors import UserError
from cardsim.options import announce_compile
from cardsim.reports.suite import DEFAULT
from cardsim.sims.core.simulator import Simulator
from cardsim.sims.registry import get_simulator

app = command_app(
    "tune",
    help="Difficulty tuning: configurations closest to a target win rate, plus an easy/medium/hard ladder.",
    example="cardsim tune gang --players 4 --model history --target 0.5",
)

TargetOpt = Annotated[float, typer.Option("--target", help="Win rate to aim at, between 0 and 1.")]
TopOpt = Annotated[int, typer.Option("--top", help="How many closest configurations to list.")]
TunePrecisionOpt = Annotated[
    float, typer.Option("--precision", help="Stop each candidate at this 95% Wilson half-width.")
]
TuneMaxNOpt = Annotated[int, typer.Option("--max-n", help="Episodes at most per candidate.")]


def _display(frame: pl.DataFrame, first: list[str]) -> pl.DataFrame:
    """Rates as percentages and the interval as one column, for a narrow terminal table."""
    return frame.select(
        *first,
        "n",
        (pl.col("p") * 100).round(1).cast(pl.String).add("%").alias("win rate"),
        pl.format("{}-{}%", (pl.col("lo") * 100).round(1), (pl.col("hi") * 100).round(1)).alias("95% interval"),
    )


def _print_results(
    ranked: pl.DataFrame, steps: pl.DataFrame, *, top: int, who: str, target: float, as_json: bool
) -> None:
    shown = ranked.head(top).select(
        "rank", pl.col("label").alias("configuration"), "n", "p", "lo", "hi",
        "covers_target", "tied_with_best",
    )
    if as_json:
        show_value("target", target)
        show_value("who", who)
        show_table(shown, name="closest", as_json=True)
        show_table(steps, name="ladder", as_json=True)
        return
    table = _display(shown, ["rank", "configuration"]).with_columns(
        shown["tied_with_best"].replace_strict({True: "yes", False: ""}).alias("tied with #1"))
    show_table(table, title=f"closest to a {target:.0%} win rate for {who}")
    ladder_table = _display(steps.rename({"label": "configuration"}), ["level", "configuration"])
    show_table(ladder_table, title="difficulty ladder (easy aims halfway to 100%, hard at half the target)")
    best = ranked.row(0, named=True)
    typer.echo(
        f"For {who} aiming at a {target:.0%} win rate, play: {best['label']} "
        f"({best['p']:.1%}, 95% interval {best['lo']:.1%}-{best['hi']:.1%}, n={best['n']:,})."
    )
    tied = int(ranked["tied_with_best"].sum()) - 1
    if tied > 0:
        typer.echo(f"{tied} other configuration(s) cannot be told apart from it at this n "
                   "(overlapping intervals); lower --precision to separate them.")


def landed_simulator(game: str) -> Simulator:
    """The game's simulator, or a one-line error while it has not landed."""
    try:
        return get_simulator(game)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"cardsim.sims.{game}"):
            raise UserError(f"'cardsim tune {game}' needs the {game} simulator, which is not available yet") from None
        raise


def tune_and_print(
    game: str, candidates: list[Candidate], column: str, *, who: str, target: float, top: int,
    precision: float, max_n: int, seed: int, jobs: int | None, store: Path | None, quiet: bool,
    as_json: bool,
) -> None:
    """Evaluate candidates through the runner and print the closest ones and the ladder
    (``store``: the resolved results folder, None: nothing written)."""
    target = check_target(target)
    if top < 1:
        raise UserError(f"--top must be at least 1, got {top}")
    if not 0 < precision < 0.5:
        raise UserError(f"--precision must be between 0 and 0.5, got {precision}")
    if max_n < 1:
        raise UserError(f"--max-n must be at least 1, got {max_n}")
    simulator = landed_simulator(game)
    announce_compile(game, quiet)

    def note(label: str, n: int) -> None:
        if not quiet and not as_json:
            typer.echo(f"  {label}: n={n:,}", err=True)

    table = evaluate_candidates(
        simulator, candidates, column, seed=seed, jobs=default_jobs(jobs, game, max_n), store=store,
        precision=precision, max_n=max_n, progress=not quiet and not as_json, on_done=note,
    )
    ranked = rank_candidates(table, target)
    _print_results(ranked, ladder(table, target), top=top, who=who, target=target, as_json=as_json)


@app.command("gang")
def tune_gang(
    players: Annotated[int, typer.Option("--players", help="Players, 3-6.")] = 4,
    model: Annotated[str, typer.Option("--model", help="Player model: random, percentile, history or bayes.")] = "history",
    levels: Annotated[int, typer.Option("--levels", help="Strength bands per chip the model can express.")] = 1,
    target: TargetOpt = 0.5,
    top: TopOpt = 8,
    precision: TunePrecisionOpt = DEFAULT.tune_precision,
    max_n: TuneMaxNOpt = DEFAULT.tune_max_n,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """The Gang: mode and card configurations (Basic, Advanced, Professional with each permanent
    challenge, Master Thief) whose game win rate is closest to a target.

    Example: cardsim tune gang --players 4 --model history --target 0.5
    """
    simulator = landed_simulator("gang")
    base = {"players": players, "model": model, "levels": levels}
    simulator.make_config(**base)  # validates players, model and levels before any run
    candidates = [Candidate(c.label, {**base, **c.config}) for c in gang_candidates()]
    tune_and_print("gang", candidates, simulator.headline,
                   who=f"{players} players playing like the '{model}' model", target=target, top=top,
                   precision=precision, max_n=max_n, seed=seed, jobs=jobs, store=resolve_store(store, no_store), quiet=quiet,
                   as_json=as_json)


@app.command("thegame")
def tune_thegame(
    players: Annotated[int, typer.Option("--players", help="Players, 1-5.")] = 3,
    strategy: Annotated[str, typer.Option("--strategy", help="Strategy name (cardsim thegame strategies).")] = "signals",
    target: TargetOpt = 0.3,
    top: TopOpt = 8,
    precision: TunePrecisionOpt = DEFAULT.tune_precision,
    max_n: TuneMaxNOpt = DEFAULT.tune_max_n,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """The Game: minimum cards per turn, hand size and backwards trick closest to a target win rate.

    Example: cardsim tune thegame --players 3 --strategy signals --target 0.3
    """
    simulator = landed_simulator("thegame")
    base = {"players": players, "strategy": strategy}
    simulator.make_config(**base)  # validates players and strategy before any run
    candidates = [Candidate(c.label, {**base, **c.config}) for c in thegame_candidates(players)]
    tune_and_print("thegame", candidates, simulator.headline,
                   who=f"{players} player(s) using the '{strategy}' strategy", target=target, top=top,
                   precision=precision, max_n=max_n, seed=seed, jobs=jobs, store=resolve_store(store, no_store), quiet=quiet,
                   as_json=as_json)
