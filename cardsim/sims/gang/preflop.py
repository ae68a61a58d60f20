"""Starting-hand table: heads-up equity of the 169 two-card classes against one random holding.

The pre-flop rating of the percentile-family models (digest ``seeds/the_gang.md``, "Player
models"): before any community card is shown a player can only compare their two pocket cards
with the holdings they might face. The table gives, for each class (pair, suited, offsuit), the
probability that the holding ends the hand stronger than one random other holding over a random
five-card board (ties count one half). It was generated with :func:`compute_equity_table`
(``samples=200_000, seed=2024``, standard error 0.0011) and is stored as literals so every run
uses the same constants; ``tests/gang/test_preflop.py`` regenerates it at a smaller sample and
checks agreement within the Monte Carlo tolerance.

Class index: ``13 * high + low`` for suited hands, ``13 * low + high`` for offsuit hands and
``14 * rank`` for pairs (ranks 0..12 = 2..A), so the 13 x 13 matrix has pairs on the diagonal,
suited above and offsuit below it.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.poker.cards import JACK_RANK, SUITLESS_JACK
from cardsim.sims.poker.evaluator import score_hand

N_CLASSES = 169


@kernel(inline="always")
def class_index(card_a: int, card_b: int) -> int:
    """Starting-hand class of two cards (the suitless Jack counts as an offsuit Jack)."""
    rank_a = JACK_RANK if card_a == SUITLESS_JACK else card_a >> 2
    rank_b = JACK_RANK if card_b == SUITLESS_JACK else card_b >> 2
    high = max(rank_a, rank_b)
    low = min(rank_a, rank_b)
    suited = card_a != SUITLESS_JACK and card_b != SUITLESS_JACK and (card_a & 3) == (card_b & 3)
    if high == low:
        return 14 * high
    if suited:
        return 13 * high + low
    return 13 * low + high


@kernel
def compute_equity_table(samples: int, seed: int) -> np.ndarray:
    """Monte Carlo heads-up equity of each class (a representative holding per class)."""
    np.random.seed(seed)
    out = np.zeros(N_CLASSES)
    deck = np.arange(52)
    mine = np.empty(7, dtype=np.int64)
    theirs = np.empty(7, dtype=np.int64)
    for high in range(13):
        for low in range(13):
            if high == low:
                card_a, card_b = 4 * high, 4 * high + 1
            elif low < high:  # suited: both clubs
                card_a, card_b = 4 * high, 4 * low
            else:  # offsuit (row high < column low): clubs + diamonds
                card_a, card_b = 4 * low, 4 * high + 1
            index = class_index(card_a, card_b)
            rest = np.array([c for c in deck if c != card_a and c != card_b])
            total = 0.0
            for _ in range(samples):
                for i in range(7):  # partial Fisher-Yates: 2 opponent cards + 5 board cards
                    j = i + np.random.randint(0, rest.size - i)
                    rest[i], rest[j] = rest[j], rest[i]
                mine[0], mine[1] = card_a, card_b
                theirs[0], theirs[1] = rest[0], rest[1]
                for k in range(5):
                    mine[2 + k] = rest[2 + k]
                    theirs[2 + k] = rest[2 + k]
                a = score_hand(mine)
                b = score_hand(theirs)
                total += 1.0 if a > b else (0.5 if a == b else 0.0)
            out[index] = total / samples
    return out


# compute_equity_table(200_000, 2024), rounded to 4 decimals.
EQUITY: np.ndarray = np.array(
    [
        0.5028,
        0.3236,
        0.3325,
        0.3436,
        0.3419,
        0.3448,
        0.3682,
        0.3890,
        0.4166,
        0.4434,
        0.4734,
        0.5051,
        0.5494,
        0.3596,
        0.5368,
        0.3507,
        0.3620,
        0.3617,
        0.3664,
        0.3727,
        0.3993,
        0.4257,
        0.4532,
        0.4807,
        0.5127,
        0.5587,
        0.3684,
        0.3876,
        0.5696,
        0.3812,
        0.3806,
        0.3866,
        0.3939,
        0.4053,
        0.4345,
        0.4620,
        0.4900,
        0.5229,
        0.5680,
        0.3796,
        0.3968,
        0.4149,
        0.6034,
        0.3990,
        0.4027,
        0.4158,
        0.4287,
        0.4444,
        0.4712,
        0.5025,
        0.5337,
        0.5762,
        0.3766,
        0.3950,
        0.4137,
        0.4303,
        0.6343,
        0.4232,
        0.4321,
        0.4440,
        0.4623,
        0.4779,
        0.5089,
        0.5423,
        0.5758,
        0.3824,
        0.3999,
        0.4168,
        0.4367,
        0.4520,
        0.6627,
        0.4488,
        0.4632,
        0.4772,
        0.4963,
        0.5186,
        0.5528,
        0.5867,
        0.4026,
        0.4078,
        0.4283,
        0.4444,
        0.4625,
        0.4801,
        0.6923,
        0.4812,
        0.4972,
        0.5152,
        0.5352,
        0.5599,
        0.6001,
        0.4236,
        0.4325,
        0.4382,
        0.4578,
        0.4752,
        0.4894,
        0.5086,
        0.7212,
        0.5157,
        0.5321,
        0.5548,
        0.5777,
        0.6089,
        0.4491,
        0.4570,
        0.4646,
        0.4719,
        0.4905,
        0.5075,
        0.5222,
        0.5406,
        0.7494,
        0.5538,
        0.5750,
        0.5954,
        0.6287,
        0.4736,
        0.4829,
        0.4911,
        0.5014,
        0.5043,
        0.5238,
        0.5409,
        0.5563,
        0.5755,
        0.7751,
        0.5807,
        0.6054,
        0.6358,
        0.5029,
        0.5077,
        0.5191,
        0.5290,
        0.5355,
        0.5423,
        0.5593,
        0.5770,
        0.5975,
        0.6020,
        0.8003,
        0.6145,
        0.6435,
        0.5314,
        0.5416,
        0.5481,
        0.5554,
        0.5664,
        0.5744,
        0.5838,
        0.6006,
        0.6183,
        0.6246,
        0.6339,
        0.8229,
        0.6534,
        0.5723,
        0.5825,
        0.5893,
        0.5988,
        0.5982,
        0.6084,
        0.6208,
        0.6267,
        0.6446,
        0.6556,
        0.6610,
        0.6682,
        0.8531,
    ],
    dtype=np.float64,
)
