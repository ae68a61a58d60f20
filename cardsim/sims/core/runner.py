"""The game-agnostic runner: chunks, seeds, parallel backends, the store and the precision stop.

``n`` episodes are cut into chunks of a fixed size; chunk ``i`` is always played with the
generator of ``SeedSequence(seed).spawn(...)[i]`` (see :mod:`cardsim.sims.core.seeds`), and the
episode table is the concatenation of chunks 0, 1, 2... cut to ``n`` rows. Every chunk is full
size, so extending a run to a larger ``n`` only adds chunks and never changes the first rows.
Hence the table is bit-identical for any worker count, completion order or backend.
"""

from __future__ import annotations

import math
import platform
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from cardsim import __version__
from cardsim.errors import Interrupted, UserError
from cardsim.sims.core.fingerprint import code_fingerprint
from cardsim.sims.core.interrupts import (
    start_workers,
    stopped_quietly,
    worker_lost_errors,
    worker_task,
)
from cardsim.sims.core.parallel import cluster_cores
from cardsim.sims.core.parallel import current as current_backend
from cardsim.sims.core.seeds import chunk_generator, validate_root_seed
from cardsim.sims.core.simulator import Simulator, config_summary, config_to_dict
from cardsim.sims.core.store import StoredRun, StoreWriteError, open_run
from cardsim.stats import Z95, wilson_half_width

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

BACKENDS = ("joblib", "dask")
DEFAULT_MAX_N = 1_000_000
MANIFEST_SAVE_SECONDS = 1.0  # chunk hashes reach the manifest at least this often


@dataclass(frozen=True)
class RunResult:
    """What a run produced: the episode table, the manifest, the stop rule and the folder."""

    episodes: pl.DataFrame
    manifest: dict[str, Any]
    stop_rule: str
    path: Path | None


def run_id(result: RunResult) -> str:
    """The run's store id (the same id whether or not it was stored)."""
    if result.path is not None:
        return result.path.name
    from cardsim.sims.core.store import run_key

    identity = result.manifest.get("identity", result.manifest)
    return f"{identity['game']}-{run_key(identity)}"


def play_chunk(simulator: Simulator, config: Any, seed: int, index: int, size: int) -> tuple[int, pl.DataFrame]:
    """Play chunk ``index``: ``size`` episodes from that chunk's own generator (runs in workers)."""
    frame = simulator.run_batch(config, chunk_generator(seed, index), size)
    if frame.height != size:
        raise RuntimeError(f"{simulator.name}.run_batch returned {frame.height} rows, not {size}")
    return index, frame


Chunks = Generator[tuple[int, pl.DataFrame], None, None]
ChunkExecutor = Callable[[list[int]], Chunks]


def compile_one_game(simulator: Simulator, configs: Sequence[Any]) -> str:
    """Play one episode of each config and discard it, so that numba compiles (and caches on
    disk) every kernel the configs reach; returns the game's name."""
    for config in configs:
        simulator.run_batch(config, chunk_generator(0, 0), 1)
    return simulator.name


def compile_ahead(
    work: Sequence[tuple[Simulator, Sequence[Any]]],
    jobs: int,
    on_start: Callable[[], None] | None = None,
) -> None:
    """Compile several games' kernels at once, one game per worker process.

    A first run after installing compiles every numba kernel; within one game that work is
    sequential, and with several workers each would compile the same kernels in parallel.
    Spreading the games over the workers instead compiles each kernel once and uses every
    core; the later runs load the kernels from numba's disk cache. Results are unaffected (the
    episodes played here are thrown away). Does nothing with one job or one game; otherwise
    calls ``on_start`` first (e.g. to tell the user why the first results take a while).
    """
    if jobs <= 1 or len(work) <= 1:
        return
    if on_start is not None:
        on_start()
    from joblib import Parallel, delayed

    Parallel(n_jobs=min(jobs, len(work)))(delayed(compile_one_game)(simulator, configs) for simulator, configs in work)


def _sequential(simulator: Simulator, config: Any, seed: int, size: int) -> ChunkExecutor:
    def execute(indices: list[int]) -> Chunks:
        for index in indices:
            yield play_chunk(simulator, config, seed, index, size)

    return execute


