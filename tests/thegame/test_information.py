"""Digest reading 18: strategies without `omniscient` use only legal information.

From random mid-game positions, everything the player to move cannot see (teammates' hands and
the draw order) is dealt again at random; a strategy that reads only its own hand, the pile tops,
the public record of played cards and the allowed talk must then take exactly the same turn.

The allowed talk is the signal "I have something good for pile N" (kernel.reservations, at the
strategy's signal threshold): four bits that do depend on teammates' hands. Re-deals for the
strategies that hear it (signals, search) are therefore drawn until they give the same four bits
as the original deal (rejection sampling), so that every position is compared; greedy and planner
hear no talk and are compared on any re-deal, so a planner that secretly reads the hints is
caught. The check runs on the single-turn function, on the
first turn of each game loop (``play_out``, ``play_out_greedy``, ``play_out_search``, which work
out the mover, the minimum and the draw count themselves) and on search's rollout turn; the
first-player choice is checked against what each player can announce from their own hand. A
mutant (signals computed at a too-generous threshold, i.e. more talk than allowed) must be
caught for signals and for search, and a planner that plays the signals turn for planner.

The Python engine of user strategies is checked the same way: at every decision of whole games
(the mover's plays and the others' talk), re-dealing what the deciding seat cannot see leaves
the view and the legal choices it receives unchanged. The positions, the re-deal and the turn
functions are :mod:`cardsim.sims.thegame.checks`, the game contract's check.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from cardsim.sims.core.user_strategy import load_strategy
from cardsim.sims.thegame import kernel, strategy
from cardsim.sims.thegame.checks import (
    GENEROUS_THRESHOLD,
    MIN_CARDS,
    POSITIONS,
    STRATEGIES,
    check_reads_only_legal_information,
    hint_reading_planner_turn,
    loop_turn,
    rollout_turn,
    single_turn,
)
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import HIGHEST_CARD, rules_hand_size

from .test_user_strategy import CLOSEST_SPEC, SEEDS, SeededRandom, _play


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_turn_does_not_depend_on_hidden_cards(name):
    assert check_reads_only_legal_information(single_turn, name, seed=18) == POSITIONS


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_game_loop_turn_does_not_depend_on_hidden_cards(name):
    assert check_reads_only_legal_information(loop_turn, name, seed=19) == POSITIONS


def test_rollout_turn_does_not_depend_on_hidden_cards():
    compared = check_reads_only_legal_information(rollout_turn, "search", seed=20, rollouts=2)
    assert compared == POSITIONS


def test_search_game_loop_with_rollouts_does_not_depend_on_hidden_cards():
    # late positions keep the rollouts' games short
    assert (
        check_reads_only_legal_information(loop_turn, "search", seed=21, rollouts=1, played_range=(70, 85)) == POSITIONS
    )


@pytest.mark.parametrize("name", ["signals", "search"])
def test_too_generous_signal_is_caught(name):
    """The mutant hears 'I have something good for pile N' at a wider threshold than allowed,
    which tells it more about teammates' hands: the check must fail."""
    with pytest.raises(AssertionError, match="hidden cards changed"):
        check_reads_only_legal_information(single_turn, name, seed=18, signal_threshold=GENEROUS_THRESHOLD)
    with pytest.raises(AssertionError, match="hidden cards changed"):
        check_reads_only_legal_information(loop_turn, name, seed=19, signal_threshold=GENEROUS_THRESHOLD)


def test_a_planner_that_reads_the_hints_is_caught():
    """planner hears no talk, so its re-deals are not held to the same hints: a planner that
    secretly reads them (it plays the signals turn) changes its turn when hidden cards change.
    (Holding the hints fixed for every strategy let it pass.)"""
    with pytest.raises(AssertionError, match="hidden cards changed planner's turn"):
        check_reads_only_legal_information(hint_reading_planner_turn, "planner", seed=18)
    with pytest.raises(AssertionError, match="hidden cards changed planner's turn"):
        check_reads_only_legal_information(hint_reading_planner_turn, "planner", seed=19)


def test_too_generous_signal_is_caught_in_rollouts():
    with pytest.raises(AssertionError, match="hidden cards changed"):
        check_reads_only_legal_information(
            rollout_turn, "search", seed=20, rollouts=2, signal_threshold=GENEROUS_THRESHOLD
        )


