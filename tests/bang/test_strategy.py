"""User strategies for Bang! (cardsim.sims.bang.strategy): the role bot written through the
interface plays the kernel's games, a strategy's missing decisions are the built-in's,
`bang evaluate` pairs the deals and gives the same numbers for any --jobs, and a failing
strategy is one line naming seat, turn and decision."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import cardsim
from cardsim.cli import app
from cardsim.errors import UserError
from cardsim.sims.bang import strategy as S
from cardsim.sims.bang.cards import DEPUTY, OUTLAW, RENEGADE, SHERIFF
from cardsim.sims.core.user_strategy import StrategyError, load_strategy

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "strategies"
TWIN = f"{EXAMPLES / 'bang_role.py'}:RoleBot"
RENEGADE_RULES = f"{EXAMPLES / 'bang_renegade.py'}:TwoRules"

BAD = """
import time
from cardsim.sims.bang.strategy import END, Play

class Raises:
    def play(self, view, legal):
        if view.turn >= 3:
            raise RuntimeError("lost my nerve")
        return END

class Illegal:
    def play(self, view, legal):
        return Play(999, 0, -1)

class WrongType:
    def play(self, view, legal):
        return "end"

class PlainTuple:
    def discard(self, view, legal):
        return str(legal[0])

class Slow:
    def play(self, view, legal):
        time.sleep(5)
        return END

class NoMethod:
    def shoot(self, view, legal):
        return legal[0]
