# An outside check's reply to the shipped 6-player win/+$5,000 mix (recorded as beyond_space).
"""Schedule reader vs the 6p win/+$5,000 mix (d11 late, d16/d22/d32 schedules; public info only).

Every mix member's card is order[cards played]: Clicks for the first 4 cards (d32's 5th is
Bang!Bang!Bang!, the others' 5th is a Click).  Members d11/d16/d22 never lie (hit=0, count=0);
d32 lies only at 2 wounds under 2+ guns.  Type d32 vs retaliator is read from aims (a seat
aiming outside its retaliation set is d32; outside its min-loaded-chance set is a retaliator)
and from the cards revealed.  My loaded cards go early at one victim (they always hit),
I stand under Click-only guns and lie down (+shame) under a gun that may be loaded.
"""

ORD = {"d11": "CCCCCBBX", "d16": "CCCCCBXB", "d22": "CCCCCXBB", "d32": "CCCCXCBB"}
RET = ("d11", "d16", "d22")
PRIOR = {"d11": 0.30, "d16": 0.30, "d22": 0.26, "d32": 0.14}
KIND = {"C": 0, "B": 1, "X": 2}


def lchance(rev):
    un = 8 - rev[0] - rev[1] - rev[2]
    return 0.0 if un <= 0 else (3 - rev[1] - rev[2]) / un


class Base:
    FIRE_ROUNDS = (0, 1, 2)  # rounds I play my loaded cards (B, B, X order below)
    MY_ORDER = (1, 1, 2)
    VICTIM = "richest"       # whom the loaded cards go at
    LIE_LOADED = 0.05        # lie if P(some gun on me loaded) > this
    SHARE_LIE = True         # lie when the share looks below the shame value
    AIM_SAFE = True          # when not firing, aim at a known d32 (no retaliation) else victim

    def __init__(self):
        self.w = None
        self.victim = None
        self.last = -1

    def _reset(self, view):
        self.w = [dict(PRIOR) for _ in range(view.players)]
        self.victim = None
        self.last = -1
        self.fired = 0

    def _played(self, view, s):
        return sum(1 for r in range(view.round) if view.aims[r][s] >= 0)

    def _update(self, view):
        """Bayes over types from past aims and revealed cards (only at a new round)."""
        if view.round == self.last:
            return
        self.last = view.round
        n = view.players
        r = view.round - 1
        if r < 0:
            return
        aims = view.aims
        for s in range(n):
            if s == view.seat or aims[r][s] < 0:
                continue
            t = aims[r][s]
            like_ret, like_32 = self._aim_like(view, s, r, t)
            # card evidence: revealed counts vs schedule for cards played
            played = sum(1 for q in range(r + 1) if aims[q][s] >= 0)
            rev = view.revealed[s]
            for typ in self.w[s]:
                ok = True
                o = ORD[typ][:played]
                if rev[1] > o.count("B") or rev[2] > o.count("X") or rev[0] > o.count("C"):
                    ok = False
                lk = like_32 if typ == "d32" else like_ret
                self.w[s][typ] *= (lk if ok else 0.0)
            tot = sum(self.w[s].values())
            if tot <= 0:
                self.w[s] = dict(PRIOR)
            else:
                for typ in self.w[s]:
                    self.w[s][typ] /= tot

    def _aim_like(self, view, s, r, t):
        n = view.players
        aims, lay = view.aims, view.lay
        alive_r = [aims[r][x] >= 0 for x in range(n)]
        # retaliate set
        A = []
        for past in range(r - 1, -1, -1):
            A = [x for x in range(n) if alive_r[x] and x != s and aims[past][x] == s and not lay[past][x]]
            if A:
                break
        cands = [x for x in range(n) if alive_r[x] and x != s]
        if not A:
            A = cands
        like_ret = 1.0 / len(A) if t in A else 1e-4
        # clicks set: needs revealed at round r start; approximate with current revealed minus this
        # round's reveals is not available, so use current (reveals lag by one round): lenient.
        vals = {x: lchance(self._rev_at(view, x, r)) for x in cands}
        m = min(vals.values())
        B = [x for x in cands if abs(vals[x] - m) < 1e-12]
        like_32 = 1.0 / len(B) if t in B else 1e-4
        return like_ret, like_32

    def _rev_at(self, view, x, r):
        """Revealed counts of x at the start of round r: current minus what it showed since
        (only Clicks can have been shown in rounds < 4 by members, approx)."""
        if not hasattr(self, "revhist"):
            self.revhist = {}
        return self.revhist.get((r, x), view.revealed[x])

    def _snap_rev(self, view):
        if not hasattr(self, "revhist"):
            self.revhist = {}
        for x in range(view.players):
            self.revhist[(view.round, x)] = view.revealed[x]

    def p_loaded(self, view, s):
        played = self._played(view, s)
        if played >= 8:
            return 0.0
        p = 0.0
        for typ, w in self.w[s].items():
            if ORD[typ][played] != "C":
                p += w
        return p

    def scores(self, view):
        return [view.money[s] + view.shame[s] * view.shame_value for s in range(view.players)]

    def pick_victim(self, view, legal):
        sc = self.scores(view)
        if self.VICTIM == "richest":
            return max(legal, key=lambda x: (sc[x], view.wounds[x], x))
        if self.VICTIM == "wounded":
            return max(legal, key=lambda x: (view.wounds[x], sc[x], x))
        return legal[0]

    def aim(self, view, legal):
        if view.round == 0 or self.w is None or view.round < self.last:
            self._reset(view)
            self.revhist = {}
        self._snap_rev(view)
        self._update(view)
        r = view.round
        loaded = view.hand[1] + view.hand[2]
        self.plan_card = 0 if view.hand[0] else (1 if view.hand[1] else 2)
        if loaded and (r in self.FIRE_ROUNDS or view.hand[0] == 0):
            if self.victim is None or self.victim not in legal:
                self.victim = self.pick_victim(view, legal)
            want = self.MY_ORDER[min(self.fired, len(self.MY_ORDER) - 1)]
            self.plan_card = want if view.hand[want] else (1 if view.hand[1] else 2)
            return self.victim
        # not firing: aim where retaliation hurts least
        if self.AIM_SAFE:
            d32 = [x for x in legal if self.w[x]["d32"] > 0.9]
            if d32:
                return max(d32, key=lambda x: self.scores(view)[x])
        if self.victim is not None and self.victim in legal:
            return self.victim
        return self.pick_victim(view, legal)

    def card(self, view, legal):
        c = self.plan_card
        if c not in legal:
            c = legal[0]
        if c != 0:
            self.fired += 1
        return c

    def lie_down(self, view, legal):
        n = view.players
        me = view.seat
        aimers = [s for s in range(n) if view.alive[s] and s != me and view.targets[s] == me]
        safe = 1.0
        for s in aimers:
            safe *= 1.0 - self.p_loaded(view, s)
        if 1.0 - safe > self.LIE_LOADED:
            return True
        if self.SHARE_LIE and view.shame_value > 0:
            # expected sharers: standing living players not hit (approx: everyone not under a
            # probably-loaded gun)
            sharers = 0
            for s in range(n):
                if not view.alive[s]:
                    continue
                if s == me:
                    sharers += 1
                    continue
                on = [a for a in range(n) if view.alive[a] and a != s and view.targets[a] == s]
                ps = 1.0
                for a in on:
                    if a == me:
                        ps *= 0.0 if self.plan_card else 1.0
                    else:
                        ps *= 1.0 - self.p_loaded(view, a)
                sharers += ps
            share = view.loot_value / max(sharers, 1.0)
            if share < view.shame_value:
                return True
        return False