def announced_opening_cost(hand: np.ndarray, count: int, params: np.ndarray) -> float:
    """What a player can say before the first turn from their own hand alone: the cost of
    their cheapest opening sequence on the fresh piles (no other hand exists in this call)."""
    piles = np.array([1, 1, 100, 100], np.int64)
    below = np.empty(HIGHEST_CARD + 2, np.int64)
    kernel.reset_below(below)
    W, F, C = kernel.new_work()
    assert (
        kernel.best_sequences(
            hand.copy(), count, piles, below, MIN_CARDS, True, True, params, F[kernel.F_NO_PENALTY], W, F, C, 1
        )
        > 0
    )
    return float(F[kernel.F_CAND_COST, 0])


@pytest.mark.parametrize("name", ["signals", "search"])
def test_first_player_is_the_cheapest_announced_opening(name):
    """In the real game (trace_game: deal, first-player choice, loop), the first player is the
    one announcing the cheapest opening from their own hand (ties: lowest seat), so the choice
    reads nothing but the announcements (not teammates' cards, not the draw pile)."""
    compared = 0
    for deal_seed in range(240):
        players = 2 + deal_seed % 4
        hand_size = rules_hand_size(players)
        params = strategy_params(players, name)
        stats, _ = kernel.trace_game(deal_seed, players, hand_size, MIN_CARDS, True, STRATEGIES[name], params)
        deck = kernel.deal_deck(deal_seed)
        costs = [
            announced_opening_cost(deck[q * hand_size : (q + 1) * hand_size], hand_size, params) for q in range(players)
        ]
        assert int(stats[kernel.S_FIRST_PLAYER]) == int(np.argmin(costs)), (deal_seed, costs)
        compared += len(set(costs)) > 1
    assert compared >= 200  # deals where the announcements actually differ


# ---------------------------------------------------------------------------------------------
# The Python engine of user strategies: the views and legal choices it hands a
# strategy, at every decision of whole games.


def _redeal_hidden(table: strategy.Table, seat: int, rng: np.random.Generator):
    """A copy of the table with every card ``seat`` cannot see (the other hands, the draw
    pile) dealt again at random, each hand keeping its size."""
    other = copy.deepcopy(table)
    seats = [q for q in range(table.players) if q != seat]
    hidden = [int(c) for q in seats for c in table.hands[q, : table.counts[q]]]
    hidden += table.deck[table.draw_pos :].tolist()
    hidden = rng.permutation(hidden).tolist()
    at = 0
    for q in seats:
        for s in range(table.counts[q]):
            other.hands[q, s] = hidden[at]
            at += 1
    other.deck[table.draw_pos :] = hidden[at:]
    return other


@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_view_depends_on_a_hidden_card(players):
    """Digest reading 18 for user strategies: at every decision of whole games (the plays of
    the mover and the talk of the others), re-dealing the cards the deciding seat cannot see
    leaves its view and its legal choices exactly as they were."""
    rng = np.random.default_rng(players)
    checked = [0, 0]  # decisions checked, re-deals that moved a hidden card

    def check(table, seat):
        before = table.view(seat)
        legal = table._plays(max(table.required - table.played_this_turn, 0))
        for _ in range(2):
            other = _redeal_hidden(table, seat, rng)
            assert other.view(seat) == before
            if seat == table.mover:
                assert other._plays(max(table.required - table.played_this_turn, 0)) == legal
            checked[1] += not (np.array_equal(other.hands, table.hands) and np.array_equal(other.deck, table.deck))
        checked[0] += 1

    for seed in SEEDS[:3].tolist():
        _play(load_strategy(CLOSEST_SPEC), seed, players, on_decision=check)
        _play(SeededRandom(seed), seed, players, on_decision=check)
    assert checked[0] > 300 and checked[1] > 1.8 * checked[0]


def test_a_mutant_view_showing_a_teammates_card_is_caught():
    """The swap test has teeth: a view that leaks the next seat's hand differs after a
    re-deal."""
    table = strategy.Table(11, 3)
    table.start(0)
    leaky = (table.view(0), table.hand(1))
    other = _redeal_hidden(table, 0, np.random.default_rng(1))
    assert (other.view(0), other.hand(1)) != leaky
