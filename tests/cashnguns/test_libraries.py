"""The shipped discover libraries: the file, its export from stored runs (keeping the entries
of readings not run again, with their own provenance), and the report's outside check."""

from __future__ import annotations

import json

import pytest

from cardsim.analysis.cashnguns import (
    DISCOVER_METHOD,
    DISCOVER_METHOD_1,
    DISCOVER_METHOD_2,
    DISCOVER_METHOD_3,
    DISCOVER_METHOD_4,
    READINGS,
    DiscoverSettings,
    OutsideCheck,
    _settings_key,
    discover_path,
    export_libraries,
    load_libraries,
)
from cardsim.errors import UserError
from cardsim.reports.sections.cashnguns import outside_checks, reading_entries, readings_blocks
from cardsim.sims.cashnguns.strategies import parse_strategy

COWARD = "custom:bullet=random,target=random,lie=guns,guns=2"
SNIPER = "custom:bullet=late,target=leader,lie=never"
TINY = OutsideCheck(budget=6, search_games=10, validation_games=200, seed=3, local=4)


def test_shipped_file_loads_with_provenance_and_parseable_specs():
    shipped = load_libraries()
    assert set(shipped) == {(p, m, v) for p in (4, 5, 6) for m, v in READINGS}
    for (players, metric, shame_value), entry in shipped.items():
        assert len(entry["code_fingerprint"]) == 16 and entry["version"]
        assert entry["method"] in (DISCOVER_METHOD, DISCOVER_METHOD_4, DISCOVER_METHOD_3, DISCOVER_METHOD_2, DISCOVER_METHOD_1)
        assert entry["command"].startswith(f"cardsim cashnguns discover --players {players} --metric {metric} "
                                           f"--shame {shame_value} --seed {entry['seed']} --budget {entry['budget']}")
        assert entry["date"].startswith("20") and entry["rounds"] >= 1
        assert entry["settings"]["players"] == players and entry["settings"]["budget"] == entry["budget"]
        if entry["method"] == DISCOVER_METHOD:  # written by the current discover: its settings
            assert entry["settings"] == _settings_key(DiscoverSettings(
                players=players, metric=metric, shame_value=shame_value, seed=entry["seed"], budget=entry["budget"]))
        names = {item["name"] for item in entry["library"]}
        assert set(entry["equilibrium"]) <= names
        assert sum(entry["equilibrium"].values()) == pytest.approx(1.0)
        for item in entry["library"]:
            assert parse_strategy(item["spec"]).spec() == item["spec"]


def _stored_run(store, players, metric, shame):
    settings = DiscoverSettings(players=players, metric=metric, shame_value=shame)
    document = {"settings": _settings_key(settings), "converged": True, "library": [COWARD, SNIPER],
                "names": {COWARD: "coward", SNIPER: "d1"},
                "rounds": [{"round": 1, "library": ["coward", "d1"], "equilibrium": {"d1": 1.0},
                            "equilibrium_specs": {SNIPER: 1.0}, "gain": 0.001, "exploitability": 0.001,
                            "exploitability_hi": 0.004, "validation_games": 1000, "stop_checks": []}]}
    path = discover_path(store, settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))


def test_export_writes_stored_runs_and_keeps_the_other_entries(tmp_path):
    out = tmp_path / "libraries.json"
    _stored_run(tmp_path, 4, "win", -5000)
    with pytest.raises(UserError, match="no stored discover run for: cardsim cashnguns discover --players 4 --metric win --shame 5000"):
        export_libraries(tmp_path, [4], out)
    assert not out.exists()
    out.write_text(load_libraries.__defaults__[0].read_text())  # the shipped file: every reading
    before = load_libraries(out)
    shipped, kept = export_libraries(tmp_path, [4], out)
    assert kept == [(4, m, v) for m, v in sorted(READINGS) if (m, v) != ("win", -5000)]
    after = load_libraries(out)
    entry = after[(4, "win", -5000)]
    assert entry["library"] == [{"name": "coward", "spec": COWARD}, {"name": "d1", "spec": SNIPER}]
    assert entry["command"] == "cardsim cashnguns discover --players 4 --metric win --shame -5000 --seed 0 --budget 200"
    assert entry["method"] == DISCOVER_METHOD and entry["reported_round"] == 1
    for key in set(before) - {(4, "win", -5000)}:  # kept as they were, provenance included
        assert after[key] == before[key]
    out.write_text("{}")
    with pytest.raises(UserError, match="not a cardsim-cashnguns-libraries/2 document"):
        load_libraries(out)


