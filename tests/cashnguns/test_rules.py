"""Scenario tests of every Cash'n Guns rule with fixed cards (seed 004_1e0bffc2eaca2406.txt)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cardsim.sims.cashnguns.reference import Table
from cardsim.sims.cashnguns.rules import (
    BANG,
    BANG_BANG_BANG,
    CLICK,
    DECK_NOTE_COUNTS,
    HAND_COUNTS,
    NOTES_PER_ROUND,
    ROUNDS,
    final_winners,
    resolve_shots,
    shares_loot,
    split_share,
    wounds_after,
)

FIVE, TEN, TWENTY = 0, 1, 2


def shots(targets, bullets, lying, alive=None):
    """resolve_shots on plain lists."""
    n = len(targets)
    alive = [True] * n if alive is None else alive
    taken, down, fired, _ = resolve_shots(np.array(targets), np.array(bullets), np.array(lying), np.array(alive))
    return taken.tolist(), down.tolist(), fired.tolist()


# --- components -------------------------------------------------------------------------------


def test_deck_and_hand_contents():
    """Seed, components: 15 x $5k, 15 x $10k, 10 x $20k notes; 5 Click, 2 Bang!, 1 BBB; 8 rounds."""
    assert DECK_NOTE_COUNTS == (15, 15, 10)
    assert sum(DECK_NOTE_COUNTS) == ROUNDS * NOTES_PER_ROUND == 40
    assert HAND_COUNTS == (5, 2, 1)
    assert sum(HAND_COUNTS) == ROUNDS


# --- phase 7: the split without change --------------------------------------------------------


def test_split_seed_example_three_survivors():
    """Seed example: $20k+$10k+$10k+$5k+$5k among 3 -> $10k each, the $20k note stays."""
    share, fives, tens, twenties = split_share(2, 2, 1, 3)
    assert share * 5_000 == 10_000
    assert (fives, tens, twenties) == (2, 2, 0)


def test_split_seed_example_five_survivors():
    """Seed example: the same five notes among 5 cannot be split at all; all stay."""
    assert split_share(2, 2, 1, 5) == (0, 0, 0, 0)


def test_split_lone_sharer_takes_everything_and_nobody_takes_nothing():
    assert split_share(3, 1, 2, 1) == (3 + 2 + 8, 3, 1, 2)
    assert split_share(3, 1, 2, 0) == (0, 0, 0, 0)


def test_split_pays_largest_notes_first():
    """Modelling choice 'largest notes first': $20k shares use the $20k note, 5k notes stay."""
    # 1 x 20k, 2 x 10k, 4 x 5k; two sharers of $20k: one 20k note, then 2 x 10k; the 5s stay.
    share, fives, tens, twenties = split_share(4, 2, 1, 2)
    assert share == 6  # $30k each: 20k+10k and 10k+5k+5k+5k+5k
    assert (fives, tens, twenties) == (4, 2, 1)
    share, fives, tens, twenties = split_share(4, 2, 1, 4)
    assert share == 2  # $10k each from 2 x 10k + 4 x 5k; the 20k note stays
    assert (fives, tens, twenties) == (4, 2, 0)
    # 4 x 5k + 2 x 10k among 3: $10k each, and two ways to pay it. Largest first pays
    # 10k, 10k, 5k+5k and leaves two 5k notes (smallest first would leave a 10k note).
    assert split_share(4, 2, 0, 3) == (2, 2, 2, 0)


def _brute_force_share(notes: list[int], sharers: int) -> int:
    """Largest x such that `sharers` disjoint subsets of `notes` each sum to x (exhaustive)."""
    best = 0
    for assignment in itertools.product(range(sharers + 1), repeat=len(notes)):
        sums = [0] * (sharers + 1)
        for note, group in zip(notes, assignment):
            sums[group] += note
        if sums[1] > best and all(s == sums[1] for s in sums[1:]):
            best = sums[1]
    return best


def _can_partition(notes: list[int], groups: int, size: int) -> bool:
    """Whether `notes` split exactly into `groups` groups each summing to `size`."""
    if sum(notes) != groups * size:
        return False
    bins = [0] * groups

    def place(i: int) -> bool:
        if i == len(notes):
            return True
        for g in range(groups):
            if bins[g] + notes[i] <= size:
                bins[g] += notes[i]
                if place(i + 1):
                    return True
                bins[g] -= notes[i]
            if bins[g] == 0:
                break
        return False

    return place(0)


def test_split_matches_brute_force_on_random_note_sets():
    """The split rule against an exhaustive search over every assignment of notes."""
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(250):
        sharers = int(rng.integers(1, 5))
        count = int(rng.integers(1, 8 if sharers <= 2 else 7))
        kinds = rng.integers(0, 3, size=count)
        notes = sorted(int((1, 2, 4)[k]) for k in kinds)
        counts = [int((kinds == k).sum()) for k in range(3)]
        share, fives, tens, twenties = split_share(*counts, sharers)
        assert share == _brute_force_share(notes, sharers), (counts, sharers)
        assert fives <= counts[0] and tens <= counts[1] and twenties <= counts[2]
        paid = [1] * fives + [2] * tens + [4] * twenties
        if share:
            assert _can_partition(sorted(paid, reverse=True), sharers, share)
        else:
            assert paid == []
        checked += 1
    assert checked == 250


def test_split_never_pays_more_than_the_table_on_every_table_state():
    """Exhaustive over table states: the paid notes exist and their value is share x sharers."""
    for fives, tens, twenties in itertools.product(range(0, 16, 3), range(0, 16, 3), range(0, 11, 2)):
        for sharers in range(1, 7):
            share, f, t, w = split_share(fives, tens, twenties, sharers)
            assert 0 <= f <= fives and 0 <= t <= tens and 0 <= w <= twenties
            assert f + 2 * t + 4 * w == share * sharers


# --- phases 4-6: lying down, Bang!Bang!Bang!, Bang! --------------------------------------------

EL_TORO, LOTUS, MR_BLACK, HUNGRY, IGOR, TINO = range(6)


def test_seed_example_el_toro_takes_three_wounds():
    """Seed example: Lotus (BBB), Mr Black and Hungry (Bang!) aim at El Toro; Tino (Bang!) at
    Igor, who lies down. El Toro is down after the BBB, loses his own Bang!, takes 3 wounds
    and is eliminated; Tino's Bang! is discarded; Igor takes a shame marker and no wound."""
    targets = [LOTUS, EL_TORO, EL_TORO, EL_TORO, TINO, IGOR]
    bullets = [BANG, BANG_BANG_BANG, BANG, BANG, CLICK, BANG]
    lying = [False, False, False, False, True, False]
    taken, down, fired = shots(targets, bullets, lying)
    assert taken == [3, 0, 0, 0, 0, 0]
    assert down == [True, False, False, False, False, False]
    assert fired == [False, True, True, True, False, False]
    assert wounds_after(0, taken[EL_TORO]) == 3

    table = Table(6, [FIVE] * 40)
    table.reveal_loot()
    report = table.play_round(bullets, targets, lying)
    assert table.alive == [False, True, True, True, True, True]
    assert table.wounds[EL_TORO] == 3
    assert table.shame == [0, 0, 0, 0, 1, 0]
    assert report.sharers == [LOTUS, MR_BLACK, HUNGRY, TINO]
    assert report.share_units == 1  # five $5k notes among four: $5k each, one note stays
    assert table.loot == [1, 0, 0]


