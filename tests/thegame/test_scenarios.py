"""Scenario tests with fixed cards: turn planning, the end of the game, cards-left accounting."""

from __future__ import annotations

import numpy as np

from cardsim.sims.thegame import kernel
from cardsim.sims.thegame.params import strategy_params

from .conftest import Table, below_for

NO_PENALTY = np.zeros(4)


def cheapest(table: Table, required: int, effective: bool = True, keep: int = 1):
    """The kernel's cheapest sequences of player 0: list of [(card, pile), ...]."""
    n = kernel.best_sequences(
        table.hands[0],
        table.counts[0],
        table.piles,
        table.below,
        required,
        True,
        effective,
        strategy_params(1),
        NO_PENALTY,
        table.W,
        table.F,
        table.C,
        keep,
    )
    return [[(int(table.C[0, k, d]), int(table.C[1, k, d])) for d in range(required)] for k in range(n)]


def test_planner_sets_up_a_backwards_trick_within_the_turn() -> None:
    # Ascending pile at 12: play 15, then 5 goes back 10 below it.
    table = Table([[40, 5, 15]], [12, 98, 3, 2], draw=[60, 61])
    assert cheapest(table, 2)[0] == [(15, 0), (5, 0)]


def test_only_feasible_order_is_found() -> None:
    # 50 is legal only after 60 (exactly 10 lower on the ascending pile).
    table = Table([[50, 60]], [55, 99, 2, 2], draw=[70])
    assert cheapest(table, 2, effective=False, keep=4) == [[(60, 0), (50, 0)]]


def test_no_sequence_when_minimum_cannot_be_played() -> None:
    table = Table([[50, 58]], [55, 99, 2, 2], draw=[70])
    assert cheapest(table, 2) == []


def test_same_top_piles_are_not_searched_twice() -> None:
    table = Table([[30, 70]], [1, 1, 100, 100], draw=[50])
    sequences = cheapest(table, 2, effective=False, keep=16)
    # 30 and 70 each on an ascending or a descending pile, up to the twin pile: 30/70 on the
    # same direction twice (both orders, one of them onto its twin) or on opposite directions.
    assert len(sequences) == len({tuple(sorted(s)) for s in sequences})
    assert sequences[0] == [(30, 0), (70, 2)]


def test_greedy_takes_the_trick_first_then_the_smallest_gap() -> None:
    table = Table([[33, 20, 31]], [30, 99, 2, 2], draw=[70])
    assert kernel.sequential_choice(
        table.hands, table.counts, 0, table.piles, 2, True, table.rng, False, table.W, table.F, table.C
    )
    chosen = [(int(table.W[kernel.R_TURN_CARDS, d]), int(table.W[kernel.R_TURN_PILES, d])) for d in range(2)]
    assert chosen == [
        (20, 0),
        (31, 0),
    ]


def test_greedy_picks_smallest_gap_over_all_piles() -> None:
    table = Table([[80, 40, 35]], [30, 30, 90, 90], draw=[70])
    assert kernel.sequential_choice(
        table.hands, table.counts, 0, table.piles, 2, True, table.rng, False, table.W, table.F, table.C
    )
    assert [int(c) for c in table.W[kernel.R_TURN_CARDS, :2]] == [35, 40]


def test_random_falls_back_to_a_feasible_order_when_its_pick_blocks() -> None:
    # Playing 70 first leaves 58 unplayable; 58 then 70 works.
    for seed in range(40):
        table = Table([[58, 70]], [55, 99, 2, 2], draw=[80])
        table.rng[0] = np.uint64(seed)
        played = kernel.turn_simple(
            table.hands,
            table.counts,
            0,
            table.piles,
            table.below,
            2,
            True,
            table.rng,
            True,
            strategy_params(1),
            table.W,
            table.F,
            table.C,
            table.stats,
        )
        assert played == 2
        assert table.piles.tolist() == [70, 99, 2, 2]


def test_game_ends_when_minimum_two_cannot_be_played() -> None:
    table = Table([[58, 50, 40]], [55, 99, 2, 2], draw=[70, 71, 72])
    assert table.play_out(kernel.GREEDY) == 3 + 3  # hand + draw pile
    assert table.stats[kernel.S_TURNS] == 0


