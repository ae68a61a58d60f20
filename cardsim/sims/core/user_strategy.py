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

import contextlib
import contextvars
import copy
import importlib.util
import math
import os
import signal
import sys
import threading
import time
import traceback
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from cardsim.errors import UserError

#: Seconds one decision may take before the evaluation stops with a :class:`StrategyError`.
DEFAULT_TIME_LIMIT = 2.0
#: Seconds importing a strategy's file (and making its instance) may take: a file that loops
#: at import stops with one line instead of hanging the command. Generous, since a strategy
#: may compile numba code at import; $CARDSIM_IMPORT_TIME_LIMIT sets another bound.
IMPORT_TIME_LIMIT = float(os.environ.get("CARDSIM_IMPORT_TIME_LIMIT") or 60.0)
#: what one chunk of an evaluation returns (:func:`run_chunks`)
ChunkResult = TypeVar("ChunkResult")

_LOADED: dict[str, Any] = {}
# The source of each strategy file loaded here, by its path as given (shipped to dask workers),
# and the sources received from a client, which a worker loads instead of its own files.
_SOURCES: dict[str, str] = {}
_RECEIVED: dict[str, str] = {}
# Held while strategies are loaded or sources received (tasks may run in threads of one process).
_LOCK = threading.RLock()


def loaded_sources() -> dict[str, str]:
    """The source text of every strategy file this process loaded, by path as given."""
    return dict(_SOURCES)


def shipped_source(path: Path) -> str | None:
    """The source of ``path`` a client sent this worker (None: none was sent)."""
    return _RECEIVED.get(str(path))


