"""A Renegade with the two rules of issue 37, in 20 lines.

1. Never aim at the Sheriff while anyone else lives (no Gatling, Indians! or Dynamite either).
2. While the Outlaws outnumber the living Deputies hit those who attacked the Sheriff; once the
   Deputies are as many, hit the lawful-looking players (who never did).

Plays without a target come first, then shots at the most wounded allowed target. Only ``play``
is defined: every other decision is the built-in bot's it is evaluated against.
"""

from cardsim.sims.bang.strategy import DEPUTY, DYNAMITE, END, GATLING, INDIANS, card_kind


class TwoRules:
    def play(self, view, legal):
        dead = sum(1 for q, role in enumerate(view.roles) if role == DEPUTY and not view.alive[q])
        deputies = (view.players - 3) // 2 - dead  # dealt 0, 1, 1, 2 at 4-7 players

        def allowed(play):
            if play.target < 0:
                return play.card < 0 or card_kind(play.card) not in (GATLING, INDIANS, DYNAMITE) or view.living == 2
            if play.target == view.sheriff:
                return view.living == 2  # rule 1
            lawful = view.attacks[play.target][view.sheriff] == 0
            return lawful if deputies >= view.outlaws_alive else not lawful  # rule 2

        plays = [play for play in legal if play is not END and allowed(play)]
        return min(plays, key=lambda p: (p.target >= 0, view.life[p.target]), default=END)
