# An outside check's reply to the shipped 5-player win/-$5,000 mix (recorded as beyond_space).
"""Own opponent-modelling reply to the 5-player win/-5000 mix (public record + own hand only).
Types: d46 (late order, retaliate, risk lie guns2), d18 (CCCCCXBB, retaliate, 3 guns),
d40 (late, clicks target, 3 guns), d20 (late in practice, leader, risk hit=1 guns3),
d43/d36 (weakest). Type posterior from past aims and lie-downs; lie-downs in rounds 5-8
chosen by Monte Carlo rollouts to the end of the game with sampled types."""
import random

PRIOR = {'d46': .425, 'd18': .243, 'd40': .177, 'd20': .110, 'd43': .030, 'd36': .015}
TYPES = list(PRIOR)
ORD = {'d46': 'CCCCCBBX', 'd18': 'CCCCCXBB', 'd40': 'CCCCCBBX', 'd20': 'CCCCCBBX',
       'd43': 'BBCCCXCC', 'd36': 'BCBCCXCC'}
ORD = {k: tuple('CBX'.index(c) for c in v) for k, v in ORD.items()}
TGT = {'d46': 'ret', 'd18': 'ret', 'd40': 'clk', 'd20': 'lead', 'd43': 'weak', 'd36': 'weak'}
DECK = (15, 15, 10)

