"""Digest reading 18: strategies without `omniscient` use only legal information.

From random mid-game positions, everything the player to move cannot see (teammates' hands and
the draw order) is dealt again at random; a strategy that reads only its own hand, the pile tops,
the public record of played cards and the allowed talk must then take exactly the same turn.

The allowed talk is the signal "I have something good for pile N" (kernel.reservations, at the
strategy's signal threshold): four bits that do depend on teammates' hands. Re-deals are therefore
drawn until they give the same four bits as the original deal (rejection sampling), so that every
position is compared, for every strategy. The check runs on the single-turn function, on the
first turn of each game loop (``play_out``, ``play_out_greedy``, ``play_out_search``, which work
out the mover, the minimum and the draw count themselves) and on search's rollout turn; the
first-player choice is checked against what each player can announce from their own hand. A
mutant (signals computed at a too-generous threshold, i.e. more talk than allowed) must be
caught for signals and for search.

The Python engine of user strategies is checked the same way: at every decision of whole games
(the mover's plays and the others' talk), re-dealing what the deciding seat cannot see leaves
the view and the legal choices it receives unchanged.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace

import numpy as np
import pytest

from cardsim.sims.core.user_strategy import load_strategy
from cardsim.sims.thegame import kernel, strategy
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import (
    DECK_SIZE,
    HIGHEST_CARD,
    MAX_HAND,
    MAX_PLAYERS,
    rules_hand_size,
)

from .test_user_strategy import CLOSEST_SPEC, SEEDS, SeededRandom, _play

POSITIONS = 200  # compared positions wanted per strategy and check
MAX_REDEALS = 400  # re-deals tried per position for one with the same signal bits
MIN_CARDS = 2
STRATEGIES = {"greedy": kernel.GREEDY, "planner": kernel.PLANNER, "signals": kernel.SIGNALS,
              "search": kernel.SEARCH}
# The mutant's signal threshold: one card more than the tuned 1 (effective gaps are whole
# numbers, so 1.5 would be the same signal; 2 is the least generous real mutant).
GENEROUS_THRESHOLD = 2.0


@dataclass(frozen=True)
class Position:
    """A mid-game state and the seat to move."""

    players: int
    mover: int
    hands: np.ndarray
    counts: np.ndarray
    piles: np.ndarray
    deck: np.ndarray
    draw_pos: int
    below: np.ndarray

    def copy(self) -> Position:
        return replace(self, hands=self.hands.copy(), counts=self.counts.copy(),
                       piles=self.piles.copy(), deck=self.deck.copy(), below=self.below.copy())


def random_position(rng: np.random.Generator, players: int, played_range=(0, 60)) -> Position:
    """A legal-looking mid-game position: some cards played, hands dealt, the rest to draw."""
    cards = rng.permutation(np.arange(2, 100))
    played_count = int(rng.integers(*played_range))
    played, unplayed = sorted(cards[:played_count].tolist()), cards[played_count:]
    piles = np.array([1, 1, 100, 100], np.int64)
    for pile in range(4):
        if played and rng.random() < 0.8:
            piles[pile] = rng.choice(played)
    hands = np.zeros((MAX_PLAYERS, MAX_HAND), np.int64)
    counts = np.zeros(MAX_PLAYERS, np.int64)
    position = 0
    for seat in range(players):
        size = min(rules_hand_size(players), len(unplayed) - position)
        hands[seat, :size] = unplayed[position:position + size]
        counts[seat] = size
        position += size
    deck = np.zeros(DECK_SIZE, np.int64)
    draw_pos = DECK_SIZE - (len(unplayed) - position)
    deck[draw_pos:] = unplayed[position:]
    unplayed_set = set(unplayed.tolist())
    below = np.cumsum([card in unplayed_set for card in range(HIGHEST_CARD + 2)]).astype(np.int64)
    movers = [seat for seat in range(players) if counts[seat] > 0]
    return Position(players, int(rng.choice(movers)), hands, counts, piles, deck, draw_pos, below)


def redeal_hidden(rng: np.random.Generator, position: Position) -> Position:
    """The cards the mover cannot see (teammates' hands, the draw pile) dealt again at random,
    every hand keeping its size."""
    other = position.copy()
    seats = [q for q in range(position.players) if q != position.mover]
    hidden = [int(position.hands[q, s]) for q in seats for s in range(position.counts[q])]
    hidden = rng.permutation(hidden + position.deck[position.draw_pos:].tolist())
    index = 0
    for seat in seats:
        for slot in range(position.counts[seat]):
            other.hands[seat, slot] = hidden[index]
            index += 1
    other.deck[position.draw_pos:] = hidden[index:]
    return other


def signal_bits(position: Position, params: np.ndarray) -> tuple[bool, ...]:
    """The allowed talk the mover hears: which piles a teammate reserves."""
    penalty = np.zeros(4)
    kernel.reservations(position.hands, position.counts, position.mover, position.players,
                        position.piles, position.below, True, params, penalty)
    return tuple(bool(value > 0.0) for value in penalty)


def talk_before_turn(position: Position, params: np.ndarray, turn: list[int]):
    """The talk planner/signals (and search without rollouts) hear: the bits before the turn."""
    return signal_bits(position, params)


def talk_during_turn(position: Position, params: np.ndarray, turn: list[int]):
    """The talk search's rollout turn hears: the bits before the turn, and again after its
    mandatory plays (cards on the table are public, so teammates may signal anew; the turn's
    extras use these)."""
    after = position.copy()
    required = kernel.required_plays(DECK_SIZE - position.draw_pos, MIN_CARDS)
    for player, card, pile in [turn[i:i + 3] for i in range(0, 3 * required, 3)]:  # non-empty
        kernel.apply_play(after.hands, after.counts, player,
                          kernel.find_slot(after.hands, after.counts, player, card), pile,
                          after.piles, after.below)
    return signal_bits(position, params), signal_bits(after, params)


def same_talk_redeal(rng, position: Position, params: np.ndarray, turn: list[int],
                     talk) -> Position | None:
    """A re-deal of the hidden cards under which the mover hears the same talk (None if none
    was found): the original ``turn`` fixes the public plays the talk may follow."""
    wanted = talk(position, params, turn)
    for _ in range(MAX_REDEALS):
        other = redeal_hidden(rng, position)
        if talk(other, params, turn) == wanted:
            return other
    return None


def first_turn(stats: np.ndarray) -> list[int]:
    """The log rows of the first turn: (player, card, pile) triples up to the turn's end."""
    log = stats[kernel.STATS_LEN:kernel.STATS_LEN + 3 * stats[kernel.S_LOG_LEN]].tolist()
    rows = [log[i:i + 3] for i in range(0, len(log), 3)]
    end = next((i for i, row in enumerate(rows) if row[2] == kernel.LOG_TURN_END), len(rows))
    return [value for row in rows[:end + 1] for value in row]


def logged_stats() -> np.ndarray:
    return np.zeros(kernel.STATS_LEN + kernel.LOG_CAPACITY, np.int64)


def single_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """The mover's turn by ``take_heuristic_turn`` (draw count and minimum given)."""
    p = position.copy()
    stats = logged_stats()
    draw_left = DECK_SIZE - p.draw_pos
    kernel.take_heuristic_turn(
        STRATEGIES[name], p.hands, p.counts, p.mover, p.players, p.piles, p.below,
        kernel.required_plays(draw_left, MIN_CARDS), draw_left, True, np.ones(1, np.uint64) * 7,
        params, *kernel.new_work(), stats)
    return first_turn(stats)


def loop_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """The first turn of the game loop the simulator uses for ``name`` (the game is played to
    its end, only the first turn is the mover's own decision)."""
    p = position.copy()
    stats = logged_stats()
    hand_size = rules_hand_size(p.players)
    rng = np.ones(1, np.uint64) * 7
    if name == "greedy":
        kernel.play_out_greedy(p.deck, p.draw_pos, p.hands, p.counts, p.mover, p.players,
                               hand_size, MIN_CARDS, True, p.piles, p.below, params,
                               *kernel.new_work(), stats)
    elif name == "search" and params[kernel.P_SEARCH_ROLLOUTS] > 0:
        kernel.play_out_search(p.deck, p.draw_pos, p.hands, p.counts, p.mover, p.players,
                               hand_size, MIN_CARDS, True, p.piles, p.below, rng, params,
                               *kernel.new_work(), kernel.new_rollout(), stats)
    else:
        kernel.play_out(STRATEGIES[name], p.deck, p.draw_pos, p.hands, p.counts, p.mover,
                        p.players, hand_size, MIN_CARDS, True, p.piles, p.below, rng, params,
                        *kernel.new_work(), stats)
    return first_turn(stats)


def rollout_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """search's rollout turn (``turn_search``): candidates scored by rollouts over samples of
    the unseen cards."""
    p = position.copy()
    stats = logged_stats()
    draw_left = DECK_SIZE - p.draw_pos
    kernel.turn_search(
        p.hands, p.counts, p.mover, p.players, p.deck, p.draw_pos, rules_hand_size(p.players),
        MIN_CARDS, p.piles, p.below, kernel.required_plays(draw_left, MIN_CARDS), True,
        np.ones(1, np.uint64) * 7, params, *kernel.new_work(), kernel.new_rollout(), stats)
    return first_turn(stats)


def check_reads_only_legal_information(turn, name: str, *, seed: int, rollouts: int = 0,
                                       played_range=(0, 60), signal_threshold: float | None = None,
                                       wanted: int = POSITIONS) -> int:
    """Compare ``turn`` on ``wanted`` positions and a same-talk re-deal of each; fails on the
    first position where the hidden cards change the turn. ``signal_threshold`` (a mutant)
    makes the strategy play with another threshold than the talk it is allowed to hear."""
    rng = np.random.default_rng(seed)
    compared = tried = 0
    while compared < wanted:
        tried += 1
        assert tried <= 3 * wanted, f"only {compared} of {tried} positions could be compared"
        players = int(rng.integers(2, 6))
        position = random_position(rng, players, played_range)
        allowed = strategy_params(players, name, rollouts)
        played_with = allowed.copy()
        if signal_threshold is not None:
            played_with[kernel.P_SIGNAL_THRESHOLD] = signal_threshold
        original = turn(name, played_with, position)
        if not original:
            continue  # the mover cannot play the minimum: no decision to compare
        talk = talk_during_turn if rollouts else talk_before_turn
        other = same_talk_redeal(rng, position, allowed, original, talk)
        if other is None:
            continue
        assert turn(name, played_with, other) == original, (
            f"hidden cards changed {name}'s turn ({players} players, seat {position.mover})"
        )
        compared += 1
    return compared


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
    assert check_reads_only_legal_information(
        loop_turn, "search", seed=21, rollouts=1, played_range=(70, 85)) == POSITIONS


@pytest.mark.parametrize("name", ["signals", "search"])
def test_too_generous_signal_is_caught(name):
    """The mutant hears 'I have something good for pile N' at a wider threshold than allowed,
    which tells it more about teammates' hands: the check must fail."""
    with pytest.raises(AssertionError, match="hidden cards changed"):
        check_reads_only_legal_information(single_turn, name, seed=18,
                                           signal_threshold=GENEROUS_THRESHOLD)
    with pytest.raises(AssertionError, match="hidden cards changed"):
        check_reads_only_legal_information(loop_turn, name, seed=19,
                                           signal_threshold=GENEROUS_THRESHOLD)


def test_too_generous_signal_is_caught_in_rollouts():
    with pytest.raises(AssertionError, match="hidden cards changed"):
        check_reads_only_legal_information(rollout_turn, "search", seed=20, rollouts=2,
                                           signal_threshold=GENEROUS_THRESHOLD)


def announced_opening_cost(hand: np.ndarray, count: int, params: np.ndarray) -> float:
    """What a player can say before the first turn from their own hand alone: the cost of
    their cheapest opening sequence on the fresh piles (no other hand exists in this call)."""
    piles = np.array([1, 1, 100, 100], np.int64)
    below = np.empty(HIGHEST_CARD + 2, np.int64)
    kernel.reset_below(below)
    W, F, C = kernel.new_work()
    assert kernel.best_sequences(hand.copy(), count, piles, below, MIN_CARDS, True, True, params,
                                 F[kernel.F_NO_PENALTY], W, F, C, 1) > 0
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
        stats, _ = kernel.trace_game(deal_seed, players, hand_size, MIN_CARDS, True,
                                     STRATEGIES[name], params)
        deck = kernel.deal_deck(deal_seed)
        costs = [announced_opening_cost(deck[q * hand_size:(q + 1) * hand_size], hand_size, params)
                 for q in range(players)]
        assert int(stats[kernel.S_FIRST_PLAYER]) == int(np.argmin(costs)), (deal_seed, costs)
        compared += len(set(costs)) > 1
    assert compared >= 200  # deals where the announcements actually differ


def hidden_info_check(seed: int) -> int:
    """The game declaration's hidden-information hook (``hidden_info_check``, run by the
    generic contract test): a few positions per strategy, everything hidden from the mover
    re-dealt; asserts the turn never changes and returns the positions compared."""
    return sum(check_reads_only_legal_information(single_turn, name, seed=seed, wanted=5)
               for name in STRATEGIES)
# ---------------------------------------------------------------------------------------------
# The Python engine of user strategies: the views and legal choices it hands a
# strategy, at every decision of whole games.

def _redeal_hidden(table: strategy.Table, seat: int, rng: np.random.Generator):
    """A copy of the table with every card ``seat`` cannot see (the other hands, the draw
    pile) dealt again at random, each hand keeping its size."""
    other = copy.deepcopy(table)
    seats = [q for q in range(table.players) if q != seat]
    hidden = [int(c) for q in seats for c in table.hands[q, :table.counts[q]]]
    hidden += table.deck[table.draw_pos:].tolist()
    hidden = rng.permutation(hidden).tolist()
    at = 0
    for q in seats:
        for s in range(table.counts[q]):
            other.hands[q, s] = hidden[at]
            at += 1
    other.deck[table.draw_pos:] = hidden[at:]
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
            checked[1] += not (np.array_equal(other.hands, table.hands)
                               and np.array_equal(other.deck, table.deck))
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
