"""The Gang figures: heist success by players x model, the levels curve, per-card effects and
game win rate per mode, every rate with 95% interval whiskers."""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from cardsim.reports.plots.common import interval_bars, interval_lines
from cardsim.sims.gang.models import MODEL_IDS


def _models_in(table: pl.DataFrame) -> list[str]:
    """Every model in ladder order (absent ones are skipped by the chart but keep their slot,
    so a model has the same colour and marker in every figure)."""
    return list(MODEL_IDS)


def success_by_players_plot(summary: pl.DataFrame) -> Figure:
    """Heist success by player count, one series per model; ``summary`` is
    :func:`cardsim.analysis.gang.heist_summary` output at one ``levels`` value."""
    n_min = int(summary["n"].min())
    return interval_lines(
        summary,
        x="players",
        series="model",
        series_order=_models_in(summary),
        y="success",
        lo="success_lo",
        hi="success_hi",
        ylabel="heist success",
        xlabel="players",
        title=f"The Gang: heist success by model (n>={n_min:,} per point, 95% CI)",
    )


def levels_curve_plot(summary: pl.DataFrame) -> Figure:
    """Heist success against the ``levels`` knob (strength bands per chip), one series per
    model: large levels approach perfect sorting."""
    n_min = int(summary["n"].min())
    players = sorted(set(summary["players"].to_list()))
    return interval_lines(
        summary,
        x="levels",
        series="model",
        series_order=_models_in(summary),
        y="success",
        lo="success_lo",
        hi="success_hi",
        ylabel="heist success",
        xlabel="levels (strength bands per chip)",
        reference=1.0,
        title=f"The Gang, {'/'.join(map(str, players))} players: success by levels (n>={n_min:,}, 95% CI)",
    )


def card_effects_plot(effects: pl.DataFrame) -> Figure:
    """Change in heist success per card against no card (Newcombe 95% whiskers, paired by deal
    where :func:`cardsim.analysis.gang.card_effects` could pair), hardest card
    on top; ``effects`` is :func:`cardsim.analysis.gang.card_effects` output for one group."""
    rows = effects.filter(pl.col("card") != "none").sort("difference")
    n_min, n_max = int(rows["n"].min()), int(rows["n"].max())
    sizes = f"n={n_min:,} each" if n_min == n_max else f"n={n_min:,} to {n_max:,}"
    model = rows["model"][0]
    players = rows["players"][0]
    return interval_bars(
        rows,
        label="card",
        y="difference",
        lo="difference_lo",
        hi="difference_hi",
        xlabel="heist success minus success without cards",
        reference=0.0,
        title=f"The Gang, {players} players, {model}: card effects ({sizes}, 95% CI)",
        highlight=[c for c, k in zip(rows["card"], rows["kind"]) if k == "specialist"],
        legend=("specialist", "challenge"),
    )


def game_win_plot(summary: pl.DataFrame) -> Figure:
    """Game win rate per mode, one series per model; ``summary`` is
    :func:`cardsim.analysis.gang.game_summary` output."""
    n_min = int(summary["n"].min())
    order = ["basic", "advanced", "professional", "master"]
    table = summary.with_columns(
        pl.col("mode").replace_strict({m: f"{i + 1} {m}" for i, m in enumerate(order)}).alias("mode")
    )
    return interval_lines(
        table,
        x="mode",
        series="model",
        series_order=_models_in(table),
        y="win",
        lo="win_lo",
        hi="win_hi",
        ylabel="game win rate",
        xlabel="mode",
        title=f"The Gang: game win rate by mode (n>={n_min:,} games/point, 95% CI)",
    )
