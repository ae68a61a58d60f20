"""One scheduler for every experiment of every chapter, so that all the cores stay busy.

With several workers, the report is cut into tasks that worker processes take in order:

1. each game's compile (one episode of each of its configs, so that numba compiles and caches
   every kernel once, on one core) comes first, the games in the order below;
2. the games' runs: the experiments with the same config are one task (the later ones reuse the
   first's chunks through the store: one run, not two), the small ones batched; a game's runs
   wait for its compile, and within a game the dearest come first (longest processing time
   first, so that the last tasks are small and the workers finish together);
3. a chapter's side tasks (:class:`cardsim.reports.suite.SideTask`, e.g. checks it keeps in the
   store) go with its runs;
4. a chapter is built (its analysis, tables and plots drawn) by the next free worker as soon as
   its runs and side tasks are done, before any waiting run.

The games go in order of their estimated cost, dearest first: the cheapest chapter is the last
one built, so little is left to do after its last run. Each run's chunks come from their own
seeds and stop at the first chunk prefix that reaches the precision, so the numbers and files
are the ones a one-process build gives, whatever the worker count and completion order.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl

from cardsim.errors import Interrupted
from cardsim.reports.suite import Experiment, Outcome, Profile, SideTask, run_experiments
from cardsim.sims.core.interrupts import worker_lost_errors, worker_task
from cardsim.sims.core.runner import compile_one_game
from cardsim.sims.core.simulator import Simulator
from cardsim.stats import Z95

# Runs smaller than this share of the whole plan's estimated cost are batched together.
BATCH_SHARE = 1 / 400


def expected_cost(experiment: Experiment) -> float:
    """Rough cost of an experiment for ordering: its weight times the episodes it is expected
    to play (its bound, or the episodes a proportion of one half needs for its precision)."""
    n = float(experiment.max_n)
    if experiment.precision is not None:
        n = min(n, Z95 * Z95 * 0.25 / (experiment.precision * experiment.precision))
    return experiment.weight * n


@dataclass
class Task:
    """One unit of work for a worker: what to call, for which game, at what rough cost."""

    kind: str  # "compile", "runs", "side" or "chapter"
    game: str
    cost: float
    function: Callable[..., Any]
    arguments: tuple[Any, ...]
    keys: tuple[str, ...] = ()  # the experiments of a "runs" task


def play_runs(
    game: str, simulator: Simulator, experiments: Sequence[Experiment], seed: int, store: Path | None, slim: bool
) -> tuple[list[Outcome], float]:
    """Play some of one game's experiments with one job (in a worker); their outcomes (with
    ``slim``, one column of episodes: the chapter reads them back from the store) and the CPU
    seconds taken."""
    started = time.process_time()
    outcomes = run_experiments(simulator, experiments, seed=seed, jobs=1, store=store)
    found = list(outcomes.by_key.values())
    if slim:
        found = [replace(o, episodes=o.episodes.select(pl.first())) for o in found]
    return found, time.process_time() - started


def play_side(function: Callable[..., Any], keywords: dict[str, Any]) -> tuple[None, float]:
    """Run a side task (in a worker; its result stays in the store); the CPU seconds taken."""
    started = time.process_time()
    function(**keywords)
    return None, time.process_time() - started


def compile_game(simulator: Simulator, configs: Sequence[Any]) -> tuple[None, float]:
    """:func:`compile_one_game` in a worker; the CPU seconds taken."""
    started = time.process_time()
    compile_one_game(simulator, configs)
    return None, time.process_time() - started


def _batches(
    game: str, simulator: Simulator, plan: Sequence[Experiment], seed: int, store: Path | None, threshold: float
) -> list[Task]:
    """The game's runs as tasks: the experiments with one config together (in plan order), the
    groups below ``threshold`` batched; dearest first."""
    groups: dict[Any, list[Experiment]] = {}
    for experiment in plan:
        groups.setdefault(simulator.make_config(**experiment.config), []).append(experiment)
    costed = sorted(
        ((max(expected_cost(e) for e in group), index, group) for index, group in enumerate(groups.values())),
        key=lambda g: (-g[0], g[1]),
    )
    tasks: list[Task] = []
    batch: list[Experiment] = []
    batch_cost = 0.0

    def close() -> None:
        nonlocal batch, batch_cost
        if batch:
            tasks.append(
                Task(
                    "runs",
                    game,
                    batch_cost,
                    play_runs,
                    (game, simulator, tuple(batch), seed, store, store is not None),
                    tuple(e.key for e in batch),
                )
            )
        batch, batch_cost = [], 0.0

    for cost, _, group in costed:
        batch.extend(group)
        batch_cost += cost
        if batch_cost >= threshold:
            close()
    close()
    return tasks


@dataclass
class _Game:
    """What the scheduler knows of one game's chapter."""

    name: str
    module: ModuleType
    simulator: Simulator
    plan: list[Experiment]
    side: list[SideTask]
    cost: float = 0.0
    left: int = 0  # runs and side tasks not finished
    compiled: bool = False
    outcomes: dict[str, Outcome] = field(default_factory=dict)


