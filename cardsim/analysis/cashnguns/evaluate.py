"""A user's Cash'n Guns strategy measured in one seat against a shipped mix or a built-in.

Each deal is played twice from the same seed: once with the user's strategy in the seat (the
Python engine, :func:`cardsim.sims.cashnguns.strategy.play_games`) and once with the built-in
comparator in the same seat (the kernel, which plays as the engine does): against a mix, the
comparator is a member drawn from the mix, so the paired difference is the user's gain over
the mix itself, as in the outside check; against a built-in strategy, every other seat and the
comparator play it. The game is the unit (one seat's win or score per game).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from cardsim.analysis.cashnguns.libraries import SHIPPED_LIBRARIES, load_libraries
from cardsim.analysis.cashnguns.records import reading_status, status_text
from cardsim.analysis.cashnguns.tables import mix_text
from cardsim.errors import UserError
from cardsim.sims.cashnguns.config import is_file_spec
from cardsim.sims.cashnguns.rules import UNIT_DOLLARS
from cardsim.sims.cashnguns.simulator import engine_lineups, play_lineups, strategy_rows
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.cashnguns.strategy import DECISIONS, Seat, play_games
from cardsim.sims.core.isolation import isolated_strategy
from cardsim.sims.core.user_strategy import (
    StrategyError,
    check_methods,
    fresh_copy,
    load_strategy,
    paired_difference,
    run_chunks,
)
from cardsim.stats import wilson_interval

#: Games per chunk; chunks are fixed by index, so the numbers never depend on --jobs.
EVALUATE_CHUNK = 500
#: ``against`` value for the shipped library's mix of the reading.
MIX = "mix"


class _RemoteCause(Exception):
    """The strategy's traceback from a worker process, as text (for ``--traceback``)."""


def opponents(
    against: str, players: int, metric: str, shame_value: int, libraries: Path = SHIPPED_LIBRARIES
) -> tuple[list[str], np.ndarray, str, str]:
    """(library specs, mix, label, status) of what the user plays against: the shipped library
    and equilibrium of the reading for ``against="mix"``, its label saying whether the mix holds
    and ``status`` its :func:`status_text` (not converged: the best known reply), else the one
    built-in strategy named (no status)."""
    if against == MIX:
        entry = load_libraries(libraries).get((players, metric, shame_value))
        if entry is None:
            raise UserError(f"evaluate: no shipped mix for {players} players, --metric {metric} --shame {shame_value}")
        specs = [item["spec"] for item in entry["library"]]
        names = [item["name"] for item in entry["library"]]
        mix = np.array([entry["equilibrium"].get(name, 0.0) for name in names], np.float64)
        label = "shipped mix " + mix_text(entry["equilibrium"])
        label += f" ({reading_status(entry)['label']})"
        return specs, mix / mix.sum(), label, status_text(entry)
    if is_file_spec(against):
        isolated_strategy(against, DECISIONS)  # loads it in its own process, or a UserError
        return [against], np.ones(1), against, ""
    return [parse_strategy(against).spec()], np.ones(1), against, ""


def _chunk_plan(
    seed: int, chunk: int, size: int, players: int, mix: np.ndarray, seat: int
) -> tuple[np.ndarray, np.ndarray]:
    """Game seeds and (games, players) lineups of one chunk: ``seat`` holds the comparator drawn
    from ``mix``, the other slots opponents drawn from it."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, chunk]))
    seeds = rng.integers(0, np.iinfo(np.int64).max, size=size, dtype=np.int64).astype(np.uint64)
    lineups = rng.choice(len(mix), size=(size, players), p=mix).astype(np.int64)
    return seeds, lineups


def _play_chunk(
    spec: str,
    specs: list[str],
    mix: np.ndarray,
    players: int,
    seat: int,
    shame_value: int,
    seed: int,
    chunk: int,
    size: int,
) -> dict:
    """One chunk in a worker: the user's and the comparator's win and score per game, or the
    strategy's failure as plain fields (a :class:`StrategyError` is rebuilt by the caller)."""
    strategy = fresh_copy(load_strategy(spec))
    python = any(is_file_spec(s) for s in specs)
    rows = [
        Seat(isolated_strategy(s, DECISIONS, fresh=True), s) if is_file_spec(s) else parse_strategy(s).param_row()
        for s in specs
    ]
    seeds, lineups = _chunk_plan(seed, chunk, size, players, mix, seat)
    user_win = np.zeros(size)
    user_score = np.zeros(size)
    user = Seat(strategy, spec)
    tables = [[user if slot == seat else rows[lineups[game, slot]] for slot in range(players)] for game in range(size)]
    try:
        for game, result in enumerate(play_games(seeds, tables, shame_value)):
            user_win[game] = result["winner"][seat]
            user_score[game] = result["score"][seat]
        raw = (
            engine_lineups(seeds, lineups, specs, shame_value)
            if python
            else play_lineups(seeds, lineups, strategy_rows([parse_strategy(s) for s in specs]), shame_value)
        )
    except StrategyError as err:
        from cardsim.sims.core.user_strategy import strategy_traceback

        return {"error": (err.problem, err.strategy, err.seat, err.turn, err.decision, strategy_traceback(err))}
    money, _, shame, alive, winner = raw[:5]
    builtin_score = np.where(
        alive[:, seat],
        money[:, seat].astype(np.float64) * UNIT_DOLLARS + shame[:, seat].astype(np.float64) * shame_value,
        0.0,
    )
    return {
        "user_win": user_win,
        "user_score": user_score,
        "builtin_win": winner[:, seat].astype(np.float64),
        "builtin_score": builtin_score,
    }


