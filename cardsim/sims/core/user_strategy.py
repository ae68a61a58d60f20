"""Strategies users write: load one from a Python file and call its decisions safely.

A user strategy is an object (or a class, instantiated without arguments) named ``NAME`` in a
Python file ``FILE.py``, given on the command line as ``FILE.py:NAME``. Each game documents its
view and decisions in ``cardsim/sims/<game>/strategy.py``: a decision is a method
``decision(view, legal) -> choice`` that receives the seat's public view (a frozen dataclass of
public information and the seat's own cards, never a hidden card) and the legal choices, and
returns one of them. :func:`decide` calls it and turns every way it can go wrong (an exception,
an illegal or mistyped choice, a decision that takes too long) into one :class:`StrategyError`
naming the strategy, seat, turn and decision; the strategy's own traceback stays attached as
the error's cause for ``--traceback``.

Workers load the strategy again from its spec (:func:`load_strategy` keeps one instance per
process and spec), so a strategy never needs to be picklable. On a dask cluster the file's
source travels with each task (:func:`loaded_sources`, :func:`receive_sources`), so the
workers need not see the file; modules it imports must be installed on them.
"""

from __future__ import annotations

import importlib.util
import math
import signal
import sys
import threading
import time
import traceback
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cardsim.errors import UserError

#: Seconds one decision may take before the evaluation stops with a :class:`StrategyError`.
DEFAULT_TIME_LIMIT = 2.0

_LOADED: dict[str, Any] = {}
# The source of each strategy file loaded here, by its path as given (shipped to dask workers),
# and the sources received from a client, which a worker loads instead of its own files.
_SOURCES: dict[str, str] = {}
_RECEIVED: dict[str, str] = {}


def loaded_sources() -> dict[str, str]:
    """The source text of every strategy file this process loaded, by path as given."""
    return dict(_SOURCES)


def receive_sources(sources: dict[str, str]) -> None:
    """On a worker: load strategies from these sources (a client's files) instead of from
    this machine's files; a strategy whose source changed is loaded again."""
    for path, text in sources.items():
        if _RECEIVED.get(path) != text:
            _RECEIVED[path] = text
            for spec in [s for s in _LOADED if s.rpartition(":")[0] == path]:
                del _LOADED[spec]


class StrategyError(UserError):
    """A user strategy failed at one decision: raised, chose illegally, or ran too long.

    Its message is one line naming the strategy, seat, turn, decision and what went wrong;
    ``__cause__`` holds the strategy's own exception where there is one (``traceback_text``
    its traceback, when the failure came back from a worker process).
    """

    def __init__(self, problem: str, *, strategy: str, seat: object, turn: object, decision: str,
                 traceback_text: str = "") -> None:
        self.problem, self.strategy, self.seat, self.turn, self.decision = problem, strategy, seat, turn, decision
        #: The strategy's traceback as text, for a failure that happened in a worker process.
        self.traceback_text = traceback_text
        super().__init__(f"strategy {strategy}, seat {seat}, turn {turn}, decision {decision}: {problem}")


def split_spec(spec: str) -> tuple[Path, str]:
    """``FILE.py:NAME`` as (path, name); a spec of another form is a :class:`UserError`."""
    if not isinstance(spec, str) or ":" not in spec:
        raise UserError(f"strategy must be given as FILE.py:NAME, not {spec!r}")
    path_text, _, name = spec.rpartition(":")
    if not path_text.endswith(".py") or not name.isidentifier():
        raise UserError(f"strategy must be given as FILE.py:NAME, not {spec!r}")
    return Path(path_text), name


