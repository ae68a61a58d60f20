"""Digest "Information": strategies read the public record and their own hand, nothing hidden.

From positions reached in real games (any round), everything a seat cannot see is dealt again
at random: every other seat's remaining hand (drawn from the cards it has not revealed, so the
public count of revealed cards is unchanged) and the order of the undrawn loot notes. Every
strategy, named and random custom ones, must then take exactly the same decisions (target,
card, lie down); the random ones include free card orders and opponent reading (``read``).
A deliberately leaky policy that peeks at hands is caught by the same check,
so the check can fail.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from cardsim.sims.cashnguns.reference import Table, plan_lie, plan_shot
from cardsim.sims.cashnguns.rng import PyStream
from cardsim.sims.cashnguns.rules import BANG, BANG_BANG_BANG, DECK_NOTE_COUNTS, HAND_COUNTS, NOTES_PER_ROUND
from cardsim.sims.cashnguns.space import sample_extended_strategy, sample_strategy
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES

POSITIONS = 15


def strategy_rows(rng: np.random.Generator) -> list[np.ndarray]:
    named = [strategy.param_row() for _, strategy in NAMED_STRATEGIES.values()]
    return (named + [sample_strategy(rng).param_row() for _ in range(15)]
            + [sample_extended_strategy(rng).param_row() for _ in range(15)])


def random_position(rng: np.random.Generator, rows: list[np.ndarray]) -> Table:
    """A table after phase 1 of a random round, reached by real play of random strategies."""
    players = int(rng.integers(4, 7))
    deck = [kind for kind in range(3) for _ in range(DECK_NOTE_COUNTS[kind])]
    table = Table(players, [int(k) for k in rng.permutation(deck)], shame_units=-1.0)
    seat_rows = [rows[int(rng.integers(len(rows)))] for _ in range(players)]
    stream = PyStream(int(rng.integers(2**62)))
    for _ in range(int(rng.integers(0, 8))):
        table.reveal_loot()
        targets, bullets, lying = [0] * players, [0] * players, [False] * players
        for seat in range(players):
            if table.alive[seat]:
                targets[seat], bullets[seat] = plan_shot(table, seat, seat_rows[seat], stream.uniform(), stream.uniform())
        for seat in range(players):
            if table.alive[seat]:
                lying[seat] = plan_lie(table, seat, seat_rows[seat], targets, stream.uniform())
        table.play_round(bullets, targets, lying)
        if table.finished:
            break
    if table.finished:
        return random_position(rng, rows)
    table.reveal_loot()
    return table


def redeal_hidden(table: Table, me: int, rng: np.random.Generator) -> Table:
    """The same public record with other seats' hands and the undrawn notes dealt again."""
    other = copy.deepcopy(table)
    for seat in range(table.players):
        if seat == me:
            continue
        unseen = [card for card in range(3) for _ in range(HAND_COUNTS[card] - table.revealed[seat][card])]
        hand = rng.permutation(unseen)[: sum(table.hands[seat])]
        other.hands[seat] = [int((hand == card).sum()) for card in range(3)]
    drawn = table.rounds_played * NOTES_PER_ROUND + NOTES_PER_ROUND
    other.deck = table.deck[:drawn] + [int(k) for k in rng.permutation(table.deck[drawn:])]
    return other


def decisions(table: Table, seat: int, row: np.ndarray, shot, lie, u: tuple[float, float, float]):
    targets = [plan_shot(table, s, row, u[0], u[1])[0] if table.alive[s] else -1 for s in range(table.players)]
    target, bullet = shot(table, seat, row, u[0], u[1])
    return target, bullet, lie(table, seat, row, targets, u[2])


def changed_decisions(shot, lie, seed: int = 7) -> tuple[int, int]:
    """(decisions that changed when hidden state was redealt, decisions checked)."""
    rng = np.random.default_rng(seed)
    rows = strategy_rows(rng)
    changed = checked = 0
    for _ in range(POSITIONS):
        table = random_position(rng, rows)
        for seat in range(table.players):
            if not table.alive[seat]:
                continue
            for row in rows:
                u = tuple(rng.random(3))
                before = decisions(table, seat, row, shot, lie, u)
                after = decisions(redeal_hidden(table, seat, rng), seat, row, shot, lie, u)
                changed += before != after
                checked += 1
    return changed, checked


def leaky_shot(table: Table, seat: int, row: np.ndarray, u_target: float, u_bullet: float):
    """Aims at the opponent holding the most loaded cards (reads hidden hands)."""
    target, bullet = plan_shot(table, seat, row, u_target, u_bullet)
    loaded = [table.hands[s][BANG] + table.hands[s][BANG_BANG_BANG] if table.alive[s] and s != seat else -1
              for s in range(table.players)]
    return int(np.argmax(loaded)), bullet


def leaky_lie(table: Table, seat: int, row: np.ndarray, targets: list[int], u: float) -> bool:
    """Lies down exactly when an aimer still holds a loaded card (reads hidden hands)."""
    return any(table.alive[s] and targets[s] == seat and table.hands[s][BANG] + table.hands[s][BANG_BANG_BANG]
               for s in range(table.players))


def test_decisions_read_only_the_public_record():
    changed, checked = changed_decisions(plan_shot, plan_lie)
    assert checked > 800
    assert changed == 0


@pytest.mark.parametrize("shot, lie", [(leaky_shot, plan_lie), (plan_shot, leaky_lie)], ids=["target", "lie"])
def test_a_leaky_policy_is_caught(shot, lie):
    changed, checked = changed_decisions(shot, lie)
    assert changed > 0.02 * checked


def test_the_record_counts_revealed_cards_and_history():
    """Seed phases 4-6: a lying player's card and a lowered gun's card stay hidden; a standing
    shooter's card and every Bang!Bang!Bang! that fires are shown; aims and lie-downs are kept
    per round."""
    table = Table(4, [0] * 40)
    table.reveal_loot()
    # seat 0 BBB at 1; seat 1 Bang at 0 (downed by BBB first: hidden); seat 2 Bang at 3 who lies
    # down (gun lowered: hidden); seat 3 lies down (hidden)
    table.play_round([BANG_BANG_BANG, BANG, BANG, 0], [1, 0, 3, 0], [False, False, False, True])
    assert table.revealed == [[0, 0, 1], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    table.reveal_loot()
    table.play_round([0, 0, BANG, 0], [1, 0, 1, 2], [False] * 4)
    assert table.revealed == [[1, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0]]
    assert table.aims == [[1, 0, 3, 0], [1, 0, 1, 2]]
    assert table.lay == [[False, False, False, True], [False] * 4]


def hidden_info_check(seed: int) -> int:
    """The game declaration's hidden-information hook (``hidden_info_check``, run by the
    generic contract test): asserts no decision changes when what a seat cannot see is dealt
    again, over the usual positions, and returns the decisions compared."""
    changed, checked = changed_decisions(plan_shot, plan_lie, seed=seed)
    assert changed == 0
    return checked
