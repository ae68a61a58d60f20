"""Cash'n Guns rules as small pure functions over plain arrays.

Every function here is a leaf ``@kernel`` function (it calls no other compiled
function), so the batch kernel can call it at full speed and the plain-Python reference engine
can call its interpreted original (``function.py_func``). Sources are the seed file
``004_1e0bffc2eaca2406.txt`` (first-edition rules, Vietnamese); the digest is
``seeds/cash_n_guns.md``.

Money is counted in units of $5,000 (the smallest banknote), so the three notes are worth
1, 2 and 4 units.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel

#: Dollars in one money unit (the $5,000 note).
UNIT_DOLLARS = 5_000
#: Value in units of each banknote kind, smallest first: $5,000, $10,000, $20,000.
NOTE_UNITS = (1, 2, 4)
#: How many notes of each kind the loot deck holds (seed: 15 x $5k, 15 x $10k, 10 x $20k).
DECK_NOTE_COUNTS = (15, 15, 10)
#: Notes revealed at the start of every round (seed, phase 1).
NOTES_PER_ROUND = 5
#: Rounds in a game (seed: "8 lượt").
ROUNDS = 8
#: Bullet card kinds.
CLICK, BANG, BANG_BANG_BANG = 0, 1, 2
BULLET_NAMES = ("Click", "Bang!", "Bang!Bang!Bang!")
#: Each player's bullet cards (seed: 5 Clic Clic Clic, 2 Bang!, 1 Bang!Bang!Bang!).
HAND_COUNTS = (5, 2, 1)
#: Wounds that eliminate a player (seed: three wound markers).
LETHAL_WOUNDS = 3
#: Player counts the game supports.
MIN_PLAYERS, MAX_PLAYERS = 4, 6
#: Shame marker value (dollars) when the config does not say: the published penalty reading.
DEFAULT_SHAME_DOLLARS = -5_000


@kernel(refcounts=False)
def split_share(fives: int, tens: int, twenties: int, sharers: int) -> tuple[int, int, int, int]:
    """The split without change of phase 7: the largest equal share and the notes paid out.

    Seed, phase 7: the standing players share the loot in equal parts without making change;
    what cannot be split stays on the table. The share is the largest value ``x`` (in units)
    for which ``sharers`` disjoint sets of notes each worth exactly ``x`` exist.

    Payout reading (modelling choice "largest notes first"): the shares are made with as many
    $20,000 notes as possible, then as many $10,000 notes as possible, then $5,000 notes; the
    smallest notes stay on the table. Because 1 | 2 | 4, filling the shares with the largest
    notes first finds a split whenever one exists, so the test for each ``x`` is exact.

    Returns ``(share_units, fives_paid, tens_paid, twenties_paid)``; share 0 pays nothing.
    """
    if sharers <= 0:
        return 0, 0, 0, 0
    total = fives + 2 * tens + 4 * twenties
    for share in range(total // sharers, 0, -1):
        twenties_paid = min(twenties, sharers * (share // 4))
        rest = sharers * share - 4 * twenties_paid
        tens_paid = min(tens, (rest - sharers * (share % 2)) // 2)
        fives_paid = rest - 2 * tens_paid
        if fives_paid <= fives:
            return share, fives_paid, tens_paid, twenties_paid
    return 0, 0, 0, 0


@kernel
def resolve_shots(
    targets: np.ndarray, bullets: np.ndarray, lying: np.ndarray, alive: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Phases 4-6 of a round: who lies down, which guns fire, who is wounded.

    Seed, phase 4: a player who lies down takes no part in the shooting; a gun aimed at a
    lying player is lowered and its bullet discarded. Phase 5: every Bang!Bang!Bang! aimed at a
    standing player fires at once (all together, so two such cards aimed at each other both
    hit); its target takes a wound, goes down and loses their own shot. Phase 6: the shooters
    still standing reveal; each Bang! wounds its target, all at the same time, even a target
    already wounded in phase 5. A Click does nothing.

    Args:
        targets: seat each player aims at (ignored for dead or lying players).
        bullets: bullet card each player chose (``CLICK``, ``BANG`` or ``BANG_BANG_BANG``).
        lying: True for players who lay down in phase 4.
        alive: True for players still in the game.

    Cards revealed (public from then on): every Bang!Bang!Bang! that fires (phase 5) and the
    card of every shooter still standing in phase 6 whose gun was not lowered. A card discarded
    by a player who lay down, whose gun was lowered, or who was downed by a Bang!Bang!Bang!
    before revealing is not seen.

    Returns:
        ``(wounds_taken, down, fired, shown)``: wounds each player takes this round, True for
        players wounded this round, True for players whose Bang!/Bang!Bang!Bang! actually
        fired, and True for players whose card was revealed.
    """
    players = targets.shape[0]
    wounds_taken = np.zeros(players, np.int64)
    down = np.zeros(players, np.bool_)
    fired = np.zeros(players, np.bool_)
    shown = np.zeros(players, np.bool_)
    resolve_shots_into(targets, bullets, lying, alive, wounds_taken, down, fired, shown)
    return wounds_taken, down, fired, shown


