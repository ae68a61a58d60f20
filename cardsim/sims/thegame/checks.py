"""The Game's checks in the game contract (:mod:`cardsim.testing`): strategies without
``omniscient`` use only legal information (digest reading 18), and the kernel's greedy plays as
the plain-Python one does.

From random mid-game positions, everything the player to move cannot see (teammates' hands and
the draw order) is dealt again at random; a strategy that reads only its own hand, the pile
tops, the public record of played cards and the allowed talk must then take exactly the same
turn. The allowed talk is the signal "I have something good for pile N"
(``kernel.reservations``, at the strategy's signal threshold): four bits that do depend on
teammates' hands. Re-deals for the strategies that hear it (signals, search) are therefore
drawn until they give the same four bits as the original deal (rejection sampling); greedy and
planner hear no talk, so any re-deal is compared (a planner that secretly read the hints is
caught). ``tests/thegame/test_information.py`` runs the check on
every turn function over many positions and catches the mutants.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from cardsim.sims.core.game import HiddenInfoResult
from cardsim.sims.thegame import kernel, reference
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import (
    DECK_SIZE,
    HIGHEST_CARD,
    MAX_HAND,
    MAX_PLAYERS,
    rules_hand_size,
)

POSITIONS = 200  # compared positions wanted per strategy and check
MAX_REDEALS = 400  # re-deals tried per position for one with the same signal bits
MIN_CARDS = 2
STRATEGIES = {"greedy": kernel.GREEDY, "planner": kernel.PLANNER, "signals": kernel.SIGNALS, "search": kernel.SEARCH}
#: the strategies allowed to hear the talk; the others' re-deals are not held to the same talk
HEARS_TALK = ("signals", "search")
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
        return replace(
            self,
            hands=self.hands.copy(),
            counts=self.counts.copy(),
            piles=self.piles.copy(),
            deck=self.deck.copy(),
            below=self.below.copy(),
        )


#: a turn function: (strategy name, parameters, position) -> the mover's turn as log rows
Turn = Callable[[str, np.ndarray, "Position"], list[int]]


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
        hands[seat, :size] = unplayed[position : position + size]
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
    held = [int(position.hands[q, s]) for q in seats for s in range(position.counts[q])]
    hidden = rng.permutation(held + position.deck[position.draw_pos :].tolist())
    index = 0
    for seat in seats:
        for slot in range(position.counts[seat]):
            other.hands[seat, slot] = hidden[index]
            index += 1
    other.deck[position.draw_pos :] = hidden[index:]
    return other


def signal_bits(position: Position, params: np.ndarray) -> tuple[bool, ...]:
    """The allowed talk the mover hears: which piles a teammate reserves."""
    penalty = np.zeros(4)
    kernel.reservations(
        position.hands,
        position.counts,
        position.mover,
        position.players,
        position.piles,
        position.below,
        True,
        params,
        penalty,
    )
    return tuple(bool(value > 0.0) for value in penalty)


def no_talk(position: Position, params: np.ndarray, turn: list[int]) -> tuple[bool, ...]:
    """The talk greedy and planner hear: none, so every re-deal is compared (a strategy that
    secretly read the hints would change its turn)."""
    return ()


def talk_before_turn(position: Position, params: np.ndarray, turn: list[int]):
    """The talk planner/signals (and search without rollouts) hear: the bits before the turn."""
    return signal_bits(position, params)


def talk_during_turn(position: Position, params: np.ndarray, turn: list[int]):
    """The talk search's rollout turn hears: the bits before the turn, and again after its
    mandatory plays (cards on the table are public, so teammates may signal anew; the turn's
    extras use these)."""
    after = position.copy()
    required = kernel.required_plays(DECK_SIZE - position.draw_pos, MIN_CARDS)
    for player, card, pile in [turn[i : i + 3] for i in range(0, 3 * required, 3)]:  # non-empty
        kernel.apply_play(
            after.hands,
            after.counts,
            player,
            kernel.find_slot(after.hands, after.counts, player, card),
            pile,
            after.piles,
            after.below,
        )
    return signal_bits(position, params), signal_bits(after, params)


def same_talk_redeal(rng, position: Position, params: np.ndarray, turn: list[int], talk) -> Position | None:
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
    log = stats[kernel.STATS_LEN : kernel.STATS_LEN + 3 * stats[kernel.S_LOG_LEN]].tolist()
    rows = [log[i : i + 3] for i in range(0, len(log), 3)]
    end = next((i for i, row in enumerate(rows) if row[2] == kernel.LOG_TURN_END), len(rows))
    return [value for row in rows[: end + 1] for value in row]


def logged_stats() -> np.ndarray:
    return np.zeros(kernel.STATS_LEN + kernel.LOG_CAPACITY, np.int64)


def single_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """The mover's turn by ``take_heuristic_turn`` (draw count and minimum given)."""
    p = position.copy()
    stats = logged_stats()
    draw_left = DECK_SIZE - p.draw_pos
    kernel.take_heuristic_turn(
        STRATEGIES[name],
        p.hands,
        p.counts,
        p.mover,
        p.players,
        p.piles,
        p.below,
        kernel.required_plays(draw_left, MIN_CARDS),
        draw_left,
        True,
        np.ones(1, np.uint64) * 7,
        params,
        *kernel.new_work(),
        stats,
    )
    return first_turn(stats)


