"""The readings side by side: tables and plain-words conclusions from stored discover runs."""

from __future__ import annotations

import json

from cardsim.analysis.cashnguns import (
    DiscoverSettings,
    discover_path,
    load_discover_documents,
    readings_conclusions,
    readings_table,
    searched_sentence,
)
from cardsim.reports.sections.cashnguns import readings_blocks

COWARD = "custom:bullet=random,target=random,lie=guns,guns=2"
SNIPER = "custom:bullet=late,target=leader,lie=never"
COUNTER = "custom:bullet=safe,target=clicks,lie=risk,safe=0,guns=1,risk=0.5,greed=0,care=0,endgame=0,count=1"


def document(shares: dict[str, float], gain: float = 0.004, converged: bool = True) -> dict:
    names = {COWARD: "coward", SNIPER: "sniper", COUNTER: "d1"}
    return {"converged": converged, "names": names, "settings": {"budget": 200}, "rounds": [{
        "equilibrium": {names[s]: v for s, v in shares.items()}, "equilibrium_specs": shares,
        "value": 0.25, "gain": gain, "exploitability_hi": gain + 0.004, "validation_games": 100_000}]}


def write(store, players, metric, shame, doc):
    path = discover_path(store, DiscoverSettings(players=players, metric=metric, shame_value=shame))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))


def test_conclusions_say_what_holds_and_what_flips(tmp_path):
    write(tmp_path, 4, "win", -5000, document({COUNTER: 0.7, SNIPER: 0.3}))
    write(tmp_path, 4, "win", 5000, document({COUNTER: 0.6, COWARD: 0.4}))
    write(tmp_path, 5, "score", -5000, document({SNIPER: 0.8, COUNTER: 0.2}, gain=900.0, converged=False))
    documents = load_discover_documents(tmp_path, [4, 5, 6])
    assert set(documents) == {(4, "win", -5000), (4, "win", 5000), (5, "score", -5000)}
    table = readings_table(documents)
    assert table["exploitability"].to_list() == [0.4, 0.4, 900.0]  # points for win, dollars for score
    text = " ".join(readings_conclusions(documents))
    assert "Card order holds in all 3 runs: most of the equilibrium mix (at least 60%) holds its loaded cards back." in text
    assert "Bullet policy flips: bullet=safe in 4p win, shame -5,000, 4p win, shame +5,000; bullet=late in 5p score, shame -5,000." in text
    assert "Card counting flips" in text


def test_report_block_lists_missing_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDSIM_STORE", str(tmp_path))
    write(tmp_path, 4, "win", -5000, document({COUNTER: 1.0}))
    blocks = readings_blocks((4,))
    text = str(blocks[-1])
    assert "cardsim cashnguns discover --players 4 --metric score --shame 5000" in text
    assert "--metric win --shame -5000" not in text


def test_key_sentence_gives_the_worst_bound_of_the_main_reading(tmp_path):
    write(tmp_path, 4, "win", -5000, document({COUNTER: 0.7, SNIPER: 0.3}, gain=0.002))
    write(tmp_path, 5, "win", -5000, document({COUNTER: 1.0}, gain=0.005))
    write(tmp_path, 5, "score", 5000, document({COUNTER: 1.0}, gain=50.0))
    text = searched_sentence(load_discover_documents(tmp_path, [4, 5, 6]))
    assert text.startswith("With 4, 5 players (win probability, shame -$5,000)")
    assert "finds gains at most 0.90 points over the searched equilibrium mix (95% upper bound)" in text
    assert "Card order holds in all 3 runs" in text
    assert searched_sentence({}) == ""
