"""Cold start: how long a first command takes while numba compiles, and warming the cache.

numba compiles every kernel on its first call and keeps the machine code in an on-disk cache
(``cache=True``, see :mod:`cardsim.sims.core.jit`). The cache lives in ``__pycache__`` beside
the source unless the environment variable ``NUMBA_CACHE_DIR`` names another folder, which
numba then uses instead (its ``_UserProvidedCacheLocator`` comes first). :func:`measure_cold`
therefore runs each command in a fresh process with ``NUMBA_CACHE_DIR`` set to a new empty
folder: the first run compiles everything it reaches (cold), the second run of the same command
in the same folder loads it (warm). That the folder really received the cache is checked and
reported (``cache_files``).

:func:`warm_up` compiles every kernel of the named games ahead of a first real run, one process
per game (as :func:`cardsim.sims.core.runner.compile_ahead` does for the report). It reads the
report's plan, so this module sits above the reports, beside the API.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cardsim
from cardsim.sims.core.game import resolve
from cardsim.sims.core.seeds import chunk_generator
from cardsim.sims.registry import get_game, get_simulator, names

# Each game declares one small first command (its ``first_command``): its default run at a
# small n, one job (a cold first run compiles the same kernels whatever n is; the warm run shows
# what is left when nothing compiles).


def first_commands() -> dict[str, tuple[str, ...]]:
    """Each registered game's first small command (``cardsim`` arguments), by game."""
    declared = (get_game(name) for name in names())
    return {game.name: game.first_command for game in declared if game.first_command}


COMMON_FLAGS = ("--jobs", "1", "--no-store", "--quiet")
REPORT_COMMAND = ("report", "--quick", "--quiet")

# Targets (seconds with a cold cache, on two cores).
FIRST_RUN_TARGET = 20.0
REPORT_TARGET = 75.0


@dataclass(frozen=True)
class Timing:
    """One command timed cold (fresh cache folder) and warm (the same folder again)."""

    what: str
    command: str
    cold_seconds: float
    cold_cpu_seconds: float
    warm_seconds: float | None
    cache_files: int
    load_before: float
    target_seconds: float | None

    def row(self) -> dict[str, Any]:
        """A table row; ``meets_target`` compares the cold time with the target."""
        return {
            "what": self.what,
            "cold_s": round(self.cold_seconds, 1),
            "cold_cpu_s": round(self.cold_cpu_seconds, 1),
            "warm_s": None if self.warm_seconds is None else round(self.warm_seconds, 1),
            "target_cold_s": self.target_seconds,
            "meets_target": None if self.target_seconds is None else bool(self.cold_seconds <= self.target_seconds),
            "cache_files": self.cache_files,
            "load_1min": round(self.load_before, 2),
            "command": self.command,
        }


def package_root() -> Path:
    """The folder that holds the ``cardsim`` package being run."""
    return Path(cardsim.__file__).resolve().parent.parent


def load_average() -> float:
    """The 1-minute load average (how busy the shared machine is while timing)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def _child_cpu_seconds() -> float:
    """User plus system CPU seconds of this process's finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def utilisation(cpu: float, wall: float) -> float | None:
    """How busy a run kept the machine's cores: CPU seconds / (wall seconds x cores), two
    decimals (the ``utilisation`` of the timing benchmarks' rows); None for no wall time."""
    return round(cpu / (wall * (os.cpu_count() or 1)), 2) if wall > 0 else None


