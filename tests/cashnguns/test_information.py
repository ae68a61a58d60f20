"""Digest "Information": strategies read the public record and their own hand, nothing hidden.

From positions reached in real games (any round), everything a seat cannot see is dealt again
at random: every other seat's remaining hand (drawn from the cards it has not revealed, so the
public count of revealed cards is unchanged) and the order of the undrawn loot notes. Every
strategy, named and random custom ones, must then take exactly the same decisions (target,
card, lie down); the random ones include free card orders and opponent reading (``read``).
A deliberately leaky policy that peeks at hands is caught by the same check,
so the check can fail. The positions and the re-deal are :mod:`cardsim.sims.cashnguns.checks`,
the game contract's check.

The numbers a seat is handed for its mixed decisions (``u``) are a channel of their own: they
come from the seat's private stream, which tells nothing about the deck or the other seats'
numbers; a mutant that rebuilt the deck from them under the old shared stream is now at chance.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.cashnguns.checks import (
    CHANCE_HITS,
    DeckReader,
    changed_decisions,
    deck_reading_hits,
    engine_draws,
    leaky_lie,
    leaky_shot,
    private_draws_check,
    shared_stream_draws,
)
from cardsim.sims.cashnguns.reference import Table, plan_lie, plan_shot
from cardsim.sims.cashnguns.rng import private_seeds
from cardsim.sims.cashnguns.rules import BANG, BANG_BANG_BANG, NOTES_PER_ROUND
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.cashnguns.strategy import GameState, Seat, play_steps


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


def test_a_seats_numbers_carry_nothing_it_cannot_see():
    """Each decision's ``u`` comes from the seat's private stream: with its private seed held,
    games of other game seeds (seat orders, loot decks) and other private seeds of the other
    slots hand it the very same numbers, round by round."""
    result = private_draws_check(47)
    assert result.compared > 300
    assert result.changed == 0


def test_the_check_catches_a_stream_shared_with_the_deal():
    """The scheme the engine used before (the shuffles and every seat's numbers from one
    stream) fails the same check."""
    result = private_draws_check(47, shared_stream_draws)
    assert result.changed > 0.9 * result.compared


def test_a_deck_reading_mutant_reads_the_shared_stream_but_not_the_private_ones():
    """DeckReader inverts SplitMix64 from its first-round aim and card numbers: under the old
    scheme it names every later note; under the engine's private streams it does no better
    than a guess that knows only the deck's make-up (games are the unit)."""
    assert (deck_reading_hits(3, shared_stream_draws, games=30) == 1.0).all()
    hits = deck_reading_hits(3, engine_draws, games=150)
    half_width = 1.96 * hits.std(ddof=1) / np.sqrt(hits.size)
    assert abs(hits.mean() - CHANCE_HITS) < max(half_width, 0.02) + 0.02
    assert hits.max() < 0.8


def test_the_deck_reader_seated_in_the_engine_guesses_at_chance():
    """The mutant as a seat of real games (the others play ``counter``): what it predicts
    from its own numbers against the deck the game dealt."""
    rng = np.random.default_rng(11)
    shares = []
    for _ in range(40):
        players = int(rng.integers(4, 7))
        reader = DeckReader()
        slots = [Seat(reader, "reader")] + [parse_strategy("counter").param_row()] * (players - 1)
        game = GameState(players)
        users = game.begin(int(rng.integers(2**63)), slots, -5000)
        deck = game.deck.tolist()
        seat_of = [slots[slot] for slot in game.slot_of_seat.tolist()]
        moves = play_steps(game, users)
        try:
            seat, decision, _ = next(moves)
            while True:
                seat, decision, _ = moves.send(getattr(seat_of[seat].strategy, decision)(game.view(seat), game.legal))
        except StopIteration:
            pass
        shares.append(np.mean([a == b for a, b in zip(reader.predicted, deck[NOTES_PER_ROUND:])]))
    assert abs(np.mean(shares) - CHANCE_HITS) < 0.06


def test_private_seeds_are_one_per_slot_and_replay():
    seeds = np.array([1, 2, 2**63 + 5], np.uint64)
    words = private_seeds(seeds, 6)
    assert words.shape == (3, 6) and words.dtype == np.uint64
    assert (private_seeds(seeds, 6) == words).all()
    assert (private_seeds(int(seeds[2]), 4) == words[2, :4]).all()
    assert len({int(w) for w in words.ravel()}) == words.size
