"""A user's Cash'n Guns strategy compiled with numba, played inside the compiled engine.

Where a strategy is numba-compilable, it runs inside the kernel (the
best-response search plays millions of games). Such a strategy is an object whose ``aim``,
``card`` and ``lie_down`` attributes are ``numba.njit`` functions, each called as::

    f(seat, round, hand, alive, money, wounds, shame, loot, drawn, revealed, aims, lay,
      expected_loot, target, targets, shame_value, u)

with the fields of :class:`cardsim.sims.cashnguns.strategy.View` as numpy arrays (copies, so a
strategy cannot change the game): ``aims`` and ``lay`` hold the finished rounds only,
``target`` is -1 and ``targets`` all -1 until the seat has aimed (``card``) and every seat has
aimed (``lie_down``); money in dollars. ``aim`` returns a living opponent's seat, ``card`` a
kind still in hand (0 Click, 1 Bang!, 2 Bang!Bang!Bang!), ``lie_down`` a bool. The games are
those of :func:`cardsim.sims.cashnguns.strategy.play_games` with the same logic written in
Python (tested): the same phases of :mod:`steps`, the same random streams.

A compiled strategy's illegal answer or exception is one :class:`StrategyError` naming the
game, seat, turn and decision; unlike a Python strategy it has no time limit (compiled code
cannot be interrupted).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardsim.sims.cashnguns import steps
from cardsim.sims.cashnguns.rng import private_seeds
from cardsim.sims.cashnguns.rules import DECK_NOTE_COUNTS, ROUNDS, UNIT_DOLLARS
from cardsim.sims.cashnguns.strategy import DECISIONS
from cardsim.sims.core.user_strategy import StrategyError

#: ``where`` fields: the game, seat, round and decision (index into DECISIONS) being asked,
#: and the illegal answer (0: none yet).
W_GAME, W_SEAT, W_ROUND, W_DECISION, W_ANSWER, W_BAD = 0, 1, 2, 3, 4, 5


@njit
def _ask(
    fn: Any,
    seat: int,
    round_index: int,
    record: tuple,
    expected: float,
    target: int,
    targets: np.ndarray,
    shame_value: int,
    u: float,
) -> int:
    """One decision of the user's compiled function on copies of the seat's public view;
    ``record``: the game's arrays it is read from, ``(hands, alive, cash, wounds, shame, table,
    drawn, revealed, aims, lay)``."""
    hands, alive, cash, wounds, shame, table, drawn, revealed, aims, lay = record
    return int(
        fn(
            seat,
            round_index,
            hands[seat].copy(),
            alive.copy(),
            cash * UNIT_DOLLARS,
            wounds.copy(),
            shame.copy(),
            table.copy(),
            drawn.copy(),
            revealed.copy(),
            aims[:round_index].copy(),
            lay[:round_index].copy(),
            expected * UNIT_DOLLARS,
            target,
            targets.copy(),
            shame_value,
            u,
        )
    )


@njit
def _play_compiled(
    seeds: np.ndarray,
    slot_privates: np.ndarray,
    lineups: np.ndarray,
    params: np.ndarray,
    shame_value: int,
    aim: Any,
    card: Any,
    lie_down: Any,
    out: np.ndarray,
    where: np.ndarray,
) -> None:
    """Every game of :func:`play_compiled` in compiled code; stops at an illegal answer
    (``where[W_BAD]`` set) and leaves ``where`` naming the decision that failed."""
    n, players = lineups.shape
    shame_units = shame_value / UNIT_DOLLARS
    slot_params = np.zeros((players, params.shape[1]), np.float64)
    slot_user = np.zeros(players, np.bool_)
    stream = np.zeros(1, np.uint64)
    private = np.zeros(players, np.uint64)
    slot_of_seat = np.zeros(players, np.int64)
    seat_params = np.zeros((players, params.shape[1]), np.float64)
    seat_user = np.zeros(players, np.bool_)
    deck = np.zeros(DECK_NOTE_COUNTS[0] + DECK_NOTE_COUNTS[1] + DECK_NOTE_COUNTS[2], np.int64)
    alive = np.zeros(players, np.bool_)
    wounds = np.zeros(players, np.int64)
    shame = np.zeros(players, np.int64)
    cash = np.zeros(players, np.int64)
    shots = np.zeros(players, np.int64)
    revealed = np.zeros((players, 3), np.int64)
    aims = np.zeros((ROUNDS, players), np.int64)
    lay = np.zeros((ROUNDS, players), np.bool_)
    hands = np.zeros((players, 3), np.int64)
    table = np.zeros(3, np.int64)
    drawn = np.zeros(3, np.int64)
    u = np.zeros((players, 3), np.float64)
    targets = np.zeros(players, np.int64)
    bullets = np.zeros(players, np.int64)
    lying = np.zeros(players, np.bool_)
    info = np.zeros(2, np.float64)
    hidden = np.full(players, -1, np.int64)
    aimed = np.full(players, -1, np.int64)
    record = (hands, alive, cash, wounds, shame, table, drawn, revealed, aims, lay)
    for game in range(n):
        where[W_GAME] = game
        for slot in range(players):
            row = lineups[game, slot]
            slot_user[slot] = row < 0
            for k in range(params.shape[1]):
                slot_params[slot, k] = 0.0 if row < 0 else params[row, k]
        stream[0] = seeds[game]
        steps.begin_game(
            slot_params,
            slot_user,
            slot_privates[game],
            stream,
            private,
            slot_of_seat,
            seat_params,
            seat_user,
            deck,
            alive,
            wounds,
            shame,
            cash,
            shots,
            revealed,
            aims,
            lay,
            hands,
            table,
            drawn,
        )
        survivors = players
        for round_index in range(ROUNDS):
            where[W_ROUND] = round_index
            steps.open_round(
                round_index,
                deck,
                table,
                drawn,
                alive,
                cash,
                wounds,
                revealed,
                aims,
                lay,
                hands,
                seat_params,
                seat_user,
                private,
                u,
                targets,
                bullets,
                info,
            )
            expected = info[steps.INFO_EXPECTED]
            for seat in range(players):
                if not (alive[seat] and seat_user[seat]):
                    continue
                where[W_SEAT] = seat
                where[W_DECISION] = 0
                target = _ask(aim, seat, round_index, record, expected, -1, hidden, shame_value, u[seat, 0])
                if target < 0 or target >= players or target == seat or not alive[target]:
                    where[W_ANSWER] = target
                    where[W_BAD] = 1
                    return
                where[W_DECISION] = 1
                kind = _ask(card, seat, round_index, record, expected, target, hidden, shame_value, u[seat, 1])
                if kind < 0 or kind > 2 or hands[seat, kind] <= 0:
                    where[W_ANSWER] = kind
                    where[W_BAD] = 1
                    return
                targets[seat] = target
                bullets[seat] = kind
                hands[seat, kind] -= 1
            steps.built_in_lie_downs(
                round_index,
                alive,
                cash,
                wounds,
                revealed,
                aims,
                seat_params,
                seat_user,
                u,
                targets,
                lying,
                info,
                shame_units,
            )
            for seat in range(players):
                aimed[seat] = targets[seat] if alive[seat] else -1
            for seat in range(players):
                if alive[seat] and seat_user[seat]:
                    where[W_SEAT] = seat
                    where[W_DECISION] = 2
                    answer = _ask(
                        lie_down, seat, round_index, record, expected, targets[seat], aimed, shame_value, u[seat, 2]
                    )
                    lying[seat] = answer != 0
            survivors = steps.close_round(
                round_index, targets, bullets, lying, alive, wounds, shame, cash, shots, revealed, aims, lay, table
            )
            if survivors <= 1:
                break
        steps.finish_game(survivors, alive, cash, wounds, shame, shots, hands, slot_of_seat, shame_units, out[game])


def check_compiled(strategy: Any, spec: str) -> None:
    """Refuse an object whose decisions are not numba-compiled functions, before anything runs."""
    from numba.core.registry import CPUDispatcher

    missing = [name for name in DECISIONS if not isinstance(getattr(strategy, name, None), CPUDispatcher)]
    if missing:
        raise StrategyError(
            f"{', '.join(missing)} must be numba.njit functions for the compiled engine",
            strategy=spec,
            seat="-",
            turn="-",
            decision=missing[0],
        )


def play_compiled(
    strategy: Any, spec: str, seeds: np.ndarray, lineups: np.ndarray, rows: np.ndarray, shame_value: int
) -> dict[str, np.ndarray]:
    """One game per seed; slot ``s`` of game ``g`` plays ``rows[lineups[g, s]]``, or the
    compiled ``strategy`` where ``lineups[g, s]`` is -1. Per game and slot: ``money`` (dollars),
    ``wounds``, ``shame``, ``alive``, ``winner``, ``shots``, ``cards_used`` (games, slots, 3)."""
    check_compiled(strategy, spec)
    seeds = np.ascontiguousarray(seeds, np.uint64)
    lineups = np.ascontiguousarray(lineups, np.int64)
    out = np.zeros((seeds.shape[0], lineups.shape[1], steps.OUT_COLUMNS), np.int64)
    where = np.zeros(6, np.int64)
    try:
        _play_compiled(
            seeds,
            private_seeds(seeds, lineups.shape[1]),
            lineups,
            np.ascontiguousarray(rows, np.float64),
            int(shame_value),
            strategy.aim,
            strategy.card,
            strategy.lie_down,
            out,
            where,
        )
    except Exception as exc:
        raise _failure(where, spec, f"raised {type(exc).__name__}: {exc}") from exc
    if where[W_BAD]:
        raise _failure(where, spec, f"returned {int(where[W_ANSWER])}, not a legal choice")
    return {
        "money": out[:, :, steps.OUT_MONEY] * UNIT_DOLLARS,
        "wounds": out[:, :, steps.OUT_WOUNDS],
        "shame": out[:, :, steps.OUT_SHAME],
        "alive": out[:, :, steps.OUT_ALIVE].astype(np.bool_),
        "winner": out[:, :, steps.OUT_WINNER].astype(np.bool_),
        "shots": out[:, :, steps.OUT_SHOTS],
        "cards_used": out[:, :, steps.OUT_CARDS :],
    }


def _failure(where: np.ndarray, spec: str, problem: str) -> StrategyError:
    return StrategyError(
        f"{problem} (game {int(where[W_GAME]) + 1})",
        strategy=spec,
        seat=int(where[W_SEAT]),
        turn=int(where[W_ROUND]) + 1,
        decision=DECISIONS[int(where[W_DECISION])],
    )
