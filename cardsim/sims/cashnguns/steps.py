"""The compiled phases of a Cash'n Guns game, for the engine that plays user strategies.

:func:`cardsim.sims.cashnguns.strategy.play_game` plays user seats in Python and built-in
seats here, in compiled code, a round at a time: :func:`open_round` turns the notes (phase 1),
draws every random number of the round and makes the built-in seats' aims and cards
(phases 2-3); the engine then asks the user seats; :func:`built_in_lie_downs` decides the
built-in seats' phase 4 knowing every aim; the engine asks the user seats again; and
:func:`close_round` resolves phases 5-7 (``seeds/cash_n_guns.md``). So Python and the compiled
code meet a few times a round, not once per decision, and only the user's own code runs as
Python. :func:`play_rounds` plays the rest of a game in which no user seat is alive.

The random streams are drawn exactly as :func:`kernel.play_batch` draws them: the game's
stream shuffles the seats, then the loot deck; each seat's private stream (``private``, seeded
from its slot's :func:`rng.private_seeds`) gives three numbers a round while the seat lives
(aim, card, lying down). A round's living seats are known when it opens and its built-in
choices never read another seat's choice of the same phase, so drawing a round's numbers at
its start and deciding built-in seats before user seats changes nothing (tested against the
kernel).
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.cashnguns.kernel import shuffle_in_place
from cardsim.sims.cashnguns.rng import next_uniform_at
from cardsim.sims.cashnguns.rules import (
    DECK_NOTE_COUNTS,
    HAND_COUNTS,
    LETHAL_WOUNDS,
    NOTES_PER_ROUND,
    ROUNDS,
    expected_round_pot,
    final_winners,
    resolve_shots,
    shares_loot,
    split_share,
    wounds_after,
)
from cardsim.sims.cashnguns.strategies import choose_bullet, choose_lie_down, choose_target, opponent_loaded
from cardsim.sims.core.jit import kernel

#: Columns of the per-slot result table of :func:`finish_game`.
OUT_MONEY, OUT_WOUNDS, OUT_SHAME, OUT_ALIVE, OUT_WINNER, OUT_SHOTS, OUT_CARDS = 0, 1, 2, 3, 4, 5, 6
OUT_COLUMNS = OUT_CARDS + 3
#: Slots of the round's numbers (``info``): the expected loot and the loot on the table, units.
INFO_EXPECTED, INFO_POT = 0, 1


@kernel
def begin_game(
    slot_params: np.ndarray,
    slot_user: np.ndarray,
    slot_private: np.ndarray,
    stream: np.ndarray,
    private: np.ndarray,
    slot_of_seat: np.ndarray,
    seat_params: np.ndarray,
    seat_user: np.ndarray,
    deck: np.ndarray,
    alive: np.ndarray,
    wounds: np.ndarray,
    shame: np.ndarray,
    cash: np.ndarray,
    shots: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    hands: np.ndarray,
    table: np.ndarray,
    drawn: np.ndarray,
) -> None:
    """Seat the slots and shuffle the loot deck with the game's stream (``stream`` holds the
    seed), give each seat its slot's private stream (``slot_private``: the slots' private
    seeds) and reset the table: the start of :func:`kernel.play_batch`'s game."""
    players = slot_of_seat.shape[0]
    for seat in range(players):
        slot_of_seat[seat] = seat
    shuffle_in_place(slot_of_seat, stream)
    for seat in range(players):
        slot = slot_of_seat[seat]
        seat_user[seat] = slot_user[slot]
        private[seat] = slot_private[slot]
        for k in range(slot_params.shape[1]):
            seat_params[seat, k] = slot_params[slot, k]
    position = 0
    for kind in range(3):
        for _ in range(DECK_NOTE_COUNTS[kind]):
            deck[position] = kind
            position += 1
    shuffle_in_place(deck, stream)
    for seat in range(players):
        alive[seat] = True
        wounds[seat] = 0
        shame[seat] = 0
        cash[seat] = 0
        shots[seat] = 0
        for card in range(3):
            revealed[seat, card] = 0
            hands[seat, card] = HAND_COUNTS[card]
        for round_index in range(ROUNDS):
            aims[round_index, seat] = -1
            lay[round_index, seat] = False
    for kind in range(3):
        table[kind] = 0
        drawn[kind] = 0


@kernel
def open_round(
    round_index: int,
    deck: np.ndarray,
    table: np.ndarray,
    drawn: np.ndarray,
    alive: np.ndarray,
    cash: np.ndarray,
    wounds: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    hands: np.ndarray,
    seat_params: np.ndarray,
    seat_user: np.ndarray,
    private: np.ndarray,
    u: np.ndarray,
    targets: np.ndarray,
    bullets: np.ndarray,
    info: np.ndarray,
) -> None:
    """Phase 1 (five notes join the table), the round's random numbers (``u[seat]``: aim,
    card, lie down, for every living seat, from its private stream ``private[seat]``) and
    phases 2-3 of the built-in seats (their aims in ``targets``, their cards in ``bullets``,
    taken from their hands)."""
    info[INFO_EXPECTED] = expected_round_pot(table[0] + 2 * table[1] + 4 * table[2], drawn)
    for k in range(NOTES_PER_ROUND):
        kind = deck[round_index * NOTES_PER_ROUND + k]
        table[kind] += 1
        drawn[kind] += 1
    pot = table[0] + 2 * table[1] + 4 * table[2]
    info[INFO_POT] = pot
    players = alive.shape[0]
    for seat in range(players):
        if alive[seat]:
            u[seat, 0] = next_uniform_at(private, seat)
            u[seat, 1] = next_uniform_at(private, seat)
            u[seat, 2] = next_uniform_at(private, seat)
    for seat in range(players):
        if alive[seat] and not seat_user[seat]:
            target = choose_target(
                seat_params[seat], seat, alive, cash, wounds, revealed, aims, lay, round_index, u[seat, 0]
            )
            card = choose_bullet(
                seat_params[seat],
                hands[seat],
                pot,
                info[INFO_EXPECTED],
                opponent_loaded(seat_params[seat], revealed, aims, round_index, target),
                u[seat, 1],
            )
            targets[seat] = target
            bullets[seat] = card
            hands[seat, card] -= 1


