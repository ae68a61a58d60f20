"""Training the ``tuned`` bots by iterated best response, with common random numbers.

For one player count: start from the role bot's parameters; in each round every role in turn
searches its own parameter vector (all seats of that role share it) while the other roles keep
their current ones. The search is a small evolution strategy: each step perturbs the best
vector so far (Gaussian, step shrinking by ``STEP_DECAY``, clipped to ``PARAM_RANGES``) into
``CANDIDATES`` candidates, plays every candidate and the incumbent on the same deals (common
random numbers: one deal stream, one play stream per step), and keeps the one whose side won
most. The winner is then checked against the round's starting vector on fresh deals (paired,
95% interval); it replaces it only if it won more there. Training stops after a round in which
no role's validated gain has its 95% interval above 1 point, or after ``max_rounds`` rounds.

Everything random derives from ``SeedSequence(seed, spawn_key=(players, round, role, step,
stream))``; games are played in independent tasks whose results are gathered in order, so the
trained parameters are the same for any ``jobs``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cardsim.sims.bang import engine
from cardsim.sims.bang.cards import BOT_ROLE, ROLE_NAMES, ROLE_SIDE, roles_for
from cardsim.sims.bang.policies import N_PARAMS, P_REN_RULES, PARAM_RANGES, STYLE_SWITCHES, with_structure
from cardsim.sims.bang.simulator import DEFAULT_MAX_TURNS
from cardsim.sims.bang.tuned import TRAINED_PARAMS
from cardsim.sims.core.parallel import map_tasks

CANDIDATES = 6  # candidates per search step
STEP_START = 0.25  # first step, as a share of each parameter's range
STEP_DECAY = 0.7
GAMES_PER_CANDIDATE_SHARE = 0.14  # of one role's budget, per candidate and step
VALIDATION_SHARE = 0.2  # of one role's budget, for the paired check on fresh deals
GAIN_THRESHOLD = 0.01  # stop when no role gains more than 1 point (95% interval)
Z95 = 1.959963984540054
# bounds per column of a parameter row: each bot parameter's range; the play-style switches
# after them stay off
LOW = np.array([r[0] for r in PARAM_RANGES] + [0.0] * len(STYLE_SWITCHES))
HIGH = np.array([r[1] for r in PARAM_RANGES] + [0.0] * len(STYLE_SWITCHES))


def stream(seed: int, *key: int) -> np.random.Generator:
    """The generator for one purpose, derived from the root seed and a spawn key."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def side_wins(players: int, table: np.ndarray, role: int, games: int, seed: int,
              key: tuple[int, ...]) -> np.ndarray:
    """1/0 per game: did ``role``'s side win, every seat a role bot with ``table``'s rows.
    Deals from stream (*key, 0), play from (*key, 1): equal keys, equal deals."""
    bots = np.full(4, BOT_ROLE, dtype=np.int64)
    winner = engine.play_focus_games(
        games, players, bots, np.ascontiguousarray(table), -1, 0, table[0], DEFAULT_MAX_TURNS,
        stream(seed, *key, 0), stream(seed, *key, 1), False,
    )[0]
    return (winner == ROLE_SIDE[role]).astype(np.int8)


@dataclass(frozen=True)
class RoleStep:
    """One role's search in one round: its validated gain over its starting vector."""

    round: int
    role: str
    gain: float
    gain_lo: float
    gain_hi: float
    games: int
    accepted: bool


def paired_gain(new: np.ndarray, old: np.ndarray) -> tuple[float, float, float]:
    """Mean paired difference with its 95% normal interval."""
    d = new.astype(np.float64) - old.astype(np.float64)
    mean = float(d.mean())
    half = Z95 * float(d.std(ddof=1)) / np.sqrt(d.size) if d.size > 1 else float("inf")
    return mean, mean - half, mean + half


