"""Every place that shows a shipped Cash'n Guns mix labels it from the libraries file as it is:
a reading whose mix a recorded reply beats (``refuted``, ``beyond_space``) or whose run did not
converge says "not converged" with its best known reply's gain and 95% interval, and no mix is
called an equilibrium of the game. A copy of the shipped file is flipped between a mix that
holds and one that does not, so a place that kept its own label would fail."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardsim.analysis.cashnguns as analysis
from cardsim.analysis.cashnguns import (
    DISCOVER_METHOD,
    load_libraries,
    reading_status,
    shipped_mixes_table,
    status_text,
)
from cardsim.analysis.cashnguns.evaluate import MIX, opponents
from cardsim.commands.cashnguns import app
from cardsim.reports.sections.cashnguns import (
    advice_sentences,
    entry_status,
    readings_table,
    searched_sentence,
)
from cardsim.sims.cashnguns import SHIPPED_LIBRARIES

ROOT = Path(__file__).resolve().parents[2]
KEY = (5, "win", -5000)  # a main reading: the key result shows it too
#: What a place may say about the game's equilibria: only that no mix is shown to be one.
#: Places that give the label only (the line after them gives the reply).
LABEL_ONLY = {"evaluate --against mix, title"}
ALLOWED = (
    "not shown to be an equilibrium of the game",
    "none shown to be an equilibrium of the game",
    "no mix is called an equilibrium of the game",
)


def never_called_an_equilibrium_of_the_game(text: str) -> bool:
    for phrase in ALLOWED:
        text = text.replace(phrase, "")
    return "equilibrium of the game" not in re.sub(r"\s+", " ", text)


def write(path: Path, document: dict, **changes) -> dict:
    """The document with the KEY reading's entry changed by ``changes`` (None drops a field)."""
    for entry in document["readings"]:
        if (entry["players"], entry["metric"], entry["shame_value"]) == KEY:
            entry.update(changes)
            for field in [name for name, value in changes.items() if value is None]:
                del entry[field]
    path.write_text(json.dumps(document, indent=1) + "\n")
    return load_libraries(path)[KEY]


REFUTED = {
    "command": "cardsim cashnguns check --players 5 --seed 9",
    "gain": 0.0421,
    "interval": [0.0386, 0.0456],
    "reply": "custom:bullet=schedule,target=weakest,lie=never,order=CBCCCXCB",
    "description": "plays its cards in the order CBCCCXCB at the most wounded; never lies down",
    "found_by": "schedule sweep",
    "games": 100_000,
}
BEYOND = {
    "reply": "one who models the mix (a file.py:Reply)",
    "gain": 0.1377,
    "interval": [0.1321, 0.1433],
    "source": "an outside check's own strategy",
    "games": 40_000,
}
WITHIN = {**REFUTED, "gain": 0.0012, "interval": [-0.0011, 0.0035]}
#: A mix that holds: converged, by the current method, one outside check within the tolerance.
HOLDS = {
    "converged": True,
    "method": DISCOVER_METHOD,
    "refuted": None,
    "outside_checks": [WITHIN],
    "beyond_space": None,
}
#: The flips of that reading that must each read "not converged": (changes, the gain as shown,
#: the interval as the key result rounds it).
FLIPS = {
    "refuted": ({"refuted": REFUTED}, "+4.21 points (95% interval 3.86 to 4.56)", "95% interval 3.9 to 4.6"),
    "beyond the space": (
        {"beyond_space": [BEYOND]},
        "+13.77 points (95% interval 13.21 to 14.33)",
        "95% interval 13.2 to 14.3",
    ),
    "round limit": (
        {"converged": False, "outside_checks": [{**REFUTED, "gain": 0.0031, "interval": [0.0006, 0.0056]}]},
        "+0.31 points (95% interval 0.06 to 0.56)",
        "95% interval 0.1 to 0.6",
    ),
}


@pytest.fixture
def shipped(tmp_path):
    """A copy of the shipped libraries file, and its document."""
    path = tmp_path / "libraries.json"
    return path, json.loads(SHIPPED_LIBRARIES.read_text())


