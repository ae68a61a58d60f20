"""`cardsim bench TARGET`: speed benchmarks, each a ratio against a reference in the same process.

Each game that declares a ``bench`` (:class:`cardsim.sims.core.game.Game`) is a target, whose
``main(quick) -> list[dict]`` gives the rows; ``poker`` is the poker engine's
(``cardsim.sims.poker.bench``).
``compile`` is the cold-start benchmark of :mod:`cardsim.coldstart`: each game's first
small command with an empty numba cache and again warm, and (unless ``--quick``)
``cardsim report --quick`` with an empty cache. Where a cold run spends its compile time,
kernel by kernel, is development tooling: ``benchmarks/compile_profile.py``.
"""

from __future__ import annotations

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
    return {**found, "compile": None}


def bench_command(target: str, quick: bool, as_json: bool = False) -> None:
    """Run one benchmark and print its rows (in the command's --format; ``as_json``: any
    machine format, so progress notes stay off)."""
    known = targets()
    if target not in known:
        raise UserError(f"unknown benchmark {target!r}; choose one of: {', '.join(known)}")
    if target == "compile":
        compile_command(quick, as_json)
        return
    main = known[target]
    assert main is not None  # only "compile" has no dotted path, and it returned above
    rows = resolve(main)(quick)
    show_table(pl.DataFrame(rows), title=f"benchmark: {target}", name="benchmark")


def compile_command(quick: bool, as_json: bool) -> None:
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
        return
    show_table(pl.DataFrame(rows).drop("command", "cache_files"), title=title, name="compile")
    for row in rows:
        typer.echo(f"{row['what']}: {row['command']} ({row['cache_files']} kernels cached)")

