"""The Game figures: win rate by player count per strategy (95% interval whiskers) and
cards-left histograms."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from cardsim.reports.plots.common import interval_lines
from cardsim.reports.style import new_figure, series_style
from cardsim.sims.thegame.config import STRATEGY_NAMES


def win_rate_plot(summary: pl.DataFrame) -> Figure:
    """Win rate by player count, one series per strategy; ``summary`` is
    :func:`cardsim.analysis.thegame.summary_table` output."""
    order = [s for s in STRATEGY_NAMES if s in summary["strategy"].to_list()]
    n_min = int(summary["n"].min())
    # Wilson bounds at p = 0 or 1 can land a rounding error past p; whiskers must not be negative.
    bracketed = summary.with_columns(
        pl.min_horizontal("win_lo", "win").alias("win_lo"),
        pl.max_horizontal("win_hi", "win").alias("win_hi"),
    )
    return interval_lines(
        bracketed,
        x="players",
        series="strategy",
        series_order=order,
        y="win",
        lo="win_lo",
        hi="win_hi",
        title=f"The Game: win rate by strategy (n>={n_min:,} games per point, 95% CI)",
        xlabel="players",
    )


def cards_left_histogram(counts: pl.DataFrame, players: int,
                         strategies: Sequence[str] | None = None) -> Figure:
    """Share of games by cards left at one player count, one step line per strategy;
    ``counts`` is :func:`cardsim.analysis.thegame.cards_left_counts` output."""
    part = counts.filter(pl.col("players") == players)
    order = list(strategies or [s for s in STRATEGY_NAMES if s in part["strategy"].to_list()])
    fig, ax = new_figure(6.4, 3.6)
    bins = np.arange(0, 99)
    for index, strategy in enumerate(order):
        rows = part.filter(pl.col("strategy") == strategy)
        if rows.height == 0:
            continue
        games = np.zeros(bins.size)
        games[rows["cards_left"].to_numpy().astype(int)] = rows["games"].to_numpy()
        style = series_style(index)
        ax.step(bins, games / games.sum(), where="mid", color=style["color"],
                linestyle=style["linestyle"], linewidth=1.3,
                label=f"{strategy} (n={int(games.sum()):,})")
    ax.set_xlabel("cards left at the end (0 = win)")
    ax.set_ylabel("share of games")
    ax.set_title(f"The Game, {players} player{'s' if players > 1 else ''}: cards left")
    ax.set_xlim(-1, 60)
    ax.legend(loc="upper right", fontsize=8)
    return fig
