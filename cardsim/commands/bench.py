"""`cardsim bench TARGET`: speed benchmarks, each a ratio against a reference in the same process.

Each game that declares a ``bench`` (:class:`cardsim.sims.core.game.Game`) is a target, whose
``main(quick) -> list[dict]`` gives the rows; ``poker`` is the poker engine's
(``cardsim.sims.poker.bench``).
``compile`` is the cold-start benchmark of :mod:`cardsim.coldstart`: each game's first
small command with an empty numba cache and again warm, and (unless ``--quick``)
``cardsim report --quick`` with an empty cache. Where a cold run spends its compile time,
kernel by kernel, is development tooling: ``benchmarks/compile_profile.py``.
``envs`` is the environments' (:mod:`cardsim.envs.bench`: steps per CPU-second of the batched
environments against the PettingZoo ones). ``strategies`` gathers every game's ``strategy_bench`` rows (each game's engine for
user strategies with a trivial strategy, beside its kernel, against its target per
CPU-second) and names the games without such an engine.

``--record`` saves the rows with the date, the commit and the machine in
``benchmarks/results/DATE-TARGET.json`` of the source checkout that holds the package, the
records the documentation's benchmarks page is generated from.
``report`` times the README's main command as a user meets it (:func:`cardsim.coldstart.report_benchmark`:
clone, fresh venv, install, ``cardsim report``); ``--quick`` times ``cardsim report --quick``.
``long-runs`` times each game's longest documented command whole against the bound its issue
set (``Game.long_run``, :func:`cardsim.coldstart.long_run_benchmark`).
``cluster`` runs the same work on joblib and on a dask LocalCluster of one and two workers
(:mod:`cardsim.analysis.scaling`; needs the ``distributed`` extra).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
from pathlib import Path

import polars as pl
import typer

from cardsim.commands.common import show_table, show_value
from cardsim.errors import UserError
from cardsim.sims.core.game import resolve

POKER_BENCH = "cardsim.sims.poker.bench:main"
ENVS_BENCH = "cardsim.envs.bench:main"
CLUSTER_BENCH = "cardsim.analysis.scaling:main"
STRATEGIES = "strategies"
LONG_RUNS = "long-runs"
#: A Cash'n Guns tournament of ten entrants, five written in Python (each in its own process).
TOURNAMENT = "tournament"
TOURNAMENT_BENCH = "cardsim.analysis.cashnguns.tournament:bench_rows"


def targets() -> dict[str, str | None]:
    """Benchmark name -> its ``main`` (dotted path): poker, every game with a benchmark,
    ``cluster``, and ``strategies``, ``compile``, ``report`` and ``long-runs`` (None: built in
    here)."""
    from cardsim.sims.registry import games

    found: dict[str, str | None] = {"poker": POKER_BENCH}
    found.update((name, game.bench) for name, game in games().items() if game.bench)
    found["envs"] = ENVS_BENCH
    found["cluster"] = CLUSTER_BENCH
    return {**found, STRATEGIES: None, "compile": None, "report": None, LONG_RUNS: None, TOURNAMENT: TOURNAMENT_BENCH}


def bench_command(target: str, quick: bool, as_json: bool = False, record: bool = False) -> None:
    """Run one benchmark and print its rows (in the command's --format; ``as_json``: any
    machine format, so progress notes stay off); ``record``: also save them (see the module)."""
    known = targets()
    if target not in known:
        raise UserError(f"unknown benchmark {target!r}; choose one of: {', '.join(known)}")
    folder = results_folder() if record else None
    started = machine()
    details: dict = {}
    if target == "compile":
        rows = compile_command(quick, as_json)
    elif target == STRATEGIES:
        rows, details["no_strategy_engine"] = strategies_command(quick)
    elif target == "report":
        rows = report_command(quick, as_json)
    elif target == LONG_RUNS:
        rows = long_runs_command(quick, as_json)
    else:
        main = known[target]
        assert main is not None  # only the built-in targets have no dotted path
        rows = resolve(main)(quick)
        show_table(pl.DataFrame(rows), title=f"benchmark: {target}", name="benchmark")
    if folder is not None:
        path = write_record(folder, target, quick, rows, started, details)
        typer.echo(f"recorded {path}", err=True)


def strategies_command(quick: bool) -> tuple[list[dict], list[str]]:
    """`cardsim bench strategies`: every game's ``strategy_bench`` rows in one table, then a
    line for each game without a user-strategy engine. Returns the rows and those games."""
    from cardsim.sims.core.strategy_bench import ROW_KEYS
    from cardsim.sims.registry import games

    rows: list[dict] = []
    missing: list[str] = []
    for game in games().values():
        if game.strategy_bench is None:
            missing.append(game.title)
            continue
        for row in resolve(game.strategy_bench)(quick):  # the keys of speed_row, in its order
            rows.append(
                {
                    **{key: row.get(key) for key in ROW_KEYS},
                    "game": row.get("game") or game.title,
                    **{key: value for key, value in row.items() if key not in ROW_KEYS},
                }
            )
    if rows:
        show_table(
            pl.DataFrame(rows, infer_schema_length=None),
            title="benchmark: user strategies (per CPU-second; ratio = engine / kernel, same table, same run)",
            name="strategies",
        )
    show_value(
        "no_strategy_engine", missing, text="\n".join(f"{title}: no strategy engine" for title in missing) or None
    )
    return rows, missing


def results_folder() -> Path:
    """``benchmarks/results/`` of the source checkout that holds the package (``--record``)."""
    import cardsim

    root = Path(cardsim.__file__).resolve().parents[1]
    if not (root / "benchmarks").is_dir():
        raise UserError(f"--record saves to benchmarks/results/ of a source checkout; {root} has no benchmarks folder")
    return root / "benchmarks" / "results"


def machine() -> dict:
    """What the figures depend on: cores, processor, Python, and the load when the run began."""
    return {
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "load_1min": round(os.getloadavg()[0], 2),
    }


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    except OSError:
        return ""
    return done.stdout.strip()


def write_record(
    folder: Path, target: str, quick: bool, rows: list[dict], started: dict, details: dict | None = None
) -> Path:
    """Save ``rows`` as ``folder/DATE-TARGET.json`` with the command, the date, the commit
    (``+changes`` when tracked files differ from it) and the machine as the run began."""
    root = folder.parent.parent
    commit = _git(root, "rev-parse", "HEAD")
    dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no"))
    entry = {
        "target": target,
        "command": "cardsim bench " + target + (" --quick" if quick else ""),
        "date": datetime.date.today().isoformat(),
        "commit": commit + ("+changes" if dirty else ""),
        "machine": started,
        "rows": rows,
    }
    if details:
        entry["details"] = details
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{entry['date']}-{target}.json"
    path.write_text(json.dumps(entry, indent=1, default=str) + "\n", encoding="utf-8")
    return path


def report_command(quick: bool, as_json: bool) -> list[dict]:
    """`cardsim bench report`: the README's main command from a fresh clone, step by step."""
    from cardsim.coldstart import report_benchmark

    def note(row: dict) -> None:
        if not as_json:
            typer.echo(
                f"  {row['step']}: {row['wall_s']} s wall, {row['cpu_s']} CPU s "
                f"(utilisation {row['utilisation']}, load {row['load_1min']})",
                err=True,
            )

    rows = report_benchmark(quick, on_row=note)
    title = (
        "benchmark: report (the README's main command from a fresh clone; seconds, CPU "
        "seconds, utilisation = CPU / (wall x cores))"
    )
    show_table(pl.DataFrame(rows), title=title, name="report", as_json=as_json)
    return rows


