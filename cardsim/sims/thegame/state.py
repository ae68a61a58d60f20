"""State of one game of The Game in plain arrays, and the updates every strategy shares.

``deck`` (98 cards, drawn from ``draw_pos`` on), ``hands[player, slot]`` with ``counts[player]``
cards packed at the front, ``piles[4]`` (tops; 0 and 1 ascend, 2 and 3 descend) and
``below[x]`` = number of cards still unplayed (in hands or the draw pile) with value <= x, so a
play's *effective gap* (unplayed cards it makes unreachable on that pile) is two lookups.

All randomness of a game (the shuffle, random strategy choices, rollout samples) comes from one
splitmix64 stream seeded by the game's ``deal_seed``, which the simulator draws from the numpy
Generator; :func:`deal_deck` regenerates the deal of any stored episode. Also here: the ids,
parameter indices and statistics columns the kernels share, the scratch buffers allocated once
per batch, the play log and the turn order. Rules: ``seeds/the_game.md``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.thegame.rules import (
    DECK_SIZE,
    HIGHEST_CARD,
    LOWEST_CARD,
    MAX_HAND,
    MAX_PLAYERS,
    N_PILES,
    is_backwards_trick,
    refill_count,
    start_top,
)

# Strategy ids (names in config.STRATEGIES).
RANDOM, GREEDY, PLANNER, SIGNALS, SEARCH, OMNISCIENT = 0, 1, 2, 3, 4, 5

# Indices into the float64 parameter vector of the heuristic strategies.
P_REACH_EARLY = 0  # extra cards are played while their cost <= this (draw pile above LATE_DRAW)
P_REACH_LATE = 1  # ... and <= this once the draw pile is at or below LATE_DRAW
P_LATE_DRAW = 2  # draw-pile size at or below which the late reach applies
P_PAIR_PENALTY = 3  # cost added for playing the near card of a 10-apart pair without the far one
P_TRICK_BONUS = 4  # extra value of a backwards trick beyond the cards it reopens
P_SIGNAL_THRESHOLD = 5  # a teammate reserves a pile when holding a card of cost <= this
P_SIGNAL_PENALTY = 6  # cost added to a non-free play on a pile a teammate reserved
P_SEARCH_CANDIDATES = 7  # rollouts: candidate turns scored
P_SEARCH_ROLLOUTS = 8  # search: sampled determinisations per candidate (0 = lookahead only)
P_LOOKAHEAD = 9  # planner: weight of the cheapest next turn left by each candidate (0 = off)
P_LOOKAHEAD_CANDIDATES = 10  # planner: candidates compared with the lookahead (<= 8)
P_SEARCH_CONFIDENCE = 11  # rollouts: standard errors a variant must win by to be chosen
P_OMNI_BUDGET = 12  # omniscient: turns its rollouts may simulate per game (plan improvement)
P_OMNI_CANDIDATES = 13  # omniscient: passes; pass k tries the k-th cheapest sequence per turn
P_OMNI_LOOKAHEAD = 14  # omniscient: lookahead weight of the rollout policy (0 = signals)
N_PARAMS = 15

INF = 1.0e18
MAX_TURN = 2 * MAX_HAND  # longest sequence one turn can record (a full hand)

# Episode statistics per game, columns of the stats array the kernel returns.
S_CARDS_LEFT = 0
S_IN_HANDS = 1
S_DRAW_LEFT = 2
S_TURNS = 3
S_FIRST_PLAYER = 4
S_EXTRA_PLAYS = 5
S_TRICKS = 6
N_STATS = 7  # columns of the per-game output
S_LOG_LEN = 7  # live stats only: entries written to the optional play log
STATS_LEN = 8  # a stats vector longer than this carries a play log (see trace_game)
LOG_TURN_END = -1  # pile value of the log entry closing a turn
LOG_CAPACITY = 3 * (DECK_SIZE + 2 * DECK_SIZE)  # every card plus a turn marker per turn
MAX_SNAPSHOTS = DECK_SIZE + 1  # turn-start states of a plan (a turn plays at least one card)


# ---------------------------------------------------------------------------------------------
# Random numbers: splitmix64, one stream per game.


@kernel(inline="always")
def next_u64(state: np.ndarray) -> np.uint64:
    """Advance the splitmix64 state (a one-element uint64 array) and return 64 random bits."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel(inline="always")
def random_below(state: np.ndarray, k: int) -> int:
    """A uniform integer in [0, k) (modulo bias below 1e-17 for k <= 98)."""
    return int(next_u64(state) % np.uint64(k))


