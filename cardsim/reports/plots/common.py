"""Chart shapes the report uses for every game, each a pure function of a summary table.

Every rate is drawn with its 95% interval as whiskers; series differ by colour, marker and line
style (:func:`cardsim.reports.style.series_style`) so the charts read in grey print too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import PercentFormatter

from cardsim.reports.style import OKABE_ITO, new_figure, series_style


def _whiskers(table: pl.DataFrame, y: str, lo: str, hi: str) -> np.ndarray:
    values = table[y].to_numpy().astype(float)
    # at p = 0 or 1 a Wilson bound can sit a rounding error past p: never a negative whisker
    return np.maximum(0.0, np.vstack([values - table[lo].to_numpy(), table[hi].to_numpy() - values]))


def interval_lines(
    table: pl.DataFrame,
    *,
    x: str,
    series: str | None,
    title: str,
    xlabel: str,
    ylabel: str = "win rate",
    y: str = "p",
    lo: str = "lo",
    hi: str = "hi",
    percent: bool = True,
    series_order: Sequence | None = None,
    reference: float | None = None,
) -> Figure:
    """One line per ``series`` value over ``x`` with 95% interval whiskers."""
    fig, ax = new_figure(6.4, 3.8)
    groups = [None] if series is None else list(series_order or table[series].unique(maintain_order=True))
    count = max(1, len(groups))
    values = table[x].unique(maintain_order=True).to_list()
    xs_all = sorted(values) if table.schema[x].is_numeric() else values  # text: first appearance
    positions = {value: i for i, value in enumerate(xs_all)}
    width = 0.25 if count > 1 else 0.0
    for index, group in enumerate(groups):
        part = table if group is None else table.filter(pl.col(series) == group)
        if part.height == 0:
            continue
        part = part.with_columns(pl.Series("_pos", [positions[v] for v in part[x].to_list()])).sort("_pos")
        offset = (index - (count - 1) / 2) * width / max(1, count - 1) if count > 1 else 0.0
        xs = part["_pos"].to_numpy().astype(float) + offset
        style = series_style(index)
        ax.errorbar(
            xs,
            part[y].to_numpy(),
            yerr=_whiskers(part, y, lo, hi),
            capsize=3,
            label=None if group is None else str(group),
            markersize=5,
            linewidth=1.4,
            **style,
        )
    if reference is not None:
        ax.axhline(reference, color="#777777", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(len(xs_all)), [str(v) for v in xs_all])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, wrap=True)
    if percent:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    if series is not None:
        ax.legend(title=series, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, title_fontsize=8)
    return fig


def interval_bars(
    table: pl.DataFrame,
    *,
    label: str,
    title: str,
    xlabel: str = "win rate",
    y: str = "p",
    lo: str = "lo",
    hi: str = "hi",
    reference: float | None = None,
    reference_label: str = "",
    percent: bool = True,
    highlight: Sequence[str] = (),
    legend: tuple[str, str] = ("highlighted", "other"),
) -> Figure:
    """Horizontal bars (one per row, top to bottom in table order) with interval whiskers; the
    rows named in ``highlight`` in a second colour, which the legend names (``legend``: the
    highlighted bars' label, the others')."""
    rows = table.height
    fig, ax = new_figure(6.4, max(2.2, 0.28 * rows + 1.1))
    ys = np.arange(rows)[::-1]
    labels = [str(v) for v in table[label].to_list()]
    colours = [OKABE_ITO[1] if name in highlight else OKABE_ITO[0] for name in labels]
    ax.barh(
        ys,
        table[y].to_numpy(),
        color=colours,
        height=0.65,
        xerr=_whiskers(table, y, lo, hi),
        error_kw={"capsize": 2.5, "elinewidth": 1, "ecolor": "#222222"},
    )
    ax.set_yticks(ys, labels, fontsize=8)
    ax.grid(axis="y", visible=False)
    handles: list = []
    if reference is not None:
        line = ax.axvline(reference, color=OKABE_ITO[3], linewidth=1.2, linestyle="--")
        if reference_label:
            line.set_label(reference_label)
            handles.append(line)
    if len(set(colours)) > 1:  # two colours: say which is which
        handles += [Patch(color=OKABE_ITO[1], label=legend[0]), Patch(color=OKABE_ITO[0], label=legend[1])]
    if handles:
        ax.legend(handles=handles, loc="lower right", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(title, wrap=True)
    if percent:
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    return fig


def histograms(
    frame: pl.DataFrame,
    *,
    value: str,
    series: str,
    title: str,
    xlabel: str,
    series_order: Sequence | None = None,
    bins: Sequence[float] | None = None,
) -> Figure:
    """Step histograms of ``value`` (as shares of each series' episodes), one per series."""
    fig, ax = new_figure(6.4, 3.8)
    groups = list(series_order or frame[series].unique(maintain_order=True))
    values_all = frame[value].to_numpy()
    edges = np.asarray(bins) if bins is not None else np.arange(values_all.min(), values_all.max() + 2) - 0.5
    for index, group in enumerate(groups):
        data = frame.filter(pl.col(series) == group)[value].to_numpy()
        if data.size == 0:
            continue
        counts, _ = np.histogram(data, bins=edges)
        style = series_style(index)
        ax.stairs(
            counts / data.size,
            edges,
            label=f"{group} (n={data.size:,})",
            color=style["color"],
            linestyle=style["linestyle"],
            linewidth=1.5,
        )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    ax.set_title(title, wrap=True)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(title=series, fontsize=8, title_fontsize=8)
    return fig


def heatmap(
    values: np.ndarray,
    *,
    rows: Sequence[str],
    columns: Sequence[str],
    title: str,
    xlabel: str,
    ylabel: str,
    fmt: str = "{:.2f}",
    colorbar_label: str = "",
) -> Figure:
    """A matrix with its value written in every cell (readable without colour)."""
    fig, ax = new_figure(6.4, max(3.0, 0.42 * len(rows) + 1.4))
    image = ax.imshow(values, cmap="cividis", aspect="auto")
    ax.set_xticks(range(len(columns)), list(columns), rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), list(rows), fontsize=8)
    ax.grid(False)
    finite = values[np.isfinite(values)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0.0
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            colour = "black" if values[i, j] > middle else "white"
            ax.text(j, i, fmt.format(values[i, j]), ha="center", va="center", fontsize=7, color=colour)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, wrap=True)
    fig.colorbar(image, ax=ax, label=colorbar_label, shrink=0.8)
    return fig
