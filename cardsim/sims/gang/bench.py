"""`cardsim bench gang`: heists per second of the shared-work kernel against a naive reference.

The reference (:func:`naive_history_batch`) plays the same heists with the history model but
rates every player by enumerating that player's own opponent holdings and scoring each one
from scratch (no per-board sharing). It consumes the same random numbers, so it must give
exactly the kernel's chips; ``tests/gang/test_bench.py`` checks that, and the benchmark
reports the speed ratio.
"""

from __future__ import annotations

import os
import time

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.engine import play_batch, showdown_in_order
from cardsim.sims.gang.holdings import BOARD_SIZES, hand_score, preflop_value
from cardsim.sims.gang.models import PLAYER_MODELS


@kernel
def _naive_rating(pocket: np.ndarray, board: np.ndarray, shown: int) -> float:
    """Percentile of one player's hand among their opponent holdings, each scored in full."""
    seen = np.zeros(52, dtype=np.bool_)
    seen[pocket[0]] = True
    seen[pocket[1]] = True
    for k in range(shown):
        seen[board[k]] = True
    mine = preflop_value(pocket, 2) if shown == 0 else hand_score(pocket, 2, board, shown)
    other = np.empty(2, dtype=np.int64)
    less = 0
    equal = 0
    total = 0
    for a in range(52):
        if seen[a]:
            continue
        for b in range(a + 1, 52):
            if seen[b]:
                continue
            other[0], other[1] = a, b
            if shown == 0:
                theirs = preflop_value(other, 2)
            else:
                theirs = hand_score(other, 2, board, shown)
            total += 1
            if theirs < mine:
                less += 1
            elif theirs == mine:
                equal += 1
    return (less + 0.5 * equal) / total


@kernel
def naive_history_batch(
    decks: np.ndarray, seeds: np.ndarray, players: int, chips_out: np.ndarray, success_out: np.ndarray
) -> None:
    """The history model (levels 1, no cards) with per-player naive enumeration."""
    pocket = np.empty(2, dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    keys = np.empty(players)
    finals = np.empty(players, dtype=np.int64)
    for i in range(seeds.shape[0]):
        np.random.seed(seeds[i])
        for k in range(5):
            board[k] = decks[i, 2 * players + k]
        for r in range(4):
            shown = BOARD_SIZES[r]
            for p in range(players):
                pocket[0], pocket[1] = decks[i, 2 * p], decks[i, 2 * p + 1]
                band = min(int(_naive_rating(pocket, board, shown) * players), players - 1)
                key = float(band)
                for t in range(r - 1, -1, -1):
                    key = key * 8.0 + chips_out[i, t, p]
                keys[p] = key * 8.0 + np.random.random()
            order = np.argsort(keys)
            for k in range(players):
                chips_out[i, r, order[k]] = k + 1
        for p in range(players):
            pocket[0], pocket[1] = decks[i, 2 * p], decks[i, 2 * p + 1]
            finals[p] = hand_score(pocket, 2, board, 5)
        success_out[i] = showdown_in_order(finals, chips_out[i, 3], players)


def _rate(model: int, n: int, players: int = 4, seed: int = 0) -> float:
    """Heists per second of the kernel for one model (no cards, levels 1)."""
    zeros = np.zeros(n, dtype=np.int64)
    play_batch(np.random.default_rng(seed), players, model, 1, zeros[:50], zeros[:50])  # warm
    start = time.process_time()
    play_batch(np.random.default_rng(seed), players, model, 1, zeros, zeros)
    return n / (time.process_time() - start)


def _naive_rate(n: int, players: int = 4) -> float:
    rng = np.random.default_rng(1)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (n, 1)), axis=1)
    seeds = rng.integers(0, 2**32 - 1, size=n, dtype=np.int64)
    chips = np.zeros((n, 4, players), dtype=np.int64)
    success = np.zeros(n, dtype=np.bool_)
    naive_history_batch(decks[:5], seeds[:5], players, chips[:5], success[:5])  # warm
    chips[:] = 0
    start = time.process_time()
    naive_history_batch(decks, seeds, players, chips, success)
    return n / (time.process_time() - start)


