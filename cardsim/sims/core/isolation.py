"""Strategies from files played in their own processes, seeing only a copy of their view.

A strategy loaded into the engine's process can reach what its view leaves out: the caller's
frames (``sys._getframe``), every live object (``gc``), the array behind a view (``.base``).
:class:`IsolatedStrategy` loads ``FILE.py:NAME`` in a fresh interpreter (a *host*, started
with ``python -m cardsim.sims.core.isolation``) that imports nothing of the engine but the
view's own class. The engine sends each decision as a pickle (the decision name, a copy of the
view, the legal choices, seat and turn) and reads back the index of the legal choice
(:func:`~cardsim.sims.core.user_strategy.decide` given an :class:`IsolatedStrategy` does
this, so every game's engine can seat one); the host
calls the strategy through :func:`~cardsim.sims.core.user_strategy.decide`, so the
per-decision time limit and every check of the in-process path stay, and a failure comes back
as one :class:`~cardsim.sims.core.user_strategy.StrategyError` with the strategy's traceback as
text. A host is started once per thread and spec (:func:`isolated_strategy`) and stopped
when the process exits.
"""

from __future__ import annotations

import atexit
import copy
import os
import pickle
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from cardsim.errors import UserError
from cardsim.sims.core.user_strategy import (
    DEFAULT_TIME_LIMIT,
    DecisionClock,
    RemoteStrategy,
    StrategyError,
    check_methods,
    decide,
    load_strategy,
    receive_sources,
    remember_source,
    shipped_source,
    split_spec,
    strategy_traceback,
)

#: Seconds the engine waits for a host beyond the decision's own limit before giving up on it
#: (the host enforces the limit itself; this catches a host that no longer answers).
_GRACE = 10.0
_HOSTS: dict[tuple[str, tuple[str, ...], float, bool, int], IsolatedStrategy] = {}
#: The message that starts a host's strategy again as loaded (no decision has this name).
_RESET = "<reset>"


class _Forward:
    """A decision method of an isolated strategy, as the engines see it (so ``getattr`` and
    ``callable`` tell which decisions the strategy defines); calling it asks the host."""

    def __init__(self, owner: IsolatedStrategy, name: str) -> None:
        self.owner, self.name = owner, name

    def __call__(self, view: Any, legal: Sequence[Any]) -> Any:
        return self.owner.remote_decide(self.name, view, legal, seat="?", turn="?")


class IsolatedStrategy(RemoteStrategy):
    """A user strategy running in a host process; :meth:`remote_decide` asks it one decision
    (:func:`~cardsim.sims.core.user_strategy.decide` does, given this object). The decision
    methods the strategy defines appear as attributes, so an engine can tell which it has."""

    def __init__(
        self, spec: str, decisions: Sequence[str], time_limit: float = DEFAULT_TIME_LIMIT, require: bool = True
    ) -> None:
        path, _ = split_spec(spec)
        shipped = shipped_source(path)  # on a dask worker: the client's file, sent with the task
        if shipped is None:
            if not path.is_file():
                raise UserError(f"strategy {spec}: no file {path}")
            remember_source(path)  # tasks sent to a dask cluster carry it
        self.spec, self.time_limit = spec, time_limit
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
        env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardsim.sims.core.isolation",
                str(theirs.fileno()),
                spec,
                repr(float(time_limit)),
                *decisions,
            ],
            pass_fds=(theirs.fileno(),),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno() if _has_fileno(sys.stderr) else subprocess.DEVNULL,
        )
        theirs.close()
        self._connection = Connection(ours.detach())
        self._connection.send_bytes(pickle.dumps({str(path): shipped} if shipped is not None else {}))
        self._batch: list[tuple[tuple[Any, ...], object, object, str]] = []
        reply = self._receive(60.0, "loading")
        if reply[0] != "ready":
            self.close()
            raise UserError(reply[1])
        for name in reply[1]:
            setattr(self, name, _Forward(self, name))
        if require:
            check_methods(self, spec, decisions)

    def __deepcopy__(self, memo: dict[int, Any]) -> IsolatedStrategy:
        return self  # the host is the strategy; a copy would be another process

    def __copy__(self) -> IsolatedStrategy:
        return self

    def _receive(self, timeout: float, what: str) -> tuple[Any, ...]:
        if not self._connection.poll(timeout):
            self.close()
            raise UserError(f"strategy {self.spec}: its process did not answer ({what})")
        try:
            reply: tuple[Any, ...] = pickle.loads(self._connection.recv_bytes())
            return reply
        except (EOFError, OSError):
            self.close()
            raise UserError(f"strategy {self.spec}: its process stopped ({what})") from None

    def remote_decide(self, decision: str, view: Any, legal: Sequence[Any], *, seat: object, turn: object) -> Any:
        """The strategy's choice (one of ``legal``) at this decision, or a :class:`StrategyError`."""
        legal = tuple(legal)
        self._connection.send_bytes(pickle.dumps((decision, view, legal, seat, turn), protocol=5))
        reply = self._receive(self.time_limit + _GRACE, f"decision {decision}")
        if reply[0] == "ok":
            return legal[reply[1]]
        problem, text = reply[1], reply[2]
        error = StrategyError(problem, strategy=self.spec, seat=seat, turn=turn, decision=decision, traceback_text=text)
        raise error

    def send_batch(self, asked: Sequence[tuple[int, str, Any, Sequence[Any], object, object]]) -> None:
        """Send several decisions at once, each ``(lane, decision, view, legal, seat, turn)``
        of a different game (the host keeps one strategy instance per lane); the answers come
        from :meth:`receive_batch`."""
        self._batch = [(tuple(legal), seat, turn, decision) for _, decision, _, legal, seat, turn in asked]
        message = [
            (lane, decision, view, tuple(legal), seat, turn) for lane, decision, view, legal, seat, turn in asked
        ]
        self._connection.send_bytes(pickle.dumps(("batch", message), protocol=5))

    def receive_batch(self) -> list[Any]:
        """The choices of the decisions last sent by :meth:`send_batch`, in their order; the
        first failure among them is a :class:`StrategyError`."""
        batch, self._batch = self._batch, []
        reply = self._receive(self.time_limit * len(batch) + _GRACE, "a batch of decisions")
        choices = []
        for (legal, seat, turn, decision), answer in zip(batch, reply, strict=False):
            if answer[0] != "ok":
                raise StrategyError(
                    answer[1], strategy=self.spec, seat=seat, turn=turn, decision=decision, traceback_text=answer[2]
                )
            choices.append(legal[answer[1]])
        return choices

    def reset(self) -> None:
        """Start the strategy again as loaded (its state, and every lane's, forgotten), so a
        task's play does not depend on the tasks this process served before."""
        self._connection.send_bytes(pickle.dumps((_RESET,), protocol=5))
        self._receive(_GRACE, "reset")

    def close(self) -> None:
        """Stop the host process."""
        try:
            self._connection.close()
        except OSError:
            pass
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


