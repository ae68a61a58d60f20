"""`cardsim tune gang|thegame`: configurations closest to a target win rate, and a difficulty ladder.

Sub-app registered by cli.py as ``cardsim tune``::

    cardsim tune gang --players 4 (or 3-6) --model history [--levels 1] --target 0.5
        [--combinations/--no-combinations] [--top 8] [--precision 0.02] [--max-n 2500] [--seed 0]
        [--jobs N] [--store DIR | --no-store] [--quiet] [--json]
    cardsim tune thegame --players 3 (or 1-5) --strategy signals --target 0.3  (same run options)

Functions: ``tune_gang(...)`` and ``tune_thegame(...)`` (the two commands), ``tune_and_print``
(shared by both). Every player count gets its own answer; every answer names the player model
and is repeated for the model rungs either side of it (weaker and stronger players), and a
target no configuration reaches is said to be out of reach, with the closest reachable
configuration. The precision and bound default to the report's tuning profile, so a tune run
and the report reuse each other's stored chunks. Candidates come from
:func:`cardsim.analysis.tuning.gang_candidates` and :func:`~cardsim.analysis.tuning.thegame_candidates`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import polars as pl
import typer

from cardsim.analysis.tuning import (
    Candidate,
    Tuned,
    check_target,
    gang_candidates,
    gang_combinations,
    neighbour_rungs,
    thegame_candidates,
    tune_rungs,
)
from cardsim.commands.common import (
    command_app,
    JobsOpt,
    JsonOpt,
    NoStoreOpt,
    QuietOpt,
    SeedOpt,
    StoreOpt,
    default_jobs,
    parse_range,
    resolve_store,
    show_table,
    show_value,
)
from cardsim.errors import UserError
from cardsim.options import announce_compile
from cardsim.reports.progress import Tracker
from cardsim.reports.suite import DEFAULT
from cardsim.sims.core.simulator import Simulator
from cardsim.sims.registry import get_simulator

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


def _closest_rows(tuned: Tuned, top: int) -> pl.DataFrame:
    return tuned.ranked.head(top).select(
        "rank", pl.col("label").alias("configuration"), "n", "p", "lo", "hi",
        "covers_target", "tied_with_best",
    )


def _print_count(tuned: Tuned, *, top: int, who: str, target: float) -> None:
    """The chosen model's closest configurations, ladder and answer at one player count."""
    shown = _closest_rows(tuned, top)
    table = _display(shown, ["rank", "configuration"]).with_columns(
        shown["tied_with_best"].replace_strict({True: "yes", False: ""}).alias("tied with #1"))
    show_table(table, title=f"closest to a {target:.0%} win rate for {who}")
    ladder_table = _display(tuned.steps.rename({"label": "configuration"}), ["level", "configuration"])
    show_table(ladder_table, title="difficulty ladder (easy aims halfway to 100%, hard at half the target)")
    typer.echo(tuned.answer.sentence(who, target))
    tied = int(tuned.ranked["tied_with_best"].sum()) - 1
    if tied > 0 and tuned.answer.reachable:
        typer.echo(f"{tied} other configuration(s) cannot be told apart from it at this n "
                   "(overlapping intervals); lower --precision to separate them.")


def _answers_frame(results: list[Tuned], model_title: str) -> pl.DataFrame:
    rows = [{"players": t.players, model_title: t.model + (" (yours)" if t.chosen else ""),
             "play": t.answer.label, "n": t.answer.n, "p": t.answer.p, "lo": t.answer.lo, "hi": t.answer.hi,
             "target reachable": {"reachable": "yes", "above": "no, too high", "below": "no, too low"}[t.answer.reach]}
            for t in results]
    return pl.DataFrame(rows)


def _print_results(results: list[Tuned], *, top: int, who: Callable[[int, str], str], target: float,
                   model_title: str, as_json: bool) -> None:
    if as_json:
        show_value("target", target)
        show_value("answers", [
            {"players": t.players, model_title: t.model, "chosen": t.chosen,
             "who": who(t.players, t.model), "play": t.answer.label, "n": t.answer.n, "p": t.answer.p,
             "lo": t.answer.lo, "hi": t.answer.hi, "reachable": t.answer.reachable, "reach": t.answer.reach,
             "closest": _closest_rows(t, top).to_dicts(), "ladder": t.steps.to_dicts()}
            for t in results])
        show_table(_answers_frame(results, model_title), name="answers", as_json=True)
        return
    for tuned in results:
        if tuned.chosen:
            _print_count(tuned, top=top, who=who(tuned.players, tuned.model), target=target)
    frame = _answers_frame(results, model_title)
    show_table(_display(frame, ["players", model_title, "play"]).with_columns(frame["target reachable"]),
               title=f"the same {target:.0%} target for your {model_title} and the rungs either side "
                     "(weaker above, stronger below): how much skill matters")


def tune_counts(
    game: str, candidates_for: Callable[[int, str], list[Candidate]], column: str, *, players: list[int],
    rungs: list[str], chosen: str, target: float, precision: float, max_n: int, seed: int, jobs: int | None,
    store: Path | None, progress: bool, refine_for: Callable[[int, str], list[Candidate]] | None = None,
) -> list[Tuned]:
    """:func:`cardsim.analysis.tuning.tune_rungs` behind one progress bar."""
    simulator = landed_simulator(game)
    total = sum(len(candidates_for(count, rung)) for count in players for rung in rungs)
    with Tracker(total, enabled=progress, label="tune") as tracker:
        return tune_rungs(
            simulator, candidates_for, column, refine_for=refine_for, players=players, rungs=rungs,
            chosen=chosen, target=target,
            seed=seed, jobs=default_jobs(jobs, game, max_n), store=store, precision=precision, max_n=max_n,
            on_start=lambda where, label: tracker.start(where, label), on_chunk=tracker.chunk,
            on_done=lambda _label, _n: tracker.finish(), on_refine=tracker.extend,
        )


