"""Layout defects a reader met, each checked on a render: two-colour bars have a legend, an
escaped pipe in a rules digest prints as a pipe, no PDF page holds a single row of a longer
table, and no HTML table keeps its cells from wrapping (which hid the last columns behind a
sideways scroll; the browser test measures that in Chromium)."""

from __future__ import annotations

import re

import polars as pl
from pypdf import PdfReader

from cardsim.reports.content import Paragraph, Plot, Report, Section, Table
from cardsim.reports.html import CSS
from cardsim.reports.pdf import TALL_ROW, Page, layout
from cardsim.reports.plots.common import interval_bars
from cardsim.reports.sections.common import digest_facts


def legend_texts(figure) -> list[str]:
    legend = figure.axes[0].get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend is not None else []


def test_two_colour_bars_name_their_colours():
    table = pl.DataFrame({"label": ["a", "b", "c"], "p": [0.2, 0.5, 0.7], "lo": [0.1, 0.4, 0.6], "hi": [0.3, 0.6, 0.8]})
    two = interval_bars(table, label="label", title="t", highlight=["b"], legend=("specialist", "challenge"))
    assert legend_texts(two) == ["specialist", "challenge"]
    one = interval_bars(table, label="label", title="t")
    assert legend_texts(one) == []  # one colour: nothing to tell apart


def test_card_effect_plots_have_a_legend(tiny_report):
    gang = next(s for s in tiny_report.report.sections if s.key == "gang")
    plots = [b for b in gang.blocks if isinstance(b, Plot) and b.key.startswith("gang-cards-")]
    assert plots
    for plot in plots:
        assert {"specialist", "challenge"} <= set(legend_texts(plot.make())), plot.key


def test_an_escaped_pipe_in_a_digest_is_a_pipe(tiny_report):
    facts = digest_facts(
        "# Readings\n\n| Rule | Reading |\n|---|---|\n| Notes | Because 1 \\| 2 \\| 4 it always splits |\n", "x.md"
    )
    assert facts.readings == ("Notes \u2014 Because 1 | 2 | 4 it always splits",)
    text = " ".join(page.extract_text() for page in PdfReader(tiny_report.written.pdf).pages)
    text = re.sub(r"\s+", " ", text)
    assert "1 | 2 | 4" in text and "1 \\" not in text


def orphan_rows(pages: list[Page]) -> list[str]:
    """Pages holding a single row of a table that has more (a run of header and row items
    with one row in it), unless that row is so tall (over 40% of a page) that two such rows
    with the table's title and header may not fit on one page."""
    found = []
    for number, page in enumerate(pages, 1):
        runs: list[list] = []
        open_run = False
        for _, item in page.placed:
            if item.band > 0 and item.table_rows:  # a header starts a run
                runs.append([])
                open_run = True
            elif item.table_row:
                if not open_run:
                    runs.append([])
                    open_run = True
                runs[-1].append(item)
            else:
                open_run = False
        found += [
            f"page {number}: one row of a {run[0].table_rows}-row table"
            for run in runs
            if len(run) == 1 and run[0].table_rows > 1 and run[0].height <= TALL_ROW
        ]
    return found


def test_no_pdf_page_holds_a_single_table_row(tiny_report):
    assert orphan_rows(tiny_report.pages) == []


def test_a_long_table_breaks_with_two_rows_or_more_on_each_page():
    """The table starts lower and lower on the page (a paragraph one word longer each time, a
    line longer every few), so every break position is met: first and last rows included."""
    rows = tuple((f"row {i}", f"{i:,}") for i in range(44))
    table = Table("long", ("name", "n"), rows, tuple((r[0], float(i)) for i, r in enumerate(rows)), note="a note")
    for words in range(1, 1500, 3):
        blocks = (Paragraph(" ".join(["filler"] * words)), table)
        pages = layout(Report("T", "S", (), (Section("s", "S", blocks),)))
        assert sum(item.table_row for page in pages for _, item in page.placed) == len(rows)
        assert orphan_rows(pages) == [], words


def test_the_orphan_check_can_fail():
    rows = tuple((f"row {i}", f"{i:,}") for i in range(45))
    table = Table("long", ("name", "n"), rows, tuple((r[0], float(i)) for i, r in enumerate(rows)))
    pages = layout(Report("T", "S", (), (Section("s", "S", (table,)),)))
    page = next(p for p in pages if any(item.table_row for _, item in p.placed))
    header = next(item for _, item in page.placed if item.band > 0)
    row = next(item for _, item in page.placed if item.table_row)
    assert orphan_rows([Page("x", placed=[(1.0, header), (1.2, row)])])


def test_html_table_cells_wrap():
    """Text cells wrap (a long "pick your group" cell no longer widens its table past the page);
    only numbers stay on one line."""
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", CSS)
    nowrap = [selector.strip() for selector, body in rules if "nowrap" in body]
    assert nowrap == ["td.num"], nowrap
