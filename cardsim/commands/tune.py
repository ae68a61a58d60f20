"""`cardsim tune gang|thegame`: configurations closest to a target win rate, and a difficulty ladder.

Sub-app registered by cli.py as ``cardsim tune``::

    cardsim tune gang --players 4 (or 3-6) --model history [--levels 1] --target 0.5
        [--combinations/--no-combinations] [--top 8] [--precision 0.02] [--max-n 2500] [--seed 0]
        [--jobs N] [--store DIR | --no-store] [--quiet] [--json]
    cardsim tune thegame --players 3 (or 1-5) --strategy signals --target 0.3  (same run options)

Thin wrappers over :func:`cardsim.api.Tune.gang` and :func:`~cardsim.api.Tune.thegame`, which do
the search (every player count gets its own answer, for the group's model and the rungs either
side, and a target out of reach is flagged): this module parses the options and prints the
Result, as tables or as one JSON document (``details.answers`` nests each answer's closest
configurations and ladder; ``tables`` holds the same as flat tables).
"""

from __future__ import annotations

from typing import Annotated, Any

import polars as pl
import typer

from cardsim.commands.common import (
    ClusterOptions,
    ClusterOpts,
    JobsOpt,
    JsonOpt,
    NoStoreOpt,
    QuietOpt,
    SeedOpt,
    StoreOpt,
    command_app,
    record_result,
    resolve_store,
    show_table,
    show_value,
)
from cardsim.reports.suite import DEFAULT
from cardsim.sims.gang.models import MODEL_IDS

app = command_app(
    "tune",
    help="Difficulty tuning: configurations closest to a target win rate, plus an easy/medium/hard ladder.",
    example="cardsim tune gang --players 3-6 --model history --target 0.5",
)

TargetOpt = Annotated[float, typer.Option("--target", help="Win rate to aim at, between 0 and 1.")]
TopOpt = Annotated[int, typer.Option("--top", help="How many closest configurations to list.")]
TunePrecisionOpt = Annotated[
    float, typer.Option("--precision", help="Stop each candidate at this 95% Wilson half-width.")
]
TuneMaxNOpt = Annotated[int, typer.Option("--max-n", help="Episodes at most per candidate.")]
PlayersRangeOpt = Annotated[
    str, typer.Option("--players", help="Player count, a range like 3-6 or a list like 3,5: one answer per count.")
]


def _display(frame: pl.DataFrame, first: list[str]) -> pl.DataFrame:
    """Rates as percentages and the interval as one column, for a narrow terminal table."""
    return frame.select(
        *first,
        "n",
        (pl.col("p") * 100).round(1).cast(pl.String).add("%").alias("win rate"),
        pl.format("{}-{}%", (pl.col("lo") * 100).round(1), (pl.col("hi") * 100).round(1)).alias("95% interval"),
    )


def _of(frame: pl.DataFrame, answer: dict[str, Any], column: str) -> pl.DataFrame:
    """The rows of ``frame`` (closest or ladder) that belong to ``answer``."""
    return frame.filter((pl.col("players") == answer["players"]) & (pl.col(column) == answer[column]))


def _print_answer(answer: dict[str, Any], closest: pl.DataFrame, steps: pl.DataFrame, target: float) -> None:
    """The group's closest configurations, ladder and answer at one player count."""
    table = _display(closest, ["rank", "configuration"]).with_columns(
        closest["tied_with_best"].replace_strict({True: "yes", False: ""}).alias("tied with #1")
    )
    show_table(table, title=f"closest to a {target:.0%} win rate for {answer['who']}")
    show_table(
        _display(steps, ["level", "configuration"]),
        title="difficulty ladder (easy aims halfway to 100%, hard at half the target)",
    )
    typer.echo(answer["answer"])
    if answer["tied"] > 0 and answer["reachable"]:
        typer.echo(
            f"{answer['tied']} other configuration(s) cannot be told apart from it at this n "
            "(overlapping intervals); lower --precision to separate them."
        )


