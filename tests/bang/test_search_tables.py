"""The report's paragraph on the search rung at tables of other bots and files, read from its record."""

import json

from cardsim.reports.sections.bang import SEARCH_TABLES_RECORD, search_tables_paragraph


def _row(role, against, diff, lo, hi, n=1000, bot="search", **extra):
    return {"players": 5, "role": role, "bot": bot, "against": against, "n": n, "diff": diff,
            "diff_lo": lo, "diff_hi": hi, "seed": 7, **extra}  # fmt: skip


def test_paragraph_counts_cells_names_misses_and_worse_seats(tmp_path):
    rows = [
        _row("sheriff", "tuned", 0.05, 0.01, 0.09),
        _row("sheriff", "tuned", 0.01, -0.01, 0.03, n=3000),  # a second look: the first row decides
        _row("renegade", "examples/strategies/x.py:X", 0.015, 0.001, 0.03),  # above 0 but under 2 points
        _row("renegade", "role", 0.03, -0.002, 0.06),  # 3 points, lower bound below 0
        _row("deputy", "role", -0.05, -0.09, -0.01),  # significantly worse
        _row("outlaw", "search", 0.0, 0.0, 0.0),  # search against itself: no comparison
    ]
    path = tmp_path / "tables.json"
    path.write_text(json.dumps({"rows": rows}))
    text = search_tables_paragraph(path)
    assert "in 1 of 3 cells" in text
    assert "the Renegade at 5 players at the x.py:X table, +1.5 points (+0.1 to +3.0, n=1,000)" in text
    assert "the Renegade at 5 players at the role table, +3.0 points" in text
    assert "Sheriff at 5 players at the tuned" not in text
    assert "worse than the seat's own bot in the Deputy seat at 5 players at the role table, -5.0" in text
    rows[4] = _row("deputy", "role", -0.05, -0.09, 0.01)
    path.write_text(json.dumps({"rows": rows}))
    assert "significantly worse than the seat's own bot in no seat" in search_tables_paragraph(path)
    assert search_tables_paragraph(tmp_path / "missing.json") == ""
    assert "no member plays" not in search_tables_paragraph(path)


def test_a_second_look_is_named_beside_its_cell_and_does_not_count(tmp_path):
    rows = [
        _row("outlaw", "tuned", -0.06, -0.11, -0.003, n=200),
        _row("outlaw", "tuned", 0.005, -0.009, 0.019, n=4000) | {"seed": 72},
    ]
    path = tmp_path / "tables.json"
    path.write_text(json.dumps({"rows": rows}))
    text = search_tables_paragraph(path)
    assert "worse than the seat's own bot in the Outlaw seat at 5 players at the tuned table, -6.0 points" in text
    assert "(a second look, seed 72: +0.5 points (-0.9 to +1.9, n=4,000))" in text


def test_unseen_tables_are_counted_apart(tmp_path):
    """Rows marked ``unseen`` (a style no population member plays) get their own count."""
    rows = [
        _row("sheriff", "tuned", 0.05, 0.01, 0.09),
        _row("sheriff", "u.py:Hunter", 0.01, -0.02, 0.04, unseen=True),
        _row("renegade", "u.py:Hunter", 0.04, 0.02, 0.06, unseen=True),
    ]
    path = tmp_path / "tables.json"
    path.write_text(json.dumps({"rows": rows}))
    known, _, unseen = search_tables_paragraph(path).partition("no member plays")
    assert "in 1 of 1 cells" in known and "Hunter" not in known
    assert (
        "seed 7," in known
        and "in 1 of 2 cells" in unseen
        and "the Sheriff at 5 players at the u.py:Hunter table, +1.0 points" in unseen
    )


def test_shipped_record_is_read():
    """The shipped record exists and is the one the report reads."""
    assert SEARCH_TABLES_RECORD.exists() and "cells" in search_tables_paragraph()
