"""Intervals and summary tables: every probability shown carries n and a 95% Wilson interval.

Used by every layer (simulators, analysis, reports, commands), so it imports nothing from cardsim."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from numpy.typing import ArrayLike

Z95 = 1.959963984540054
"""The two-sided 95% standard normal quantile."""


def wilson_interval(successes: ArrayLike, n: ArrayLike, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (numpy-vectorised).

    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``; n = 0 gives (0, 1).
    """
    k = np.asarray(successes, dtype=np.float64)
    total = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / total
        denom = 1.0 + z * z / total
        centre = (p + z * z / (2 * total)) / denom
        half = z * np.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    # the bounds are exactly 0 with no success and exactly 1 with no failure (no rounding dust)
    lo = np.where((total > 0) & (k > 0), np.clip(centre - half, 0.0, 1.0), 0.0)
    hi = np.where((total > 0) & (k < total), np.clip(centre + half, 0.0, 1.0), 1.0)
    return lo, hi


def wilson_half_width(successes: ArrayLike, n: ArrayLike, z: float = Z95) -> np.ndarray:
    """Half the width of the Wilson interval (the precision the runner's stop rule targets)."""
    lo, hi = wilson_interval(successes, n, z)
    half: np.ndarray = (hi - lo) / 2
    return half


def paired_difference_interval(
    both: ArrayLike, first_only: ArrayLike, second_only: ArrayLike, neither: ArrayLike, z: float = Z95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference p1 - p2 of two proportions measured on the same n pairs, with Newcombe's
    hybrid score 95% interval for paired data (Newcombe 1998, Statistics in Medicine 17,
    2635-2650, method 10), numpy-vectorised.

    The pairs are counted in a 2x2 table: ``both`` successes, ``first_only``, ``second_only``
    and ``neither``. The Wilson intervals (l1, u1) of p1 and (l2, u2) of p2 are combined as in
    the unpaired hybrid interval, less twice their product times the correlation phi of the
    table (continuity-corrected: when both*neither > first_only*second_only the numerator is
    reduced by n/2, not below 0; phi = 0 when a margin is empty):
    ``lo = d - sqrt((p1-l1)^2 - 2 phi (p1-l1)(u2-p2) + (u2-p2)^2)`` and
    ``hi = d + sqrt((u1-p1)^2 - 2 phi (u1-p1)(p2-l2) + (p2-l2)^2)``, d = (first_only -
    second_only) / n. Independent pairs (phi = 0) give the unpaired hybrid interval."""
    a, b, c, d_ = (np.asarray(v, dtype=np.float64) for v in (both, first_only, second_only, neither))
    n = a + b + c + d_
    l1, u1 = wilson_interval(a + b, n, z)
    l2, u2 = wilson_interval(a + c, n, z)
    margins = (a + b) * (c + d_) * (a + c) * (b + d_)
    cross = a * d_ - b * c
    numerator = np.where(cross > 0, np.maximum(cross - n / 2, 0.0), cross)
    with np.errstate(divide="ignore", invalid="ignore"):  # no pairs: every figure is nan
        p1, p2 = (a + b) / n, (a + c) / n
        phi = np.where(margins > 0, numerator / np.sqrt(margins), 0.0)
        diff = (b - c) / n
    lower = np.sqrt(np.maximum((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    upper = np.sqrt(np.maximum((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return diff, diff - lower, diff + upper


def mean_interval(values: ArrayLike, z: float = Z95) -> tuple[float, float, float]:
    """Mean with a 95% normal-approximation interval ``mean ± z·s/√n`` (s with ddof=1).

    Returns (mean, lo, hi); with fewer than two values the interval is (nan, nan).
    """
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(data.mean())
    if data.size < 2:
        return mean, float("nan"), float("nan")
    half = z * float(data.std(ddof=1)) / np.sqrt(data.size)
    return mean, mean - half, mean + half


def proportion_table(frame: pl.DataFrame, by: Sequence[str], column: str) -> pl.DataFrame:
    """Per group: n, successes, proportion p and its 95% Wilson interval (lo, hi).

    Groups keep their order of first appearance.
    """
    keys = list(by)
    grouped = (
        frame.group_by(keys, maintain_order=True).agg(
            pl.len().alias("n"), pl.col(column).cast(pl.Int64).sum().alias("successes")
        )
        if keys
        else frame.select(pl.len().alias("n"), pl.col(column).cast(pl.Int64).sum().alias("successes"))
    )
    n = grouped["n"].to_numpy()
    successes = grouped["successes"].to_numpy()
    lo, hi = wilson_interval(successes, n)
    return grouped.with_columns(
        (pl.col("successes") / pl.col("n")).alias("p"), pl.Series("lo", lo), pl.Series("hi", hi)
    )


def mean_table(frame: pl.DataFrame, by: Sequence[str], column: str) -> pl.DataFrame:
    """Per group: n, mean of ``column`` and its 95% normal-approximation interval (lo, hi)."""
    keys = list(by)
    value = pl.col(column).cast(pl.Float64)
    aggregations = [
        pl.len().alias("n"),
        value.mean().alias("mean"),
        value.std(ddof=1).alias("_sd"),
    ]
    grouped = frame.group_by(keys, maintain_order=True).agg(aggregations) if keys else frame.select(aggregations)
    half = Z95 * pl.col("_sd") / pl.col("n").cast(pl.Float64).sqrt()
    return grouped.with_columns((pl.col("mean") - half).alias("lo"), (pl.col("mean") + half).alias("hi")).drop("_sd")