def _joblib(simulator: Simulator, config: Any, seed: int, size: int, jobs: int) -> ChunkExecutor:
    from joblib import Parallel, delayed

    def execute(indices: list[int]) -> Chunks:
        start_workers(jobs)  # a Ctrl-C while they start: no traceback from them
        parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
        yield from stopped_quietly(
            parallel(delayed(worker_task)(play_chunk, simulator, config, seed, index, size) for index in indices)
        )

    return execute


def _dask(simulator: Simulator, config: Any, seed: int, size: int, scheduler: str | None) -> tuple[ChunkExecutor, Any]:
    """Chunks played on the dask cluster at ``scheduler``, handed back as they finish (the
    client writes the store); a chunk lost with a dying worker is played again elsewhere."""
    from cardsim.sims.core.parallel import connect, submit_all

    client = connect(scheduler)

    def execute(indices: list[int]) -> Chunks:
        from dask.distributed import as_completed as dask_as_completed

        # distributed's as_completed is unannotated
        as_completed: Callable[..., Iterator[Any]] = dask_as_completed

        futures = submit_all(client, play_chunk, [(simulator, config, seed, index, size) for index in indices])
        try:
            for future in as_completed(futures, loop=client.loop):
                yield future.result()
        finally:
            pending = [f for f in futures if not f.done()]
            if pending:
                client.cancel(pending)

    return execute, client


