"""Lookup tables of the fast evaluator, all derived from the rule functions in :mod:`.rules`.

Scores
    Every distinct best-five-card hand (a *pattern*: category plus compared ranks) gets a dense
    score 0..N_SCORES-1 in ranking order, so higher is better and equal scores are true ties.
    There are 7,462 patterns in a 52-card deck plus one more with the suitless Jack (four jacks
    with a jack kicker), so N_SCORES = 7,463.

Card keys
    Each card code maps to a 64-bit key ``rank_weight << 16 | 1 << 4 * suit``; the sum over a hand
    holds the rank multiset in mixed radix (base 5 per rank, base 6 for the Jack so the suitless
    Jack fits) above bit 16, and four 4-bit suit counters below (at most 8 cards, so no carry).
    A suit has five or more cards iff ``(suit_sum + 0x3333) & 0x8888`` has its bit set.

Non-flush table
    For each hand size k = 5..8, a minimal-collision "hash and displace" table maps the rank
    multiset key to the score of :func:`rules.best_rank_pattern`: bucket and slot come from two
    multiplicative hashes, and each bucket has a displacement XORed into its slots, chosen at
    build time so that no two multisets share a slot (a perfect hash).

Flush table
    ``FLUSH_SCORE[mask]`` is the score of :func:`rules.best_flush_pattern` for a 13-bit mask of
    ranks in one suit (five or more bits set).
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.poker.cards import JACK_RANK, N_RANKS, SUITLESS_JACK
from cardsim.sims.poker.rules import best_flush_pattern, best_rank_pattern

MIN_CARDS = 5
MAX_CARDS = 8
SUIT_FIELD_BITS = 16
FLUSH_PROBE_ADD = 0x3333
FLUSH_PROBE_MASK = 0x8888
HASH_MULT_BUCKET = np.uint64(0x9E3779B97F4A7C15)
HASH_MULT_SLOT = np.uint64(0xC2B2AE3D27D4EB4F)


def rank_weights() -> np.ndarray:
    """Mixed-radix place values of the 13 ranks: base 5 each, base 6 for the Jack."""
    weights = np.zeros(N_RANKS, dtype=np.uint64)
    place = 1
    for rank in range(N_RANKS):
        weights[rank] = place
        place *= 6 if rank == JACK_RANK else 5
    return weights


def card_keys() -> np.ndarray:
    """Key of each card code 0..52 (52 is the suitless Jack: a jack with no suit counter)."""
    weights = rank_weights()
    keys = np.zeros(SUITLESS_JACK + 1, dtype=np.uint64)
    for card in range(52):
        keys[card] = (int(weights[card >> 2]) << SUIT_FIELD_BITS) | (1 << (4 * (card & 3)))
    keys[SUITLESS_JACK] = int(weights[JACK_RANK]) << SUIT_FIELD_BITS
    return keys


def rank_multisets(n_cards: int) -> np.ndarray:
    """All rank-count vectors of ``n_cards`` cards: at most 4 per rank, 5 for the Jack."""
    combos = np.array(list(itertools.combinations_with_replacement(range(N_RANKS), n_cards)))
    counts = np.zeros((len(combos), N_RANKS), dtype=np.int64)
    for column in range(n_cards):
        np.add.at(counts, (np.arange(len(combos)), combos[:, column]), 1)
    limit = np.full(N_RANKS, 4)
    limit[JACK_RANK] = 5
    return counts[(counts <= limit).all(axis=1)]


@kernel
def _rank_patterns(counts: np.ndarray) -> np.ndarray:
    """best_rank_pattern of every row of a count matrix."""
    out = np.empty(counts.shape[0], dtype=np.int64)
    for row in range(counts.shape[0]):
        out[row] = best_rank_pattern(counts[row])
    return out


@kernel
def _flush_patterns() -> np.ndarray:
    """best_flush_pattern of every 13-bit mask with five or more ranks (-1 elsewhere)."""
    out = np.full(1 << 13, -1, dtype=np.int64)
    for mask in range(1 << 13):
        bits = 0
        for rank in range(13):
            bits += mask >> rank & 1
        if bits >= 5:
            out[mask] = best_flush_pattern(mask)
    return out


@kernel
def _place_buckets(keys: np.ndarray, table_bits: int, bucket_bits: int) -> tuple[bool, np.ndarray, np.ndarray]:
    """Choose a displacement per bucket so every key lands in its own slot.

    Returns (ok, displacement per bucket, slot per key). Buckets are placed largest first; each
    takes the smallest displacement whose slots are all free. ``ok`` is False only if two keys of
    one bucket share their undisplaced slot (then no displacement can separate them).
    """
    n_keys = keys.shape[0]
    table_size = 1 << table_bits
    n_buckets = 1 << bucket_bits
    bucket_shift = np.uint64(64 - bucket_bits)
    slot_shift = np.uint64(64 - table_bits)
    bucket_of = np.empty(n_keys, dtype=np.int64)
    base_slot = np.empty(n_keys, dtype=np.int64)
    for i in range(n_keys):
        bucket_of[i] = (keys[i] * HASH_MULT_BUCKET) >> bucket_shift
        base_slot[i] = (keys[i] * HASH_MULT_SLOT) >> slot_shift
    sizes = np.zeros(n_buckets, dtype=np.int64)
    for i in range(n_keys):
        sizes[bucket_of[i]] += 1
    by_bucket = np.argsort(bucket_of, kind="mergesort")
    starts = np.zeros(n_buckets + 1, dtype=np.int64)
    for b in range(n_buckets):
        starts[b + 1] = starts[b] + sizes[b]
    order = np.argsort(-sizes, kind="mergesort")
    used = np.zeros(table_size, dtype=np.bool_)
    displacement = np.zeros(n_buckets, dtype=np.int64)
    slot_of = np.full(n_keys, -1, dtype=np.int64)
    for b in order:
        if sizes[b] == 0:
            break
        members = by_bucket[starts[b] : starts[b + 1]]
        for i in range(members.shape[0]):
            for j in range(i):
                if base_slot[members[i]] == base_slot[members[j]]:
                    return False, displacement, slot_of
        placed = False
        for d in range(table_size):
            free = True
            for m in members:
                if used[base_slot[m] ^ d]:
                    free = False
                    break
            if free:
                for m in members:
                    used[base_slot[m] ^ d] = True
                    slot_of[m] = base_slot[m] ^ d
                displacement[b] = d
                placed = True
                break
        if not placed:
            return False, displacement, slot_of
    return True, displacement, slot_of


def _dense_scores(keys: np.ndarray, all_keys: np.ndarray) -> np.ndarray:
    """Dense score (index in the sorted list of all pattern keys) of each pattern key."""
    index = np.searchsorted(all_keys, keys)
    if not np.array_equal(all_keys[index], keys):
        raise RuntimeError("pattern missing from the score list")
    return index


def _source_digest() -> str:
    """Hash of the sources the tables are derived from (this module and the rules)."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("tables.py", "rules.py", "cards.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def load_tables() -> dict[str, np.ndarray]:
    """The tables, from a cache file keyed by the source hash, else built (and cached if possible).

    The cache sits in this package's ``__pycache__`` like numba's own caches; any change to the
    rules or table code changes the key, so a stale table is never loaded.
    """
    cache = Path(__file__).parent / "__pycache__" / f"poker_tables_{_source_digest()}.npz"
    if cache.exists():
        try:
            with np.load(cache) as stored:
                return {name: stored[name] for name in stored.files}
        except (OSError, ValueError):
            pass  # unreadable cache: rebuild below
    tables = build_tables()
    try:
        cache.parent.mkdir(exist_ok=True)
        partial = cache.parent / f"tmp{np.random.SeedSequence().entropy % 10**9}_{cache.name}"
        np.savez(partial, **tables)
        partial.replace(cache)
        for old in cache.parent.glob("poker_tables_*.npz"):
            if old != cache:
                old.unlink(missing_ok=True)  # tables of an earlier version of the rules
    except OSError:
        pass  # read-only install: build at every import instead
    return tables


