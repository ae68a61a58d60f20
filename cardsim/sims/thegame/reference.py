"""Plain-Python reference: a referee that replays a logged game against the rules, and a
straightforward greedy player.

Both are written independently of the batch kernel's data layout (lists, no numba) so the tests
can check the kernel against them, and ``cardsim bench thegame`` can measure the kernel's speed
against the plain-Python greedy in the same process. Rules: ``seeds/the_game.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardsim.sims.thegame.rules import (
    ASCENDING_START,
    BACKWARDS_STEP,
    DECK_SIZE,
    DESCENDING_START,
    N_PILES,
)

LOG_TURN_END = -1


class RuleViolation(AssertionError):
    """A logged game broke a rule of The Game."""


def legal(card: int, pile: int, top: int, backwards_trick: bool) -> bool:
    """Ascending piles (0, 1): higher, or exactly 10 lower; descending (2, 3): lower, or exactly
    10 higher (the trick only when enabled)."""
    if pile < 2:
        return card > top or (backwards_trick and card == top - BACKWARDS_STEP)
    return card < top or (backwards_trick and card == top + BACKWARDS_STEP)


def can_play_count(hand: list[int], piles: list[int], count: int, backwards_trick: bool) -> bool:
    """Whether some order of ``count`` plays from ``hand`` is legal (exhaustive search)."""
    if count == 0:
        return True
    for i, card in enumerate(hand):
        for pile in range(N_PILES):
            if legal(card, pile, piles[pile], backwards_trick):
                saved = piles[pile]
                piles[pile] = card
                ok = can_play_count(hand[:i] + hand[i + 1 :], piles, count - 1, backwards_trick)
                piles[pile] = saved
                if ok:
                    return True
    return False


@dataclass(frozen=True)
class Replay:
    """What the referee established about a logged game."""

    cards_left: int
    turns: int
    first_player: int
    tricks: int
    extra_plays: int


def deal_hands(deck: list[int], players: int, hand_size: int) -> tuple[list[list[int]], int]:
    """Hands dealt one block of ``hand_size`` cards per player off the top of the deck."""
    hands = [list(deck[q * hand_size : (q + 1) * hand_size]) for q in range(players)]
    return hands, players * hand_size


def replay(
    deck: list[int],
    players: int,
    hand_size: int,
    min_cards: int,
    backwards_trick: bool,
    log: list[tuple[int, int, int]],
) -> Replay:
    """Check every logged play and the end of the game against the rules; raise
    :class:`RuleViolation` on the first breach. ``log`` rows are (player, card, pile), with
    (player, 0, -1) closing each turn."""
    hands, draw_pos = deal_hands(deck, players, hand_size)
    piles = [ASCENDING_START, ASCENDING_START, DESCENDING_START, DESCENDING_START]
    turns: list[tuple[int, list[tuple[int, int]]]] = []
    current: list[tuple[int, int]] = []
    for player, card, pile in log:
        if pile == LOG_TURN_END:
            turns.append((player, current))
            current = []
        else:
            current.append((card, pile))
    if current:
        raise RuleViolation("plays after the last completed turn")
    first = turns[0][0] if turns else 0
    seat = first
    tricks = extra = 0
    for player, plays in turns:
        while not hands[seat] and draw_pos == DECK_SIZE and any(hands):
            seat = (seat + 1) % players  # empty hand after the draw pile: skipped
        if player != seat:
            raise RuleViolation(f"player {player} moved out of turn (expected {seat})")
        required = min_cards if draw_pos < DECK_SIZE else 1
        if len(plays) < required:
            raise RuleViolation(f"turn of {len(plays)} cards, minimum {required}")
        extra += len(plays) - required
        for card, pile in plays:
            if card not in hands[player]:
                raise RuleViolation(f"player {player} played {card} not in hand")
            if not legal(card, pile, piles[pile], backwards_trick):
                raise RuleViolation(f"{card} on pile {pile} showing {piles[pile]} is illegal")
            tricks += greedy_gap(card, pile, piles[pile]) == -BACKWARDS_STEP
            hands[player].remove(card)
            piles[pile] = card
        while len(hands[player]) < hand_size and draw_pos < DECK_SIZE:
            hands[player].append(deck[draw_pos])
            draw_pos += 1
        seat = (player + 1) % players
    left = sum(len(h) for h in hands) + DECK_SIZE - draw_pos
    if left:
        while not hands[seat]:
            seat = (seat + 1) % players
        required = min_cards if draw_pos < DECK_SIZE else 1
        if can_play_count(hands[seat], piles, required, backwards_trick):
            raise RuleViolation(f"game stopped although player {seat} could play {required}")
    return Replay(left, len(turns), first, tricks, extra)


def greedy_gap(card: int, pile: int, top: int) -> int:
    """Greedy's cost: distance moved, -10 for a backwards trick."""
    if (pile < 2 and card == top - BACKWARDS_STEP) or (pile >= 2 and card == top + BACKWARDS_STEP):
        return -BACKWARDS_STEP
    return card - top if pile < 2 else top - card


