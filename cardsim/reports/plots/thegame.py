"""The Game figures: win rate by player count per strategy (95% interval whiskers) and
cards-left distributions (small multiples, one panel per strategy)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib
import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from cardsim.reports.plots.common import interval_lines
from cardsim.reports.style import RC_PARAMS, series_style
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


def cards_left_histogram(counts: pl.DataFrame, players: int, strategies: Sequence[str] | None = None) -> Figure:
    """Share of games by cards left at one player count as small multiples: one panel per
    strategy on shared axes, the wins (0 cards left) marked and the median named, so six
    distributions read side by side instead of as six overlaid lines; ``counts`` is
    :func:`cardsim.analysis.thegame.cards_left_counts` output."""
    part = counts.filter(pl.col("players") == players)
    present = part["strategy"].unique().to_list()
    order = [s for s in (strategies or STRATEGY_NAMES) if s in present]
    columns = min(3, max(1, len(order)))
    rows = max(1, -(-len(order) // columns))
    with matplotlib.rc_context(RC_PARAMS):
        fig = Figure(figsize=(6.4, 1.55 * rows + 0.9), layout="constrained")
        axes = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    values = np.arange(0, 99)
    furthest = int(part["cards_left"].max()) if part.height else 0
    for index, ax in enumerate(axes.flat):
        if index >= len(order):
            ax.set_visible(False)
            continue
        strategy = order[index]
        rows_of = part.filter(pl.col("strategy") == strategy)
        games = np.zeros(values.size)
        games[rows_of["cards_left"].to_numpy().astype(int)] = rows_of["games"].to_numpy()
        total = games.sum()
        share = games / total
        colour = series_style(index)["color"]
        # one filled outline over the unit bins centred on 1..98: the picture of 98 touching
        # bars, without drawing 98 patches per panel
        ax.stairs(share[1:], np.append(values[1:] - 0.5, values[-1] + 0.5), fill=True, color=colour, linewidth=0)
        ax.bar([0], [share[0]], width=1.6, color="#222222", linewidth=0)
        median = int(np.searchsorted(np.cumsum(games), total / 2.0))
        ax.axvline(median, color="#222222", linewidth=0.8, linestyle=":")
        ax.set_title(f"{strategy} (n={int(total):,})", fontsize=8.5)
        ax.text(
            0.97,
            0.92,
            f"wins {share[0]:.0%}\nmedian {median}",
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=7.5,
        )
        ax.tick_params(labelsize=7.5)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axes[0][0].set_xlim(-1.5, max(60, furthest + 2))  # every game in view (1 player spreads wide)
    fig.supxlabel("cards left at the end (0 = win, dark bar; dotted line = median)", fontsize=8.5)
    fig.supylabel("share of games", fontsize=8.5)
    fig.suptitle(f"The Game, {players} player{'s' if players > 1 else ''}: cards left per strategy", fontsize=10)
    return fig
