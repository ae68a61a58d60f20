"""Rendering pieces: inline SVG hygiene, rules digest readings, PDF layout and pagination."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim.reports.build import INTRO
from cardsim.reports.content import Bullets, Paragraph, Plot, Report, Section, Table
from cardsim.reports.html import inline_svg, render_html
from cardsim.reports.pdf import CONTENT_BOTTOM, CONTENT_W, MARGIN_TOP, MIN_PLOT_SHRINK, layout, text_width, wrap
from cardsim.reports.sections import section_games, section_module
from cardsim.reports.sections.common import digest_facts, digest_path
from cardsim.reports.style import new_figure, svg_text


def small_figure():
    fig, ax = new_figure()
    ax.plot([0, 1], [0, 1], label="line")
    ax.legend()
    return fig


def test_inline_svg_drops_urls_and_prefixes_ids():
    svg = inline_svg(svg_text(small_figure()), "x1")
    assert "http" not in svg and "xmlns" not in svg and "<metadata" not in svg
    ids = [part.split('"')[0] for part in svg.split('id="')[1:]]
    assert ids and all(i.startswith("x1-") for i in ids)
    assert 'href="#x1-' in svg or "url(#x1-" in svg
    assert svg.startswith("<svg") and 'viewBox="' in svg and ' width="' not in svg.split(">")[0]


def test_html_escapes_text_and_marks_numeric_columns():
    table = Table("t <b>", ("name", "n"), (("<i>x</i>", "1,000"),), (("<i>x</i>", 1000.0),))
    page = render_html(Report("T", "S", (), (Section("s", "S & S", (Paragraph("a < b"), table)),)))
    assert "a &lt; b" in page and "<i>x</i>" not in page and "S &amp; S" in page
    assert '<td class="num" data-key="1000.0">1,000</td>' in page


def test_digest_readings_are_found():
    text = """# The Game rules digest
Rules version: seed 001 as of 2026-11.

## Turn
| # | Rule (our words) | Source | Reading chosen | Test |
|---|---|---|---|---|
| T1 | Each turn plays at least two cards. | 001 | \u2014 | `test_min_two` |
| T2 | The game ends when nobody can play. | 001 | Checked before each turn. | `test_end` |
| T3 | Reach is up to the range. | seed says more **[published over seed]** | | `test_reach` |

- A plain list item outside any reading section.

## Readings where the seed is silent
- Hand size with one player is 8.
  It continues here.
- Talk: only "I have something for pile N".
- Source copy at https://example.org/rules.pdf, see [the shop](https://example.org/shop).
"""
    facts = digest_facts(text, "seeds/thegame.md")
    assert facts.version == "Rules version: seed 001 as of 2026-11."
    assert facts.readings == (
        "The game ends when nobody can play. \u2014 Checked before each turn.",
        "Reach is up to the range. \u2014 seed says more [published over seed]",
        "Hand size with one player is 8. It continues here.",
        'Talk: only "I have something for pile N".',
        "Source copy at (web address omitted) see the shop.",
    )


def test_digest_path_matches_by_letters(tmp_path):
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "cash_n_guns.md").write_text("x")
    (tmp_path / "seeds" / "the_game.md").write_text("x")
    assert digest_path("cashnguns", tmp_path).name == "cash_n_guns.md"
    assert digest_path("thegame", tmp_path).name == "the_game.md"
    assert digest_path("bang", tmp_path) is None


def test_wrap_fits_the_width():
    text = "word " * 300
    lines = wrap(text, CONTENT_W, 9.5)
    assert len(lines) > 5
    assert all(text_width(line, 9.5) <= CONTENT_W for line in lines)
    assert " ".join(lines).split() == text.split()


def greedy_wrap(text: str, width: float, size: float, weight: str = "normal", style: str = "normal") -> list[str]:
    """The plain greedy wrap: measure the line with each next word, break when it is too wide."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            trial = f"{current} {word}" if current else word
            if current and text_width(trial, size, weight, style) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    return lines