def _timed_run(argv: Sequence[str], cache_dir: Path, work_dir: Path, root: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``python -m cardsim argv`` in a new process using
    ``cache_dir``. The CPU seconds (user + system of the child and its own children) hardly
    depend on what else the shared machine runs, unlike the wall seconds."""
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = str(cache_dir)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    cpu_before, started = _child_cpu_seconds(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cardsim", *argv],
        cwd=work_dir,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    elapsed, cpu = time.perf_counter() - started, _child_cpu_seconds() - cpu_before
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"'cardsim {' '.join(argv)}' failed ({done.returncode}): {last}")
    return elapsed, cpu


def measure_cold(
    what: str, argv: Sequence[str], *, warm: bool = True, target: float | None = None, root: Path | None = None
) -> Timing:
    """Time ``cardsim argv`` with an empty numba cache, then (``warm``) again with it filled."""
    root = root or package_root()
    scratch = Path(tempfile.mkdtemp(prefix="cardsim-cold-"))
    cache_dir = scratch / "numba"
    cache_dir.mkdir()
    try:
        load = load_average()
        cold, cold_cpu = _timed_run(argv, cache_dir, scratch, root)
        files = sum(1 for _ in cache_dir.rglob("*.nbi"))
        warm_seconds = _timed_run(argv, cache_dir, scratch, root)[0] if warm else None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return Timing(what, "cardsim " + " ".join(argv), cold, cold_cpu, warm_seconds, files, load, target)


def compile_benchmark(
    games: Sequence[str], report: bool, on_row: Callable[[dict[str, Any]], None] | None = None, root: Path | None = None
) -> list[dict[str, Any]]:
    """Rows of ``cardsim bench compile``: each game's first small command cold and warm, and
    (``report``) ``cardsim report --quick`` cold."""
    rows = []
    for game in games:
        argv = (*get_game(game).first_command, *COMMON_FLAGS)
        rows.append(measure_cold(game, argv, target=FIRST_RUN_TARGET, root=root).row())
        if on_row is not None:
            on_row(rows[-1])
    if report:
        with tempfile.TemporaryDirectory(prefix="cardsim-report-") as out:
            argv = (*REPORT_COMMAND, "--out", str(Path(out) / "reports"), "--store", str(Path(out) / "results"))
            timing = measure_cold("report --quick", argv, warm=False, target=REPORT_TARGET, root=root)
        rows.append(timing.row())
        if on_row is not None:
            on_row(rows[-1])
    return rows


# ---------------------------------------------------------------------------------------------
# Warm-up: compile every kernel of the named games ahead of time.


def warmup_configs(game: str) -> list[Any]:
    """The configs whose first episode reaches every kernel of ``game``: the game's declared
    ``warmup_configs()`` if it has one, else one config per registered policy (when the game
    declares its ``policy_fields``), plus the report's default plan."""
    declared = get_game(game)
    simulator = declared.load_simulator()
    if declared.warmup_configs is not None:
        return list(resolve(declared.warmup_configs)())
    configs = [simulator.make_config()]
    for policy in simulator.policies:
        fields = {field: policy for field in declared.policy_fields}
        if fields:
            try:
                configs.append(simulator.make_config(**fields))
            except Exception:  # noqa: BLE001 - a policy this field cannot take is skipped
                continue
    from cardsim.reports.build import section_module
    from cardsim.reports.suite import PROFILES

    section, _ = section_module(game)
    if section is not None:
        configs += [simulator.make_config(**e.config) for e in section.plan(PROFILES["default"])]
    return covering(configs)


def covering(configs: Sequence[Any]) -> list[Any]:
    """The configs, in order, that each bring a field value not seen before (the elements of a
    tuple field counted one by one): every value still gets compiled for, without replaying
    hundreds of report configs that differ only in how the same values combine."""
    seen: set[tuple[str, Any]] = set()
    kept = []
    for config in configs:
        values = set()
        for field, value in vars(config).items():
            for item in value if isinstance(value, tuple) else (value,):
                values.add((field, item))
        if not values <= seen:
            seen |= values
            kept.append(config)
    return kept


def warm_one_game(game: str) -> tuple[str, int, float]:
    """Play one episode of each warm-up config of ``game`` (compiling and caching its kernels);
    returns (game, configs played, seconds). Runs in a worker process."""
    started = time.perf_counter()
    simulator = get_simulator(game)
    configs = warmup_configs(game)
    for config in configs:
        simulator.run_batch(config, chunk_generator(0, 0), 1)
    return game, len(configs), time.perf_counter() - started


def warm_up(games: Sequence[str], jobs: int, on_done: Callable[[tuple[str, int, float]], None] | None = None) -> None:
    """Compile the games' kernels, one worker process per game, ``jobs`` at a time (the
    longest-compiling games first); ``on_done`` hears of each finished game."""
    from joblib import Parallel, delayed

    order = sorted(games, key=lambda g: -(get_game(g).compile_seconds or 0))
    parallel = Parallel(n_jobs=max(1, min(jobs, len(order))), return_as="generator_unordered")
    for finished in parallel(delayed(warm_one_game)(game) for game in order):
        if on_done is not None:
            on_done(finished)


# ---------------------------------------------------------------------------------------------
# Each game's longest documented command (``Game.long_run``), timed whole.


def long_run_benchmark(
    games: Sequence[str] | None = None,
    *,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    run: Callable[[Sequence[str], Path, Path, Path], tuple[float, float]] = _timed_run,
) -> list[dict[str, Any]]:
    """Rows of ``cardsim bench long-runs``: every named game (default: all) that declares a
    ``long_run``, run whole in a new process as a user's first run (an empty numba cache, so
    its compile time counts; ``--store`` a scratch folder, so nothing resumes), with wall and
    CPU seconds (the process and its workers), the utilisation of the cores and whether the
    wall time is within the game's ``long_run_wall_s``. ``run`` runs one (tests replace it)."""
    rows: list[dict[str, Any]] = []
    for name in games if games is not None else names():
        game = get_game(name)
        if not game.long_run:
            continue
        scratch = Path(tempfile.mkdtemp(prefix="cardsim-bench-long-"))
        try:
            (scratch / "numba").mkdir()
            load = load_average()
            argv = (*game.long_run, "--store", str(scratch / "store"))
            wall, cpu = run(argv, scratch / "numba", scratch, package_root())
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        bound = game.long_run_wall_s
        rows.append(
            {
                "game": game.title,
                "wall_s": round(wall, 1),
                "cpu_s": round(cpu, 1),
                "utilisation": utilisation(cpu, wall),
                "target_wall_s": bound,
                "meets_target": None if bound is None else bool(wall <= bound),
                "load_1min": round(load, 2),
                "command": "cardsim " + " ".join(game.long_run),
            }
        )
        if on_row is not None:
            on_row(rows[-1])
    return rows


# ---------------------------------------------------------------------------------------------
# The README's main command as a user meets it: clone, fresh venv, install, `cardsim report`.

# Targets for the whole command on two cores (seconds wall, CPU seconds).
REPORT_WALL_TARGET = 360.0
REPORT_CPU_TARGET = 600.0
# Variables that would point the fresh install at this checkout or at caches and stores of
# the user's own: the benchmark runs without them.
_OWN_VARIABLES = ("PYTHONPATH", "NUMBA_CACHE_DIR", "CARDSIM_STORE", "VIRTUAL_ENV")


def _timed_step(argv: Sequence[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of ``argv`` run in ``cwd``,
    without the variables of :data:`_OWN_VARIABLES`; a failure is one RuntimeError line."""
    env = {name: value for name, value in os.environ.items() if name not in _OWN_VARIABLES}
    cpu_before, started = _child_cpu_seconds(), time.perf_counter()
    done = subprocess.run(list(argv), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed, cpu = time.perf_counter() - started, _child_cpu_seconds() - cpu_before
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"'{' '.join(argv)}' failed ({done.returncode}): {last}")
    return elapsed, cpu


def report_steps(clone: Path, source: Path, quick: bool) -> list[tuple[str, tuple[str, ...], Path]]:
    """The steps of the README's main command from a fresh clone of ``source`` into ``clone``:
    (name, argv, working folder) for clone, venv, install and report."""
    venv = clone / ".venv"
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    return [
        ("clone", ("git", "clone", "--quiet", str(source), str(clone)), clone.parent),
        ("venv", (sys.executable, "-m", "venv", str(venv)), clone),
        ("install", (str(scripts / "pip"), "install", "--quiet", "."), clone),
        ("report", (str(scripts / "cardsim"), "report", *(["--quick"] if quick else [])), clone),
    ]


def report_benchmark(
    quick: bool = False,
    *,
    source: Path | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    step: Callable[[Sequence[str], Path], tuple[float, float]] = _timed_step,
) -> list[dict[str, Any]]:
    """Rows of ``cardsim bench report``: the README's main command timed as a user meets it,
    step by step (a fresh ``git clone`` of ``source``'s committed HEAD, ``python -m venv``,
    ``pip install .``, then ``cardsim report``, which compiles every kernel into the new
    install's empty cache, plays every experiment and writes the files), and the total. Each
    row gives wall seconds, CPU seconds (the children's user + system) and the utilisation of
    the cores (CPU seconds / (wall seconds x cores)); the report and total rows compare with
    the targets. ``quick``: ``cardsim report --quick`` (a cheap check of the benchmark
    itself). ``step`` runs one step (tests replace it)."""
    source = source or package_root()
    scratch = Path(tempfile.mkdtemp(prefix="cardsim-bench-report-"))
    rows: list[dict[str, Any]] = []

    def row(what: str, wall: float, cpu: float, load: float, command: str) -> dict[str, Any]:
        targets = what in ("report", "total") and not quick
        return {
            "step": what,
            "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1),
            "utilisation": utilisation(cpu, wall),
            "target_wall_s": REPORT_WALL_TARGET if targets else None,
            "target_cpu_s": REPORT_CPU_TARGET if targets else None,
            "meets_target": bool(wall <= REPORT_WALL_TARGET and cpu <= REPORT_CPU_TARGET) if targets else None,
            "load_1min": round(load, 2),
            "command": command,
        }

    try:
        total_wall = total_cpu = 0.0
        load = load_average()
        for name, argv, cwd in report_steps(scratch / "cardsim", source, quick):
            cwd.mkdir(parents=True, exist_ok=True)
            step_load = load_average()
            wall, cpu = step(argv, cwd)
            total_wall, total_cpu = total_wall + wall, total_cpu + cpu
            shown = " ".join(argv).replace(str(scratch), "<tmp>")
            rows.append(row(name, wall, cpu, step_load, shown))
            if on_row is not None:
                on_row(rows[-1])
        rows.append(row("total", total_wall, total_cpu, load, "all of the above"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return rows