def remember_source(path: Path) -> None:
    """Keep the source of the strategy file ``path``, loaded by another process (a strategy's
    own process, :mod:`cardsim.sims.core.isolation`), to ship with tasks as if loaded here."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError):
        return  # the strategy's own process reports a file it cannot read
    with _LOCK:
        _SOURCES[str(path)] = _SOURCES[str(path.resolve())] = text


def fresh_copy(strategy: Any) -> Any:
    """A copy of a loaded strategy as loaded, so every chunk starts from the same state
    whichever worker, process or thread plays it (a strategy that cannot be copied is used as
    it is)."""
    try:
        return copy.deepcopy(strategy)
    except Exception:
        return strategy


def receive_sources(sources: dict[str, str]) -> None:
    """On a worker: load strategies from these sources (a client's files) instead of from
    this machine's files; a strategy whose source changed is loaded again."""
    with _LOCK:
        _receive(sources)


def _receive(sources: dict[str, str]) -> None:
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

    def __init__(
        self, problem: str, *, strategy: str, seat: object, turn: object, decision: str, traceback_text: str = ""
    ) -> None:
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
    once per process (by one thread at a time). A missing file, a file that fails to import or
    a missing name is a :class:`UserError` naming the spec."""
    found = _LOADED.get(spec)
    if found is not None:
        return found
    with _LOCK:
        return _load_strategy(spec)


def _load_strategy(spec: str) -> Any:
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
            with _output_to_stderr():
                exec(compile(shipped, str(path), "exec"), module.__dict__)
        except SystemExit as exc:
            raise UserError(f"strategy {spec}: importing {path} exited (sys.exit({exc.code!r}))") from None
        except Exception as exc:
            raise UserError(f"strategy {spec}: importing {path} failed: {type(exc).__name__}: {exc}") from exc
        found = _instance(module, spec, path, name)
        _LOADED[spec] = found
        return found
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise UserError(f"strategy {spec}: {path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(module_spec)
    try:
        with _time_limit(IMPORT_TIME_LIMIT) as timed, _output_to_stderr():
            found = _import_and_make(module_spec, module, spec, path, name)
    except _TimeUp:
        timed = (True, -math.inf)
    if time.perf_counter() - timed[1] > IMPORT_TIME_LIMIT:
        raise UserError(
            f"strategy {spec}: loading {path} took longer than {IMPORT_TIME_LIMIT:g} s "
            "(does it loop or wait at import?)"
        )
    text = path.read_text(encoding="utf-8", errors="replace")
    _SOURCES[str(path)] = _SOURCES[str(path.resolve())] = text  # as given, and absolute
    _LOADED[spec] = found
    return found


def _import_and_make(module_spec: Any, module: Any, spec: str, path: Path, name: str) -> Any:
    """Run the strategy file and make its instance (a class is called without arguments);
    every failure, ``sys.exit`` included, as one :class:`UserError` line naming ``spec``."""
    try:
        module_spec.loader.exec_module(module)
    except SystemExit as exc:
        raise UserError(f"strategy {spec}: importing {path} exited (sys.exit({exc.code!r}))") from None
    except Exception as exc:
        raise UserError(f"strategy {spec}: importing {path} failed: {type(exc).__name__}: {exc}") from exc
    return _instance(module, spec, path, name)


def _instance(module: Any, spec: str, path: Path, name: str) -> Any:
    """``NAME`` of the loaded ``module``, instantiated without arguments when it is a class."""
    if not hasattr(module, name):
        raise UserError(f"strategy {spec}: {path} defines no {name!r}")
    found = getattr(module, name)
    if isinstance(found, type):
        try:
            found = found()
        except SystemExit as exc:
            raise UserError(f"strategy {spec}: {name}() exited (sys.exit({exc.code!r}))") from None
        except Exception as exc:
            raise UserError(f"strategy {spec}: {name}() failed: {type(exc).__name__}: {exc}") from exc
    return found


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[tuple[bool, float]]:
    """Raise :class:`_TimeUp` inside the block after ``seconds`` where a timer can be armed
    (the main thread); yields (armed, start time) so that the caller can check the time after
    the block otherwise. Whatever timer and SIGALRM handler ran before (a
    :class:`DecisionClock`) are restored afterwards."""
    started = time.perf_counter()
    if not (_TIMER_AVAILABLE and threading.current_thread() is threading.main_thread()):
        yield False, started
        return
    previous_handler = signal.signal(signal.SIGALRM, _raise_time_up)
    previous_timer = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield True, started
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_timer[0] > 0 or previous_timer[1] > 0:
            signal.setitimer(signal.ITIMER_REAL, max(previous_timer[0], 1e-3), previous_timer[1])


@contextlib.contextmanager
def _output_to_stderr() -> Iterator[None]:
    """A strategy's ``print()`` goes to stderr inside the block: stdout carries the command's
    results (one JSON document with --json) and nothing else."""
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = saved


def check_methods(strategy: Any, spec: str, decisions: Sequence[str]) -> None:
    """Refuse a strategy that lacks one of the game's decision methods, before anything runs."""
    missing = [name for name in decisions if not callable(getattr(strategy, name, None))]
    if missing:
        raise UserError(
            f"strategy {spec} has no method {', '.join(missing)}(view, legal); "
            f"a strategy for this game defines {', '.join(decisions)}"
        )


class RemoteStrategy:
    """A strategy that runs elsewhere (another process, :mod:`cardsim.sims.core.isolation`):
    :func:`decide` hands it the whole decision, whose limit and checks apply where it runs."""

    def remote_decide(self, decision: str, view: Any, legal: Sequence[Any], *, seat: object, turn: object) -> Any:
        """One of ``legal``, or a :class:`StrategyError`."""
        raise NotImplementedError


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
    if not (math.isfinite(seconds) and _TIMER_AVAILABLE and threading.current_thread() is threading.main_thread()):
        return False
    if signal.getsignal(signal.SIGALRM) is not _raise_time_up:
        signal.signal(signal.SIGALRM, _raise_time_up)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return True


_TIMER_AVAILABLE = hasattr(signal, "setitimer")


def _same(choice: Any, option: Any) -> bool:
    """Whether a returned choice is the legal option (ints and numpy ints alike; never a bool
    for an int, never a float that merely equals one). :func:`decide` turns a numpy scalar
    choice into the Python value it holds first."""
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


def decide(
    strategy: Any,
    decision: str,
    view: Any,
    legal: Sequence[Any],
    *,
    spec: str,
    seat: object,
    turn: object,
    time_limit: float = DEFAULT_TIME_LIMIT,
    clock: DecisionClock | None = None,
) -> Any:
    """``strategy.<decision>(view, legal)``, checked: the returned choice must be one of
    ``legal`` (returned as the legal option itself). Anything else is a
    :class:`StrategyError` naming ``spec``, ``seat``, ``turn`` and ``decision``. ``clock``: an
    entered :class:`DecisionClock` that stops a decision past ``time_limit`` (a timer armed
    for this one decision otherwise). A :class:`RemoteStrategy` decides where it runs."""

    def fail(problem: str) -> StrategyError:
        return StrategyError(problem, strategy=spec, seat=seat, turn=turn, decision=decision)

    if isinstance(strategy, RemoteStrategy):
        return strategy.remote_decide(decision, view, legal, seat=seat, turn=turn)
    method = getattr(strategy, decision, None)
    if not callable(method):
        raise fail(f"the strategy has no method {decision}(view, legal)")
    started = time.perf_counter()
    saved_stdout = sys.stdout
    sys.stdout = sys.stderr  # a print() in the strategy must not mix with the results
    if clock is not None:
        try:
            clock.deadline = started + time_limit if math.isfinite(time_limit) else 0.0
            try:
                choice = method(view, tuple(legal))
            finally:
                clock.deadline = 0.0
                sys.stdout = saved_stdout
        except _TimeUp:
            raise fail(f"took longer than {time_limit:g} s") from None
        except SystemExit as exc:
            raise fail(f"exited (sys.exit({exc.code!r}))") from None
        except Exception as exc:
            raise fail(f"raised {type(exc).__name__}: {exc}") from exc
    else:
        armed = False
        try:
            armed = _arm(time_limit)
            choice = method(view, tuple(legal))
        except _TimeUp:
            raise fail(f"took longer than {time_limit:g} s") from None
        except SystemExit as exc:
            raise fail(f"exited (sys.exit({exc.code!r}))") from None
        except Exception as exc:
            raise fail(f"raised {type(exc).__name__}: {exc}") from exc
        finally:
            sys.stdout = saved_stdout
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)
    if time.perf_counter() - started > time_limit:
        raise fail(f"took longer than {time_limit:g} s")
    if isinstance(choice, np.generic):  # numpy.bool_, numpy.int64, ... as Python values
        choice = choice.item()
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