def test_bang_bang_bang_resolves_before_bang():
    """A player hit by Bang!Bang!Bang! loses their Bang! aimed back at the shooter."""
    taken, down, fired = shots([1, 0, 0, 0], [BANG_BANG_BANG, BANG, CLICK, CLICK], [False] * 4)
    assert taken == [0, 1, 0, 0]
    assert fired == [True, False, False, False]


def test_mutual_bang_bang_bang_wounds_both():
    """Seed: all BBB are revealed together; two aimed at each other both wound."""
    taken, down, fired = shots([1, 0, 0, 0], [BANG_BANG_BANG, BANG_BANG_BANG, CLICK, CLICK], [False] * 4)
    assert taken == [1, 1, 0, 0]
    assert down == [True, True, False, False]


def test_mutual_bangs_wound_both():
    """Seed, phase 6: Bang! shots are simultaneous; two aimed at each other both wound."""
    taken, _, fired = shots([1, 0, 0, 0], [BANG, BANG, CLICK, CLICK], [False] * 4)
    assert taken == [1, 1, 0, 0]
    assert fired == [True, True, False, False]


def test_target_of_bang_bang_bang_can_be_wounded_again_by_bang():
    """Seed, phase 6: a player hit in phase 5 can take further wounds in phase 6."""
    taken, _, _ = shots([1, 0, 1, 1], [BANG_BANG_BANG, CLICK, BANG, BANG], [False] * 4)
    assert taken == [0, 3, 0, 0]


