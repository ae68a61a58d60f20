"""Cash'n Guns figures: the focal-vs-others payoff heatmap and the equilibrium mix bars."""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from cardsim.reports.style import OKABE_ITO, new_figure


def payoff_heatmap(matrix: pl.DataFrame, *, players: int, metric: str = "win") -> Figure:
    """Heatmap of the payoff of focal strategy A (rows) against others all playing B (columns).

    Each cell shows the payoff and, under it, its 95% interval; ``matrix`` is
    :func:`cardsim.analysis.cashnguns.payoff_matrix` output.
    """
    column, lo, hi = ("p_win", "win_lo", "win_hi") if metric == "win" else ("mean_score", "score_lo", "score_hi")
    names = matrix["focal"].unique(maintain_order=True).to_list()
    size = len(names)
    values = np.full((size, size), np.nan)
    lows = np.full((size, size), np.nan)
    highs = np.full((size, size), np.nan)
    index = {name: i for i, name in enumerate(names)}
    for row in matrix.iter_rows(named=True):
        i, j = index[row["focal"]], index[row["others"]]
        values[i, j], lows[i, j], highs[i, j] = row[column], row[lo], row[hi]
    fig, ax = new_figure(2.2 + 0.7 * size, 1.6 + 0.5 * size)
    image = ax.imshow(values, cmap="cividis", aspect="auto")
    ax.grid(False)
    ax.set_xticks(range(size), names, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(size), names, fontsize=8)
    ax.set_xlabel("strategy of all other players")
    ax.set_ylabel("focal player's strategy")
    n = int(matrix.filter(pl.col("focal") != pl.col("others"))["n"].min() or matrix["n"].min())
    what = "win probability" if metric == "win" else "mean score ($)"
    ax.set_title(
        f"Cash'n Guns, {players} players: focal {what}\n(n={n:,} per cell, diagonal pools all seats; 95% intervals)"
    )
    middle = np.nanmean(values)
    for i in range(size):
        for j in range(size):
            if metric == "win":
                text = f"{values[i, j]:.0%}\n[{lows[i, j]:.0%},{highs[i, j]:.0%}]"
            else:
                text = f"{values[i, j] / 1000:.0f}k\n[{lows[i, j] / 1000:.0f},{highs[i, j] / 1000:.0f}]"
            ax.text(
                j, i, text, ha="center", va="center", fontsize=5.5, color="black" if values[i, j] > middle else "white"
            )
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def equilibrium_bars(equilibrium: pl.DataFrame, *, players: int, regret: float, metric: str = "win") -> Figure:
    """Bars of each strategy's share in the symmetric equilibrium mix, with its regret in the title.

    ``equilibrium`` has columns ``strategy`` and ``share`` (see
    :func:`cardsim.analysis.cashnguns.equilibrium_table`).
    """
    table = equilibrium.sort("share", descending=True)
    fig, ax = new_figure(6.4, max(2.2, 0.28 * table.height + 1.1))
    ys = np.arange(table.height)[::-1]
    ax.barh(ys, table["share"].to_numpy(), color=OKABE_ITO[0], height=0.65)
    ax.set_yticks(ys, table["strategy"].to_list(), fontsize=8)
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the equilibrium mix")
    unit = "win probability" if metric == "win" else "$"
    ax.set_title(f"Cash'n Guns, {players} players: symmetric mix of the named strategies\n(regret {regret:.3g} {unit})")
    return fig
