"""The compiled batch kernel: many full games of Cash'n Guns, one per 64-bit seed.

The game loop follows the seed's seven phases (``seeds/cash_n_guns.md``) and calls the pure
rule functions of :mod:`rules` and the decision functions of :mod:`strategies`. The random
streams of each game (:mod:`rng`) are consumed in a fixed order that the plain-Python reference
(:mod:`reference`) repeats exactly: the game's stream shuffles the seats, then the loot deck;
each slot's private stream gives that player's numbers, per round its target, bullet and
lie-down draws in that order while it lives.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.cashnguns.rng import next_uniform, next_uniform_at
from cardsim.sims.cashnguns.rules import (
    DECK_NOTE_COUNTS,
    HAND_COUNTS,
    LETHAL_WOUNDS,
    NOTE_UNITS,
    NOTES_PER_ROUND,
    ROUNDS,
    expected_round_pot,
    final_winners_into,
    resolve_shots_into,
    shares_loot,
    split_share,
    wounds_after,
)
from cardsim.sims.cashnguns.strategies import (
    choose_bullet,
    choose_lie_down,
    choose_target,
    opponent_loaded,
)
from cardsim.sims.core.jit import kernel

DECK_SIZE = sum(DECK_NOTE_COUNTS)


@kernel(refcounts=False)
def shuffle_in_place(values: np.ndarray, state: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``values`` in place with the game's stream."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = int(next_uniform(state) * (i + 1))
        values[i], values[j] = values[j], values[i]


@kernel
def play_batch(
    seeds: np.ndarray,
    private_seeds: np.ndarray,
    lineups: np.ndarray,
    params: np.ndarray,
    shame_units: float,
) -> tuple[np.ndarray, ...]:
    """Play one full game per seed; ``lineups[game, slot]`` picks the slot's strategy row.

    Args:
        seeds: uint64 seed of each game (seats and loot deck).
        private_seeds: (games, players) uint64 seed of each player slot's private stream
            (:func:`rng.private_seeds`), the only source of its decisions' numbers.
        lineups: (games, players) index into ``params`` of each player slot's strategy.
        params: one float row per strategy (``strategies.Strategy.param_row``).
        shame_units: value of one shame marker in $5,000 units (negative = penalty).

    The public record the strategies read is kept here round by round: cards each seat has
    revealed, who aimed at whom and who lay down (one row per round), notes drawn, money,
    wounds, shame and who is alive. Other seats' hands and the deck order are never passed.

    Returns:
        Per game and slot: ``money`` (units), ``wounds``, ``shame``, ``alive``, ``winner``,
        ``shots`` (Bang!/Bang!Bang!Bang! that fired), ``cards_used`` (n, slots, 3); per game:
        ``rounds`` played, loot ``drawn``, ``paid`` and ``left`` on the table (units).
    """
    n = seeds.shape[0]
    players = lineups.shape[1]
    results = (
        np.zeros((n, players), np.int32),  # money
        np.zeros((n, players), np.int8),  # wounds
        np.zeros((n, players), np.int8),  # shame
        np.zeros((n, players), np.bool_),  # alive
        np.zeros((n, players), np.bool_),  # winner
        np.zeros((n, players), np.int8),  # shots
        np.zeros((n, players, 3), np.int8),  # cards used
        np.zeros(n, np.int8),  # rounds
        np.zeros(n, np.int32),  # drawn
        np.zeros(n, np.int32),  # paid
        np.zeros(n, np.int32),  # left
    )
    seat_arrays = (
        np.empty(players, np.int64),  # slot of each seat
        np.empty(players, np.bool_),  # alive
        np.empty(players, np.int64),  # wounds
        np.empty(players, np.int64),  # shame
        np.empty(players, np.int64),  # cash
        np.empty(players, np.int64),  # shots
        np.zeros(players, np.int64),  # bullets
        np.zeros(players, np.int64),  # targets
        np.zeros(players, np.bool_),  # lying
        np.empty(players, np.float64),  # score
        np.empty(players, np.bool_),  # winners
        np.empty(players, np.int64),  # wounds taken this round
        np.empty(players, np.bool_),  # down this round
        np.empty(players, np.bool_),  # fired this round
        np.empty(players, np.bool_),  # shown this round
    )
    table_arrays = (
        np.empty((players, params.shape[1]), np.float64),  # each seat's strategy row
        np.empty((players, 3), np.int64),  # hands
        np.empty((players, 3), np.int64),  # revealed
        np.empty((ROUNDS, players), np.int64),  # aims
        np.empty((ROUNDS, players), np.bool_),  # lay
        np.empty(DECK_SIZE, np.int64),  # deck template
        np.empty(DECK_SIZE, np.int64),  # deck
        np.array(NOTE_UNITS, np.int64),
        np.empty(3, np.int64),  # notes drawn
        np.empty(3, np.int64),  # notes on the table
        np.zeros(1, np.uint64),  # the game's random stream
        np.zeros(players, np.uint64),  # each seat's private stream
    )
    _play_games(seeds, private_seeds, lineups, params, shame_units, results, seat_arrays, table_arrays)
    return results


@kernel(refcounts=False)
def _play_games(
    seeds: np.ndarray,
    private_seeds: np.ndarray,
    lineups: np.ndarray,
    params: np.ndarray,
    shame_units: float,
    results: tuple,
    seat_arrays: tuple,
    table_arrays: tuple,
) -> None:
    """The game loop of :func:`play_batch`, which allocates every array it writes (its
    ``results``, and the per-game state in ``seat_arrays`` and ``table_arrays``, reset at the
    start of every game), so the loop runs without reference counting."""
    (
        money,
        wounds_out,
        shame_out,
        alive_out,
        winner_out,
        shots_out,
        cards_used,
        rounds_out,
        drawn_out,
        paid_out,
        left_out,
    ) = results
    (
        slot_of_seat,
        alive,
        wounds,
        shame,
        cash,
        shots,
        bullets,
        targets,
        lying,
        score,
        winners,
        wounds_taken,
        down,
        fired,
        shown,
    ) = seat_arrays
    (
        seat_params,
        hands,
        revealed,
        aims,
        lay,
        deck_template,
        deck,
        note_units,
        drawn_notes,
        table,
        state,
        private,
    ) = table_arrays
    n = seeds.shape[0]
    players = lineups.shape[1]
    position = 0
    for kind in range(3):
        for _ in range(DECK_NOTE_COUNTS[kind]):
            deck_template[position] = kind
            position += 1
    for game in range(n):
        state[0] = seeds[game]
        for seat in range(players):
            slot_of_seat[seat] = seat
        shuffle_in_place(slot_of_seat, state)
        for seat in range(players):
            private[seat] = private_seeds[game, slot_of_seat[seat]]
        # element by element: an array-to-slice assignment compiles numba's shape-mismatch
        # message (string formatting and all) into the kernel
        for seat in range(players):
            for k in range(params.shape[1]):
                seat_params[seat, k] = params[lineups[game, slot_of_seat[seat]], k]
        for i in range(DECK_SIZE):
            deck[i] = deck_template[i]
        shuffle_in_place(deck, state)
        alive[:] = True
        wounds[:] = 0
        shame[:] = 0
        cash[:] = 0
        shots[:] = 0
        revealed[:] = 0
        aims[:] = -1
        lay[:] = False
        drawn_notes[:] = 0
        for seat in range(players):
            for card in range(3):
                hands[seat, card] = HAND_COUNTS[card]
        table[:] = 0
        drawn = 0
        paid = 0
        rounds = 0
        survivors = players
        for round_index in range(ROUNDS):
            rounds += 1
            expected_pot = expected_round_pot(table[0] + 2 * table[1] + 4 * table[2], drawn_notes)
            # Phase 1: five new notes join what was left unsplit.
            for k in range(NOTES_PER_ROUND):
                kind = deck[round_index * NOTES_PER_ROUND + k]
                table[kind] += 1
                drawn_notes[kind] += 1
                drawn += note_units[kind]
            pot = table[0] + 2 * table[1] + 4 * table[2]
            players_alive = 0
            for seat in range(players):
                players_alive += alive[seat]
            # Phases 2-3: each living player picks a target and, secretly, a card for it.
            for seat in range(players):
                if alive[seat]:
                    target = choose_target(
                        seat_params[seat],
                        seat,
                        alive,
                        cash,
                        wounds,
                        revealed,
                        aims,
                        lay,
                        round_index,
                        next_uniform_at(private, seat),
                    )
                    targets[seat] = target
                    card = choose_bullet(
                        seat_params[seat],
                        hands[seat],
                        pot,
                        expected_pot,
                        opponent_loaded(seat_params[seat], revealed, aims, round_index, target),
                        next_uniform_at(private, seat),
                    )
                    bullets[seat] = card
                    hands[seat, card] -= 1
            # Phase 4: knowing the aims, each player may lie down (shame, out of the split).
            for seat in range(players):
                lying[seat] = False
                if alive[seat]:
                    lying[seat] = choose_lie_down(
                        seat_params[seat],
                        seat,
                        targets,
                        alive,
                        revealed,
                        aims,
                        pot,
                        expected_pot,
                        players_alive,
                        wounds[seat],
                        cash[seat],
                        round_index,
                        shame_units,
                        next_uniform_at(private, seat),
                    )
            # Phases 5-6: Bang!Bang!Bang! first, then the Bangs of those still standing.
            resolve_shots_into(targets, bullets, lying, alive, wounds_taken, down, fired, shown)
            sharers = 0
            for seat in range(players):
                if alive[seat]:
                    shame[seat] += lying[seat]
                    shots[seat] += fired[seat]
                    wounds[seat] = wounds_after(wounds[seat], wounds_taken[seat])
                    aims[round_index, seat] = targets[seat]
                    lay[round_index, seat] = lying[seat]
                    if shown[seat]:
                        revealed[seat, bullets[seat]] += 1
                    sharers += shares_loot(alive[seat], lying[seat], down[seat])
            # Phase 7: the standing, unwounded players split without change.
            share, fives, tens, twenties = split_share(table[0], table[1], table[2], sharers)
            for seat in range(players):
                if shares_loot(alive[seat], lying[seat], down[seat]):
                    cash[seat] += share
            paid += share * sharers
            table[0] -= fives
            table[1] -= tens
            table[2] -= twenties
            # Three wounds eliminate; the game ends with one survivor or none.
            survivors = 0
            for seat in range(players):
                if wounds[seat] >= LETHAL_WOUNDS:
                    alive[seat] = False
                survivors += alive[seat]
            if survivors <= 1:
                break
        if survivors > 1:
            for seat in range(players):
                score[seat] = cash[seat] + shame_units * shame[seat]
            final_winners_into(alive, score, shame, wounds, winners)
        else:
            for seat in range(players):
                winners[seat] = alive[seat]
        for seat in range(players):
            slot = slot_of_seat[seat]
            money[game, slot] = cash[seat]
            wounds_out[game, slot] = wounds[seat]
            shame_out[game, slot] = shame[seat]
            alive_out[game, slot] = alive[seat]
            winner_out[game, slot] = winners[seat]
            shots_out[game, slot] = shots[seat]
            for card in range(3):
                cards_used[game, slot, card] = HAND_COUNTS[card] - hands[seat, card]
        rounds_out[game] = rounds
        drawn_out[game] = drawn
        paid_out[game] = paid
        left_out[game] = table[0] + 2 * table[1] + 4 * table[2]
