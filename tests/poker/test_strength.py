"""Percentiles, equity and the pre-flop table, checked against brute force and exact values."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.poker import SUITLESS_JACK, deal, evaluate, parse_cards
from cardsim.sims.poker.preflop import (
    N_CLASSES,
    build_preflop_table,
    class_combos,
    class_label,
    preflop_class,
    preflop_equity,
    preflop_table,
)
from cardsim.sims.poker.strength import equity, hand_percentiles


def brute_percentile(board: np.ndarray, pocket: np.ndarray) -> tuple[int, int, int]:
    """(below, tied, total) by scoring every holding one at a time in Python."""
    own = int(evaluate(np.concatenate([pocket, board])))
    seen = set(board.tolist()) | set(pocket.tolist())
    unseen = [c for c in range(52) if c not in seen]
    holdings = np.array(list(combinations(unseen, len(pocket))), dtype=np.int8)
    scores = evaluate(np.hstack([holdings, np.tile(board, (len(holdings), 1))]))
    return int((scores < own).sum()), int((scores == own).sum()), len(holdings)


@pytest.mark.parametrize(("board_size", "pocket_size"), [(5, 2), (4, 2), (3, 2), (5, 3), (3, 3)])
def test_percentiles_match_brute_force(board_size: int, pocket_size: int) -> None:
    n_players = 3
    cards = deal(np.random.default_rng(board_size * 10 + pocket_size), 4, board_size + n_players * pocket_size)
    boards = cards[:, :board_size]
    pockets = cards[:, board_size:].reshape(4, n_players, pocket_size)
    result = hand_percentiles(boards, pockets)
    for row in range(4):
        for player in range(n_players):
            expected = brute_percentile(boards[row], pockets[row, player])
            got = (result.below[row, player], result.tied[row, player], result.total[row, player])
            assert got == expected


def test_percentile_with_the_suitless_jack_in_the_pocket() -> None:
    board = parse_cards("Jc Jd 4h 9s 2c")
    pockets = np.array([[[SUITLESS_JACK, parse_cards("Ah")[0]], parse_cards("Kc Kd")]], np.int8)
    result = hand_percentiles(board[None, :], pockets)
    assert (result.below[0, 0], result.tied[0, 0], result.total[0, 0]) == brute_percentile(board, pockets[0, 0])
    assert result.total[0, 0] == 46 * 45 // 2  # only one real card of the pocket is unseen-proof


def test_board_that_plays_for_everyone_is_a_tie_with_every_holding() -> None:
    board = parse_cards("As Ks Qs Js Ts")
    result = hand_percentiles(board[None, :], parse_cards("2c 3d")[None, None, :])
    assert result.tied[0, 0] == result.total[0, 0] == 1081 - 2 * 46 + 1
    assert result.percentile[0, 0] == 0.5 and result.above[0, 0] == 0


def test_percentile_rejects_bad_input() -> None:
    with pytest.raises(UserError):
        hand_percentiles(parse_cards("As Ks")[None, :], parse_cards("2c 3d")[None, None, :])
    with pytest.raises(UserError):
        hand_percentiles(parse_cards("As Ks Qs")[None, :], parse_cards("As 3d")[None, None, :])


def brute_river_equity(pocket: str, board: str) -> tuple[int, int, int]:
    """(wins, ties, n) of a pocket against every opponent holding on a full board."""
    below, tied, total = brute_percentile(parse_cards(board), parse_cards(pocket))
    return below, tied, total


def test_exact_river_equity_matches_brute_force() -> None:
    result = equity(parse_cards("Ah Kh")[None, :], parse_cards("Qh 7h 2c 9d Jd")[None, :])
    assert result.method == "exact"
    wins, ties, n = brute_river_equity("Ah Kh", "Qh 7h 2c 9d Jd")
    assert (result.wins[0], result.ties[0], result.n[0]) == (wins, ties, n)
    assert result.equity[0] == pytest.approx((wins + ties / 2) / n)


def test_exact_turn_equity_is_the_average_over_river_cards() -> None:
    pocket, turn_board = "9c 9d", "Ks 7h 2c 4s"
    result = equity(parse_cards(pocket)[None, :], parse_cards(turn_board)[None, :])
    assert result.method == "exact" and result.n[0] == 46 * 990
    seen = set(parse_cards(pocket + " " + turn_board).tolist())
    totals = np.zeros(3, dtype=np.int64)
    for river in (c for c in range(52) if c not in seen):
        board = np.append(parse_cards(turn_board), np.int8(river))
        totals += brute_percentile(board, parse_cards(pocket))
    assert (result.wins[0], result.ties[0], result.n[0]) == tuple(totals)


def test_sampled_equity_agrees_with_exact_within_sampling_error() -> None:
    """Flop equities: sampled vs exact, tolerance 4.5 standard errors of n samples."""
    cards = deal(np.random.default_rng(12), 6, 5)
    pockets, boards = cards[:, :2], cards[:, 2:]
    exact = equity(pockets, boards, exact_limit=2_000_000)
    n = 40_000
    sampled = equity(pockets, boards, rng=np.random.default_rng(1), n_samples=n, exact_limit=0)
    assert exact.method == "exact" and sampled.method == "sampled"
    assert (sampled.n == n).all()
    tolerance = 4.5 * np.sqrt(exact.equity * (1 - exact.equity) / n) + 1e-9
    assert (np.abs(sampled.equity - exact.equity) <= tolerance).all()


def test_sampled_equity_is_reproducible_and_multiway_is_harder() -> None:
    pockets = parse_cards("Qc Qd")[None, :]
    a = equity(pockets, rng=np.random.default_rng(5), n_samples=20_000)
    b = equity(pockets, rng=np.random.default_rng(5), n_samples=20_000)
    assert a.method == "sampled" and np.array_equal(a.wins, b.wins)
    three_way = equity(pockets, n_opponents=3, rng=np.random.default_rng(5), n_samples=20_000)
    assert three_way.equity[0] < a.equity[0] - 0.1
    with pytest.raises(UserError):
        equity(pockets, n_opponents=2)  # sampling without a generator


# --- pre-flop table ---------------------------------------------------------------------------


def test_preflop_classes_partition_the_1326_pockets() -> None:
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    for a, b in combinations(range(52), 2):
        counts[preflop_class(a, b)] += 1
    assert counts.tolist() == [class_combos(i) for i in range(N_CLASSES)]
    assert counts.sum() == 1326
    assert class_label(preflop_class(48, 49)) == "AA"
    assert class_label(preflop_class(int(parse_cards("Ks")[0]), int(parse_cards("As")[0]))) == "AKs"
    assert class_label(preflop_class(int(parse_cards("7d")[0]), int(parse_cards("2c")[0]))) == "72o"
    assert class_label(preflop_class(SUITLESS_JACK, int(parse_cards("Th")[0]))) == "JTo"


def test_preflop_table_is_reproduced_by_its_own_code() -> None:
    """Two stored rows recomputed from their seeds match exactly (the table is not typed in)."""
    table = preflop_table()
    assert table.height == N_CLASSES and sorted(table["class_index"]) == list(range(N_CLASSES))
    n, seed = int(table["n"][0]), int(table["seed"][0])
    fresh = build_preflop_table(n, seed, classes=[168, 1])
    stored = table.filter(table["class_index"].is_in([168, 1])).sort("class_index", descending=True)
    assert fresh["wins"].to_list() == stored["wins"].to_list()
    assert fresh["ties"].to_list() == stored["ties"].to_list()


def test_preflop_table_order_and_intervals() -> None:
    table = preflop_table()
    best = table.sort("equity", descending=True)["hand"].to_list()
    assert best[0] == "AA" and best[1] == "KK" and best[-1] == "32o"
    assert ((table["lo"] <= table["equity"]) & (table["equity"] <= table["hi"])).all()
    equities = preflop_equity(parse_cards("As Ad 7c 2d").reshape(2, 2))
    assert equities[0] > 0.84 and equities[1] < 0.36


@pytest.mark.slow
def test_preflop_pair_of_aces_matches_exact_enumeration() -> None:
    """Exact heads-up equity of AA (C(50,5) boards x C(45,2) holdings) lies in the table's CI."""
    exact = equity(parse_cards("Ac Ad")[None, :], exact_limit=10**10)
    assert exact.method == "exact" and exact.n[0] == 2_118_760 * 990
    row = preflop_table().filter(preflop_table()["hand"] == "AA")
    n = int(row["n"][0])
    tolerance = 4.5 * np.sqrt(exact.equity[0] * (1 - exact.equity[0]) / n)
    assert abs(float(row["equity"][0]) - exact.equity[0]) <= tolerance
