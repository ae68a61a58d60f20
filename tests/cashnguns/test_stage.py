"""The exact one-round stage game: closed forms and a Monte Carlo cross-check."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import resolve_shots, shares_loot, split_share
from cardsim.sims.cashnguns.stage import parse_loot, stage_game, stage_targets

SEED_LOOT = parse_loot("20000,10000,10000,5000,5000")


def cell(frame, bullet, action, column):
    return frame.filter((frame["bullet"] == bullet) & (frame["action"] == action))[column].item()


def test_parse_loot():
    assert SEED_LOOT == (2, 2, 1)
    assert parse_loot("20k, 5k") == (1, 0, 1)
    with pytest.raises(UserError, match="notes are"):
        parse_loot("15000")


def test_stage_targets_scenario():
    assert stage_targets(5, 2) == [1, 0, 0, 1, 2]
    assert stage_targets(4, 0) == [1, 2, 3, 1]
    with pytest.raises(UserError, match="guns must be"):
        stage_targets(4, 4)


def test_one_gun_closed_form():
    """4 players, 1 gun: the shooter wounds with Bang!Bang!Bang! (1/8), or with Bang! (2/8)
    when neither bystander (both aim at the shooter) downs him first with a BBB (7/8 each).
    With the focal's own BBB on the shooter his Bang! never fires: only his BBB (1/8) hits."""
    frame = stage_game(4, 1, SEED_LOOT)
    click = Fraction(1, 8) + Fraction(2, 8) * Fraction(7, 8) ** 2
    assert cell(frame, "Click", "stand", "p_wounded") == pytest.approx(float(click), abs=1e-15)
    assert cell(frame, "Bang!", "stand", "p_wounded") == pytest.approx(float(click), abs=1e-15)
    assert cell(frame, "Bang!Bang!Bang!", "stand", "p_wounded") == pytest.approx(1 / 8, abs=1e-15)


def test_lying_down_is_safe_and_costs_the_shame_value():
    frame = stage_game(5, 3, SEED_LOOT, shame_value=-5_000)
    for bullet in ("Click", "Bang!", "Bang!Bang!Bang!"):
        assert cell(frame, bullet, "lie down", "p_wounded") == 0
        assert cell(frame, bullet, "lie down", "expected_cash") == 0
        assert cell(frame, bullet, "lie down", "value") == -5_000


def test_no_guns_means_no_wound_and_a_share():
    frame = stage_game(4, 0, (0, 0, 4))
    assert cell(frame, "Click", "stand", "p_wounded") == 0
    assert cell(frame, "Click", "stand", "p_share") == 1


def test_stage_matches_monte_carlo_of_the_round():
    """Exact expected cash and wound probability vs 20,000 sampled rounds; 4.5 standard errors."""
    players, guns, loot = 5, 2, SEED_LOOT
    frame = stage_game(players, guns, loot)
    targets = np.array(stage_targets(players, guns))
    rng = np.random.default_rng(2)
    n = 20_000
    cards = rng.choice(3, size=(n, players - 1), p=[5 / 8, 2 / 8, 1 / 8])
    alive = np.ones(players, bool)
    lying = np.zeros(players, bool)
    wounded = np.zeros(n)
    cash = np.zeros(n)
    for i in range(n):
        bullets = np.concatenate(([0], cards[i]))
        taken, down, _, _ = resolve_shots(targets, bullets, lying, alive)
        sharers = sum(shares_loot(True, False, bool(d)) for d in down)
        wounded[i] = taken[0] > 0
        if not down[0]:
            cash[i] = split_share(*loot, sharers)[0] * 5_000
    p = cell(frame, "Click", "stand", "p_wounded")
    assert abs(wounded.mean() - p) < 4.5 * np.sqrt(p * (1 - p) / n)
    mean_cash = cell(frame, "Click", "stand", "expected_cash")
    assert abs(cash.mean() - mean_cash) < 4.5 * cash.std() / np.sqrt(n)