def test_minimum_is_one_once_the_draw_pile_is_empty() -> None:
    table = Table([[58]], [55, 99, 2, 2], draw=[])
    assert table.play_out(kernel.GREEDY) == 0  # one card suffices and wins


def test_player_with_empty_hand_is_skipped_after_draw_pile() -> None:
    table = Table([[], [58], []], [55, 99, 2, 2], draw=[])
    assert kernel.next_to_move(table.counts, 0, 3) == 1
    assert kernel.next_to_move(table.counts, 2, 3) == 1
    assert table.play_out(kernel.GREEDY, first=0, hand_size=6) == 0
    empty = Table([[], []], [55, 99, 2, 2], draw=[])
    assert kernel.next_to_move(empty.counts, 1, 2) == -1


def test_cards_left_counts_hands_and_draw_pile() -> None:
    table = Table([[58, 40], [44]], [55, 99, 2, 2], draw=[60, 61, 62])
    assert kernel.cards_left(table.counts, 2, table.draw_pos) == 6


def test_turn_draws_back_to_hand_size() -> None:
    table = Table([[20, 21, 22]], [1, 1, 100, 100], draw=[90, 91, 92, 93])
    draw_pos = kernel.refill(table.hands, table.counts, 0, 5, table.deck, table.draw_pos)
    assert table.hand(0) == [20, 21, 22, 90, 91] and draw_pos == table.draw_pos + 2


def test_effective_gap_skips_only_unplayed_cards() -> None:
    below = below_for({31, 35, 36, 50, 60})  # 32-34 already played
    assert kernel.effective_gap(35, 0, 30, below, 0.0) == 1  # only 31 becomes unreachable
    assert kernel.effective_gap(31, 0, 30, below, 0.0) == 0
    assert kernel.effective_gap(50, 2, 60, below, 0.0) == 0
    # a trick from 40 back to 30 reopens 31, 35, 36 (and its bonus)
    assert kernel.effective_gap(30, 0, 40, below, 0.5) == -3.5


def test_pair_penalty_keeps_the_near_card_and_rewards_the_set_up() -> None:
    params = strategy_params(1)
    table = Table([[22, 32]], [20, 99, 2, 2], draw=[50])
    slot_of = table.W[kernel.R_SLOT_OF]
    for s, card in enumerate([22, 32]):
        slot_of[card] = s
    near = kernel.extra_play_cost(
        table.hands, table.counts, 0, 0, 0, table.piles, table.below, True, params, NO_PENALTY, slot_of
    )
    far = kernel.extra_play_cost(
        table.hands, table.counts, 0, 1, 0, table.piles, table.below, True, params, NO_PENALTY, slot_of
    )
    # only 22, 32 and 50 are unplayed: 22 on 20 skips nothing but spends the near card
    assert near == 0 + params[kernel.P_PAIR_PENALTY]
    # 32 skips the unplayed 22 (cost 1); the 22 then goes back under it, reopening nothing
    # unplayed between 22 and 32 (0) plus the trick bonus.
    assert far == 1 + (0 - params[kernel.P_TRICK_BONUS])
    slot_of[22] = slot_of[32] = -1


def test_signals_reserve_piles_where_a_teammate_holds_a_close_card() -> None:
    params = strategy_params(2)
    played = set(range(2, 31)) | set(range(32, 46)) | set(range(90, 100))
    table = Table([[70, 71], [31, 80]], [30, 45, 100, 90], draw=[50, 51], played=played)
    penalty = np.zeros(4)
    kernel.reservations(table.hands, table.counts, 0, 2, table.piles, table.below, True, params, penalty)
    # the teammate's 31 skips nothing on pile 0; its 80 would skip 81-89 on either descending
    # pile, and 31 cannot go on pile 1 (45)
    assert penalty.tolist() == [params[kernel.P_SIGNAL_PENALTY], 0.0, 0.0, 0.0]


def test_team_lets_the_best_opening_start() -> None:
    params = strategy_params(3)
    table = Table([[50, 60, 70], [2, 3, 99], [40, 45, 55]], [1, 1, 100, 100], draw=[80])
    assert (
        kernel.choose_first_player(
            table.hands, table.counts, 3, table.piles, table.below, 2, True, params, table.W, table.F, table.C
        )
        == 1
    )
