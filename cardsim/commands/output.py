"""What a command prints: one document per command, as a table, CSV or one JSON document.

A command calls :func:`show_table` (and :func:`record_run` through ``execute``) as it goes; the
tables are printed at once for ``--format table`` and ``csv``, and gathered into a single JSON
document for ``--format json`` (``--json``), printed when the command ends::

    {"command": "gang heist", "version": "0.1.0", "seed": 0, "stop_rule": "fixed n=200",
     "runs": ["gang-3f2a..."], "tables": {"heist_success": [{...}, ...]}, "details": {...}}

Human tables never cut a number: columns that hold numbers never wrap (their headers do, with
underscores shown as spaces), text columns wrap, and a table too wide for the terminal (or the 80
columns of a pipe) is printed one record per block.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import OUTPUT_FORMATS


@dataclass
class Document:
    """Everything one command prints, kept for the single JSON document."""

    command: str
    format: str = "table"
    seed: int | None = None
    stop_rule: str | None = None
    runs: list[str] = field(default_factory=list)
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    printed: int = 0

    def as_json(self) -> str:
        document = {
            "command": self.command,
            "version": __version__,
            "seed": self.seed,
            "stop_rule": self.stop_rule,
            "runs": self.runs,
            "tables": self.tables,
        }
        if self.details:
            document["details"] = self.details
        return json.dumps(_clean(document), default=_json_value, allow_nan=False)


_current: list[Document] = []


def begin(command: str, output_format: str = "table") -> Document:
    """Start the document of ``command`` (the command wrapper calls this)."""
    if output_format not in OUTPUT_FORMATS:
        raise UserError(f"--format must be one of: {', '.join(OUTPUT_FORMATS)}; got {output_format!r}")
    document = Document(command, output_format)
    _current[:] = [document]
    return document


def current() -> Document | None:
    return _current[0] if _current else None


def finish() -> None:
    """Print the JSON document, if the command asked for one and gave it any table or value
    (a command that prints its own JSON and gave nothing here is not followed by a second
    document), and forget it."""
    document = current()
    _current.clear()
    if document is not None and document.format == "json" and (document.tables or document.details):
        sys.stdout.write(document.as_json() + "\n")
        sys.stdout.flush()


def abandon() -> None:
    """Forget the document without printing it (the command failed)."""
    _current.clear()


def record_run(run_id: str | None, seed: int, stop_rule: str) -> None:
    """Note a run the command used (its id, the root seed and the stop rule asked for)."""
    document = current()
    if document is None:
        return
    if run_id is not None and run_id not in document.runs:
        document.runs.append(run_id)
    document.seed = seed
    document.stop_rule = stop_rule


def show_value(name: str, value: Any, text: str | None = None) -> None:
    """A non-table result: in ``details`` of the JSON document, else printed as ``text``."""
    document = current()
    if document is not None and document.format == "json":
        document.details[name] = value
    elif text is not None:
        print(text, flush=True)


def _json_value(value: Any) -> Any:
    """Dates and other non-JSON values as text."""
    return str(value)


def _clean(value: Any) -> Any:
    """NaN and infinities become null (json.load rejects them)."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def slug(title: str) -> str:
    """A JSON table name from a title: 'The Gang: heist success (...)' -> 'the_gang_heist_success'."""
    words = re.sub(r"\(.*?\)", "", title.split(";")[0])
    name = re.sub(r"[^a-z0-9]+", "_", words.lower()).strip("_")
    return name or "table"


def show_table(frame: pl.DataFrame, *, title: str = "", as_json: bool = False, name: str | None = None) -> None:
    """Print ``frame`` in the command's format: a readable table, CSV, or a named table of the
    command's JSON document (``name``, default derived from ``title``)."""
    document = current()
    output_format = document.format if document is not None else ("json" if as_json else "table")
    key = name or slug(title)
    if output_format == "json":
        if document is None:
            print(json.dumps({"title": title, "rows": _clean(frame.to_dicts())}, default=str))
            return
        base, suffix = key, 2
        while key in document.tables:
            key, suffix = f"{base}_{suffix}", suffix + 1
        document.tables[key] = _clean(frame.to_dicts())
        return
    if output_format == "csv":
        if document is not None and document.printed:
            sys.stdout.write("\n")
        sys.stdout.write(f"# {key}\n")
        sys.stdout.write(_flat(frame).write_csv())
    else:
        print_table(frame, title=title)
    if document is not None:
        document.printed += 1
    sys.stdout.flush()


def _flat(frame: pl.DataFrame) -> pl.DataFrame:
    """Nested columns (lists, structs) as text, so that every column fits in a CSV cell."""
    nested = [c for c, dtype in frame.schema.items() if dtype.is_nested()]
    return frame.with_columns(pl.col(c).map_elements(str, return_dtype=pl.String) for c in nested) if nested else frame


def format_cell(value: Any) -> str:
    """A cell as text: floats to at most 4 decimals (74.0, 0.1235; thousands separated when
    large), NaN and null as '-'."""
    if value is None:
        return "-"
    if isinstance(value, float):
        if value != value:
            return "-"
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        text = f"{value:.4f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


_DIGIT = re.compile(r"\d")


def _is_numeric(frame: pl.DataFrame, column: str, cells: list[str]) -> bool:
    """A column that holds numbers (also '72.15 (71.95-72.35)' strings): never wrapped or cut."""
    if frame.schema[column].is_numeric():
        return True
    filled = [c for c in cells if c not in ("", "-")]
    return bool(filled) and all(_DIGIT.search(c) and len(c.split()) <= 4 for c in filled)


