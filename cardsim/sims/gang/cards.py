"""The 10 challenge and 10 specialist cards: names, numbers and their rules as small units.

Every rule below cites its card in seed 000 (sections "THẺ THỬ THÁCH" and "THẺ CHUYÊN GIA") and
is checked by a fixed-card scenario test in ``tests/gang/test_cards.py``. The heist kernel
(:mod:`cardsim.sims.gang.engine`) calls these functions (the specialists' use and effects at
the end of this module; the group's decision to use one is in
:mod:`cardsim.sims.gang.estimate`); a card is active in a heist when its
bit is set in the heist's challenge mask or its number is the heist's specialist.

Decisions the rules leave to the group (who uses a specialist, when, which value to ask) are
part of the player model and documented in ``seeds/the_gang.md`` ("Card decisions").
"""

from __future__ import annotations

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.holdings import (
    MAX_POCKET,
    category_of_score,
    hand_score,
    holder_of,
    muscle_score,  # noqa: F401 - the engine imports it from here
    strength,
)
from cardsim.sims.poker.cards import ACE_RANK, JACK_RANK, SUITLESS_JACK
from cardsim.sims.poker.rules import STRAIGHT_FLUSH

CHALLENGES: dict[str, int] = {
    "quick-access": 1,
    "noise-sensors": 2,
    "motion-detector": 3,
    "retina-scan": 4,
    "hasty-getaway": 5,
    "ventilation-shaft": 6,
    "laser-tripwires": 7,
    "blackout": 8,
    "fingerprint-scan": 9,
    "security-cameras": 10,
}
#: the specialist cards' numbers (seed 000), as the kernels compare them; 0 = no specialist
INFORMANT, GETAWAY_DRIVER, INVESTOR, MASTERMIND, HACKER = 1, 2, 3, 4, 5
COORDINATOR, JACK, MATH_WHIZ, CON_ARTIST, MUSCLE = 6, 7, 8, 9, 10
SPECIALISTS: dict[str, int] = {
    "informant": INFORMANT,
    "getaway-driver": GETAWAY_DRIVER,
    "investor": INVESTOR,
    "mastermind": MASTERMIND,
    "hacker": HACKER,
    "coordinator": COORDINATOR,
    "jack": JACK,
    "math-whiz": MATH_WHIZ,
    "con-artist": CON_ARTIST,
    "muscle": MUSCLE,
}

# Specialists whose text starts "decide who among you ..." (seed 000): the group may decline
# them (``--specialist-use helpful``); the others act on everyone after the deal.
GROUP_DECIDED: tuple[str, ...] = ("informant", "getaway-driver", "mastermind", "hacker", "jack", "muscle")

CARD_SUMMARIES: dict[str, str] = {
    "quick-access": "no white chips: deal pockets and go straight to the flop round",
    "noise-sensors": "the 1-star chips of rounds 1-3 cannot change hands once taken",
    "motion-detector": "a J/Q/K on the flop: the white 1-star holder redraws their pocket",
    "retina-scan": "the others must name a value the top red holder holds",
    "hasty-getaway": "no orange chips: turn card then straight to the river round",
    "ventilation-shaft": "the top chips of rounds 1-3 cannot change hands once taken",
    "laser-tripwires": "no J/Q/K on the flop: the top white holder redraws their pocket",
    "blackout": "earlier rounds' chips are discarded at the start of each round",
    "fingerprint-scan": "the others must name the top red holder's hand ranking",
    "security-cameras": "three pocket cards each; best five of all eight cards",
    "informant": "one player secretly shows one pocket card to another",
    "getaway-driver": "one player announces their current hand ranking",
    "investor": "after the deal everyone announces how many J/Q/K they hold",
    "mastermind": "one player announces how many cards of a chosen value they hold",
    "hacker": "one player draws a card, then discards one pocket card",
    "coordinator": "after the deal everyone passes one pocket card to the left",
    "jack": "one player adds the suitless Jack, then discards one pocket card",
    "math-whiz": "after the deal everyone announces their pocket sum (J/Q/K=10, A=11)",
    "con-artist": "after the deal all pockets are gathered, shuffled and redealt",
    "muscle": "its holder beats every hand of the same ranking at the showdown",
}


