"""`cardsim bench thegame`: games per second per strategy on one core.

Speed is CPU time of this process (``time.process_time``), so other jobs on the machine do not
inflate it; every row also gives the ratio against the plain-Python greedy
(:func:`cardsim.sims.thegame.reference.greedy_game`) measured in the same process. Targets:
greedy >= 50,000 games/s, planner and signals >= 10,000 games/s, search <= 20 ms per move, and
omniscient >= 1,000 games/s (so that ``cardsim thegame run --strategy all --n 100000`` takes
minutes, not hours). User strategies run in the Python engine of
:mod:`cardsim.sims.thegame.strategy`; its target is 500 games per CPU second for a trivial
strategy (the first legal choice), and a second row shows full-length games (closest card).

Timings of the same work vary from run to run on a shared machine, so, as ``timeit`` advises,
each speed (kernel and reference alike) is the best of ``REPEATS`` timings of the same games:
noise only ever slows a run down.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

from cardsim.sims.thegame.batch import play_games
from cardsim.sims.thegame.config import STRATEGIES
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.reference import greedy_game
from cardsim.sims.thegame.rules import rules_hand_size
from cardsim.sims.thegame.state import S_CARDS_LEFT, S_TURNS, deal_deck

TARGETS: dict[str, float] = {"greedy": 50_000.0, "planner": 10_000.0, "signals": 10_000.0, "omniscient": 1_000.0}
SEARCH_MOVE_BUDGET_MS = 20.0
USER_STRATEGY_TARGET = 500.0
REPEATS = 3


class FirstLegal:
    """The trivial user strategy: the first legal choice, so it ends its turn as soon as the
    minimum is played and otherwise plays the first card that fits (its games are short)."""

    def play(self, view, legal):
        return legal[0]


class ClosestCard:
    """A plain user strategy whose games last as long as a built-in's: the minimum, each card
    on the pile it fits most closely."""

    def play(self, view, legal):
        if view.to_play == 0:
            return None
        piles = view.piles
        return min(legal, key=lambda o: o[0] - piles[o[1]] if o[1] < 2 else piles[o[1]] - o[0])


def user_strategy_speed(user: object, players: int, n: int) -> tuple[float, float]:
    """(games per CPU second, decisions per CPU second) of the Python engine with ``user`` at
    every seat, every decision checked as in ``cardsim thegame evaluate``; decisions are
    counted as the cards played plus one turn end per turn (a turn that cannot go on ends
    without asking, so this slightly overcounts)."""
    from cardsim.sims.thegame.strategy import play_games as engine_games

    seeds = np.arange(n, dtype=np.int64) * 7919 + 1
    engine_games(user, "bench", seeds[:2], players)  # compile / load the cache
    elapsed = []
    for _ in range(REPEATS):
        start = time.process_time()
        rows = engine_games(user, "bench", seeds, players)
        elapsed.append(time.process_time() - start)
    plays = int(98 * n - rows[:, S_CARDS_LEFT].astype(np.int64).sum())
    decisions = plays + int(rows[:, S_TURNS].astype(np.int64).sum())  # each turn also ends
    return n / min(elapsed), decisions / min(elapsed)


def kernel_speed(strategy: str, players: int, n: int) -> tuple[float, float]:
    """(games per CPU second, mean turns per game) of the batch kernel."""
    seeds = np.arange(n, dtype=np.int64) * 7919 + 1
    args = (
        players,
        int(rules_hand_size(players)),
        2,
        True,
        STRATEGIES[strategy][0],
        strategy_params(players, strategy),
    )
    play_games(seeds[:2], *args)  # compile / load the cache outside the timing
    elapsed = []
    for _ in range(REPEATS):
        start = time.process_time()
        stats = play_games(seeds, *args)
        elapsed.append(time.process_time() - start)
    return n / min(elapsed), float(stats[:, S_TURNS].mean())


def reference_speed(players: int, n: int) -> float:
    """Games per CPU second of the plain-Python greedy on the same deals."""
    decks = [deal_deck(i * 7919 + 1).tolist() for i in range(n)]
    size = int(rules_hand_size(players))
    elapsed = []
    for _ in range(REPEATS):
        start = time.process_time()
        for deck in decks:
            greedy_game(deck, players, size, 2, True)
        elapsed.append(time.process_time() - start)
    return n / min(elapsed)


def main(quick: bool) -> list[dict]:
    """One row per strategy and player count (1 and 5), plus the reference rows."""
    sizes = {
        "random": 100_000,
        "greedy": 100_000,
        "planner": 20_000,
        "signals": 20_000,
        "search": 5_000,
        "omniscient": 2_000,
    }
    scale = 10 if quick else 1
    rows: list[dict] = []
    for players in (1, 5):
        reference = reference_speed(players, 400 // scale)
        rows.append({"what": f"plain-Python greedy, {players}p", "games_per_second": round(reference, 1), "ratio": 1.0})
        for strategy in STRATEGIES:
            n = max(2, sizes[strategy] // scale)
            speed, turns = kernel_speed(strategy, players, n)
            row: dict = {
                "what": f"{strategy}, {players}p",
                "games_per_second": round(speed, 1),
                "ratio": round(speed / reference, 1),
                "ms_per_move": round(1000.0 / (speed * turns), 4),
            }
            if strategy in TARGETS:
                row["target"] = TARGETS[strategy]
                row["meets_target"] = bool(speed >= TARGETS[strategy])
            if strategy == "search":
                row["target_ms_per_move"] = SEARCH_MOVE_BUDGET_MS
                row["meets_target"] = bool(row["ms_per_move"] <= SEARCH_MOVE_BUDGET_MS)
            rows.append(row)
    for name, user in (("first legal choice", FirstLegal()), ("closest card", ClosestCard())):
        speed, decisions = user_strategy_speed(user, 3, 400 // scale)
        row = {
            "what": f"user strategy ({name}), 3p",
            "games_per_second": round(speed, 1),
            "decisions_per_second": round(decisions, 1),
        }
        if name == "first legal choice":
            row["target"] = USER_STRATEGY_TARGET
            row["meets_target"] = bool(speed >= USER_STRATEGY_TARGET)
        rows.append(row)
    return rows


def strategy_rows(quick: bool = False, players: int = 3) -> list[dict]:
    """Games per CPU-second of the user-strategy engine (:mod:`cardsim.sims.thegame.strategy`)
    with :class:`FirstLegal` on every seat, every decision checked as for a user's, beside the
    kernel's signals strategy (the default comparator of ``cardsim thegame evaluate``) on the
    same deals in the same run (``cardsim bench strategies``); then :class:`ClosestCard`,
    whose games last as long as a built-in's, for information."""
    from cardsim.sims.core.strategy_bench import best_cpu_seconds, speed_row
    from cardsim.sims.thegame.strategy import play_games as engine_games

    n = 500 if quick else 2_000
    repeats = 2 if quick else REPEATS
    seeds = np.arange(max(n, 5_000), dtype=np.int64) * 7919 + 1
    args = (
        players,
        int(rules_hand_size(players)),
        2,
        True,
        STRATEGIES["signals"][0],
        strategy_params(players, "signals"),
    )
    play_games(seeds[:2], *args)  # compile / load the cache outside the timing
    kernel_seconds = best_cpu_seconds(lambda: play_games(seeds, *args), repeats)
    rows = []
    for what, user, target in (
        ("trivial strategy on every seat (the first legal choice)", FirstLegal(), round(USER_STRATEGY_TARGET)),
        ("closest card on every seat (games as long as a built-in's)", ClosestCard(), None),
    ):
        engine_games(user, "bench", seeds[:2], players)  # compile / load the cache
        cpu_seconds = best_cpu_seconds(partial(engine_games, user, "bench", seeds[:n], players), repeats)
        rows.append(
            speed_row(
                game="The Game",
                what=what,
                players=players,
                unit="games",
                n=n,
                cpu_seconds=cpu_seconds,
                kernel="signals",
                kernel_per_second=seeds.size / kernel_seconds,
                target=target,
            )
        )
    return rows
