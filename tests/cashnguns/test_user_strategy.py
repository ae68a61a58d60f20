"""Cash'n Guns strategies written in Python: the engine plays as the kernel, the plain-Python
twin of ``counter`` plays as the built-in, views hold public information only, and
``cardsim cashnguns evaluate`` / ``check --strategy`` measure a strategy paired, with every
failure one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardsim.sims.cashnguns.simulator import play_lineups, strategy_rows
from cardsim.sims.cashnguns.space import sample_extended_strategy
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.cashnguns.strategy import Seat, play_game
from cardsim.sims.core.user_strategy import load_strategy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
COUNTER = f"{EXAMPLES / 'cashnguns_counter.py'}:Counter"
PATIENT = f"{EXAMPLES / 'cashnguns_patient.py'}:Patient"


def kernel_games(seeds, lineups, rows, shame_value):
    money, wounds, shame, alive, winner, shots, cards = play_lineups(seeds, lineups, rows, shame_value)[:7]
    return money, wounds, shame, alive, winner, shots, cards


def same_game(result, raw, game, players):
    money, wounds, shame, alive, winner, shots, cards = raw
    assert result["money"] == [int(m) * 5000 for m in money[game]]
    assert result["wounds"] == wounds[game].tolist() and result["shame"] == shame[game].tolist()
    assert result["alive"] == alive[game].tolist() and result["winner"] == winner[game].tolist()
    assert result["shots"] == shots[game].tolist() and result["cards_used"] == cards[game].tolist()


def test_the_engine_with_built_in_seats_plays_as_the_kernel():
    """Random tables of the whole space (free card orders and reading included): the Python
    engine and the kernel give the same game, seat by seat."""
    rng = np.random.default_rng(11)
    for _ in range(6):
        players = int(rng.integers(4, 7))
        strategies = [sample_extended_strategy(rng) for _ in range(players)]
        rows = strategy_rows(strategies)
        seeds = rng.integers(0, 2**63, 20).astype(np.uint64)
        lineups = np.tile(np.arange(players), (20, 1))
        shame_value = int(rng.choice([-5000, 5000]))
        raw = kernel_games(seeds, lineups, rows, shame_value)
        for game, seed in enumerate(seeds):
            same_game(play_game(int(seed), list(rows), shame_value), raw, game, players)


def test_the_python_twin_of_counter_plays_as_the_built_in():
    """examples/strategies/cashnguns_counter.py in one or two seats against the 4- and 6-player
    shipped libraries' members: every game as the kernel plays the built-in ``counter``."""
    from cardsim.analysis.cashnguns import load_libraries

    twin = load_strategy(COUNTER)
    counter = parse_strategy("counter")
    for players in (4, 6):
        library = [parse_strategy(item["spec"]) for item in load_libraries()[(players, "win", -5000)]["library"]]
        rows = strategy_rows(library + [counter])
        rng = np.random.default_rng(players)
        seeds = rng.integers(0, 2**63, 150).astype(np.uint64)
        lineups = rng.integers(0, len(library), (150, players))
        lineups[:, 0] = len(library)
        lineups[::3, 2] = len(library)
        raw = kernel_games(seeds, lineups, rows, -5000)
        for game, seed in enumerate(seeds):
            slots = [
                Seat(twin, COUNTER) if lineups[game, s] == len(library) else rows[lineups[game, s]]
                for s in range(players)
            ]
            same_game(play_game(int(seed), slots, -5000), raw, game, players)


def test_a_batch_plays_each_game_as_alone_and_a_user_seat_meets_the_built_in_draws():
    """play_games (one state for the batch) gives play_game's results game by game, whatever
    the lineup and wherever the user seats are; the twin of ``counter`` in every seat plays the
    all-built-in table's games (the engine's user path asks every seat, every round)."""
    from cardsim.sims.cashnguns.strategy import play_games

    twin = Seat(load_strategy(COUNTER), COUNTER)
    rows = strategy_rows([parse_strategy(name) for name in ("counter", "shark", "coward", "hunter", "avenger")])
    rng = np.random.default_rng(8)
    seeds = rng.integers(0, 2**63, 40).astype(np.uint64)
    tables = [[twin if rng.random() < 0.4 else rows[int(rng.integers(0, 5))] for _ in range(5)] for _ in seeds]
    batch = play_games(seeds, tables, 5000)
    assert batch == [play_game(int(seed), table, 5000) for seed, table in zip(seeds, tables, strict=True)]
    everyone = play_games(seeds, [[twin] * 5] * len(seeds), -5000)
    raw = kernel_games(seeds, np.zeros((len(seeds), 5), np.int64), rows, -5000)
    for game in range(len(seeds)):
        same_game(everyone[game], raw, game, 5)


def test_information_views_do_not_change_when_hidden_cards_are_redealt():
    """The hidden-information swap of tests/cashnguns/test_information.py on the engine's views:
    from a position of a real game, another seat's hidden hand is redealt (the public count of
    revealed cards unchanged) and the view built for the deciding seat is identical."""
    import copy

    from cardsim.sims.cashnguns.steps import INFO_EXPECTED
    from cardsim.sims.cashnguns.strategy import GameState

    rng = np.random.default_rng(5)
    for _ in range(40):
        game = GameState(5)
        game.round, game.info[INFO_EXPECTED], game.shame_value, game.asked = 3, 10.0, -5000, (0, "aim", 0.25)
        for seat in range(5):
            played = int(rng.integers(0, 6))
            for _ in range(played):
                kinds = [k for k in range(3) if game.hands[seat, k] > 0]
                kind = int(rng.choice(kinds))
                game.hands[seat, kind] -= 1
                if rng.random() < 0.5:
                    game.revealed[seat, kind] += 1
        other = copy.deepcopy(game)
        for seat in range(1, 5):
            unseen = [k for k in range(3) for _ in range((5, 2, 1)[k] - int(game.revealed[seat, k]))]
            hand = rng.permutation(unseen)[: int(game.hands[seat].sum())]
            other.hands[seat] = [int((hand == k).sum()) for k in range(3)]
        assert game.view(0) == other.view(0)


