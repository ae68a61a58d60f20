"""A first strategy of your own for The Game: each card to the pile it fits most closely
(backwards tricks first), only the minimum; it tells the team which piles it holds a close card
for, and keeps off the piles a teammate asked for unless nothing else is as close."""


def gap(card, pile, top):
    # how far the card moves the pile; a backwards trick is -10 (it moves the pile back)
    return card - top if pile < 2 else top - card


class Closest:
    def play(self, view, legal):
        if view.to_play == 0:
            return None  # the minimum is played: end the turn
        asked = {pile for piles in view.signals for pile in piles}
        return min(legal, key=lambda o: gap(*o, view.piles[o[1]]) + 3 * (o[1] in asked))

    def signal(self, view, legal):
        close = (-10, 1, 2)  # a trick, or one or two steps away
        return tuple(p for p in range(4)
                     if any(gap(c, p, view.piles[p]) in close for c in view.hand))
