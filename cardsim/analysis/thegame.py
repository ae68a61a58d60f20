"""The Game summary tables: win rate, excellent rate and cards left per player count and
strategy, each with n and a 95% interval, and the distribution of cards left."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from cardsim.stats import mean_table, proportion_table

GROUP = ("players", "strategy")

# Cards-left bins of the distribution table: (label, lowest, highest) inclusive.
CARDS_LEFT_BINS: tuple[tuple[str, int, int], ...] = (
    ("0 (win)", 0, 0),
    ("1-5", 1, 5),
    ("6-10", 6, 10),
    ("11-20", 11, 20),
    ("21-40", 21, 40),
    ("41+", 41, 98),
)

# Published win rates the best legal strategy must beat (10,000 games each).
ANCHORS: dict[str, dict[int, float]] = {
    "no communication": {1: 0.118, 2: 0.188, 3: 0.078, 4: 0.112, 5: 0.123},
    "full communication": {2: 0.24, 3: 0.10},
    "RL agent": {5: 0.144},
}


def best_anchor(players: int) -> float | None:
    """The highest published win rate at this player count (the bar to clear)."""
    values = [table[players] for table in ANCHORS.values() if players in table]
    return max(values) if values else None


def summary_table(episodes: pl.DataFrame, by: Sequence[str] = GROUP) -> pl.DataFrame:
    """Per group: n, win rate, excellent rate (<= 10 left) and mean cards left, each with its
    95% interval (Wilson for the rates, normal approximation for the mean).

    The unit is the game: the players win or lose together and the cards left are the
    table's, so ``episodes`` must hold one row per game (as the simulator writes them); a
    table with a row per player is refused (its rows would be correlated copies)."""
    keys = list(by)
    if "player" in episodes.columns or "seat" in episodes.columns:
        raise ValueError("summary_table takes one row per game (the unit): the players of a game win together")
    wins = proportion_table(episodes, keys, "won").select(
        *keys,
        "n",
        pl.col("p").alias("win"),
        pl.col("lo").alias("win_lo"),
        pl.col("hi").alias("win_hi"),
    )
    excellent = proportion_table(episodes, keys, "excellent").select(
        *keys,
        pl.col("p").alias("excellent"),
        pl.col("lo").alias("excellent_lo"),
        pl.col("hi").alias("excellent_hi"),
    )
    left = mean_table(episodes, keys, "cards_left").select(
        *keys,
        pl.col("mean").alias("cards_left"),
        pl.col("lo").alias("cards_left_lo"),
        pl.col("hi").alias("cards_left_hi"),
    )
    return wins.join(excellent, on=keys, maintain_order="left").join(left, on=keys, maintain_order="left")


def cards_left_distribution(episodes: pl.DataFrame, by: Sequence[str] = GROUP) -> pl.DataFrame:
    """Per group: n and the share of games ending in each :data:`CARDS_LEFT_BINS` bin."""
    keys = list(by)
    shares = [
        ((pl.col("cards_left") >= low) & (pl.col("cards_left") <= high)).mean().alias(label)
        for label, low, high in CARDS_LEFT_BINS
    ]
    return episodes.group_by(keys, maintain_order=True).agg(pl.len().alias("n"), *shares)


def cards_left_counts(episodes: pl.DataFrame, by: Sequence[str] = GROUP) -> pl.DataFrame:
    """Per group and exact cards-left value: number of games (for histograms)."""
    keys = list(by)
    return (
        episodes.group_by([*keys, "cards_left"], maintain_order=True)
        .agg(pl.len().alias("games"))
        .sort([*keys, "cards_left"])
    )


def anchor_check(summary: pl.DataFrame) -> pl.DataFrame:
    """Per row of :func:`summary_table`: the best published anchor at that player count and
    whether the lower end of the win-rate interval is above it."""
    anchors = [best_anchor(int(p)) for p in summary["players"].to_list()]
    return (
        summary.select("players", "strategy", "n", "win", "win_lo", "win_hi")
        .with_columns(
            pl.Series("anchor", anchors, dtype=pl.Float64),
        )
        .with_columns((pl.col("win_lo") > pl.col("anchor")).alias("beats_anchor"))
    )