@kernel(refcounts=False)
def resolve_shots_into(
    targets: np.ndarray,
    bullets: np.ndarray,
    lying: np.ndarray,
    alive: np.ndarray,
    wounds_taken: np.ndarray,
    down: np.ndarray,
    fired: np.ndarray,
    shown: np.ndarray,
) -> None:
    """:func:`resolve_shots` written into the caller's arrays (``wounds_taken``, ``down``,
    ``fired``, ``shown``, one entry per player, overwritten), so a game loop allocates nothing."""
    players = targets.shape[0]
    for seat in range(players):
        wounds_taken[seat] = 0
        down[seat] = False
        fired[seat] = False
        shown[seat] = False
    for shooter in range(players):
        target = targets[shooter]
        if alive[shooter] and not lying[shooter] and not lying[target]:
            if bullets[shooter] == BANG_BANG_BANG:
                wounds_taken[target] += 1
                down[target] = True
                fired[shooter] = True
                shown[shooter] = True
    # Until the Bangs land, ``down`` holds exactly the players a Bang!Bang!Bang! downed (who
    # lose their shot); the Bangs fire all at once, so they land only after every shooter is known.
    for shooter in range(players):
        target = targets[shooter]
        if alive[shooter] and not lying[shooter] and not lying[target] and not down[shooter]:
            shown[shooter] = True
            if bullets[shooter] == BANG:
                fired[shooter] = True
    for shooter in range(players):
        if fired[shooter] and bullets[shooter] == BANG:
            wounds_taken[targets[shooter]] += 1
            down[targets[shooter]] = True


@kernel
def final_winners(alive: np.ndarray, score: np.ndarray, shame: np.ndarray, wounds: np.ndarray) -> np.ndarray:
    """Winners at the end of round 8: the richest survivor, ties to fewer shame, then more wounds.

    Seed, "Kết thúc": only survivors count their money; the most money wins; a tie goes to the
    player with fewer shame markers, then to the one with more wound markers. Players still
    equal after that are all winners (reading: the seed is silent). Nobody alive: no winner.
    """
    winners = np.zeros(alive.shape[0], np.bool_)
    final_winners_into(alive, score, shame, wounds, winners)
    return winners


@kernel(refcounts=False)
def final_winners_into(
    alive: np.ndarray, score: np.ndarray, shame: np.ndarray, wounds: np.ndarray, winners: np.ndarray
) -> None:
    """:func:`final_winners` written into the caller's ``winners`` (one flag per player)."""
    players = alive.shape[0]
    for seat in range(players):
        winners[seat] = False
    best = -1
    for seat in range(players):
        if not alive[seat]:
            continue
        if best < 0:
            best = seat
            continue
        if score[seat] != score[best]:
            better = score[seat] > score[best]
        elif shame[seat] != shame[best]:
            better = shame[seat] < shame[best]
        else:
            better = wounds[seat] > wounds[best]
        if better:
            best = seat
    if best < 0:
        return
    for seat in range(players):
        if alive[seat] and score[seat] == score[best] and shame[seat] == shame[best] and wounds[seat] == wounds[best]:
            winners[seat] = True


@kernel(refcounts=False)
def wounds_after(wounds: int, wounds_taken: int) -> int:
    """Wound markers after a round; the third wound eliminates, so markers stop at three.

    Seed, "Bị thương và loại trừ người chơi": a player takes one marker per hit, can be hit
    several times in one round, and is out of the game with three markers.
    """
    return min(LETHAL_WOUNDS, wounds + wounds_taken)


@kernel(refcounts=False)
def shares_loot(alive: bool, lying: bool, down: bool) -> bool:
    """Whether a player takes part in the phase-7 split: alive, did not lie down, not wounded.

    Seed, phase 7: only players whose character still stands (did not give up in phase 4 and
    was not wounded in phases 5-6) share the loot.
    """
    return alive and not lying and not down


@kernel(refcounts=False)
def expected_round_pot(table_units: int, drawn: np.ndarray) -> float:
    """The loot a round is expected to offer before its five notes are turned, in units: the
    notes left on the table plus five times the mean value of the notes not yet drawn (public:
    the deck's make-up is known and every drawn note is face up). Round one: 5 x 85/40 units
    = $53,125. ``drawn`` counts the $5k/$10k/$20k notes drawn so far."""
    notes_left = 0
    value_left = 0
    for kind in range(3):
        notes_left += DECK_NOTE_COUNTS[kind] - drawn[kind]
        value_left += NOTE_UNITS[kind] * (DECK_NOTE_COUNTS[kind] - drawn[kind])
    if notes_left <= 0:
        return float(table_units)
    return table_units + NOTES_PER_ROUND * value_left / notes_left