def _check_options(n: int, jobs: int, backend: str, precision: float | None, max_n: int | None, size: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UserError(f"n must be a positive whole number, got {n!r}")
    if jobs < 1:
        raise UserError(f"jobs must be at least 1, got {jobs}")
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if precision is not None and not 0 < precision < 0.5:
        raise UserError(f"precision must be between 0 and 0.5, got {precision}")
    if max_n is not None and max_n < n:
        raise UserError(f"max-n ({max_n}) must be at least n ({n})")
    if size < 1:
        raise UserError(f"chunk size must be at least 1, got {size}")


class _Progress:
    """A rich progress bar with ETA on stderr, shown only on a terminal and when asked for."""

    def __init__(self, enabled: bool, label: str) -> None:
        self._bar: Progress | None = None
        if enabled:
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
        self._label = label
        self._task: TaskID | None = None

    def wave(self, total: int) -> None:
        if self._bar is not None:
            if self._task is not None:
                self._bar.remove_task(self._task)
            self._task = self._bar.add_task(self._label, total=total)

    def advance(self) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.advance(self._task)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


class _Chunks:
    """The chunks of one run: what is in memory, what is stored, and how to compute the rest."""

    def __init__(
        self,
        execute: ChunkExecutor,
        stored: StoredRun | None,
        progress: _Progress,
        on_chunk: Callable[[int], None] | None,
    ) -> None:
        self.frames: dict[int, pl.DataFrame] = {}
        self.execute = execute
        self.stored = stored
        self.on_disk = set(stored.trusted_chunk_indices()) if stored else set()
        self.progress = progress
        self.on_chunk = on_chunk
        self.computed = 0
        self.saved_at = time.monotonic()

    def ensure(self, count: int) -> None:
        """Make chunks 0..count-1 available: read stored ones, compute the missing ones."""
        missing = [i for i in range(count) if i not in self.frames and i not in self.on_disk]
        for index in range(count):
            if index not in self.frames and index in self.on_disk and self.stored is not None:
                self.frames[index] = self.stored.read_chunk(index)
        if not missing:
            return
        self.progress.wave(len(missing))
        results = self.execute(missing)
        try:
            for index, frame in results:
                self.frames[index] = frame
                if self.stored is not None:
                    self.stored.write_chunk(index, frame)
                    self.on_disk.add(index)
                    if time.monotonic() - self.saved_at > MANIFEST_SAVE_SECONDS:
                        self.stored.save_manifest()  # so a hard kill keeps most chunks trusted
                        self.saved_at = time.monotonic()
                self.computed += 1
                self.progress.advance()
                if self.on_chunk is not None:
                    self.on_chunk(index)
        finally:
            results.close()  # stopped early (Ctrl-C, a write error): cancel the rest

    def table(self, count: int, rows: int) -> pl.DataFrame:
        return pl.concat([self.frames[i] for i in range(count)], how="vertical").head(rows)


def _precision_stop(
    chunks: _Chunks,
    headline: str,
    size: int,
    min_chunks: int,
    max_chunks: int,
    precision: float,
    batch: int,
    limit: int,
) -> tuple[int, str]:
    """Add chunks in order until the headline's Wilson half-width is below ``precision``, over
    at most ``limit`` episodes (the last chunk counts only up to it).

    Chunk prefixes are checked in order (1, 2, 3... chunks), so the stopping point depends only on
    the chunks' contents, never on how many were computed in parallel ahead of it. With one job
    (``batch`` 1) the chunks come one at a time, so none is played past the stop; with more,
    as many as the estimate says are needed, so that the workers share them.
    """
    successes = 0
    checked = 0
    count = min_chunks
    while True:
        chunks.ensure(count)
        while checked < count:
            rows = min((checked + 1) * size, limit)
            successes += int(chunks.frames[checked][headline].head(rows - checked * size).sum())
            checked += 1
            if checked < min_chunks:
                continue
            half = float(wilson_half_width(successes, rows))
            if half < precision:
                return checked, (
                    f"precision reached: 95% Wilson half-width {half:.4f} < {precision} "
                    f"for '{headline}' after n={rows:,}"
                )
        if count >= max_chunks:
            rows = min(max_chunks * size, limit)
            half = float(wilson_half_width(successes, rows))
            return max_chunks, (
                f"max-n reached: n={rows:,} with 95% Wilson half-width {half:.4f} (target {precision}) for '{headline}'"
            )
        if batch <= 1:  # one at a time: no chunk is played beyond the one that stops the run
            count += 1
            continue
        p = max(successes / (count * size), 1.0 / (count * size))
        needed_rows = Z95 * Z95 * p * (1 - p) / (precision * precision)
        needed = math.ceil(needed_rows * 1.05 / size)
        count = min(max_chunks, max(count + batch, needed))


def _kept_message(what: str, chunks: _Chunks, stored: StoredRun | None) -> str:
    """One line: what stopped the run and which finished chunks are kept."""
    if stored is None:
        return f"{what}: nothing kept (no results store)"
    return f"{what}: {len(chunks.on_disk)} finished chunk(s) kept in {stored.path}; run the same command to resume"


def run(
    simulator: Simulator,
    config: Any,
    *,
    n: int,
    seed: int = 0,
    jobs: int = 1,
    backend: str | None = None,
    scheduler: str | None = None,
    store: Path | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    on_chunk: Callable[[int], None] | None = None,
) -> RunResult:
    """Play ``n`` episodes of ``simulator`` under ``config`` (or until ``precision``).

    The run's identity (game, config, seed, chunk size, version and a fingerprint of the
    simulator's code) names its store folder. ``backend`` None (and no ``scheduler``) takes the
    one chosen around the call (:func:`cardsim.sims.core.parallel.using`), else joblib; on
    dask the chunks are played on the cluster and stored here.

    With ``precision``, ``n`` is the minimum and chunks are added until the 95% Wilson half-width
    of the headline proportion is below it, or ``max_n`` (default 1,000,000) is reached. With a
    ``store`` folder, finished chunks are saved as they arrive and reused by the next call with
    the same game, config, seed and chunk size; Ctrl-C keeps them and raises
    :class:`cardsim.errors.Interrupted`, and a write error (disk full, no permission) keeps
    them and raises :class:`cardsim.sims.core.store.StoreWriteError` (one line naming the file).
    """
    seed = validate_root_seed(seed)
    if backend is None:
        chosen = current_backend()
        backend, scheduler = chosen.name, scheduler or chosen.scheduler
    size = chunk_size or simulator.chunk_size
    _check_options(n, jobs, backend, precision, max_n, size)
    if not isinstance(config, simulator.config_type):
        raise TypeError(f"config must be a {simulator.config_type.__name__}")
    config_data = config_to_dict(config)
    identity = {
        "game": simulator.name,
        "config": config_data,
        "seed": seed,
        "chunk_size": size,
        "version": __version__,
        "code": code_fingerprint(simulator.run_batch.__module__),
    }
    stored = None
    if store is not None:
        stored = open_run(
            Path(store),
            simulator.name,
            identity,
            {
                "game": simulator.name,
                "config": config_data,
                "seed": seed,
                "chunk_size": size,
                "version": __version__,
                "code_module": simulator.run_batch.__module__,
                "config_summary": config_summary(config),
                "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "platform": platform.platform(),
                "python": sys.version.split()[0],
                "elapsed_seconds": 0.0,
            },
        )

    batch = max(jobs, 1)
    if backend == "dask":
        execute, client = _dask(simulator, config, seed, size, scheduler)
        batch = max(batch, cluster_cores(client))  # keep every worker busy; the stop is the same
    elif jobs == 1:
        execute = _sequential(simulator, config, seed, size)
    else:
        execute = _joblib(simulator, config, seed, size, jobs)

    bar = _Progress(progress, f"{simulator.name}")
    chunks = _Chunks(execute, stored, bar, on_chunk)
    started = time.perf_counter()
    min_chunks = math.ceil(n / size)
    try:
        if precision is None:
            chunks.ensure(min_chunks)
            count, rows = min_chunks, n
            stop_rule = f"fixed n={n:,}"
        else:
            limit = max_n if max_n is not None else max(DEFAULT_MAX_N, n)
            count, stop_rule = _precision_stop(
                chunks,
                simulator.headline,
                size,
                min_chunks,
                math.ceil(limit / size),
                precision,
                batch=batch,
                limit=limit,
            )
            rows = min(count * size, limit)
    except KeyboardInterrupt:
        raise Interrupted(_kept_message("interrupted", chunks, stored)) from None
    except worker_lost_errors() as exc:  # Ctrl-C (or a kill) reached the workers only
        raise Interrupted(
            _kept_message(
                f"interrupted: a worker process was stopped ({type(exc).__name__})",
                chunks,
                stored,
            )
        ) from None
    except StoreWriteError as exc:
        raise StoreWriteError(
            f"{exc}; {len(chunks.on_disk)} finished chunk(s) kept in {stored.path if stored else '-'}, "
            "run the same command to resume"
        ) from None
    finally:
        bar.close()
        elapsed = time.perf_counter() - started
        if stored is not None:
            stored.manifest["elapsed_seconds"] = round(stored.manifest.get("elapsed_seconds", 0.0) + elapsed, 3)
            stored.manifest["chunks_done"] = len(chunks.on_disk)
            stored.manifest["n_available"] = len(chunks.on_disk) * size
            try:
                stored.save_manifest()
            except StoreWriteError:
                if sys.exc_info()[0] is None:
                    raise
                # already failing (e.g. the disk is full): the first error is the one to report

    episodes = chunks.table(count, rows)
    manifest = dict(stored.manifest) if stored else {"identity": identity, **identity}
    manifest.update({"n": episodes.height, "stop_rule": stop_rule, "chunks_used": count})
    if stored is not None:
        stored.manifest.update({"n": episodes.height, "stop_rule": stop_rule})
        stored.save_manifest()
    return RunResult(episodes, manifest, stop_rule, stored.path if stored else None)


def load_episodes(stored: StoredRun, *, trust_unhashed: bool = False) -> pl.DataFrame:
    """The episode table a stored run last reported (its first ``n`` rows, in chunk order).

    A chunk whose hash the manifest does not record is refused (a one-line UserError) unless
    ``trust_unhashed``: its rows cannot be checked, so a figure from them could be wrong."""
    size = stored.manifest["chunk_size"]
    n = stored.manifest.get("n", 0)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise UserError(f"corrupt results file {stored.path / 'manifest.json'}: n is {n!r}, not a count")
    count = math.ceil(n / size)
    unhashed = stored.unhashed_chunk_indices(count)
    if unhashed and not trust_unhashed:
        raise UserError(
            f"run {stored.run_id}: {len(unhashed)} of its {count} chunk(s) have no recorded "
            "hash, so their rows cannot be checked; give --trust-unhashed to read them anyway"
        )
    frames = [stored.read_chunk(i) for i in range(count)]
    return pl.concat(frames, how="vertical").head(n) if frames else pl.DataFrame()
