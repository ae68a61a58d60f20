"""Every `evaluate` (and `cashnguns check --strategy`) writes its output one way: intervals as
'value (lo-hi)', differences signed and in points of win rate, a progress bar unless --quiet."""

from __future__ import annotations

import re

import pytest

from cardsim.cli import main
from cardsim.commands.output import interval_text
from cardsim.sims.core import user_strategy

EXAMPLES = "examples/strategies"
COMMANDS = {
    "gang": ["gang", "evaluate", "--strategy", f"{EXAMPLES}/gang_pairs_high.py:PairsHigh", "--n", "60"],
    "thegame": [
        "thegame",
        "evaluate",
        "--strategy",
        f"{EXAMPLES}/thegame_greedy.py:Greedy",
        "--players",
        "2",
        "--n",
        "40",
    ],
    "bang": [
        "bang",
        "evaluate",
        "--strategy",
        f"{EXAMPLES}/bang_role.py:RoleBot",
        "--role",
        "outlaw",
        "--against",
        "role",
        "--n",
        "40",
    ],
    "cashnguns": ["cashnguns", "evaluate", "--strategy", f"{EXAMPLES}/cashnguns_patient.py:Patient", "--n", "40"],
    "check": [
        "cashnguns",
        "check",
        "--players",
        "4",
        "--strategy",
        f"{EXAMPLES}/cashnguns_patient.py:Patient",
        "--n",
        "40",
    ],
}
NUMBER = r"[+-]?[\d,]+\.\d+|[+-]?[\d,]{4,}"
INTERVAL = re.compile(rf"({NUMBER}) \(({NUMBER})-({NUMBER})\)")


def test_interval_text_is_one_style():
    assert interval_text(0.5412, 0.5266, 0.5702, scale=100) == "54.12 (52.66-57.02)"
    assert interval_text(-0.012, -0.0335, 0.0095, scale=100, signed=True) == "-1.20 (-3.35-+0.95)"
    assert interval_text(77500.0, 65696.0, 89304.0) == "77,500 (65,696-89,304)"
    assert interval_text(None, 0.1, 0.2) == "-"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_evaluate_writes_intervals_and_differences_alike(capsys, monkeypatch, name):
    monkeypatch.setenv("COLUMNS", "250")
    with pytest.raises(SystemExit) as done:
        main([*COMMANDS[name], "--jobs", "1", "--quiet"])
    out, err = capsys.readouterr()
    assert done.value.code == 0, err
    assert "[" not in out.replace("[1/", "") and ".." not in out  # no other interval style
    intervals = INTERVAL.findall(out)
    assert len(intervals) >= (1 if name == "check" else 3), out
    for value, lo, hi in intervals:
        as_float = [float(x.replace(",", "")) for x in (value, lo, hi)]
        assert as_float[1] <= as_float[0] <= as_float[2], (value, lo, hi)
    assert "points" in out  # a difference in win rate is in points, never a fraction
    assert re.search(r"[+-]\d+\.\d+ \([+-]\d+\.\d+-[+-]\d+\.\d+\)", out), out
    assert err.strip() == ""  # --quiet: no bar, no notes


def test_the_progress_bar_follows_quiet(monkeypatch):
    """run_chunks advances one step per chunk under evaluation_progress, and shows no bar
    outside it (the API) or under --quiet (label None)."""
    seen = []

    class Bar:
        def __init__(self, label):
            seen.append(["start", label])

        def wave(self, total):
            seen.append(["wave", total])

        def advance(self):
            seen.append(["advance"])

        def close(self):
            seen.append(["close"])

    monkeypatch.setattr(user_strategy, "_progress_bar", Bar)
    with user_strategy.evaluation_progress("gang evaluate"):
        assert user_strategy.run_chunks(lambda x: {"x": x}, [(1,), (2,), (3,)], 1) == [{"x": 1}, {"x": 2}, {"x": 3}]
    assert seen == [["start", "gang evaluate"], ["wave", 3], ["advance"], ["advance"], ["advance"], ["close"]]
    seen.clear()
    user_strategy.run_chunks(lambda x: {"x": x}, [(1,)], 1)
    assert seen[0] == ["start", None]
    bar = user_strategy.__dict__["_progress_bar"]
    monkeypatch.undo()
    assert user_strategy._progress_bar(None)._bar is None  # no label: nothing drawn
    del bar


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_evaluate_takes_quiet(capsys, name):
    with pytest.raises(SystemExit) as done:
        main([*COMMANDS[name][:2], "--help"])
    assert done.value.code == 0 and "--quiet" in capsys.readouterr().out
