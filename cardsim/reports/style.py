"""One plot style for every figure: colour-blind safe (Okabe-Ito), readable in print.

Use :func:`new_figure` to create figures and :func:`svg_text` / :func:`save_figure` to write
them; both fix the metadata so the same data gives byte-identical files.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
)
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES: tuple[str, ...] = ("-", "--", "-.", ":", "-", "--", "-.", ":")

RC_PARAMS: dict[str, object] = {
    "axes.prop_cycle": matplotlib.cycler(color=OKABE_ITO),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "font.size": 10,
    "axes.titlesize": 11,
    "legend.frameon": False,
    "figure.dpi": 100,
    "svg.hashsalt": "cardsim",
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
}


def new_figure(width: float = 6.4, height: float = 3.6) -> tuple[Figure, plt.Axes]:
    """A figure with one axes in the project style (does not touch global pyplot state)."""
    with matplotlib.rc_context(RC_PARAMS):
        fig = Figure(figsize=(width, height), layout="constrained")
        ax = fig.add_subplot()
    return fig, ax


def series_style(index: int) -> dict[str, object]:
    """Colour, marker and line style for the index-th series, distinct without colour too."""
    return {
        "color": OKABE_ITO[index % len(OKABE_ITO)],
        "marker": MARKERS[index % len(MARKERS)],
        "linestyle": LINESTYLES[index % len(LINESTYLES)],
    }


def svg_text(fig: Figure) -> str:
    """The figure as an inline SVG string with fixed metadata (byte-identical for same data)."""
    buffer = io.StringIO()
    with matplotlib.rc_context(RC_PARAMS):
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "cardsim"})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def save_figure(fig: Figure, path: Path) -> Path:
    """Write the figure as SVG or PNG (by suffix) with fixed metadata."""
    path.parent.mkdir(parents=True, exist_ok=True)
    metadata = {"Date": None} if path.suffix == ".svg" else {"Software": "cardsim"}
    with matplotlib.rc_context(RC_PARAMS):
        fig.savefig(path, metadata=metadata)
    return path
