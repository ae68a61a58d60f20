"""The four games' PDF: an outline with every chapter and its headed blocks, contents entries
that link to their chapters, and no page more than half empty unless its chapter ends there."""

from __future__ import annotations

from pypdf import PdfReader

from cardsim.reports.pdf import CONTENT_BOTTOM, MARGIN_TOP
from cardsim.reports.sections import game_title, section_games


def entries(outline: list) -> list[tuple[object, list]]:
    """The top-level outline entries, each with its children (pypdf lists them after it)."""
    pairs: list[tuple[object, list]] = []
    for item in outline:
        if isinstance(item, list):
            pairs[-1] = (pairs[-1][0], item)
        else:
            pairs.append((item, []))
    return pairs


def test_outline_has_every_chapter_and_its_sections(tiny_report):
    reader = PdfReader(tiny_report.written.pdf)
    pairs = entries(reader.outline)
    top = [item for item, _ in pairs]
    titles = [item.title for item in top]
    assert titles == [tiny_report.report.title, "Contents", *(game_title(g) for g in tiny_report.written.games)]
    assert len(tiny_report.written.games) == len(section_games())
    assert pairs[0][1]  # the first page's headed lists (key results, about this report)
    for chapter, sections in pairs[2:]:
        names = [s.title for s in sections]
        assert "Rules version and readings chosen" in names and "Reproducibility" in names, chapter.title
        assert any(n.startswith("Figure: ") for n in names)
        first = reader.get_destination_page_number(chapter)
        assert all(reader.get_destination_page_number(s) >= first for s in sections)
    starts = [reader.get_destination_page_number(c) for c in top[2:]]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_contents_entries_link_to_their_chapters(tiny_report):
    reader = PdfReader(tiny_report.written.pdf)
    starts = {
        item.title: reader.get_destination_page_number(item) for item in reader.outline if not isinstance(item, list)
    }
    contents = reader.pages[starts["Contents"]]
    targets = []
    for annotation in contents.get("/Annots", []):
        link = annotation.get_object()
        assert link["/Subtype"] == "/Link"
        page_ref = link["/Dest"][0]
        targets.append(next(i for i, p in enumerate(reader.pages) if p.indirect_reference == page_ref))
    assert targets == [starts[game_title(g)] for g in tiny_report.written.games]


def test_no_page_half_empty_unless_its_chapter_ends(tiny_report):
    pages = tiny_report.pages
    assert len(pages) == tiny_report.written.pdf_pages
    area = CONTENT_BOTTOM - MARGIN_TOP
    chapter_pages = pages[2:]  # after the title and contents pages
    for page, following in zip(chapter_pages, chapter_pages[1:]):
        if following.header == page.header:  # the chapter goes on
            assert page.used() >= 0.5 * area, (page.header, page.used())


def test_a_cut_row_leaves_a_rest_of_the_height_asked_for_where_it_can():
    """split_row cuts as late as the room allows, or earlier so that the rest is at least
    min_rest tall (the rest of a table's last row stands alone on its page); a row whose
    rest cannot be that tall is cut as late as before."""
    from cardsim.reports.pdf import Item, Line, split_row

    pad, step = 0.05, 0.15
    lines = tuple(Line(f"line {k}", 0.0, 8.0, "normal", dy=pad + k * step) for k in range(20))
    row = Item(height=2 * pad + 20 * step, lines=lines, table_row=True, table_rows=4)
    late = split_row(row, room=2.52)
    assert late is not None and len(late[0].lines) == 16 and len(late[1].lines) == 4
    early = split_row(row, room=2.52, min_rest=1.5)
    assert early is not None and early[1].height >= 1.5 and len(early[0].lines) + len(early[1].lines) == 20
    assert len(early[0].lines) == 10
    assert split_row(row, room=2.52, min_rest=10.0) == late