def show_tune(result: Any, column: str, as_json: bool) -> None:
    """Print a tune Result: per player count the group's answer in full, then every answer
    side by side (or all of it as one JSON document)."""
    target = result.manifest["target"]
    answers, closest, steps = result.table, result.tables["closest"], result.tables["ladder"]
    record_result(result)
    if as_json:
        show_value("target", target)
        show_value(
            "answers",
            [
                {
                    **{k: v for k, v in answer.items() if k not in ("tied", "answer")},
                    "closest": _of(closest, answer, column).drop("players", column).to_dicts(),
                    "ladder": _of(steps, answer, column).drop("players", column).to_dicts(),
                }
                for answer in answers.iter_rows(named=True)
            ],
        )
        show_table(answers, name="answers", as_json=True)
        return
    for answer in answers.filter(pl.col("chosen")).iter_rows(named=True):
        _print_answer(answer, _of(closest, answer, column), _of(steps, answer, column), target)
    shown = answers.with_columns(
        pl.when(pl.col("chosen")).then(pl.col(column) + " (yours)").otherwise(pl.col(column)).alias(column),
        pl.col("reach")
        .replace_strict({"reachable": "yes", "above": "no, too high", "below": "no, too low"})
        .alias("target reachable"),
    )
    show_table(
        _display(shown, ["players", column, "play"]).with_columns(shown["target reachable"]),
        title=f"the same {target:.0%} target for your {column} and the rungs either side "
        "(weaker above, stronger below): how much skill matters",
    )


@app.command("gang")
def tune_gang(
    players: PlayersRangeOpt = "4",
    model: Annotated[str, typer.Option("--model", help=f"Player model: {', '.join(MODEL_IDS)}.")] = "history",
    levels: Annotated[int, typer.Option("--levels", help="Strength bands per chip the model can express.")] = 1,
    target: TargetOpt = 0.5,
    combinations: Annotated[
        bool,
        typer.Option(
            "--combinations/--no-combinations",
            help="Where no rulebook configuration's interval covers the target, also try every set of one "
            "or two permanent challenges a mode accepts (Basic, rules G6).",
        ),
    ] = True,
    top: TopOpt = 8,
    precision: TunePrecisionOpt = DEFAULT.tune_precision,
    max_n: TuneMaxNOpt = DEFAULT.tune_max_n,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """The Gang: mode and card configurations (Basic, Advanced, Professional with each permanent
    challenge, Master Thief; where none reaches the target within its interval, also one or two
    permanent challenges on the modes that take them) whose game win rate is closest to a target,
    per player count, for your model and the rungs either side.

    Example: cardsim tune gang --players 3-6 --model history --target 0.5
    """
    from cardsim.api import tune

    show_tune(
        tune.gang(
            players=players,
            model=model,
            levels=levels,
            target=target,
            combinations=combinations,
            top=top,
            precision=precision,
            max_n=max_n,
            seed=seed,
            jobs=jobs,
            **cluster.keywords(),
            store=resolve_store(store, no_store),
            quiet=quiet,
        ),
        "model",
        as_json,
    )


@app.command("thegame")
def tune_thegame(
    players: PlayersRangeOpt = "3",
    strategy: Annotated[
        str, typer.Option("--strategy", help="Strategy name (cardsim thegame strategies).")
    ] = "signals",
    target: TargetOpt = 0.3,
    top: TopOpt = 8,
    precision: TunePrecisionOpt = DEFAULT.tune_precision,
    max_n: TuneMaxNOpt = DEFAULT.tune_max_n,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """The Game: minimum cards per turn, hand size and backwards trick closest to a target win
    rate, per player count, for your strategy and the strategies either side of it.

    Example: cardsim tune thegame --players 1-5 --strategy signals --target 0.3
    """
    from cardsim.api import tune

    show_tune(
        tune.thegame(
            players=players,
            strategy=strategy,
            target=target,
            top=top,
            precision=precision,
            max_n=max_n,
            seed=seed,
            jobs=jobs,
            **cluster.keywords(),
            store=resolve_store(store, no_store),
            quiet=quiet,
        ),
        "strategy",
        as_json,
    )
