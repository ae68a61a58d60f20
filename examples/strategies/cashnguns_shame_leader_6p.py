# An outside check's reply to the shipped 6-player win/+$5,000 mix (recorded as beyond_space).
"""Exact-ish card reader for the Cash'n Guns 'converged' mixes (public info only).
Each aimer's chance of a loaded card = sum over mix members (weights from the shipped mix,
members inconsistent with its revealed record dropped) of that member's deterministic card
rule replayed from the public record (late/schedule: Clicks for the first five cards played;
bigpot: loot >= pot x expected, replayed from remembered loot; safe: my counted loaded chance
<= safe). Lie down by the threshold rule on that chance; cards in a fixed order; aim at the
opponent likeliest to hold a Click (or the richest)."""

def loaded_chance(rev):
    c, b, x = rev
    un = 8 - c - b - x
    return 0.0 if un <= 0 else (3 - b - x) / un

KIND = {"C": 0, "B": 1, "X": 2}


class X:
    members = ()   # (weight, kind, param, read)
    order = "CCCCCXBB"
    aim_rule = "clicks"
    wound = 0.0
    stand_bonus = 0.0

    def __init__(self):
        self.ratio = {}

    def _played(self, view, s):
        return sum(1 for r in range(view.round) if view.aims[r][s] >= 0)

    def _est(self, view, s, read):
        rev = view.revealed[s]
        if read and rev[0] > 0 and rev[1] + rev[2] == 0:
            return 0.0 if self._played(view, s) < 5 else 1.0
        return loaded_chance(rev)

    def _predict(self, view, s, kind, par, read):
        played = self._played(view, s)
        rev = view.revealed[s]
        if kind == "late":
            if rev[1] + rev[2] > 0 and played <= 5 and rev[0] < 5:
                return None  # inconsistent
            return 1.0 if played >= 5 else 0.0
        if kind == "bigpot":
            loaded, clicks = 3, 5
            for r in range(view.round):
                if view.aims[r][s] >= 0:
                    if self.ratio.get(r, 1.0) >= par and loaded > 0:
                        loaded -= 1
                    elif clicks > 0:
                        clicks -= 1
                    else:
                        loaded -= 1
            if rev[1] + rev[2] > 3 - loaded or rev[0] > 5 - clicks:
                return None
            big = view.loot_value >= par * view.expected_loot
            return 1.0 if (big and loaded > 0) or clicks <= 0 else 0.0
        if kind == "safe":
            if played >= 5 and rev[1] + rev[2] == 0:
                return 1.0
            return 1.0 if self._est(view, view.seat, read) <= par else 0.0
        return 0.375

    def p_loaded(self, view, s):
        tot = acc = 0.0
        for w, kind, par, read in self.members:
            q = self._predict(view, s, kind, par, read)
            if q is None:
                continue
            tot += w; acc += w * q
        return acc / tot if tot > 0 else loaded_chance(view.revealed[s])

    def aim(self, view, legal):
        if view.round == 0:
            self.ratio = {}
        self.ratio[view.round] = view.loot_value / view.expected_loot if view.expected_loot > 0 else 1.0
        if self.aim_rule == "leader":
            return max(legal, key=lambda s: (view.money[s], -s))
        if self.aim_rule == "random":
            return legal[int(view.u * len(legal))]
        vals = [self._est(view, s, 1) for s in legal]
        best = [s for s, v in zip(legal, vals) if v == min(vals)]
        return best[int(view.u * len(best))]

    def card(self, view, legal):
        hand = list(view.hand)
        used = [k - h for k, h in zip((5, 2, 1), hand)]
        seen = [0, 0, 0]
        for ch in self.order:
            k = KIND[ch]; seen[k] += 1
            if seen[k] > used[k] and hand[k] > 0:
                return k
        return max(legal)

    def lie_down(self, view, legal):
        me = view.seat
        ps, g = 1.0, 0
        for s, a in enumerate(view.targets):
            if a == me and s != me and view.alive[s]:
                g += 1; ps *= 1.0 - self.p_loaded(view, s)
        if g == 0:
            return False
        p = 1.0 - ps
        w = view.wounds[me]
        cost = view.money[me] + 3 * self.wound if w + 1 >= 3 else self.wound * (w + 1)
        n = sum(1 for a in view.alive if a)
        stand = (1 - p) * view.loot_value / n - p * cost + self.stand_bonus
        return view.shame_value > stand


