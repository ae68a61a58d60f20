"""A strategy that exits, prints or hangs at import gives one line naming it; numpy scalars
are accepted wherever the Python values they hold are."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.core import user_strategy
from cardsim.sims.core.user_strategy import DecisionClock, StrategyError, decide, load_strategy

MISBEHAVING = '''
import sys

import numpy as np

print("importing: this line must not reach stdout")


class Exits:
    def pick(self, view, legal):
        sys.exit(3)


class Prints:
    def pick(self, view, legal):
        print("thinking out loud")
        return legal[0]


class Patient:
    """Cash'n Guns, every choice a numpy scalar, and chatty."""

    def aim(self, view, legal):
        print("aiming")
        return np.int64(max(legal, key=lambda seat: (view.money[seat], -seat)))

    def card(self, view, legal):
        return np.int32(0 if 0 in legal and view.round < 5 else max(legal))

    def lie_down(self, view, legal):
        return np.bool_(sum(1 for aim in view.targets if aim == view.seat) >= 2)


class ExitsAtLieDown(Patient):
    def lie_down(self, view, legal):
        sys.exit(3)
'''


@pytest.fixture
def strategies(tmp_path):
    path = tmp_path / "misbehaving.py"
    path.write_text(MISBEHAVING)
    return path


@pytest.mark.parametrize("clock", [False, True])
def test_sys_exit_in_a_decision_is_one_strategy_error(strategies, clock):
    strategy = load_strategy(f"{strategies}:Exits")
    with DecisionClock() as ticking:
        with pytest.raises(StrategyError) as error:
            decide(strategy, "pick", None, (0, 1), spec="s.py:Exits", seat=2, turn=5, clock=ticking if clock else None)
    assert str(error.value) == ("strategy s.py:Exits, seat 2, turn 5, decision pick: exited (sys.exit(3))")


def test_print_in_a_strategy_goes_to_stderr(strategies, capsys):
    strategy = load_strategy(f"{strategies}:Prints")
    assert decide(strategy, "pick", None, (4, 5), spec="p", seat=0, turn=0) == 4
    with DecisionClock() as clock:
        decide(strategy, "pick", None, (4, 5), spec="p", seat=0, turn=0, clock=clock)
    out, err = capsys.readouterr()
    assert out == "" and err.count("thinking out loud") == 2
    assert "importing: this line must not reach stdout" in err
    assert sys.stdout is not sys.stderr


def test_numpy_scalars_are_their_python_values():
    class Chooser:
        def __init__(self, value):
            self.value = value

        def pick(self, view, legal):
            return self.value

    cases = [
        (np.bool_(True), (False, True), True),
        (np.int64(3), (1, 3), 3),
        (np.float64(0.5), (0.25, 0.5), 0.5),
        (np.str_("b"), ("a", "b"), "b"),
    ]
    for value, legal, expected in cases:
        chosen = decide(Chooser(value), "pick", None, legal, spec="c", seat=0, turn=0)
        assert chosen == expected and type(chosen) is type(expected)
    with pytest.raises(StrategyError, match="returned True"):  # a bool is never an int
        decide(Chooser(np.bool_(True)), "pick", None, (0, 1), spec="c", seat=0, turn=0)


def test_a_file_that_hangs_or_exits_at_import_is_one_line(tmp_path, monkeypatch):
    hang = tmp_path / "hang.py"
    hang.write_text("while True:\n    pass\n")
    exits = tmp_path / "exits.py"
    exits.write_text("import sys\nsys.exit(4)\n")
    monkeypatch.setattr(user_strategy, "IMPORT_TIME_LIMIT", 0.3)
    with DecisionClock() as clock:  # a clock's handler and timer survive the import limit
        handler = signal.getsignal(signal.SIGALRM)
        with pytest.raises(UserError, match=r"loading .*hang.py took longer than 0.3 s"):
            load_strategy(f"{hang}:X")
        assert signal.getsignal(signal.SIGALRM) is handler
        assert signal.getitimer(signal.ITIMER_REAL)[1] == pytest.approx(clock.tick)
    with pytest.raises(UserError, match=r"importing .*exits.py exited \(sys.exit\(4\)\)"):
        load_strategy(f"{exits}:X")


def _cardsim(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cardsim.cli", *args], capture_output=True, text=True, env=env, check=False
    )


def test_cashnguns_takes_numpy_choices_and_json_stays_one_document(strategies):
    done = _cardsim(
        "cashnguns",
        "evaluate",
        "--strategy",
        f"{strategies}:Patient",
        "--players",
        "4",
        "--n",
        "40",
        "--jobs",
        "2",
        "--json",
        "--quiet",
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["command"] == "cashnguns evaluate"
    assert "aiming" in done.stderr and "importing: this line" in done.stderr


def test_a_strategy_that_exits_in_a_worker_is_one_line_exit_2(strategies):
    done = _cardsim(
        "cashnguns",
        "evaluate",
        "--strategy",
        f"{strategies}:ExitsAtLieDown",
        "--players",
        "4",
        "--n",
        "40",
        "--jobs",
        "2",
        "--quiet",
    )
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "decision lie_down: exited (sys.exit(3))" in errors[0]
    assert "ExitsAtLieDown" in errors[0] and "Traceback" not in done.stderr


def test_a_file_that_hangs_at_import_stops_the_command(tmp_path):
    import os

    hang = tmp_path / "hang.py"
    hang.write_text("import time\ntime.sleep(3600)\n")
    env = {**os.environ, "CARDSIM_IMPORT_TIME_LIMIT": "1"}
    done = _cardsim("gang", "evaluate", "--strategy", f"{hang}:X", "--n", "20", env=env)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: strategy {hang}:X: loading {hang} took longer than 1 s (does it loop or wait at import?)"
    )
