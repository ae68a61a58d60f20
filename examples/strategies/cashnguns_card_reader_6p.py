# An outside check's card reader for the shipped 6-player win/-$5,000 mix; cashnguns_mix_model_6p.py builds on it.
"""Own reply to the shipped 6-player win/-$5,000 Cash'n Guns mix (d2 81%, d7 19%).

Both mix members play `bigpot` with pot=1.5: Bang!Bang!Bang! then Bang! when the loot is at
least 1.5 x the round's expected loot, else Click first (then Bang!, then BBB). That card rule
reads only public numbers and the member's own hand, which starts full and evolves by the same
rule, so every living opponent holds the same hand and plays the same card each round: this
reply recomputes it from the public loot and expected loot of every round it has seen.
Types (d2: leader target, threshold lie; d7: clicks target, risk lie) are inferred from aims
and lie-downs. Reads only the View (public record + own hand).
"""

U = 5000
D2, D7 = 0, 1
PRIOR_D2 = 0.8108331758440155


def split_share(f, t, w, n):
    if n <= 0:
        return 0, 0, 0, 0
    total = f + 2 * t + 4 * w
    for share in range(total // n, 0, -1):
        wp = min(w, n * (share // 4))
        rest = n * share - 4 * wp
        tp = min(t, (rest - n * (share % 2)) // 2)
        fp = rest - 2 * tp
        if fp <= f:
            return share, fp, tp, wp
    return 0, 0, 0, 0


def opp_card(hand, fire):
    order = (2, 1, 0) if fire else (0, 1, 2)
    for k in order:
        if hand[k] > 0:
            return k
    return 0


def lchance(rev):
    un = 8 - rev[0] - rev[1] - rev[2]
    return 0.0 if un <= 0 else (3 - rev[1] - rev[2]) / un


def aim_set(typ, s, alive, money, revealed):
    c = [x for x in range(len(alive)) if alive[x] and x != s]
    if typ == D2:
        v = {x: money[x] for x in c}
    else:
        v = {x: -lchance(revealed[x]) for x in c}
    b = max(v.values())
    return [x for x in c if v[x] == b]


def opp_lies(typ, s, targets, alive, wounds, money, revealed, pot, expected, rnd):
    """Built-in lie-down of seat s of type typ (units: pot, expected, money)."""
    aimers = [a for a in range(len(targets)) if alive[a] and a != s and targets[a] == s]
    g = len(aimers)
    if g == 0:
        return False
    if typ == D2:  # threshold, hit .3, wound 3 units, count 0
        p_safe = 1.0
        for _ in aimers:
            p_safe *= 0.7
        p = 1.0 - p_safe
        w = wounds[s]
        cost = money[s] + 9 if w + 1 >= 3 else 3.0 * (w + 1)
        nal = sum(1 for a in alive if a)
        stand = (1.0 - p) * pot / nal - p * cost
        return -1.0 > stand
    if g < 2:
        return False
    p_safe = 1.0
    for a in aimers:
        p_safe *= 1.0 - lchance(revealed[a])
    tol = 2.0 * (pot / expected - 1.0) - 0.45 * wounds[s] - rnd / 7.0
    return 1.0 - p_safe > tol


def resolve(targets, cards, lying, alive):
    n = len(targets)
    hits = [0] * n
    down = [False] * n
    bbb = [False] * n
    for s in range(n):
        t = targets[s]
        if alive[s] and t >= 0 and not lying[s] and not lying[t] and cards[s] == 2:
            hits[t] += 1
            bbb[t] = True
    down = list(bbb)
    for s in range(n):
        t = targets[s]
        if alive[s] and t >= 0 and not lying[s] and not lying[t] and not bbb[s] and cards[s] == 1:
            hits[t] += 1
            down[t] = True
    return hits, down


class Base:
    """Perfect card knowledge; parameters set by subclasses."""

    K = 1            # stand when hit if my wounds after the round stay <= K
    THETA = 1.3      # fire loaded when loot >= THETA x expected
    KILL = True      # fire loaded at a 2-wound opponent who will not lie
    TARGET = "score"  # whom to aim at when not killing

    def __init__(self):
        self.reset()

    def reset(self):
        self.fires = {}
        self.p2 = None
        self.snap = None
        self.plan = None
        self.last_round = -1

    # ---- bookkeeping
    def _start(self, view):
        r = view.round
        if self.p2 is None:
            self.p2 = [PRIOR_D2] * view.players
        if r != self.last_round:
            self.last_round = r
            self.fires[r] = self._fire(view)
            self._lay_update(view)
            self.plan = None

    def _fire(self, view):
        return view.loot_value >= 1.5 * view.expected_loot * (1 - 1e-12)

    def opp_hand(self, r):
        hand = [5, 2, 1]
        for q in range(r):
            k = opp_card(hand, self.fires[q])
            hand[k] -= 1
        return hand

    def opp_card_now(self, view):
        return opp_card(self.opp_hand(view.round), self.fires[view.round])

    def _lay_update(self, view):
        snap = self.snap
        if snap is None or snap["round"] != view.round - 1:
            return
        lay = view.lay[view.round - 1]
        for s in range(view.players):
            if s == view.seat or not snap["alive"][s]:
                continue
            like = []
            for typ in (D2, D7):
                pred = opp_lies(typ, s, snap["targets"], snap["alive"], snap["wounds"], snap["money"],
                                snap["revealed"], snap["pot"], snap["exp"], snap["round"])
                like.append(1.0 if pred == lay[s] else 1e-3)
            self._bayes(s, like)
        self.snap = None

    def _bayes(self, s, like):
        a = self.p2[s] * like[0]
        b = (1 - self.p2[s]) * like[1]
        self.p2[s] = a / (a + b) if a + b > 0 else PRIOR_D2

    def _aim_update(self, view):
        money = [m // U for m in view.money]
        for s in range(view.players):
            if s == view.seat or not view.alive[s]:
                continue
            t = view.targets[s]
            like = []
            for typ in (D2, D7):
                S = aim_set(typ, s, view.alive, money, view.revealed)
                like.append(1.0 / len(S) if t in S else 1e-3)
            self._bayes(s, like)

    # ---- decisions
    def scores(self, view):
        return [view.money[s] + view.shame[s] * view.shame_value for s in range(view.players)]

    def predicted_lie(self, view, s, targets):
        money = [m // U for m in view.money]
        pot = view.loot_value / U
        exp = view.expected_loot / U
        typ = D2 if self.p2[s] >= 0.5 else D7
        return opp_lies(typ, s, targets, view.alive, view.wounds, money, view.revealed, pot, exp, view.round)

    def predicted_targets(self, view):
        money = [m // U for m in view.money]
        tg = [-1] * view.players
        for s in range(view.players):
            if s == view.seat or not view.alive[s]:
                continue
            typ = D2 if self.p2[s] >= 0.5 else D7
            S = aim_set(typ, s, view.alive, money, view.revealed)
            tg[s] = view.seat if view.seat in S else S[0]
        return tg

    def choose(self, view):
        hand = view.hand
        loaded = hand[1] + hand[2]
        left = 8 - view.round
        sc = self.scores(view)
        opps = [s for s in range(view.players) if s != view.seat and view.alive[s]]
        tg = self.predicted_targets(view)
        if loaded and self.KILL:
            kills = []
            for s in opps:
                if view.wounds[s] == 2:
                    t2 = list(tg)
                    t2[view.seat] = s
                    if not self.predicted_lie(view, s, t2):
                        kills.append(s)
            if kills:
                s = max(kills, key=lambda x: (sc[x], -view.wounds[x]))
                return s, self.loaded_card(hand)
        top = max(opps, key=lambda x: (sc[x], -view.wounds[x], -x))
        fire = loaded and (hand[0] == 0 or loaded >= left
                           or view.loot_value >= self.THETA * view.expected_loot)
        if fire:
            return top, self.loaded_card(hand)
        return top, 0 if hand[0] else self.loaded_card(hand)

    def loaded_card(self, hand):
        return 1 if hand[1] else 2 if hand[2] else 0

    def aim(self, view, legal):
        if view.round == 0 or view.round < self.last_round:
            self.reset()
        self._start(view)
        target, card = self.choose(view)
        if target not in legal:
            target = legal[0]
        self.plan = (target, card)
        return target

    def card(self, view, legal):
        self._start(view)
        card = self.plan[1] if self.plan else legal[0]
        return card if card in legal else legal[0]

    def lie_down(self, view, legal):
        self._start(view)
        self._aim_update(view)
        money = [m // U for m in view.money]
        self.snap = {"round": view.round, "targets": view.targets, "alive": view.alive, "wounds": view.wounds,
                     "money": money, "revealed": view.revealed, "pot": view.loot_value / U,
                     "exp": view.expected_loot / U}
        return self.decide_lie(view)

    def decide_lie(self, view):
        n = view.players
        k = self.opp_card_now(view)
        cards = [k] * n
        cards[view.seat] = self.plan[1] if self.plan else 0
        lying = [False] * n
        for s in range(n):
            if s != view.seat and view.alive[s]:
                lying[s] = self.predicted_lie(view, s, view.targets)
        hits, down = resolve(view.targets, cards, lying, view.alive)
        h = hits[view.seat]
        if h == 0:
            return False
        return view.wounds[view.seat] + h > self.K


class H1(Base):
    pass


class H1K0(Base):
    K = 0


class H1K2(Base):
    K = 2


class H1T10(Base):
    THETA = 1.0


class H1T16(Base):
    THETA = 1.6


class H1T99(Base):
    THETA = 99.0


class H1NoKill(Base):
    KILL = False


class H2(Base):
    K = 2


class H2T99(Base):
    K = 2
    THETA = 99.0


class H2T16(Base):
    K = 2
    THETA = 1.6


class H2NoKill(Base):
    K = 2
    KILL = False


class H2T99NoKill(Base):
    K = 2
    THETA = 99.0
    KILL = False