class S1(Base):
    pass


class S1NoShare(Base):
    SHARE_LIE = False


class S1Wounded(Base):
    VICTIM = "wounded"


class SLate(Base):
    FIRE_ROUNDS = (1, 2, 3)


class SLie20(Base):
    LIE_LOADED = 0.2


class V2(Base):
    """Clicks first (rounds 0-4), loaded cards in rounds 5-7; predict who aims at me this
    round (retaliation set / min-loaded-chance set by type posterior) and Bang!Bang!Bang! the
    likeliest loaded aimer (downs it before it fires); when only Clicks, aim at a likely d32
    (it never retaliates); lie down when a loaded gun on me is likely and not disarmed."""
    FIRE_FROM = 5
    THREAT = 0.3
    LIE_P = 0.5
    SHARE_LIE = False

    def pred_aim(self, view, s):
        """P(s aims at me this round)."""
        n, r, me = view.players, view.round, view.seat
        aims, lay = view.aims, view.lay
        cands = [x for x in range(n) if view.alive[x] and x != s]
        A = []
        for past in range(r - 1, -1, -1):
            A = [x for x in range(n) if view.alive[x] and x != s and aims[past][x] == s and not lay[past][x]]
            if A:
                break
        if not A:
            A = cands
        pr = 1.0 / len(A) if me in A else 0.0
        vals = {x: lchance(view.revealed[x]) for x in cands}
        m = min(vals.values())
        B = [x for x in cands if abs(vals[x] - m) < 1e-12]
        p32 = 1.0 / len(B) if me in B else 0.0
        w32 = self.w[s]["d32"]
        return (1 - w32) * pr + w32 * p32

    def aim(self, view, legal):
        if view.round == 0 or self.w is None or view.round < self.last:
            self._reset(view)
            self.revhist = {}
        self._snap_rev(view)
        self._update(view)
        r, hand = view.round, view.hand
        sc = self.scores(view)
        threat = {s: self.pred_aim(view, s) * self.p_loaded(view, s) for s in legal}
        loaded = hand[1] + hand[2]
        must = loaded >= 8 - r
        if loaded and (r >= self.FIRE_FROM or must):
            t = max(legal, key=lambda s: (threat[s], sc[s]))
            if hand[2] and threat[t] > self.THREAT:
                self.plan_card = 2
                self.disarm = t
                return t
            self.disarm = None
            if hand[1] and (must or r >= self.FIRE_FROM):
                top = max(legal, key=lambda s: (sc[s] - 1e9 * (view.wounds[s] >= 3), -view.wounds[s]))
                self.plan_card = 1
                return top
            self.plan_card = 2 if hand[2] else 1
            return max(legal, key=lambda s: (sc[s], -s))
        self.disarm = None
        self.plan_card = 0 if hand[0] else (1 if hand[1] else 2)
        d32 = sorted(legal, key=lambda x: -self.w[x]["d32"])
        return d32[0]

    def lie_down(self, view, legal):
        n, me = view.players, view.seat
        aimers = [s for s in range(n) if view.alive[s] and s != me and view.targets[s] == me]
        safe = 1.0
        for s in aimers:
            if self.plan_card == 2 and view.target == s:
                continue
            safe *= 1.0 - self.p_loaded(view, s)
        return 1.0 - safe > self.LIE_P


