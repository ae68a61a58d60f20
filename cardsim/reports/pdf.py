"""The report as a PDF, drawn with matplotlib (no browser, no LaTeX) and assembled with pypdf.

Layout happens in two passes: :func:`layout` flows the report's blocks onto A4 pages (a title
page, a contents page, then each section from a fresh page; tables split with their header
repeated, and a row too tall for the rest of a page goes on over the break; plots share a page
when they fit, and a plot that almost fits the rest of a page is drawn a little shorter rather
than leaving the page half empty), and :func:`write_pdf` draws
those pages. Knowing every page first lets the contents page give page numbers. Text pages are
drawn with matplotlib's PdfPages, each plot as its own vector PDF that pypdf places on its page;
pypdf then adds the outline (a bookmark for every chapter and every headed list, table and
figure in it) and makes each contents entry a link to its chapter. Metadata is fixed (no
creation date), so the same report always gives the same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.patches import Rectangle
from pypdf import PdfReader, PdfWriter
from pypdf.annotations import Link
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    Fit,
    FloatObject,
    IndirectObject,
    NameObject,
)

from cardsim.reports.content import Block, Bullets, Paragraph, Plot, Report, Section, Table
from cardsim.reports.style import OKABE_ITO, RC_PARAMS, svg_text

PAGE_W, PAGE_H = 8.27, 11.69  # A4, inches
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 0.8, 0.85, 0.9
CONTENT_W = PAGE_W - 2 * MARGIN_X
CONTENT_BOTTOM = PAGE_H - MARGIN_BOTTOM
TALL_ROW = 0.4 * (CONTENT_BOTTOM - MARGIN_TOP)  # a table row this tall may stand alone on a page
MAX_PLOT_H = 5.2
MIN_PLOT_SHRINK = 0.6  # a plot may be drawn down to this share of its height to fill a page
PT = 72.0  # PDF points per inch
INK, MUTED, BAND, ACCENT = "#1a1a1a", "#555555", "#eef1f4", OKABE_ITO[0]
FAMILY = "DejaVu Sans"


@dataclass(frozen=True)
class Line:
    """One line of text placed at (x, y) inches from the page's top-left (y is the top)."""

    text: str
    x: float
    size: float
    weight: str = "normal"
    color: str = INK
    style: str = "normal"
    align: str = "left"
    dy: float = 0.0  # extra drop below the item's top, for the second line of a wrapped cell


@dataclass(frozen=True)
class Item:
    """Something of fixed height in the flow: text lines on one row (over a shaded band of
    width ``band`` inches when positive), or a plot."""

    height: float
    lines: tuple[Line, ...] = ()
    band: float = 0.0
    plot: Plot | None = None
    keep_with_next: bool = False
    table_row: bool = False
    table_rows: int = 0  # on a table's header and rows: how many rows the table has


@dataclass(frozen=True)
class Mark:
    """An outline entry: ``level`` 0 for a chapter (or the title and contents pages), 1 for a
    headed list, table or figure inside it; ``top`` in inches from the page's top."""

    level: int
    title: str
    top: float


@dataclass(frozen=True)
class PageLink:
    """A clickable band (``top`` and ``height`` in inches) that jumps to page ``target`` (0-based)."""

    top: float
    height: float
    target: int


@dataclass
class Page:
    """A laid-out page: items with their top y (inches), the figures of its plot items (in the
    order placed), its outline entries and its links."""

    header: str
    placed: list[tuple[float, Item]] = field(default_factory=list)
    figures: list[Figure | None] = field(default_factory=list)  # None: a plot drawn ahead
    marks: list[Mark] = field(default_factory=list)
    links: list[PageLink] = field(default_factory=list)

    def has_plot(self) -> bool:
        return any(item.plot is not None for _, item in self.placed)

    def used(self) -> float:
        """Inches of the content area in use (from the top margin to the lowest item's end)."""
        return max((top + item.height for top, item in self.placed), default=MARGIN_TOP) - MARGIN_TOP


