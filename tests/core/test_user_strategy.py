"""Loading a user's strategy from a file and calling its decisions: every failure is one
StrategyError line naming the strategy, seat, turn and decision."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.core.user_strategy import (
    DecisionClock,
    StrategyError,
    check_methods,
    decide,
    load_strategy,
    paired_difference,
    strategy_traceback,
)

SOURCE = """
import time

class Careful:
    def pick(self, view, legal):
        return legal[0]

class Broken:
    def pick(self, view, legal):
        raise ValueError("no idea")

class Illegal:
    def pick(self, view, legal):
        return 99

class Stringly:
    def pick(self, view, legal):
        return str(legal[0])

class Slow:
    def pick(self, view, legal):
        while True:
            try:
                time.sleep(0.01)
            except Exception:
                pass

instance = Careful()
"""


@pytest.fixture
def strategies(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(SOURCE)
    return path


def test_a_class_is_instantiated_and_an_instance_taken_as_is(strategies):
    assert type(load_strategy(f"{strategies}:Careful")).__name__ == "Careful"
    assert type(load_strategy(f"{strategies}:instance")).__name__ == "Careful"
    assert decide(load_strategy(f"{strategies}:Careful"), "pick", None, (3, 4), spec="s", seat=0, turn=1) == 3


@pytest.mark.parametrize(
    "spec, words",
    [
        ("nofile.py:X", "no file"),
        ("mine.txt:X", "FILE.py:NAME"),
        ("mine.py", "FILE.py:NAME"),
        ("{dir}/mine.py:Missing", "defines no 'Missing'"),
    ],
)
def test_a_bad_spec_is_one_user_error(strategies, spec, words):
    with pytest.raises(UserError, match=words):
        load_strategy(spec.format(dir=strategies.parent))


def test_a_file_that_fails_to_import_names_the_error(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("def broken(:\n")
    with pytest.raises(UserError, match="importing .* failed: SyntaxError"):
        load_strategy(f"{path}:X")


@pytest.mark.parametrize(
    "name, words",
    [
        ("Broken", "raised ValueError: no idea"),
        ("Illegal", "returned 99 (int), not one of the legal choices (1, 2)"),
        ("Stringly", "returned '1' (str), not one of the legal choices"),
        ("Slow", "took longer than 0.2 s"),
    ],
)
def test_every_failure_is_one_line_naming_seat_turn_and_decision(strategies, name, words):
    spec = f"{strategies}:{name}"
    with pytest.raises(StrategyError) as caught:
        decide(load_strategy(spec), "pick", None, (1, 2), spec=spec, seat=2, turn=7, time_limit=0.2)
    message = str(caught.value)
    assert "\n" not in message and words in message
    assert message.startswith(f"strategy {spec}, seat 2, turn 7, decision pick: ")
    assert bool(strategy_traceback(caught.value)) == (name == "Broken")


def test_missing_methods_are_refused_before_a_run(strategies):
    with pytest.raises(UserError, match="has no method shoot"):
        check_methods(load_strategy(f"{strategies}:Careful"), "x.py:Careful", ("pick", "shoot"))


def test_a_numpy_integer_choice_is_the_legal_option_and_a_bool_is_not():
    class Numpy:
        def pick(self, view, legal):
            return np.int64(legal[1])

    class Boolean:
        def pick(self, view, legal):
            return True

    assert decide(Numpy(), "pick", None, (0, 1), spec="n", seat=0, turn=0) == 1
    with pytest.raises(StrategyError, match="returned True"):
        decide(Boolean(), "pick", None, (0, 1), spec="b", seat=0, turn=0)


def test_paired_difference_is_over_episodes():
    user = np.array([1, 1, 0, 1, 0, 1, 1, 0] * 50)
    builtin = np.array([1, 0, 0, 1, 0, 0, 1, 0] * 50)
    found = paired_difference(user, builtin)
    assert found["n"] == 400 and found["difference"] == pytest.approx(0.25)
    assert found["lo"] < 0.25 < found["hi"] and found["hi"] - found["lo"] < 0.1
    same = paired_difference(user, user)
    assert same["difference"] == same["lo"] == same["hi"] == 0
    with pytest.raises(ValueError):
        paired_difference(user, builtin[:-1])


def test_one_clock_for_many_decisions_stops_a_runaway_and_restores_the_handler(strategies):
    """With a DecisionClock, decisions are checked as without one, a decision that never ends
    is stopped and named, and leaving the clock puts the previous SIGALRM handler back."""
    import signal
    import time

    previous = signal.getsignal(signal.SIGALRM)
    careful = load_strategy(f"{strategies}:Careful")
    with DecisionClock(tick=0.05) as clock:
        assert [decide(careful, "pick", None, (5, 6), spec="c", seat=0, turn=t, clock=clock) for t in range(3)] == [
            5
        ] * 3
        for name, words in (
            ("Slow", "took longer than 0.2 s"),
            ("Broken", "raised ValueError"),
            ("Illegal", "returned 99"),
        ):
            spec = f"{strategies}:{name}"
            started = time.perf_counter()
            with pytest.raises(StrategyError, match=words) as caught:
                decide(
                    load_strategy(spec), "pick", None, (1, 2), spec=spec, seat=3, turn=4, time_limit=0.2, clock=clock
                )
            assert str(caught.value).startswith(f"strategy {spec}, seat 3, turn 4, decision pick: ")
            assert time.perf_counter() - started < 2.0
        time.sleep(0.3)  # ticks between decisions do nothing
        assert decide(careful, "pick", None, (7,), spec="c", seat=0, turn=9, clock=clock) == 7
    assert signal.getsignal(signal.SIGALRM) == previous