def challenge_mask(names: tuple[str, ...]) -> int:
    """Bit mask (bit k = challenge number k) of challenge names; unknown names are a UserError."""
    mask = 0
    for name in names:
        if name not in CHALLENGES:
            raise UserError(f"unknown challenge {name!r}; choose from: {', '.join(CHALLENGES)}")
        mask |= 1 << CHALLENGES[name]
    return mask


@kernel(inline="always")
def has_challenge(mask: int, number: int) -> bool:
    """Is challenge ``number`` (1..10) active in the heist's challenge mask?"""
    return (mask >> number) & 1 == 1


@kernel(inline="always")
def card_rank(card: int) -> int:
    """Rank 0..12 of a card code (the suitless Jack is a Jack)."""
    return JACK_RANK if card == SUITLESS_JACK else card >> 2


# ---------------------------------------------------------------- challenges


@kernel
def round_has_chips(mask: int, round_index: int) -> bool:
    """Quick Access (1) removes the white round (0); Hasty Getaway (5) the orange round (2)."""
    if round_index == 0 and has_challenge(mask, 1):
        return False
    if round_index == 2 and has_challenge(mask, 5):
        return False
    return True


@kernel
def locked_chips(mask: int, round_index: int, players: int) -> tuple[int, int]:
    """Chips that lock on first take this round: (bottom star or 0, top star or 0).

    Noise Sensors (2): the 1-star chips of rounds 1-3; Ventilation Shaft (6): the highest chips
    of rounds 1-3. The red round never locks.
    """
    if round_index > 2:
        return 0, 0
    bottom = 1 if has_challenge(mask, 2) else 0
    top = players if has_challenge(mask, 6) else 0
    return bottom, top


@kernel(refcounts=False)
def flop_has_face_card(flop: np.ndarray) -> bool:
    """Is at least one of the three flop cards a J, Q or K?"""
    for card in flop[:3]:
        rank = card_rank(card)
        if rank == 9 or rank == 10 or rank == 11:
            return True
    return False


@kernel(refcounts=False)
def redraw_star(mask: int, flop: np.ndarray, players: int) -> int:
    """White chip whose holder must redraw after the flop, or 0.

    Motion Detector (3): a J/Q/K on the flop -> the white 1-star holder. Laser Tripwires (7):
    no J/Q/K on the flop -> the top white holder. If both are active only one can trigger.
    """
    face = flop_has_face_card(flop)
    if has_challenge(mask, 3) and face:
        return 1
    if has_challenge(mask, 7) and not face:
        return players
    return 0


@kernel
def blackout_hides_history(mask: int) -> bool:
    """Blackout (8): earlier rounds' chips are gone from the table at the start of each round."""
    return has_challenge(mask, 8)


@kernel
def pocket_size(mask: int) -> int:
    """Security Cameras (10): three pocket cards instead of two."""
    return 3 if has_challenge(mask, 10) else 2


@kernel
def retina_scan_passes(pocket: np.ndarray, named_rank: int) -> bool:
    """Retina Scan (4): does the top red holder hold at least one card of the named value?"""
    for card in pocket:
        if card >= 0 and card_rank(card) == named_rank:
            return True
    return False


@kernel(inline="always")
def fingerprint_ranking(score: int) -> int:
    """Fingerprint Scan (9): the ranking the others name, "from high card to straight flush"
    (0..8): a royal flush is named as a straight flush."""
    return min(category_of_score(score), STRAIGHT_FLUSH)


@kernel
def fingerprint_scan_passes(final_score: int, named_ranking: int) -> bool:
    """Fingerprint Scan (9): is the top red holder's ranking (0..8) the named one?"""
    return fingerprint_ranking(final_score) == named_ranking