def build_tables() -> dict[str, np.ndarray]:
    """Build every table from the rule functions (deterministic; about a second)."""
    weights = rank_weights()
    multisets = {k: rank_multisets(k) for k in range(MIN_CARDS, MAX_CARDS + 1)}
    rank_patterns = {k: _rank_patterns(counts) for k, counts in multisets.items()}
    flush_patterns = _flush_patterns()
    five_card_keys = np.concatenate([rank_patterns[5], flush_patterns[flush_patterns >= 0]])
    pattern_keys = np.unique(five_card_keys)

    flush_score = np.zeros(1 << 13, dtype=np.uint16)
    has_flush = flush_patterns >= 0
    flush_score[has_flush] = _dense_scores(flush_patterns[has_flush], pattern_keys)

    tables, displacements = [], []
    table_offset = np.zeros(MAX_CARDS + 1, dtype=np.int64)
    table_bits = np.zeros(MAX_CARDS + 1, dtype=np.int64)
    disp_offset = np.zeros(MAX_CARDS + 1, dtype=np.int64)
    bucket_bits = np.zeros(MAX_CARDS + 1, dtype=np.int64)
    table_total = disp_total = 0
    for k in range(MIN_CARDS, MAX_CARDS + 1):
        keys = (multisets[k].astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
        scores = _dense_scores(rank_patterns[k], pattern_keys)
        bits = int(np.ceil(np.log2(len(keys) / 0.8)))
        for extra in range(4):
            ok, displacement, slot_of = _place_buckets(keys, bits + extra // 2, bits - 2)
            if ok:
                bits += extra // 2
                break
        else:
            raise RuntimeError(f"could not build the perfect hash for {k} cards")
        table = np.zeros(1 << bits, dtype=np.uint16)
        table[slot_of] = scores
        table_offset[k], table_bits[k] = table_total, bits
        disp_offset[k], bucket_bits[k] = disp_total, bits - 2
        table_total += len(table)
        disp_total += len(displacement)
        tables.append(table)
        displacements.append(displacement.astype(np.uint32))
    return {
        "card_key": card_keys(),
        "pattern_keys": pattern_keys,
        "flush_score": flush_score,
        "rank_table": np.concatenate(tables),
        "table_offset": table_offset,
        "table_bits": table_bits,
        "displacement": np.concatenate(displacements),
        "disp_offset": disp_offset,
        "bucket_bits": bucket_bits,
    }
