"""What a report says, independent of how it is drawn.

A :class:`Report` is a list of :class:`Section` objects, each made of blocks (:class:`Paragraph`,
:class:`Bullets`, :class:`Table`, :class:`Plot`). The HTML renderer (:mod:`cardsim.reports.html`)
and the PDF renderer (:mod:`cardsim.reports.pdf`) both draw the same content, so the two files
always say the same thing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Union

import polars as pl
from matplotlib.figure import Figure


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of plain text (no markup)."""

    text: str


@dataclass(frozen=True)
class Bullets:
    """A bulleted list of plain-text items, with an optional heading line."""

    items: tuple[str, ...]
    heading: str = ""


@dataclass(frozen=True)
class Table:
    """A table: display strings per cell, plus a numeric or text key per cell for sorting.

    Attributes:
        title: one line shown above the table.
        columns: column headers.
        rows: display text of each cell, row by row.
        sort_keys: same shape as ``rows``; a float for numeric cells, else the text itself.
        note: one line shown under the table (e.g. how intervals were computed).
    """

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    sort_keys: tuple[tuple[float | str, ...], ...]
    note: str = ""

    def __post_init__(self) -> None:
        width = len(self.columns)
        if any(len(r) != width for r in self.rows) or len(self.sort_keys) != len(self.rows):
            raise ValueError(f"table {self.title!r}: every row needs {width} cells")


@dataclass(frozen=True)
class Plot:
    """A figure with a caption. ``make`` builds a fresh matplotlib Figure on each call.

    A builder rather than a Figure object lets each renderer own (and resize) its copy. A plot
    drawn ahead (in the worker process that built its chapter, see
    :func:`cardsim.reports.pdf.drawn_ahead`) also carries its drawings: ``svg`` for the HTML,
    ``size`` (the figure's inches) and ``pdf`` (vector PDFs by drawn height) for the PDF; the
    renderers use them instead of drawing the same bytes again.
    """

    key: str
    caption: str
    make: Callable[[], Figure]
    svg: str | None = None
    size: tuple[float, float] | None = None
    pdf: tuple[tuple[float, bytes], ...] = ()


Block = Union[Paragraph, Bullets, Table, Plot]


@dataclass(frozen=True)
class Section:
    """One chapter of the report (usually one game); ``findings`` are its headline figures as
    data (:mod:`cardsim.reports.findings`), not drawn."""

    key: str
    title: str
    blocks: tuple[Block, ...]
    findings: tuple = ()


@dataclass(frozen=True)
class Report:
    """The whole document: a title page's facts, then the sections in order."""

    title: str
    subtitle: str
    front_matter: tuple[Block, ...]
    sections: tuple[Section, ...]
    metadata: dict[str, str] = field(default_factory=dict)


def percent(p: float, digits: int = 1) -> str:
    """A proportion as a percentage string, e.g. 0.4567 -> '45.7%'."""
    return f"{100.0 * p:.{digits}f}%"


def interval_text(lo: float, hi: float, digits: int = 1) -> str:
    """A 95% interval as text, e.g. '44.1-47.3%'."""
    return f"{100.0 * lo:.{digits}f}\u2013{100.0 * hi:.{digits}f}%"


def table_from_frame(
    df: pl.DataFrame,
    *,
    title: str,
    columns: Sequence[tuple[str, str, Callable[[dict], str], Callable[[dict], float | str]]],
    note: str = "",
) -> Table:
    """A :class:`Table` from a polars frame.

    ``columns`` lists (header, source column, text of a row, sort key of a row); the source
    column is informative only (the callables receive the whole row as a dict).
    """
    rows: list[tuple[str, ...]] = []
    keys: list[tuple[float | str, ...]] = []
    for record in df.iter_rows(named=True):
        rows.append(tuple(fmt(record) for _, _, fmt, _ in columns))
        keys.append(tuple(key(record) for _, _, _, key in columns))
    return Table(
        title=title,
        columns=tuple(header for header, _, _, _ in columns),
        rows=tuple(rows),
        sort_keys=tuple(keys),
        note=note,
    )


def proportion_columns(label: str = "win rate") -> list[tuple[str, str, Callable, Callable]]:
    """The three standard columns of a proportion: n, the estimate, and its 95% Wilson interval."""
    return [
        ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
        (label, "p", lambda r: percent(r["p"]), lambda r: float(r["p"])),
        ("95% interval", "lo", lambda r: interval_text(r["lo"], r["hi"]), lambda r: float(r["lo"])),
    ]


def text_column(header: str, column: str) -> tuple[str, str, Callable, Callable]:
    """A column shown and sorted as text (ints sort numerically)."""

    def key(r: dict) -> float | str:
        value = r[column]
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)

    return (header, column, lambda r: str(r[column]), key)
