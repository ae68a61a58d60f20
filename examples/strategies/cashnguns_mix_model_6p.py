# An outside check's reply to the shipped 6-player win/-$5,000 mix (recorded as beyond_space).
"""Own planning reply to the shipped 6-player win/-$5,000 Cash'n Guns mix (d2 81%, d7 19%).

Model (public record only): both mix members play `bigpot` pot=1.5, so every living opponent
holds the same hand and plays the same card each round, recomputed from the public loot and
expected loot of every round seen (Bang!Bang!Bang! then Bang! when loot >= 1.5 x expected, else
Click first). Each opponent's type (d2: aims at the richest, `threshold` lie-down; d7: aims at
the lowest counted loaded chance, `risk` lie-down) has a posterior from its aims and lie-downs.
Every decision (aim + card together, then lie down or not) is chosen by Monte Carlo rollouts to
the end of the game: types sampled from the posterior, aim ties and the undrawn notes sampled,
opponents played by their exact rules, this seat by a simple default in later rounds; the
choice with the highest simulated win rate (ties counted as wins, rule E6) is played.
"""

import numpy as np
from numba import njit

import importlib.util as _ilu
import os as _os

_spec = _ilu.spec_from_file_location("cg6_base", _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "cashnguns_card_reader_6p.py"))
_cg6 = _ilu.module_from_spec(_spec)
_spec.loader.exec_module(_cg6)
Base = _cg6.Base
U = 5000


@njit(cache=False)
def _lc(rev, s):
    un = 8 - rev[s, 0] - rev[s, 1] - rev[s, 2]
    if un <= 0:
        return 0.0
    return (3 - rev[s, 1] - rev[s, 2]) / un


@njit(cache=False)
def _opp_target(typ, s, alive, money, rev, n):
    best = -1e18
    cnt = 0
    for x in range(n):
        if alive[x] and x != s:
            v = money[x] * 1.0 if typ == 0 else -_lc(rev, x)
            if v > best:
                best = v
                cnt = 1
            elif v == best:
                cnt += 1
    pick = int(np.random.random() * cnt)
    for x in range(n):
        if alive[x] and x != s:
            v = money[x] * 1.0 if typ == 0 else -_lc(rev, x)
            if v == best:
                if pick == 0:
                    return x
                pick -= 1
    return -1


@njit(cache=False)
def _opp_lie(typ, s, targets, alive, wounds, money, rev, pot, exp, rnd, nal, n):
    g = 0
    p_safe = 1.0
    for a in range(n):
        if alive[a] and a != s and targets[a] == s:
            g += 1
            if typ == 0:
                p_safe *= 0.7
            else:
                p_safe *= 1.0 - _lc(rev, a)
    if g == 0:
        return False
    p = 1.0 - p_safe
    if typ == 0:
        w = wounds[s]
        if w + 1 >= 3:
            cost = money[s] + 9.0
        else:
            cost = 3.0 * (w + 1)
        stand = (1.0 - p) * pot / nal - p * cost
        return -1.0 > stand
    if g < 2:
        return False
    tol = 2.0 * (pot / exp - 1.0) - 0.45 * wounds[s] - rnd / 7.0
    return p > tol


@njit(cache=False)
def _pick(hand, fire):
    if fire:
        if hand[2] > 0:
            return 2
        if hand[1] > 0:
            return 1
        return 0
    if hand[0] > 0:
        return 0
    if hand[1] > 0:
        return 1
    return 2


@njit(cache=False)
def _hits_on(me, targets, cards, lying, alive, n):
    """Wounds `me` takes if standing, given everyone's targets, cards and lie-downs."""
    bbb = np.zeros(n, np.bool_)
    for s in range(n):
        t = targets[s]
        if alive[s] and t >= 0 and not lying[s] and not lying[t] and cards[s] == 2:
            bbb[t] = True
    h = 0
    for s in range(n):
        if alive[s] and targets[s] == me and not lying[s]:
            if cards[s] == 2:
                h += 1
            elif cards[s] == 1 and not bbb[s]:
                h += 1
    return h


