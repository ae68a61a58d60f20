"""``cardsim bang stress``: try to overturn the ladder's balance conclusions from outside.

Two attacks on the ``tuned`` rung at one player count, both on common random numbers:

- **Best response.** Search one role's parameters (every seat of it, or, with
  ``against="role"``, only the first seat of it among role bots: the ``compare`` setting) by the
  same kind of evolution strategy as the training (:mod:`cardsim.sims.bang.training`): each step
  perturbs the best vector so far into ``CANDIDATES`` candidates and keeps the one that won most
  on the step's deals. The found vector is then replayed on fresh deals against the vector it
  started from (the shipped tuned row, or the role bot's row in the ``compare`` setting): win
  rate with its 95% Wilson interval and the paired difference with its 95% normal interval. If
  a role's win rate climbs past another role's, a "weakest role" conclusion was about the bots.
- **Perturbation.** Add Gaussian noise (``sigma`` times each parameter's range, clipped to the
  range) to every tuned parameter of every role, ``trials`` times, and play each perturbed
  table: how far the side rates move, and in how many trials the weakest role and the favoured
  side stay the same.

Streams derive from ``SeedSequence(seed, spawn_key=(STRESS_KEY, players, ...))``, never from
the worker, so the rows are the same for any ``jobs``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from cardsim.sims.bang import engine, tuned
from cardsim.sims.bang.cards import (
    BOT_ROLE,
    BOT_TUNED,
    ROLE_NAMES,
    ROLE_SIDE,
    SIDE_NAMES,
)
from cardsim.sims.bang.policies import N_PARAMS
from cardsim.sims.bang.simulator import DEFAULT_MAX_TURNS
from cardsim.sims.bang.training import (
    CANDIDATES,
    HIGH,
    LOW,
    STEP_DECAY,
    paired_gain,
    stream,
)
from cardsim.sims.core.parallel import map_tasks
from cardsim.stats import wilson_interval

STRESS_KEY = 18  # first spawn key entry: keeps these streams apart from training's and compare's
STEP_START = 0.3  # first search step, as a share of each parameter's range


def role_wins(
    players: int, table: np.ndarray, role: int, against: str, games: int, seed: int, key: tuple[int, ...]
) -> np.ndarray:
    """1/0 per game: did ``role``'s side win. ``against="tuned"``: every seat a role bot with
    ``table``'s rows; ``"role"``: the first seat of ``role`` plays ``table[role]``, every other
    seat the role bot's defaults. Equal keys, equal deals."""
    bots = np.full(4, BOT_ROLE, dtype=np.int64)
    deal, play = stream(seed, STRESS_KEY, *key, 0), stream(seed, STRESS_KEY, *key, 1)
    if against == "tuned":
        winner = engine.play_focus_games(
            games, players, bots, np.ascontiguousarray(table), -1, 0, table[0], DEFAULT_MAX_TURNS, deal, play, False
        )[0]
    else:
        winner = engine.play_focus_games(
            games,
            players,
            bots,
            engine.DEFAULT_PARAMS.copy(),
            role,
            BOT_TUNED,
            np.ascontiguousarray(table[role]),
            DEFAULT_MAX_TURNS,
            deal,
            play,
            False,
        )[0]
    return (winner == ROLE_SIDE[role]).astype(np.int8)