BAD = """
import time


class Raises:
    def aim(self, view, legal):
        raise ValueError("no target")

    def card(self, view, legal):
        return legal[0]

    def lie_down(self, view, legal):
        return False


class Illegal(Raises):
    def aim(self, view, legal):
        return view.seat


class WrongType(Raises):
    def aim(self, view, legal):
        return legal[0]

    def lie_down(self, view, legal):
        return 1


class Slow(Raises):
    def aim(self, view, legal):
        time.sleep(5)
        return legal[0]
"""


def cli(capsys, *args):
    from cardsim.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def test_evaluate_from_the_api_and_the_cli_is_paired_and_the_same_for_any_jobs(capsys, tmp_path, monkeypatch):
    """The API's evaluation: n, win rates inside their Wilson intervals, the paired difference
    equal to the difference of the two rates (same deals); the same numbers with 1 or 2 jobs
    and from the command line (--json)."""
    import cardsim

    monkeypatch.setattr("cardsim.analysis.cashnguns.evaluate.EVALUATE_CHUNK", 60)
    one = cardsim.cashnguns.evaluate(PATIENT, players=4, n=150, seed=3, jobs=1).manifest["details"]
    two = cardsim.cashnguns.evaluate(PATIENT, players=4, n=150, seed=3, jobs=2).manifest["details"]
    assert one == two and one["n"] == 150
    for side in ("user", "builtin"):
        assert one[side]["win_lo"] <= one[side]["p_win"] <= one[side]["win_hi"]
    assert one["difference"]["value"] == pytest.approx(one["user"]["p_win"] - one["builtin"]["p_win"])
    assert one["difference"]["lo"] < one["difference"]["value"] < one["difference"]["hi"]
    code, out, err = cli(
        capsys,
        "cashnguns",
        "evaluate",
        "--strategy",
        PATIENT,
        "--players",
        "4",
        "--n",
        "150",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--json",
    )
    assert code in (0, None), err
    assert json.loads(out)["details"]["evaluate"] == one
    # the twin of a built-in against that built-in everywhere: no difference at all
    same = cardsim.cashnguns.evaluate(COUNTER, players=5, n=60, against="counter", seed=1).manifest["details"]
    assert same["difference"] == {"value": 0.0, "lo": 0.0, "hi": 0.0}


@pytest.mark.parametrize(
    "name, message",
    [
        ("Raises", "seat {seat}, turn 1, decision aim: raised ValueError: no target"),
        ("Illegal", "decision aim: returned"),
        ("WrongType", "decision lie_down: returned 1 (int), not one of the legal choices"),
        ("Slow", "decision aim: took longer than"),
        ("Missing", "defines no 'Missing'"),
    ],
)
def test_a_failing_strategy_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch, name, message):
    monkeypatch.setattr("cardsim.sims.core.user_strategy.DEFAULT_TIME_LIMIT", 0.2)
    monkeypatch.setattr(
        "cardsim.sims.cashnguns.strategy.decide",
        __import__("functools").partial(
            __import__("cardsim.sims.core.user_strategy", fromlist=["decide"]).decide, time_limit=0.2
        ),
    )
    path = tmp_path / "bad.py"
    path.write_text(BAD)
    monkeypatch.setenv("CARDSIM_STORE", str(tmp_path / "store"))
    code, out, err = cli(capsys, "cashnguns", "evaluate", "--strategy", f"{path}:{name}", "--n", "20", "--jobs", "1")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert "strategy " in lines[0] and message.split("{seat}")[-1] in lines[0]
    assert "Traceback" not in err and out == "" and not (tmp_path / "store").exists()
    if name == "Raises":
        code, _, err = cli(
            capsys, "cashnguns", "evaluate", "--strategy", f"{path}:{name}", "--n", "20", "--jobs", "1", "--traceback"
        )
        assert code == 2 and "Traceback" in err and "no target" in err


def test_a_missing_file_and_check_strategy(capsys, tmp_path):
    """A file that does not exist is one line, exit 2; check --strategy measures a Python
    strategy against the shipped mix, paired, with its 95% interval."""
    code, out, err = cli(
        capsys, "cashnguns", "check", "--players", "4", "--strategy", f"{tmp_path}/none.py:X", "--jobs", "1"
    )
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no file" in err
    code, out, err = cli(
        capsys, "cashnguns", "check", "--players", "4", "--strategy", PATIENT, "--n", "100", "--jobs", "1", "--json"
    )
    assert code in (0, None), err
    row = json.loads(out)["tables"]["check"][0]
    assert row["games"] == 100 and row["lo"] <= row["gain"] <= row["hi"]


def test_the_tutorial_shows_the_example_files():
    """Each Python block of docs/strategies.md's Cash'n Guns section is an example file it names,
    character for character (the other tests run the examples)."""
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "strategies.md").read_text()
    section = text.split("## Cash'n Guns", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks
    source = (EXAMPLES / "cashnguns_patient.py").read_text()
    for block in blocks:
        assert block in source
    assert "examples/strategies/cashnguns_patient.py" in section
