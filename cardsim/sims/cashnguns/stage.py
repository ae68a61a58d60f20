"""One round for a player aimed at by k guns, by exact enumeration of the opponents' cards.

It is exact only for round one with fixed aims and nobody else lying down (the scenario below);
it is not the stage game of the whole 8-round game, where aims, lie-downs and the cards left
depend on play.

Scenario (named so every number can be reproduced): ``players`` at the table; the focal
player (seat 0) is aimed at by ``guns`` shooters (seats 1..guns). The focal player aims at
shooter 1 (or, with no guns on it, at the first bystander); each bystander aims at a shooter
in turn (bystander j at shooter 1 + j mod guns), or, with no shooters, the bystanders aim at
the next bystander in a ring. Nobody but the focal player lies down. Every opponent's bullet
is an independent draw from ``opponent_hand`` (default: a full hand, 5 Click, 2 Bang!,
1 Bang!Bang!Bang!). For each focal choice (bullet x stand/lie down) every combination of
opponents' bullets is enumerated with exact rational probabilities; the split uses
:func:`rules.split_share` on the given loot.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import polars as pl

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import (
    BULLET_NAMES,
    HAND_COUNTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    UNIT_DOLLARS,
    resolve_shots,
    shares_loot,
    split_share,
)


def stage_targets(players: int, guns: int) -> list[int]:
    """Who aims at whom in the stage scenario (seat 0 is the focal player)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UserError(f"stage: players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players}")
    if not 0 <= guns <= players - 1:
        raise UserError(f"stage: guns must be 0-{players - 1} for {players} players, got {guns}")
    bystanders = list(range(guns + 1, players))
    targets = [0] * players
    targets[0] = 1 if guns else bystanders[0]
    for j, seat in enumerate(bystanders):
        if guns:
            targets[seat] = 1 + j % guns
        else:
            targets[seat] = bystanders[(j + 1) % len(bystanders)]
    return targets


def stage_game(
    players: int,
    guns: int,
    loot: tuple[int, int, int],
    *,
    shame_value: int = -5_000,
    wound_cost: int = 10_000,
    opponent_hand: tuple[int, int, int] = HAND_COUNTS,
) -> pl.DataFrame:
    """The focal player's exact one-round payoffs for each bullet x stand/lie down.

    Args:
        players: 4-6.
        guns: how many opponents aim at the focal player.
        loot: counts of $5k, $10k and $20k notes on the table.
        shame_value: dollars a shame marker adds (negative: penalty).
        wound_cost: dollars one wound is taken to cost in ``value``.
        opponent_hand: counts of Click, Bang!, Bang!Bang!Bang! each opponent draws from.

    Returns:
        One row per focal choice: ``bullet``, ``action``, ``p_wounded``, ``expected_wounds``,
        ``p_share`` (probability of taking part in the split), ``expected_cash`` and
        ``value`` = expected cash + shame value (if lying down) - wound cost x expected wounds.
    """
    if len(loot) != 3 or min(loot) < 0:
        raise UserError("stage: loot must be three non-negative note counts")
    if len(opponent_hand) != 3 or min(opponent_hand) < 0 or sum(opponent_hand) == 0:
        raise UserError("stage: opponent_hand must be three non-negative counts, not all zero")
    targets = np.array(stage_targets(players, guns))
    total = sum(opponent_hand)
    card_p = [Fraction(c, total) for c in opponent_hand]
    alive = np.ones(players, np.bool_)
    rows = []
    for action in ("stand", "lie down"):
        for bullet in range(3):
            p_wounded = Fraction(0)
            expected_wounds = Fraction(0)
            p_share = Fraction(0)
            expected_cash = Fraction(0)
            for combo in itertools.product(range(3), repeat=players - 1):
                probability = Fraction(1)
                for card in combo:
                    probability *= card_p[card]
                if probability == 0:
                    continue
                bullets = np.array((bullet,) + combo)
                lying = np.zeros(players, np.bool_)
                lying[0] = action == "lie down"
                taken, down, _, _ = resolve_shots(targets, bullets, lying, alive)
                sharers = sum(shares_loot(True, bool(lying[s]), bool(down[s])) for s in range(players))
                share = split_share(loot[0], loot[1], loot[2], sharers)[0]
                p_wounded += probability * (taken[0] > 0)
                expected_wounds += probability * int(taken[0])
                if shares_loot(True, bool(lying[0]), bool(down[0])):
                    p_share += probability
                    expected_cash += probability * share * UNIT_DOLLARS
            value = expected_cash - wound_cost * expected_wounds
            if action == "lie down":
                value += shame_value
            rows.append(
                {
                    "bullet": BULLET_NAMES[bullet],
                    "action": action,
                    "p_wounded": float(p_wounded),
                    "expected_wounds": float(expected_wounds),
                    "p_share": float(p_share),
                    "expected_cash": float(expected_cash),
                    "value": float(value),
                }
            )
    return pl.DataFrame(rows)


def parse_loot(text: str) -> tuple[int, int, int]:
    """'20000,10000,10000,5000,5000' (note values in dollars) -> counts (5k, 10k, 20k)."""
    counts = [0, 0, 0]
    index = {5_000: 0, 10_000: 1, 20_000: 2}
    for item in text.replace("$", "").split(","):
        item = item.strip().replace("_", "").lower().replace("k", "000")
        try:
            counts[index[int(item)]] += 1
        except (ValueError, KeyError):
            raise UserError(
                f"loot: notes are 5000, 10000 or 20000 (or 5k, 10k, 20k), comma-separated; got {item!r}"
            ) from None
    return counts[0], counts[1], counts[2]