QUESTIONS = [section_module(game)[0].QUESTION for game in section_games()]


@pytest.mark.parametrize(
    ("width", "size", "weight", "style"),
    [(CONTENT_W, 9.5, "normal", "normal"), (0.9, 8.0, "bold", "normal"), (3.1, 7.5, "normal", "italic")],
)
def test_wrap_breaks_the_report_text_where_greedy_wrapping_does(width, size, weight, style):
    text = "\n".join((INTRO, *QUESTIONS))
    assert wrap(text, width, size, weight, style) == greedy_wrap(text, width, size, weight, style)


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(
        st.text("iljWMmw.,-0123456789 \u2014\u00b7()%", min_size=1, max_size=14).map(str.strip).filter(bool),
        max_size=40,
    ),
    width=st.floats(0.05, 7.0),
    size=st.sampled_from([7.0, 8.0, 9.5]),
    weight=st.sampled_from(["normal", "bold"]),
)
def test_wrap_is_greedy_wrapping_for_any_words(words, width, size, weight):
    text = " ".join(words)
    assert wrap(text, width, size, weight) == greedy_wrap(text, width, size, weight)


def test_long_table_breaks_with_repeated_header():
    rows = tuple((f"r{i}", f"{i}") for i in range(150))
    keys = tuple((f"r{i}", float(i)) for i in range(150))
    table = Table("long", ("row", "value"), rows, keys, note="note")
    plots = tuple(Plot(f"p{i}", "c", small_figure) for i in range(2))
    report = Report("T", "S", (), (Section("s", "S", (Paragraph("intro"), table, Bullets(("a",)), *plots)),))
    pages = layout(report)
    texts = [[line.text for _, item in page.placed for line in item.lines] for page in pages]
    table_pages = [t for t in texts if any(x.startswith("r1") for x in t)]
    assert len(table_pages) >= 2
    assert all(t.count("row") == 1 for t in table_pages)  # the header on every page of the table
    body = [x for t in texts for x in t if x.startswith("r") and x[1:].isdigit()]
    assert body == [f"r{i}" for i in range(150)]
    assert pages[1].header == "Contents"
    contents = [line.text for _, item in pages[1].placed for line in item.lines]
    assert "1.  S" in contents and "3" in contents  # section S starts on page 3
    assert pl.Series(body).n_unique() == 150


def test_plots_share_a_page_and_fill_it():
    """Two plots that fit go on one page; a third that almost fits is drawn shorter (not below
    MIN_PLOT_SHRINK of its height) instead of leaving the page half empty."""
    plots = tuple(Plot(f"p{i}", f"caption {i}. More text.", small_figure) for i in range(5))
    pages = layout(Report("T", "S", (), (Section("s", "S", (Paragraph("intro"), *plots)),)))
    chapter = [p for p in pages if p.header == "S"]
    counts = [sum(item.plot is not None for _, item in p.placed) for p in chapter]
    assert sum(counts) == 5 and counts[0] >= 2 and len(chapter) < 5
    natural = CONTENT_W * 3.6 / 6.4
    heights = [item.height - 0.1 for p in chapter for _, item in p.placed if item.plot is not None]
    assert all(MIN_PLOT_SHRINK * natural - 1e-9 <= h <= natural + 1e-9 for h in heights)
    assert all(p.used() <= CONTENT_BOTTOM - MARGIN_TOP + 1e-9 for p in chapter)
    assert all(p.used() >= 0.5 * (CONTENT_BOTTOM - MARGIN_TOP) for p in chapter[:-1])
    marks = [m.title for p in chapter for m in p.marks]
    assert marks == ["S"] + [f"Figure: caption {i}" for i in range(5)]


