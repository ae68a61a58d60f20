"""A Cash'n Guns strategy in a few lines (see docs/strategies.md, "Cash'n Guns").

Run it: cardsim cashnguns evaluate --strategy examples/strategies/cashnguns_patient.py:Patient --players 4
"""


class Patient:
    """Aims at the richest, plays Clicks until round 6, lies down under two guns."""

    def aim(self, view, legal):
        return max(legal, key=lambda seat: (view.money[seat], -seat))

    def card(self, view, legal):
        return 0 if 0 in legal and view.round < 5 else max(legal)

    def lie_down(self, view, legal):
        return sum(1 for aim in view.targets if aim == view.seat) >= 2
