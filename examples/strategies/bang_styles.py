"""Role styles for Bang! written by an outside review of the balance claims: each is the
tuned bot with its own idea of whom to hurt (``hostility``); every other decision is the
tuned bot's, and only the seat's public view is read.

Seat one in every seat of its role beside tuned bots, for example
``cardsim bang run --players 6 --bots "sheriff=tuned,deputy=tuned,renegade=tuned,outlaw=examples/strategies/bang_styles.py:LongOutlaw"``.
"""

from cardsim.sims.bang.builtin import NEVER, BuiltinBot
from cardsim.sims.bang.strategy import OUTLAW, RENEGADE


def wound(view, target):
    """A small pull towards the wounded: 0.3 per life the target has lost."""
    return 0.3 * (view.max_life[target] - view.life[target])


class _Style(BuiltinBot):
    """The tuned bot, with :meth:`mine` deciding whom to hurt when the seat holds ``ROLE``."""

    ROLE = -1

    def __init__(self):
        super().__init__("tuned")

    def hostility(self, view, weights, suspect, target):
        if view.role != self.ROLE or target == view.seat or not view.alive[target]:
            return super().hostility(view, weights, suspect, target)
        return self.mine(view, weights, suspect, target)


class LongOutlaw(_Style):
    """Outlaw who plays long: strips the Sheriff's helpers first (lawful-looking players) and
    shoots the Sheriff only once he is down to 2 life; never a fellow suspect."""

    ROLE = OUTLAW

    def mine(self, view, weights, suspect, target):
        if target == view.sheriff:
            return 20 if view.life[target] <= 2 else 1.0 + wound(view, target)
        if suspect[target] > 0:
            return NEVER
        return 6 - suspect[target] + wound(view, target)


class WildRenegade(_Style):
    """Renegade played as a beginner's Outlaw: hits the Sheriff (then the lawful-looking)
    while any Outlaw lives, then whoever is left, the Sheriff last."""

    ROLE = RENEGADE

    def mine(self, view, weights, suspect, target):
        if view.outlaws_alive == 0:
            if target == view.sheriff:
                return 10 + wound(view, target) if view.living == 2 else NEVER
            return 10 + wound(view, target)
        if target == view.sheriff:
            return 20 + wound(view, target)
        return 5 - suspect[target] + wound(view, target)
