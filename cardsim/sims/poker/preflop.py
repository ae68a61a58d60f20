"""Pre-flop table of the 169 starting hands: heads-up equity against one random holding.

Each class (13 pairs, 78 suited, 78 offsuit) is played from one representative pocket against a
random two-card holding over a random five-card board; the equity counts a tie as one half.
Exact enumeration would need about two billion evaluations per class, so the table is sampled:
``n`` deals per class, each class with its own child of ``SeedSequence(seed)`` (so one class can
be recomputed alone and gives the same numbers). The 95% interval is the Wilson interval of
``wins + ties / 2`` out of ``n`` (slightly conservative: a half-point share has less variance
than a win/loss coin).

The table is computed by :func:`build_preflop_table` and cached as CSV next to this module
(``data/preflop_169.csv``); :func:`preflop_table` loads it, or builds and writes it if missing.

Class index (13 x 13 matrix, ranks 0..12 = 2..A): pairs ``14 * rank`` on the diagonal, suited
``13 * high + low`` above it, offsuit ``13 * low + high`` below it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import polars as pl

from cardsim.errors import UserError
from cardsim.sims.core.jit import kernel
from cardsim.sims.poker.cards import JACK_RANK, N_RANKS, RANK_CHARS, SUITLESS_JACK
from cardsim.sims.poker.strength import equity
from cardsim.stats import wilson_interval

N_CLASSES = 169
DEFAULT_SAMPLES = 1_000_000
DEFAULT_SEED = 169
TABLE_PATH = Path(__file__).parent / "data" / "preflop_169.csv"


@kernel
def preflop_class(card_a: int, card_b: int) -> int:
    """Class index 0..168 of a two-card pocket (the suitless Jack plays as an offsuit jack)."""
    rank_a = JACK_RANK if card_a == SUITLESS_JACK else card_a >> 2
    rank_b = JACK_RANK if card_b == SUITLESS_JACK else card_b >> 2
    high = max(rank_a, rank_b)
    low = min(rank_a, rank_b)
    if high == low:
        return 14 * high
    suited = card_a != SUITLESS_JACK and card_b != SUITLESS_JACK and (card_a & 3) == (card_b & 3)
    return 13 * high + low if suited else 13 * low + high


def class_label(index: int) -> str:
    """Label of a class: ``"AA"``, ``"AKs"``, ``"72o"``."""
    row, column = divmod(index, N_RANKS)
    if row == column:
        return RANK_CHARS[row] * 2
    if row > column:
        return f"{RANK_CHARS[row]}{RANK_CHARS[column]}s"
    return f"{RANK_CHARS[column]}{RANK_CHARS[row]}o"


def representative_pocket(index: int) -> tuple[int, int]:
    """One pocket of a class: clubs/diamonds for pairs and offsuit, two clubs for suited."""
    row, column = divmod(index, N_RANKS)
    if row == column:
        return row * 4, row * 4 + 1
    if row > column:
        return row * 4, column * 4
    return column * 4, row * 4 + 1


def class_combos(index: int) -> int:
    """How many of the 1,326 pockets fall in a class (6 pairs, 4 suited, 12 offsuit)."""
    row, column = divmod(index, N_RANKS)
    return 6 if row == column else (4 if row > column else 12)


def build_preflop_table(
    n_samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED, classes: list[int] | None = None
) -> pl.DataFrame:
    """Sample the heads-up equity of each class (all 169 unless ``classes`` is given)."""
    children = np.random.SeedSequence(seed).spawn(N_CLASSES)
    rows = []
    for index in range(N_CLASSES) if classes is None else classes:
        pocket = np.array([representative_pocket(index)], dtype=np.int8)
        result = equity(
            pocket,
            None,
            rng=np.random.default_rng(children[index]),
            n_samples=n_samples,
            exact_limit=0,
        )
        wins, ties = int(result.wins[0]), int(result.ties[0])
        lo, hi = wilson_interval(wins + ties / 2, n_samples)
        rows.append(
            {
                "class_index": index,
                "hand": class_label(index),
                "combos": class_combos(index),
                "n": n_samples,
                "wins": wins,
                "ties": ties,
                "equity": (wins + ties / 2) / n_samples,
                "lo": float(lo),
                "hi": float(hi),
                "method": "sampled",
                "seed": seed,
            }
        )
    return pl.DataFrame(rows)


@lru_cache(maxsize=1)
def preflop_table() -> pl.DataFrame:
    """The cached 169-class table (built and written on first use if the CSV is missing)."""
    if TABLE_PATH.exists():
        return pl.read_csv(TABLE_PATH)
    table = build_preflop_table()
    try:
        TABLE_PATH.parent.mkdir(exist_ok=True)
        table.write_csv(TABLE_PATH)
    except OSError:
        pass  # read-only install: keep the table in memory for this process
    return table


def preflop_equity_by_class() -> np.ndarray:
    """Heads-up equity of each class as a (169,) float64 array indexed by :func:`preflop_class`."""
    table = preflop_table().sort("class_index")
    return table["equity"].to_numpy().astype(np.float64)


def preflop_equity(pockets: np.ndarray) -> np.ndarray:
    """Table equity of each two-card pocket in a (..., 2) array."""
    pockets = np.asarray(pockets)
    if pockets.shape[-1:] != (2,):
        raise UserError(f"pre-flop pockets have 2 cards, got shape {pockets.shape}")
    flat = np.ascontiguousarray(pockets.reshape(-1, 2), dtype=np.int64)
    return preflop_equity_by_class()[_classes_of(flat)].reshape(pockets.shape[:-1])


@kernel
def _classes_of(pockets: np.ndarray) -> np.ndarray:
    """preflop_class of each row of an (N, 2) pocket array."""
    out = np.empty(pockets.shape[0], dtype=np.int64)
    for row in range(pockets.shape[0]):
        out[row] = preflop_class(pockets[row, 0], pockets[row, 1])
    return out