def compile_command(quick: bool, as_json: bool) -> list[dict]:
    """`cardsim bench compile`: cold and warm first runs (and the quick report unless quick);
    returns the rows."""
    from cardsim.coldstart import compile_benchmark, first_commands

    def note(row: dict) -> None:
        if not as_json:
            typer.echo(
                f"  {row['what']}: {row['cold_s']} s cold ({row['cold_cpu_s']} CPU s), "
                f"{row['warm_s']} s warm "
                f"(load {row['load_1min']})",
                err=True,
            )

    rows = compile_benchmark(list(first_commands()), report=not quick, on_row=note)
    title = "benchmark: compile (seconds; cold = fresh NUMBA_CACHE_DIR, warm = run again)"
    if as_json:
        show_table(pl.DataFrame(rows), title=title, name="compile", as_json=True)
        return rows
    show_table(pl.DataFrame(rows).drop("command", "cache_files"), title=title, name="compile")
    for row in rows:
        typer.echo(f"{row['what']}: {row['command']} ({row['cache_files']} kernels cached)")
    return rows


def long_runs_command(quick: bool, as_json: bool) -> list[dict]:
    """`cardsim bench long-runs`: each game's longest documented command, timed whole."""
    from cardsim.coldstart import long_run_benchmark

    if quick:
        raise UserError("cardsim bench long-runs times whole runs against their bounds; it has no --quick")

    def note(row: dict) -> None:
        if not as_json:
            typer.echo(
                f"  {row['game']}: {row['wall_s']} s wall, {row['cpu_s']} CPU s "
                f"(bound {row['target_wall_s']} s wall, load {row['load_1min']})",
                err=True,
            )

    rows = long_run_benchmark(on_row=note)
    title = (
        "benchmark: long runs (each game's longest documented command, first run: empty numba "
        "cache; seconds, CPU seconds, utilisation = CPU / (wall x cores))"
    )
    show_table(pl.DataFrame(rows), title=title, name="long-runs", as_json=as_json)
    return rows
