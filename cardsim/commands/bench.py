"""`cardsim bench TARGET`: speed benchmarks, each a ratio against a reference in the same process.

Each target's module ``cardsim.sims.<target>.bench`` has ``main(quick) -> list[dict]``.
"""

from __future__ import annotations

import importlib

import polars as pl

from cardsim.commands.common import show_table
from cardsim.errors import UserError

TARGETS = ("poker", "gang", "thegame", "cashnguns", "bang")


def bench_command(target: str, quick: bool) -> None:
    """Run one benchmark and print its rows (in the command's --format)."""
    if target not in TARGETS:
        raise UserError(f"unknown benchmark {target!r}; choose one of: {', '.join(TARGETS)}")
    module = importlib.import_module(f"cardsim.sims.{target}.bench")
    rows = module.main(quick)
    show_table(pl.DataFrame(rows), title=f"benchmark: {target}", name="benchmark")
