"""Poker engine: cards, the fast 5..8-card evaluator, categories, and hand-strength helpers.

Core API (stable; The Gang builds on it)::

    from cardsim.sims.poker import parse_cards, evaluate, describe, category_of
    scores = evaluate(parse_cards("As Ad Kc Kd 4h 4s 2c")[None, :])   # (1,) int32
    describe(scores[0])            # 'two pair, aces and kings, four kicker'

``score_hand`` is the ``@kernel`` scalar version for other numba kernels (``score_extended`` adds a
few cards to a precomputed board). Helpers: ``hand_percentiles`` (exact, shared per board),
``equity`` (exact or sampled, method named), ``preflop_table`` (169 classes).
Rules: seeds/poker.md.
"""

from cardsim.sims.poker.cards import (
    DECK_SIZE,
    SUITLESS_JACK,
    deal,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from cardsim.sims.poker.evaluator import (
    N_SCORES,
    evaluate,
    hand_key,
    score_extended,
    score_hand,
    score_histogram,
    suit_masks_into,
)
from cardsim.sims.poker.hands import (
    CATEGORY_NAMES,
    CATEGORY_OF_SCORE,
    category_of,
    category_of_score,
    describe,
    muscle_beats,
    muscle_beats_batch,
    muscle_showdown_keys,
)
from cardsim.sims.poker.preflop import preflop_class, preflop_equity, preflop_table
from cardsim.sims.poker.strength import (
    Equity,
    Percentiles,
    board_holding_scores,
    combinations_of_positions,
    count_below_tied,
    equity,
    hand_percentiles,
    holding_index,
)

__all__ = [
    "CATEGORY_NAMES",
    "CATEGORY_OF_SCORE",
    "DECK_SIZE",
    "Equity",
    "N_SCORES",
    "Percentiles",
    "SUITLESS_JACK",
    "board_holding_scores",
    "category_of",
    "category_of_score",
    "combinations_of_positions",
    "count_below_tied",
    "deal",
    "describe",
    "equity",
    "evaluate",
    "format_card",
    "format_cards",
    "hand_key",
    "hand_percentiles",
    "holding_index",
    "muscle_beats",
    "muscle_beats_batch",
    "muscle_showdown_keys",
    "parse_card",
    "parse_cards",
    "preflop_class",
    "preflop_equity",
    "preflop_table",
    "score_extended",
    "score_hand",
    "score_histogram",
    "suit_masks_into",
]