def test_click_does_nothing():
    taken, down, fired = shots([1, 2, 3, 0], [CLICK] * 4, [False] * 4)
    assert taken == [0] * 4 and down == [False] * 4 and fired == [False] * 4


def test_lying_player_is_not_wounded_and_guns_on_them_are_lowered():
    """Seed, phase 4: guns aimed at a lying player are lowered, their bullets discarded."""
    taken, down, fired = shots([1, 0, 1, 1], [BANG_BANG_BANG, CLICK, BANG, BANG], [False, True, False, False])
    assert taken == [0] * 4
    assert fired == [False] * 4


def test_lying_players_bullet_is_discarded():
    """Seed, phase 4: a player who lies down discards their bullet: no shot, card used up."""
    taken, _, fired = shots([1, 0, 0, 0], [BANG, BANG_BANG_BANG, CLICK, CLICK], [False, True, False, False])
    assert taken == [0, 0, 0, 0]
    assert fired == [False] * 4
    table = Table(4, [TEN] * 40)
    table.reveal_loot()
    table.play_round([BANG, BANG_BANG_BANG, CLICK, CLICK], [1, 0, 0, 0], [False, True, False, False])
    assert table.hands[1] == [5, 2, 0]
    assert table.hands[0] == [5, 1, 1]
    assert table.shame == [0, 1, 0, 0]


def test_lying_down_when_not_aimed_at_is_allowed_and_shames():
    """Seed: a player may lie down even when nobody aims at them; they still take shame."""
    table = Table(4, [TEN] * 40)
    table.reveal_loot()
    report = table.play_round([CLICK] * 4, [1, 0, 0, 0], [False, False, False, True])
    assert table.shame == [0, 0, 0, 1]
    assert report.sharers == [0, 1, 2]


def test_wounded_and_lying_players_do_not_share():
    """Seed, phase 7: only standing, unwounded players split the loot."""
    assert shares_loot(True, False, False)
    assert not shares_loot(True, True, False)
    assert not shares_loot(True, False, True)
    assert not shares_loot(False, False, False)
    table = Table(4, [TEN] * 40)
    table.reveal_loot()
    report = table.play_round([BANG, CLICK, CLICK, CLICK], [1, 0, 0, 0], [False, False, False, True])
    assert report.sharers == [0, 2]
    assert report.share_units == 4  # five $10k notes between two: $20k each, one note stays
    assert table.cash == [4, 0, 4, 0]
    assert table.loot == [0, 1, 0]


def test_unsplit_notes_stay_for_the_next_round():
    """Seed, phase 1: notes not split stay on the table and join the next five."""
    deck = [TWENTY, TEN, TEN, FIVE, FIVE] + [FIVE] * 35
    table = Table(5, deck)
    table.reveal_loot()
    table.play_round([CLICK] * 5, [1, 2, 3, 4, 0], [False] * 5)
    assert table.loot == [2, 2, 1] and table.cash == [0] * 5
    table.reveal_loot()
    assert table.loot == [7, 2, 1]


# --- wounds, elimination and the end of the game ------------------------------------------------


def test_three_wounds_eliminate_and_markers_stop_at_three():
    assert wounds_after(1, 1) == 2
    assert wounds_after(2, 1) == 3
    assert wounds_after(2, 3) == 3


