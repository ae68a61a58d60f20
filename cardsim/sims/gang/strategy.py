"""Write your own strategy for The Gang: the view a seat sees, its decision, and the engine that
plays heists with it.

The Gang is cooperative, so the user's strategy plays every seat (each seat decides on its own
view; no seat sees another's cards). A strategy is a class (instantiated without arguments) or
an object with one method per name in :data:`DECISIONS`:

``take_chip(view, legal) -> star``
    Once per chip round (white pre-flop, yellow flop, orange turn, red river), which chip of the
    round's colour the seat ends up holding: ``legal`` is the stars ``(1, ..., players)``; a
    higher star claims a stronger hand. Seed 000 ("Vòng 1 b)") lets players take chips from the
    middle or from each other until everyone holds one; the engine plays that dance as its
    settled allocation (rules digest ``seeds/the_gang.md``, H4): the seats are ordered by the
    star they reach for, and seats reaching for the same star contest it, settled at random as
    in the percentile model. The red chips decide the showdown (H7): the heist succeeds iff the
    hands, revealed from the 1-star chip upwards, never get weaker.

The :class:`View` holds what the seat may know: its own pocket cards, the community cards shown,
and every chip taken in the earlier rounds (the row of chips in front of each player stays
visible, H5), plus the number of cards it cannot see; never a teammate's card or the cards to
come. Cards are codes 0..51, ``rank * 4 + suit`` with ranks 2..A as 0..12 (:func:`card_text`
gives "As", "Td"); :func:`hand_percentile` rates the seat's own hand as the built-in models do.

A ten-line strategy (``examples/strategies/gang_pairs_high.py``)::

    from cardsim.sims.gang.strategy import card_rank

    class PairsHigh:
        def take_chip(self, view, legal):
            ranks = [card_rank(c) for c in view.pocket + view.board]
            best = max(ranks.count(r) for r in set(ranks))
            high = max(card_rank(c) for c in view.pocket)
            score = best * 13 + high
            return legal[min(score * len(legal) // 60, len(legal) - 1)]

Evaluate it: ``cardsim gang evaluate --strategy examples/strategies/gang_pairs_high.py:PairsHigh
--players 4 --n 2000``. The built-in percentile model written through this interface is
``examples/strategies/gang_percentile.py``; it plays exactly the kernel's heists.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.core.user_strategy import (
    DEFAULT_TIME_LIMIT,
    DecisionClock,
    StrategyError,
    decide,
    fresh_copy,
    load_strategy,
)
from cardsim.sims.gang.engine import play_batch
from cardsim.sims.gang.holdings import (
    BOARD_SIZES,
    N_PAIRS,
    PAIR_MASKS_WITH_JACK,
    PAIRS_WITH_JACK,
    SCORE_WORK,
    hand_score,
)
from cardsim.sims.gang.models import MODEL_IDS
from cardsim.sims.gang.rounds import current_hands, rate_own_hands, showdown_in_order
from cardsim.sims.poker.cards import format_card

DECISIONS = ("take_chip",)
ROUND_NAMES = ("pre-flop", "flop", "turn", "river")
EVALUATE_CHUNK = 250  # heists per chunk of an evaluation (chunk i: the root seed's i-th child)


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows when it takes a chip.

    ``seat`` (0-based) of ``players``; ``round`` 0..3 (pre-flop, flop, turn, river; chip
    colours white, yellow, orange, red); ``pocket`` the seat's own two cards; ``board`` the
    community cards shown (0, 3, 4 or 5); ``chips[t][p]`` the star seat ``p`` took in earlier
    round ``t`` (one row per earlier round); ``hidden_cards`` the teammates' pocket cards the
    seat cannot see; ``cards_to_come`` the community cards not yet shown.
    """

    seat: int
    players: int
    round: int
    pocket: tuple[int, ...]
    board: tuple[int, ...]
    chips: tuple[tuple[int, ...], ...]
    hidden_cards: int
    cards_to_come: int


def card_rank(card: int) -> int:
    """0 for a two .. 12 for an ace."""
    return card // 4


def card_text(card: int) -> str:
    """A card code as text: 51 -> 'As'."""
    return format_card(card)


@lru_cache(maxsize=4096)
def _percentile(pocket: tuple[int, ...], board: tuple[int, ...]) -> float:
    shown = len(board)
    pockets = np.array([pocket], dtype=np.int64)
    full = np.zeros(5, dtype=np.int64)
    full[:shown] = board
    own = np.zeros(1, dtype=np.int64)
    own_masks = np.zeros(1, dtype=np.int64)
    ratings = np.zeros(1)
    current_hands(pockets, 1, 2, full, shown, -1, own, own_masks)
    rate_own_hands(
        own,
        own_masks,
        pockets,
        1,
        2,
        full,
        shown,
        PAIRS_WITH_JACK,
        PAIR_MASKS_WITH_JACK,
        N_PAIRS,
        PAIRS_WITH_JACK,
        np.zeros(N_PAIRS, dtype=np.bool_),
        np.zeros(N_PAIRS, dtype=np.int64),
        ratings,
        np.zeros(SCORE_WORK, dtype=np.int64),
    )
    return float(ratings[0])


def warm_helpers() -> None:
    """Compile (or load) :func:`hand_percentile`'s kernels before any decision is timed."""
    _percentile((0, 1), ())
    _percentile((0, 1), (2, 3, 4))