# ---------------------------------------------------------------- specialists


@kernel
def investor_face_count(pocket: np.ndarray) -> int:
    """Investor (3): number of J, Q, K among the pocket cards (the suitless Jack is a J)."""
    count = 0
    for card in pocket:
        if card >= 0:
            rank = card_rank(card)
            if rank == 9 or rank == 10 or rank == 11:
                count += 1
    return count


@kernel
def math_whiz_total(pocket: np.ndarray) -> int:
    """Math Whiz (8): pocket sum with 2..10 at face value, J/Q/K = 10 and A = 11."""
    total = 0
    for card in pocket:
        if card >= 0:
            rank = card_rank(card)
            if rank == ACE_RANK:
                total += 11
            elif rank >= 8:
                total += 10
            else:
                total += rank + 2
    return total


@kernel
def mastermind_count(pocket: np.ndarray, asked_rank: int) -> int:
    """Mastermind (4): how many pocket cards have the asked value."""
    count = 0
    for card in pocket:
        if card >= 0 and card_rank(card) == asked_rank:
            count += 1
    return count


@kernel
def getaway_driver_category(score: int) -> int:
    """Getaway Driver (2): the announced ranking (0..9) of the current best hand, no details."""
    return category_of_score(score)


@kernel
def coordinator_pass(pockets: np.ndarray, players: int, passed: np.ndarray) -> None:
    """Coordinator (6): everyone passes ``passed[p]`` (a pocket slot) to the player on the left.

    Player ``p``'s left neighbour is ``(p + 1) % players``; the passed card lands in the slot the
    receiver gave away, so every pocket keeps its size. ``passed`` is overwritten with the card
    codes that moved (what each passer knows about their neighbour).
    """
    moving = np.empty(players, dtype=np.int64)
    for p in range(players):
        moving[p] = pockets[p, passed[p]]
    for p in range(players):
        receiver = (p + 1) % players
        pockets[receiver, passed[receiver]] = moving[p]
    for p in range(players):
        passed[p] = moving[p]