"""


class Counting:
    """Wraps a strategy and counts the decisions it is asked."""

    def __init__(self, inner: object) -> None:
        self.inner, self.asked = inner, Counter()
        for name in S.DECISIONS:
            setattr(self, name, self._wrap(name))

    def _wrap(self, name: str):
        def method(view, legal):
            self.asked[name] += 1
            return getattr(self.inner, name)(view, legal)

        return method


@pytest.fixture
def bad(tmp_path):
    path = tmp_path / "bad_bang.py"
    path.write_text(BAD)
    return path


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_the_role_twin_plays_the_kernels_games(players: int) -> None:
    """Every result column of whole games is the kernel's, in every role; the twin's fallback
    is the random bot, so a decision left to the fallback would change the games."""
    asked: Counter = Counter()
    for role in (SHERIFF, DEPUTY, OUTLAW, RENEGADE):
        if players == 4 and role == DEPUTY:
            continue
        twin = Counting(load_strategy(TWIN))
        seat = S.UserSeat(twin, TWIN, role)
        user = S.play_user_games(seat, players, "role", "random", 10 + players, 20 + role, 80)
        kernel = S.builtin_games(role, players, "role", "role", 10 + players, 20 + role, 80)
        for mine, theirs in zip(user, kernel, strict=True):
            assert np.array_equal(mine, theirs)
        assert len(set(user[0].tolist())) > 1  # not one side winning every game
        asked += twin.asked
    assert asked["play"] > 1000 and asked["discard"] > 10 and asked["store_pick"] > 0


def test_the_twin_is_asked_every_decision() -> None:
    """Over many 7-player games the twin answers every one of the seven decisions (so the test
    above compares each of them with the kernel)."""
    asked: Counter = Counter()
    for role in (SHERIFF, DEPUTY, OUTLAW, RENEGADE):
        twin = Counting(load_strategy(TWIN))
        seat = S.UserSeat(twin, TWIN, role)
        user = S.play_user_games(seat, 7, "role", "random", 5, 6 + role, 150)
        kernel = S.builtin_games(role, 7, "role", "role", 5, 6 + role, 150)
        assert all(np.array_equal(a, b) for a, b in zip(user, kernel, strict=True))
        asked += twin.asked
    assert set(asked) == set(S.DECISIONS), asked


def test_the_tuned_twin_plays_the_kernels_tuned_games() -> None:
    """``BuiltinBot("tuned")`` reads the trained parameter table and plays the tuned bot's
    games exactly too, in every role (fallback: the random bot)."""
    from cardsim.sims.bang.builtin import BuiltinBot

    for role in (SHERIFF, DEPUTY, OUTLAW, RENEGADE):
        seat = S.UserSeat(BuiltinBot("tuned"), "tuned twin", role)
        user = S.play_user_games(seat, 6, "tuned", "random", 40, 50 + role, 60)
        kernel = S.builtin_games(role, 6, "tuned", "tuned", 40, 50 + role, 60)
        assert all(np.array_equal(a, b) for a, b in zip(user, kernel, strict=True))


@pytest.mark.parametrize("bot", ["role2", "tuned2"])
def test_the_structural_twin_plays_the_kernels_games(bot: str) -> None:
    """``BuiltinBot("role2")`` and ``BuiltinBot("tuned2")`` play the structural rules (the
    balancing Renegade, Sheriff and Deputy caution, the Outlaws' focus and mass rule) exactly
    as the kernel does, in every role at 5 and 7 players (fallback: the random bot)."""
    from cardsim.sims.bang.builtin import BuiltinBot

    for players in (5, 7):
        for role in (SHERIFF, DEPUTY, OUTLAW, RENEGADE):
            seat = S.UserSeat(BuiltinBot(bot), f"{bot} twin", role)
            user = S.play_user_games(seat, players, bot, "random", 70, 80 + role, 60)
            kernel = S.builtin_games(role, players, bot, bot, 70, 80 + role, 60)
            assert all(np.array_equal(a, b) for a, b in zip(user, kernel, strict=True))


@pytest.mark.parametrize("role", [OUTLAW, RENEGADE])
def test_the_style_twin_plays_the_kernels_style_games(role: int) -> None:
    """``BuiltinBot`` with the ``tuned-styles`` member's row (the Outlaw who plays long, the
    wild Renegade) plays the kernel's games with that row exactly, and not the tuned games."""
    from cardsim.sims.bang import engine
    from cardsim.sims.bang.builtin import BuiltinBot
    from cardsim.sims.bang.simulator import tuned_styles_params

    players, n = 5, 60
    twin = BuiltinBot("tuned")
    twin.tables[players] = tuned_styles_params(players).tolist()
    user = S.play_user_games(S.UserSeat(twin, "style twin", role), players, "tuned", "random", 90, 91, n)
    code, table = S.builtin_tables("tuned", players)
    kernel = engine.play_focus_games(
        n, players, np.full(4, code, dtype=np.int64), table, role, code, tuned_styles_params(players)[role],
        S.MAX_TURNS, np.random.default_rng(90), np.random.default_rng(91), False, rollout_params=table,
    )  # fmt: skip
    assert all(np.array_equal(a, b) for a, b in zip(user, kernel, strict=True))
    tuned = S.builtin_games(role, players, "tuned", "tuned", 90, 91, n)
    assert not np.array_equal(kernel[0], tuned[0]) or not np.array_equal(kernel[1], tuned[1])


@pytest.mark.parametrize("fallback", ["random", "role", "tuned", "role2"])
def test_decisions_left_out_are_the_builtins(fallback: str) -> None:
    """A strategy defining no decision plays exactly the built-in's games (its fallback),
    game by game through the user engine as in one kernel batch."""
    seat = S.UserSeat(object(), "none", OUTLAW)
    user = S.play_user_games(seat, 6, "tuned", fallback, 3, 4, 60)
    kernel = S.builtin_games(OUTLAW, 6, "tuned", fallback, 3, 4, 60)
    assert all(np.array_equal(a, b) for a, b in zip(user, kernel, strict=True))


def test_a_strategy_changes_the_games() -> None:
    """Ending every play phase at once is not the built-in: the games differ (the check above
    can fail)."""

    class Idle:
        def play(self, view, legal):
            return S.END

    seat = S.UserSeat(Idle(), "idle", SHERIFF)
    user = S.play_user_games(seat, 5, "role", "role", 1, 2, 60)[0]
    kernel = S.builtin_games(SHERIFF, 5, "role", "role", 1, 2, 60)[0]
    assert not np.array_equal(user, kernel)


