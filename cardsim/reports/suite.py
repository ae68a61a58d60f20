"""The report's experiment suite: which runs each game needs, at which precision, and running them.

Each game's section builder (:mod:`cardsim.reports.sections`) lists its experiments with
:meth:`Profile.experiment`; :func:`run_experiments` plays them through the runner and the results
store, so a second report with the same store and seed reuses every stored chunk and only
re-renders. Two profiles exist: ``default`` (tight intervals where the reader looks: the
headline rates; wider for the rows of sweeps and tuning grids) and ``quick`` (wide intervals,
under 2 minutes), which the report states on its first page.

Each experiment has a tier that sets its precision: ``headline`` (a rate a chapter's headline or
first page quotes), ``table`` (a row of a table or plot that is read as a whole, such as a
ladder of weaker models or a card-effect plot), ``tuning`` (the "pick your group" cells, which
the findings quote) and ``sweep`` (the candidates of a tuning grid, read against a target).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from cardsim.sims.core.runner import run
from cardsim.sims.core.simulator import Simulator

if TYPE_CHECKING:
    from cardsim.reports.progress import Tracker


@dataclass(frozen=True)
class Profile:
    """How hard the suite works.

    Attributes:
        name: "default" or "quick".
        precision: target 95% Wilson half-width of each experiment's headline proportion.
        max_n: episodes at most per experiment (the stop rule says when this bound was hit).
        tune_precision: the same target for the many candidate runs of difficulty tuning.
        tune_max_n: the bound for those runs.
        table_precision, table_max_n: the same for the rows of tables and plots that no
            headline quotes (None: ``precision`` and ``max_n``).
        sweep_precision, sweep_max_n, sweep_chunk: the same for the candidates of a tuning
            grid that no "pick your group" cell shares, and their chunk size, small so that
            the stop can come between the simulator's larger chunks (None: ``tune_precision``,
            ``tune_max_n`` and the simulator's chunk size).
        fine_chunk: the chunk size of the table and tuning tiers, small for the same reason
            (None: the simulator's); a run that another experiment shares, or whose episodes
            are paired with another run's, keeps the chunks of that run (:func:`shared_runs`).
    """

    name: str
    precision: float
    max_n: int
    tune_precision: float
    tune_max_n: int
    table_precision: float | None = None
    table_max_n: int | None = None
    sweep_precision: float | None = None
    sweep_max_n: int | None = None
    sweep_chunk: int | None = None
    fine_chunk: int | None = None

    def tier(self, tier: str) -> tuple[float, int]:
        """(target half-width, episode bound) of a tier: headline, table, tuning or sweep."""
        if tier == "headline":
            return self.precision, self.max_n
        if tier == "table":
            return self.table_precision or self.precision, self.table_max_n or self.max_n
        if tier == "tuning":
            return self.tune_precision, self.tune_max_n
        if tier == "sweep":
            return self.sweep_precision or self.tune_precision, self.sweep_max_n or self.tune_max_n
        raise ValueError(f"unknown experiment tier {tier!r}")

    def describe(self) -> str:
        """One sentence for the report's first page."""
        quick = (
            " This is the QUICK profile: intervals are wider than the default report's."
            if (self.name == "quick")
            else ""
        )
        table, table_n = self.tier("table")
        sweep, sweep_n = self.tier("sweep")
        tiered = (table, table_n) != (self.precision, self.max_n)
        head = (
            (
                f"each headline rate runs until its 95% interval is at most "
                f"\u00b1{100 * self.precision:.1f} percentage points wide or reaches "
                f"{self.max_n:,} episodes; the other rows of tables and plots stop at "
                f"\u00b1{100 * table:.1f} points or {table_n:,} episodes,"
            )
            if tiered
            else (
                f"each experiment runs until its headline 95% interval is at most "
                f"\u00b1{100 * self.precision:.1f} percentage points wide or reaches "
                f"{self.max_n:,} episodes;"
            )
        )
        if (sweep, sweep_n) == (self.tune_precision, self.tune_max_n):
            tuning = (
                f'the "pick your group" cells and tuning candidates stop at '
                f"\u00b1{100 * self.tune_precision:.1f} points or {self.tune_max_n:,}"
            )
        else:
            tuning = (
                f'the "pick your group" cells at \u00b1{100 * self.tune_precision:.1f} '
                f"points or {self.tune_max_n:,}, the other candidates of the tuning grids "
                f"at \u00b1{100 * sweep:.1f} points or {sweep_n:,}"
            )
        return (
            f"Profile '{self.name}': {head} {tuning}; each run stops at the first whole chunk of "
            f"episodes that meets its target. The Cash'n Guns table profiles use fixed samples, "
            f"stated in their chapters; every table gives its n.{quick}"
        )

    def experiment(
        self,
        key: str,
        config: Mapping[str, Any],
        labels: Mapping[str, Any],
        *,
        tuning: bool = False,
        scale: float = 1.0,
        tier: str | None = None,
        weight: float = 1.0,
        paired: bool = False,
    ) -> Experiment:
        """An experiment at the precision of its ``tier`` (default: ``tuning`` if ``tuning``,
        else ``headline``; see :meth:`tier`); ``scale`` multiplies the episode bound for a game
        whose episodes are cheap or dear; ``weight``: see :class:`Experiment`. The table,
        tuning and sweep tiers play in the profile's small chunks, unless ``paired``: its
        episodes are compared one by one with another run's (episode k of each from the same
        chunk's seed), so it keeps the simulator's chunks as that run does."""
        tier = tier or ("tuning" if tuning else "headline")
        precision, max_n = self.tier(tier)
        bound = max(1, int(max_n * scale))
        chunk = {"sweep": self.sweep_chunk, "table": self.fine_chunk, "tuning": self.fine_chunk}.get(tier)
        return Experiment(
            key=key,
            config=dict(config),
            labels=dict(labels),
            precision=precision,
            max_n=bound,
            chunk_size=None if paired or chunk is None else _dividing(chunk, bound),
            weight=weight,
            paired=paired,
        )


def _dividing(chunk: int, bound: int) -> int:
    """The largest chunk size at most ``chunk`` that divides ``bound``, so that a run stopped by
    its bound plays no episode it does not use (at most ``bound``)."""
    if chunk >= bound:
        return bound
    return next(size for size in range(chunk, 0, -1) if bound % size == 0)


DEFAULT = Profile(
    "default",
    precision=0.01,
    max_n=20_000,
    tune_precision=0.02,
    tune_max_n=2_500,
    table_precision=0.02,
    table_max_n=5_000,
    sweep_precision=0.03,
    sweep_max_n=2_500,
    sweep_chunk=500,
    fine_chunk=500,
)
QUICK = Profile("quick", precision=0.05, max_n=1_000, tune_precision=0.08, tune_max_n=300)
PROFILES: dict[str, Profile] = {p.name: p for p in (DEFAULT, QUICK)}


@dataclass(frozen=True)
class Experiment:
    """One run of the suite.

    Attributes:
        key: unique name within its game (used for lookups and the reproducibility table).
        config: the game's config fields.
        labels: descriptive values added as columns to the episodes (e.g. players, model).
        precision: target headline half-width (None: play exactly ``max_n`` episodes).
        max_n: episode bound.
        chunk_size: episodes per chunk (None: the simulator's, capped at ``max_n``); slow
            strategies use small chunks so that several cores share one run.
        weight: rough cost of one episode against the game's plainest episode (a whole game
            of several rounds, a slower model), only for the order the scheduler plays the
            experiments in (the dearest first); the numbers do not depend on it.
        paired: its episodes are compared one by one with another run's (episode k of each),
            so it keeps its own n (:func:`largest_runs` leaves it alone).
    """

    key: str
    config: dict[str, Any]
    labels: dict[str, Any]
    precision: float | None
    max_n: int
    chunk_size: int | None = None
    weight: float = 1.0
    paired: bool = False


@dataclass(frozen=True)
class SideTask:
    """A computation a chapter needs besides its experiments that keeps its result in the
    results store, where the chapter then finds it (a section builder's optional
    ``side_tasks(profile, seed, store)`` lists them): the scheduler plays it beside the
    experiments instead of leaving it to the chapter's own build.

    Attributes:
        key: a name for progress lines.
        function: called as ``function(**keywords)`` in a worker process.
        keywords: its arguments.
        cost: rough cost in the units of :func:`cardsim.reports.schedule.expected_cost`
            (episode weight times episodes), for the order only.
    """

    key: str
    function: Callable[..., Any]
    keywords: dict[str, Any]
    cost: float


@dataclass(frozen=True)
class Outcome:
    """What one experiment produced."""

    experiment: Experiment
    episodes: pl.DataFrame
    stop_rule: str
    run_id: str
    game: str = ""
    cpu_seconds: float = 0.0  # CPU time of the process that played it (0 when only read back)

    @property
    def n(self) -> int:
        return self.episodes.height

    def labelled(self) -> pl.DataFrame:
        """The episodes with the experiment's labels as constant columns in front (a label the
        episodes already carry as a column is left to the episodes)."""
        columns = [pl.lit(v).alias(k) for k, v in self.experiment.labels.items() if k not in self.episodes.columns]
        return self.episodes.select(columns + [pl.all()]) if columns else self.episodes


@dataclass
class Outcomes:
    """The outcomes of one game's experiments, by key, in plan order."""

    game: str
    seed: int
    by_key: dict[str, Outcome] = field(default_factory=dict)
    store: Path | None = None  # the results store the runs came from (chapters may keep more there)
    jobs: int = 1  # worker processes the chapter may use for its own computations

    def __getitem__(self, key: str) -> Outcome:
        return self.by_key[key]

    def select(self, keep: Callable[[Experiment], bool]) -> list[Outcome]:
        return [o for o in self.by_key.values() if keep(o.experiment)]

    def combined(self, keep: Callable[[Experiment], bool] = lambda e: True, index: str | None = None) -> pl.DataFrame:
        """Labelled episodes of the kept experiments, stacked (columns not shared are dropped);
        with ``index``, a column of that name numbers each experiment's episodes from 0 (every
        experiment shares the seed, so episode k of each is played from the same chunk stream)."""
        frames = [o.labelled() for o in self.select(keep)]
        if index is not None:
            frames = [f.with_columns(pl.int_range(pl.len(), dtype=pl.Int64).alias(index)) for f in frames]
        if not frames:
            return pl.DataFrame()
        shared = [c for c in frames[0].columns if all(c in f.columns for f in frames)]
        return pl.concat([f.select(shared) for f in frames], how="vertical_relaxed")


def chunk_of(simulator: Simulator, experiment: Experiment) -> int:
    """The chunk size an experiment plays in: its own, else the simulator's (at most its bound)."""
    return experiment.chunk_size or min(simulator.chunk_size, experiment.max_n)


def shared_runs(simulator: Simulator, plan: Sequence[Experiment]) -> list[Experiment]:
    """The plan with one chunk size per config, so that the experiments with the same config
    are one run in the store (the later ones reuse its chunks, each stopping at its own
    precision or bound): each takes the chunk size of the one with the largest bound (the
    first such in plan order), which plays the most episodes."""
    groups: dict[Any, list[Experiment]] = {}
    for experiment in plan:
        groups.setdefault(simulator.make_config(**experiment.config), []).append(experiment)
    sizes = {id(e): chunk_of(simulator, max(group, key=lambda g: g.max_n)) for group in groups.values() for e in group}
    return [e if chunk_of(simulator, e) == sizes[id(e)] else replace(e, chunk_size=sizes[id(e)]) for e in plan]


def largest_runs(simulator: Simulator, outcomes: Outcomes) -> Outcomes:
    """One estimate per setting: every experiment that shares its config with another reports
    the episodes of the largest run of that config (the one with the most episodes; the
    smaller runs are its first chunks, :func:`shared_runs`), so that a pick that needed fewer
    episodes still shows the same n, estimate and interval as the table beside it. Paired
    experiments keep their own episodes: they are read as differences, episode by episode,
    against a run of the same n."""
    groups: dict[Any, list[Outcome]] = {}
    for outcome in outcomes.by_key.values():
        if not outcome.experiment.paired:
            groups.setdefault(simulator.make_config(**outcome.experiment.config), []).append(outcome)
    largest = {o.experiment.key: max(group, key=lambda g: g.n) for group in groups.values() for o in group}
    by_key = {}
    for key, outcome in outcomes.by_key.items():
        big = largest.get(key, outcome)
        by_key[key] = (
            outcome
            if big.n <= outcome.n
            else replace(outcome, episodes=big.episodes, stop_rule=big.stop_rule, run_id=big.run_id)
        )
    return replace(outcomes, by_key=by_key)


def run_experiments(
    simulator: Simulator,
    experiments: Sequence[Experiment],
    *,
    seed: int,
    jobs: int,
    store: Path | None,
    tracker: Tracker | None = None,
    on_done: Callable[[Outcome], None] | None = None,
) -> Outcomes:
    """Play every experiment through the runner (reusing stored chunks); ``tracker`` follows
    the chunks as they are computed. Each outcome records the CPU seconds this process spent
    on it (with ``jobs`` > 1 the workers' share is not counted)."""
    game = simulator.name
    outcomes = Outcomes(game=game, seed=seed, store=store, jobs=jobs)
    for experiment in experiments:
        if experiment.key in outcomes.by_key:
            raise ValueError(f"{game}: duplicate experiment key {experiment.key!r}")
        started = time.process_time()
        config = simulator.make_config(**experiment.config)
        size = chunk_of(simulator, experiment)
        most_chunks = -(-experiment.max_n // size)
        on_chunk = None
        if tracker is not None:
            tracker.start(game, experiment.key)
            on_chunk = lambda _index, most=most_chunks: tracker.chunk(most)  # noqa: E731
        if experiment.precision is None:
            result = run(
                simulator,
                config,
                n=experiment.max_n,
                seed=seed,
                jobs=jobs,
                store=store,
                chunk_size=size,
                on_chunk=on_chunk,
            )
        else:
            result = run(
                simulator,
                config,
                n=min(size, experiment.max_n),
                seed=seed,
                jobs=jobs,
                store=store,
                precision=experiment.precision,
                max_n=experiment.max_n,
                chunk_size=size,
                on_chunk=on_chunk,
            )
        if tracker is not None:
            tracker.finish()
        run_id = result.path.name if result.path is not None else "(memory)"
        outcome = Outcome(experiment, result.episodes, result.stop_rule, run_id, game, time.process_time() - started)
        outcomes.by_key[experiment.key] = outcome
        if on_done is not None:
            on_done(outcome)
    return outcomes