M6 = ((0.578 + 0.197, "late", 0, 0), (0.144, "bigpot", 1.5, 0), (0.037, "safe", 0.225, 0),
      (0.031, "safe", 0.0, 0), (0.014, "safe", 0.1833, 0))
M5 = ((0.322, "safe", 0.2679, 0), (0.678, "late", 0, 0))
M4 = ((1.0, "bigpot", 1.05, 0),)

class X6(X): members = M6
class X6lead(X): members = M6; aim_rule = "leader"
class X6w(X): members = M6; wound = 5000.0
class X5(X): members = M5; order = "CCCCCBXB"
class X5w(X): members = M5; order = "CCCCCBXB"; wound = 5000.0


class T(X):
    """Twin of a threshold member (count=0, hit) with a reader switch: stand under guns
    that no mix member can have loaded now."""
    hit = 0.375
    stand_clicks = True
    def lie_down(self, view, legal):
        me = view.seat
        aimers = [s for s, a in enumerate(view.targets) if a == me and s != me and view.alive[s]]
        if not aimers:
            return False
        if self.stand_clicks and all(self.p_loaded(view, s) == 0.0 for s in aimers):
            return False
        p = 1.0 - (1.0 - self.hit) ** len(aimers)
        w = view.wounds[me]
        cost = view.money[me] + 3 * self.wound if w + 1 >= 3 else self.wound * (w + 1)
        n = sum(1 for a in view.alive if a)
        stand = (1 - p) * view.loot_value / n - p * cost
        return view.shame_value > stand

class T6(T): members = M6
class T6off(T): members = M6; stand_clicks = False
class T6late(T): members = M6; order = "CCCCCBBX"; aim_rule = "random"


class Low:
    """Mixin: also lie down, even unaimed, when the loot per living player is below k x shame."""
    k = 1.0
    lead_lie = False  # in rounds 6-8 lie under any gun when I am the richest by money
    def lie_down(self, view, legal):
        n = sum(1 for a in view.alive if a)
        if view.shame_value > 0 and view.loot_value / n < self.k * view.shame_value:
            return True
        me = view.seat
        if self.lead_lie and view.round >= 5 and any(a == me for s, a in enumerate(view.targets) if s != me):
            if all(view.money[me] >= view.money[s] for s in range(view.players) if view.alive[s]):
                return True
        return super().lie_down(view, legal)

class L6a(Low, T6off): k = 1.0
class L6b(Low, T6off): k = 1.5
class L6c(Low, T6off): k = 0.0; lead_lie = True
class L4a(Low, T): members = M4; k = 1.0


class Killer:
    def aim(self, view, legal):
        r = super().aim(view, legal)
        k = [s for s in legal if view.wounds[s] >= 2]
        if k and (view.hand[1] + view.hand[2]) > 0:
            return max(k, key=lambda s: (view.money[s], -s))
        return r
    def card(self, view, legal):
        if view.target >= 0 and view.wounds[view.target] >= 2:
            for c in (1, 2):
                if c in legal:
                    return c
        return super().card(view, legal)

class K6(Killer, T6off): pass
class K6L(Killer, L6a): pass
class K4(Killer, T): members = M4


class ScoreLead:
    """Mixin: aim at the opponent with the highest score (money + shame x shame value)."""
    def aim(self, view, legal):
        super().aim(view, legal)
        return max(legal, key=lambda s: (view.money[s] + view.shame[s] * view.shame_value, -s))

class S6(ScoreLead, T6off): pass
class S6a(ScoreLead, L6a): pass
class T6lead(T6off): aim_rule = "leader"

class S6b(ScoreLead, T6off): order = "CCCCCBBX"
class S6c(ScoreLead, T6off): order = "CCCCXBBC"
class S6d(ScoreLead, T6off): order = "XCCCCCBB"

class S6K(Killer, ScoreLead, T6off): pass
class S6T(ScoreLead, T6): pass
class S6r(ScoreLead, T6off): aim_random_early = True
class S6w(ScoreLead, T6off): wound = 3000.0
class S6h(ScoreLead, T6off): hit = 0.3
class S6h2(ScoreLead, T6off): hit = 0.45

class ScoreLeadW(ScoreLead):
    def aim(self, view, legal):
        X.aim(self, view, legal)
        return max(legal, key=lambda s: (view.money[s] + view.shame[s] * view.shame_value + 10000 * (view.wounds[s] >= 2), -s))

class S6k2(ScoreLeadW, T6off): pass
