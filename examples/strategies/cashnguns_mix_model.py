# An outside check's reply to the shipped 4-player win/-$5,000 mix (recorded as beyond_space).
"""Own reply with a model of the two mix members (read from the public record only):
both play Clicks first (5 C, then B, B, then X); d2 aims at the richest, lies at 2+ guns by
its counted-risk rule; d6 aims at random, lies at 3 guns. Each opponent's type is inferred
from its past aims and lie-downs (money history is remembered from earlier views). Round 8
(index 7): aim and lie-down are chosen by enumerating the round exactly (types from the
posterior, aims sampled). Rounds 1-5: never lie down (only Clicks come); rounds 6-7: lie down
only if the guns on me would be lethal."""
import itertools, random

ORDER = (0, 0, 0, 0, 0, 1, 1, 2)
P_D2 = 0.351

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

def loaded_chance(rev):
    c, b, x = rev
    un = 8 - c - b - x
    return 0.0 if un <= 0 else (3 - b - x) / un

def d2_lies(s, targets, alive, revealed, wounds, loot_value, expected):
    guns = 0; ps = 1.0
    for a in range(len(targets)):
        if alive[a] and a != s and targets[a] == s:
            guns += 1; ps *= 1.0 - loaded_chance(revealed[a])
    if guns < 2:
        return False
    tol = 0.6 + 2.0 * (loaded_ratio(loot_value, expected) - 1.0) - 0.5 * wounds[s]
    return (1.0 - ps) > tol

def loaded_ratio(v, e):
    return v / e if e > 0 else 1.0

def guns_on(s, targets, alive):
    return sum(1 for a in range(len(targets)) if alive[a] and a != s and targets[a] == s)