def parameter_noise(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Standard normal steps for parameter rows of ``shape``: drawn for the bot parameters
    (the draws a row of them takes), none for the play-style switches after them."""
    noise = np.zeros(shape)
    noise[..., :N_PARAMS] = rng.standard_normal((*shape[:-1], N_PARAMS))
    return noise


def best_response(
    players: int,
    role: int,
    against: str,
    games: int,
    steps: int,
    validation: int,
    seed: int,
    map_calls: Callable[[Callable, Sequence[tuple]], list],
) -> dict:
    """Search ``role``'s vector (see the module doc) and validate it on fresh deals."""
    start = (tuned.params_for(players) if against == "tuned" else engine.DEFAULT_PARAMS).copy()
    search = stream(seed, STRESS_KEY, players, role, 999)
    best, width = start[role].copy(), STEP_START
    for step in range(steps):
        candidates = [best] + [
            np.round(np.clip(best + width * (HIGH - LOW) * parameter_noise(search, best.shape), LOW, HIGH), 6)
            for _ in range(CANDIDATES)
        ]
        tasks = []
        for vector in candidates:
            trial = start.copy()
            trial[role] = vector
            tasks.append((players, trial, role, against, games, seed, (players, role, step)))
        wins = [int(w.sum()) for w in map_calls(role_wins, tasks)]
        best = candidates[int(np.argmax(wins))]
        width *= STEP_DECAY
    found = start.copy()
    found[role] = best
    key = (players, role, 1000)
    new, old = map_calls(
        role_wins,
        [
            (players, found, role, against, validation, seed, key),
            (players, start, role, against, validation, seed, key),
        ],
    )
    diff, lo, hi = paired_gain(new, old)
    win_lo, win_hi = wilson_interval(int(new.sum()), new.size)
    base_lo, base_hi = wilson_interval(int(old.sum()), old.size)
    return {
        "players": players,
        "role": ROLE_NAMES[role],
        "against": against,
        "n": int(new.size),
        "search_games": steps * (CANDIDATES + 1) * games,
        "win": round(float(new.mean()), 5),
        "win_lo": round(float(win_lo), 5),
        "win_hi": round(float(win_hi), 5),
        "start": round(float(old.mean()), 5),
        "start_lo": round(float(base_lo), 5),
        "start_hi": round(float(base_hi), 5),
        "diff": round(float(diff), 5),
        "diff_lo": round(float(lo), 5),
        "diff_hi": round(float(hi), 5),
        "params": [float(x) for x in best],
    }


def winners(players: int, table: np.ndarray, games: int, seed: int, key: tuple[int, ...]) -> np.ndarray:
    """The winning side code per game, every seat a role bot with ``table``'s rows."""
    bots = np.full(4, BOT_ROLE, dtype=np.int64)
    return engine.play_focus_games(
        games,
        players,
        bots,
        np.ascontiguousarray(table),
        -1,
        0,
        table[0],
        DEFAULT_MAX_TURNS,
        stream(seed, STRESS_KEY, *key, 0),
        stream(seed, STRESS_KEY, *key, 1),
        False,
    )[0]


def perturbed_side_rates(
    players: int,
    sigma: float,
    trials: int,
    games: int,
    seed: int,
    map_calls: Callable[[Callable, Sequence[tuple]], list],
) -> list[dict]:
    """Side win rates (95% Wilson intervals) of the shipped tuned table (trial 0) and of
    ``trials`` perturbations of it, each on its own deals; ``weakest`` names the side (and so
    the role: every seat of a side shares its result) with the lowest rate."""
    table = tuned.params_for(players)
    noise = stream(seed, STRESS_KEY, players, 2000)
    tables = [table] + [
        np.round(np.clip(table + sigma * (HIGH - LOW) * parameter_noise(noise, table.shape), LOW, HIGH), 6)
        for _ in range(trials)
    ]
    results = map_calls(winners, [(players, t, games, seed, (players, 2000, k)) for k, t in enumerate(tables)])
    rows = []
    for k, winner in enumerate(results):
        row = {"players": players, "trial": k, "sigma": 0.0 if k == 0 else sigma, "n": games}
        rates = []
        for code, side in enumerate(SIDE_NAMES[:3]):
            won = int((winner == code).sum())
            lo, hi = wilson_interval(won, games)
            rates.append(won / games)
            row[side] = round(won / games, 5)
            row[f"{side}_lo"], row[f"{side}_hi"] = round(float(lo), 5), round(float(hi), 5)
        row["weakest"] = SIDE_NAMES[int(np.argmin(rates))]
        row["favoured"] = SIDE_NAMES[int(np.argmax(rates[:2]))]
        rows.append(row)
    return rows


def mapper(jobs: int) -> Callable[[Callable, Sequence[tuple]], list]:
    """Call ``fn`` on each argument tuple on ``jobs`` processes (1: here) or the current dask
    cluster, results in order."""
    return lambda fn, tasks: map_tasks(fn, tasks, jobs)