def places(path: Path, monkeypatch) -> dict[str, str]:
    """What every place says about the KEY reading's mix, read from ``path``."""
    import importlib.util

    entries = load_libraries(path)
    entry = entries[KEY]
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs_hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    check = {
        "gain": 0.001,
        "exploitability_hi": 0.002,
        "validation_games": 1_000,
        "candidates": 10,
        "check": {"budget": 10, "search_games": 100, "validation_games": 1_000, "seed": 1},
    }
    found = {
        "status_text": status_text(entry),
        "report status": entry_status(entry),
        "report table": readings_table({KEY: entry}, {})["status"][0],
        "report key result": advice_sentences({KEY: entry}),
        "report key sentence": searched_sentence({KEY: entry}, {KEY: check}).split("By everything recorded", 1)[1],
        "evaluate --against mix, title": opponents(MIX, 5, "win", -5000, path)[2],
        "evaluate --against mix, status": opponents(MIX, 5, "win", -5000, path)[3],
        "docs table": next(
            line for line in hooks.cashnguns_status(path).splitlines() if line.startswith("| 5 | win, shame -5,000")
        ),
    }
    row = shipped_mixes_table(path).filter(players=5, metric="win", shame=-5000).row(0, named=True)
    found["strategies table"] = f"{row['status']} {row['best_known_reply']}"

    def stub(entry, check, jobs=1, store=None):
        return {
            "equilibrium": entry["equilibrium"],
            "candidates": 1,
            "best_response": "stub",
            "description": "stub",
            "validation_games": 2,
            "gain": 0.0,
            "exploitability_lo": 0.0,
            "exploitability_hi": 0.0,
        }

    monkeypatch.setattr(analysis, "check_equilibrium", stub)
    result = CliRunner().invoke(app, ["check", "--players", "5", "--libraries", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    found["check command"] = result.stdout.split("shipped mix, 5 players: ", 1)[1]
    monkeypatch.setattr(analysis.libraries, "SHIPPED_LIBRARIES", path)
    result = CliRunner().invoke(app, ["strategies", "--json"])
    rows = json.loads(result.stdout)["tables"]["mixes"]
    found["strategies command"] = next(r["status_text"] for r in rows if (r["players"], r["metric"], r["shame"]) == KEY)
    return found


def test_a_mix_that_holds_is_converged_within_the_searched_space_only(shipped, monkeypatch):
    path, document = shipped
    assert reading_status(write(path, document, **HOLDS))["holds"]
    for place, text in places(path, monkeypatch).items():
        assert "converged within the searched space" in text, place
        assert "not converged" not in text, place
        assert never_called_an_equilibrium_of_the_game(text), place


@pytest.mark.parametrize("flip", list(FLIPS))
def test_a_mix_a_record_beats_is_not_converged_with_its_best_known_reply_everywhere(shipped, monkeypatch, flip):
    """Flip one reading's records (a refutation, a reply outside the searched space, a run that
    stopped at its round limit): every place says "not converged" and the best known reply's
    gain with its 95% interval (the key result in its own rounding)."""
    path, document = shipped
    changes, gain, rounded = FLIPS[flip]
    status = reading_status(write(path, document, **{**HOLDS, **changes}))
    assert not status["holds"] and status["label"] == "not converged"
    for place, text in places(path, monkeypatch).items():
        assert "not converged" in text, place
        assert never_called_an_equilibrium_of_the_game(text), place
        if place not in LABEL_ONLY:
            assert (rounded if place == "report key result" else gain) in text, place


def test_every_shipped_reading_that_does_not_hold_is_labelled_so_wherever_it_is_shown():
    """Whatever the shipped file says today (reruns replace its entries): every reading whose
    mix does not hold reads "not converged" with its best known reply in the report's table,
    the strategies table and the docs table, and none is called an equilibrium of the game."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs_hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    entries = load_libraries()
    table = readings_table(entries, {})
    mixes = shipped_mixes_table()
    docs = hooks.cashnguns_status()
    assert never_called_an_equilibrium_of_the_game(docs + advice_sentences(entries) + " ".join(table["status"]))
    for (players, metric, shame), entry in sorted(entries.items()):
        status = reading_status(entry)
        shown = [
            row["status"]
            for row in table.iter_rows(named=True)
            if (row["players"], row["metric"], row["reading"]) == (players, metric, f"{metric}, shame {shame:+,}")
        ]
        row = mixes.filter(players=players, metric=metric, shame=shame).row(0, named=True)
        assert (row["holds"], len(shown)) == (status["holds"], 1)
        if not status["holds"]:
            assert shown[0].startswith("not converged") and row["status"] == "not converged"
            assert status_text(entry) in docs and status_text(entry) in shown[0]
            if status["reply"] is not None and status["reply"]["interval"]:
                assert "95% interval" in shown[0] and row["best_known_reply"] in shown[0]
