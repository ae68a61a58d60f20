"""The built-in Bang! bots written through the strategy interface, in plain Python.

:class:`BuiltinBot` is a line-by-line twin of the kernel's policies
(:mod:`cardsim.sims.bang.policies`: the scripted play order, the suspicion from the public
attack record, hostility per role, card worth) that reads only the
:class:`~cardsim.sims.bang.strategy.View`. With the role bot's parameters (``BuiltinBot()``)
it plays exactly the kernel's games on the same seeds (``tests/bang/test_strategy.py`` compares
whole games), which shows the view holds everything the built-in bots decide from;
``BuiltinBot("tuned")`` plays with another built-in's parameter table. A user strategy may
subclass it and change one rule (override :meth:`BuiltinBot.hostility`, say) and keep every
other decision (``examples/strategies/bang_renegade.py``).
"""

from __future__ import annotations

from cardsim.sims.bang import policies as P
from cardsim.sims.bang.cards import (
    BANG,
    BARREL,
    BEER,
    CALAMITY_JANET,
    CARABINE,
    CAT_BALOU,
    DEPUTY,
    DUEL,
    DYNAMITE,
    FIRST_BLUE,
    FIRST_WEAPON,
    GATLING,
    GENERAL_STORE,
    INDIANS,
    JAIL,
    MISSED,
    MUSTANG,
    OUTLAW,
    PANIC,
    REMINGTON,
    RENEGADE,
    SALOON,
    SCHOFIELD,
    SCOPE,
    SHERIFF,
    SID_KETCHUM,
    STAGECOACH,
    VOLCANIC,
    WELLS_FARGO,
    WILLY_THE_KID,
    WINCHESTER,
)  # fmt: skip
from cardsim.sims.bang.simulator import bot_params
from cardsim.sims.bang.strategy import END, SID_ABILITY, Play, View, card_kind

WORTH = [float(x) for x in P.KIND_WORTH]
REACH = {VOLCANIC: 1, SCHOFIELD: 2, REMINGTON: 3, CARABINE: 4, WINCHESTER: 5}
NEVER = -1e9


