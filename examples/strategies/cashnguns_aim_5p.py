# An outside check's reply to the shipped 5-player win/+$5,000 mix (recorded as beyond_space).
"""Python twin of the best searched reply (CCCCCBXB, retaliate, risk lie with read) plus
out-of-space tweaks: lie under a single certainly-loaded gun, aim/lie exceptions."""
def loaded_chance(rev):
    c, b, x = rev
    un = 8 - c - b - x
    return 0.0 if un <= 0 else (3 - b - x) / un

ORDER_SEQ = "CCCCCBXB"
KIND = {"C": 0, "B": 1, "X": 2}


class Emu:
    order = ORDER_SEQ
    risk, endgame, guns = 0.6, -1.0, 2
    single = False      # lie under one gun when its loaded chance >= single_p
    single_p = 0.99
    aim_rule = "retaliate"

    def _played(self, view, s):
        return sum(1 for r in range(view.round) if view.aims[r][s] >= 0)

    def opp_loaded(self, view, s):
        rev = view.revealed[s]
        if rev[0] > 0 and rev[1] + rev[2] == 0:
            return 0.0 if self._played(view, s) < 5 else 1.0
        return loaded_chance(rev)

    def aim(self, view, legal):
        me = view.seat
        if self.aim_rule == "retaliate":
            for r in range(view.round - 1, -1, -1):
                ag = [s for s in legal if view.aims[r][s] == me and not view.lay[r][s] and not view.lay[r][me]]
                if ag:
                    return ag[int(view.u * len(ag))]
        elif self.aim_rule == "leader":
            return max(legal, key=lambda s: (view.money[s], -s))
        return legal[int(view.u * len(legal))]

    def card(self, view, legal):
        hand = list(view.hand)
        used = [k - h for k, h in zip((5, 2, 1), hand)]
        seen = [0, 0, 0]
        for ch in self.order:
            k = KIND[ch]
            seen[k] += 1
            if seen[k] > used[k] and hand[k] > 0:
                return k
        return max(legal)

    def lie_down(self, view, legal):
        me = view.seat
        ps, g, pmax = 1.0, 0, 0.0
        for s, a in enumerate(view.targets):
            if a == me and s != me and view.alive[s]:
                p = self.opp_loaded(view, s)
                g += 1; ps *= 1 - p; pmax = max(pmax, p)
        if g == 0:
            return False
        if g >= self.guns and (1 - ps) > self.risk + self.endgame * view.round / 7:
            return True
        return bool(self.single and pmax >= self.single_p)


class E(Emu): pass
class E1(Emu): single = True
class E1x(Emu): single = True; order = "CCCCCXBB"
class E1lead(Emu): single = True; aim_rule = "leader"


class Emu2(Emu):
    lethal = False   # also lie when the sure-loaded guns on me would kill me
    kill = False     # aim first at an opponent with two wounds (one hit kills)
    nolie_before = 0 # never lie before this round

    def aim(self, view, legal):
        if self.kill:
            k = [s for s in legal if view.wounds[s] >= 2]
            if k:
                return max(k, key=lambda s: (view.money[s], -s))
        return super().aim(view, legal)

    def lie_down(self, view, legal):
        me = view.seat
        if view.round < self.nolie_before:
            return False
        if self.lethal:
            sure = sum(1 for s, a in enumerate(view.targets)
                       if a == me and s != me and view.alive[s] and self.opp_loaded(view, s) >= 0.99)
            if sure and view.wounds[me] + sure >= 3:
                return True
        return super().lie_down(view, legal)


class Enolie(Emu2): guns = 9
class Elethal(Emu2): guns = 9; lethal = True
class Ekill(Emu2): kill = True
class EkillL(Emu2): kill = True; lethal = True
class Ekilllead(Emu2): kill = True; aim_rule = "leader"
class Erisk8(Emu2): risk = 0.8


class Low:
    k = 1.0
    lead_lie = False
    def lie_down(self, view, legal):
        n = sum(1 for a in view.alive if a)
        if view.shame_value > 0 and view.loot_value / n < self.k * view.shame_value:
            return True
        me = view.seat
        if self.lead_lie and view.round >= 5 and any(a == me for s, a in enumerate(view.targets) if s != me):
            if all(view.money[me] >= view.money[s] for s in range(view.players) if view.alive[s]):
                return True
        return super().lie_down(view, legal)

class L5a(Low, Emu): k = 1.0
class L5b(Low, Emu): k = 1.5
class L5c(Low, Emu): k = 0.0; lead_lie = True


class Killer:
    """Mixin: aim at an opponent one wound from death (richest such) and fire a loaded card
    at it now; else the base rule."""
    def aim(self, view, legal):
        k = [s for s in legal if view.wounds[s] >= 2]
        if k and (view.hand[1] + view.hand[2]) > 0:
            return max(k, key=lambda s: (view.money[s], -s))
        return super().aim(view, legal)
    def card(self, view, legal):
        if view.target >= 0 and view.wounds[view.target] >= 2:
            for c in (1, 2):
                if c in legal:
                    return c
        return super().card(view, legal)

class K5(Killer, Emu): pass
class K5L(Killer, Low, Emu): k = 1.0


def aggressors(view, s, before):
    for r in range(before - 1, -1, -1):
        a = [t for t in range(view.players) if t != s and view.aims[r][t] == s
             and not view.lay[r][t] and not view.lay[r][s]]
        if a:
            return a
    return []


class Avoid:
    """Mixin: from round R0 on, do not aim at an opponent whose past aims all followed its
    last aggressor (a retaliator would aim its late loaded cards back at me)."""
    R0 = 3
    def _retal(self, view, s):
        hits = tot = 0
        for r in range(1, view.round):
            if view.aims[r][s] < 0:
                continue
            a = aggressors(view, s, r)
            if a:
                tot += 1
                hits += view.aims[r][s] in a
        return tot > 0 and hits == tot
    def aim(self, view, legal):
        base = super().aim(view, legal)
        if view.round < self.R0:
            return base
        ok = [s for s in legal if not self._retal(view, s)]
        if not ok or base in ok:
            return base
        return max(ok, key=lambda s: (view.money[s], -s))

class A5(Avoid, Emu): pass
class A5r0(Avoid, Emu): R0 = 0
class A5r5(Avoid, Emu): R0 = 5


class A5lead(Avoid, Emu): R0 = 0; aim_rule = "leader"
class A5rand(Avoid, Emu): R0 = 0; aim_rule = "random"
class A5K(Killer, Avoid, Emu): R0 = 0


class AvoidScore(Avoid):
    def aim(self, view, legal):
        base = super().aim(view, legal)
        ok = [s for s in legal if not self._retal(view, s)] or list(legal)
        return max(ok, key=lambda s: (view.money[s] + view.shame[s] * view.shame_value, -s))

class A5s(AvoidScore, Emu): R0 = 0
