"""`cardsim bench strategies`: every game with a user-strategy engine gives its rows (engine
beside kernel, against its target), a game without one is named, and ``--record`` saves the
rows like every benchmark of record."""

from __future__ import annotations

import json

import pytest

from cardsim.sims.core.game import Game
from cardsim.sims.core.strategy_bench import ROW_KEYS, speed_row
from cardsim.sims.registry import games


def cli(capsys, *args):
    from cardsim.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def test_every_game_with_an_engine_gives_rows_beside_its_kernel(capsys):
    """Quick mode through the command line: one row per declared engine (The Game adds a row
    without a target), each with the engine's and the kernel's speeds of the same run, their
    ratio and the target verdict; the games without an engine are named."""
    code, out, err = cli(capsys, "bench", "strategies", "--quick", "--json")
    assert code in (0, None), err
    document = json.loads(out)
    rows = document["tables"]["strategies"]
    declared = {game.title for game in games().values() if game.strategy_bench}
    assert {row["game"] for row in rows} == declared and {"The Gang", "The Game", "Cash'n Guns", "Bang!"} <= declared
    assert document["details"]["no_strategy_engine"] == [
        game.title for game in games().values() if game.strategy_bench is None
    ]
    for row in rows:
        assert tuple(row)[: len(ROW_KEYS)] == ROW_KEYS
    for row in (row for row in rows if row["game"] in ("The Gang", "The Game", "Cash'n Guns", "Bang!")):
        assert row["n"] > 0 and row["cpu_seconds"] > 0 and row["kernel_per_second"] > 0
        seconds = row["cpu_seconds"]  # rounded to the millisecond: the rate lies within that rounding
        assert row["n"] / (seconds + 0.0005) - 1 <= row["per_second"] <= row["n"] / max(seconds - 0.0005, 1e-9) + 1
        assert row["ratio"] == pytest.approx(row["per_second"] / row["kernel_per_second"], rel=0.01, abs=1e-4)
        if row["target"] is not None:
            assert row["meets_target"] == (row["per_second"] >= row["target"])
    targets = {row["game"]: row["target"] for row in rows if row["target"] is not None}
    assert targets["The Game"] == 500 and targets["Cash'n Guns"] == 2_000 and targets["The Gang"] == 2_000


def fake_rows(quick: bool = False) -> list[dict]:
    return [
        speed_row(
            game="Fake",
            what="trivial",
            players=2,
            unit="games",
            n=10 if quick else 100,
            cpu_seconds=0.5,
            kernel="built-in",
            kernel_per_second=1_000.0,
            target=25.0,
        ),
        {"what": "old keys", "per_second": 7},  # a row without some keys: shown with None
    ]


def test_a_game_without_an_engine_is_one_line_and_record_saves_the_rows(capsys, tmp_path, monkeypatch):
    fake = Game(
        name="fake",
        title="Fake",
        simulator="x:y",
        help="",
        example="",
        strategy_bench="tests.core.test_bench_strategies:fake_rows",
    )
    plain = Game(name="plain", title="Plain Game", simulator="x:y", help="", example="")
    monkeypatch.setattr("cardsim.sims.registry.games", lambda: {"fake": fake, "plain": plain})
    monkeypatch.setattr("cardsim.commands.bench.results_folder", lambda: tmp_path / "benchmarks" / "results")
    code, out, err = cli(capsys, "bench", "strategies", "--quick", "--record")
    assert code in (0, None), err
    assert "Plain Game: no strategy engine" in out.splitlines() and "Fake: no strategy engine" not in out
    assert "trivial" in out
    saved = list((tmp_path / "benchmarks" / "results").glob("*-strategies.json"))
    assert len(saved) == 1 and f"recorded {saved[0]}" in err
    entry = json.loads(saved[0].read_text())
    assert entry["target"] == "strategies" and entry["command"] == "cardsim bench strategies --quick"
    padded = {**dict.fromkeys(ROW_KEYS), "game": "Fake", "what": "old keys", "per_second": 7}
    assert entry["rows"] == [fake_rows(quick=True)[0], padded] and entry["details"] == {
        "no_strategy_engine": ["Plain Game"]
    }
    assert entry["rows"][0]["meets_target"] is False and {"commit", "date", "machine"} <= set(entry)