class BuiltinBot:
    """The ``role`` bot (or built-in ``bot``'s parameters) as a Python strategy: every
    decision."""

    def __init__(self, bot: str = "role") -> None:
        self.bot = bot
        self.tables: dict[int, list[list[float]]] = {}

    # ------------------------------------------------------------ reading the view
    def params(self, view: View) -> list[float]:
        if view.players not in self.tables:
            self.tables[view.players] = bot_params(self.bot, view.players).tolist()
        return self.tables[view.players][view.role]

    @staticmethod
    def find(view: View, kind: int) -> int:
        return next((c for c in view.hand if card_kind(c) == kind), -1)

    @staticmethod
    def count(view: View, kind: int) -> int:
        return sum(1 for c in view.hand if card_kind(c) == kind)

    @staticmethod
    def in_play(view: View, seat: int, kind: int) -> bool:
        return any(card_kind(c) == kind for c in view.in_play[seat])

    # ------------------------------------------------------------ beliefs
    @staticmethod
    def suspicion(view: View, w: list[float]) -> list[float]:
        n, sheriff = view.players, view.sheriff
        base = [0.0] * n
        for a in range(n):
            if a != sheriff:
                base[a] = w[P.P_EVIDENCE_SHERIFF] * view.attacks[a][sheriff]
        current = list(base)
        for _ in range(2):
            nxt = list(base)
            for a in range(n):
                if a == sheriff:
                    continue
                for t in range(n):
                    hits = view.attacks[a][t]
                    if hits == 0 or t == sheriff or t == a:
                        continue
                    role = view.roles[t] if not view.alive[t] else -1
                    if role == OUTLAW or (role < 0 and current[t] > 0):
                        nxt[a] -= w[P.P_EVIDENCE_CHAIN] * hits
                    elif role == DEPUTY or (role < 0 and current[t] < 0):
                        nxt[a] += w[P.P_EVIDENCE_CHAIN] * hits
            current = nxt
        return current

    @staticmethod
    def certain(w: list[float], evidence: float) -> float:
        return max(w[P.P_CERTAIN] + 0.1 * max(min(evidence, 5.0), -5.0), 0.5)

    def hostility(self, view: View, w: list[float], suspect: list[float], t: int) -> float:
        if t == view.seat or not view.alive[t]:
            return NEVER
        r, t_sheriff, living = view.role, t == view.sheriff, view.living
        others_hidden = living - 1 - (0 if r == SHERIFF else 1)
        lean = w[P.P_WOUNDED] * (view.max_life[t] - view.life[t])
        evidence = w[P.P_TRUST] * suspect[t]
        if r in (SHERIFF, DEPUTY):
            if t_sheriff:
                return NEVER
            if view.foes_alive == others_hidden:
                return self.certain(w, suspect[t]) + lean
            if suspect[t] <= 0.0:
                caution = w[P.P_SHERIFF_CAUTION] if r == SHERIFF else w[P.P_DEPUTY_CAUTION]
                return evidence + w[P.P_UNKNOWN] + lean - caution
            return evidence + w[P.P_UNKNOWN] + lean
        if r == OUTLAW:
            if w[P.P_OUTLAW_LONG] > 0.5:  # the Outlaw who plays long
                if t_sheriff:
                    return 20.0 if view.life[t] <= 2 else 1.0 + lean
                return NEVER if suspect[t] > 0.0 else 6.0 - suspect[t] + lean
            if t_sheriff:
                return w[P.P_OUTLAW_SHERIFF] + lean
            if view.outlaws_alive == 1:
                return self.certain(w, -suspect[t]) + lean
            return -evidence + w[P.P_UNKNOWN] + lean
        outlaws = view.outlaws_alive
        if w[P.P_REN_WILD] > 0.5:  # the Renegade played as an Outlaw
            if outlaws == 0:
                return NEVER if t_sheriff and living != 2 else 10.0 + lean
            return 20.0 + lean if t_sheriff else 5.0 - suspect[t] + lean
        if w[P.P_REN_RULES] > 0.5:
            if t_sheriff:
                return 1.0 + lean if living == 2 else NEVER
            eager = w[P.P_REN_BASE] + w[P.P_REN_REVENGE] * view.attacks[t][view.seat]
            if outlaws == 0:
                return 2.0 + lean + eager
            if w[P.P_REN_LAW_LIFE] > 0.0:
                law_ahead = view.life[view.sheriff] >= w[P.P_REN_LAW_LIFE] - (1.0 if outlaws == 1 else 0.0)
            else:
                law_ahead = self.deputies_alive(view) >= outlaws
            if law_ahead:
                return -evidence + w[P.P_UNKNOWN] + lean + eager
            return evidence + w[P.P_UNKNOWN] + lean + eager
        if outlaws > 0:
            if t_sheriff:
                if living - 1 - 2 * outlaws >= w[P.P_REN_MARGIN] and view.life[t] >= w[P.P_REN_SHERIFF_LIFE]:
                    return 1.5 + lean
                return NEVER
            return evidence + w[P.P_UNKNOWN] + lean
        if t_sheriff:
            return 1.0 if living == 2 else NEVER
        return 2.0 + lean

    @staticmethod
    def deputies_alive(view: View) -> int:
        dealt = {4: 0, 5: 1, 6: 1, 7: 2}[view.players]
        dead = sum(1 for q in range(view.players) if not view.alive[q] and view.roles[q] == DEPUTY)
        return dealt - dead

    def wants_dynamite(self, view: View, w: list[float]) -> bool:
        others = view.living - 1
        if others <= 0:
            return False
        if view.role == OUTLAW:
            foes = others - (view.outlaws_alive - 1)
        elif view.role == RENEGADE:
            foes = others
        else:
            foes = view.foes_alive
        return foes >= w[P.P_DYNAMITE] * others

    def worth(self, view: View, w: list[float], c: int) -> float:
        k, me = card_kind(c), view.seat
        if k >= FIRST_WEAPON:
            if self.in_play(view, me, k) or REACH[k] <= view.reach:
                return 1.0
            return WORTH[k]
        if k >= FIRST_BLUE and k != JAIL and k != DYNAMITE and self.in_play(view, me, k):
            return 0.5
        if k == BEER and view.life[me] == view.max_life[me]:
            return 5.0
        if k == DYNAMITE and not self.wants_dynamite(view, w):
            return 0.0
        if k == BANG:
            return w[P.P_WORTH_BANG]
        if k == MISSED:
            return w[P.P_WORTH_MISSED]
        if k == BEER:
            return w[P.P_WORTH_BEER]
        return WORTH[k]

    def best_target(self, view: View, w: list[float], suspect: list[float], kind: int, threshold: float) -> int:
        best, best_score = -1, threshold
        for t in range(view.players):
            if t == view.seat or not view.alive[t]:
                continue
            if kind == BANG and view.distance[t] > view.reach:
                continue
            if kind == PANIC and view.distance[t] > 1:
                continue
            if kind == JAIL and (t == view.sheriff or self.in_play(view, t, JAIL)):
                continue
            if kind in (PANIC, CAT_BALOU) and view.hand_counts[t] + len(view.in_play[t]) == 0:
                continue
            score = self.hostility(view, w, suspect, t)
            if score > best_score:
                best, best_score = t, score
        return best

    @staticmethod
    def card_to_take(view: View, t: int) -> int:
        best, best_worth = -1, 0.0
        for c in view.in_play[t]:
            k = card_kind(c)
            if k != JAIL and k != DYNAMITE and WORTH[k] > best_worth:
                best, best_worth = c, WORTH[k]
        if best >= 0:
            return best
        return -1 if view.hand_counts[t] > 0 else -2

    # ------------------------------------------------------------ the decisions
    def play(self, view: View, legal: tuple[Play, ...]) -> Play:
        return Play(*self.scripted(view, self.params(view)))

    def scripted(self, view: View, w: list[float]) -> tuple[int, int, int]:
        me, living = view.seat, view.living
        missing = view.max_life[me] - view.life[me]
        suspect = self.suspicion(view, w)
        if missing >= w[P.P_BEER_GAP] and missing > 0 and living > 2 and self.find(view, BEER) >= 0:
            return self.find(view, BEER), -1, -1
        for k in (WELLS_FARGO, STAGECOACH, GENERAL_STORE):
            if self.find(view, k) >= 0:
                return self.find(view, k), -1, -1
        for k in (BARREL, MUSTANG, SCOPE):
            if not self.in_play(view, me, k) and self.find(view, k) >= 0:
                return self.find(view, k), -1, -1
        weapon, reach = -1, view.reach
        for k in (SCHOFIELD, REMINGTON, CARABINE, WINCHESTER):
            if REACH[k] > reach and not self.in_play(view, me, k) and self.find(view, k) >= 0:
                weapon, reach = self.find(view, k), REACH[k]
        if weapon >= 0:
            return weapon, -1, -1
        no_gun = not self.in_play(view, me, VOLCANIC) and view.reach == 1
        if no_gun and view.characters[me] != WILLY_THE_KID:
            c = self.find(view, VOLCANIC)
            if c >= 0 and self.count(view, BANG) >= 2:
                return c, -1, -1
        c = self.find(view, JAIL)
        if c >= 0:
            t = self.best_target(view, w, suspect, JAIL, w[P.P_JAIL_MIN])
            if t >= 0:
                return c, t, -1
        r = view.role
        focus = r == OUTLAW and w[P.P_OUTLAW_FOCUS] > 0.0
        for k in (PANIC, CAT_BALOU):
            c = self.find(view, k)
            if c >= 0:
                t = self.best_target(view, w, suspect, k, w[P.P_TAKE_MIN])
                if t >= 0:
                    which = self.card_to_take(view, t)
                    if focus and t == view.sheriff and view.distance[t] > view.reach:
                        mustang = next((x for x in view.in_play[t] if card_kind(x) == MUSTANG), -1)
                        if mustang >= 0:
                            which = mustang
                    if which != -2:
                        return c, t, which
        calamity = view.characters[me] == CALAMITY_JANET
        c = self.find(view, DUEL)
        if c >= 0:
            t = self.best_target(view, w, suspect, DUEL, w[P.P_SHOOT_MIN])
            bangs = self.count(view, BANG) + (self.count(view, MISSED) if calamity else 0)
            all_in = focus and t == view.sheriff and view.life[view.sheriff] <= w[P.P_OUTLAW_FOCUS]
            if t >= 0 and (all_in or bangs >= max(w[P.P_DUEL_BANGS], 1.0) or view.hand_counts[t] == 0):
                return c, t, -1
        reckless = r == SHERIFF or view.life[view.sheriff] >= w[P.P_MASS_SHERIFF_LIFE] or living == 2
        if r == OUTLAW:
            reckless = living - view.outlaws_alive >= w[P.P_OUTLAW_MASS] * (living - 1)
        if reckless:
            for k in (GATLING, INDIANS):
                if self.find(view, k) >= 0:
                    return self.find(view, k), -1, -1
        if view.may_bang:
            c = self.find(view, BANG)
            if c < 0 and calamity and self.count(view, MISSED) > w[P.P_RESERVE_MISSED]:
                c = self.find(view, MISSED)
            if c >= 0:
                t = self.best_target(view, w, suspect, BANG, w[P.P_SHOOT_MIN])
                if t >= 0:
                    return c, t, -1
        if not self.in_play(view, me, DYNAMITE) and self.wants_dynamite(view, w):
            if self.find(view, DYNAMITE) >= 0:
                return self.find(view, DYNAMITE), -1, -1
        if missing > 0:
            c = self.find(view, SALOON)
            if c >= 0 and missing >= w[P.P_SALOON_GAP]:
                return c, -1, -1
            if view.characters[me] == SID_KETCHUM and len(view.hand) >= 2 + view.life[me]:
                return SID_ABILITY, -1, -1
        return END

    def discard(self, view: View, legal: tuple[int, ...]) -> int:
        w = self.params(view)
        worst, worst_worth = -1, 1e9
        for c in view.hand:
            worth = self.worth(view, w, c)
            if worth < worst_worth:
                worst, worst_worth = c, worth
        return worst

    def store_pick(self, view: View, legal: tuple[int, ...]) -> int:
        w = self.params(view)
        best = 0
        for i in range(1, len(legal)):
            if self.worth(view, w, legal[i]) > self.worth(view, w, legal[best]):
                best = i
        return legal[best]

    def sid_discard(self, view: View, legal: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        w = self.params(view)
        first = second = -1
        worst1 = worst2 = 1e9
        for c in view.hand:
            worth = self.worth(view, w, c)
            if worth < worst1:
                second, worst2 = first, worst1
                first, worst1 = c, worth
            elif worth < worst2:
                second, worst2 = c, worth
        return first, second

    def jesse_source(self, view: View, legal: tuple[int, ...]) -> int:
        w = self.params(view)
        suspect = self.suspicion(view, w)
        source, best = -1, 0.0
        for q in legal[1:]:
            score = self.hostility(view, w, suspect, q) + 0.01 * view.hand_counts[q]
            if score > best:
                source, best = q, score
        return source

    def kit_return(self, view: View, legal: tuple[int, ...]) -> int:
        w = self.params(view)
        back = 0
        for i in range(1, 3):
            if self.worth(view, w, legal[i]) < self.worth(view, w, legal[back]):
                back = i
        return legal[back]

    def pedro_discard(self, view: View, legal: tuple[bool, bool]) -> bool:
        return self.worth(view, self.params(view), view.discard_top) >= 6.0