@njit(cache=False)
def _rollout(me, n, r0, alive0, money0, wounds0, shame0, rev0, table0, drawn0, ohand0, myhand0, p2,
             fire0, exp0, tgt0, my_aim0, my_card0, my_lie0, K, shame_u):
    alive = alive0.copy()
    money = money0.copy()
    wounds = wounds0.copy()
    shame = shame0.copy()
    rev = rev0.copy()
    table = table0.copy()
    drawn = drawn0.copy()
    ohand = ohand0.copy()
    myhand = myhand0.copy()
    types = np.zeros(n, np.int64)
    for s in range(n):
        types[s] = 0 if np.random.random() < p2[s] else 1
    targets = np.full(n, -1, np.int64)
    cards = np.zeros(n, np.int64)
    lying = np.zeros(n, np.bool_)
    down = np.zeros(n, np.bool_)
    bbb = np.zeros(n, np.bool_)
    hits = np.zeros(n, np.int64)
    shown = np.zeros(n, np.bool_)
    survivors = 0
    for s in range(n):
        survivors += alive[s]
    for q in range(r0, 8):
        if q == r0:
            fire = fire0
            exp = exp0
        else:
            # expected pot then draw five notes
            left = np.zeros(3, np.int64)
            left[0] = 15 - drawn[0]
            left[1] = 15 - drawn[1]
            left[2] = 10 - drawn[2]
            tn = left[0] + left[1] + left[2]
            tv = table[0] + 2 * table[1] + 4 * table[2]
            if tn > 0:
                exp = tv + 5.0 * (left[0] + 2 * left[1] + 4 * left[2]) / tn
            else:
                exp = tv * 1.0
            for k in range(5):
                tn = left[0] + left[1] + left[2]
                if tn <= 0:
                    break
                x = int(np.random.random() * tn)
                kind = 0 if x < left[0] else (1 if x < left[0] + left[1] else 2)
                left[kind] -= 1
                table[kind] += 1
                drawn[kind] += 1
            pot_u = table[0] + 2 * table[1] + 4 * table[2]
            fire = pot_u >= 1.5 * exp
        pot = (table[0] + 2 * table[1] + 4 * table[2]) * 1.0
        ocard = _pick(ohand, fire)
        ohand[ocard] -= 1
        nal = 0
        for s in range(n):
            nal += alive[s]
        for s in range(n):
            targets[s] = -1
            if not alive[s] or s == me:
                continue
            cards[s] = ocard
            if q == r0 and tgt0[s] >= 0:
                targets[s] = tgt0[s]
            else:
                targets[s] = _opp_target(types[s], s, alive, money, rev, n)
        # my aim and card
        if q == r0:
            targets[me] = my_aim0
            mc = my_card0
        else:
            best = -1e18
            ta = -1
            for x in range(n):
                if alive[x] and x != me:
                    v = money[x] + shame_u * shame[x]
                    if v > best:
                        best = v
                        ta = x
            targets[me] = ta
            loaded = myhand[1] + myhand[2]
            if myhand[0] > 0 and loaded < 8 - q:
                mc = 0
            elif myhand[1] > 0:
                mc = 1
            elif myhand[2] > 0:
                mc = 2
            else:
                mc = 0
        myhand[mc] -= 1
        cards[me] = mc
        for s in range(n):
            lying[s] = False
            if alive[s] and s != me:
                lying[s] = _opp_lie(types[s], s, targets, alive, wounds, money, rev, pot, exp, q, nal, n)
        if q == r0 and my_lie0 >= 0:
            lying[me] = my_lie0 == 1
        else:
            h = _hits_on(me, targets, cards, lying, alive, n)
            lying[me] = h > 0 and wounds[me] + h > K
        # resolve
        for s in range(n):
            hits[s] = 0
            bbb[s] = False
            shown[s] = False
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and cards[s] == 2:
                hits[t] += 1
                bbb[t] = True
                shown[s] = True
        for s in range(n):
            down[s] = bbb[s]
        for s in range(n):
            t = targets[s]
            if alive[s] and t >= 0 and not lying[s] and not lying[t] and not bbb[s]:
                shown[s] = True
                if cards[s] == 1:
                    hits[t] += 1
                    down[t] = True
        sharers = 0
        for s in range(n):
            if alive[s]:
                if lying[s]:
                    shame[s] += 1
                wounds[s] = min(3, wounds[s] + hits[s])
                if shown[s]:
                    rev[s, cards[s]] += 1
                if not lying[s] and not down[s]:
                    sharers += 1
        if sharers > 0:
            f, t2, w2 = table[0], table[1], table[2]
            total = f + 2 * t2 + 4 * w2
            share = 0
            fp = 0
            tp = 0
            wp = 0
            for sh in range(total // sharers, 0, -1):
                wp = min(w2, sharers * (sh // 4))
                rest = sharers * sh - 4 * wp
                tp = min(t2, (rest - sharers * (sh % 2)) // 2)
                fp = rest - 2 * tp
                if fp <= f:
                    share = sh
                    break
            if share > 0:
                table[0] -= fp
                table[1] -= tp
                table[2] -= wp
                for s in range(n):
                    if alive[s] and not lying[s] and not down[s]:
                        money[s] += share
        survivors = 0
        for s in range(n):
            if alive[s] and wounds[s] >= 3:
                alive[s] = False
            survivors += alive[s]
        if survivors <= 1:
            break
    if not alive[me]:
        return 0.0
    if survivors <= 1:
        return 1.0
    mys = money[me] + shame_u * shame[me]
    for s in range(n):
        if alive[s] and s != me:
            sc = money[s] + shame_u * shame[s]
            if sc > mys:
                return 0.0
            if sc == mys:
                if shame[s] < shame[me]:
                    return 0.0
                if shame[s] == shame[me] and wounds[s] > wounds[me]:
                    return 0.0
    return 1.0


@njit(cache=False)
def _evaluate(seed, M, me, n, r0, alive0, money0, wounds0, shame0, rev0, table0, drawn0, ohand0, myhand0, p2,
              fire0, exp0, tgt0, aims, cards, lies, K, shame_u):
    """Mean win over M rollouts for each candidate (aims[i], cards[i], lies[i]); common random
    numbers: sample j uses the same seed for every candidate."""
    nc = aims.shape[0]
    out = np.zeros(nc)
    for j in range(M):
        for i in range(nc):
            np.random.seed(seed + j)
            out[i] += _rollout(me, n, r0, alive0, money0, wounds0, shame0, rev0, table0, drawn0, ohand0, myhand0,
                               p2, fire0, exp0, tgt0, aims[i], cards[i], lies[i], K, shame_u)
    return out / M


class Plan(Base):
    K = 2
    M = 48
    M_LIE = 48
    FROM = 0          # plan aims/cards from this round on (earlier: the heuristic)
    PLAN_LIE = True

    def _arrays(self, view):
        n = view.players
        alive = np.array(view.alive, np.bool_)
        money = np.array([m // U for m in view.money], np.int64)
        wounds = np.array(view.wounds, np.int64)
        shame = np.array(view.shame, np.int64)
        rev = np.array(view.revealed, np.int64).reshape(n, 3)
        table = np.array(view.loot, np.int64)
        drawn = np.array(view.drawn, np.int64)
        ohand = np.array(self.opp_hand(view.round), np.int64)
        p2 = np.array(self.p2, np.float64)
        return alive, money, wounds, shame, rev, table, drawn, ohand, p2

    def _seed(self, view, salt):
        return int(view.u * 1_000_000_007) % 1_000_000_000 + salt

    def choose(self, view):
        if view.round < self.FROM:
            return super().choose(view)
        n = view.players
        alive, money, wounds, shame, rev, table, drawn, ohand, p2 = self._arrays(view)
        myhand = np.array(view.hand, np.int64)
        opps = [s for s in range(n) if s != view.seat and view.alive[s]]
        kinds = [k for k in range(3) if view.hand[k] > 0]
        cand = [(a, c) for a in opps for c in kinds]
        aims = np.array([a for a, _ in cand], np.int64)
        cards = np.array([c for _, c in cand], np.int64)
        lies = np.full(len(cand), -1, np.int64)
        tgt0 = np.full(n, -2, np.int64)
        vals = _evaluate(self._seed(view, 0), self.M, view.seat, n, view.round, alive, money, wounds, shame, rev,
                         table, drawn, ohand, myhand, p2, bool(self.fires[view.round]), view.expected_loot / U,
                         tgt0, aims, cards, lies, self.K, view.shame_value / U)
        best = max(range(len(cand)), key=lambda i: (round(vals[i], 9), -cards[i]))
        return int(aims[best]), int(cards[best])

    def decide_lie(self, view):
        h_rule = super().decide_lie(view)
        if not self.PLAN_LIE:
            return h_rule
        n = view.players
        k = self.opp_card_now(view)
        cards_now = [k] * n
        mine = self.plan[1] if self.plan else 0
        cards_now[view.seat] = mine
        lying = [False] * n
        for s in range(n):
            if s != view.seat and view.alive[s]:
                lying[s] = self.predicted_lie(view, s, view.targets)
        hits, _ = resolve(view.targets, cards_now, lying, view.alive)
        if hits[view.seat] == 0 and not self.always_plan_lie(view):
            return False
        alive, money, wounds, shame, rev, table, drawn, ohand, p2 = self._arrays(view)
        myhand = np.array(view.hand, np.int64)
        myhand[mine] += 1
        tgt0 = np.array(view.targets, np.int64)
        aims = np.array([view.targets[view.seat]] * 2, np.int64)
        cards = np.array([mine] * 2, np.int64)
        lies = np.array([0, 1], np.int64)
        vals = _evaluate(self._seed(view, 7), self.M_LIE, view.seat, n, view.round, alive, money, wounds, shame,
                         rev, table, drawn, ohand, myhand, p2, bool(self.fires[view.round]),
                         view.expected_loot / U, tgt0, aims, cards, lies, self.K, view.shame_value / U)
        if vals[0] == vals[1]:
            return h_rule
        return bool(vals[1] > vals[0])

    def always_plan_lie(self, view):
        return False


resolve = _cg6.resolve


class P48(Plan):
    pass


class P24(Plan):
    M = 24
    M_LIE = 24


class P96(Plan):
    M = 96
    M_LIE = 96


def _warm():
    n = 6
    z = np.zeros(n, np.int64)
    _evaluate(1, 1, 0, n, 0, np.ones(n, np.bool_), z, z, z, np.zeros((n, 3), np.int64), np.array([2, 2, 1]),
              np.array([2, 2, 1]), np.array([5, 2, 1]), np.array([5, 2, 1]), np.full(n, 0.8), False, 10.6,
              np.full(n, -2, np.int64), np.array([1], np.int64), np.array([0], np.int64), np.array([-1], np.int64),
              2, -1.0)


_warm()


class PSH(Plan):
    """Successive halving: every candidate on M1 rollouts, the best TOP on M2 more (CRN)."""

    M1 = 16
    M2 = 80
    TOP = 3
    M_LIE = 48

    def choose(self, view):
        if view.round < self.FROM:
            return Base.choose(self, view)
        n = view.players
        alive, money, wounds, shame, rev, table, drawn, ohand, p2 = self._arrays(view)
        myhand = np.array(view.hand, np.int64)
        opps = [s for s in range(n) if s != view.seat and view.alive[s]]
        kinds = [k for k in range(3) if view.hand[k] > 0]
        cand = [(a, c) for a in opps for c in kinds]
        tgt0 = np.full(n, -2, np.int64)
        seed = self._seed(view, 0)
        fire = bool(self.fires[view.round])
        exp = view.expected_loot / U
        sv = view.shame_value / U

        def run(cs, s0, m):
            aims = np.array([a for a, _ in cs], np.int64)
            cards = np.array([c for _, c in cs], np.int64)
            lies = np.full(len(cs), -1, np.int64)
            return _evaluate(s0, m, view.seat, n, view.round, alive, money, wounds, shame, rev, table, drawn,
                             ohand, myhand, p2, fire, exp, tgt0, aims, cards, lies, self.K, sv)

        v1 = run(cand, seed, self.M1)
        order = sorted(range(len(cand)), key=lambda i: (-v1[i], cand[i][1]))
        if len(cand) <= 1:
            return cand[0]
        keep = [cand[i] for i in order[:self.TOP]]
        v2 = run(keep, seed + self.M1, self.M2)
        tot = [(v1[order[j]] * self.M1 + v2[j] * self.M2) for j in range(len(keep))]
        best = max(range(len(keep)), key=lambda j: (round(tot[j], 9), -keep[j][1]))
        return keep[best]


class PSH2(PSH):
    M1 = 24
    M2 = 120
    TOP = 3
    M_LIE = 64


class PSHNoLiePlan(PSH):
    PLAN_LIE = False


class PSHFrom4(PSH):
    FROM = 4


class PSH2From4(PSH2):
    FROM = 4


class PSH3From4(PSH):
    FROM = 4
    M1 = 32
    M2 = 160
    TOP = 3
    M_LIE = 96