def _layout(
    cells: dict[str, list[str]], numeric: dict[str, bool], headers: dict[str, str]
) -> tuple[dict[str, int], int]:
    """Each column's width (numbers: their longest cell; text: may wrap) and the least total
    width the table needs (rich's SIMPLE_HEAD box: padding 1 + 1 and a separator per column)."""
    layout: dict[str, int] = {}
    needed = 1
    for column, column_cells in cells.items():
        longest = max((len(c) for c in column_cells), default=1)
        word = max((len(w) for w in headers[column].split()), default=1)
        if numeric[column]:
            layout[column] = max(longest, word)
        else:
            layout[column] = min(max(longest, word), max(word, 12))
        needed += layout[column] + 3
    return layout, needed


def print_table(frame: pl.DataFrame, *, title: str = "", width: int | None = None) -> None:
    """A readable table that never cuts a number at any width (see the module docstring).

    When the table is too wide, columns that hold one value in every row go to a line under the
    title ('players 4 · model history'); if it is still too wide, one block per record.
    """
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(width=width) if width else Console()
    width = console.width
    cells = {c: [format_cell(v) for v in frame[c].to_list()] for c in frame.columns}
    numeric = {c: _is_numeric(frame, c, cells[c]) for c in frame.columns}
    headers = {c: c.replace("_", " ") for c in frame.columns}
    layout, needed = _layout(cells, numeric, headers)
    common = ""
    if needed > width and frame.height > 1:
        constant = [c for c in frame.columns if len(set(cells[c])) == 1]
        if constant and len(constant) < frame.width:
            common = " · ".join(f"{headers[c]} {cells[c][0]}" for c in constant)
            cells = {c: v for c, v in cells.items() if c not in constant}
            layout, needed = _layout(cells, numeric, headers)
    if needed > width and len(cells) > 1:
        _print_vertical(console, frame, title)
        return
    caption = "\n".join(part for part in (title, common) if part)
    table = Table(title=escape(caption) if caption else None, box=box.SIMPLE_HEAD, title_justify="left")
    for column in cells:
        header = headers[column]
        if numeric[column]:
            header = "\n".join(textwrap.wrap(header, layout[column])) or header
            table.add_column(escape(header), justify="right", no_wrap=True, min_width=layout[column])
        else:
            table.add_column(escape(header), justify="left", overflow="fold")
    for row in zip(*cells.values()) if cells else []:
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)


def _print_vertical(console, frame: pl.DataFrame, title: str) -> None:
    """One block per record, 'column  value' lines: for tables wider than the terminal."""
    if title:
        console.print(title, soft_wrap=False, markup=False, highlight=False)
    label = max(len(c) for c in frame.columns)
    for index, row in enumerate(frame.iter_rows()):
        console.print(f"[{index + 1}/{frame.height}]", highlight=False, markup=False)
        for column, value in zip(frame.columns, row):
            console.print(
                f"  {column.ljust(label)}  {format_cell(value)}", highlight=False, markup=False, soft_wrap=True
            )
    if frame.height == 0:
        console.print("(no rows)", markup=False)


def interval_text(
    value: float | None,
    lo: float | None,
    hi: float | None,
    *,
    scale: float = 1.0,
    digits: int = 2,
    signed: bool = False,
) -> str:
    """A value and its 95% interval the one way every command writes it:
    ``'54.12 (52.66-57.02)'``; ``signed`` for a difference, each number with its sign so that
    the dash between the bounds never reads as a minus: ``'+1.20 (-0.35-+2.75)'``. Values of
    1,000 or more get thousands separators (dollars). A missing value is '-'."""
    if value is None or lo is None or hi is None:
        return "-"

    def number(x: float) -> str:
        x = scale * x
        if x != x:
            return "-"
        sign = "+" if signed else ""
        return f"{x:{sign},.0f}" if abs(x) >= 1000 else f"{x:{sign}.{digits}f}"

    return f"{number(value)} ({number(lo)}-{number(hi)})"


def interval_column(
    frame: pl.DataFrame,
    value: str,
    lo: str | None = None,
    hi: str | None = None,
    *,
    scale: float = 1.0,
    digits: int = 2,
    signed: bool = False,
) -> pl.Series:
    """:func:`interval_text` for each row of ``frame`` (``lo``/``hi`` default to
    ``value_lo``/``value_hi``)."""
    lo, hi = lo or f"{value}_lo", hi or f"{value}_hi"
    return pl.Series(
        [
            interval_text(v, low, high, scale=scale, digits=digits, signed=signed)
            for v, low, high in zip(frame[value], frame[lo], frame[hi])
        ],
        dtype=pl.String,
    )


def with_chunk_progress(work: Any, label: str, quiet: bool) -> Any:
    """``work(report)`` with a progress bar on stderr (``report(done, total)`` after each
    chunk), none when quiet or stderr is not a terminal (``work(None)``)."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        return work(None)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(label, total=None)
        return work(lambda done, total: progress.update(task, completed=done, total=total))


def show_crossplay(result: Any, players: int, n: int, seed: int, as_json: bool) -> None:
    """The ``crossplay`` command's output (The Gang, The Game): its seed record, then the matrix
    as one document or as a grid of cells (row: the team's strategy, column: the one seat's)."""
    runs = result.manifest.get("runs") or [None]
    record_run(runs[0], seed, f"{n} paired deals per cell")
    table = result.table
    if as_json:
        show_table(table, name="crossplay", as_json=True)
        return
    grid = table.with_columns(interval_column(table, "p_success", "lo", "hi", scale=100, digits=1).alias("cell"))
    show_table(
        grid.pivot(on="one", index="team", values="cell"),
        title=f"success % of a team of the row's strategy with one seat of the column's, {players} players, "
        f"n={n} deals per cell, 95% Wilson",
    )
