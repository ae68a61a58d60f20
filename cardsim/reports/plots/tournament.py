"""Tournament figures: the head-to-head heatmap and the ranking (win rate with its 95%
interval per entrant, and its α-Rank mass)."""

from __future__ import annotations

import matplotlib
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from cardsim.reports.style import OKABE_ITO, RC_PARAMS, new_figure


def head_to_head_heatmap(table: pl.DataFrame, labels: list[str], *, title: str) -> Figure:
    """Each entrant's (row) win rate per seat at the tables where another (column) sits, from
    :func:`cardsim.analysis.tournament.head_to_head`; blank where they never met."""
    size = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    values = np.full((size, size), np.nan)
    for row in table.iter_rows(named=True):
        values[index[row["entrant"]], index[row["opponent"]]] = row["p_win"]
    fig, ax = new_figure(2.4 + 0.6 * size, 1.8 + 0.45 * size)
    image = ax.imshow(values, cmap="cividis", aspect="auto")
    ax.grid(False)
    ax.set_xticks(range(size), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(size), labels, fontsize=8)
    ax.set_xlabel("opponent at the table (diagonal: a second seat of the same entrant)")
    ax.set_ylabel("entrant")
    games = int(table["games"].to_numpy().min()) if table.height else 0
    ax.set_title(f"{title}\nwin rate per seat at tables with the opponent (at least {games:,} games per cell)")
    middle = np.nanmean(values)
    if size <= 14:
        for i in range(size):
            for j in range(size):
                if np.isfinite(values[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{values[i, j]:.0%}",
                        ha="center",
                        va="center",
                        fontsize=6.5,
                        color="black" if values[i, j] > middle else "white",
                    )
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def ranking_plot(standings: pl.DataFrame, alpharank: pl.DataFrame | None, *, title: str) -> Figure:
    """Entrants by win rate per seat with 95% intervals over games; beside it, α-Rank's
    stationary mass where the design gives it."""
    table = standings.sort("p_win")
    panels = 2 if alpharank is not None else 1
    with matplotlib.rc_context(RC_PARAMS):  # type: ignore[arg-type]
        fig = Figure(figsize=(4.2 * panels + 1.2, max(2.2, 0.3 * table.height + 1.2)), layout="constrained")
        axes = list(np.atleast_1d(fig.subplots(1, panels)))
    ys = np.arange(table.height)
    p = table["p_win"].to_numpy()
    err = np.vstack([p - table["win_lo"].to_numpy(), table["win_hi"].to_numpy() - p])
    axes[0].barh(ys, p, xerr=err, color=OKABE_ITO[0], capsize=2)
    axes[0].set_yticks(ys, table["entrant"].to_list(), fontsize=8)
    axes[0].set_xlabel("win rate per seat (95% interval over games)")
    if alpharank is not None:
        pi = dict(zip(alpharank["entrant"].to_list(), alpharank["pi"].to_list(), strict=True))
        axes[1].barh(ys, [pi[name] for name in table["entrant"].to_list()], color=OKABE_ITO[1])
        axes[1].set_yticks(ys, [""] * table.height)
        axes[1].set_xlabel("α-Rank stationary mass")
    fig.suptitle(title, fontsize=9)
    return fig