@lru_cache(maxsize=1)
def _renderer() -> RendererAgg:
    return RendererAgg(10, 10, 72)  # at 72 dpi one pixel is one point


# Every width measured in this process, by (text, size, weight, style): measuring is most of
# the layout's time (the word wrap measures each line as it grows), and the report's process
# lays out again the chapters its workers laid out; the workers hand their widths over.
_widths: dict[tuple[str, float, str, str], float] = {}


def text_width(text: str, size: float, weight: str = "normal", style: str = "normal") -> float:
    """Width of ``text`` in inches when drawn in the report font."""
    key = (text, size, weight, style)
    width = _widths.get(key)
    if width is None:
        prop = FontProperties(family=FAMILY, size=size, weight=weight, style=style)
        points, _, _ = _renderer().get_text_width_height_descent(text, prop, ismath=False)
        width = _widths[key] = points / 72.0
    return width


def measured_widths() -> dict[tuple[str, float, str, str], float]:
    """The text widths this process has measured (for :func:`remember_widths` elsewhere)."""
    return dict(_widths)


def remember_widths(widths: dict[tuple[str, float, str, str], float]) -> None:
    """Take over widths another process measured with :func:`text_width` (the same font and
    measure, so the same numbers)."""
    _widths.update(widths)


@lru_cache(maxsize=None)
def _advance(char: str, size: float, weight: str, style: str) -> float:
    """Roughly what ``char`` adds to a line's width (measured between two x's, kerning and all):
    :func:`wrap` guesses with it and then measures."""
    return text_width(f"x{char}x", size, weight, style) - text_width("xx", size, weight, style)


