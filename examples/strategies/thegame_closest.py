"""A first strategy of your own for The Game: each card to the pile it fits most closely
(backwards tricks first), only the minimum; it tells the team which piles it holds a close card
for, and keeps off the piles a teammate asked for unless nothing else is as close."""


def gap(card, pile, top):
    """How far the card moves the pile (a backwards trick is -10: it moves the pile back)."""
    return card - top if pile < 2 else top - card


class Closest:
    def play(self, view, legal):
        if view.to_play == 0:
            return None  # the minimum is played: end the turn
        asked = {pile for piles in view.signals for pile in piles}
        return min(legal, key=lambda o: gap(o[0], o[1], view.piles[o[1]]) + 3 * (o[1] in asked))

    def signal(self, view, legal):
        return tuple(pile for pile in range(4)
                     if any(gap(card, pile, view.piles[pile]) in (-10, 1, 2) for card in view.hand))