def test_stored_run_of_other_settings_is_not_taken_for_the_current_method(tmp_path):
    _stored_run(tmp_path, 4, "win", -5000)
    path = discover_path(tmp_path, DiscoverSettings(players=4))
    path.write_text(json.dumps({**json.loads(path.read_text()), "settings": {"budget": 200}}))
    entries, _ = reading_entries((4,), tmp_path, shipped_path=tmp_path / "none.json")
    assert entries == {}


def test_report_tries_every_reading_from_outside(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDSIM_STORE", str(tmp_path / "store"))
    _stored_run(tmp_path / "store", 4, "win", -5000)
    shipped = tmp_path / "libraries.json"
    full = json.loads(load_libraries.__defaults__[0].read_text())
    full["readings"] = [e for e in full["readings"] if (e["players"], e["metric"]) == (4, "win")]
    shipped.write_text(json.dumps(full))
    entries, note = reading_entries((4,), tmp_path / "store", shipped_path=shipped)
    assert note == "" and set(entries) == {(4, "win", -5000), (4, "win", 5000)}
    assert entries[(4, "win", -5000)]["source"] == "stored discover run"
    assert entries[(4, "win", 5000)]["source"] == "shipped library"
    checks = outside_checks(entries, TINY, store=tmp_path / "checks")
    assert set(checks) == set(entries)
    for key, check in checks.items():
        assert check["equilibrium"] == pytest.approx(entries[key]["equilibrium"])  # the mix as reported
        assert check["candidates"] == 6 + 4 and check["validation_games"] == 200 and check["check"]["seed"] == 3
    assert outside_checks(entries, TINY, store=tmp_path / "checks") == checks  # reused from the store
    text = " ".join(str(block) for block in readings_blocks((4,), entries, checks))
    assert "tried from outside" in text and "stored discover run" in text and "shipped library" in text
    assert "a search of 6 candidates plus 4 local-search ones" in text and "root seed 3" in text
    assert ("reruns with cardsim cashnguns check --players 4 --metric win --shame -5000 --budget 6 --games 200 "
            "--seed 3 --local 4") in text
    assert "cardsim cashnguns discover --players 4 --metric win --shame -5000 --seed 0 --budget 200" in text
    assert "Not yet run" in text and "--metric score --shame 5000" in text
    _, note = reading_entries((4,), tmp_path / "store", shipped_path=tmp_path / "missing.json")
    assert "missing or unreadable" in note


def test_table_parts_cut_the_games():
    from cardsim.analysis.cashnguns import table_parts

    assert table_parts(100_001, 2) == [50_000, 50_001]
    assert sum(table_parts(300_000, 6)) == 300_000 and len(set(table_parts(300_000, 6))) == 1
    with pytest.raises(UserError, match="--table-passes must be at least 1"):
        DiscoverSettings(table_passes=0).check()


def test_an_unfinished_stored_run_is_not_exported(tmp_path):
    """A run still going (not converged, fewer than the default 20 rounds) is not taken for a
    reading's entry; the same run at 20 rounds is."""
    from cardsim.analysis.cashnguns import load_discover_documents

    _stored_run(tmp_path, 5, "score", -5000)
    path = discover_path(tmp_path, DiscoverSettings(players=5, metric="score", shame_value=-5000))
    document = json.loads(path.read_text())
    path.write_text(json.dumps({**document, "converged": False}))
    assert load_discover_documents(tmp_path, (5,)) == {}
    path.write_text(json.dumps({**document, "converged": False, "rounds": document["rounds"] * 20}))
    assert set(load_discover_documents(tmp_path, (5,))) == {(5, "score", -5000)}