def schedule_chapters(
    landed: Sequence[tuple[str, ModuleType, Simulator, list[Experiment]]],
    *,
    profile: Profile,
    seed: int,
    jobs: int,
    store: Path | None,
    chapter_task: Callable[..., Any],
    on_outcome: Callable[[Outcome], None],
    on_chapter: Callable[[str, Any, float], None],
    on_side: Callable[[str, str, float], None] | None = None,
) -> None:
    """Play every game's experiments and build every chapter in ``jobs`` worker processes.

    ``chapter_task(game, module_name, simulator, profile, seed, store, played)`` builds a
    chapter in a worker (``played``: the outcomes with their episodes when there is no store,
    else none: it reads them back from the store) and returns its result, which goes to
    ``on_chapter(game, result, cpu_seconds)``; ``on_outcome`` hears of every experiment as its
    task ends, ``on_side(game, key, cpu_seconds)`` of every side task and compile (key
    "compile")."""
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    from joblib.externals.loky import ProcessPoolExecutor
    from joblib.parallel import LokyBackend

    games: dict[str, _Game] = {}
    for name, module, simulator, plan in landed:
        side = list(getattr(module, "side_tasks", lambda *_: [])(profile, seed, store))
        game = _Game(name, module, simulator, plan, side)
        game.cost = sum(expected_cost(e) for e in plan) + sum(s.cost for s in side)
        games[name] = game
    order = sorted(games.values(), key=lambda g: -g.cost)
    threshold = BATCH_SHARE * sum(g.cost for g in order)
    compiles: list[Task] = []
    waiting: list[Task] = []  # runs and side tasks, in the order they are taken
    for game in order:
        configs = list(dict.fromkeys(game.simulator.make_config(**e.config) for e in game.plan))
        compiles.append(Task("compile", game.name, 0.0, compile_game, (game.simulator, configs)))
        runs = _batches(game.name, game.simulator, game.plan, seed, store, threshold)
        sides = [Task("side", game.name, s.cost, play_side, (s.function, s.keywords), (s.key,)) for s in game.side]
        mine = sorted(runs + sides, key=lambda t: -t.cost)
        game.left = len(mine)
        waiting.extend(mine)
    ready: list[Task] = list(compiles)  # taken first; chapters go in front when due

    def next_task() -> Task | None:
        if ready:
            return ready.pop(0)
        for index, task in enumerate(waiting):
            if games[task.game].compiled:
                return waiting.pop(index)
        return None

    def chapter_of(game: _Game) -> Task:
        played = () if store is not None else tuple(game.outcomes[e.key] for e in game.plan)
        return Task(
            "chapter",
            game.name,
            0.0,
            chapter_task,
            (game.name, game.module.__name__, game.simulator, profile, seed, store, played),
        )

    ready.extend(chapter_of(game) for game in order if not game.left)  # nothing to play
    workers = max(1, min(jobs, len(waiting) + len(ready)))
    # The workers' thread pools limited as joblib's Parallel limits them (cores per worker).
    threads = str(max((os.cpu_count() or 1) // workers, 1))
    executor = ProcessPoolExecutor(
        max_workers=workers, env={name: os.environ.get(name, threads) for name in LokyBackend.MAX_NUM_THREADS_VARS}
    )
    running: dict[Future[Any], Task] = {}
    try:
        while ready or waiting or running:
            while len(running) < workers:
                task = next_task()
                if task is None:
                    break
                running[executor.submit(worker_task, task.function, *task.arguments)] = task
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in done:
                task = running.pop(future)
                result, cpu = future.result()
                game = games[task.game]
                if task.kind == "compile":
                    game.compiled = True
                    if on_side is not None:
                        on_side(game.name, "compile", cpu)
                    continue
                if task.kind == "chapter":
                    on_chapter(game.name, result, cpu)
                    continue
                if task.kind == "runs":
                    share = cpu / max(len(result), 1)
                    for outcome in result:
                        outcome = replace(outcome, cpu_seconds=outcome.cpu_seconds or share)
                        game.outcomes[outcome.experiment.key] = outcome
                        on_outcome(outcome)
                elif on_side is not None:
                    on_side(game.name, task.keys[0], cpu)
                game.left -= 1
                if not game.left:
                    ready.insert(0, chapter_of(game))
    except worker_lost_errors() as exc:  # Ctrl-C (or a kill) reached the workers only
        executor.shutdown(wait=False, kill_workers=True)
        raise Interrupted(
            f"interrupted: a worker process was stopped ({type(exc).__name__}); finished runs and "
            "chunks are kept in the store (if any); run the same command to resume"
        ) from None
    except BaseException:
        executor.shutdown(wait=False, kill_workers=True)
        raise
    executor.shutdown()
