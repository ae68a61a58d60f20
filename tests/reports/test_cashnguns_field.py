"""The Cash'n Guns field's words are read from the results: who wins most across the field
(and whether the runner-up is separated), and how the search player plays."""

from __future__ import annotations

import re

import polars as pl

from cardsim.reports.sections.cashnguns_field import (
    SEARCH,
    _rank_text,
    key_sentence,
    playstyle_sentence,
    tournament_sentence,
)


def tables(rates: dict[str, tuple[float, float, float]], ranks: dict[str, int] | None) -> dict:
    standings = pl.DataFrame(
        [{"entrant": k, "games": 50, "p_win": p, "win_lo": lo, "win_hi": hi} for k, (p, lo, hi) in rates.items()]
    ).sort("p_win", descending=True)
    alpharank = (
        pl.DataFrame({"entrant": list(ranks), "pi": [0.1] * len(ranks), "rank": list(ranks.values())})
        if ranks
        else None
    )
    return {"standings": standings, "alpharank": alpharank, "summary": {"games": 532}}


def test_the_top_entrant_and_whether_it_is_separated():
    close = tables({"a": (0.41, 0.35, 0.47), "b": (0.36, 0.30, 0.42)}, {"a": 2, "b": 1})
    apart = tables({"a": (0.61, 0.55, 0.67), "b": (0.36, 0.30, 0.42)}, None)
    text = tournament_sentence({4: close, 5: apart})
    assert "at 4 players (2 entrants, 532 games) a wins most often, 41.0% of its seats" in text
    assert "not separated from b (36.0%" in text and "α-Rank ranks b first" in text
    assert text.count("not separated") == 1  # at 5 players the runner-up's interval stays below


def test_the_search_players_place():
    found = tables({SEARCH: (0.5, 0.4, 0.6), "b": (0.3, 0.2, 0.4)}, {SEARCH: 1, "b": 2})
    assert _rank_text(found) == "has the highest win rate of 2 entrants and α-Rank ranks it 1st"
    found = tables({"b": (0.5, 0.4, 0.6), SEARCH: (0.3, 0.2, 0.4)}, None)
    assert _rank_text(found) == "has the 2nd highest win rate of 2 entrants"


def test_the_playstyle_sentence_says_the_figures():
    keys = [f"loaded-round-{r}" for r in range(1, 9)] + [
        "loaded-early",
        "loaded-late",
        "loaded-pot-small",
        "loaded-pot-big",
        "lie-1-gun",
        "lie-2-guns",
        "aim-richest",
        "random-richest",
        "aim-wounded",
        "random-wounded",
        "win",
    ]
    figures = [
        {"key": key, "table": "mix", "p": 0.01 * (i + 1), "lo": 0.0, "hi": 0.5, "n": 300, "decisions": 300}
        for i, key in enumerate(keys)
    ] + [{"key": "win", "table": "self", "p": 0.2, "lo": 0.18, "hi": 0.22, "n": 40, "decisions": 200}]
    text = playstyle_sentence({5: figures}, {5: "has the highest win rate of 24 entrants"})
    assert "at most 5.0% of its cards in each of rounds 1-5 (highest in round 5" in text
    assert "6.0%, 7.0% and 8.0% of its cards in rounds 6, 7 and 8" in text
    assert "it lies down 13.0% [0.0–50.0%] of the times one gun aims at it" in text
    assert "it wins 19.0% (95% interval 0.0–50.0%, n = 300 games) at that table" in text
    assert "20.0% (95% interval 18.0–22.0%, n = 40 games) per seat at a table of 5 copies" in text
    assert text.endswith("their 95% intervals are over games.")
    assert playstyle_sentence({}, {}) == ""
    key = key_sentence({5: figures})
    assert key.startswith("Against the shipped mixes only (win probability")
    assert "wins 19.0% (95% interval 0.0–50.0%, n=300 games) of its games at 5 players" in key
    assert "per seat at a table of copies of itself 20.0% (95% interval 18.0–22.0%, n=40 games) at 5" in key
    assert "is 9.0% of its cards in rounds 1-5 and 10.0% in rounds 6-8" in key
    assert "aims at the richest 15.0% of the time, where a random aim would give 16.0%" in key
    assert "[" not in key and len(re.findall(r"\.(?:\s|$)", key)) == 2
    assert key_sentence({}) == ""
