"""The rules of The Game as small pure functions over plain integers.

Every function is compiled with numba so the batch kernel calls exactly the code the tests
check; each one is also callable from Python. Source of every rule:
``../shared/seeds/001_60c4279a89d01a35.txt`` (sections THÀNH PHẦN, THIẾT LẬP, LƯỢT CHƠI,
THỦ THUẬT ĐI NGƯỢC, KHI HẾT CHỒNG RÚT, KẾT THÚC TRÒ CHƠI, ĐÁNH GIÁ KẾT QUẢ); digest in
``seeds/the_game.md``.
"""

from __future__ import annotations

from cardsim.sims.core.jit import kernel

LOWEST_CARD = 2
HIGHEST_CARD = 99
DECK_SIZE = HIGHEST_CARD - LOWEST_CARD + 1  # 98 number cards, each once
ASCENDING_START = 1
DESCENDING_START = 100
N_PILES = 4  # piles 0 and 1 ascend from 1, piles 2 and 3 descend from 100
BACKWARDS_STEP = 10
EXCELLENT_MAX_LEFT = 10
MIN_PLAYERS = 1
MAX_PLAYERS = 5
MAX_HAND = 8


@kernel(inline="always")
def rules_hand_size(players: int) -> int:
    """Cards dealt and refilled to: 8 for one player, 7 for two, 6 for three to five (THIẾT LẬP)."""
    if players == 1:
        return 8
    if players == 2:
        return 7
    return 6


@kernel(inline="always")
def is_ascending(pile: int) -> bool:
    """Piles 0 and 1 sit next to the two 1-cards and ascend; piles 2 and 3 descend (THIẾT LẬP)."""
    return pile < 2


@kernel(inline="always")
def start_top(pile: int) -> int:
    """The foundation card a pile starts on: 1 for ascending piles, 100 for descending ones."""
    return ASCENDING_START if pile < 2 else DESCENDING_START


@kernel(refcounts=False)
def is_backwards_trick(card: int, pile: int, top: int) -> bool:
    """Exactly 10 below the top of an ascending pile, or exactly 10 above a descending one."""
    if pile < 2:
        return card == top - BACKWARDS_STEP
    return card == top + BACKWARDS_STEP


@kernel(refcounts=False)
def can_play(card: int, pile: int, top: int, backwards_trick: bool) -> bool:
    """Whether ``card`` may go on ``pile`` showing ``top`` (LƯỢT CHƠI, THỦ THUẬT ĐI NGƯỢC).

    Ascending piles take a strictly higher card, descending piles a strictly lower one; with the
    backwards trick enabled a card exactly 10 the other way is also legal.
    """
    if pile < 2:
        if card > top:
            return True
    elif card < top:
        return True
    return backwards_trick and is_backwards_trick(card, pile, top)


@kernel(inline="always")
def required_plays(draw_left: int, min_cards: int) -> int:
    """Cards a turn must play: ``min_cards`` (2 in the rules) while the draw pile has cards,
    1 once it is empty (LƯỢT CHƠI, KHI HẾT CHỒNG RÚT)."""
    if draw_left > 0:
        return min_cards
    return 1


@kernel(inline="always")
def refill_count(hand_count: int, hand_size: int, draw_left: int) -> int:
    """Cards drawn after a turn: back up to the hand size, or what is left of the draw pile."""
    missing = hand_size - hand_count
    if missing <= 0:
        return 0
    return min(missing, draw_left)


@kernel(inline="always")
def is_win(cards_left: int) -> bool:
    """The team wins when all 98 cards are on the piles (MỤC TIÊU, KẾT THÚC TRÒ CHƠI)."""
    return cards_left == 0


@kernel(inline="always")
def is_excellent(cards_left: int) -> bool:
    """Grade of the seed's ĐÁNH GIÁ KẾT QUẢ: 10 or fewer cards left (a win counts too)."""
    return cards_left <= EXCELLENT_MAX_LEFT
