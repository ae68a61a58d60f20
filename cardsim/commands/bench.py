"""`cardsim bench TARGET`: speed benchmarks, each a ratio against a reference in the same process.

Each game target's module ``cardsim.sims.<target>.bench`` has ``main(quick) -> list[dict]``.
``compile`` is the cold-start benchmark of :mod:`cardsim.coldstart`: each game's first
small command with an empty numba cache and again warm, and (unless ``--quick``)
``cardsim report --quick`` with an empty cache. Where a cold run spends its compile time,
kernel by kernel, is development tooling: ``benchmarks/compile_profile.py``.
"""

from __future__ import annotations

import importlib

import polars as pl
import typer

from cardsim.commands.common import show_table
from cardsim.errors import UserError

TARGETS = ("poker", "gang", "thegame", "cashnguns", "bang", "compile")


def bench_command(target: str, quick: bool, as_json: bool = False) -> None:
    """Run one benchmark and print its rows (in the command's --format; ``as_json``: any
    machine format, so progress notes stay off)."""
    if target not in TARGETS:
        raise UserError(f"unknown benchmark {target!r}; choose one of: {', '.join(TARGETS)}")
    if target == "compile":
        compile_command(quick, as_json)
        return
    module = importlib.import_module(f"cardsim.sims.{target}.bench")
    rows = module.main(quick)
    show_table(pl.DataFrame(rows), title=f"benchmark: {target}", name="benchmark")


def compile_command(quick: bool, as_json: bool) -> None:
    """`cardsim bench compile`: cold and warm first runs (and the quick report unless quick)."""
    from cardsim.coldstart import FIRST_COMMANDS, compile_benchmark

    def note(row: dict) -> None:
        if not as_json:
            typer.echo(f"  {row['what']}: {row['cold_s']} s cold ({row['cold_cpu_s']} CPU s), "
                       f"{row['warm_s']} s warm "
                       f"(load {row['load_1min']})", err=True)

    rows = compile_benchmark(list(FIRST_COMMANDS), report=not quick, on_row=note)
    title = "benchmark: compile (seconds; cold = fresh NUMBA_CACHE_DIR, warm = run again)"
    if as_json:
        show_table(pl.DataFrame(rows), title=title, name="compile", as_json=True)
        return
    show_table(pl.DataFrame(rows).drop("command", "cache_files"), title=title, name="compile")
    for row in rows:
        typer.echo(f"{row['what']}: {row['command']} ({row['cache_files']} kernels cached)")