@kernel
def con_artist_redeal(pockets: np.ndarray, players: int, size: int, order: np.ndarray) -> None:
    """Con Artist (9): gather the dealt pockets and redeal them in the shuffled ``order``."""
    pool = np.empty(players * size, dtype=np.int64)
    for p in range(players):
        for s in range(size):
            pool[p * size + s] = pockets[p, s]
    for k in range(players * size):
        pockets[k // size, k % size] = pool[order[k]]


@kernel(refcounts=False)
def swap_in_card(pocket: np.ndarray, size: int, new_card: int, drop_slot: int) -> int:
    """Hacker (5) / Jack (7): add ``new_card`` then discard slot ``drop_slot`` (``size`` = the
    new card itself, which is then simply not kept). Returns the discarded card."""
    if drop_slot == size:
        return new_card
    dropped = pocket[drop_slot]
    pocket[drop_slot] = new_card
    return dropped


# ---------------------------------------------------------------- specialists: use and effects


@kernel(refcounts=False)
def best_drop_slot(
    pocket: np.ndarray, size: int, new_card: int, board: np.ndarray, shown: int, may_drop_new: bool
) -> int:
    """Which card to discard after adding ``new_card`` (slot ``size`` = the new card itself,
    only when ``may_drop_new``: Hacker always, Jack under the "discard" reading): the choice
    that leaves the strongest current hand (the user sees their cards and the board). Each
    choice is rated with the new card in its slot of ``pocket``, put back after (``pocket``
    ends as it came)."""
    best_slot = size
    best_value = strength(pocket, size, board, shown) if may_drop_new else np.int64(-1)
    for slot in range(size):
        kept = pocket[slot]
        pocket[slot] = new_card
        value = strength(pocket, size, board, shown)
        pocket[slot] = kept
        if value > best_value:
            best_value = value
            best_slot = slot
    return best_slot


@kernel
def key_card_slot(pocket: np.ndarray, size: int, board: np.ndarray, shown: int) -> int:
    """The pocket card the hand depends on most: without it the rest is weakest (ties: the
    higher card). This is the card an Informant shows."""
    rest = np.empty(MAX_POCKET, dtype=np.int64)
    best_slot = 0
    best_loss = 1 << 62
    for slot in range(size):
        k = 0
        for s in range(size):
            if s != slot:
                rest[k] = pocket[s]
                k += 1
        if shown > 0:
            remaining = hand_score(rest, size - 1, board, shown)
        else:
            remaining = card_rank(rest[0])
        if remaining < best_loss or (remaining == best_loss and card_rank(pocket[slot]) > card_rank(pocket[best_slot])):
            best_loss = remaining
            best_slot = slot
    return best_slot


GROUP_SPECIALISTS = (
    INFORMANT,
    GETAWAY_DRIVER,
    MASTERMIND,
    HACKER,
    JACK,
    MUSCLE,
)  # used "at any time" by a player the group chooses


@kernel
def use_group_specialist(
    specialist: int,
    r: int,
    chips: np.ndarray,
    players: int,
    pockets: np.ndarray,
    size: int,
    board: np.ndarray,
    shown: int,
    deck: np.ndarray,
    draw: int,
    boost_star_top: bool,
    hold_cards: np.ndarray,
    count: int,
    public_ok: np.ndarray,
    jack_stays: bool,
    forced_said: int,
) -> tuple[int, int, int, int]:
    """The group plays a specialist at the start of round ``r`` (seed 000, "THẺ CHUYÊN GIA"
    2, 4, 5, 7, 10; who uses it is the model's rule, digest "Cards"; the Informant is played
    in the chip dance instead, see :func:`informant_pair`). Information goes into
    ``public_ok`` (announcement filters over the holdings; a single column when no model reads
    them); ``forced_said`` >= 0 replaces the announcement (replay, see :func:`play_heist`).

    Returns (user seat, detail: announced value / dropped slot, next draw index, Muscle seat
    or -1).
    """
    middle = (players + 1) // 2
    if specialist == GETAWAY_DRIVER or specialist == MASTERMIND:  # announcements by the middle chip holder
        user = holder_of(chips, r, middle, players, 0)
        asked = 0  # Mastermind asks about the highest value on the board
        for k in range(shown):
            asked = max(asked, card_rank(board[k]))
        if forced_said >= 0:  # replay (the swap test): the public record is given
            said = forced_said
        elif specialist == GETAWAY_DRIVER:
            said = getaway_driver_category(hand_score(pockets[user], size, board, shown))
        else:
            said = mastermind_count(pockets[user], asked)
        for h in range(count if public_ok.shape[1] == count else 0):  # only bayes listens
            if specialist == GETAWAY_DRIVER:
                heard = getaway_driver_category(hand_score(hold_cards[h], size, board, shown))
            else:
                heard = mastermind_count(hold_cards[h], asked)
            public_ok[user, h] = public_ok[user, h] and heard == said
        return user, said, draw, -1
    if specialist == HACKER or specialist == JACK:  # Hacker / Jack: one player improves
        user = holder_of(chips, r, players if boost_star_top else 1, players, 0)
        if specialist == HACKER:
            new_card = deck[draw]
            draw += 1
        else:
            new_card = SUITLESS_JACK
        slot = best_drop_slot(pockets[user], size, new_card, board, shown, specialist == HACKER or not jack_stays)
        swap_in_card(pockets[user], size, new_card, slot)
        # The user keeps the best hand, so it only got stronger: the earlier chips stay as
        # (conservative) evidence about it for the bayes model.
        return user, slot, draw, -1
    user = holder_of(chips, r, players, players, 0)  # Muscle: the latest top chip holder
    return user, -1, draw, user