def loop_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """The first turn of the game loop the simulator uses for ``name`` (the game is played to
    its end, only the first turn is the mover's own decision)."""
    p = position.copy()
    stats = logged_stats()
    hand_size = rules_hand_size(p.players)
    rng = np.ones(1, np.uint64) * 7
    if name == "greedy":
        kernel.play_out_greedy(
            p.deck,
            p.draw_pos,
            p.hands,
            p.counts,
            p.mover,
            p.players,
            hand_size,
            MIN_CARDS,
            True,
            p.piles,
            p.below,
            params,
            *kernel.new_work(),
            stats,
        )
    elif name == "search" and params[kernel.P_SEARCH_ROLLOUTS] > 0:
        kernel.play_out_search(
            p.deck,
            p.draw_pos,
            p.hands,
            p.counts,
            p.mover,
            p.players,
            hand_size,
            MIN_CARDS,
            True,
            p.piles,
            p.below,
            rng,
            params,
            *kernel.new_work(),
            kernel.new_rollout(),
            stats,
        )
    else:
        kernel.play_out(
            STRATEGIES[name],
            p.deck,
            p.draw_pos,
            p.hands,
            p.counts,
            p.mover,
            p.players,
            hand_size,
            MIN_CARDS,
            True,
            p.piles,
            p.below,
            rng,
            params,
            *kernel.new_work(),
            stats,
        )
    return first_turn(stats)


def rollout_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """search's rollout turn (``turn_search``): candidates scored by rollouts over samples of
    the unseen cards."""
    p = position.copy()
    stats = logged_stats()
    draw_left = DECK_SIZE - p.draw_pos
    kernel.turn_search(
        p.hands,
        p.counts,
        p.mover,
        p.players,
        p.deck,
        p.draw_pos,
        rules_hand_size(p.players),
        MIN_CARDS,
        p.piles,
        p.below,
        kernel.required_plays(draw_left, MIN_CARDS),
        True,
        np.ones(1, np.uint64) * 7,
        params,
        *kernel.new_work(),
        kernel.new_rollout(),
        stats,
    )
    return first_turn(stats)


def compare_turns(
    turn: Turn,
    name: str,
    *,
    seed: int,
    rollouts: int = 0,
    played_range: tuple[int, int] = (0, 60),
    signal_threshold: float | None = None,
    wanted: int = POSITIONS,
) -> Iterator[tuple[bool, str]]:
    """Compare ``turn`` on ``wanted`` positions and a same-talk re-deal of each; yields, per
    position compared, whether the hidden cards changed the turn and where.
    ``signal_threshold`` (a mutant) makes the strategy play with another threshold than the
    talk it is allowed to hear."""
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
        if name not in HEARS_TALK:
            talk = no_talk
        else:
            talk = talk_during_turn if rollouts else talk_before_turn
        other = same_talk_redeal(rng, position, allowed, original, talk)
        if other is None:
            continue
        compared += 1
        yield turn(name, played_with, other) != original, f"{players} players, seat {position.mover}"


def check_reads_only_legal_information(
    turn: Turn,
    name: str,
    *,
    seed: int,
    rollouts: int = 0,
    played_range: tuple[int, int] = (0, 60),
    signal_threshold: float | None = None,
    wanted: int = POSITIONS,
) -> int:
    """:func:`compare_turns`, failing on the first position where the hidden cards change the
    turn; returns the positions compared."""
    compared = 0
    for changed, where in compare_turns(
        turn,
        name,
        seed=seed,
        rollouts=rollouts,
        played_range=played_range,
        signal_threshold=signal_threshold,
        wanted=wanted,
    ):
        assert not changed, f"hidden cards changed {name}'s turn ({where})"
        compared += 1
    return compared


def generous_signal_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """A deliberately leaky turn: the strategy hears "I have something good for pile N" at a
    wider threshold than allowed (:data:`GENEROUS_THRESHOLD`), which tells it more about
    teammates' hands (greedy and planner, which hear no talk, are unchanged)."""
    played_with = params.copy()
    played_with[kernel.P_SIGNAL_THRESHOLD] = GENEROUS_THRESHOLD
    return single_turn(name, played_with, position)


def hint_reading_planner_turn(name: str, params: np.ndarray, position: Position) -> list[int]:
    """A deliberately leaky planner: it plays the signals turn, hearing the hints that planner
    is not allowed to hear (the other strategies play as themselves)."""
    return single_turn("signals" if name == "planner" else name, params, position)


def hidden_info_check(seed: int, policy: Turn | None = None) -> HiddenInfoResult:
    """The game declaration's hidden-information hook: a few positions per strategy,
    everything hidden from the mover re-dealt (keeping the talk the strategy may hear); counts
    the positions compared and the turns that changed. ``policy``: a :data:`Turn` to play
    instead of ``take_heuristic_turn``."""
    compared = changed = 0
    for name in STRATEGIES:
        for moved, _ in compare_turns(policy or single_turn, name, seed=seed, wanted=5):
            compared += 1
            changed += moved
    return HiddenInfoResult(compared, changed)


#: the declared leaky policy the check must catch
LEAKY_POLICY = generous_signal_turn


def reference_check(seed: int) -> int:
    """The game declaration's reference hook (``reference_check``, run by the generic contract
    test): the kernel's greedy against the plain-Python greedy on a few deals; returns how
    many games it compared."""
    seeds = np.random.default_rng(seed).integers(0, 2**31, 4)
    for deal, players in zip(seeds, (1, 2, 3, 5), strict=True):
        size = rules_hand_size(players)
        out = kernel.play_games(
            np.array([deal], np.int64), players, size, 2, True, kernel.GREEDY, strategy_params(players)
        )
        deck = kernel.deal_deck(int(deal)).tolist()
        assert reference.greedy_game(deck, players, size, 2, True) == out[0, kernel.S_CARDS_LEFT]
    return len(seeds)