@kernel
def built_in_lie_downs(
    round_index: int,
    alive: np.ndarray,
    cash: np.ndarray,
    wounds: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    seat_params: np.ndarray,
    seat_user: np.ndarray,
    u: np.ndarray,
    targets: np.ndarray,
    lying: np.ndarray,
    info: np.ndarray,
    shame_units: float,
) -> None:
    """Phase 4 of the built-in seats, knowing every aim of the round (``lying``; False for the
    user seats, which the engine asks next)."""
    players = alive.shape[0]
    pot = int(info[INFO_POT])
    players_alive = 0
    for seat in range(players):
        players_alive += alive[seat]
    for seat in range(players):
        lying[seat] = False
        if alive[seat] and not seat_user[seat]:
            lying[seat] = choose_lie_down(
                seat_params[seat],
                seat,
                targets,
                alive,
                revealed,
                aims,
                pot,
                info[INFO_EXPECTED],
                players_alive,
                wounds[seat],
                cash[seat],
                round_index,
                shame_units,
                u[seat, 2],
            )


@kernel
def close_round(
    round_index: int,
    targets: np.ndarray,
    bullets: np.ndarray,
    lying: np.ndarray,
    alive: np.ndarray,
    wounds: np.ndarray,
    shame: np.ndarray,
    cash: np.ndarray,
    shots: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    table: np.ndarray,
) -> int:
    """Phases 5-7: the shots, the split without change, the eliminations. Returns how many
    players survive (the game ends at one or none)."""
    players = alive.shape[0]
    wounds_taken, down, fired, shown = resolve_shots(targets, bullets, lying, alive)
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
    share, fives, tens, twenties = split_share(table[0], table[1], table[2], sharers)
    for seat in range(players):
        if shares_loot(alive[seat], lying[seat], down[seat]):
            cash[seat] += share
    table[0] -= fives
    table[1] -= tens
    table[2] -= twenties
    survivors = 0
    for seat in range(players):
        if wounds[seat] >= LETHAL_WOUNDS:
            alive[seat] = False
        survivors += alive[seat]
    return survivors


@kernel
def play_rounds(
    first_round: int,
    deck: np.ndarray,
    table: np.ndarray,
    drawn: np.ndarray,
    alive: np.ndarray,
    cash: np.ndarray,
    wounds: np.ndarray,
    shame: np.ndarray,
    shots: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    hands: np.ndarray,
    seat_params: np.ndarray,
    seat_user: np.ndarray,
    private: np.ndarray,
    u: np.ndarray,
    targets: np.ndarray,
    bullets: np.ndarray,
    lying: np.ndarray,
    info: np.ndarray,
    shame_units: float,
) -> int:
    """Rounds ``first_round`` to the last, every living seat built in (no user seat alive).
    Returns the survivors at the end."""
    survivors = 0
    for seat in range(alive.shape[0]):
        survivors += alive[seat]
    for round_index in range(first_round, ROUNDS):
        open_round(
            round_index,
            deck,
            table,
            drawn,
            alive,
            cash,
            wounds,
            revealed,
            aims,
            lay,
            hands,
            seat_params,
            seat_user,
            private,
            u,
            targets,
            bullets,
            info,
        )
        built_in_lie_downs(
            round_index,
            alive,
            cash,
            wounds,
            revealed,
            aims,
            seat_params,
            seat_user,
            u,
            targets,
            lying,
            info,
            shame_units,
        )
        survivors = close_round(
            round_index, targets, bullets, lying, alive, wounds, shame, cash, shots, revealed, aims, lay, table
        )
        if survivors <= 1:
            break
    return survivors


@kernel
def finish_game(
    survivors: int,
    alive: np.ndarray,
    cash: np.ndarray,
    wounds: np.ndarray,
    shame: np.ndarray,
    shots: np.ndarray,
    hands: np.ndarray,
    slot_of_seat: np.ndarray,
    shame_units: float,
    out: np.ndarray,
) -> None:
    """The winners (richest survivor after round 8, or the last one standing) and each player
    slot's row of ``out`` (columns ``OUT_*``; money in units, cards used per kind)."""
    players = alive.shape[0]
    if survivors > 1:
        score = np.empty(players, np.float64)
        for seat in range(players):
            score[seat] = cash[seat] + shame_units * shame[seat]
        winners = final_winners(alive, score, shame, wounds)
    else:
        winners = alive.copy()
    for seat in range(players):
        slot = slot_of_seat[seat]
        out[slot, OUT_MONEY] = cash[seat]
        out[slot, OUT_WOUNDS] = wounds[seat]
        out[slot, OUT_SHAME] = shame[seat]
        out[slot, OUT_ALIVE] = alive[seat]
        out[slot, OUT_WINNER] = winners[seat]
        out[slot, OUT_SHOTS] = shots[seat]
        for card in range(3):
            out[slot, OUT_CARDS + card] = HAND_COUNTS[card] - hands[seat, card]