def _has_fileno(stream: Any) -> bool:
    """Whether ``stream`` is a real file (a strategy's prints go to stderr, never into the
    command's output document)."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def isolated_strategy(
    spec: str,
    decisions: Sequence[str],
    time_limit: float = DEFAULT_TIME_LIMIT,
    require: bool = True,
    *,
    fresh: bool = False,
) -> IsolatedStrategy:
    """The host of ``spec`` for this thread of this process, started on first use (a file that
    fails to load, or, with ``require``, lacks one of ``decisions``, is a :class:`UserError`
    naming the spec). Each thread has its own hosts, since a host answers one conversation at a
    time and keeps its strategy's state. With ``fresh``, a host already running starts its
    strategy again as loaded (:meth:`IsolatedStrategy.reset`): a task that asks for fresh
    hosts plays the same whatever this process played before."""
    key = (spec, tuple(decisions), float(time_limit), require, threading.get_ident())
    host = _HOSTS.get(key)
    if host is None or host._process.poll() is not None:
        host = _HOSTS[key] = IsolatedStrategy(spec, decisions, time_limit, require)
    elif fresh:
        host.reset()
    return host


@atexit.register
def close_hosts() -> None:
    """Stop every host this process started."""
    for host in list(_HOSTS.values()):
        host.close()
    _HOSTS.clear()


def _serve(connection: Connection, spec: str, time_limit: float, decisions: Sequence[str]) -> None:
    """The host's loop: take the sources the engine sends (a dask client's file, or none),
    load the strategy, then answer decisions until the engine hangs up."""
    try:
        receive_sources(pickle.loads(connection.recv_bytes()))
    except (EOFError, OSError):
        return
    try:
        loaded = load_strategy(spec)
    except UserError as exc:
        connection.send_bytes(pickle.dumps(("error", str(exc))))
        return
    strategy = _fresh(loaded)
    defined = [name for name in decisions if callable(getattr(strategy, name, None))]
    connection.send_bytes(pickle.dumps(("ready", defined)))
    lanes: dict[int, Any] = {}

    def answer(
        instance: Any, decision: str, view: Any, legal: tuple[Any, ...], seat: object, turn: object
    ) -> tuple[Any, ...]:
        try:
            choice = decide(
                instance, decision, view, legal, spec=spec, seat=seat, turn=turn, time_limit=time_limit, clock=clock
            )
        except StrategyError as exc:
            return ("error", exc.problem, strategy_traceback(exc))
        return ("ok", next(i for i, option in enumerate(legal) if option is choice))

    with DecisionClock() as clock:
        while True:
            try:
                message = pickle.loads(connection.recv_bytes())
            except (EOFError, OSError):
                return
            if message[0] == _RESET:
                strategy = _fresh(loaded)
                lanes.clear()
                reply: Any = ("ok",)
            elif message[0] == "batch":
                replies = []
                for lane, decision, view, legal, seat, turn in message[1]:
                    if lane not in lanes:
                        lanes[lane] = _fresh(loaded)
                    replies.append(answer(lanes[lane], decision, view, legal, seat, turn))
                    if replies[-1][0] != "ok":
                        break
                reply = replies
            else:
                reply = answer(strategy, *message)
            del message
            connection.send_bytes(pickle.dumps(reply))


def _fresh(prototype: Any) -> Any:
    """A new instance like the loaded strategy (a deep copy of it as loaded; the loaded
    instance itself when it cannot be copied)."""
    try:
        return copy.deepcopy(prototype)
    except Exception:
        return prototype


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the engine, which hangs up on us
    _fd, _spec, _limit, *_decisions = sys.argv[1:]
    _serve(Connection(int(_fd)), _spec, float(_limit), _decisions)