class V2a(V2):
    FIRE_FROM = 4


class V2b(V2):
    LIE_P = 0.2


class V2c(V2):
    THREAT = 0.1


class V3(V2):
    """V2 with Bang targeting: a 2-wound opponent that will not lie (kill) first, then the top
    score, retaliators penalized before round 7 by RETAL dollars."""
    RETAL = 0.0
    KILL = True
    SHARE_LIE = False

    def aim(self, view, legal):
        t = super().aim(view, legal)
        if self.plan_card == 1:
            sc = self.scores(view)
            r = view.round

            def val(s):
                v = sc[s]
                if self.KILL and view.wounds[s] >= 2:
                    v += 1e6
                if r < 7:
                    v -= self.RETAL * (1 - self.w[s]["d32"])
                return v
            t = max(legal, key=lambda s: (val(s), -s))
        return t

    def lie_down(self, view, legal):
        if super().lie_down(view, legal):
            return True
        if self.SHARE_LIE:
            n, me = view.players, view.seat
            sharers = 0.0
            for s in range(n):
                if not view.alive[s]:
                    continue
                ps = 1.0
                for a in range(n):
                    if view.alive[a] and a != s and view.targets[a] == s:
                        if a == me:
                            ps *= 0.0 if self.plan_card else 1.0
                        else:
                            ps *= 1.0 - self.p_loaded(view, a)
                sharers += ps if s != me else 1.0
            return view.loot_value / max(sharers, 1.0) < view.shame_value
        return False


class V3r(V3):
    RETAL = 20000.0


class V3s(V3):
    SHARE_LIE = True


class V3nk(V3):
    KILL = False


class V3r40(V3):
    RETAL = 40000.0


class V3r100(V3):
    RETAL = 100000.0


class V3r10(V3):
    RETAL = 10000.0


class V3r40nk(V3):
    RETAL = 40000.0
    KILL = False


class W(V3):
    RETAL = 40000.0
    KILL = False


class W_l3(W):
    LIE_P = 0.3


class W_l7(W):
    LIE_P = 0.7


class W_t15(W):
    THREAT = 0.15


class W_t5(W):
    THREAT = 0.5


class W_s(W):
    SHARE_LIE = True


class W_t7(W):
    THREAT = 0.7


class W_t9(W):
    THREAT = 0.9


class W_tn(W):
    THREAT = 1.01


class W2(W):
    """W with THREAT 0.5 and the retaliation-aware target for every non-disarming loaded shot."""
    THREAT = 0.5

    def aim(self, view, legal):
        t = V2.aim(self, view, legal)
        if self.plan_card in (1, 2) and self.disarm is None:
            sc = self.scores(view)
            r = view.round

            def val(s):
                v = sc[s]
                if r < 7:
                    v -= self.RETAL * (1 - self.w[s]["d32"])
                return v
            t = max(legal, key=lambda s: (val(s), -s))
        return t


class W2n(W2):
    THREAT = 1.01
