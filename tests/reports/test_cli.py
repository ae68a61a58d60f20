"""`cardsim report` and `cardsim tune`: one-line errors, a real (tiny) run of each."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardsim.commands import report as report_module
from cardsim.reports.suite import Profile

TINY = Profile("quick", precision=0.45, max_n=40, tune_precision=0.45, tune_max_n=20)


def cardsim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardsim.cli", *args], capture_output=True, text=True)


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
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = cardsim(*args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_tune_thegame_lists_closest_and_ladder(tmp_path):
    result = cardsim("tune", "thegame", "--players", "2", "--strategy", "greedy", "--target", "0.05",
                     "--max-n", "60", "--precision", "0.3", "--jobs", "1", "--store", str(tmp_path),
                     "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    closest = data["closest"]
    assert len(closest) == 8 and [row["rank"] for row in closest] == list(range(1, 9))
    distances = [abs(row["p"] - 0.05) for row in closest]
    assert distances == sorted(distances)
    assert all(row["n"] == 60 and row["lo"] <= row["p"] <= row["hi"] for row in closest)
    assert {row["level"] for row in data["ladder"]} <= {"easy", "medium", "hard"}
    assert all(row["configuration"].startswith("min ") for row in closest)


def test_report_command_writes_both_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(report_module.PROFILES, "quick", TINY)
    report_module.report_command(game=["cashnguns"], quick=True, out=tmp_path / "out", seed=3, jobs=1,
                                 store=tmp_path / "store", quiet=True)
    printed = capsys.readouterr().out
    html, pdf = tmp_path / "out" / "cardsim-report.html", tmp_path / "out" / "cardsim-report.pdf"
    assert str(html) in printed and str(pdf) in printed and "pages" in printed
    assert "Cash&#39;n Guns" in html.read_text() or "Cash'n Guns" in html.read_text()
    assert pdf.read_bytes().startswith(b"%PDF")
