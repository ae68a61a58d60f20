"""`cardsim thegame`: win rate, excellent rate and cards left per player count and strategy."""

from __future__ import annotations

from typing import Annotated

import polars as pl
import typer

from cardsim.commands.common import (
    JsonOpt,
    NOpt,
    PlotFormatOpt,
    PlotOpt,
    RunOptions,
    RunOpts,
    check_plot_folder,
    game_app,
    parse_range,
    record_result,
    show_table,
)

app = game_app("thegame")

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
    run: RunOpts = RunOptions(),
    plot: PlotOpt = None,
    plot_format: PlotFormatOpt = "svg",
    as_json: JsonOpt = False,
) -> None:
    """Win rate, excellent rate (<= 10 cards left) and mean cards left with 95% intervals, and
    the cards-left distribution, per player count and strategy.

    Example: cardsim thegame run --players 1-5 --strategy all --n 100000
    """
    from cardsim.analysis.thegame import cards_left_counts
    from cardsim.api import thegame

    plot = check_plot_folder(plot, plot_format)
    counts = parse_range(players)
    result = thegame.run(players=counts, strategy=strategy, min_cards=min_cards,
                         hand_size=hand_size, backwards_trick=backwards_trick, rollouts=rollouts,
                         n=n, options=run)
    record_result(result)
    episodes, summary = result.episodes, result.table
    shown = summary.select(
        "players",
        "strategy",
        "n",
        _with_interval("win", 100).alias("win %"),
        _with_interval("excellent", 100).alias("excellent %"),
        _with_interval("cards_left", 1).alias("cards left"),
        (pl.col("anchor") * 100).round(1).alias("anchor %"),
        pl.col("beats_anchor").alias("above"),
    )
    distribution = result.tables["cards_left_distribution"]
    if as_json:
        show_table(summary, title="thegame summary", name="summary", as_json=True)
        show_table(distribution, title="thegame cards-left distribution",
                   name="cards_left_distribution", as_json=True)
    else:
        show_table(
            shown,
            title="The Game: % won, % excellent (<= 10 left), mean cards left (95% CI); "
            "anchor = best published win rate, above = CI lower end above it",
            name="summary",
        )
        bins = distribution.columns[3:]
        show_table(
            distribution.with_columns([(pl.col(c) * 100).round(2) for c in bins]),
            title="The Game: cards left at the end, % of games",
            name="cards_left_distribution",
        )
    if plot is not None:
        from cardsim.reports.plots.thegame import cards_left_histogram, win_rate_plot
        from cardsim.reports.style import save_figure

        save_figure(win_rate_plot(summary), plot / f"thegame_win_rate.{plot_format}")
        histogram_counts = cards_left_counts(episodes)
        for count in counts:
            save_figure(cards_left_histogram(histogram_counts, count),
                        plot / f"thegame_cards_left_{count}p.{plot_format}")
        if not run.quiet:
            typer.echo(f"plots written to {plot}", err=True)


@app.command("strategies")
def strategies_command(as_json: JsonOpt = False) -> None:
    """List the strategy ladder, weakest first.

    Example: cardsim thegame strategies
    """
    from cardsim.sims.thegame.config import STRATEGIES

    rows = [{"strategy": name, "plays": text} for name, (_, text) in STRATEGIES.items()]
    show_table(pl.DataFrame(rows), title="The Game strategies (--strategy NAME,... or all)",
               name="strategies", as_json=as_json)
