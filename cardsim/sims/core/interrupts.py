"""Ctrl-C and worker processes: one line, finished work kept, never a worker's traceback.

A terminal's Ctrl-C reaches every process of the command (the main process and its workers);
a main process started in the background by a script ignores it, so there it reaches only
the workers a user signals. Either way:

- worker processes start with SIGINT blocked (:func:`start_workers`), so a Ctrl-C during their
  start-up cannot print a traceback from the middle of their imports; once a worker runs a
  task (:func:`quiet_worker`) a Ctrl-C ends it at once, silently;
- the main process then either gets its own KeyboardInterrupt or sees its pool broken
  (:func:`worker_lost_errors`), keeps the finished chunks and says so in one line.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_quiet = False


def worker_lost_errors() -> tuple[type[BaseException], ...]:
    """What a worker pool raises when one of its processes dies (Ctrl-C sent to the workers
    only, a kill): joblib's loky errors and the standard library's, and dask's when it is in
    use (a task whose workers kept dying, a lost scheduler)."""
    from concurrent.futures.process import BrokenProcessPool

    errors: list[type[BaseException]] = [BrokenProcessPool]
    try:
        from joblib.externals.loky.process_executor import (
            BrokenProcessPool as LokyBroken,
        )
        from joblib.externals.loky.process_executor import TerminatedWorkerError
    except ImportError:  # pragma: no cover - joblib is a dependency
        return tuple(errors)
    errors += [LokyBroken, TerminatedWorkerError]
    if "distributed" in sys.modules:  # on a dask cluster: a task that killed its workers, or
        from distributed.comm.core import CommClosedError  # the scheduler gone
        from distributed.scheduler import KilledWorker

        errors += [KilledWorker, CommClosedError]
    return tuple(errors)


def _end_quietly(signum: int, frame: Any) -> None:
    os._exit(128 + signum)  # a worker: no traceback, the main process reports


def quiet_worker() -> None:
    """In a worker process: a Ctrl-C ends it silently (the main process reports it), and
    SIGINT, blocked while it started, is let through (a pending one ends it now)."""
    global _quiet
    if _quiet or threading.current_thread() is not threading.main_thread():
        return
    _quiet = True
    signal.signal(signal.SIGINT, _end_quietly)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def worker_task(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a worker process, made quiet first (:func:`quiet_worker`)."""
    quiet_worker()
    return function(*args)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back in this (main) thread meanwhile: processes started inherit the mask;
    a Ctrl-C meanwhile is delivered here when the block ends."""
    usable = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def start_workers(jobs: int) -> None:
    """Start (or reuse) joblib's ``jobs`` worker processes with SIGINT blocked, each made quiet
    by a first no-op task, so that the pool is up before any chunk is handed out."""
    if jobs <= 1:
        return
    from multiprocessing import resource_tracker

    from joblib import Parallel, delayed

    # started first: its start-up unblocks SIGINT in the caller (Python 3.11 and earlier)
    resource_tracker.ensure_running()
    with _sigint_blocked():
        Parallel(n_jobs=jobs)(delayed(quiet_worker)() for _ in range(jobs))


def stopped_quietly(outputs: Iterable[T]) -> Iterator[T]:
    """``outputs`` (a joblib generator) item by item; however the caller stops early (Ctrl-C,
    an error, dropping this generator), it is closed here with joblib's warning that it
    cancelled the tasks still running left out, since cancelling them is what stopping means."""
    try:
        for item in outputs:  # not ``yield from``: it would close ``outputs`` unfiltered
            yield item
    finally:
        close = getattr(outputs, "close", None)
        if close is not None:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*tasks", category=UserWarning)
                close()