@kernel(refcounts=False)
def shuffle_prefix(values: np.ndarray, length: int, state: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``values[:length]`` in place."""
    for i in range(length - 1, 0, -1):
        j = random_below(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp


@kernel
def deal_deck(deal_seed: int) -> np.ndarray:
    """The shuffled 98-card deck of the game with this seed (cards 2-99, each once)."""
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(deal_seed)
    deck = np.empty(DECK_SIZE, np.int64)
    fill_and_shuffle(deck, state)
    return deck


@kernel(refcounts=False)
def fill_and_shuffle(deck: np.ndarray, state: np.ndarray) -> None:
    """Write cards 2..99 into ``deck`` and shuffle them with the game's stream."""
    for i in range(DECK_SIZE):
        deck[i] = LOWEST_CARD + i
    shuffle_prefix(deck, DECK_SIZE, state)


# ---------------------------------------------------------------------------------------------
# State updates.


@kernel(inline="always")
def reset_below(below: np.ndarray) -> None:
    """Every card 2..99 unplayed: below[x] = number of cards 2..x."""
    for x in range(below.shape[0]):
        below[x] = min(max(x - 1, 0), DECK_SIZE)


@kernel(inline="always")
def apply_play(
    hands: np.ndarray, counts: np.ndarray, player: int, slot: int, pile: int, piles: np.ndarray, below: np.ndarray
) -> int:
    """Move the card in ``hands[player, slot]`` onto ``pile``; returns the card.

    The hand stays packed (the last card fills the hole) and ``below`` forgets the card.
    """
    card = hands[player, slot]
    last = counts[player] - 1
    hands[player, slot] = hands[player, last]
    hands[player, last] = 0
    counts[player] = last
    piles[pile] = card
    for x in range(card, below.shape[0]):
        below[x] -= 1
    return card


@kernel(inline="always")
def find_slot(hands: np.ndarray, counts: np.ndarray, player: int, card: int) -> int:
    """Slot of ``card`` in the player's hand, -1 if absent."""
    for s in range(counts[player]):
        if hands[player, s] == card:
            return s
    return -1


@kernel(inline="always")
def refill(hands: np.ndarray, counts: np.ndarray, player: int, hand_size: int, deck: np.ndarray, draw_pos: int) -> int:
    """Draw back up to ``hand_size`` (or what the draw pile holds); returns the new draw_pos."""
    k = refill_count(counts[player], hand_size, DECK_SIZE - draw_pos)
    for _ in range(k):
        hands[player, counts[player]] = deck[draw_pos]
        counts[player] += 1
        draw_pos += 1
    return draw_pos


# ---------------------------------------------------------------------------------------------
# Scratch buffers, allocated once per batch so no turn allocates (the game loops and every
# kernel they call are compiled without reference counting, so they cannot allocate). Hot
# functions take three arrays (W: int64 rows, F: float64 rows, C: candidate sequences) rather
# than many small ones, which keeps their argument lists short.

MAX_CANDIDATES = 16
SLOT_TABLE = 128  # W[R_SLOT_OF, card]: hand slot of a card (-1 if not held), cards up to 109

R_USED = 0  # per hand slot: already chosen in the sequence being built
R_WORK = 1  # pile tops while a sequence is being built
R_SEQ_SLOT = 2  # the sequence being built: hand slot, pile, kind (1 normal play, 0 trick)
R_SEQ_PILE = 3
R_SEQ_KIND = 4
R_SAVED_TOP = 5  # pile top before each play of the sequence (to undo it)
R_POS = 6  # per depth: next (pile, slot) code to try
R_LEGAL_SLOT = 7  # random strategy: the legal plays of this step
R_LEGAL_PILE = 8
R_TURN_CARDS = 9  # sequential choice of random / greedy
R_TURN_PILES = 10
R_SLOT_OF = 11
R_SINGLE_PARTNER = 12  # per (slot * 4 + pile): slot of the far partner of a normal play, or -1
R_LOOK_CARDS = 13  # lookahead: candidate k's cards at k * MAX_TURN + d
R_LOOK_PILES = 14
R_LOOK_HAND = 15  # lookahead: the hand left by a candidate
R_LOOK_TOPS = 16  # lookahead: the pile tops left by a candidate
N_WORK_ROWS = 17

F_ACC = 0  # per depth: cost of the sequence so far
F_PENALTY = 1  # per pile: reservation penalty of the current player
F_NO_PENALTY = 2  # all zeros
F_CAND_COST = 3  # cost of each kept candidate sequence, cheapest first
F_SINGLE = 4  # per (slot * 4 + pile): cost of that single play now (INF if illegal)
F_SINGLE_PAIR = 5  # per (slot * 4 + pile): pair penalty it incurs if its partner stays in hand
F_PILE_MIN = 6  # per pile: cheapest single play on it now
F_LOOK_COST = 7  # lookahead: cost of each candidate
N_FLOAT_ROWS = 8
FLOAT_WIDTH = 32

Rollout = namedtuple(
    "Rollout",
    [
        "search_cards",
        "search_piles",
        "search_score",
        "search_square",
        "unseen",
        "r_deck",
        "r_hands",
        "r_counts",
        "r_piles",
        "r_below",
        "r_stats",
        "s_deck",
        "s_hands",
        "s_counts",
        "candidate_extras",
        "plan",
        "o_stats",
        "o_params",
        "snap_hands",
        "snap_counts",
        "snap_piles",
        "snap_below",
        "snap_meta",
        "after_piles",
        "after_below",
    ],
)


@kernel(inline="always")
def new_work() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fresh (W, F, C) scratch arrays for one batch."""
    work = np.zeros((N_WORK_ROWS, SLOT_TABLE), np.int64)
    work[R_SLOT_OF, :] = -1
    floats = np.zeros((N_FLOAT_ROWS, FLOAT_WIDTH))
    candidates = np.zeros((2, MAX_CANDIDATES, MAX_TURN), np.int64)
    return work, floats, candidates


@kernel
def new_rollout() -> Rollout:
    """Fresh buffers of the search strategies (candidates, sampled and rolled-out states)."""
    return Rollout(
        np.zeros((MAX_CANDIDATES, MAX_TURN), np.int64),
        np.zeros((MAX_CANDIDATES, MAX_TURN), np.int64),
        np.zeros(2 * MAX_CANDIDATES),
        np.zeros(2 * MAX_CANDIDATES),
        np.zeros(DECK_SIZE, np.int64),
        np.zeros(DECK_SIZE, np.int64),
        np.zeros((MAX_PLAYERS, MAX_HAND), np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(N_PILES, np.int64),
        np.zeros(HIGHEST_CARD + 2, np.int64),
        np.zeros(STATS_LEN, np.int64),
        np.zeros(DECK_SIZE, np.int64),
        np.zeros((MAX_PLAYERS, MAX_HAND), np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(1, np.int64),
        np.zeros(LOG_CAPACITY, np.int64),
        np.zeros(STATS_LEN + LOG_CAPACITY, np.int64),
        np.zeros(N_PARAMS),
        np.zeros((MAX_SNAPSHOTS, MAX_PLAYERS, MAX_HAND), np.int64),
        np.zeros((MAX_SNAPSHOTS, MAX_PLAYERS), np.int64),
        np.zeros((MAX_SNAPSHOTS, N_PILES), np.int64),
        np.zeros((MAX_SNAPSHOTS, HIGHEST_CARD + 2), np.int64),
        np.zeros((MAX_SNAPSHOTS, 3), np.int64),
        np.zeros(N_PILES, np.int64),
        np.zeros(HIGHEST_CARD + 2, np.int64),
    )


# ---------------------------------------------------------------------------------------------
# The live game: play log, single plays, turn order, set-up.


@kernel(inline="always")
def record(stats, player, card, pile) -> None:
    """Append (player, card, pile) to the play log carried after the stats, if there is one."""
    at = STATS_LEN + 3 * stats[S_LOG_LEN]
    if at + 3 <= stats.shape[0]:
        stats[at] = player
        stats[at + 1] = card
        stats[at + 2] = pile
        stats[S_LOG_LEN] += 1


@kernel(inline="always")
def play_card(hands, counts, player, slot, pile, piles, below, stats) -> None:
    """Play one card of the live game: count tricks, log it, apply it."""
    card = hands[player, slot]
    if is_backwards_trick(card, pile, piles[pile]):
        stats[S_TRICKS] += 1
    record(stats, player, card, pile)
    apply_play(hands, counts, player, slot, pile, piles, below)


@kernel(inline="always")
def play_sequence(hands, counts, player, piles, below, cards, pile_of, length, stats) -> None:
    """Apply a chosen sequence of plays (cards by value) to the live state."""
    for d in range(length):
        play_card(hands, counts, player, find_slot(hands, counts, player, cards[d]), pile_of[d], piles, below, stats)


@kernel(inline="always")
def next_to_move(counts, player, players) -> int:
    """The seat that moves next starting from ``player``: a player with an empty hand after the
    draw pile is gone is skipped; -1 when every card has been played (win)."""
    for _ in range(players):
        if counts[player] > 0:
            return player
        player = (player + 1) % players
    return -1  # hands are refilled while the draw pile lasts, so this means all 98 are down


@kernel(inline="always")
def cards_left(counts, players, draw_pos) -> int:
    """Every unplayed card: in hands plus in the draw pile."""
    total = DECK_SIZE - draw_pos
    for q in range(players):
        total += counts[q]
    return total


@kernel(refcounts=False)
def setup_game(deal_seed, players, hand_size, deck, hands, counts, piles, below, rng) -> int:
    """Shuffle, deal ``hand_size`` cards to each player and lay the four foundations;
    returns the draw position."""
    rng[0] = np.uint64(deal_seed)
    fill_and_shuffle(deck, rng)
    for pile in range(N_PILES):
        piles[pile] = start_top(pile)
    reset_below(below)
    hands[:, :] = 0
    draw_pos = 0
    for q in range(MAX_PLAYERS):
        counts[q] = 0
    for q in range(players):
        draw_pos = refill(hands, counts, q, hand_size, deck, draw_pos)
    return draw_pos


@kernel(inline="always")
def new_table():
    """Fresh state arrays of one game (deck, hands, counts, piles, below, rng), reused by every
    game of a batch."""
    return (
        np.empty(DECK_SIZE, np.int64),
        np.zeros((MAX_PLAYERS, MAX_HAND), np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.empty(N_PILES, np.int64),
        np.empty(HIGHEST_CARD + 2, np.int64),
        np.empty(1, np.uint64),
    )