def test_the_view_is_typed_and_public() -> None:
    views = []

    class Look:
        def play(self, view, legal):
            views.append((view, legal))
            return legal[-1]

    S.play_user_games(S.UserSeat(Look(), "look", OUTLAW), 7, "role", "role", 8, 9, 3)
    assert views
    for view, legal in views:
        assert view.role == OUTLAW and view.roles[view.seat] == OUTLAW
        assert view.roles[view.sheriff] == SHERIFF
        hidden = [q for q in range(7) if q not in (view.seat, view.sheriff) and view.alive[q]]
        assert all(view.roles[q] == -1 for q in hidden)
        assert len(view.hand) == view.hand_counts[view.seat] and list(view.hand) == sorted(view.hand)
        assert legal[-1] is S.END and all(isinstance(p, S.Play) for p in legal)
        assert all(p.card in view.hand or p.card == S.SID_ABILITY for p in legal[:-1])
    with pytest.raises(AttributeError):
        views[0][0].life = ()  # frozen


def test_evaluate_pairs_the_deals_and_ignores_the_worker_count() -> None:
    one = cardsim.bang.evaluate(RENEGADE_RULES, seat="renegade", players=5, n=250, seed=7, against="role", jobs=1)
    two = cardsim.bang.evaluate(RENEGADE_RULES, seat="renegade", players=5, n=250, seed=7, against="role", jobs=2)
    assert one.table.equals(two.table) and one.episodes.equals(two.episodes)
    assert one.tables["paired_difference"].equals(two.tables["paired_difference"])
    row = one.table.row(0, named=True)
    assert row["n"] == 250 and row["win_lo"] <= row["win"] <= row["win_hi"]
    diff = one.tables["paired_difference"].row(0, named=True)
    episodes = one.episodes
    expected = float((episodes["win"].cast(int) - episodes["builtin_win"].cast(int)).mean())
    assert diff["difference"] == pytest.approx(expected)
    assert diff["difference_lo"] < diff["difference"] < diff["difference_hi"]
    assert (episodes["win"] != episodes["builtin_win"]).any()


def test_the_twin_against_its_kernel_differs_by_nothing() -> None:
    result = cardsim.bang.evaluate(TWIN, seat="sheriff", players=7, n=150, seed=2, against="role", jobs=1)
    diff = result.tables["paired_difference"].row(0, named=True)
    assert diff["difference"] == 0.0 and diff["n"] == 150
    assert result.table["wins"][0] == result.table["wins"][1] > 0


@pytest.mark.parametrize(
    "name, words",
    [
        ("Raises", "seat outlaw (seat 2), turn game 2, turn 3, decision play: raised RuntimeError: lost my nerve"),
        ("Illegal", "decision play: returned Play(card=999, target=0, which=-1) (Play), not one of"),
        ("WrongType", "decision play: returned 'end' (str), not one of the legal choices"),
        ("PlainTuple", "decision discard: returned '"),
        ("Slow", "decision play: took longer than 2 s"),
    ],
)
def test_a_failing_strategy_is_one_error_naming_seat_and_turn(bad, name, words) -> None:
    with pytest.raises(StrategyError) as caught:
        cardsim.bang.evaluate(f"{bad}:{name}", seat="outlaw", players=4, n=10, jobs=1)
    message = str(caught.value)
    assert words in message and "\n" not in message
    assert message.startswith(f"strategy {bad}:{name}, seat outlaw (seat ")


