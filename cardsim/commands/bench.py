"""`cardsim bench TARGET`: speed benchmarks, each a ratio against a reference in the same process.

Each game that declares a ``bench`` (:class:`cardsim.sims.core.game.Game`) is a target, whose
``main(quick) -> list[dict]`` gives the rows; ``poker`` is the poker engine's
(``cardsim.sims.poker.bench``).
``compile`` is the cold-start benchmark of :mod:`cardsim.coldstart`: each game's first
small command with an empty numba cache and again warm, and (unless ``--quick``)
``cardsim report --quick`` with an empty cache. Where a cold run spends its compile time,
kernel by kernel, is development tooling: ``benchmarks/compile_profile.py``.
``report`` times the README's main command as a user meets it (:func:`cardsim.coldstart.report_benchmark`:
clone, fresh venv, install, ``cardsim report``); ``--quick`` times ``cardsim report --quick``.
``--record`` also writes the rows, with the date, commit and machine, to
``benchmarks/results/DATE-TARGET.json`` of the checkout (as ``benchmarks/record.py`` does).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import typer

from cardsim.commands.common import show_table
from cardsim.errors import UserError
from cardsim.sims.core.game import resolve

POKER_BENCH = "cardsim.sims.poker.bench:main"


def targets() -> dict[str, str | None]:
    """Benchmark name -> its ``main`` (dotted path): poker, every game with a benchmark, and
    ``compile`` (None: built in here)."""
    from cardsim.sims.registry import games

    found: dict[str, str | None] = {"poker": POKER_BENCH}
    found.update((name, game.bench) for name, game in games().items() if game.bench)
    return {**found, "compile": None, "report": None}


def bench_command(target: str, quick: bool, as_json: bool = False, record: bool = False) -> None:
    """Run one benchmark and print its rows (in the command's --format; ``as_json``: any
    machine format, so progress notes stay off); ``record``: also write them to
    ``benchmarks/results/`` (:func:`record_rows`)."""
    known = targets()
    if target not in known:
        raise UserError(f"unknown benchmark {target!r}; choose one of: {', '.join(known)}")
    if record:
        results_folder()  # a missing folder fails before the benchmark, not after it
    if target == "compile":
        rows = compile_command(quick, as_json)
    elif target == "report":
        rows = report_command(quick, as_json)
    else:
        main = known[target]
        assert main is not None  # only "compile" and "report" have no dotted path
        rows = resolve(main)(quick)
        show_table(pl.DataFrame(rows), title=f"benchmark: {target}", name="benchmark")
    if record:
        path = record_rows(target, quick, rows)
        if not as_json:
            typer.echo(f"recorded in {path}", err=True)


def results_folder() -> Path:
    """``benchmarks/results`` of the checkout cardsim runs from (a UserError outside one)."""
    from cardsim.coldstart import package_root

    folder = package_root() / "benchmarks" / "results"
    if not folder.is_dir():
        raise UserError(f"--record: no benchmarks/results folder in {package_root()} "
                        "(record from a checkout of the repository)")
    return folder


def record_rows(target: str, quick: bool, rows: list[dict]) -> Path:
    """Write a benchmark's rows to ``benchmarks/results/DATE-TARGET.json`` with the command,
    date, commit (``+changes`` when the checkout has uncommitted changes) and machine, in the
    form ``benchmarks/record.py`` writes."""
    import datetime
    import json
    import os
    import platform
    import subprocess

    from cardsim.coldstart import package_root

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=package_root(), capture_output=True, text=True)
        return done.stdout.strip()

    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    entry = {"target": target, "command": f"cardsim bench {target}" + (" --quick" if quick else ""),
             "date": datetime.date.today().isoformat(),
             "commit": git("rev-parse", "HEAD") + ("+changes" if dirty else ""),
             "machine": {"machine": platform.machine(), "processor": platform.processor(),
                         "cpus": os.cpu_count(), "python": platform.python_version(),
                         "system": f"{platform.system()} {platform.release()}",
                         "load_1min": round(os.getloadavg()[0], 2)},
             "rows": rows}
    path = results_folder() / f"{entry['date']}-{target}.json"
    path.write_text(json.dumps(entry, indent=1) + "\n", encoding="utf-8")
    return path


def report_command(quick: bool, as_json: bool) -> list[dict]:
    """`cardsim bench report`: the README's main command from a fresh clone, step by step."""
    from cardsim.coldstart import report_benchmark

    def note(row: dict) -> None:
        if not as_json:
            typer.echo(f"  {row['step']}: {row['wall_s']} s wall, {row['cpu_s']} CPU s "
                       f"(utilisation {row['utilisation']}, load {row['load_1min']})", err=True)

    rows = report_benchmark(quick, on_row=note)
    title = ("benchmark: report (the README's main command from a fresh clone; seconds, CPU "
             "seconds, utilisation = CPU / (wall x cores))")
    show_table(pl.DataFrame(rows), title=title, name="report", as_json=as_json)
    return rows


def compile_command(quick: bool, as_json: bool) -> list[dict]:
    """`cardsim bench compile`: cold and warm first runs (and the quick report unless quick)."""
    from cardsim.coldstart import compile_benchmark, first_commands

    def note(row: dict) -> None:
        if not as_json:
            typer.echo(f"  {row['what']}: {row['cold_s']} s cold ({row['cold_cpu_s']} CPU s), "
                       f"{row['warm_s']} s warm "
                       f"(load {row['load_1min']})", err=True)

    rows = compile_benchmark(list(first_commands()), report=not quick, on_row=note)
    title = "benchmark: compile (seconds; cold = fresh NUMBA_CACHE_DIR, warm = run again)"
    if as_json:
        show_table(pl.DataFrame(rows), title=title, name="compile", as_json=True)
        return rows
    show_table(pl.DataFrame(rows).drop("command", "cache_files"), title=title, name="compile")
    for row in rows:
        typer.echo(f"{row['what']}: {row['command']} ({row['cache_files']} kernels cached)")
    return rows

