"""The tuned bot as a Renegade with two structural rules, in 20 lines.

1. Never aim at the Sheriff while anyone else lives.
2. Once the living Deputies are at least as many as the living Outlaws, hit the lawful-looking
   players (the Sheriff's side must not win before the Renegade is alone with him); before,
   hit the outlaw-looking ones.

Everything else is the tuned bot's (``BuiltinBot``, the built-in bots in plain Python): only
how much the Renegade wants to hurt each player changes.
"""

from cardsim.sims.bang.builtin import NEVER, BuiltinBot
from cardsim.sims.bang.policies import P_UNKNOWN, P_WOUNDED
from cardsim.sims.bang.strategy import RENEGADE


class TwoRules(BuiltinBot):
    def __init__(self):
        super().__init__("tuned")

    def hostility(self, view, w, suspect, t):
        if view.role != RENEGADE or t == view.seat or not view.alive[t]:
            return super().hostility(view, w, suspect, t)
        wounded = w[P_WOUNDED] * (view.max_life[t] - view.life[t])
        if t == view.sheriff:  # rule 1: the Sheriff last
            return 1.0 + wounded if view.living == 2 else NEVER
        if view.outlaws_alive == 0:
            return 2.0 + wounded
        outlaw_looking = suspect[t]  # from the public attack record (> 0: hostile to the Sheriff)
        if self.deputies_alive(view) >= view.outlaws_alive:  # rule 2
            return -outlaw_looking + w[P_UNKNOWN] + wounded
        return outlaw_looking + w[P_UNKNOWN] + wounded
