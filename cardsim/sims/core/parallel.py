"""Where parallel work runs: this machine's joblib workers or a dask cluster, same numbers.

A command or API call chooses the backend once (:func:`using`); every place that plays
episodes in parallel asks :func:`map_tasks` (results in task order) or reads :func:`current`
(the runner), so the choice reaches code several calls down without a ``backend`` argument
on every function between. The numbers never depend on the backend: every task draws from
its own seed (a chunk index), and results are put together in task order.

On a cluster:

- the client connects once per scheduler address (:func:`connect`) and waits at most
  :data:`CONNECT_TIMEOUT_SECONDS` for the scheduler and for a first worker; a bad or silent
  address is one :class:`UserError` line;
- each worker must import the same cardsim code as the client (checked on connecting); it may
  run several tasks at once in threads, which keep no shared scratch state (each thread has
  its own work arrays and strategy hosts), though the compiled kernels hold the GIL, so one
  single-threaded worker process per core (``dask worker ADDRESS --nthreads 1 --nworkers N``)
  is the fast layout;
- a task is a function of cardsim plus its arguments (configs, seeds, small arrays); the
  source of every user strategy file this process has loaded travels with it (see
  :mod:`cardsim.sims.core.user_strategy`), so strategy files need not exist on the workers;
- results come back to the client, which alone writes the results store;
- a worker that dies loses only its unfinished (and not yet fetched) tasks: the scheduler runs
  them again elsewhere, and since a task's result depends only on its arguments the run ends
  with the same numbers.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardsim.errors import UserError

#: Seconds to wait for a dask scheduler to answer, and again for its first worker
#: (``$CARDSIM_CONNECT_TIMEOUT`` overrides it).
CONNECT_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class Backend:
    """Where parallel work runs: ``joblib`` (this machine) or ``dask`` at ``scheduler``."""

    name: str = "joblib"
    scheduler: str | None = None

    @property
    def on_cluster(self) -> bool:
        return self.name == "dask"


_ACTIVE: contextvars.ContextVar[Backend | None] = contextvars.ContextVar("cardsim_backend", default=None)
_CLIENTS: dict[str, Any] = {}


def current() -> Backend:
    """The backend chosen by the innermost :func:`using` (joblib when none)."""
    return _ACTIVE.get() or Backend()


@contextlib.contextmanager
def using(name: str = "joblib", scheduler: str | None = None) -> Iterator[Backend]:
    """Run the parallel work inside on ``name`` (``dask``: the cluster at ``scheduler``,
    connected to here first, so that a bad address fails before any work)."""
    backend = Backend(name, scheduler if name == "dask" else None)
    if backend.on_cluster:
        connect(scheduler)
    token = _ACTIVE.set(backend)
    try:
        yield backend
    finally:
        _ACTIVE.reset(token)


def code_digest() -> str:
    """16 hex digits hashing every source file of the cardsim package (its version among
    them, in ``cardsim/__init__.py``), so a client can tell whether a worker would compute the
    same numbers."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _worker_code() -> str:
    """On a worker: its cardsim code digest."""
    return code_digest()


