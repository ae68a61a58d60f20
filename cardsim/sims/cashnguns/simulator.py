"""Cash'n Guns as the runner sees it: config, batch of full games, one row per game."""

from __future__ import annotations

import numpy as np
import polars as pl

from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.kernel import play_batch
from cardsim.sims.cashnguns.rng import private_seeds
from cardsim.sims.cashnguns.rules import UNIT_DOLLARS
from cardsim.sims.cashnguns.search import SEARCH_MARK, play_search_lineups
from cardsim.sims.cashnguns.strategies import N_PARAMS, NAMED_STRATEGIES, PARAM_BULLET
from cardsim.sims.core.simulator import Simulator


def strategy_rows(strategies) -> np.ndarray:
    """The kernel's float rows (one per strategy) of a sequence of :class:`Strategy`."""
    return np.array([s.param_row() for s in strategies], np.float64).reshape(len(strategies), N_PARAMS)


def play_games(config: CashNGunsConfig, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Raw kernel output for one game per uint64 seed (see :func:`kernel.play_batch`); a
    table with strategies written in Python is played by the engine (:func:`engine_lineups`)."""
    seeds = np.asarray(seeds, np.uint64)
    if config.python_slots():
        lineups = np.broadcast_to(np.arange(config.players, dtype=np.int64), (seeds.shape[0], config.players))
        return engine_lineups(seeds, lineups, config.slot_specs(), config.shame_value)
    lineups = np.broadcast_to(np.arange(config.players, dtype=np.int64), (seeds.shape[0], config.players))
    return play_lineups(
        seeds, np.ascontiguousarray(lineups), strategy_rows(config.slot_strategies()), config.shame_value
    )


def play_lineups(seeds: np.ndarray, lineups: np.ndarray, rows: np.ndarray, shame_value: int) -> tuple[np.ndarray, ...]:
    """Raw kernel output for one game per seed, slot ``s`` of game ``g`` playing strategy row
    ``rows[lineups[g, s]]``; ``shame_value`` in dollars. Games with a ``search`` slot
    (:mod:`search`) are played by its engine, the others by the kernel."""
    seeds = np.asarray(seeds, np.uint64)
    lineups = np.asarray(lineups, np.int64)
    searching = np.flatnonzero(rows[:, PARAM_BULLET] == SEARCH_MARK) if rows.shape[0] else np.zeros(0, np.int64)
    if searching.size == 0:
        return play_batch(seeds, private_seeds(seeds, lineups.shape[1]), lineups, rows, shame_value / UNIT_DOLLARS)
    with_search = np.isin(lineups, searching).any(axis=1)
    plain = ~with_search
    safe_rows = rows.copy()
    safe_rows[searching] = 0.0  # never played by the kernel (their games go to the search engine)
    out = play_batch(
        seeds[plain],
        private_seeds(seeds[plain], lineups.shape[1]),
        np.ascontiguousarray(lineups[plain]),
        safe_rows,
        shame_value / UNIT_DOLLARS,
    )
    searched = play_search_lineups(seeds[with_search], lineups[with_search], rows, shame_value)
    merged = []
    for kernel_part, search_part in zip(out, searched, strict=True):
        full = np.zeros((seeds.shape[0], *kernel_part.shape[1:]), kernel_part.dtype)
        full[plain] = kernel_part
        full[with_search] = search_part
        merged.append(full)
    return tuple(merged)


def engine_lineups(
    seeds: np.ndarray, lineups: np.ndarray, specs: tuple[str, ...] | list[str], shame_value: int
) -> tuple[np.ndarray, ...]:
    """:func:`play_lineups`'s output for lineups that may hold strategies written in Python
    (``FILE.py:NAME`` among ``specs``) or registered players (``strategy.PLAYERS``, played in
    this process): each strategy written in Python runs in its own process
    (:func:`~cardsim.sims.core.isolation.isolated_strategy`, started again as loaded, so the
    games do not depend on what the process played before) and sees a copy of its view; the
    games are played by :func:`strategy.play_games`, which draws the random stream as the
    kernel does, several games side by side so that each strategy's process is asked many
    decisions in one message (:func:`strategy.play_games_interleaved`). A failing strategy
    raises one ``StrategyError``."""
    from cardsim.sims.cashnguns.config import is_file_spec
    from cardsim.sims.cashnguns.strategies import parse_strategy
    from cardsim.sims.cashnguns.strategy import DECISIONS, PLAYERS, Seat, play_games_interleaved
    from cardsim.sims.core.isolation import isolated_strategy

    players = lineups.shape[1]
    entrants = [
        Seat(isolated_strategy(spec, DECISIONS, fresh=True), spec)
        if is_file_spec(spec)
        else Seat(PLAYERS[spec](), spec)
        if spec in PLAYERS
        else parse_strategy(spec).param_row()
        for spec in specs
    ]
    lineups = np.asarray(lineups, np.int64)
    tables = [[entrants[index] for index in row] for row in lineups.tolist()]
    n = len(tables)
    out = (
        np.zeros((n, players), np.int32),
        np.zeros((n, players), np.int8),
        np.zeros((n, players), np.int8),
        np.zeros((n, players), np.bool_),
        np.zeros((n, players), np.bool_),
        np.zeros((n, players), np.int8),
        np.zeros((n, players, 3), np.int8),
        np.zeros(n, np.int8),
        np.zeros(n, np.int32),
        np.zeros(n, np.int32),
        np.zeros(n, np.int32),
    )
    money, wounds, shame, alive, winner, shots, cards, rounds, drawn, paid, left = out
    for game, (result, totals) in enumerate(play_games_interleaved(seeds, tables, shame_value)):
        money[game] = np.asarray(result["money"]) // UNIT_DOLLARS
        wounds[game], shame[game] = result["wounds"], result["shame"]
        alive[game], winner[game], shots[game] = result["alive"], result["winner"], result["shots"]
        cards[game] = result["cards_used"]
        rounds[game], drawn[game], paid[game], left[game] = totals
    return out


def episodes_frame(config: CashNGunsConfig, seeds: np.ndarray, raw: tuple[np.ndarray, ...]) -> pl.DataFrame:
    """One compact row per game: its seed (replays the deal and, through the private seeds it
    gives each slot, :func:`rng.private_seeds`, every choice), game totals
    and, per player slot ``p``: money, wounds, shame, alive, win, shots fired and score.

    ``score_p`` is money plus shame markers times ``shame_value`` for a survivor and 0 for an
    eliminated player (seed: only survivors count their money). ``win`` is slot 0's win.
    """
    money, wounds, shame, alive, winner, shots, _cards, rounds, drawn, paid, left = raw
    columns: dict[str, pl.Series] = {
        "game_seed": pl.Series(seeds, dtype=pl.UInt64),
        "win": pl.Series(winner[:, 0]),
        "winners": pl.Series(winner.sum(axis=1).astype(np.int8)),
        "rounds": pl.Series(rounds),
        "loot_drawn": pl.Series(drawn * UNIT_DOLLARS),
        "loot_paid": pl.Series(paid * UNIT_DOLLARS),
        "loot_left": pl.Series(left * UNIT_DOLLARS),
    }
    score = np.where(alive, money.astype(np.int64) * UNIT_DOLLARS + shame.astype(np.int64) * config.shame_value, 0)
    for slot in range(config.players):
        columns[f"money_{slot}"] = pl.Series(money[:, slot] * UNIT_DOLLARS)
        columns[f"wounds_{slot}"] = pl.Series(wounds[:, slot])
        columns[f"shame_{slot}"] = pl.Series(shame[:, slot])
        columns[f"alive_{slot}"] = pl.Series(alive[:, slot])
        columns[f"win_{slot}"] = pl.Series(winner[:, slot])
        columns[f"shots_{slot}"] = pl.Series(shots[:, slot])
        columns[f"score_{slot}"] = pl.Series(score[:, slot].astype(np.int32))
    return pl.DataFrame(columns)


def run_batch(config: CashNGunsConfig, rng: np.random.Generator, n: int) -> pl.DataFrame:
    """Play ``n`` games; each game's seed comes from ``rng`` (the only randomness)."""
    seeds = rng.integers(0, np.iinfo(np.int64).max, size=n, dtype=np.int64).astype(np.uint64)
    return episodes_frame(config, seeds, play_games(config, seeds))


SIMULATOR = Simulator(
    name="cashnguns",
    config_type=CashNGunsConfig,
    run_batch=run_batch,
    headline="win",
    policies={name: description for name, (description, _) in NAMED_STRATEGIES.items()},
    chunk_size=20_000,
)