def wrap(text: str, width: float, size: float, weight: str = "normal", style: str = "normal") -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` inches (measured, not estimated): each line
    takes words while the line measured with the next word still fits (its first word always).

    Measuring is most of the layout's time, and greedy wrapping measures every prefix of a line.
    A line measured with one more word is never narrower (the words already placed keep their
    places), so the greedy line is the longest run of words that fits: guessed from the words'
    characters' widths, then settled by measuring the guess and one word more, moving a word at
    a time while the guess is off. Same lines as measuring every prefix, in about 2 measures a
    line instead of one per word (`tests/reports/test_render.py` compares both).
    """

    def guessed(word: str) -> float:
        return sum(_advance(char, size, weight, style) for char in word)

    def fits(words: list[str]) -> bool:
        return text_width(" ".join(words), size, weight, style) <= width

    space = _advance(" ", size, weight, style)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        start = 0
        while start < len(words):
            end, guess = start + 1, guessed(words[start])
            while end < len(words):
                guess += space + guessed(words[end])
                if guess > width:
                    break
                end += 1
            while end > start + 1 and not fits(words[start:end]):
                end -= 1
            while end < len(words) and fits(words[start : end + 1]):
                end += 1
            lines.append(" ".join(words[start:end]))
            start = end
    return lines


def _text_items(
    text: str,
    *,
    size: float,
    x: float = MARGIN_X,
    weight: str = "normal",
    style: str = "normal",
    color: str = INK,
    first_prefix: str = "",
    gap_after: float = 0.0,
) -> list[Item]:
    indent = text_width(first_prefix, size) if first_prefix else 0.0
    rows = wrap(text, CONTENT_W - (x - MARGIN_X) - indent, size, weight, style)
    step = size * 1.45 / 72.0
    items = []
    for i, row in enumerate(rows):
        lines = [Line(row, x + indent, size, weight, color, style)]
        if i == 0 and first_prefix:
            lines.insert(0, Line(first_prefix, x, size, weight, color))
        height = step + (gap_after if i == len(rows) - 1 else 0.0)
        items.append(Item(height=height, lines=tuple(lines)))
    return items


def _column_widths(table: Table, size: float, pad: float) -> list[float]:
    return [
        max([text_width(c, size, "bold")] + [text_width(r[i], size) for r in table.rows]) + pad
        for i, c in enumerate(table.columns)
    ]


def _table_items(table: Table) -> tuple[list[Item], Item]:
    """A table as flow items (title, header, one item per row, note) and its header item.

    The font shrinks from 8 to 7 points to fit the page width; if the table is still too wide,
    the widest text columns get narrower and their cells wrap onto several lines.
    """
    pad = 0.14
    size = 8.0
    widths = _column_widths(table, size, pad)
    while sum(widths) > CONTENT_W and size > 7.0:
        size -= 0.5
        widths = _column_widths(table, size, pad)
    numeric = [
        bool(table.sort_keys) and all(isinstance(k[i], float) for k in table.sort_keys)
        for i in range(len(table.columns))
    ]
    floor = 0.9  # inches: a wrapped column never gets narrower than this
    while sum(widths) > CONTENT_W:
        candidates = [i for i in range(len(widths)) if not numeric[i] and widths[i] > floor]
        if not candidates:
            break
        widest = max(candidates, key=lambda i: widths[i])
        widths[widest] = max(floor, widths[widest] - (sum(widths) - CONTENT_W))
    lefts = [MARGIN_X + sum(widths[:i]) for i in range(len(widths))]
    line_h = size * 1.35 / 72.0
    row_pad = size * 0.3 / 72.0

    def row_item(cells: tuple[str, ...], *, header: bool) -> Item:
        weight = "bold" if header else "normal"
        lines: list[Line] = []
        depth = 1
        for i, cell in enumerate(cells):
            if numeric[i]:
                lines.append(Line(cell, lefts[i] + widths[i] - pad / 2, size, weight, align="right", dy=row_pad))
                continue
            parts = (
                wrap(cell, widths[i] - pad, size, weight)
                if text_width(cell, size, weight) > widths[i] - pad
                else [cell]
            )
            depth = max(depth, len(parts))
            lines += [
                Line(part, lefts[i] + pad / 2, size, weight, dy=row_pad + k * line_h) for k, part in enumerate(parts)
            ]
        return Item(
            height=depth * line_h + 2 * row_pad,
            lines=tuple(lines),
            band=sum(widths) if header else 0.0,
            keep_with_next=header,
            table_row=not header,
            table_rows=len(table.rows),
        )

    items = [Item(i.height, i.lines, keep_with_next=True) for i in _text_items(table.title, size=9.5, weight="bold")]
    header = row_item(table.columns, header=True)
    items.append(header)
    rows = [row_item(row, header=False) for row in table.rows]
    # no page holds a single row of a longer table: the first two rows stay with the header,
    # the last two together (and with the note, which stays on the page of the last row);
    # a row taller than TALL_ROW is cut over a page break instead (two may not fit a page)
    pairs = {0, len(rows) - 2} if len(rows) > 2 else set(range(len(rows) - 1))
    keep = {k for k in pairs if rows[k].height <= TALL_ROW and rows[k + 1].height <= TALL_ROW}
    if table.note:
        keep.add(len(rows) - 1)
    items += [replace(row, keep_with_next=True) if k in keep else row for k, row in enumerate(rows)]
    if table.note:
        items += _text_items(table.note, size=7.5, style="italic", color=MUTED)
    last = items[-1]
    items[-1] = Item(last.height + 0.16, last.lines, last.band, table_row=last.table_row, table_rows=last.table_rows)
    return items, header


def block_items(block: Block) -> tuple[list[Item], Item | None]:
    """A block as flow items, plus the header row to repeat when a table breaks across pages."""
    if isinstance(block, Paragraph):
        return _text_items(block.text, size=9.5, gap_after=0.1), None
    if isinstance(block, Bullets):
        items: list[Item] = []
        if block.heading:
            items += [
                Item(i.height + 0.04, i.lines, keep_with_next=True)
                for i in _text_items(block.heading, size=10.5, weight="bold")
            ]
        for text in block.items:
            items += _text_items(text, size=9, x=MARGIN_X + 0.1, first_prefix="\u2022 ", gap_after=0.03)
        items[-1] = Item(items[-1].height + 0.1, items[-1].lines)
        return items, None
    if isinstance(block, Table):
        items, header = _table_items(block)
        return items, header
    if isinstance(block, Plot):
        caption = _text_items(block.caption, size=8.5, style="italic", color=MUTED, gap_after=0.15)
        return [Item(height=0.0, plot=block, keep_with_next=True)] + caption, None
    raise TypeError(f"unknown block type {type(block).__name__}")


def outline_title(block: Block) -> str | None:
    """The block's outline entry: a list's heading, a table's title, a figure's caption (its
    first sentence); None for a paragraph or an untitled list."""
    if isinstance(block, Bullets):
        return block.heading or None
    if isinstance(block, Table):
        return block.title or None
    if isinstance(block, Plot):
        first = block.caption.split(". ")[0].rstrip(".")
        return "Figure: " + (first if len(first) <= 90 else first[:89] + "\u2026")
    return None


def _plot_height(size: tuple[float, float]) -> float:
    """The height a plot of ``size`` inches (width, height) is drawn at the content width."""
    width, height = size
    return min(MAX_PLOT_H, CONTENT_W * height / width)


def _figure_size(fig: Figure) -> tuple[float, float]:
    width, height = fig.get_size_inches()
    return float(width), float(height)


def layout(report: Report) -> list[Page]:
    """Flow the report onto pages: title page, contents page, then one run per section."""
    pages: list[Page] = []
    title = Page(header="")
    y = 2.6
    for item in _text_items(report.title, size=24, weight="bold", gap_after=0.15):
        title.placed.append((y, item))
        y += item.height
    for item in _text_items(report.subtitle, size=12, color=MUTED, gap_after=0.35):
        title.placed.append((y, item))
        y += item.height
    pages.append(title)
    title.marks.append(Mark(0, report.title, 0.0))
    page = title
    for block in report.front_matter:
        page, y = _flow(pages, page, y, block)
    contents_at = len(pages)
    pages.append(Page(header="Contents"))  # filled in once section pages are known
    pages[contents_at].marks.append(Mark(0, "Contents", 0.0))
    starts: list[tuple[str, int]] = []
    for section in report.sections:
        starts.append((section.title, len(pages) + 1))
        pages += section_pages(section)
    contents = pages[contents_at]
    y = MARGIN_TOP
    for item in _text_items("Contents", size=17, weight="bold", color=ACCENT, gap_after=0.25):
        contents.placed.append((y, item))
        y += item.height
    for number, (name, page_no) in enumerate(starts, start=1):
        row = Item(
            height=0.3,
            lines=(
                Line(f"{number}.  {name}", MARGIN_X, 11),
                Line(str(page_no), PAGE_W - MARGIN_X, 11, align="right"),
            ),
        )
        contents.placed.append((y, row))
        contents.links.append(PageLink(y, row.height, page_no - 1))
        y += row.height
    return pages


def section_pages(section: Section) -> list[Page]:
    """The pages of one section: it starts on a fresh page, so its layout does not depend on
    what comes before it."""
    page = Page(header=section.title)
    pages = [page]
    page.marks.append(Mark(0, section.title, 0.0))
    y = MARGIN_TOP
    for item in _text_items(section.title, size=17, weight="bold", color=ACCENT, gap_after=0.2):
        page.placed.append((y, item))
        y += item.height
    for block in section.blocks:
        page, y = _flow(pages, page, y, block)
    return pages


def drawn_ahead(section: Section) -> Section:
    """The section with each plot's drawings attached (its SVG, and its PDF at the height the
    section's layout gives it), so that a worker process that built the chapter can draw its
    plots while other chapters are still being computed; the renderers then write the same
    bytes without drawing them again."""
    drawings: dict[int, tuple[tuple[float, float], list[tuple[float, bytes]]]] = {}
    for page in section_pages(section):
        plots = [item for _, item in page.placed if item.plot is not None]
        for item, figure in zip(plots, page.figures, strict=True):
            height = item.height - 0.1
            size, drawn = drawings.setdefault(id(item.plot), (_figure_size(figure), []))
            drawn.append((height, _plot_pdf(figure, height)))
    blocks = tuple(
        replace(block, svg=svg_text(block.make()), size=drawings[id(block)][0], pdf=tuple(drawings[id(block)][1]))
        if isinstance(block, Plot) and id(block) in drawings
        else block
        for block in section.blocks
    )
    return replace(section, blocks=blocks)


def split_row(item: Item, room: float, min_rest: float = 0.0) -> tuple[Item, Item] | None:
    """A table row cut between two of its text lines: the part that fits in ``room`` inches and
    the rest, each with the row's padding (None when the row has one line or none of it fits).
    The rest is at least ``min_rest`` inches tall where a cut allows it (a rest that will stand
    alone on its page is then no sliver). Lines of a row sit at ``pad + k * step`` below its
    top (:func:`_table_items`)."""
    tops = sorted({line.dy for line in item.lines})
    if len(tops) < 2:
        return None
    pad = tops[0]
    fitting = [top for top in tops[1:] if top + pad <= room]
    if not fitting:
        return None
    cut = max((top for top in fitting if item.height - top + pad >= min_rest), default=max(fitting))
    head = Item(
        cut + pad, tuple(line for line in item.lines if line.dy < cut), table_row=True, table_rows=item.table_rows
    )
    tail = Item(
        item.height - cut + pad,
        tuple(replace(line, dy=line.dy - cut + pad) for line in item.lines if line.dy >= cut),
        keep_with_next=item.keep_with_next,
        table_row=True,
        table_rows=item.table_rows,
    )
    return head, tail


def _flow(pages: list[Page], page: Page, y: float, block: Block) -> tuple[Page, float]:
    items, repeat_header = block_items(block)
    mark = outline_title(block)

    def split_at(i: int, y: float) -> Item:
        """Item ``i``, a table row, cut to the room left below ``y`` where it can be (its rest
        becomes item ``i + 1``); the rest of a table's last row stands alone on the next page, so
        it is cut taller than ``TALL_ROW`` where the row allows."""
        last = not any(later.table_row for later in items[i + 1 :])
        parts = split_row(items[i], CONTENT_BOTTOM - y, min_rest=TALL_ROW + 0.01 if last else 0.0)
        if parts is not None:
            items[i : i + 1] = parts
        return items[i]

    i = 0
    while i < len(items):
        item = items[i]
        if item.table_row and y + item.height > CONTENT_BOTTOM and y - MARGIN_TOP < 0.5 * (CONTENT_BOTTOM - MARGIN_TOP):
            # a row too tall for the rest of a page that is not yet half full goes on over the
            # page break (the header repeated above its rest) rather than leave the page empty
            item = split_at(i, y)
        height = item.height
        plot = item.plot
        figure = plot.make() if plot is not None and plot.size is None else None
        if plot is not None:
            height = _plot_height(plot.size or _figure_size(figure)) + 0.1
        # keep a run of keep_with_next items together with the item that follows them
        run_h, j = height, i
        while items[j].keep_with_next and j + 1 < len(items):
            j += 1
            run_h += items[j].height
        if plot is not None and y + run_h > CONTENT_BOTTOM:
            # a plot that almost fits is drawn shorter rather than leaving the page half empty
            room = CONTENT_BOTTOM - y - (run_h - height)
            if room >= MIN_PLOT_SHRINK * height:
                height, run_h = room, run_h - height + room
        if y + run_h > CONTENT_BOTTOM and page.placed and y > MARGIN_TOP + 0.6:
            page = Page(header=page.header)
            pages.append(page)
            y = MARGIN_TOP
            if repeat_header is not None and item.table_row:
                page.placed.append((y, repeat_header))
                y += repeat_header.height
        if item.table_row and y + height > CONTENT_BOTTOM:  # taller than a whole page
            item = split_at(i, y)
            height = item.height
        if mark is not None and i == 0:
            page.marks.append(Mark(1, mark, y))
        if plot is not None:
            page.figures.append(figure)
            page.placed.append((y, Item(height=height, plot=plot)))
        else:
            page.placed.append((y, item))
        y += height
        i += 1
    return page, y


def _draw_page(page: Page, number: int, total: int, footer: str) -> Figure:
    """The page's text, bands, header and footer (its plots are placed later, see
    :func:`_place_plots`)."""
    with matplotlib.rc_context(RC_PARAMS):
        fig = Figure()
        fig.set_size_inches(PAGE_W, PAGE_H)
        for top, item in page.placed:
            if item.band:
                fig.add_artist(
                    Rectangle(
                        (MARGIN_X / PAGE_W, 1 - (top + item.height) / PAGE_H),
                        item.band / PAGE_W,
                        item.height / PAGE_H,
                        transform=fig.transFigure,
                        facecolor=BAND,
                        edgecolor="none",
                        zorder=-1,
                    )
                )
            for line in item.lines:
                fig.text(
                    line.x / PAGE_W,
                    1 - (top + 0.02 + line.dy) / PAGE_H,
                    line.text,
                    fontsize=line.size,
                    fontweight=line.weight,
                    fontstyle=line.style,
                    color=line.color,
                    ha=line.align,
                    va="top",
                    family=FAMILY,
                    parse_math=False,
                )
        if page.header:
            fig.text(
                MARGIN_X / PAGE_W,
                1 - 0.45 / PAGE_H,
                page.header,
                fontsize=8,
                color=MUTED,
                va="top",
                family=FAMILY,
                parse_math=False,
            )
        fig.text(
            0.5,
            0.45 / PAGE_H,
            f"{footer}  \u00b7  page {number} of {total}",
            fontsize=8,
            color=MUTED,
            ha="center",
            va="bottom",
            family=FAMILY,
            parse_math=False,
        )
    return fig


def _plot_pdf(figure: Figure, height: float) -> bytes:
    """One plot as a one-page vector PDF of the content width and ``height`` inches."""
    buffer = io.BytesIO()
    with matplotlib.rc_context(RC_PARAMS):
        figure.set_size_inches(CONTENT_W, height)
        figure.set_layout_engine(ConstrainedLayoutEngine())
        figure.savefig(
            buffer,
            format="pdf",
            metadata={"CreationDate": None, "ModDate": None, "Producer": "cardsim", "Creator": "cardsim"},
        )
    return buffer.getvalue()


def _plot_form(writer: PdfWriter, data: bytes) -> IndirectObject:
    """The one page of a plot's PDF (a single content stream, as matplotlib writes it) as a
    form XObject of ``writer``: its compressed drawing and its own resources, unchanged."""
    drawn = PdfReader(io.BytesIO(data)).pages[0]
    form = drawn["/Contents"].clone(writer)
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(FloatObject(v) for v in drawn.mediabox),
            NameObject("/Resources"): drawn["/Resources"].clone(writer),
        }
    )
    return form.indirect_reference


def _place_plots(writer: PdfWriter, pages: list[Page]) -> None:
    """Draw every plot onto its page at the place the layout gave it, each as a form XObject
    the page paints after its text: pypdf's ``merge_transformed_page`` would parse and
    rewrite both content streams for every plot, a third of the report's PDF time."""
    for index, page in enumerate(pages):
        plots = [(top, item) for top, item in page.placed if item.plot is not None]
        if not plots:
            continue
        target = writer.pages[index]
        # Copies: matplotlib's pages share one /XObject dictionary, and each page names its
        # own plots.
        resources = DictionaryObject(target["/Resources"])
        xobjects = DictionaryObject(resources["/XObject"] if "/XObject" in resources else {})
        paint = [b"Q"]  # the page's own drawing is wrapped in q ... Q, its state left behind
        for k, ((top, item), figure) in enumerate(zip(plots, page.figures, strict=True)):
            height = item.height - 0.1
            data = dict(item.plot.pdf).get(height)
            if data is None:
                data = _plot_pdf(figure if figure is not None else item.plot.make(), height)
            name = NameObject(f"/CardsimPlot{k}")
            xobjects[name] = _plot_form(writer, data)
            paint.append(f"q 1 0 0 1 {MARGIN_X * PT:.4f} {(PAGE_H - top - height) * PT:.4f} cm {name} Do Q".encode())
        resources[NameObject("/XObject")] = writer._add_object(xobjects)
        target[NameObject("/Resources")] = resources
        contents = target.raw_get("/Contents")
        before, after = DecodedStreamObject(), DecodedStreamObject()
        before.set_data(b"q")
        after.set_data(b"\n".join(paint))
        parts = list(contents) if isinstance(contents, ArrayObject) else [contents]
        target[NameObject("/Contents")] = ArrayObject([writer._add_object(before), *parts, writer._add_object(after)])


def _add_navigation(writer: PdfWriter, pages: list[Page]) -> None:
    """The outline (chapters, and the headed blocks inside each) and the contents links."""
    chapter = None
    for index, page in enumerate(pages):
        for mark in page.marks:
            fit = Fit.xyz(left=0, top=PAGE_H * PT if mark.level == 0 else (PAGE_H - mark.top) * PT + 6)
            if mark.level == 0:
                chapter = writer.add_outline_item(title=mark.title, page_number=index, fit=fit, is_open=False)
            else:
                writer.add_outline_item(title=mark.title, page_number=index, parent=chapter, fit=fit)
        for link in page.links:
            rect = (
                MARGIN_X * PT,
                (PAGE_H - link.top - link.height) * PT,
                (PAGE_W - MARGIN_X) * PT,
                (PAGE_H - link.top) * PT,
            )
            writer.add_annotation(
                index,
                Link(rect=rect, border=[0, 0, 0], target_page_index=link.target, fit=Fit.xyz(left=0, top=PAGE_H * PT)),
            )


def write_pdf(report: Report, path: Path, pages: list[Page] | None = None) -> int:
    """Draw the report into ``path`` (parents created); returns the number of pages written.

    ``pages``: the report's :func:`layout` when the caller already has it (its figures are
    drawn, so it serves one PDF).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if pages is None:
        pages = layout(report)
    metadata = {
        "Title": report.title,
        "Author": "cardsim",
        "Subject": report.subtitle,
        "Creator": f"cardsim {report.metadata.get('version', '')}".strip(),
        "Producer": "cardsim (matplotlib, pypdf)",
        "CreationDate": None,
        "ModDate": None,
    }
    footer = report.metadata.get("footer", report.title)
    text = io.BytesIO()
    with matplotlib.rc_context(RC_PARAMS), PdfPages(text, metadata=metadata) as pdf:
        for number, page in enumerate(pages, start=1):
            pdf.savefig(_draw_page(page, number, len(pages), footer))
    writer = PdfWriter(clone_from=PdfReader(text))
    _place_plots(writer, pages)
    _add_navigation(writer, pages)
    writer.page_mode = "/UseOutlines"
    writer.add_metadata({f"/{key}": value for key, value in metadata.items() if value is not None})
    with path.open("wb") as out:
        writer.write(out)
    return len(pages)
