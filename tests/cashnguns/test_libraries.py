"""The shipped discover libraries: the file, its export from stored runs, and the report's replay."""

from __future__ import annotations

import json

import pytest

from cardsim.analysis.cashnguns import (
    READINGS,
    CheckSettings,
    DiscoverSettings,
    discover_path,
    export_libraries,
    load_libraries,
)
from cardsim.errors import UserError
from cardsim.reports.sections.cashnguns import readings_blocks, replay_shipped
from cardsim.sims.cashnguns.strategies import parse_strategy

COWARD = "custom:bullet=random,target=random,lie=guns,guns=2"
SNIPER = "custom:bullet=late,target=leader,lie=never"
TINY = CheckSettings(budget=6, table_games=100, profile_min=2, search_games=10, validation_games=100)


def test_shipped_file_loads_with_provenance_and_parseable_specs():
    shipped = load_libraries()
    assert set(shipped) == {(p, m, v) for p in (4, 5, 6) for m, v in READINGS}
    for (players, metric, shame_value), entry in shipped.items():
        assert len(entry["code_fingerprint"]) == 16 and entry["version"]
        assert entry["command"].startswith(f"cardsim cashnguns discover --players {players} --metric {metric} "
                                           f"--shame {shame_value} --seed {entry['seed']} --budget {entry['budget']}")
        assert entry["date"].startswith("20") and entry["rounds"] >= 1
        assert entry["settings"]["players"] == players and entry["settings"]["budget"] == entry["budget"]
        names = {item["name"] for item in entry["library"]}
        assert set(entry["equilibrium"]) <= names
        assert sum(entry["equilibrium"].values()) == pytest.approx(1.0)
        for item in entry["library"]:
            assert parse_strategy(item["spec"]).spec() == item["spec"]


def _stored_run(store, players, metric, shame):
    document = {"settings": {"budget": 200}, "converged": True, "library": [COWARD, SNIPER],
                "names": {COWARD: "coward", SNIPER: "d1"},
                "rounds": [{"equilibrium": {"d1": 1.0}, "equilibrium_specs": {SNIPER: 1.0}, "gain": 0.001,
                            "exploitability_hi": 0.004, "validation_games": 1000}]}
    path = discover_path(store, DiscoverSettings(players=players, metric=metric, shame_value=shame))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))


def test_export_from_stored_runs_round_trips(tmp_path):
    out = tmp_path / "libraries.json"
    _stored_run(tmp_path, 4, "win", -5000)
    with pytest.raises(UserError, match="no stored discover run for: cardsim cashnguns discover --players 4 --metric win --shame 5000"):
        export_libraries(tmp_path, [4], out)
    assert not out.exists()
    for metric, shame in READINGS[1:]:
        _stored_run(tmp_path, 4, metric, shame)
    export_libraries(tmp_path, [4], out)
    entry = load_libraries(out)[(4, "win", -5000)]
    assert entry["library"] == [{"name": "coward", "spec": COWARD}, {"name": "d1", "spec": SNIPER}]
    assert entry["command"] == "cardsim cashnguns discover --players 4 --metric win --shame -5000 --seed 0 --budget 200"
    out.write_text("{}")
    with pytest.raises(UserError, match="not a cardsim-cashnguns-libraries/1 document"):
        load_libraries(out)


def test_report_replays_the_shipped_libraries_when_no_run_is_stored(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDSIM_STORE", str(tmp_path / "empty"))
    shipped = tmp_path / "libraries.json"
    full = json.loads(load_libraries.__defaults__[0].read_text())
    full["readings"] = [e for e in full["readings"] if (e["players"], e["metric"]) == (4, "win")]
    shipped.write_text(json.dumps(full))
    replayed, note = replay_shipped((4,), {}, TINY, store=tmp_path / "store", shipped_path=shipped)
    assert note == "" and set(replayed) == {(4, "win", -5000), (4, "win", 5000)}
    document = replayed[(4, "win", -5000)]
    assert len(document["rounds"]) == 1 and document["check"]["budget"] == 6
    assert set(document["rounds"][0]["equilibrium"]) <= {item["name"] for item in document["shipped"]["library"]}
    again, _ = replay_shipped((4,), {}, TINY, store=tmp_path / "store", shipped_path=shipped)
    assert again[(4, "win", -5000)]["rounds"] == document["rounds"]  # reused from the store
    text = " ".join(str(block) for block in readings_blocks((4,), {}, replayed))
    assert "shipped library, recomputed now" in text and "Shipped libraries replayed now" in text
    assert "best-response search of 6 candidates" in text
    assert "cardsim cashnguns discover --players 4 --metric win --shame -5000 --seed 0 --budget 200" in text
    assert "Not yet run" in text and "--metric score --shame 5000" in text
    _, note = replay_shipped((4,), {}, TINY, shipped_path=tmp_path / "missing.json")
    assert "missing or unreadable" in note


def test_table_passes_keep_stored_runs_resumable():
    from cardsim.analysis.cashnguns import _settings_key, table_parts

    assert table_parts(100_001, 2) == [50_000, 50_001]  # the two halves discover always played
    assert sum(table_parts(300_000, 6)) == 300_000 and len(set(table_parts(300_000, 6))) == 1
    assert "table_passes" not in _settings_key(DiscoverSettings())  # runs stored before the option
    assert _settings_key(DiscoverSettings(table_passes=6))["table_passes"] == 6
    with pytest.raises(UserError, match="--table-passes must be at least 1"):
        DiscoverSettings(table_passes=0).check()
