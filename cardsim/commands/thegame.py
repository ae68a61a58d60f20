"""`cardsim thegame`: win rate, excellent rate and cards left per player count and strategy."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import polars as pl
import typer

from cardsim.commands.common import (
    BackendOpt,
    JobsOpt,
    JsonOpt,
    MaxNOpt,
    NoStoreOpt,
    NOpt,
    PrecisionOpt,
    QuietOpt,
    SchedulerOpt,
    SeedOpt,
    StoreOpt,
    execute,
    parse_choice,
    parse_range,
    show_table,
)

app = typer.Typer(
    help="The Game: win rates and cards left per player count and strategy.",
    no_args_is_help=True,
)

PlayersOpt = Annotated[str, typer.Option("--players", help="Player counts: 2, 1-5 or 1,3,5.")]
StrategyOpt = Annotated[
    str, typer.Option("--strategy", help="Strategy names (comma separated) or 'all'.")
]
MinCardsOpt = Annotated[
    int, typer.Option("--min-cards", help="Cards a turn must play while the draw pile lasts.")
]
HandSizeOpt = Annotated[
    int | None, typer.Option("--hand-size", help="Hand size (default: 8/7/6 by player count).")
]
TrickOpt = Annotated[
    bool,
    typer.Option("--backwards-trick/--no-backwards-trick", help="Allow the exactly-10-back play."),
]
RolloutsOpt = Annotated[
    int,
    typer.Option("--rollouts", help="search only: sampled rollouts per candidate turn (0 = off)."),
]
PlotOpt = Annotated[
    Path | None,
    typer.Option("--plot", help="Folder to write win-rate and cards-left SVG plots into."),
]


def _with_interval(column: str, scale: float) -> pl.Expr:
    """'12.34 (11.10-13.58)': the value and its 95% interval, scaled (100 for percentages)."""
    return pl.format(
        "{} ({}-{})",
        (pl.col(column) * scale).round(2),
        (pl.col(f"{column}_lo") * scale).round(2),
        (pl.col(f"{column}_hi") * scale).round(2),
    )


@app.command("run")
def run_command(
    players: PlayersOpt = "1-5",
    strategy: StrategyOpt = "planner",
    min_cards: MinCardsOpt = 2,
    hand_size: HandSizeOpt = None,
    backwards_trick: TrickOpt = True,
    rollouts: RolloutsOpt = 0,
    n: NOpt = 10_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    backend: BackendOpt = "joblib",
    scheduler: SchedulerOpt = None,
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    precision: PrecisionOpt = None,
    max_n: MaxNOpt = None,
    plot: PlotOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Win rate, excellent rate (<= 10 cards left) and mean cards left with 95% intervals, and
    the cards-left distribution, per player count and strategy.

    Example: cardsim thegame run --players 1-5 --strategy all --n 100000
    """
    from cardsim.analysis.thegame import anchor_check, cards_left_counts, \
        cards_left_distribution, summary_table
    from cardsim.sims.thegame.config import STRATEGY_NAMES
    from cardsim.sims.thegame.simulator import SIMULATOR

    counts = parse_range(players)
    names = parse_choice(strategy, list(STRATEGY_NAMES), name="strategy")
    frames = []
    for count in counts:
        for name in names:
            config = SIMULATOR.make_config(players=count, strategy=name, min_cards=min_cards,
                                           hand_size=hand_size, backwards_trick=backwards_trick,
                                           rollouts=rollouts if name == "search" else 0)
            result = execute("thegame", config, n=n, seed=seed, jobs=jobs, backend=backend,
                             scheduler=scheduler, store=store, precision=precision,
                             max_n=max_n, quiet=quiet, no_store=no_store)
            frames.append(result.episodes)
    episodes = pl.concat(frames, how="vertical")
    summary = summary_table(episodes)
    checked = anchor_check(summary)
    shown = summary.select(
        "players",
        "strategy",
        "n",
        _with_interval("win", 100).alias("win %"),
        _with_interval("excellent", 100).alias("excellent %"),
        _with_interval("cards_left", 1).alias("cards left"),
    ).with_columns(
        (checked["anchor"] * 100).round(1).alias("anchor %"),
        checked["beats_anchor"].alias("above"),
    )
    distribution = cards_left_distribution(episodes)
    if as_json:
        show_table(summary.join(checked.select("players", "strategy", "anchor", "beats_anchor"),
                                on=["players", "strategy"]),
                   title="thegame summary", as_json=True)
        show_table(distribution, title="thegame cards-left distribution", as_json=True)
    else:
        show_table(
            shown,
            title="The Game: % won, % excellent (<= 10 left), mean cards left (95% CI); "
            "anchor = best published win rate, above = CI lower end above it",
        )
        bins = distribution.columns[3:]
        show_table(
            distribution.with_columns([(pl.col(c) * 100).round(2) for c in bins]),
            title="The Game: cards left at the end, % of games",
        )
    if plot is not None:
        from cardsim.reports.plots.thegame import cards_left_histogram, win_rate_plot
        from cardsim.reports.style import save_figure

        save_figure(win_rate_plot(summary), plot / "thegame_win_rate.svg")
        histogram_counts = cards_left_counts(episodes)
        for count in counts:
            save_figure(cards_left_histogram(histogram_counts, count),
                        plot / f"thegame_cards_left_{count}p.svg")
        if not quiet:
            typer.echo(f"plots written to {plot}", err=True)


@app.command("strategies")
def strategies_command(as_json: JsonOpt = False) -> None:
    """List the strategy ladder, weakest first.

    Example: cardsim thegame strategies
    """
    from cardsim.sims.thegame.config import STRATEGIES

    rows = [{"strategy": name, "plays": text} for name, (_, text) in STRATEGIES.items()]
    show_table(pl.DataFrame(rows), title="The Game strategies (--strategy NAME,... or all)",
               as_json=as_json)