def split_share(f, t, w, n):
    if n <= 0:
        return 0
    total = f + 2 * t + 4 * w
    for share in range(total // n, 0, -1):
        wp = min(w, n * (share // 4)); rest = n * share - 4 * wp
        tp = min(t, (rest - n * (share % 2)) // 2); fp = rest - 2 * tp
        if fp <= f:
            return share
    return 0

def lchance(rev):
    c, b, x = rev
    un = 8 - c - b - x
    return 0.0 if un <= 0 else (3 - b - x) / un

def guns_on(s, targets, alive):
    return sum(1 for a in range(len(targets)) if alive[a] and a != s and targets[a] == s)

def aim_set(t, s, alive, money, wounds, revealed, aims, lay):
    n = len(alive)
    c = [x for x in range(n) if alive[x] and x != s]
    if t == 'ret':
        for past in range(len(aims) - 1, -1, -1):
            f = [x for x in c if aims[past][x] == s and not lay[past][x]]
            if f:
                return f
        return c
    if t == 'lead':
        v = {x: money[x] for x in c}
    elif t == 'weak':
        v = {x: wounds[x] for x in c}
    elif t == 'clk':
        v = {x: -lchance(revealed[x]) for x in c}
    else:
        return c
    b = max(v.values())
    return [x for x in c if v[x] == b]

def type_lies(t, s, targets, alive, wounds, ratio, r):
    g = guns_on(s, targets, alive)
    if t in ('d18', 'd40'):
        return g >= 3
    if t == 'd46':
        if g < 2: return False
        return 1 - 0.675 ** g > 1 + 0.3 * (ratio - 1) - 0.8 * r / 7
    if t == 'd20':
        if g < 3: return False
        return 1.0 > 1 + 2 * (ratio - 1) - 0.5 * wounds[s] - 0.8 * r / 7
    if t == 'd43':
        if g < 3: return False
        return 1 - 0.75 ** g > 0.9 + 0.3 * (ratio - 1) - 0.2 * wounds[s] - 0.6 * r / 7
    if t == 'd36':
        if g < 3: return False
        return 1 - 0.675 ** g > 0.8 + 0.3 * (ratio - 1) - 0.2 * wounds[s] - 0.6 * r / 7
    return False


class Model:
    M = 24
    lethal = 3
    early_aim = 'rich'

    def __init__(self):
        self.hist = {}
        self.rng = random.Random(1)

    def _snap(self, view):
        if view.round == 0 or not self.hist or view.round <= max(self.hist):
            self.hist = {}
            self.rng = random.Random(int(view.u * 2**31) ^ (view.seat * 7919))
        self.hist[view.round] = (view.money, view.revealed, view.wounds, view.loot_value, view.expected_loot)

    def posterior(self, view):
        n = view.players
        post = [dict(PRIOR) for _ in range(n)]
        for r in range(view.round):
            if r not in self.hist:
                continue
            money, revealed, wounds, lv, ex = self.hist[r]
            aims, lay = view.aims[r], view.lay[r]
            alive_r = [a >= 0 for a in aims]
            ratio = lv / ex if ex > 0 else 1.0
            for s in range(n):
                if s == view.seat or aims[s] < 0:
                    continue
                for t in TYPES:
                    S = aim_set(TGT[t], s, alive_r, money, wounds, revealed, view.aims[:r], view.lay[:r])
                    la = (1.0 / len(S)) if aims[s] in S else 1e-3
                    lie = type_lies(t, s, aims, alive_r, wounds, ratio, r)
                    ll = 1.0 if lay[s] == lie else 1e-3
                    post[s][t] *= la * ll
                # revealed card check
                if r + 1 in self.hist:
                    rv0 = revealed[s]; rv1 = self.hist[r + 1][1][s]
                    shown = [rv1[k] - rv0[k] for k in range(3)]
                    if sum(shown) == 1:
                        k = shown.index(1)
                        for t in TYPES:
                            if ORD[t][r] != k and t != 'd20':
                                post[s][t] *= 1e-3
                z = sum(post[s].values())
                for t in TYPES:
                    post[s][t] /= z
        return post

    def sample_types(self, view, post):
        combo = [None] * view.players
        for s in range(view.players):
            if s != view.seat and view.alive[s]:
                x = self.rng.random(); acc = 0.0
                for t in TYPES:
                    acc += post[s][t]
                    if x <= acc:
                        combo[s] = t; break
                else:
                    combo[s] = 'd46'
        return combo

    # ---- simulation
    def play_round(self, st, targets, cards, lying):
        n = len(targets); alive = st['alive']
        hits = [0] * n; down = [False] * n; shown = [False] * n
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and cards[s] == 2:
                hits[t] += 1; down[t] = True; shown[s] = True
        bbb = list(down)
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and not bbb[s] and cards[s] != 2:
                shown[s] = True
                if cards[s] == 1:
                    hits[t] += 1; down[t] = True
        for s in range(n):
            if not alive[s]:
                continue
            if shown[s]:
                rv = list(st['revealed'][s]); rv[cards[s]] += 1; st['revealed'][s] = tuple(rv)
            if lying[s]:
                st['shame'][s] += 1
            st['wounds'][s] = min(3, st['wounds'][s] + hits[s])
        for s in range(n):
            if alive[s] and st['wounds'][s] >= 3:
                alive[s] = False
        sharers = [s for s in range(n) if alive[s] and not lying[s] and not down[s]]
        f, t, w = st['loot']
        k = len(sharers)
        share = split_share(f, t, w, k)
        if share:
            wp = min(w, k * (share // 4)); rest = k * share - 4 * wp
            tp = min(t, (rest - k * (share % 2)) // 2); fp = rest - 2 * tp
            st['loot'] = [f - fp, t - tp, w - wp]
            for s in sharers:
                st['money'][s] += share * 5000
        st['aims'].append(tuple(targets[s] if alive_before else -1 for s, alive_before in enumerate(st['alive_before'])))
        st['lay'].append(tuple(lying))
        return sum(alive)

    def win_at_end(self, st, me, shame_value):
        al = st['alive']
        if not al[me]:
            return 0.0
        surv = [s for s in range(len(al)) if al[s]]
        key = lambda s: (st['money'][s] + st['shame'][s] * shame_value, -st['shame'][s], st['wounds'][s])
        return 1.0 if all(key(me) >= key(s) for s in surv) else 0.0

    def draw(self, st, rng):
        und = [DECK[k] - st['drawn'][k] for k in range(3)]
        tn = sum(und)
        left = st['loot'][0] + 2 * st['loot'][1] + 4 * st['loot'][2]
        ex = left + (5 * (und[0] + 2 * und[1] + 4 * und[2]) / tn if tn else 0)
        pool = [0] * und[0] + [1] * und[1] + [2] * und[2]
        for k in rng.sample(pool, min(5, len(pool))):
            st['loot'][k] += 1; st['drawn'][k] += 1
        lv = st['loot'][0] + 2 * st['loot'][1] + 4 * st['loot'][2]
        st['ratio'] = lv / ex if ex > 0 else 1.0

    def my_aim(self, me, alive, money, wounds, rng):
        legal = [s for s in range(len(alive)) if alive[s] and s != me]
        two = [s for s in legal if wounds[s] >= 2]
        pool = two if two else legal
        key = lambda s: (money[s], wounds[s])
        b = max(key(s) for s in pool)
        return rng.choice([s for s in pool if key(s) == b])

    def rollout(self, view, combo, targets, my_card, my_lie, st, rng):
        n = view.players; me = view.seat; r = view.round
        st['alive_before'] = list(st['alive'])
        cards = [ORD[combo[s]][r] if combo[s] else 0 for s in range(n)]
        cards[me] = my_card
        lying = [False] * n
        for s in range(n):
            if s != me and st['alive'][s]:
                lying[s] = type_lies(combo[s], s, targets, st['alive'], st['wounds'], st['ratio'], r)
        lying[me] = my_lie
        hand = list(st['hand']); hand[my_card] -= 1
        if self.play_round(st, targets, cards, lying) <= 1 or r == 7:
            return self.win_at_end(st, me, view.shame_value)
        for rr in range(r + 1, 8):
            self.draw(st, rng)
            alive = st['alive']
            if not alive[me]:
                return 0.0
            st['alive_before'] = list(alive)
            tg = [-1] * n
            for s in range(n):
                if alive[s] and s != me:
                    tg[s] = rng.choice(aim_set(TGT[combo[s]], s, alive, st['money'], st['wounds'], st['revealed'], st['aims'], st['lay']))
            tg[me] = self.my_aim(me, alive, st['money'], st['wounds'], rng)
            cards = [ORD[combo[s]][rr] if combo[s] else 0 for s in range(n)]
            mc = self.next_card(hand); hand[mc] -= 1; cards[me] = mc
            ly = [False] * n
            for s in range(n):
                if s != me and alive[s]:
                    ly[s] = type_lies(combo[s], s, tg, alive, st['wounds'], st['ratio'], rr)
            if rr == 7:
                best = 0.0
                for lie in (False, True):
                    st2 = {k: (list(v) if isinstance(v, list) else v) for k, v in st.items()}
                    ly[me] = lie
                    self.play_round(st2, tg, cards, ly)
                    best = max(best, self.win_at_end(st2, me, view.shame_value))
                return best
            g = guns_on(me, tg, alive)
            ly[me] = g + st['wounds'][me] >= self.lethal
            if self.play_round(st, tg, cards, ly) <= 1:
                return self.win_at_end(st, me, view.shame_value)
        return self.win_at_end(st, me, view.shame_value)

    def state(self, view):
        ex = view.expected_loot
        return {'alive': list(view.alive), 'money': list(view.money), 'wounds': list(view.wounds),
                'shame': list(view.shame), 'revealed': list(view.revealed), 'loot': list(view.loot),
                'drawn': list(view.drawn), 'ratio': view.loot_value / ex if ex > 0 else 1.0,
                'hand': list(view.hand), 'aims': list(view.aims), 'lay': list(view.lay)}

    def next_card(self, hand):
        for c in (0, 1, 2):
            if hand[c] > 0:
                return c
        return 0

    # ---- decisions
    def aim(self, view, legal):
        self._snap(view)
        if view.round >= 5:
            two = [s for s in legal if view.wounds[s] >= 2]
            pool = two if two else list(legal)
        else:
            pool = list(legal)
        key = lambda s: (view.money[s], view.wounds[s])
        b = max(key(s) for s in pool)
        c = [s for s in pool if key(s) == b]
        return c[int(view.u * len(c))]

    def card(self, view, legal):
        c = self.next_card(view.hand)
        self.my_card = c
        return c

    def lie_down(self, view, legal):
        g = guns_on(view.seat, view.targets, view.alive)
        if view.round < self.first_roll:
            return False
        if g == 0:
            return False
        post = self.posterior(view)
        vals = [0.0, 0.0]
        for i in range(self.M):
            seed = self.rng.random()
            combo = self.sample_types(view, post)
            for lie in (0, 1):
                vals[lie] += self.rollout(view, combo, list(view.targets), self.my_card, bool(lie),
                                          self.state(view), random.Random(seed))
        if vals[0] != vals[1]:
            return vals[1] > vals[0]
        return g + view.wounds[view.seat] >= self.lethal
    first_roll = 5

class Model4(Model):
    first_roll = 4

class AimRoll(Model):
    """Also chooses the aim in rounds >= first_aim by rollouts (opponents' aims sampled from types)."""
    MA = 12
    first_aim = 5

    def aim(self, view, legal):
        self._snap(view)
        if view.round < self.first_aim or len(legal) == 1:
            return Model.aim(self, view, legal)
        post = self.posterior(view)
        n = view.players; me = view.seat
        my_card = self.next_card(view.hand)
        scores = {a: 0.0 for a in legal}
        for i in range(self.MA):
            seed = self.rng.random()
            combo = self.sample_types(view, post)
            arng = random.Random(seed)
            targets = [-1] * n
            for s in range(n):
                if s != me and view.alive[s]:
                    targets[s] = arng.choice(aim_set(TGT[combo[s]], s, view.alive, view.money, view.wounds,
                                                     view.revealed, view.aims, view.lay))
            for a in legal:
                targets[me] = a
                best = 0.0
                for lie in (False, True):
                    if lie and guns_on(me, targets, view.alive) == 0:
                        continue
                    v = self.rollout(view, combo, list(targets), my_card, lie, self.state(view), random.Random(seed + 1))
                    best = max(best, v)
                scores[a] += best
        b = max(scores.values())
        c = [a for a in legal if scores[a] == b]
        return c[int(view.u * len(c))]

class AimRoll4(AimRoll):
    first_aim = 4
    first_roll = 4

class AimRoll3(AimRoll):
    first_aim = 3
    first_roll = 4

class Fast3(AimRoll):
    """AimRoll3 with fewer samples (cheaper)."""
    first_aim = 3
    first_roll = 4
    MA = 6
    M = 12