def landed_simulator(game: str) -> Simulator:
    """The game's simulator, or a one-line error while it has not landed."""
    try:
        return get_simulator(game)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"cardsim.sims.{game}"):
            raise UserError(f"'cardsim tune {game}' needs the {game} simulator, which is not available yet") from None
        raise


def tune_and_print(
    game: str, candidates_for: Callable[[int, str], list[Candidate]], column: str, *, players: list[int],
    rungs: list[str], chosen: str, model_title: str, who: Callable[[int, str], str], target: float, top: int,
    precision: float, max_n: int, seed: int, jobs: int | None, store: Path | None, quiet: bool, as_json: bool,
    refine_for: Callable[[int, str], list[Candidate]] | None = None,
) -> None:
    """Evaluate the candidates per player count and model rung (and ``refine_for``'s where none
    covers the target), and print the answers."""
    target = check_target(target)
    if top < 1:
        raise UserError(f"--top must be at least 1, got {top}")
    if not 0 < precision < 0.5:
        raise UserError(f"--precision must be between 0 and 0.5, got {precision}")
    if max_n < 1:
        raise UserError(f"--max-n must be at least 1, got {max_n}")
    announce_compile(game, quiet)
    results = tune_counts(game, candidates_for, column, players=players, rungs=rungs, chosen=chosen,
                          target=target, precision=precision, max_n=max_n, seed=seed, jobs=jobs, store=store,
                          progress=not quiet and not as_json, refine_for=refine_for)
    _print_results(results, top=top, who=who, target=target, model_title=model_title, as_json=as_json)


@app.command("gang")
def tune_gang(
    players: PlayersRangeOpt = "4",
    model: Annotated[str, typer.Option("--model", help="Player model: random, percentile, history or bayes.")] = "history",
    levels: Annotated[int, typer.Option("--levels", help="Strength bands per chip the model can express.")] = 1,
    target: TargetOpt = 0.5,
    combinations: Annotated[bool, typer.Option(
        "--combinations/--no-combinations",
        help="Where no rulebook configuration's interval covers the target, also try every set of one "
             "or two permanent challenges a mode accepts (Basic, rules G6).")] = True,
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
    challenge, Master Thief; where none reaches the target within its interval, also one or two
    permanent challenges on the modes that take them) whose game win rate is closest to a target,
    per player count, for your model and the rungs either side.

    Example: cardsim tune gang --players 3-6 --model history --target 0.5
    """
    simulator = landed_simulator("gang")
    from cardsim.sims.gang.models import MODEL_DESCRIPTIONS

    counts = parse_range(players)
    for count in counts:  # validates players, model and levels before any run
        simulator.make_config(players=count, model=model, levels=levels)
    rulebook = gang_candidates()
    finer = gang_combinations(1) + gang_combinations(2) if combinations else []

    def with_group(candidates: list[Candidate], count: int, rung: str) -> list[Candidate]:
        base = {"players": count, "model": rung, "levels": levels}
        return [Candidate(c.label, {**base, **c.config}) for c in candidates]

    tune_and_print("gang", lambda count, rung: with_group(rulebook, count, rung), simulator.headline,
                   refine_for=lambda count, rung: with_group(finer, count, rung), players=counts,
                   rungs=neighbour_rungs(list(MODEL_DESCRIPTIONS), model), chosen=model, model_title="model",
                   who=lambda count, rung: f"{count} players playing like the '{rung}' model",
                   target=target, top=top, precision=precision, max_n=max_n, seed=seed, jobs=jobs,
                   store=resolve_store(store, no_store), quiet=quiet, as_json=as_json)


@app.command("thegame")
def tune_thegame(
    players: PlayersRangeOpt = "3",
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
    """The Game: minimum cards per turn, hand size and backwards trick closest to a target win
    rate, per player count, for your strategy and the strategies either side of it.

    Example: cardsim tune thegame --players 1-5 --strategy signals --target 0.3
    """
    simulator = landed_simulator("thegame")
    from cardsim.sims.thegame.config import STRATEGY_NAMES

    counts = parse_range(players)
    for count in counts:  # validates players and strategy before any run
        simulator.make_config(players=count, strategy=strategy)
    # omniscient sees hidden cards: a bound, never a rung a group can stand on
    legal = [name for name in STRATEGY_NAMES if name != "omniscient" or strategy == "omniscient"]

    def candidates_for(count: int, rung: str) -> list[Candidate]:
        base = {"players": count, "strategy": rung}
        return [Candidate(c.label, {**base, **c.config}) for c in thegame_candidates(count)]

    tune_and_print("thegame", candidates_for, simulator.headline, players=counts,
                   rungs=neighbour_rungs(legal, strategy), chosen=strategy, model_title="strategy",
                   who=lambda count, rung: f"{count} player(s) using the '{rung}' strategy",
                   target=target, top=top, precision=precision, max_n=max_n, seed=seed, jobs=jobs,
                   store=resolve_store(store, no_store), quiet=quiet, as_json=as_json)