def load_strategy(spec: str) -> Any:
    """The strategy ``NAME`` of ``FILE.py`` (a class is instantiated without arguments), loaded
    once per process. A missing file, a file that fails to import or a missing name is a
    :class:`UserError` naming the spec."""
    if spec in _LOADED:
        return _LOADED[spec]
    path, name = split_spec(spec)
    shipped = _RECEIVED.get(str(path))
    if shipped is None and not path.is_file():
        raise UserError(f"strategy {spec}: no file {path}")
    module_name = f"cardsim_user_strategy_{abs(hash(str(path.resolve())))}"
    if shipped is not None:  # a client's file, sent with the task (dask workers)
        module = types.ModuleType(module_name)
        module.__file__ = str(path)
        try:
            exec(compile(shipped, str(path), "exec"), module.__dict__)
        except Exception as exc:
            raise UserError(f"strategy {spec}: importing {path} failed: {type(exc).__name__}: {exc}") from exc
    else:
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        if module_spec is None or module_spec.loader is None:
            raise UserError(f"strategy {spec}: {path} cannot be loaded as Python")
        module = importlib.util.module_from_spec(module_spec)
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:
            raise UserError(f"strategy {spec}: importing {path} failed: {type(exc).__name__}: {exc}") from exc
        text = path.read_text(encoding="utf-8", errors="replace")
        _SOURCES[str(path)] = _SOURCES[str(path.resolve())] = text  # as given, and absolute
    if not hasattr(module, name):
        raise UserError(f"strategy {spec}: {path} defines no {name!r}")
    found = getattr(module, name)
    if isinstance(found, type):
        try:
            found = found()
        except Exception as exc:
            raise UserError(f"strategy {spec}: {name}() failed: {type(exc).__name__}: {exc}") from exc
    _LOADED[spec] = found
    return found


def check_methods(strategy: Any, spec: str, decisions: Sequence[str]) -> None:
    """Refuse a strategy that lacks one of the game's decision methods, before anything runs."""
    missing = [name for name in decisions if not callable(getattr(strategy, name, None))]
    if missing:
        raise UserError(f"strategy {spec} has no method {', '.join(missing)}(view, legal); "
                        f"a strategy for this game defines {', '.join(decisions)}")


class _TimeUp(BaseException):
    """Raised inside a decision by the interval timer (a BaseException, so a strategy's own
    ``except Exception`` cannot swallow it)."""


def _raise_time_up(signum: int, frame: object) -> None:
    raise _TimeUp


def _arm(seconds: float) -> bool:
    """Start the interval timer for one decision where it is available (the main thread of a
    process, as in every worker); False where the caller must check the elapsed time instead.
    The handler is installed once per process and stays: it only acts while a decision's timer
    is armed."""
    if not (math.isfinite(seconds) and _TIMER_AVAILABLE
            and threading.current_thread() is threading.main_thread()):
        return False
    if signal.getsignal(signal.SIGALRM) is not _raise_time_up:
        signal.signal(signal.SIGALRM, _raise_time_up)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return True


_TIMER_AVAILABLE = hasattr(signal, "setitimer")


def _same(choice: Any, option: Any) -> bool:
    """Whether a returned choice is the legal option (ints and numpy ints alike; never a bool
    for an int, never a float that merely equals one)."""
    if isinstance(option, (int, np.integer)) and not isinstance(option, bool):
        return isinstance(choice, (int, np.integer)) and not isinstance(choice, (bool, np.bool_)) and choice == option
    return type(choice) is type(option) and choice == option


class DecisionClock:
    """One interval timer for a whole batch of decisions, instead of one per decision.

    Arming a timer for every decision costs more than a trivial strategy's decision itself.
    Inside ``with DecisionClock() as clock``, :func:`decide` given ``clock=clock`` only notes
    when its decision must end; a timer ticking every ``tick`` seconds stops a decision past
    that time (so a runaway decision is stopped at most ``tick`` after its limit) and does
    nothing between decisions. Where no timer can be armed (not the main thread, no
    ``setitimer``), decisions are timed after they return, as without a clock. Leaving the
    block stops the timer and restores the previous SIGALRM handler.
    """

    def __init__(self, tick: float = 0.1) -> None:
        self.tick = tick
        #: ``time.perf_counter()`` past which the running decision stops; 0.0 between decisions.
        self.deadline = 0.0
        self.armed = False
        self._previous: Any = None

    def _on_tick(self, signum: int, frame: object) -> None:
        if self.deadline and time.perf_counter() > self.deadline:
            raise _TimeUp

    def __enter__(self) -> DecisionClock:
        if _TIMER_AVAILABLE and threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGALRM, self._on_tick)
            signal.setitimer(signal.ITIMER_REAL, self.tick, self.tick)
            self.armed = True
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.deadline = 0.0
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous if self._previous is not None else signal.SIG_DFL)
            self.armed = False