def hand_percentile(view: View) -> float:
    """The seat's hand (pocket plus the cards shown; pre-flop the starting-hand table) as its
    percentile among every two-card holding a teammate could hold (ties count one half): the
    rating the percentile, history and bayes models claim from (digest, "Player models")."""
    return _percentile(view.pocket, view.board)


@kernel
def deal_outcomes(decks: np.ndarray, seeds: np.ndarray, players: int, finals: np.ndarray, ties: np.ndarray) -> None:
    """Every final hand (pocket plus the five community cards) and the contest tie-breaks of
    each round: the heist's own generator seeded as the kernel seeds it, drawn in its order
    (round by round, seat by seat), so equal stars are settled as the kernel settles them."""
    pocket = np.empty(2, dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    for i in range(seeds.shape[0]):
        np.random.seed(seeds[i])
        for k in range(5):
            board[k] = decks[i, 2 * players + k]
        for p in range(players):
            pocket[0], pocket[1] = decks[i, 2 * p], decks[i, 2 * p + 1]
            finals[i, p] = hand_score(pocket, 2, board, 5)
        for r in range(4):
            for p in range(players):
                ties[i, r, p] = np.random.random()


def draw_deals(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Decks and per-heist seeds drawn as :func:`cardsim.sims.gang.engine.play_batch` draws
    them, so the same generator gives the kernel's deals."""
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n, 1)), axis=1)
    seeds = rng.integers(0, 2**32 - 1, size=n, dtype=np.int64)
    return np.ascontiguousarray(decks, dtype=np.int64), seeds


def play_heists(
    strategy: Any,
    spec: str,
    players: int,
    decks: np.ndarray,
    seeds: np.ndarray,
    *,
    first: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> dict[str, np.ndarray]:
    """Basic heists (no cards) with every seat driven by ``strategy``: ``success`` per heist and
    ``chips`` (heist x round x seat, stars). A failing decision raises :class:`StrategyError`
    naming the seat and turn ("heist K, flop round"; heists counted from ``first + 1``)."""
    warm_helpers()
    n = seeds.shape[0]
    finals = np.zeros((n, players), dtype=np.int64)
    ties = np.zeros((n, 4, players))
    deal_outcomes(decks, seeds, players, finals, ties)
    chips = np.zeros((n, 4, players), dtype=np.int64)
    success = np.zeros(n, dtype=np.bool_)
    legal = tuple(range(1, players + 1))
    take_chip = DECISIONS[0]
    hidden = 2 * (players - 1)
    seats = range(players)
    with DecisionClock() as clock:  # one timer for the batch, not one per decision
        for i in range(n):
            deck = decks[i].tolist()
            pockets = [tuple(deck[2 * p : 2 * p + 2]) for p in seats]
            board = tuple(deck[2 * players : 2 * players + 5])
            history: tuple[tuple[int, ...], ...] = ()
            tie_rows = ties[i].tolist()
            for r in range(4):
                shown = BOARD_SIZES[r]
                seen = board[:shown]
                turn = f"heist {first + i + 1}, {ROUND_NAMES[r]} round"
                keys = []
                for p in seats:
                    view = View(p, players, r, pockets[p], seen, history, hidden, 5 - shown)
                    star = decide(
                        strategy,
                        take_chip,
                        view,
                        legal,
                        spec=spec,
                        seat=p,
                        turn=turn,
                        time_limit=time_limit,
                        clock=clock,
                    )
                    keys.append((star - 1 + tie_rows[r][p], p))
                row = [0] * players
                for rank, (_, p) in enumerate(sorted(keys)):
                    row[p] = rank + 1
                history += (tuple(row),)
                chips[i, r] = row
            success[i] = showdown_in_order(finals[i], chips[i, 3], players)
    return {"success": success, "chips": chips}


def builtin_heists(model: str, players: int, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """The kernel's heists for a built-in model (levels 1, no cards) from ``rng``: the deals
    :func:`draw_deals` gives for the same generator."""
    zeros = np.zeros(n, dtype=np.int64)
    raw = play_batch(rng, players, MODEL_IDS[model], 1, zeros, zeros)
    success = (raw["flags"][:, 0] == 1) & (raw["flags"][:, 1] == 1)
    return {"success": success, "chips": raw["chips"][:, :, :players]}


def evaluate_chunk(
    spec: str,
    players: int,
    against: str,
    rng: np.random.Generator,
    n: int,
    first: int,
    shown: str | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> dict[str, Any]:
    """One chunk of an evaluation (runs in workers, which load the strategy from ``spec``, an
    absolute path, wherever they start): the same ``n`` deals played by the user's strategy and
    by the built-in ``against``. Errors name the strategy as ``shown`` (as the user gave it;
    default ``spec``). Returns the per-heist outcomes, or ``error`` (the
    :class:`StrategyError`'s fields and the strategy's traceback as text) instead of raising
    across processes."""
    from cardsim.sims.core.user_strategy import strategy_traceback

    state = rng.bit_generator.state
    decks, seeds = draw_deals(rng, n)
    try:
        user = play_heists(
            fresh_copy(load_strategy(spec)), shown or spec, players, decks, seeds, first=first, time_limit=time_limit
        )
    except StrategyError as err:
        return {
            "error": {
                "problem": err.problem,
                "strategy": err.strategy,
                "seat": err.seat,
                "turn": err.turn,
                "decision": err.decision,
            },
            "traceback": strategy_traceback(err),
        }
    rng.bit_generator.state = state
    builtin = builtin_heists(against, players, rng, n)
    return {"user": user["success"], "builtin": builtin["success"]}