def searched_params(bot: str) -> np.ndarray:
    """Indices of the parameters training searches for ``bot``: ``tuned``, the first
    ``TRAINED_PARAMS`` (those its shipped file was trained over); ``tuned2``, every one but the
    Renegade's rule switch, which stays on."""
    if bot == "tuned":
        return np.arange(TRAINED_PARAMS)
    return np.array([i for i in range(N_PARAMS) if i != P_REN_RULES])


def start_table(bot: str, players: int) -> np.ndarray:
    """Where training starts: the role bot's parameters for ``tuned``; for ``tuned2`` role2's
    parameters for every role (the structural rules on from the start, so the search moves
    from the rung it is measured against, not from tuned's values). ``players`` is kept for
    a start that depends on the count."""
    del players
    if bot == "tuned":
        return engine.DEFAULT_PARAMS.copy()
    return with_structure(engine.DEFAULT_PARAMS)


def train_players(players: int, seed: int, budget: int, max_rounds: int,
                  map_tasks: Callable[[Sequence[tuple]], list[np.ndarray]],
                  log: Callable[[str], None] = lambda _: None, bot: str = "tuned",
                  ) -> tuple[np.ndarray, list[RoleStep]]:
    """Iterated best response at one player count for ``bot`` (``tuned`` or ``tuned2``: its
    :func:`start_table` and :func:`searched_params`); returns (params per role, history).
    ``map_tasks`` plays a list of ``side_wins`` argument tuples, results in order."""
    table = start_table(bot, players)
    searched = searched_params(bot)
    spread = (HIGH - LOW)[searched]
    roles = sorted(set(roles_for(players)))
    per_role = budget // (max_rounds * len(roles))
    games = max(200, int(per_role * GAMES_PER_CANDIDATE_SHARE / (CANDIDATES + 1)))
    validation = max(400, int(per_role * VALIDATION_SHARE / 2))
    steps = max(1, int((per_role - 2 * validation) // ((CANDIDATES + 1) * games)))
    history: list[RoleStep] = []
    for rnd in range(max_rounds):
        gains_lo = []
        for role in roles:
            start = table[role].copy()
            best = start.copy()
            search = stream(seed, players, rnd, role, 999)
            width = STEP_START
            for step in range(steps):
                candidates = [best]
                for _ in range(CANDIDATES):
                    moved = best.copy()
                    moved[searched] += width * spread * search.standard_normal(searched.size)
                    candidates.append(np.round(np.clip(moved, LOW, HIGH), 6))
                tasks = []
                for vector in candidates:
                    trial = table.copy()
                    trial[role] = vector
                    tasks.append((players, trial, role, games, seed, (players, rnd, role, step)))
                wins = [int(w.sum()) for w in map_tasks(tasks)]
                top = int(np.argmax(wins))  # ties keep the incumbent (index 0) or the first
                best = candidates[top]
                width *= STEP_DECAY
            trial = table.copy()
            trial[role] = best
            key = (players, rnd, role, 1000)
            new, old = map_tasks([(players, trial, role, validation, seed, key),
                                  (players, table, role, validation, seed, key)])
            gain, lo, hi = paired_gain(new, old)
            accepted = gain > 0
            if accepted:
                table[role] = best
            else:
                lo = min(lo, 0.0)
            history.append(RoleStep(rnd, ROLE_NAMES[role], gain, lo, hi,
                                    steps * (CANDIDATES + 1) * games + 2 * validation, accepted))
            gains_lo.append(lo if accepted else 0.0)
            log(f"bang train {players}p round {rnd + 1} {ROLE_NAMES[role]}: gain "
                f"{gain:+.4f} [{lo:+.4f}, {hi:+.4f}] {'kept' if accepted else 'rejected'}")
        if max(gains_lo) <= GAIN_THRESHOLD:
            break
    return table, history


def joblib_mapper(jobs: int) -> Callable[[Sequence[tuple]], list[np.ndarray]]:
    """Run ``side_wins`` tasks on ``jobs`` processes (1: in this process) or the current dask
    cluster, results in order."""
    return lambda tasks: map_tasks(side_wins, tasks, jobs)


def timed_training(players: int, seed: int, budget: int, max_rounds: int, jobs: int,
                   log: Callable[[str], None], bot: str = "tuned",
                   ) -> tuple[np.ndarray, list[RoleStep], float, float]:
    """``train_players`` with a joblib mapper; also returns the wall time and this process's
    CPU time in seconds (workers' CPU not included)."""
    start, clock = time.perf_counter(), time.process_time()
    table, history = train_players(players, seed, budget, max_rounds, joblib_mapper(jobs), log,
                                   bot)
    return table, history, time.perf_counter() - start, time.process_time() - clock


def training_fingerprint(bot: str = "tuned") -> str:
    """16 hex digits for what decides what training finds for ``bot``: this search (its
    functions and constants) and how the games play out for given parameters, measured on the
    games themselves (every result of 60 fixed deals per player count, with the role bot's
    default parameters and with one fixed random table over the searched parameters; for
    ``tuned2`` also its start table, so the structural rules' code counts). Recorded with the
    trained parameters; a test checks the shipped ones against the current code, so a change
    of the rules or the bots that moves a game asks for retraining, and a change that moves
    none (moving code between files) does not."""
    import inspect

    searched = searched_params(bot)
    digest = hashlib.sha256()
    functions = [stream, side_wins, paired_gain, train_players]
    if bot != "tuned":
        functions += [searched_params, start_table]
    for function in functions:
        digest.update(inspect.getsource(function).encode())
    digest.update(repr((CANDIDATES, STEP_START, STEP_DECAY, GAMES_PER_CANDIDATE_SHARE,
                        VALIDATION_SHARE, GAIN_THRESHOLD, LOW[searched].tolist(),
                        HIGH[searched].tolist())).encode())
    draw = stream(0, 9090)
    bots = np.full(4, BOT_ROLE, dtype=np.int64)
    for players in range(4, 8):
        shaken = engine.DEFAULT_PARAMS.copy() if bot == "tuned" else start_table(bot, players)
        shaken[:, searched] = draw.uniform(LOW[searched], HIGH[searched], (4, searched.size))
        tables = [engine.DEFAULT_PARAMS, shaken]
        if bot != "tuned":
            tables.append(start_table(bot, players))
        for table in tables:
            games = engine.play_focus_games(
                60, players, bots, np.ascontiguousarray(table), -1, 0, table[0],
                DEFAULT_MAX_TURNS, stream(0, players, 0), stream(0, players, 1), False)
            for column in games:
                digest.update(np.ascontiguousarray(column).tobytes())
    return digest.hexdigest()[:16]


def train_and_save(players: int, seed: int, budget: int, max_rounds: int, jobs: int, out,
                   log: Callable[[str], None], bot: str = "tuned") -> np.ndarray:
    """Train one player count of ``bot`` and write its entry with provenance to ``out``."""
    from cardsim.sims.bang import tuned

    fingerprint = training_fingerprint(bot)
    table, history, seconds, cpu = timed_training(players, seed, budget, max_rounds, jobs, log,
                                                  bot)
    flag = "" if bot == "tuned" else f"--bot {bot} "
    provenance = {
        "command": f"cardsim bang train {flag}--players {players} --seed {seed} "
                   f"--budget {budget} --rounds {max_rounds}",
        "seed": seed,
        "budget": budget,
        "rounds_run": 1 + max(step.round for step in history),
        "code_fingerprint": fingerprint,
        "history": [
            {"round": s.round + 1, "role": s.role, "gain": round(s.gain, 5),
             "gain_lo": round(s.gain_lo, 5), "gain_hi": round(s.gain_hi, 5), "games": s.games,
             "accepted": s.accepted}
            for s in history
        ],
    }
    tuned.write_entry(out, players, table, provenance,
                      width=TRAINED_PARAMS if bot == "tuned" else None)
    log(f"bang train {players}p: {seconds:.0f} s wall, {cpu:.0f} s CPU in this process, "
        f"{sum(s.games for s in history)} games -> {out}")
    return table