def _runner_seconds(n: int, jobs: int) -> float:
    """Wall time of ``n`` history heists through the runner (in memory) with ``jobs`` workers."""
    from cardsim.sims.core.runner import run
    from cardsim.sims.gang.simulator import SIMULATOR

    config = SIMULATOR.make_config(players=4, model="history")
    run(SIMULATOR, config, n=1000, seed=99, jobs=jobs)  # start the workers, load the kernels
    start = time.perf_counter()
    run(SIMULATOR, config, n=n, seed=1, jobs=jobs)
    return time.perf_counter() - start


class _FirstChip:
    """The trivial user strategy the speed target is stated for: every seat takes the 1-star."""

    def take_chip(self, view: object, legal: tuple[int, ...]) -> int:
        return legal[0]


STRATEGY_TARGET = 2_000  # heists per CPU-second with a trivial user strategy


def strategy_rows(quick: bool = False, players: int = 4) -> list[dict]:
    """Heists per CPU-second of the user-strategy engine (:mod:`cardsim.sims.gang.strategy`)
    with a trivial strategy on every seat, every decision checked as for a user's, beside the
    kernel's percentile model (the default comparator of ``cardsim gang evaluate``) on the
    same deals in the same run (``cardsim bench strategies``)."""
    from cardsim.sims.core.strategy_bench import best_cpu_seconds, speed_row
    from cardsim.sims.gang.strategy import builtin_heists, draw_deals, play_heists

    n = 1_000 if quick else 4_000
    repeats = 2 if quick else 3
    strategy = _FirstChip()
    decks, seeds = draw_deals(np.random.default_rng(3), n)
    play_heists(strategy, "bench", players, decks[:20], seeds[:20])  # load the kernels
    cpu_seconds = best_cpu_seconds(lambda: play_heists(strategy, "bench", players, decks, seeds), repeats)
    kernel_n = max(n, 20_000)
    builtin_heists("percentile", players, np.random.default_rng(3), 20)
    kernel_seconds = best_cpu_seconds(
        lambda: builtin_heists("percentile", players, np.random.default_rng(3), kernel_n), repeats
    )
    return [
        speed_row(
            game="The Gang",
            what="trivial strategy on every seat (the 1-star chip), no cards, levels 1",
            players=players,
            unit="heists",
            n=n,
            cpu_seconds=cpu_seconds,
            kernel="percentile",
            kernel_per_second=kernel_n / kernel_seconds,
            target=STRATEGY_TARGET,
        )
    ]


def main(quick: bool = False) -> list[dict]:
    """Rows: heists/s per model on one core (4 players, all four rounds; CPU time of this
    process, so other load on the machine does not count), the naive reference and the
    ratio; the runner's wall time for 1M history heists on 2 cores (extrapolated from 200k,
    or 50k with ``quick``). Targets: history >= 50,000/s, bayes >= 6,000/s; 1M < 60 s.
    The user-strategy engine's heists per CPU-second are ``cardsim bench strategies``'s
    (:func:`strategy_rows`, target >= 2,000/s)."""
    scale = 1 if quick else 4
    naive = _naive_rate(300 * scale)
    rows = [
        {
            "what": "naive per-player enumeration, history, 4 players (reference)",
            "per_second": round(naive),
            "ratio": 1.0,
            "target": "",
        }
    ]
    for model in PLAYER_MODELS:
        rate = _rate(model.id, model.bench_heists * scale)
        target = model.bench_target
        rows.append(
            {
                "what": f"kernel, {model.name}, 4 players, one core",
                "per_second": round(rate),
                "ratio": round(rate / naive, 2),
                "target": f">= {target:,}/s: {'met' if rate >= target else 'NOT met'}" if target else "",
            }
        )
    jobs = min(2, os.cpu_count() or 1)
    n_runner = 50_000 if quick else 200_000
    seconds = _runner_seconds(n_runner, jobs) * 1_000_000 / n_runner
    rows.append(
        {
            "what": f"runner, history, 1M heists on {jobs} cores (from {n_runner:,}), seconds",
            "per_second": round(1_000_000 / seconds),
            "ratio": round(1_000_000 / seconds / naive, 2),
            "target": f"< 60 s: {'met' if seconds < 60 else 'NOT met'} ({seconds:.1f} s)",
        }
    )
    return rows
