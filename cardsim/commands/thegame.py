"""`cardsim thegame`: win rate, excellent rate and cards left per player count and strategy."""

from __future__ import annotations

from typing import Annotated

import polars as pl
import typer

from cardsim.commands.common import (
    ClusterOptions,
    ClusterOpts,
    JobsOpt,
    JsonOpt,
    NOpt,
    NoStoreOpt,
    PlotFormatOpt,
    PlotOpt,
    QuietOpt,
    RunOptions,
    RunOpts,
    SeedOpt,
    StoreOpt,
    check_plot_folder,
    game_app,
    parse_range,
    record_result,
    show_table,
)

app = game_app("thegame")

PlayersOpt = Annotated[str, typer.Option("--players", help="Player counts: 2, 1-5 or 1,3,5.")]
StrategyOpt = Annotated[str, typer.Option("--strategy", help="Strategy names (comma separated) or 'all'.")]
MinCardsOpt = Annotated[int, typer.Option("--min-cards", help="Cards a turn must play while the draw pile lasts.")]
HandSizeOpt = Annotated[int | None, typer.Option("--hand-size", help="Hand size (default: 8/7/6 by player count).")]
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
    result = thegame.run(
        players=counts,
        strategy=strategy,
        min_cards=min_cards,
        hand_size=hand_size,
        backwards_trick=backwards_trick,
        rollouts=rollouts,
        n=n,
        options=run,
    )
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
        show_table(distribution, title="thegame cards-left distribution", name="cards_left_distribution", as_json=True)
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
            save_figure(
                cards_left_histogram(histogram_counts, count), plot / f"thegame_cards_left_{count}p.{plot_format}"
            )
        if not run.quiet:
            typer.echo(f"plots written to {plot}", err=True)


@app.command("strategies")
def strategies_command(as_json: JsonOpt = False) -> None:
    """List the strategy ladder, weakest first.

    Example: cardsim thegame strategies
    """
    from cardsim.sims.thegame.config import STRATEGIES

    rows = [{"strategy": name, "plays": text} for name, (_, text) in STRATEGIES.items()]
    show_table(
        pl.DataFrame(rows), title="The Game strategies (--strategy NAME,... or all)", name="strategies", as_json=as_json
    )


UserStrategyOpt = Annotated[
    str, typer.Option("--strategy", help="Your strategy as FILE.py:NAME (a class or an object).")
]
AgainstOpt = Annotated[str, typer.Option("--against", help="The built-in strategy to compare with, on the same deals.")]
OnePlayerCountOpt = Annotated[int, typer.Option("--players", help="Player count, 1-5.")]
DealsOpt = Annotated[int, typer.Option("--n", help="Deals, each played by your strategy and by the built-in.")]
TimeLimitOpt = Annotated[float, typer.Option("--time-limit", help="Seconds one decision may take.")]
TracebackOpt = Annotated[bool, typer.Option("--traceback", help="On a failing decision, also print its traceback.")]


@app.command("evaluate")
def evaluate_command(
    strategy: UserStrategyOpt,
    players: OnePlayerCountOpt = 3,
    n: DealsOpt = 2_000,
    against: AgainstOpt = "signals",
    min_cards: MinCardsOpt = 2,
    hand_size: HandSizeOpt = None,
    backwards_trick: TrickOpt = True,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    time_limit: TimeLimitOpt = 2.0,
    traceback: TracebackOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Your strategy at every seat (The Game is cooperative) against a built-in on the same
    deals: win rate, excellent rate and cards left with 95% intervals, and the paired
    difference per deal. Interface: cardsim/sims/thegame/strategy.py; nothing is stored.

    Example: cardsim thegame evaluate --strategy mine.py:Mine --players 3 --n 2000
    """
    from cardsim.api import thegame
    from cardsim.commands.common import evaluation_progress, run_user_strategy
    from cardsim.commands.output import interval_column, record_run

    with evaluation_progress(None if quiet else "thegame evaluate"):
        result = run_user_strategy(
            lambda: thegame.evaluate(
                strategy,
                players=players,
                n=n,
                against=against,
                min_cards=min_cards,
                hand_size=hand_size,
                backwards_trick=backwards_trick,
                seed=seed,
                jobs=jobs,
                **cluster.keywords(),
                time_limit=time_limit,
            ),
            traceback,
        )
    record_run(None, result.manifest["seed"], result.manifest["stop_rule"])
    summary, paired = result.tables["evaluate"], result.tables["paired"]
    if as_json:
        show_table(summary, title="thegame evaluate", name="evaluate", as_json=True)
        show_table(paired, title="thegame evaluate paired", name="paired", as_json=True)
        return
    show_table(
        summary.select("strategy", "players", "n").with_columns(
            interval_column(summary, "win", scale=100).alias("win % (95% CI)"),
            interval_column(summary, "excellent", scale=100).alias("excellent % (95% CI)"),
            interval_column(summary, "cards_left").alias("cards left (95% CI)"),
        ),
        title="The Game: your strategy and the built-in on the same deals",
        name="evaluate",
    )
    # a win difference in points of win rate, as in every game; cards left in cards
    scale = pl.Series([100.0 if m == "win" else 1.0 for m in paired["measure"]])
    scaled = paired.with_columns(pl.col("difference", "difference_lo", "difference_hi") * scale)
    show_table(
        paired.select("measure").with_columns(
            pl.Series("unit", ["points" if m == "win" else "cards" for m in paired["measure"]]),
            paired["n"],
            interval_column(scaled, "difference", signed=True).alias("difference (95% CI)"),
        ),
        title="Paired difference per deal (strategy minus built-in; win in points)",
        name="paired",
    )


@app.command("crossplay")
def crossplay_command(
    entrant: Annotated[
        list[str],
        typer.Option(
            "--entrant",
            "-e",
            help="Strategies written in Python, FILE.py:NAME or LABEL=FILE.py:NAME, comma separated or repeated (each runs in its own process).",
        ),
    ],
    players: Annotated[int, typer.Option("--players", help="Seats at the table.")] = 3,
    n: Annotated[int, typer.Option("--n", help="Deals per cell (the same deals in every cell).")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Root seed: same seed, same numbers.")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", help="Worker processes (default 1).")] = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Cross-play matrix: the team's success when every seat but one plays the row's strategy
    and one seat the column's (diagonal: the row's team alone), on the same --n deals, with
    95% Wilson intervals. Chunks of deals run in parallel (--jobs, or on a dask cluster); finished
    chunks are kept in the store and the same command resumes.

    Example: cardsim thegame crossplay -e examples/strategies/thegame_closest.py:Closest,examples/strategies/thegame_greedy.py:Greedy --n 200
    """

    from cardsim.api import thegame as api_game
    from cardsim.commands.common import run_crossplay

    run_crossplay(
        api_game.crossplay,
        "thegame crossplay",
        entrant,
        players=players,
        n=n,
        seed=seed,
        jobs=jobs,
        cluster=cluster,
        store=store,
        no_store=no_store,
        as_json=as_json,
        quiet=quiet,
    )