class Solver:
    late_aim = "leader"
    lethal = 3
    samples = 48

    def __init__(self):
        self.hist = {}
        self.rng = random.Random(12345)

    # ---- bookkeeping / type inference
    def _snap(self, view):
        if view.round == 0 or not self.hist or view.round <= max(self.hist):
            self.hist = {}
        self.hist[view.round] = (view.money, view.revealed, view.wounds, view.loot_value, view.expected_loot)

    def posterior(self, view):
        n = view.players
        post = [P_D2] * n
        for r in range(view.round):
            if r not in self.hist:
                continue
            money, revealed, wounds, lv, ex = self.hist[r]
            aims, lay = view.aims[r], view.lay[r]
            alive_r = [a >= 0 for a in aims]
            for s in range(n):
                if s == view.seat or aims[s] < 0:
                    continue
                cands = [x for x in range(n) if alive_r[x] and x != s]
                best = max(money[x] for x in cands)
                top = [x for x in cands if money[x] == best]
                l2 = (1.0 / len(top)) if aims[s] in top else 0.002
                l6 = 1.0 / len(cands)
                g = guns_on(s, aims, alive_r)
                l6 *= 1.0 if lay[s] == (g >= 3) else 0.002
                l2 *= 1.0 if lay[s] == d2_lies(s, aims, alive_r, revealed, wounds, lv, ex) else 0.02
                p = post[s]
                post[s] = p * l2 / (p * l2 + (1 - p) * l6)
        return post

    # ---- exact round resolution
    def outcome(self, view, targets, cards, lying):
        n = view.players; alive = view.alive
        hits = [0] * n; down = [False] * n
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and cards[s] == 2:
                hits[t] += 1; down[t] = True
        bbb = list(down)
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and not bbb[s] and cards[s] == 1:
                hits[t] += 1; down[t] = True
        w = [min(3, view.wounds[s] + hits[s]) for s in range(n)]
        al = [alive[s] and w[s] < 3 for s in range(n)]
        sharers = [s for s in range(n) if al[s] and not lying[s] and not down[s]]
        share = split_share(view.loot[0], view.loot[1], view.loot[2], len(sharers)) * 5000
        money = list(view.money)
        for s in sharers:
            money[s] += share
        shame = [view.shame[s] + (1 if lying[s] and alive[s] else 0) for s in range(n)]
        return al, money, shame, w

    def i_win(self, view, al, money, shame, w, last):
        me = view.seat
        if not al[me]:
            return 0.0
        surv = [s for s in range(view.players) if al[s]]
        if last or len(surv) == 1:
            key = lambda s: (money[s] + shame[s] * view.shame_value, -shame[s], w[s])
            return 1.0 if all(key(me) >= key(s) for s in surv) else 0.0
        return None

    def opp_lies(self, view, s, targets, is_d2):
        if is_d2:
            return d2_lies(s, targets, view.alive, view.revealed, view.wounds, view.loot_value, view.expected_loot)
        return guns_on(s, targets, view.alive) >= 3

    def value_last(self, view, targets, my_card, types):
        """max over my lie decision of P(win) in the last round, given everyone's aims."""
        n = view.players
        cards = [ORDER[view.round] if view.alive[s] else 0 for s in range(n)]
        cards[view.seat] = my_card
        best = 0.0
        for lie in (False, True):
            tot = 0.0
            for combo, wgt in types:
                lying = [False] * n
                for s in range(n):
                    if s != view.seat and view.alive[s]:
                        lying[s] = self.opp_lies(view, s, targets, combo[s])
                lying[view.seat] = lie
                res = self.outcome(view, targets, cards, lying)
                tot += wgt * self.i_win(view, *res, True)
            best = max(best, tot)
        return best

    def type_combos(self, view, post):
        opps = [s for s in range(view.players) if s != view.seat and view.alive[s]]
        out = []
        for bits in itertools.product((False, True), repeat=len(opps)):
            combo = [False] * view.players; wgt = 1.0
            for s, b in zip(opps, bits):
                combo[s] = b; wgt *= post[s] if b else 1 - post[s]
            if wgt > 1e-4:
                out.append((combo, wgt))
        return out

    def sample_aim(self, view, s, is_d2):
        cands = [x for x in range(view.players) if view.alive[x] and x != s]
        if is_d2:
            best = max(view.money[x] for x in cands)
            cands = [x for x in cands if view.money[x] == best]
        return self.rng.choice(cands)

    # ---- decisions
    def aim(self, view, legal):
        self._snap(view)
        if view.round == 7 and len(legal) > 1:
            post = self.posterior(view)
            my_card = [k for k in range(3) if view.hand[k] > 0][0]
            scores = {a: 0.0 for a in legal}
            for _ in range(self.samples):
                combo = [self.rng.random() < post[s] for s in range(view.players)]
                targets = [-1] * view.players
                for s in range(view.players):
                    if s != view.seat and view.alive[s]:
                        targets[s] = self.sample_aim(view, s, combo[s])
                types = [(combo, 1.0)]
                for a in legal:
                    targets[view.seat] = a
                    scores[a] += self.value_last(view, targets, my_card, types)
            best = max(scores.values())
            return [a for a in legal if scores[a] == best][0] if best > 0 else self._late(view, legal)
        if view.round >= 5:
            return self._late(view, legal)
        return legal[int(view.u * len(legal))]

    def _late(self, view, legal):
        key = lambda s: (view.money[s], view.wounds[s])
        best = max(key(s) for s in legal)
        c = [s for s in legal if key(s) == best]
        return c[int(view.u * len(c))]

    def card(self, view, legal):
        for c in (0, 1, 2):
            if c in legal:
                self.my_card = c
                return c

    def lie_down(self, view, legal):
        if view.round < 5:
            return False
        if view.round == 7:
            post = self.posterior(view)
            types = self.type_combos(view, post)
            targets = list(view.targets)
            n = view.players
            cards = [ORDER[7] if view.alive[s] else 0 for s in range(n)]
            cards[view.seat] = self.my_card
            vals = []
            for lie in (False, True):
                tot = 0.0
                for combo, wgt in types:
                    lying = [False] * n
                    for s in range(n):
                        if s != view.seat and view.alive[s]:
                            lying[s] = self.opp_lies(view, s, targets, combo[s])
                    lying[view.seat] = lie
                    tot += wgt * self.i_win(view, *self.outcome(view, targets, cards, lying), True)
                vals.append(tot)
            if vals[0] != vals[1]:
                return vals[1] > vals[0]
        return guns_on(view.seat, view.targets, view.alive) + view.wounds[view.seat] >= self.lethal