def cheapest_sequence(
    hand: list[int], piles: list[int], count: int, backwards_trick: bool
) -> list[tuple[int, int]] | None:
    """The cheapest (greedy gaps) legal sequence of ``count`` plays; among equals the first in
    (pile, hand position) order with piles non-decreasing, like the kernel's search."""
    best: list = [None, None]

    def visit(depth: int, first_pile: int, used: list[bool], cost: int, seq: list) -> None:
        if depth == count:
            if best[0] is None or cost < best[0]:
                best[0], best[1] = cost, list(seq)
            return
        for pile in range(first_pile, N_PILES):
            top = piles[pile]
            if pile == 1 and first_pile == 0 and piles[0] == top:
                continue
            if pile == 3 and first_pile <= 2 and piles[2] == top:
                continue
            for slot, card in enumerate(hand):
                if used[slot] or not legal(card, pile, top, backwards_trick):
                    continue
                used[slot] = True
                piles[pile] = card
                seq.append((card, pile))
                visit(depth + 1, pile, used, cost + greedy_gap(card, pile, top), seq)
                seq.pop()
                piles[pile] = top
                used[slot] = False

    visit(0, 0, [False] * len(hand), 0, [])
    return best[1]


def greedy_game(deck: list[int], players: int, hand_size: int, min_cards: int, backwards_trick: bool) -> int:
    """Play the greedy strategy in plain Python (hands kept in the kernel's slot order: a played
    card's slot is filled by the last card); returns the cards left."""
    hands, draw_pos = deal_hands(deck, players, hand_size)
    piles = [ASCENDING_START, ASCENDING_START, DESCENDING_START, DESCENDING_START]
    seat = 0
    while True:
        for _ in range(players):
            if hands[seat]:
                break
            seat = (seat + 1) % players
        else:
            return 0
        hand = hands[seat]
        required = min_cards if draw_pos < DECK_SIZE else 1
        plays = greedy_sequence(hand, piles, required, backwards_trick)
        if plays is None:
            plays = cheapest_sequence(hand, list(piles), required, backwards_trick)
        if plays is None:
            return sum(len(h) for h in hands) + DECK_SIZE - draw_pos
        for card, pile in plays:
            slot = hand.index(card)
            hand[slot] = hand[-1]
            hand.pop()
            piles[pile] = card
        while len(hand) < hand_size and draw_pos < DECK_SIZE:
            hand.append(deck[draw_pos])
            draw_pos += 1
        seat = (seat + 1) % players


def greedy_sequence(
    hand: list[int], piles: list[int], count: int, backwards_trick: bool
) -> list[tuple[int, int]] | None:
    """``count`` plays one at a time, each the smallest greedy gap (first in hand order, then
    pile order); None when that order gets stuck."""
    tops = list(piles)
    used = [False] * len(hand)
    plays = []
    for _ in range(count):
        best = None
        for slot, card in enumerate(hand):
            if used[slot]:
                continue
            for pile in range(N_PILES):
                if legal(card, pile, tops[pile], backwards_trick):
                    gap = greedy_gap(card, pile, tops[pile])
                    if best is None or gap < best[0]:
                        best = (gap, slot, pile)
        if best is None:
            return None
        _, slot, pile = best
        used[slot] = True
        tops[pile] = hand[slot]
        plays.append((hand[slot], pile))
    return plays