def test_interval_lines_keep_text_categories_in_table_order():
    from cardsim.reports.plots.common import interval_lines

    table = pl.DataFrame(
        {
            "mode": ["basic", "advanced", "professional", "master"],
            "p": [0.8, 0.7, 0.5, 0.2],
            "lo": [0.7, 0.6, 0.4, 0.1],
            "hi": [0.9, 0.8, 0.6, 0.3],
        }
    )
    fig = interval_lines(table, x="mode", series=None, title="t", xlabel="mode")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["basic", "advanced", "professional", "master"]
    line = ax.get_lines()[0]
    assert list(line.get_xdata()) == [0.0, 1.0, 2.0, 3.0]
    assert list(line.get_ydata()) == [0.8, 0.7, 0.5, 0.2]


def test_whiskers_never_negative_at_the_edges():
    from cardsim.reports.plots.common import interval_bars

    table = pl.DataFrame({"label": ["a"], "p": [0.0], "lo": [1e-17], "hi": [0.05]})
    fig = interval_bars(table, label="label", title="t")
    assert fig.axes[0].patches[0].get_width() == 0.0


def test_digest_found_from_the_working_directory(tmp_path, monkeypatch):
    """A regular (non-editable) install finds the digests of the checkout it is run from."""
    import cardsim.reports.sections.common as common

    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "the_gang.md").write_text("# digest\n")
    monkeypatch.setattr(common, "repo_root", lambda: tmp_path / "site-packages")
    monkeypatch.chdir(tmp_path)
    assert common.digest_path("gang") == tmp_path / "seeds" / "the_gang.md"


def test_cards_left_small_multiples_show_every_strategy_and_game():
    from cardsim.reports.plots.thegame import cards_left_histogram

    counts = pl.DataFrame(
        {
            "players": [1] * 4,
            "strategy": ["random", "random", "greedy", "greedy"],
            "cards_left": [0, 90, 0, 5],
            "games": [1, 3, 2, 2],
        }
    )
    fig = cards_left_histogram(counts, 1)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title().split(" ")[0] for ax in panels] == ["random", "greedy"]
    assert all(ax.get_xlim()[1] >= 90 for ax in panels)  # the game with 90 cards left is in view
    texts = [t.get_text() for ax in panels for t in ax.texts]
    assert "wins 25%\nmedian 90" in texts and "wins 50%\nmedian 0" in texts


@pytest.mark.parametrize("words", [1200, 3000], ids=["taller-than-the-rest", "taller-than-a-page"])
def test_a_tall_table_row_goes_on_over_the_page_break(words):
    """A row whose wrapped cell is too tall for the rest of a page is cut between two of its
    lines (the header repeated above the rest), not moved whole to leave a page half empty, and
    never runs past the page's foot; every line comes out once, in order."""
    cell = " ".join(f"w{k}" for k in range(words))
    rows = (("a", "short"), ("b", cell), ("c", "short"))
    table = Table("tall", ("row", "text"), rows, rows)
    lead = Paragraph(" ".join(["filler"] * 150))  # a few lines: the page is not half full
    pages = layout(Report("T", "S", (), (Section("s", "S", (lead, table)),)))
    chapter = [p for p in pages if p.header == "S"]
    area = CONTENT_BOTTOM - MARGIN_TOP
    assert all(p.used() <= area + 1e-9 for p in chapter)
    assert all(p.used() >= 0.5 * area for p in chapter[:-1])
    placed = [
        (n, line)
        for n, p in enumerate(chapter)
        for top, item in sorted(p.placed, key=lambda x: x[0])
        for line in sorted(item.lines, key=lambda line: line.dy)
    ]
    body = [line.text for _, line in placed if line.text.startswith("w")]
    assert " ".join(body).split() == cell.split()
    with_b = {n for n, line in placed if line.text.startswith("w")}
    assert len(with_b) >= 2  # the row went on over a break
    assert all(sum(line.text == "row" for m, line in placed if m == n) == 1 for n in with_b)