DECK = (15, 15, 10)

def killer_aim(me, alive, money, wounds, rng):
    legal = [s for s in range(len(alive)) if alive[s] and s != me]
    two = [s for s in legal if wounds[s] >= 2]
    pool = two if two else legal
    key = lambda s: (money[s], wounds[s])
    best = max(key(s) for s in pool)
    c = [s for s in pool if key(s) == best]
    return rng.choice(c)

class Roll(Solver):
    M = 24
    roll_aim = False

    def _late(self, view, legal):
        two = [s for s in legal if view.wounds[s] >= 2]
        pool = two if two else legal
        key = lambda s: (view.money[s], view.wounds[s])
        best = max(key(s) for s in pool)
        c = [s for s in pool if key(s) == best]
        return c[int(view.u * len(c))]

    def d2_lies_state(self, s, targets, alive, revealed, wounds, lv, ex):
        guns = 0; ps = 1.0
        for a in range(len(targets)):
            if alive[a] and a != s and targets[a] == s:
                guns += 1; ps *= 1.0 - loaded_chance(revealed[a])
        if guns < 2:
            return False
        tol = 0.6 + 2.0 * ((lv / ex if ex > 0 else 1.0) - 1.0) - 0.5 * wounds[s]
        return (1.0 - ps) > tol

    def play_round(self, st, r, targets, cards, lying):
        """Resolve round r on state st (dict of lists), in place. Returns survivors count."""
        n = len(targets); alive = st['alive']
        hits = [0] * n; down = [False] * n; shown = [False] * n
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and cards[s] == 2:
                hits[t] += 1; down[t] = True; shown[s] = True
        bbb = list(down)
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and not bbb[s]:
                shown[s] = True
                if cards[s] == 1:
                    hits[t] += 1; down[t] = True
        for s in range(n):
            if shown[s] and alive[s]:
                rv = list(st['revealed'][s]); rv[cards[s]] += 1; st['revealed'][s] = tuple(rv)
            if alive[s] and lying[s]:
                st['shame'][s] += 1
            st['wounds'][s] = min(3, st['wounds'][s] + hits[s])
        for s in range(n):
            if alive[s] and st['wounds'][s] >= 3:
                alive[s] = False
        sharers = [s for s in range(n) if alive[s] and not lying[s] and not down[s]]
        loot = st['loot']
        share = split_share(loot[0], loot[1], loot[2], len(sharers))
        if share:
            # pay largest notes first
            k = len(sharers); f, t, w = loot
            wp = min(w, k * (share // 4)); rest = k * share - 4 * wp
            tp = min(t, (rest - k * (share % 2)) // 2); fp = rest - 2 * tp
            st['loot'] = [f - fp, t - tp, w - wp]
            for s in sharers:
                st['money'][s] += share * 5000
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
        total_n = sum(und)
        leftover = st['loot'][0] + 2 * st['loot'][1] + 4 * st['loot'][2]
        ex = leftover + (5 * (und[0] + 2 * und[1] + 4 * und[2]) / total_n if total_n else 0)
        pool = [0] * und[0] + [1] * und[1] + [2] * und[2]
        for k in rng.sample(pool, min(5, len(pool))):
            st['loot'][k] += 1; st['drawn'][k] += 1
        return ex * 5000

    def my_next_card(self, hand):
        for c in (0, 1, 2):
            if hand[c] > 0:
                return c

    def rollout(self, view, combo, targets, my_lie, st, rng):
        """From round view.round with known targets and my lie choice; returns win 0/1."""
        n = view.players; me = view.seat; r = view.round
        cards = [ORDER[r] for s in range(n)]
        cards[me] = self.my_card
        lying = [False] * n
        for s in range(n):
            if s != me and st['alive'][s]:
                lying[s] = (self.d2_lies_state(s, targets, st['alive'], st['revealed'], st['wounds'], st['lv'], st['ex'])
                            if combo[s] else guns_on(s, targets, st['alive']) >= 3)
        lying[me] = my_lie
        hand = list(st['hand'])
        if self.play_round(st, r, targets, cards, lying) <= 1:
            return self.win_at_end(st, me, view.shame_value)
        for rr in range(r + 1, 8):
            ex = self.draw(st, rng)
            st['ex'] = ex; st['lv'] = (st['loot'][0] + 2 * st['loot'][1] + 4 * st['loot'][2]) * 5000
            alive = st['alive']
            if not alive[me]:
                return 0.0
            tg = [-1] * n
            for s in range(n):
                if alive[s] and s != me:
                    c = [x for x in range(n) if alive[x] and x != s]
                    if combo[s]:
                        b = max(st['money'][x] for x in c); c = [x for x in c if st['money'][x] == b]
                    tg[s] = rng.choice(c)
            tg[me] = killer_aim(me, alive, st['money'], st['wounds'], rng)
            cards = [ORDER[rr]] * n
            mc = self.my_next_card(hand); hand[mc] -= 1; cards[me] = mc
            ly = [False] * n
            for s in range(n):
                if s != me and alive[s]:
                    ly[s] = (self.d2_lies_state(s, tg, alive, st['revealed'], st['wounds'], st['lv'], st['ex'])
                             if combo[s] else guns_on(s, tg, alive) >= 3)
            g = guns_on(me, tg, alive)
            if rr == 7:
                best = 0.0
                for lie in (False, True):
                    st2 = {k: (list(v) if isinstance(v, list) else v) for k, v in st.items()}
                    ly[me] = lie
                    self.play_round(st2, rr, tg, cards, ly)
                    best = max(best, self.win_at_end(st2, me, view.shame_value))
                return best
            ly[me] = g + st['wounds'][me] >= self.lethal
            if self.play_round(st, rr, tg, cards, ly) <= 1:
                return self.win_at_end(st, me, view.shame_value)
        return self.win_at_end(st, me, view.shame_value)

    def state(self, view):
        return {'alive': list(view.alive), 'money': list(view.money), 'wounds': list(view.wounds),
                'shame': list(view.shame), 'revealed': list(view.revealed), 'loot': list(view.loot),
                'drawn': list(view.drawn), 'lv': view.loot_value, 'ex': view.expected_loot,
                'hand': list(view.hand)}

    def lie_down(self, view, legal):
        if view.round in (5, 6):
            g = guns_on(view.seat, view.targets, view.alive)
            if g == 0:
                return False
            post = self.posterior(view)
            vals = [0.0, 0.0]
            for i in range(self.M):
                seed = self.rng.random()
                combo = [self.rng.random() < post[s] for s in range(view.players)]
                for lie in (0, 1):
                    import random as _r
                    rng = _r.Random(seed)
                    vals[lie] += self.rollout(view, combo, list(view.targets), bool(lie), self.state(view), rng)
            if vals[0] != vals[1]:
                return vals[1] > vals[0]
            return g + view.wounds[view.seat] >= self.lethal
        return Solver.lie_down(self, view, legal)



class Best(Roll):
    """Roll, with the round-5 (index 4) lie-down also chosen by rollouts."""
    def lie_down(self, view, legal):
        if view.round == 4:
            import random as _r
            post = self.posterior(view)
            vals = [0.0, 0.0]
            for i in range(self.M):
                seed = self.rng.random()
                combo = [self.rng.random() < post[s] for s in range(view.players)]
                for lie in (0, 1):
                    vals[lie] += self.rollout(view, combo, list(view.targets), bool(lie), self.state(view), _r.Random(seed))
            return vals[1] > vals[0]
        return Roll.lie_down(self, view, legal)
