"""The shipped discover libraries: the file, its export from stored runs (keeping the entries
of readings not run again, with their own provenance), and the report's outside check."""

from __future__ import annotations

import json

import pytest

from cardsim.analysis.cashnguns import (
    DISCOVER_METHOD,
    DISCOVER_METHOD_1,
    READINGS,
    DiscoverSettings,
    OutsideCheck,
    discover_flags,
    discover_path,
    export_libraries,
    library_entry,
    load_libraries,
    settings_from_key,
    settings_key,
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
        assert entry["method"] in (DISCOVER_METHOD, DISCOVER_METHOD_1)
        assert entry["command"].startswith(
            f"cardsim cashnguns discover --players {players} --metric {metric} "
            f"--shame {shame_value} --seed {entry['seed']} --budget {entry['budget']}"
        )
        assert entry["date"].startswith("20") and entry["rounds"] >= 1
        assert entry["settings"]["players"] == players and entry["settings"]["budget"] == entry["budget"]
        if entry["method"] == DISCOVER_METHOD:  # written by the current discover: its command gives its settings
            settings = settings_from_key(entry["settings"])
            assert (settings.players, settings.metric, settings.shame_value) == (players, metric, shame_value)
            other_limit = entry["rounds"] > settings.rounds or (
                not entry["converged"] and entry["rounds"] < settings.rounds
            )
            assert entry["command"] == (
                f"cardsim cashnguns discover --players {players} --metric {metric} "
                f"--shame {shame_value} {discover_flags(settings)}"
            ) + (f" --rounds {entry['rounds']}" if other_limit else "")
        names = {item["name"] for item in entry["library"]}
        assert set(entry["equilibrium"]) <= names
        assert sum(entry["equilibrium"].values()) == pytest.approx(1.0)
        for item in entry["library"]:
            assert parse_strategy(item["spec"]).spec() == item["spec"]


def _stored_run(store, players, metric, shame, settings=None, names=("coward", "d1")):
    """A finished one-round discover record of COWARD and SNIPER (named ``names``) at the path
    of ``settings`` (default: the reading's default settings); returns (path, document)."""
    settings = settings or DiscoverSettings(players=players, metric=metric, shame_value=shame)
    document = {
        "settings": settings_key(settings),
        "converged": True,
        "library": [COWARD, SNIPER],
        "names": dict(zip((COWARD, SNIPER), names)),
        "rounds": [
            {
                "round": 1,
                "library": list(names),
                "equilibrium": {names[1]: 1.0},
                "equilibrium_specs": {SNIPER: 1.0},
                "gain": 0.001,
                "exploitability": 0.001,
                "exploitability_hi": 0.004,
                "validation_games": 1000,
                "stop_checks": [],
            }
        ],
    }
    path = discover_path(store, settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path, document


def test_export_writes_stored_runs_and_keeps_the_other_entries(tmp_path):
    out = tmp_path / "libraries.json"
    _stored_run(tmp_path, 4, "win", -5000)
    with pytest.raises(
        UserError, match="no stored discover run for: cardsim cashnguns discover --players 4 --metric win --shame 5000"
    ):
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


def test_exporting_the_shipped_run_again_keeps_its_recorded_checks(tmp_path):
    out = tmp_path / "libraries.json"
    out.write_text(load_libraries.__defaults__[0].read_text())
    _stored_run(tmp_path, 4, "win", -5000)
    for count, metric, shame in [(4, m, v) for m, v in READINGS if (m, v) != ("win", -5000)]:
        _stored_run(tmp_path, count, metric, shame)
    export_libraries(tmp_path, [4], out)
    document = json.loads(out.read_text())
    entry = next(e for e in document["readings"] if (e["players"], e["metric"], e["shame_value"]) == (4, "win", -5000))
    entry["beyond_space"] = [{"reply": "an outside reply", "gain": 0.1, "interval": [0.09, 0.11], "games": 1000}]
    out.write_text(json.dumps(document))
    _, kept = export_libraries(tmp_path, [4], out)
    assert kept == [(4, m, v) for m, v in sorted(READINGS)]
    assert load_libraries(out)[(4, "win", -5000)]["beyond_space"][0]["reply"] == "an outside reply"
    _stored_run(tmp_path, 4, "win", -5000, names=("coward", "d2"))  # a new run: a new entry
    _, kept = export_libraries(tmp_path, [4], out)
    assert (4, "win", -5000) not in kept and "beyond_space" not in load_libraries(out)[(4, "win", -5000)]


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
        assert [search["search"] for search in check["searches"]] == ["search", "schedule sweep"]
        assert check["searches"][0]["candidates"] == 6 + 4 and check["check"]["seed"] == 3
        assert check["candidates"] == 6 + 4 + check["searches"][1]["candidates"] and check["validation_games"] == 200
    assert outside_checks(entries, TINY, store=tmp_path / "checks") == checks  # reused from the store
    text = " ".join(str(block) for block in readings_blocks((4,), entries, checks))
    assert "tried from outside" in text and "stored discover run" in text and "shipped library" in text
    assert "a search of 6 candidates plus 4 local-search ones" in text and "root seed 3" in text
    assert (
        "reruns with cardsim cashnguns check --players 4 --metric win --shame -5000 --budget 6 --n 200 "
        "--seed 3 --local 4"
    ) in text
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


def test_a_record_named_by_hand_is_shipped_with_the_command_that_reruns_it(tmp_path):
    """`libraries --record FILE`: a finished run with other settings (here --start and
    --stop-checks) replaces its reading's entry, and the entry's command gives those settings
    back; an unfinished or unreadable record, two of one reading, or one of a count not among
    --players is a one-line error and writes nothing."""
    from typer.testing import CliRunner

    from cardsim.commands.cashnguns import app

    settings = DiscoverSettings(players=4, start=(COWARD, SNIPER), stop_checks=4)
    record, document = _stored_run(tmp_path, 4, "win", -5000, settings=settings, names=("d7", "d9"))
    assert record != discover_path(tmp_path, DiscoverSettings(players=4))
    out = tmp_path / "libraries.json"
    out.write_text(load_libraries.__defaults__[0].read_text())
    before = out.read_text()
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps({**document, "converged": False}))
    for args, message in (
        ([str(unfinished)], "is unfinished"),
        ([str(tmp_path / "none.json")], "not a readable"),
        ([str(record), str(record)], "two records for 4 players"),
    ):
        result = CliRunner().invoke(
            app,
            [
                "libraries",
                "--players",
                "4",
                "--store",
                str(tmp_path),
                "--out",
                str(out),
                *[f"--record={path}" for path in args],
            ],
        )
        assert isinstance(result.exception, UserError) and message in str(result.exception)
        assert out.read_text() == before
    with pytest.raises(UserError, match="a --record is for 4 players"):
        export_libraries(tmp_path, [5], out, records=[record])
    shipped, kept = export_libraries(tmp_path, [4], out, records=[record])
    entry = load_libraries(out)[(4, "win", -5000)]
    assert (4, "win", -5000) not in kept
    assert entry["library"] == [{"name": "d7", "spec": COWARD}, {"name": "d9", "spec": SNIPER}]
    assert entry["command"] == (
        "cardsim cashnguns discover --players 4 --metric win --shame -5000 --seed 0 --budget 200 "
        f"--start '{COWARD},{SNIPER}' --stop-checks 4"
    )
    assert settings_from_key(entry["settings"]) == settings
    import shlex

    from cardsim.api import cashnguns

    words = shlex.split(entry["command"])
    assert cashnguns.start_library([words[words.index("--start") + 1]], 4, "win", -5000) == settings.start


def test_check_record_keeps_the_check_with_its_entry_and_the_report_reads_it(tmp_path):
    """`check --record`: the check's command, gain, 95% interval, reply and games go into the
    entry's outside_checks (the same command again replaces its record, another seed adds one);
    the other entries are untouched; a file whose mix changed meanwhile is an error."""
    from typer.testing import CliRunner

    from cardsim.analysis.cashnguns import outside_figures, record_outside_check
    from cardsim.commands.cashnguns import app

    out = tmp_path / "libraries.json"
    out.write_text(load_libraries.__defaults__[0].read_text())
    before = load_libraries(out)
    args = [
        "check",
        "--players",
        "4",
        "--budget",
        "6",
        "--n",
        "200",
        "--local",
        "4",
        "--jobs",
        "1",
        "--libraries",
        str(out),
        "--record",
        "--json",
        "--no-sweep",
        "--oracle-games",
        "0",
    ]
    first = CliRunner().invoke(app, [*args, "--seed", "3"])
    assert first.exit_code == 0, first.output
    row = json.loads(first.stdout)["tables"]["check"][0]
    CliRunner().invoke(app, [*args, "--seed", "3"])
    CliRunner().invoke(app, [*args, "--seed", "4"])
    after = load_libraries(out)
    shipped = before[(4, "win", -5000)].get("outside_checks", [])
    assert after[(4, "win", -5000)]["outside_checks"][: len(shipped)] == shipped
    records = after[(4, "win", -5000)]["outside_checks"][len(shipped) :]
    assert [r["command"] for r in records] == [
        f"cardsim cashnguns check --players 4 --metric win --shame -5000 --budget 6 --n 200 --seed {s} --local 4"
        " --oracle-games 0 --no-sweep"
        for s in (3, 4)
    ]
    assert records[0]["gain"] * 100 == pytest.approx(row["gain"])
    assert [100 * x for x in records[0]["interval"]] == pytest.approx([row["lo"], row["hi"]])
    assert records[0]["reply"] == row["best_response"] and records[0]["games"] == 200
    for key in set(before) - {(4, "win", -5000)}:
        assert after[key] == before[key]
    refuted = [after[(4, "win", -5000)]["refuted"]] if after[(4, "win", -5000)].get("refuted") else []
    highest = max(shipped + records + refuted, key=lambda r: r["interval"][1])
    assert outside_figures(after[(4, "win", -5000)], {})["exploitability_hi"] == highest["interval"][1]
    changed = json.loads(out.read_text())
    entry = next(e for e in changed["readings"] if (e["players"], e["metric"], e["shame_value"]) == (4, "win", -5000))
    result = {"players": 4, "metric": "win", "shame_value": -5000, "equilibrium": {"d1": 1.0}}
    with pytest.raises(UserError, match="changed during the check"):
        record_outside_check(out, result, "x")
    assert entry["outside_checks"] == shipped + records


def test_record_and_out_paths_are_checked_before_anything_runs(tmp_path):
    """`check --record` rewrites its libraries file after the checks and `libraries --out`
    writes one: a path that cannot take it is a one-line error before any check runs."""
    from typer.testing import CliRunner

    from cardsim.commands.cashnguns import app

    text = tmp_path / "libraries.txt"
    text.write_text(load_libraries.__defaults__[0].read_text())
    result = CliRunner().invoke(app, ["check", "--players", "4", "--jobs", "1", "--libraries", str(text), "--record"])
    assert isinstance(result.exception, UserError) and "check --record" in str(result.exception)
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    result = CliRunner().invoke(
        app, ["libraries", "--players", "4", "--store", str(tmp_path), "--out", str(blocker / "libraries.json")]
    )
    assert isinstance(result.exception, UserError) and "is not a folder" in str(result.exception)


def test_a_check_above_the_tolerance_refutes_and_a_sweep_replaces_what_it_reproduces(tmp_path):
    """A recorded check whose whole 95% interval lies above the tolerance becomes the entry's
    ``refuted`` record (the entry is no longer converged); a check with the schedule sweep
    drops the ``beyond_space`` replies whose gain is within its upper bound and keeps the
    others; a check within the tolerance goes to ``outside_checks``."""
    from cardsim.analysis.cashnguns import converged_entry, record_outside_check

    out = tmp_path / "libraries.json"
    shipped = json.loads(load_libraries.__defaults__[0].read_text())
    for item in shipped["readings"]:
        if (item["players"], item["metric"], item["shame_value"]) == (4, "win", -5000):
            item.pop("refuted", None)
            item["beyond_space"] = [
                {"reply": "a", "gain": 0.245, "games": "1", "source": "s"},
                {"reply": "b", "gain": 0.254, "games": "1", "source": "s"},
            ]
    out.write_text(json.dumps(shipped))
    entry = load_libraries(out)[(4, "win", -5000)]
    total = sum(entry["equilibrium"].values())
    mix = {name: share / total for name, share in entry["equilibrium"].items() if share > 0}
    assert [r["gain"] for r in entry["beyond_space"]] == [0.245, 0.254]

    def result(gain, low, high, sweep):
        return {
            "players": 4,
            "metric": "win",
            "shame_value": -5000,
            "equilibrium": mix,
            "gain": gain,
            "exploitability_lo": low,
            "exploitability_hi": high,
            "best_response": "sniper",
            "description": "d",
            "validation_games": 1000,
            "check": {"sweep": sweep},
        }

    within = record_outside_check(out, result(0.001, -0.002, 0.004, False), "small")
    assert "refuted" not in within and within["outside_checks"][-1]["command"] == "small"
    assert len(within["beyond_space"]) == 2
    beaten = record_outside_check(out, result(0.25, 0.249, 0.2502, True), "sweep")
    assert beaten["refuted"]["command"] == "sweep" and beaten["refuted"]["found_by"] == "search"
    assert [r["gain"] for r in beaten["beyond_space"]] == [0.254]  # 0.245 reproduced, 0.254 above 0.2502
    assert not converged_entry(load_libraries(out)[(4, "win", -5000)])
    again = record_outside_check(out, result(0.26, 0.255, 0.265, True), "sweep 2")
    assert again["refuted"]["command"] == "sweep 2" and "beyond_space" not in again


def test_report_side_tasks_check_each_reading_into_the_store_the_chapter_reads(tmp_path, monkeypatch):
    """The scheduler plays the outside checks as side tasks: one per reading, each keeping its
    check in the report's store, where the chapter's own call then finds the same record; none
    without a store (the chapter checks them itself)."""
    from cardsim.reports.sections.cashnguns import check_settings, side_tasks
    from cardsim.reports.suite import Profile

    tiny = Profile("quick", precision=0.45, max_n=40, tune_precision=0.45, tune_max_n=20)
    monkeypatch.setenv("CARDSIM_STORE", str(tmp_path / "none"))  # the shipped libraries only
    assert side_tasks(tiny, 3, None) == []
    every = side_tasks(tiny, 3, tmp_path / "store")
    tasks = [t for t in every if t.key.startswith("check-")]  # the others: the field's tournament and play
    assert all(t.key.startswith(("tournament-", "search-")) for t in every if t not in tasks)
    entries, _ = reading_entries((5,), tmp_path / "none")
    assert [t.key for t in tasks] == [f"check-5p-{m}-{v}" for (_, m, v) in sorted(entries)]
    assert all(t.cost > 0 and t.keywords["store"] == tmp_path / "store" for t in tasks)
    first = tasks[0]
    played = first.function(**first.keywords)
    stored = list((tmp_path / "store" / "cashnguns_check").glob("*.json"))
    assert len(stored) == 1 and json.loads(stored[0].read_text()) == played
    stored[0].write_text(json.dumps({**played, "marker": "from the side task"}))
    key = sorted(entries)[0]
    again = outside_checks(
        {key: entries[key]},
        check_settings(tiny, 3),
        other=check_settings(tiny, 3, main=False),
        store=tmp_path / "store",
    )
    assert again[key] == {**played, "marker": "from the side task"}  # read back, not checked again
    main, other = check_settings(tiny, 3), check_settings(tiny, 3, main=False)
    assert other.validation_games < main.validation_games and other.budget <= main.budget
    from cardsim.reports.suite import PROFILES

    full, lighter = check_settings(PROFILES["default"], 0), check_settings(PROFILES["default"], 0, main=False)
    assert (lighter.budget, lighter.validation_games) == (full.budget // 5, full.validation_games // 5)
    assert [t.keywords["check"] for t in tasks] == [
        main if key[1:] == ("win", -5000) else other for key in sorted(entries)
    ]


def test_a_run_cut_short_or_run_on_is_shipped_with_the_rounds_that_stop_it(tmp_path):
    _, document = _stored_run(tmp_path, 4, "win", -5000)
    settings = DiscoverSettings(players=4, metric="win", shame_value=-5000)
    finished = library_entry(document, settings, "2026-12-06T00:00:00+00:00")
    assert "--rounds" not in finished["command"]
    cut = library_entry({**document, "converged": False}, settings, "2026-12-06T00:00:00+00:00")
    assert cut["command"] == finished["command"] + " --rounds 1"
    assert cut["rounds"] == 1 and not cut["converged"]
    longer = {**document, "converged": False, "rounds": document["rounds"] * 25}  # past the default 20
    assert library_entry(longer, settings, "2026-12-06T00:00:00+00:00")["command"].endswith(" --rounds 25")
    converged_late = {**longer, "converged": True}
    assert library_entry(converged_late, settings, "2026-12-06T00:00:00+00:00")["command"].endswith(" --rounds 25")
