"""`cardsim report` and `cardsim tune`: one-line errors, a real (tiny) run of each."""

from __future__ import annotations

import json
import re
import sys

import pytest

from cardsim.cli import main
from cardsim.commands import report as report_module
from cardsim.reports import suite
from cardsim.reports.suite import Profile

TINY = Profile("quick", precision=0.45, max_n=40, tune_precision=0.45, tune_max_n=20)


def cardsim(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """Run the console entry point in this process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["cardsim", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


@pytest.mark.parametrize(
    "args, message",
    [
        (["report", "--game", "chess"], "unknown game chess"),
        (["tune", "gang", "--target", "1.5"], "target must be a win rate between 0 and 1"),
        (["tune", "gang", "--players", "9"], "players must be 3 to 6"),
        (["tune", "thegame", "--strategy", "psychic"], "unknown strategy 'psychic'"),
        (["tune", "thegame", "--top", "0"], "--top must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, args, message):
    code, _, err = cardsim(capsys, monkeypatch, *args)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err


def test_tune_thegame_answers_per_count_and_model_rung(capsys, monkeypatch, tmp_path):
    code, out, err = cardsim(
        capsys,
        monkeypatch,
        "tune",
        "thegame",
        "--players",
        "1-2",
        "--strategy",
        "greedy",
        "--target",
        "0.05",
        "--max-n",
        "60",
        "--precision",
        "0.3",
        "--jobs",
        "1",
        "--store",
        str(tmp_path),
        "--json",
    )
    assert code == 0, err
    document = json.loads(out)
    answers = document["details"]["answers"]
    assert len(document["tables"]["answers"]) == len(answers)
    # per count: the rung below (random), the group's strategy, the rung above (planner)
    assert [(a["players"], a["strategy"], a["chosen"]) for a in answers] == [
        (count, rung, rung == "greedy") for count in (1, 2) for rung in ("random", "greedy", "planner")
    ]
    for answer in answers:
        closest = answer["closest"]
        assert len(closest) == 8 and [row["rank"] for row in closest] == list(range(1, 9))
        distances = [abs(row["p"] - 0.05) for row in closest]
        assert distances == sorted(distances)
        assert all(row["n"] == 60 and row["lo"] <= row["p"] <= row["hi"] for row in closest)
        assert {row["level"] for row in answer["ladder"]} <= {"easy", "medium", "hard"}
        assert all(row["configuration"].startswith("min ") for row in closest)
        assert answer["play"] == closest[0]["configuration"] and answer["strategy"] in answer["who"]
        assert answer["reachable"] == (answer["reach"] == "reachable")


def test_tune_says_when_a_target_is_out_of_reach(capsys, monkeypatch, tmp_path):
    code, out, err = cardsim(
        capsys,
        monkeypatch,
        "tune",
        "thegame",
        "--players",
        "2",
        "--strategy",
        "random",
        "--target",
        "0.97",
        "--max-n",
        "30",
        "--precision",
        "0.3",
        "--jobs",
        "1",
        "--store",
        str(tmp_path),
    )
    assert code == 0, err
    text = " ".join(out.split())
    assert "A 97% win rate is out of reach for 2 player(s) using the 'random' strategy" in text
    assert "Closest reachable: min " in text and "play:" not in text
    assert "how much skill matters" in text


def test_report_command_writes_both_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(suite.PROFILES, "quick", TINY)
    report_module.report_command(
        game=["bang"], quick=True, out=tmp_path / "out", seed=3, jobs=1, store=tmp_path / "store", quiet=True
    )
    printed = capsys.readouterr().out
    html, pdf = tmp_path / "out" / "cardsim-report.html", tmp_path / "out" / "cardsim-report.pdf"
    assert str(html) in printed and str(pdf) in printed and "pages" in printed
    assert "Win rate by side and player count" in html.read_text()
    assert pdf.read_bytes().startswith(b"%PDF")
    # beside the HTML, in a file of its own: a quick run never writes the file of record
    assert not (tmp_path / "out" / "findings.json").exists()
    findings = json.loads((tmp_path / "out" / "findings-quick.json").read_text())
    assert str(tmp_path / "out" / "findings-quick.json") in printed
    assert findings["command"] == "cardsim report --quick --seed 3" and findings["findings"]
    assert findings["profile"] == "quick" and findings["of_record"] is False
    assert {f["game"] for f in findings["findings"]} == {"bang"}
    assert all(f["lo"] <= f["p"] <= f["hi"] and f["n"] > 0 for f in findings["findings"])


@pytest.mark.parametrize("verbose", [False, True])
def test_report_run_prints_progress_and_notes_only_when_verbose(tmp_path, monkeypatch, capsys, verbose):
    monkeypatch.setitem(suite.PROFILES, "quick", TINY)
    report_module.report_command(
        game=["bang"],
        quick=True,
        out=tmp_path / "out",
        seed=3,
        jobs=1,
        store=tmp_path / "store",
        quiet=False,
        verbose=verbose,
    )
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if line.startswith("  ") and " n=" in line]
    assert re.search(r"Bang! done after \d+ s \(100% of the experiments\)", err)  # one line per game
    assert " left" not in err  # no time left foretold from a pace per experiment
    assert (len(notes) > 0) == verbose


def test_tracker_counts_each_experiment_once():
    from cardsim.reports.progress import Tracker

    tracker = Tracker(3, enabled=False)
    for chunks in (0, 2, 50):  # stored (no chunk computed), stopped early, more chunks than expected
        tracker.start("g", "e")
        for _ in range(chunks):
            tracker.chunk(4)
            assert tracker.done < 3
        tracker.finish()
    assert tracker.done == pytest.approx(3.0)


def test_tune_command_prints_the_api_result(capsys, monkeypatch, tmp_path):
    """One code path: the command's JSON document holds the API's answers and run ids."""
    from cardsim.api import tune

    result = tune.thegame(
        players=2, strategy="greedy", target=0.05, top=2, precision=0.3, max_n=40, jobs=1, store=tmp_path, quiet=True
    )
    code, out, err = cardsim(
        capsys,
        monkeypatch,
        "tune",
        "thegame",
        "--players",
        "2",
        "--strategy",
        "greedy",
        "--target",
        "0.05",
        "--top",
        "2",
        "--precision",
        "0.3",
        "--max-n",
        "40",
        "--jobs",
        "1",
        "--store",
        str(tmp_path),
        "--json",
        "-q",
    )
    assert code == 0, err
    document = json.loads(out)
    assert document["tables"]["answers"] == result.table.to_dicts()
    assert document["runs"] == result.manifest["runs"] and len(result.manifest["runs"]) == 3 * 18
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(result.manifest["runs"])
    closest = result.tables["closest"]
    assert closest.height == 3 * 2 and closest.columns[:2] == ["players", "strategy"]
    for answer in document["details"]["answers"]:
        rows = closest.filter(closest["strategy"] == answer["strategy"]).drop("players", "strategy")
        assert answer["closest"] == rows.to_dicts()
        assert answer["play"] == rows["configuration"][0]


def test_report_api_lists_every_experiment(tmp_path, monkeypatch):
    from cardsim.api import report

    monkeypatch.setitem(suite.PROFILES, "quick", TINY)
    result = report(game="bang", quick=True, out=tmp_path / "out", seed=3, jobs=1, store=tmp_path / "store", quiet=True)
    table = result.table
    assert table.height > 0 and set(table["game"]) == {"bang"} and (table["n"] > 0).all()
    assert (table["cpu_s"] >= 0).all() and table["cpu_s"].sum() > 0  # played here, one job
    assert sorted(result.manifest["runs"]) == sorted(p.name for p in (tmp_path / "store").iterdir())
    assert result.tables["files"]["path"].to_list() == [result.manifest["html"], result.manifest["pdf"]]
    assert result.manifest["games"] == ["bang"] and result.manifest["pdf_pages"] > 0