def test_a_failure_in_a_worker_names_the_same_seat_and_turn(bad) -> None:
    with pytest.raises(
        StrategyError,
        match=r"seat outlaw \(seat 2\), turn game 2, turn 3, "
        "decision play",
    ):
        cardsim.bang.evaluate(f"{bad}:Raises", seat="outlaw", players=4, n=300, jobs=2)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("{dir}/missing.py:X", "no file"),
        ("{dir}/bad_bang.py:Nobody", "defines no 'Nobody'"),
        ("{dir}/bad_bang.py:NoMethod", "defines none of the Bang! decisions"),
        ("{dir}/bad_bang.py", "FILE.py:NAME"),
    ],
)
def test_a_bad_spec_is_a_user_error(bad, spec, words) -> None:
    with pytest.raises(UserError, match=words):
        cardsim.bang.evaluate(spec.format(dir=bad.parent), n=10, jobs=1)


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"players": 8}, "players must be one count of 4-7"),
        ({"players": "4-5"}, "players must be one count of 4-7"),
        ({"seat": "sheriff2"}, "seat must be a role"),
        ({"seat": "deputy", "players": 4}, "no deputy at 4 players"),
        ({"against": "search"}, "against must be one of"),
        ({"others": "oracle"}, "others must be one of"),
        ({"n": 1}, "n must be an integer of at least 2"),
        ({"jobs": 0}, "--jobs must be at least 1"),
    ],
)
def test_bad_options_are_user_errors(fields, words) -> None:
    with pytest.raises(UserError, match=words):
        cardsim.bang.evaluate(RENEGADE_RULES, **fields)


def test_the_command_prints_both_rates_and_the_difference(tmp_path) -> None:
    result = CliRunner().invoke(
        app,
        ["bang", "evaluate", "--strategy", RENEGADE_RULES, "--seat", "renegade", "--n", "120", "--jobs", "1", "--json"],
        env={"CARDSIM_STORE": str(tmp_path / "store")},
    )
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["tables"]
    assert [row["strategy"] for row in tables["evaluate"]] == [RENEGADE_RULES, "tuned"]
    assert tables["paired_difference"][0]["n"] == 120
    assert not (tmp_path / "store").exists()  # nothing stored


@pytest.mark.parametrize("extra", [[], ["--traceback"]])
def test_the_command_fails_with_one_line_and_exit_2(bad, tmp_path, extra) -> None:
    env = dict(os.environ, CARDSIM_STORE=str(tmp_path / "store"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardsim.cli",
            "bang",
            "evaluate",
            "--strategy",
            f"{bad}:Raises",
            "--players",
            "4",
            "--n",
            "10",
            "--jobs",
            "1",
            *extra,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert "seat outlaw (seat 2), turn game 2, turn 3, decision play: raised RuntimeError" in lines[-1]
    assert ("Traceback" in result.stderr) == bool(extra)
    if not extra:
        assert len(lines) == 1
    assert not result.stdout.strip()
    assert not (tmp_path / "store").exists()


def test_the_tutorial_shows_the_example_file_as_it_is() -> None:
    """docs/strategies.md's first Bang! code block is the example file (which the tests above
    run); the second, evaluating it, runs in tests/docs."""
    text = (ROOT / "docs" / "strategies.md").read_text()
    section = text.split("## Bang!", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("\n", 1)[1].split("```", 1)[0] for block in section.split("```python")[1:]]
    assert blocks[0] == (EXAMPLES / "bang_renegade.py").read_text()
    assert "cardsim.bang.evaluate(" in blocks[1]
    assert "examples/strategies/bang_role.py" in section


def test_the_benchmark_row_has_the_shape_of_every_games() -> None:
    """``strategy_rows`` (collected by ``cardsim bench strategies``) gives one row of the shared
    shape: a measured CPU rate of the engine, the kernel's on the same deals, and the target."""
    from cardsim.sims.bang.bench import STRATEGY_TARGET, strategy_rows
    from cardsim.sims.core.strategy_bench import ROW_KEYS

    (row,) = strategy_rows(quick=True)
    assert tuple(row) == ROW_KEYS and row["game"] == "Bang!" and row["players"] == 7
    assert row["per_second"] > 0 and 0 < row["ratio"] < 1 and row["target"] == STRATEGY_TARGET
    assert row["meets_target"] == (row["n"] / row["cpu_seconds"] >= STRATEGY_TARGET)
