"""Two threads of one process play what a serial run plays: the engines keep no shared scratch
state, so a dask worker may run several tasks at once (``--nthreads`` above 1)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardsim

EXAMPLES = Path(__file__).parents[2] / "examples" / "strategies"


def in_two_threads(work: Callable[[int], Any], seeds: tuple[int, int]) -> list[Any]:
    """``work(seed)`` for both seeds at once, in two threads started together."""
    found: list[Any] = [None, None]
    failed: list[BaseException] = []
    start = threading.Barrier(2)

    def run(index: int) -> None:
        start.wait()
        try:
            found[index] = work(seeds[index])
        except BaseException as exc:  # re-raised below, in the test's thread
            failed.append(exc)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise failed[0]
    return found


WORK: dict[str, Callable[[int], Any]] = {
    "gang evaluate": lambda seed: cardsim.gang.evaluate(
        f"{EXAMPLES / 'gang_pairs_high.py'}:PairsHigh", players=3, n=60, seed=seed, jobs=1
    ),
    "thegame evaluate": lambda seed: cardsim.thegame.evaluate(
        f"{EXAMPLES / 'thegame_closest.py'}:Closest", players=3, n=40, seed=seed, jobs=1
    ),
    "bang evaluate": lambda seed: cardsim.bang.evaluate(
        f"{EXAMPLES / 'bang_renegade.py'}:TwoRules", role="renegade", players=5, n=30, seed=seed, jobs=1
    ),
    "cashnguns evaluate": lambda seed: cardsim.cashnguns.evaluate(
        f"{EXAMPLES / 'cashnguns_patient.py'}:Patient", players=4, n=60, seed=seed, jobs=1
    ),
    "gang run": lambda seed: cardsim.gang.heist(players=3, n=400, seed=seed, jobs=1, quiet=True),
    "thegame run": lambda seed: cardsim.thegame.run(players=3, strategy="signals", n=60, seed=seed, jobs=1, quiet=True),
    "bang run": lambda seed: cardsim.bang.run(players=5, n=60, seed=seed, jobs=1, quiet=True),
    "cashnguns run": lambda seed: cardsim.cashnguns.run(players=4, n=300, seed=seed, jobs=1, quiet=True),
    # strategies in processes of their own (isolation): one host per thread
    "gang crossplay": lambda seed: cardsim.gang.crossplay(
        [f"{EXAMPLES / 'gang_pairs_high.py'}:PairsHigh", f"{EXAMPLES / 'gang_percentile.py'}:Percentile"],
        players=3,
        n=20,
        seed=seed,
    ),
}


@pytest.mark.parametrize("what", list(WORK))
def test_two_threads_play_what_a_serial_run_plays(what: str) -> None:
    work = WORK[what]
    seeds = (11, 12)
    serial = [work(seed) for seed in seeds]
    threaded = in_two_threads(work, seeds)
    for alone, together in zip(serial, threaded, strict=True):
        for name, table in alone.tables.items():
            assert together.tables[name].equals(table), name
