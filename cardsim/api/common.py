"""What every API namespace shares: the result type, the run bookkeeping and the
keyword-named errors."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import COMMAND_LINE, UserError, keyword_message
from cardsim.options import (
    ClusterOptions,
    RunOptions,
    check_n,
    run_config,
)
from cardsim.sims.core.runner import run_id

if TYPE_CHECKING:
    import pandas
    import polars as pl

Players = int | str | Sequence[int]
Names = str | Sequence[str]


@dataclass(frozen=True)
class Result:
    """What an analysis produced.

    Attributes:
        table: the summary table the command prints (raw columns: rates with their ``_lo`` /
            ``_hi`` 95% interval), a polars DataFrame.
        episodes: one row per episode played, all configurations stacked (empty for ``tune``
            and ``report``, which keep only their summaries).
        manifest: the command, version, root seed, stop rule, run ids and each run's manifest.
        tables: every table by name (``table`` is the first), as in the ``--json`` document.
    """

    table: pl.DataFrame
    episodes: pl.DataFrame
    manifest: dict[str, Any]
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)

    def to_pandas(self, name: str | None = None) -> pandas.DataFrame:
        """``table`` (or ``tables[name]``) as a pandas DataFrame; needs the ``cardsim[pandas]``
        extra (pandas, and pyarrow, which polars converts through)."""
        try:
            import pandas  # noqa: F401
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserError("to_pandas() needs pandas and pyarrow: pip install 'cardsim[pandas]'") from None
        return (self.table if name is None else self.tables[name]).to_pandas()

    def __repr__(self) -> str:
        return (
            f"Result({self.manifest.get('command')}, runs={len(self.manifest.get('runs', []))}, "
            f"tables={list(self.tables)})\n{self.table}"
        )


class Runs:
    """The runs of one analysis: runs each config, keeps ids and manifests for the Result."""

    def __init__(self, command: str, n: int, options: RunOptions, planned: int = 1) -> None:
        self.command = command
        self.planned = planned
        self.n = check_n(n)
        self.options = options
        self.ids: list[str] = []
        self.manifests: list[dict[str, Any]] = []

    def episodes(self, game: str, config: Any) -> pl.DataFrame:
        """Play ``config``; a configuration met twice in one analysis is refused, since its
        identical seeded episodes would be counted twice (n doubled, interval too narrow)."""
        result = run_config(game, config, n=self.n, options=self.options, runs=self.planned)
        if run_id(result) in self.ids:
            raise UserError(
                f"{self.command}: the same configuration was asked twice "
                f"({run_id(result)}); its episodes would be counted twice"
            )
        self.ids.append(run_id(result))
        self.manifests.append(result.manifest)
        return result.episodes

    def result(self, tables: dict[str, pl.DataFrame], episodes: pl.DataFrame) -> Result:
        manifest = {
            "command": self.command,
            "version": __version__,
            "seed": self.options.seed,
            "stop_rule": self.options.stop_rule(self.n),
            "runs": self.ids,
            "manifests": self.manifests,
        }
        return Result(next(iter(tables.values())), episodes, manifest, tables)


def run_options(
    *,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "joblib",
    scheduler: str | None = None,
    store: str | Path | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    quiet: bool = False,
) -> RunOptions:
    """The checked runner options of an API call (``store=None``: nothing written)."""
    if store is not None and not isinstance(store, (str, Path)):
        raise UserError(f"--store must be a folder name or None, got {store!r}")
    return RunOptions(
        seed=seed,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        store=Path(store) if store is not None else None,
        precision=precision,
        max_n=max_n,
        quiet=quiet,
    ).checked()


def on_backend(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` run on the backend its ``backend`` and ``scheduler`` keywords name: the
    two are checked, a dask scheduler is connected to before any work, and every parallel
    site inside (the runner, :func:`cardsim.sims.core.parallel.map_tasks`) runs there. An API
    function gets the cluster by declaring ``backend: str = "joblib", scheduler: str | None =
    None`` and this decorator."""
    from cardsim.sims.core.parallel import using

    signature = inspect.signature(function)

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind_partial(*args, **kwargs)
        backend = bound.arguments.get("backend", signature.parameters["backend"].default)
        scheduler = bound.arguments.get("scheduler", signature.parameters["scheduler"].default)
        try:
            where = ClusterOptions(backend, scheduler).checked()
            scope = using(where.backend, where.scheduler)
            scope.__enter__()
        except UserError as exc:
            if COMMAND_LINE.get():
                raise
            raise type(exc)(keyword_message(str(exc))) from None
        try:
            return function(*args, **kwargs)
        finally:
            scope.__exit__(None, None, None)

    return call


def concat_rows(frames: list[pl.DataFrame]) -> pl.DataFrame:
    import polars as pl

    return pl.concat(frames, how="vertical")


def with_keyword_errors(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` raising its UserErrors with keyword names (``max_n``), not the command
    line's flags (``--max-n``), unless a command-line command called it."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except UserError as exc:
            if COMMAND_LINE.get():
                raise
            raise type(exc)(keyword_message(str(exc))) from None

    return call


def list_valid_names(function: Callable[..., Any], names: dict[str, Sequence[str]]) -> None:
    """Append the valid names to ``function``'s docstring, at its own indentation."""
    doc = function.__doc__ or ""
    lines = doc.expandtabs().splitlines()[1:]
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    pad = " " * indent
    listed = "\n".join(f"{pad}- ``{keyword}``: {', '.join(values)}" for keyword, values in names.items())
    function.__doc__ = f"{doc.rstrip()}\n\n{pad}Valid names:\n\n{listed}\n{pad}"


def crossplay_result(
    game: str,
    entrants: Names,
    players: int,
    n: int,
    seed: int,
    decisions: Sequence[str],
    *,
    jobs: int | None = 1,
    store: str | Path | None = None,
    on_chunk: Callable[[int, int], None] | None = None,
) -> Result:
    """The ``crossplay`` of The Gang and The Game: ``entrants`` checked and labelled, the
    matrix of :func:`cardsim.analysis.crossplay.cross_play`, one ``Result``."""
    from cardsim.analysis.crossplay import cross_play, labelled

    if isinstance(players, bool) or not isinstance(players, int):
        raise UserError(f"--players must be an integer, got {players!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UserError(f"--n must be a positive integer, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UserError(f"--seed must be a non-negative whole number, got {seed!r}")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise UserError(f"--jobs must be a positive integer, got {jobs!r}")
    if store is not None and not isinstance(store, (str, Path)):
        raise UserError(f"--store must be a folder name or None, got {store!r}")
    entrants_found = labelled([entrants] if isinstance(entrants, str) else list(entrants))
    table, stored = cross_play(
        game,
        entrants_found,
        decisions,
        players,
        n,
        seed,
        jobs=jobs or 1,
        store=None if store is None else Path(store),
        on_chunk=on_chunk,
    )
    manifest = {
        "command": f"{game} crossplay",
        "version": __version__,
        "seed": seed,
        "runs": [stored] if stored else [],
        "players": players,
        "n": n,
        "entrants": [dict(label=a, spec=b) for a, b in entrants_found],
    }
    return Result(table, table, manifest, {"crossplay": table})