def test_used_bullet_cards_cannot_be_played_again():
    """Seed, phase 2: each bullet card is used once."""
    table = Table(4, [FIVE] * 40)
    table.reveal_loot()
    table.play_round([BANG_BANG_BANG, CLICK, CLICK, CLICK], [1, 0, 0, 0], [False] * 4)
    table.reveal_loot()
    with pytest.raises(ValueError, match="no Bang!Bang!Bang! left"):
        table.play_round([BANG_BANG_BANG, CLICK, CLICK, CLICK], [1, 0, 0, 0], [False] * 4)


def test_must_aim_at_a_living_opponent():
    table = Table(4, [FIVE] * 40)
    table.reveal_loot()
    with pytest.raises(ValueError, match="living opponent"):
        table.play_round([CLICK] * 4, [0, 0, 0, 0], [False] * 4)


def test_cannot_aim_at_an_eliminated_player():
    table = Table(4, [FIVE] * 40)
    table.wounds = [0, 0, 0, 2]
    table.reveal_loot()
    table.play_round([CLICK, CLICK, BANG, CLICK], [3, 0, 3, 0], [False] * 4)
    assert table.alive == [True, True, True, False]
    table.reveal_loot()
    with pytest.raises(ValueError, match="living opponent"):
        table.play_round([CLICK] * 4, [3, 0, 1, 0], [False] * 4)


def test_lone_survivor_wins_at_once():
    """Seed: the game ends when a single player survives, and that player wins."""
    table = Table(4, [FIVE] * 40)
    table.wounds = [2, 2, 2, 0]
    table.reveal_loot()
    table.play_round([BANG, BANG, BANG, CLICK], [1, 2, 0, 0], [False] * 4)
    assert table.finished and table.rounds_played == 1
    assert table.alive == [False, False, False, True]
    assert table.winners() == [False, False, False, True]


def test_nobody_alive_means_no_winner():
    """Seed: when nobody survives a round, nobody wins."""
    table = Table(4, [FIVE] * 40)
    table.wounds = [2, 2, 2, 2]
    table.reveal_loot()
    table.play_round([BANG] * 4, [1, 2, 3, 0], [False] * 4)
    assert table.finished and table.winners() == [False] * 4


def test_game_ends_after_eight_rounds():
    table = Table(4, [FIVE] * 40)
    cards = [CLICK] * 5 + [BANG, BANG, BANG_BANG_BANG]
    for card in cards:  # everybody lies down when holding a loaded card: nobody is hurt
        table.reveal_loot()
        table.play_round([card] * 4, [1, 0, 0, 0], [card != CLICK] * 4)
    assert table.finished and table.rounds_played == 8
    assert table.alive == [True] * 4 and table.shame == [3] * 4
    assert table.hands == [[0, 0, 0]] * 4
    with pytest.raises(ValueError, match="over"):
        table.reveal_loot()


# --- final scoring ------------------------------------------------------------------------------


def winners(alive, score, shame, wounds):
    return final_winners(np.array(alive), np.array(score, float), np.array(shame), np.array(wounds)).tolist()


def test_richest_survivor_wins_and_the_dead_cannot():
    assert winners([True, True, False, True], [5, 9, 50, 3], [0] * 4, [0] * 4) == [False, True, False, False]


def test_score_tie_goes_to_fewer_shame_markers():
    assert winners([True] * 4, [9, 9, 1, 1], [2, 1, 0, 0], [0] * 4) == [False, True, False, False]


def test_score_and_shame_tie_goes_to_more_wounds():
    assert winners([True] * 4, [9, 9, 1, 1], [1, 1, 0, 0], [1, 2, 0, 0]) == [False, True, False, False]


def test_full_tie_gives_co_winners():
    assert winners([True] * 4, [9, 9, 1, 9], [1, 1, 0, 1], [2, 2, 0, 2]) == [True, True, False, True]


def test_shame_value_changes_the_final_score():
    """Score = money + shame markers x shame value: with the -$5k penalty, 2 units and no shame
    beats 3 units and 1 shame is a tie broken by shame; with +$5k (the seed's literal "worth
    $5,000") the shamed player wins outright."""
    table = Table(4, [FIVE] * 40, shame_units=-1.0)
    table.cash, table.shame, table.finished = [2, 3, 0, 0], [0, 1, 0, 0], True
    assert table.winners() == [True, False, False, False]
    table.shame_units = 1.0
    assert table.winners() == [False, True, False, False]
