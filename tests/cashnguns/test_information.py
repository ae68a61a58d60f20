"""Digest "Information": strategies read the public record and their own hand, nothing hidden.

From positions reached in real games (any round), everything a seat cannot see is dealt again
at random: every other seat's remaining hand (drawn from the cards it has not revealed, so the
public count of revealed cards is unchanged) and the order of the undrawn loot notes. Every
strategy, named and random custom ones, must then take exactly the same decisions (target,
card, lie down); the random ones include free card orders and opponent reading (``read``).
A deliberately leaky policy that peeks at hands is caught by the same check,
so the check can fail. The positions and the re-deal are :mod:`cardsim.sims.cashnguns.checks`,
the game contract's check.
"""

from __future__ import annotations

import pytest

from cardsim.sims.cashnguns.checks import changed_decisions, leaky_lie, leaky_shot
from cardsim.sims.cashnguns.reference import Table, plan_lie, plan_shot
from cardsim.sims.cashnguns.rules import BANG, BANG_BANG_BANG


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
