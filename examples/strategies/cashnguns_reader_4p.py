# An outside check's reply to the shipped 4-player score/+$5,000 mix (recorded as beyond_space).
"""Card reader vs the 'converged' Cash'n Guns mixes (outside check; public info only).
Each opponent's card is predicted from public record under every mix-member card rule
(late/schedule: Clicks for the first five cards played; bigpot: loaded when loot >= pot x
expected, replayed from remembered loot history; safe: loaded when my counted loaded chance
<= safe). Lie down iff any aimer on me could be loaded under some member rule, or (shame>0)
the share looks below the shame value. Fire my loaded cards in rounds FIRE at the richest."""

def loaded_chance(rev):
    c, b, x = rev
    un = 8 - c - b - x
    return 0.0 if un <= 0 else (3 - b - x) / un


class Reader:
    types = ()          # ('late',), ('bigpot', pot), ('safe', thr, read)
    fire = (0, 1, 2)
    aim_rule = "leader"
    share_lie = True

    def __init__(self):
        self.ratio = {}

    def _played(self, view, s):
        return sum(1 for r in range(view.round) if r < len(view.aims) and view.aims[r][s] >= 0)

    def _my_loaded_est(self, view, read):
        rev = view.revealed[view.seat]
        if read and rev[0] > 0 and rev[1] + rev[2] == 0:
            return 0.0 if self._played(view, view.seat) < 5 else 1.0
        return loaded_chance(rev)

    def _may_load(self, view, s):
        played = self._played(view, s)
        for t in self.types:
            if t[0] == "late":
                if played >= 5:
                    return True
            elif t[0] == "bigpot":
                pot = t[1]
                loaded, clicks = 3, 5
                for r in range(view.round):
                    if r < len(view.aims) and view.aims[r][s] >= 0:
                        big = self.ratio.get(r, 1.0) >= pot
                        if big and loaded > 0:
                            loaded -= 1
                        elif clicks > 0:
                            clicks -= 1
                        else:
                            loaded -= 1
                big = view.loot_value >= pot * view.expected_loot
                if (big and loaded > 0) or clicks <= 0:
                    return True
            elif t[0] == "safe":
                if self._my_loaded_est(view, t[2]) <= t[1] or played >= 5:
                    return True
        return False

    def aim(self, view, legal):
        if view.round == 0:
            self.ratio = {}
        self.ratio[view.round] = view.loot_value / view.expected_loot if view.expected_loot > 0 else 1.0
        if self.aim_rule == "leader":
            return max(legal, key=lambda s: (view.money[s], view.wounds[s], -s))
        if self.aim_rule == "kill":
            return max(legal, key=lambda s: (view.wounds[s] >= 2, view.money[s], -s))
        return legal[int(view.u * len(legal))]

    def card(self, view, legal):
        if view.round in self.fire or 0 not in legal:
            for c in (2, 1, 0):
                if c in legal:
                    return c
        return 0 if 0 in legal else max(legal)

    def lie_down(self, view, legal):
        for s, a in enumerate(view.targets):
            if a == view.seat and s != view.seat and view.alive[s] and self._may_load(view, s):
                return True
        if self.share_lie and view.shame_value > 0:
            n = sum(1 for a in view.alive if a)
            if view.loot_value / n < view.shame_value:
                return True
        return False


LATE5 = (("late",), ("safe", 0.2679, 0))
LATE6 = (("late",), ("bigpot", 1.5), ("safe", 0.225, 0), ("safe", 0.1833, 0), ("safe", 0.0, 0))
BP4 = (("bigpot", 1.05),)

class R5(Reader): types = LATE5
class R5late(Reader): types = LATE5; fire = (5, 6, 7)
class R5mid(Reader): types = LATE5; fire = (2, 3, 4)
class R6(Reader): types = LATE6
class R6late(Reader): types = LATE6; fire = (5, 6, 7)
class R6mid(Reader): types = LATE6; fire = (2, 3, 4)
class R4(Reader): types = BP4
class R4late(Reader): types = BP4; fire = (5, 6, 7)
class R4mid(Reader): types = BP4; fire = (2, 3, 4)
class R5none(Reader): types = LATE5; fire = ()
class R5nolie(Reader): types = (); fire = ()
class R5noshare(Reader): types = LATE5; fire = (); share_lie = False


class RB(Reader):
    """Fire like bigpot (loot >= pot x expected) instead of fixed rounds."""
    pot = 1.05
    def card(self, view, legal):
        big = view.loot_value >= self.pot * view.expected_loot
        order = (2, 1, 0) if (big or 0 not in legal) else (0, 1, 2)
        return next(c for c in order if c in legal)

class R4b(RB): types = BP4; aim_rule = "random"
class R4bns(RB): types = BP4; aim_rule = "random"; share_lie = False
class R4bl(RB): types = BP4; aim_rule = "leader"
class R4b12(RB): types = BP4; aim_rule = "random"; pot = 1.2


class D1(RB):
    """Twin of d1 (bigpot 1.05, random aim, lie at 2 guns) with reader switches."""
    types = BP4; aim_rule = "random"
    stand_clicks = False   # stand under 2+ guns when none can be loaded
    lie_single = False     # lie under one gun that can be loaded
    lie_one_any = False
    def lie_down(self, view, legal):
        me = view.seat
        aimers = [s for s, a in enumerate(view.targets) if a == me and s != me and view.alive[s]]
        loaded = [s for s in aimers if self._may_load(view, s)]
        if len(aimers) >= 2:
            return not (self.stand_clicks and not loaded)
        if len(aimers) == 1:
            return bool(self.lie_single and loaded) or self.lie_one_any
        return False

class D1a(D1): stand_clicks = True
class D1b(D1): lie_single = True
class D1c(D1): lie_one_any = True


class D1x(D1a):
    """D1a plus: an unaimed lie when the loot per living player is below k x shame."""
    k = 1.0
    def lie_down(self, view, legal):
        n = sum(1 for a in view.alive if a)
        if view.loot_value / n < self.k * view.shame_value:
            return True
        return super().lie_down(view, legal)

class D1x1(D1x): k = 1.0
class D1x15(D1x): k = 1.5
class D1p12(D1a): pot = 1.2
class D1p09(D1a): pot = 0.9
class D1lead(D1a): aim_rule = "leader"
