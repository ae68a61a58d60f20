"""The report's experiment suite: which runs each game needs, at which precision, and running them.

Each game's section builder (:mod:`cardsim.reports.sections`) lists its experiments with
:meth:`Profile.experiment`; :func:`run_experiments` plays them through the runner and the results
store, so a second report with the same store and seed reuses every stored chunk and only
re-renders. Two profiles exist: ``default`` (tight intervals, under 15 minutes for all games on
two cores) and ``quick`` (wide intervals, under 2 minutes), which the report states on its first
page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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
        games_side_by_side: run the games' chapters at once in worker processes (each
            chapter in one worker, the longest chapter's last runs in slices for whichever
            worker is free first), rather than one after another with each run's chunks spread
            over the workers (the quick profile's runs mostly fit in one chunk, which one worker
            plays alone; side by side, a first run also compiles different games' kernels on
            different cores at once). The numbers are the same either way.
    """

    name: str
    precision: float
    max_n: int
    tune_precision: float
    tune_max_n: int
    games_side_by_side: bool = False

    def describe(self) -> str:
        """One sentence for the report's first page."""
        quick = " This is the QUICK profile: intervals are wider than the default report's." if (
            self.name == "quick") else ""
        return (
            f"Profile '{self.name}': each experiment runs until its headline 95% interval is "
            f"at most \u00b1{100 * self.precision:.1f} percentage points wide or reaches "
            f"{self.max_n:,} episodes; tuning candidates stop at \u00b1{100 * self.tune_precision:.1f} "
            f"points or {self.tune_max_n:,} episodes. The Cash'n Guns table profiles use fixed "
            f"samples, stated in their chapters; every table gives its n.{quick}"
        )

    def experiment(
        self, key: str, config: Mapping[str, Any], labels: Mapping[str, Any], *,
        tuning: bool = False, scale: float = 1.0,
    ) -> Experiment:
        """An experiment at this profile's precision (``tuning`` uses the tuning targets;
        ``scale`` multiplies the episode bound for a game whose episodes are cheap or dear)."""
        precision = self.tune_precision if tuning else self.precision
        max_n = self.tune_max_n if tuning else self.max_n
        return Experiment(
            key=key, config=dict(config), labels=dict(labels), precision=precision,
            max_n=max(1, int(max_n * scale)),
        )


DEFAULT = Profile("default", precision=0.01, max_n=20_000, tune_precision=0.02, tune_max_n=2_500)
QUICK = Profile("quick", precision=0.05, max_n=1_000, tune_precision=0.08, tune_max_n=300,
                games_side_by_side=True)
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
    """

    key: str
    config: dict[str, Any]
    labels: dict[str, Any]
    precision: float | None
    max_n: int
    chunk_size: int | None = None


@dataclass(frozen=True)
class Outcome:
    """What one experiment produced."""

    experiment: Experiment
    episodes: pl.DataFrame
    stop_rule: str
    run_id: str
    game: str = ""

    @property
    def n(self) -> int:
        return self.episodes.height

    def labelled(self) -> pl.DataFrame:
        """The episodes with the experiment's labels as constant columns in front (a label the
        episodes already carry as a column is left to the episodes)."""
        columns = [pl.lit(v).alias(k) for k, v in self.experiment.labels.items()
                   if k not in self.episodes.columns]
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

    def combined(self, keep: Callable[[Experiment], bool] = lambda e: True,
                 index: str | None = None) -> pl.DataFrame:
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
    the chunks as they are computed."""
    game = simulator.name
    outcomes = Outcomes(game=game, seed=seed, store=store, jobs=jobs)
    for experiment in experiments:
        if experiment.key in outcomes.by_key:
            raise ValueError(f"{game}: duplicate experiment key {experiment.key!r}")
        config = simulator.make_config(**experiment.config)
        size = min(experiment.chunk_size or simulator.chunk_size, experiment.max_n)
        most_chunks = -(-max(size, experiment.max_n) // size)
        on_chunk = None
        if tracker is not None:
            tracker.start(game, experiment.key)
            on_chunk = lambda _index, most=most_chunks: tracker.chunk(most)  # noqa: E731
        if experiment.precision is None:
            result = run(simulator, config, n=experiment.max_n, seed=seed, jobs=jobs, store=store,
                         chunk_size=size, on_chunk=on_chunk)
        else:
            result = run(simulator, config, n=size, seed=seed, jobs=jobs, store=store,
                         precision=experiment.precision, max_n=max(size, experiment.max_n),
                         chunk_size=size, on_chunk=on_chunk)
        if tracker is not None:
            tracker.finish()
        run_id = result.path.name if result.path is not None else "(memory)"
        outcome = Outcome(experiment, result.episodes, result.stop_rule, run_id, game)
        outcomes.by_key[experiment.key] = outcome
        if on_done is not None:
            on_done(outcome)
    return outcomes
