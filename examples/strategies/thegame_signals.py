"""The Game's built-in ``planner`` and ``signals`` strategies, written against the user-strategy
interface (``seeds/the_game.md``, Strategies). They play exactly like the batch kernel's on
every deal (a test compares them game by game).

A play's cost is its *effective gap*: how many still-unplayed cards it makes unreachable on its
pile (a backwards trick scores minus the cards it reopens, minus a bonus). Each turn plays the
cheapest sequence of the minimum count (plus a penalty for spending the near card of a pair 10
apart without its partner), then extra cards while their cost stays within a reach. ``Signals``
adds the talk the rules allow: a seat says "I have something good for pile N" when it holds a
trick or a card that skips at most one unplayed card there, the player to move pays a penalty
for a costly play on such a pile, and the seat with the cheapest opening starts.
"""

PAIR_PENALTY, TRICK_BONUS, SIGNAL_THRESHOLD, SIGNAL_PENALTY = 2.0, 0.5, 1.0, 3.0
STEP = 10


def legal(card, pile, top, trick_ok):
    if pile < 2:
        return card > top or (trick_ok and card == top - STEP)
    return card < top or (trick_ok and card == top + STEP)


def is_trick(card, pile, top):
    return card == top - STEP if pile < 2 else card == top + STEP


def below_table(view):
    """below[x]: unplayed cards (not on a pile) of value <= x, for x = 0..100."""
    down = {card for _, card, _ in view.played}
    below, running = [], 0
    for x in range(101):
        running += 2 <= x <= 99 and x not in down
        below.append(running)
    return below


def effective_gap(card, pile, top, below):
    if pile < 2:
        if card > top:
            return float(below[card - 1] - below[top])
        return -float(below[top - 1] - below[card]) - TRICK_BONUS
    if card < top:
        return float(below[top - 1] - below[card])
    return -float(below[card - 1] - below[top]) - TRICK_BONUS


def partner(card, pile):
    """The card that would later make ``card`` a backwards trick on this pile's direction."""
    return card + STEP if pile < 2 else card - STEP


def cheapest(hand, piles, count, trick_ok, below, penalty):
    """(cost, plays) of the cheapest sequence of ``count`` plays, the first found among equals,
    over every order with piles in non-decreasing order (plays on different piles commute)."""
    best = [None, None]

    def search(first_pile, used, tops, total, plays):
        for pile in range(first_pile, 4):
            top = tops[pile]
            if pile == 1 and first_pile == 0 and tops[0] == top:
                continue  # two piles going the same way showing the same top are one choice
            if pile == 3 and first_pile <= 2 and tops[2] == top:
                break
            for slot, card in enumerate(hand):
                if slot in used or not legal(card, pile, top, trick_ok):
                    continue
                cost = effective_gap(card, pile, top, below)
                cost += penalty[pile] if cost > 0.0 else 0.0
                step = plays + [(slot, card, pile, not is_trick(card, pile, top))]
                if len(step) == count:
                    end = total + cost
                    held = {c for s, c in enumerate(hand) if s not in used and s != slot}
                    for _, played, on, normal in step:
                        if normal and partner(played, on) in held:
                            end += PAIR_PENALTY
                    if best[0] is None or end < best[0]:
                        best[0], best[1] = end, [(c, p) for _, c, p, _ in step]
                else:
                    tops[pile] = card
                    search(pile, used | {slot}, tops, total + cost, step)
                    tops[pile] = top

    search(0, frozenset(), list(piles), 0.0, [])
    return best


def extra_cost(card, pile, view, below, penalty):
    top = view.piles[pile]
    cost = effective_gap(card, pile, top, below)
    cost += penalty[pile] if cost > 0.0 else 0.0
    if is_trick(card, pile, top):
        return cost
    far = partner(card, pile)
    back = 2 * card - far  # the card 10 the other way: a trick right after this play
    if view.backwards_trick and back in view.hand:
        cost += effective_gap(back, pile, card, below)
    elif far in view.hand:
        cost += PAIR_PENALTY
    return cost


class Planner:
    """The kernel's planner: the cheapest mandatory sequence, then cheap extras."""

    talks = False

    def __init__(self):
        self.plan = []

    def penalty(self, view):
        if not self.talks:
            return (0.0,) * 4
        asked = {pile for piles in view.signals for pile in piles}
        return tuple(SIGNAL_PENALTY if pile in asked else 0.0 for pile in range(4))

    def play(self, view, legal_choices):
        below, penalty = below_table(view), self.penalty(view)
        if view.played_this_turn == 0:
            _, self.plan = cheapest(view.hand, view.piles, view.to_play, view.backwards_trick,
                                    below, penalty)
        if view.to_play > 0:
            return self.plan[view.played_this_turn]
        early = view.players >= 3 and view.draw_left > 10  # the reach by phase (params.py)
        best, choice = None, None
        for option in legal_choices[1:]:
            cost = extra_cost(*option, view, below, penalty)
            if best is None or cost < best:
                best, choice = cost, option
        return choice if best is not None and best <= (1.0 if early else 0.0) else None


class Signals(Planner):
    """The kernel's signals: the planner plus the allowed talk."""

    talks = True

    def signal(self, view, legal_choices):
        below, said = below_table(view), []
        for pile in range(4):
            top = view.piles[pile]
            ahead = [c for c in view.hand if (c > top if pile < 2 else c < top)]
            closest = (min if pile < 2 else max)(ahead) if ahead else None
            trick = view.backwards_trick and any(is_trick(c, pile, top) for c in view.hand)
            if trick and -TRICK_BONUS <= SIGNAL_THRESHOLD or (
                    closest is not None
                    and effective_gap(closest, pile, top, below) <= SIGNAL_THRESHOLD):
                said.append(pile)
        return tuple(said)

    def opening(self, view, legal_choices):
        cost, _ = cheapest(view.hand, view.piles, view.min_cards, view.backwards_trick,
                           below_table(view), (0.0,) * 4)
        return legal_choices[-1] if cost is None else min(int(2 * cost), legal_choices[-1])
