"""Bang! styles no population member of the search bot plays, written by an outside review to
test how the search reads a table it cannot name. Each is the tuned bot with its own idea of
whom to hurt in one role (``Mixed``: two of them at one table); only the public view is read.

Seat one in every seat, for example
``cardsim bang compare --players 5 --bot search --against examples/strategies/bang_unseen.py:HunterOutlaw --roles sheriff``.
"""

from cardsim.sims.bang.builtin import NEVER, BuiltinBot
from cardsim.sims.bang.strategy import DUEL, OUTLAW, RENEGADE, card_kind


def wound(view, t):
    """A small pull towards the wounded: 0.3 per life the target has lost."""
    return 0.3 * (view.max_life[t] - view.life[t])


class HunterOutlaw(BuiltinBot):
    """Outlaw who hunts the Deputies first and never Duels: hits the lawful-looking players
    hardest, unknown ones next, the Sheriff only weakly while any Deputy lives (role counts
    minus revealed dead Deputies) and all-out once every Deputy is dead; never a fellow suspect
    unless he is the last Outlaw; a Duel is thrown away first."""

    def __init__(self):
        super().__init__("tuned")

    @staticmethod
    def find(view, kind):
        if kind == DUEL and view.role == OUTLAW:
            return -1
        return BuiltinBot.find(view, kind)

    def worth(self, view, w, c):
        if view.role == OUTLAW and card_kind(c) == DUEL:
            return 0.1
        return super().worth(view, w, c)

    def hostility(self, view, w, suspect, t):
        if view.role != OUTLAW or t == view.seat or not view.alive[t]:
            return super().hostility(view, w, suspect, t)
        if t == view.sheriff:
            if self.deputies_alive(view) > 0:
                return 0.5 + wound(view, t)
            return 20.0 + wound(view, t)
        if suspect[t] > 0:
            return 4.0 + wound(view, t) if view.outlaws_alive == 1 else NEVER
        if suspect[t] < 0:
            return 8.0 - suspect[t] + wound(view, t)
        return 3.0 + wound(view, t)


class GrudgeOutlaw(BuiltinBot):
    """Outlaw who holds a grudge: whoever has attacked him is his first target, 4 per attack
    (the public attack record); otherwise the Sheriff; nobody else unless he is the last
    Outlaw."""

    def __init__(self):
        super().__init__("tuned")

    def hostility(self, view, w, suspect, t):
        if view.role != OUTLAW or t == view.seat or not view.alive[t]:
            return super().hostility(view, w, suspect, t)
        grudge = 4.0 * view.attacks[t][view.seat]
        if t == view.sheriff:
            return 3.0 + grudge + wound(view, t)
        if grudge > 0:
            return 2.0 + grudge + wound(view, t)
        if view.outlaws_alive == 1:
            return 1.0 + wound(view, t)
        return NEVER


class LoyalRenegade(BuiltinBot):
    """Renegade who sides with the Sheriff until he and one other player are left beside him:
    while more than three live he hits only outlaw-looking players (and anyone who attacked
    him twice), never the Sheriff; with three left he hits the other; with two, the Sheriff."""

    def __init__(self):
        super().__init__("tuned")

    def hostility(self, view, w, suspect, t):
        if view.role != RENEGADE or t == view.seat or not view.alive[t]:
            return super().hostility(view, w, suspect, t)
        if t == view.sheriff:
            return 10.0 + wound(view, t) if view.living == 2 else NEVER
        if view.living <= 3:
            return 10.0 + wound(view, t)
        if suspect[t] > 0:
            return 4.0 + suspect[t] + wound(view, t)
        if view.attacks[t][view.seat] >= 2:
            return 3.0 + wound(view, t)
        return NEVER


class LongOutlaw3(BuiltinBot):
    """A perturbation of ``bang_styles.py:LongOutlaw``: the Sheriff is shot once he is down
    to 3 life instead of 2; everything else as that style."""

    def __init__(self):
        super().__init__("tuned")

    def hostility(self, view, weights, suspect, target):
        if view.role != OUTLAW or target == view.seat or not view.alive[target]:
            return super().hostility(view, weights, suspect, target)
        if target == view.sheriff:
            return 20 if view.life[target] <= 3 else 1.0 + wound(view, target)
        if suspect[target] > 0:
            return NEVER
        return 6 - suspect[target] + wound(view, target)


class Mixed(HunterOutlaw):
    """``HunterOutlaw``'s Outlaws and ``LoyalRenegade``'s Renegade at one table."""

    _loyal = LoyalRenegade()

    def hostility(self, view, w, suspect, t):
        if view.role == RENEGADE:
            return self._loyal.hostility(view, w, suspect, t)
        return super().hostility(view, w, suspect, t)
