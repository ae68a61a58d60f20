"""Bang! figures: win rate of each side by player count, with 95% interval whiskers."""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from cardsim.reports.plots.common import interval_lines

SIDE_ORDER = ("sheriff", "outlaws", "renegade", "none")


def side_win_plot(table: pl.DataFrame, *, bots: str = "role") -> Figure:
    """Win rate of each side (Sheriff + Deputies, Outlaws, Renegade; games hitting the turn cap
    as 'none' when there are any) by player count; ``table`` is
    :func:`cardsim.analysis.bang.side_win_table` output."""
    shown = table.filter((pl.col("side") != "none") | (pl.col("successes") > 0)).with_columns(
        # float rounding can put a Wilson bound a hair past p at 0% or 100%: whiskers >= 0
        pl.min_horizontal("lo", "p").alias("lo"),
        pl.max_horizontal("hi", "p").alias("hi"),
    )
    games = shown.group_by("players").agg(pl.col("n").first())["n"]
    n_text = f"n={games.min():,}" if games.min() == games.max() else f"n>={games.min():,}"
    return interval_lines(
        shown,
        x="players",
        series="side",
        series_order=[s for s in SIDE_ORDER if s in shown["side"].to_list()],
        title=f"Bang!: win rate by side ({bots} bots, {n_text} games per count, 95% CI)",
        xlabel="players",
    )