def decide(strategy: Any, decision: str, view: Any, legal: Sequence[Any], *, spec: str, seat: object,
           turn: object, time_limit: float = DEFAULT_TIME_LIMIT, clock: DecisionClock | None = None) -> Any:
    """``strategy.<decision>(view, legal)``, checked: the returned choice must be one of
    ``legal`` (returned as the legal option itself). Anything else is a
    :class:`StrategyError` naming ``spec``, ``seat``, ``turn`` and ``decision``. ``clock``: an
    entered :class:`DecisionClock` that stops a decision past ``time_limit`` (a timer armed
    for this one decision otherwise)."""

    def fail(problem: str) -> StrategyError:
        return StrategyError(problem, strategy=spec, seat=seat, turn=turn, decision=decision)

    method = getattr(strategy, decision, None)
    if not callable(method):
        raise fail(f"the strategy has no method {decision}(view, legal)")
    started = time.perf_counter()
    if clock is not None:
        try:
            clock.deadline = started + time_limit if math.isfinite(time_limit) else 0.0
            try:
                choice = method(view, tuple(legal))
            finally:
                clock.deadline = 0.0
        except _TimeUp:
            raise fail(f"took longer than {time_limit:g} s") from None
        except Exception as exc:
            raise fail(f"raised {type(exc).__name__}: {exc}") from exc
    else:
        armed = False
        try:
            armed = _arm(time_limit)
            choice = method(view, tuple(legal))
        except _TimeUp:
            raise fail(f"took longer than {time_limit:g} s") from None
        except Exception as exc:
            raise fail(f"raised {type(exc).__name__}: {exc}") from exc
        finally:
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)
    if time.perf_counter() - started > time_limit:
        raise fail(f"took longer than {time_limit:g} s")
    for option in legal:
        if _same(choice, option):
            return option
    shown = ", ".join(map(repr, list(legal)[:12])) + (", ..." if len(legal) > 12 else "")
    raise fail(f"returned {choice!r} ({type(choice).__name__}), not one of the legal choices ({shown})")


def strategy_traceback(error: BaseException) -> str:
    """The strategy's own traceback behind a :class:`StrategyError` (empty when it has none),
    for ``--traceback``."""
    cause = error.__cause__
    if cause is None:
        return getattr(error, "traceback_text", "")
    return "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))


def paired_difference(user: np.ndarray, builtin: np.ndarray) -> dict[str, float]:
    """The mean of ``user - builtin`` over paired episodes (the same deals, the same seats)
    with its 95% normal interval: the episode is the unit, so the pairing removes the deal's
    own variance. Values are per-episode outcomes (1/0 for a win, or a score)."""
    user = np.asarray(user, dtype=np.float64)
    builtin = np.asarray(builtin, dtype=np.float64)
    if user.shape != builtin.shape or user.ndim != 1 or user.size == 0:
        raise ValueError("paired outcomes must be two equal, non-empty 1-D arrays")
    diff = user - builtin
    n = diff.size
    mean = float(diff.mean())
    half = 1.959963984540054 * float(diff.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return {"n": float(n), "difference": mean, "lo": mean - half, "hi": mean + half}


def report_traceback_if_asked(error: StrategyError, asked: bool) -> None:
    """Print the strategy's traceback to stderr when ``--traceback`` was given."""
    if asked:
        text = strategy_traceback(error)
        if text:
            sys.stderr.write(text)