#: The label of the progress bar an evaluation shows (None: no bar), set by the command line.
_PROGRESS_LABEL: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "cardsim_evaluation_progress", default=None
)


@contextlib.contextmanager
def evaluation_progress(label: str | None) -> Iterator[None]:
    """Inside the block, :func:`run_chunks` shows a progress bar labelled ``label`` on stderr
    (on a terminal only); None (``--quiet``, or the Python API's default): no bar."""
    token = _PROGRESS_LABEL.set(label)
    try:
        yield
    finally:
        _PROGRESS_LABEL.reset(token)


class _ChunkBar:
    """A rich progress bar of an evaluation's chunks on stderr, drawn only on a terminal and
    when ``label`` is given."""

    def __init__(self, label: str | None) -> None:
        self._bar: Any = None
        self._task: Any = None
        self._label = label or ""
        if label is None:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(stderr=True)
        if console.is_terminal:
            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("chunks"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            self._bar.start()

    def wave(self, total: int) -> None:
        if self._bar is not None:
            self._task = self._bar.add_task(self._label, total=total)

    def advance(self) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.advance(self._task)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def _progress_bar(label: str | None) -> Any:
    return _ChunkBar(label)


def run_chunks(
    function: Callable[..., ChunkResult], arguments: Sequence[tuple[Any, ...]], jobs: int
) -> list[ChunkResult]:
    """``function(*a)`` for every ``a`` of ``arguments`` (an evaluation's chunks), run where
    :func:`cardsim.sims.core.parallel.iter_tasks` runs them (here, ``jobs`` joblib workers or
    the dask cluster); the results in chunk order, whatever the worker count. Shows the
    progress bar asked for with :func:`evaluation_progress`, one step per finished chunk."""
    from cardsim.sims.core.parallel import iter_tasks

    bar = _progress_bar(_PROGRESS_LABEL.get())
    try:
        bar.wave(len(arguments))
        results: list[ChunkResult] = []
        for result in iter_tasks(function, arguments, jobs):
            results.append(result)
            bar.advance()
        return results
    finally:
        bar.close()


def report_traceback_if_asked(error: StrategyError, asked: bool) -> None:
    """Print the strategy's traceback to stderr when ``--traceback`` was given."""
    if asked:
        text = strategy_traceback(error)
        if text:
            sys.stderr.write(text)
