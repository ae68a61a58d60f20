"""The built-in Cash'n Guns strategy ``counter`` written through the user-strategy interface.

It plays game for game as the compiled kernel plays ``counter`` (a test compares them): it
counts revealed cards, fires only at an opponent with no loaded card left, aims at the opponent
most likely to be holding a Click and lies down when the counted chance of a wound exceeds 1/2.
Rules: ``cardsim/sims/cashnguns/strategies.py`` (``safe``, ``clicks``, ``risk``).
"""

LOADED_IN_HAND, CARDS_IN_HAND = 3, 8


def loaded_chance(view, seat):
    """The loaded cards ``seat`` has not revealed over all the cards it has not revealed."""
    clicks, bangs, big = view.revealed[seat]
    unrevealed = CARDS_IN_HAND - clicks - bangs - big
    return 0.0 if unrevealed <= 0 else (LOADED_IN_HAND - bangs - big) / unrevealed


class Counter:
    safe, risk = 0.0, 0.5

    def aim(self, view, legal):
        values = [-loaded_chance(view, seat) for seat in legal]
        best = [seat for seat, value in zip(legal, values) if value == max(values)]
        return best[int(view.u * len(best))]

    def card(self, view, legal):
        order = (1, 2, 0) if loaded_chance(view, view.target) <= self.safe else (0, 1, 2)
        return next(card for card in order if card in legal)

    def lie_down(self, view, legal):
        p_safe, guns = 1.0, 0
        for seat, aim in enumerate(view.targets):
            if view.alive[seat] and seat != view.seat and aim == view.seat:
                guns += 1
                p_safe *= 1.0 - loaded_chance(view, seat)
        return guns >= 1 and 1.0 - p_safe > self.risk