def connect(scheduler: str | None) -> Any:
    """The dask client of ``scheduler`` (one per address and process), checked: the scheduler
    answers, a worker is there and every worker runs this cardsim code. Each failure is one
    :class:`UserError` line, within :data:`CONNECT_TIMEOUT_SECONDS` per wait."""
    if not scheduler:
        raise UserError("--backend dask needs --scheduler tcp://host:port")
    client = _CLIENTS.get(scheduler)
    if client is not None and client.status == "running":
        return client
    try:
        from dask.distributed import Client as DaskClient
    except ImportError:
        raise UserError("the dask backend needs the optional extra: pip install 'cardsim[distributed]'") from None
    # distributed's Client is unannotated: its methods are called as untyped (Any)
    make_client: Callable[..., Any] = DaskClient
    seconds = environment_timeout()
    try:
        client = make_client(scheduler, timeout=f"{seconds:g}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        if len(reason) > 160:
            reason = reason[:157] + "..."
        raise UserError(
            f"--scheduler {scheduler}: no dask scheduler answered within {seconds:g} s ({reason})"
        ) from None
    try:
        client.wait_for_workers(1, timeout=seconds)
    except (OSError, TimeoutError):
        client.close()
        raise UserError(
            f"--scheduler {scheduler}: the scheduler has no worker after "
            f"{seconds:g} s; start some with: dask worker {scheduler}"
        ) from None
    try:
        codes = client.run(_worker_code)
    except Exception as exc:  # a worker without cardsim cannot even unpickle the call
        client.close()
        raise UserError(
            f"--scheduler {scheduler}: a worker cannot run cardsim "
            f"({type(exc).__name__}: {exc}); install this cardsim on every worker"
        ) from None
    mine = code_digest()
    differing = sorted(address for address, code in codes.items() if code != mine)
    if differing:
        client.close()
        raise UserError(
            f"--scheduler {scheduler}: worker {differing[0]} runs other cardsim code "
            f"than this machine ({len(differing)} of {len(codes)} worker(s)); "
            "install the same cardsim on every worker"
        )
    _CLIENTS[scheduler] = client
    return client


def disconnect() -> None:
    """Close every client this process opened (tests; a command's process just exits)."""
    while _CLIENTS:
        _, client = _CLIENTS.popitem()
        with contextlib.suppress(Exception):
            client.close()


def cluster_cores(client: Any) -> int:
    """The threads the cluster's workers run tasks on (at least 1)."""
    return max(1, sum(int(count) for count in client.nthreads().values()))


def _remote(function: Callable[..., Any], task: Sequence[Any], sources: dict[str, str]) -> Any:
    """On a worker: the shipped strategy sources made loadable, then ``function(*task)``."""
    from cardsim.sims.core.user_strategy import receive_sources

    receive_sources(sources)
    return function(*task)


def submit_all(client: Any, function: Callable[..., Any], tasks: Sequence[Sequence[Any]]) -> list[Any]:
    """One dask future per task (never cached: ``pure=False``), each carrying the user strategy
    sources loaded here."""
    from cardsim.sims.core.user_strategy import loaded_sources

    sources = loaded_sources()
    return [client.submit(_remote, function, tuple(task), sources, pure=False) for task in tasks]


def _on_cluster(backend: Backend, function: Callable[..., Any], tasks: Sequence[Sequence[Any]]) -> Iterator[Any]:
    client = connect(backend.scheduler)
    futures = submit_all(client, function, tasks)
    try:
        for future in futures:
            yield future.result()
    finally:
        pending = [f for f in futures if not f.done()]
        if pending:
            with contextlib.suppress(Exception):
                client.cancel(pending)


def _on_joblib(function: Callable[..., Any], tasks: Sequence[Sequence[Any]], jobs: int) -> Iterator[Any]:
    from joblib import Parallel, delayed

    from cardsim.sims.core.interrupts import start_workers, stopped_quietly, worker_task

    workers = min(jobs, len(tasks))
    start_workers(workers)  # a Ctrl-C while they start: no traceback from them
    yield from stopped_quietly(
        Parallel(n_jobs=workers, return_as="generator")(delayed(worker_task)(function, *task) for task in tasks)
    )


def iter_tasks(function: Callable[..., Any], tasks: Iterable[Sequence[Any]], jobs: int) -> Iterator[Any]:
    """``function(*task)`` for each task, yielded in task order as they are ready: on the
    cluster when the current backend is dask (whatever ``jobs``), else in ``jobs`` joblib
    worker processes (one: here, in this process)."""
    tasks = list(tasks)
    backend = current()
    if backend.on_cluster:
        return _on_cluster(backend, function, tasks)
    if jobs <= 1 or len(tasks) <= 1:
        return (function(*task) for task in tasks)
    return _on_joblib(function, tasks, jobs)


def map_tasks(function: Callable[..., Any], tasks: Iterable[Sequence[Any]], jobs: int) -> list[Any]:
    """``[function(*task) for task in tasks]``, run as :func:`iter_tasks` runs them."""
    return list(iter_tasks(function, tasks, jobs))


def parallel_jobs(jobs: int) -> int:
    """How many tasks to hand out at once: ``jobs`` here, the cluster's threads on dask."""
    backend = current()
    if backend.on_cluster:
        return max(jobs, cluster_cores(connect(backend.scheduler)))
    return jobs


def environment_timeout() -> float:
    """:data:`CONNECT_TIMEOUT_SECONDS`, or ``$CARDSIM_CONNECT_TIMEOUT`` when set (seconds)."""
    value = os.environ.get("CARDSIM_CONNECT_TIMEOUT")
    try:
        return float(value) if value else CONNECT_TIMEOUT_SECONDS
    except ValueError:
        raise UserError(f"CARDSIM_CONNECT_TIMEOUT must be a number of seconds, got {value!r}") from None
