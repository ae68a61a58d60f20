"""The Game's built-in ``greedy`` strategy, written against the user-strategy interface.

It plays exactly like the batch kernel's greedy on every deal (a test compares them game by
game): at the start of its turn it picks the minimum's cards one at a time, each time the
legal play of smallest distance to the pile top (a backwards trick counts -10; ties go to the
card held first, then the lower pile); when that order gets stuck although some order works,
it plays the order of smallest total distance instead. It never plays more than the minimum,
never talks, and so seat 0 starts.
"""

BACKWARDS_STEP = 10


def legal(card, pile, top, trick_ok):
    """Whether ``card`` may go on ``pile`` showing ``top``."""
    if pile < 2:
        return card > top or (trick_ok and card == top - BACKWARDS_STEP)
    return card < top or (trick_ok and card == top + BACKWARDS_STEP)


def gap(card, pile, top):
    """Distance moved on the pile; a backwards trick counts -10."""
    if pile < 2:
        return card - top if card > top else -BACKWARDS_STEP
    return top - card if card < top else -BACKWARDS_STEP


def one_at_a_time(hand, piles, count, trick_ok):
    """``count`` plays chosen one by one, each of smallest gap; None when this order sticks."""
    tops, used, plan = list(piles), set(), []
    for _ in range(count):
        best = None
        for slot, card in enumerate(hand):
            if slot in used:
                continue
            for pile in range(4):
                if legal(card, pile, tops[pile], trick_ok):
                    cost = gap(card, pile, tops[pile])
                    if best is None or cost < best[0]:
                        best = (cost, slot, pile)
        if best is None:
            return None
        _, slot, pile = best
        used.add(slot)
        tops[pile] = hand[slot]
        plan.append((hand[slot], pile))
    return plan


def cheapest_order(hand, piles, count, trick_ok):
    """The sequence of ``count`` plays of smallest total gap (first found among equals), over
    every order with piles visited in non-decreasing order (plays on different piles commute)."""
    best = [None, None]

    def search(depth, first_pile, used, tops, total, plan):
        for pile in range(first_pile, 4):
            top = tops[pile]
            if pile == 1 and first_pile == 0 and tops[0] == top:
                continue  # two ascending piles showing the same top are interchangeable
            if pile == 3 and first_pile <= 2 and tops[2] == top:
                break  # ... and so are two such descending piles
            for slot, card in enumerate(hand):
                if slot in used or not legal(card, pile, top, trick_ok):
                    continue
                cost = total + gap(card, pile, top)
                step = plan + [(card, pile)]
                if depth + 1 == count:
                    if best[0] is None or cost < best[0]:
                        best[0], best[1] = cost, step
                else:
                    tops[pile] = card
                    search(depth + 1, pile, used | {slot}, tops, cost, step)
                    tops[pile] = top

    search(0, 0, frozenset(), list(piles), 0, [])
    return best[1]


class Greedy:
    """Every seat: the minimum, card by card, closest to its pile."""

    def __init__(self):
        self.plan = []

    def play(self, view, legal_choices):
        if view.to_play == 0:
            return None
        if view.played_this_turn == 0:
            hand, piles = list(view.hand), list(view.piles)
            self.plan = (one_at_a_time(hand, piles, view.to_play, view.backwards_trick)
                         or cheapest_order(hand, piles, view.to_play, view.backwards_trick))
        return self.plan[view.played_this_turn]