def evaluate_strategy(
    spec: str,
    *,
    players: int = 4,
    n: int = 2_000,
    against: str = MIX,
    metric: str = "win",
    shame_value: int = -5_000,
    seat: int = 0,
    seed: int = 0,
    jobs: int = 1,
    libraries: Path = SHIPPED_LIBRARIES,
) -> dict:
    """The user's strategy ``spec`` (``FILE.py:NAME``) in player slot ``seat`` against
    ``against`` (``"mix"``: the shipped mix of the reading, or a built-in strategy spec) on
    ``n`` deals, each also played with the built-in comparator in the same seat (see the
    module). Returns n, each side's win rate with its 95% Wilson interval and mean score with
    its 95% interval, and the paired difference of the ``metric`` (win probability or score
    in dollars) with its 95% interval; against a mix, ``status``: whether the mix holds and its
    best known reply (:func:`status_text`). A failing strategy raises one :class:`StrategyError`."""
    if not 4 <= players <= 6:
        raise UserError(f"cashnguns: players must be 4-6 (seed rules), got {players}")
    if n < 2:
        raise UserError(f"--n must be at least 2, got {n}")
    if not 0 <= seat < players:
        raise UserError(f"--seat must be 0-{players - 1}, got {seat}")
    if metric not in ("win", "score"):
        raise UserError(f"--metric must be one of: win, score, got {metric!r}")
    check_methods(load_strategy(spec), spec, DECISIONS)
    specs, mix, label, status = opponents(against, players, metric, shame_value, libraries)
    sizes = [min(EVALUATE_CHUNK, n - start) for start in range(0, n, EVALUATE_CHUNK)]
    arguments = [(spec, specs, mix, players, seat, shame_value, seed, chunk, size) for chunk, size in enumerate(sizes)]
    parts = run_chunks(_play_chunk, arguments, jobs)
    for part in parts:
        if "error" in part:
            problem, strategy, where, turn, decision, text = part["error"]
            error = StrategyError(problem, strategy=strategy, seat=where, turn=turn, decision=decision)
            if text:
                raise error from _RemoteCause(text.rstrip())
            raise error
    joined = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    out: dict = {
        "strategy": spec,
        "against": label,
        "players": players,
        "seat": seat,
        "metric": metric,
        "shame_value": shame_value,
        "seed": seed,
        "n": n,
        **({"status": status} if status else {}),
    }
    for side in ("user", "builtin"):
        wins = joined[f"{side}_win"]
        lo, hi = wilson_interval(np.array([wins.sum()]), np.array([float(n)]))
        scores = joined[f"{side}_score"]
        half = 1.959963984540054 * float(scores.std(ddof=1)) / math.sqrt(n)
        out[side] = {
            "p_win": float(wins.mean()),
            "win_lo": float(lo[0]),
            "win_hi": float(hi[0]),
            "mean_score": float(scores.mean()),
            "score_lo": float(scores.mean()) - half,
            "score_hi": float(scores.mean()) + half,
        }
    paired = paired_difference(joined[f"user_{metric}"], joined[f"builtin_{metric}"])
    out["difference"] = {"value": paired["difference"], "lo": paired["lo"], "hi": paired["hi"]}
    return out
