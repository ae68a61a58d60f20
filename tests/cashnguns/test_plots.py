"""Cash'n Guns figures: one heatmap cell per pair, one bar per strategy, byte-identical SVG."""

from __future__ import annotations

import polars as pl

from cardsim.reports.plots.cashnguns import equilibrium_bars, payoff_heatmap
from cardsim.reports.style import svg_text

MATRIX = pl.DataFrame(
    {
        "focal": ["a", "a", "b", "b"],
        "others": ["a", "b", "a", "b"],
        "n": [400, 100, 100, 400],
        "wins": [100, 60, 10, 100],
        "p_win": [0.25, 0.6, 0.1, 0.25],
        "win_lo": [0.21, 0.5, 0.05, 0.21],
        "win_hi": [0.29, 0.69, 0.17, 0.29],
        "mean_score": [50_000.0, 70_000.0, 20_000.0, 50_000.0],
        "score_lo": [48_000.0, 65_000.0, 18_000.0, 48_000.0],
        "score_hi": [52_000.0, 75_000.0, 22_000.0, 52_000.0],
    }
)


def test_heatmap_has_one_annotated_cell_per_pair():
    fig = payoff_heatmap(MATRIX, players=4)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 4
    assert "60%\n[50%,69%]" in texts
    assert "n=100 per cell" in ax.get_title()
    assert svg_text(fig) == svg_text(payoff_heatmap(MATRIX, players=4))
    score = payoff_heatmap(MATRIX, players=4, metric="score")
    assert "70k\n[65,75]" in [t.get_text() for t in score.axes[0].texts]


def test_equilibrium_bars_one_bar_per_strategy():
    table = pl.DataFrame({"strategy": ["a", "b", "c"], "share": [0.7, 0.3, 0.0]})
    fig = equilibrium_bars(table, players=5, regret=0.004)
    ax = fig.axes[0]
    assert len(ax.patches) == 3
    assert sorted(p.get_width() for p in ax.patches) == [0.0, 0.3, 0.7]
    assert "regret 0.004" in ax.get_title()
