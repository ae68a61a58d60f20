"""Renegade (outside checker): never the Sheriff while others live; hit the side that is ahead."""
from cardsim.sims.bang.builtin import NEVER, BuiltinBot
from cardsim.sims.bang.strategy import RENEGADE

class Balancer(BuiltinBot):
    def __init__(self):
        super().__init__("tuned")            # every other decision: the tuned bot's

    def hostility(self, view, w, suspect, t):
        if view.role != RENEGADE or t == view.seat or not view.alive[t]:
            return super().hostility(view, w, suspect, t)
        s, me = view.sheriff, view.seat
        wound = 0.2 * (view.max_life[t] - view.life[t])
        if t == view.sheriff:
            return 10 + wound if view.living == 2 else NEVER
        if view.outlaws_alive == 0:
            return 10 + wound
        law_ahead = view.life[s] >= 3 or view.outlaws_alive == 1 and view.life[s] >= 2
        side = -suspect[t] if law_ahead else suspect[t]     # suspect > 0: outlaw-looking
        return 5 + side + 0.5 * view.attacks[t][me] + wound
