"""Strategies: a bullet policy x a target policy x a lie-down policy, plus their parameters.

A strategy reads only its own bullet cards and the public record (``seeds/cash_n_guns.md``,
"Information"): the notes on the table and the notes drawn so far, every player's money,
wounds, shame and whether they are alive, the cards each player has revealed so far (hence
the Clicks and loaded cards they can still hold), and who aimed at whom and who lay down in
every round; when deciding to lie down, also who aims at whom now. Named strategies are presets
of one parameter space; any field can be overridden with ``name:key=value,...`` (see
:func:`parse_strategy`), and ``custom:...`` starts from the all-random, never-lie base.

The decision functions are ``@kernel`` functions that take one uniform random number each, so
the batch kernel and the plain-Python reference draw the same stream. A strategy is handed to
them as one float row (:meth:`Strategy.param_row`, columns ``PARAM_*``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import (
    BANG,
    BANG_BANG_BANG,
    CLICK,
    HAND_COUNTS,
    LETHAL_WOUNDS,
    ROUNDS,
    UNIT_DOLLARS,
)
from cardsim.sims.core.jit import kernel

# Bullet policies: which card to play this round.
BULLET_RANDOM, BULLET_BIG_POT, BULLET_EARLY, BULLET_LATE, BULLET_SAFE, BULLET_SCHEDULE = 0, 1, 2, 3, 4, 5
BULLET_POLICIES = {
    "random": (BULLET_RANDOM, "a uniformly random card from the hand"),
    "bigpot": (
        BULLET_BIG_POT,
        "Bang!Bang!Bang!, then Bang!, when the loot is >= pot x the round's expected loot; else Click",
    ),
    "early": (BULLET_EARLY, "Bang!Bang!Bang! first, then the Bangs, then the Clicks"),
    "late": (BULLET_LATE, "the Clicks first, then the Bangs, Bang!Bang!Bang! last"),
    "safe": (
        BULLET_SAFE,
        "a Bang! (then Bang!Bang!Bang!) only when the target's chance of holding a loaded card is <= safe; else Click",
    ),
    "schedule": (BULLET_SCHEDULE, "the next card of a fixed order of all eight (order, e.g. CCCCCBXB) still in hand"),
}
# Target policies: whom to aim at.
TARGET_RANDOM, TARGET_LEADER, TARGET_RETALIATE, TARGET_WEAKEST, TARGET_CLICKS = 0, 1, 2, 3, 4
TARGET_POLICIES = {
    "random": (TARGET_RANDOM, "a uniformly random living opponent"),
    "leader": (TARGET_LEADER, "the richest living opponent"),
    "retaliate": (
        TARGET_RETALIATE,
        "the last aggressor: whoever aimed at me (gun not lowered) most recently, else random",
    ),
    "weakest": (TARGET_WEAKEST, "the most wounded living opponent"),
    "clicks": (
        TARGET_CLICKS,
        "the opponent most likely to be holding only a Click (fewest loaded cards left per unrevealed card)",
    ),
}
# Lie-down policies: whether to lie down in phase 4.
LIE_NEVER, LIE_RANDOM, LIE_GUNS, LIE_THRESHOLD, LIE_RISK = 0, 1, 2, 3, 4
LIE_POLICIES = {
    "never": (LIE_NEVER, "never lie down"),
    "random": (LIE_RANDOM, "lie down with probability lie_p"),
    "guns": (LIE_GUNS, "lie down when aimed at by >= guns guns"),
    "threshold": (LIE_THRESHOLD, "lie down when the expected loss from wounds exceeds the pot share"),
    "risk": (
        LIE_RISK,
        "lie down when aimed at by >= guns guns and the chance of a wound exceeds "
        "risk + greed x (pot/expected - 1) - care x my wounds + endgame x round/7",
    ),
}

# Columns of the strategy's float row handed to the kernel.
(
    PARAM_BULLET,
    PARAM_TARGET,
    PARAM_LIE,
    PARAM_POT,
    PARAM_SAFE,
    PARAM_GUNS,
    PARAM_LIE_P,
    PARAM_HIT,
    PARAM_WOUND,
    PARAM_RISK,
    PARAM_GREED,
    PARAM_CARE,
    PARAM_ENDGAME,
    PARAM_COUNT,
    PARAM_ORDER,
    PARAM_READ,
) = range(16)
N_PARAMS = 16

#: Loaded cards (Bang! and Bang!Bang!Bang!) in a full hand, and cards in a full hand.
LOADED_IN_HAND = HAND_COUNTS[BANG] + HAND_COUNTS[BANG_BANG_BANG]
CARDS_IN_HAND = sum(HAND_COUNTS)

#: Allowed range of each numeric field (inclusive); ``pot`` is a ratio, ``wound`` dollars.
PARAM_RANGES: dict[str, tuple[float, float]] = {
    "pot": (0.0, 4.0),
    "safe": (0.0, 1.0),
    "guns": (1, 5),
    "lie_p": (0.0, 1.0),
    "hit": (0.0, 1.0),
    "wound": (0, 200_000),
    "risk": (0.0, 1.0),
    "greed": (0.0, 2.0),
    "care": (0.0, 0.5),
    "endgame": (-1.0, 1.0),
    "count": (0, 1),
    "read": (0, 1),
}


#: The ``late`` policy's order as a schedule (the default ``order``): C Click, B Bang!,
#: X Bang!Bang!Bang!.
LATE_ORDER = "CCCCCBBX"
#: Positions left for the two Bangs once Bang!Bang!Bang! has its slot: C(7, 2) = 21.
_BANG_PAIRS = 21


def order_of_index(index: int) -> str:
    """Card order number ``index`` (0-167): Bang!Bang!Bang! in slot ``index // 21``, the two
    Bangs at pair ``index % 21`` (lexicographic) of the seven other slots, Clicks elsewhere."""
    if not 0 <= index < 8 * _BANG_PAIRS:
        raise ValueError(f"order index must be 0-167, got {index}")
    bbb, rank = divmod(index, _BANG_PAIRS)
    pair = [(i, j) for i in range(7) for j in range(i + 1, 7)][rank]
    others = ["B" if k in pair else "C" for k in range(7)]
    return "".join(others[:bbb] + ["X"] + others[bbb:])


#: All 168 orders of 5 Clicks, 2 Bangs and 1 Bang!Bang!Bang!, by index.
ALL_ORDERS: tuple[str, ...] = tuple(order_of_index(i) for i in range(8 * _BANG_PAIRS))


def order_index(order: str) -> int:
    """The index of a card order (:func:`order_of_index`'s inverse)."""
    bbb = order.index("X")
    others = order[:bbb] + order[bbb + 1 :]
    first, second = (k for k, letter in enumerate(others) if letter == "B")
    pairs = [(i, j) for i in range(7) for j in range(i + 1, 7)]
    return bbb * _BANG_PAIRS + pairs.index((first, second))


@dataclass(frozen=True)
class Strategy:
    """One fully specified strategy: three policy names and their parameters.

    Attributes:
        bullet: bullet policy name (``BULLET_POLICIES``).
        target: target policy name (``TARGET_POLICIES``).
        lie: lie-down policy name (``LIE_POLICIES``).
        pot: ``bigpot`` fires when the loot on the table is at least ``pot`` times the round's
            expected loot (:func:`rules.expected_round_pot`: notes left over plus five times the
            mean value of the notes not yet drawn; $53,125 in round one).
        safe: ``safe`` fires when its target's chance of holding a loaded card, counted from the
            target's revealed cards, is at most this (0: only when the target has certainly
            used up its Bangs).
        guns: ``guns`` lies down when aimed at by at least this many guns; ``risk`` never lies
            down with fewer.
        lie_p: probability that ``random`` lies down.
        hit: chance each gun is assumed to wound when not counting cards (3/8: the loaded share
            of a full hand).
        wound: dollar cost ``threshold`` puts on a wound (times wounds + 1; a lethal wound
            costs all my money plus three times this).
        risk, greed, care, endgame: the ``risk`` rule's base tolerated chance of a wound, how
            much a rich pot raises it, how much each wound I carry lowers it, and how much it
            rises towards round 8 (negative: falls).
        count: 1 to estimate each aimer's chance of holding a loaded card from the cards it
            has revealed ((3 - loaded revealed) / (8 - cards revealed)); 0 to assume ``hit``.
        order: the ``schedule`` policy's order of all eight cards, C (Click), B (Bang!) and X
            (Bang!Bang!Bang!), first card first: any of the 168 orders of 5 C, 2 B and 1 X;
            it plays the next card of the order still in hand.
        read: 1 to read an opponent who has revealed only Clicks (at least one) as playing its
            Clicks first: its current card is taken to be a Click while it has played fewer
            than five cards (rounds alive, public) and loaded after; 0 to count only
            (:func:`opponent_loaded`). Used wherever a counted chance is (``clicks``,
            ``safe``, ``count=1``).
    """

    bullet: str = "random"
    target: str = "random"
    lie: str = "never"
    pot: float = 1.0
    safe: float = 0.0
    guns: int = 2
    lie_p: float = 0.5
    hit: float = 0.375
    wound: int = 10_000
    risk: float = 0.5
    greed: float = 0.0
    care: float = 0.0
    endgame: float = 0.0
    count: int = 1
    order: str = LATE_ORDER
    read: int = 0

    def __post_init__(self) -> None:
        for name, table in (
            ("bullet", BULLET_POLICIES),
            ("target", TARGET_POLICIES),
            ("lie", LIE_POLICIES),
        ):
            value = getattr(self, name)
            if value not in table:
                raise UserError(f"unknown {name} policy {value!r}; choose one of: {', '.join(table)}")
        for name, (low, high) in PARAM_RANGES.items():
            value = getattr(self, name)
            if not (math.isfinite(value) and low <= value <= high):
                raise UserError(f"{name} must be between {low:g} and {high:g}, got {value}")
        if self.wound % 1_000:
            raise UserError(f"wound must be whole thousands of dollars, got {self.wound}")
        if not isinstance(self.order, str) or sorted(self.order) != sorted(LATE_ORDER):
            raise UserError(f"order must be 8 letters with 5 C, 2 B and 1 X (e.g. CCCCCBXB), got {self.order!r}")

    def param_row(self) -> np.ndarray:
        """The strategy as the kernel's float row (money in $5,000 units)."""
        row = np.zeros(N_PARAMS, np.float64)
        row[PARAM_BULLET], row[PARAM_TARGET], row[PARAM_LIE] = self.policy_ids()
        row[PARAM_POT] = self.pot
        row[PARAM_SAFE] = self.safe
        row[PARAM_GUNS] = self.guns
        row[PARAM_LIE_P] = self.lie_p
        row[PARAM_HIT] = self.hit
        row[PARAM_WOUND] = self.wound / UNIT_DOLLARS
        row[PARAM_RISK] = self.risk
        row[PARAM_GREED] = self.greed
        row[PARAM_CARE] = self.care
        row[PARAM_ENDGAME] = self.endgame
        row[PARAM_COUNT] = self.count
        row[PARAM_ORDER] = order_index(self.order)
        row[PARAM_READ] = self.read
        return row

    def policy_ids(self) -> tuple[int, int, int]:
        """(bullet, target, lie) policy ids for the kernel."""
        return (
            BULLET_POLICIES[self.bullet][0],
            TARGET_POLICIES[self.target][0],
            LIE_POLICIES[self.lie][0],
        )

    def used_fields(self) -> tuple[str, ...]:
        """The parameters this strategy's three policies actually read."""
        used = {"bigpot": ("pot",), "safe": ("safe",)}.get(self.bullet, ())
        used += {
            "random": ("lie_p",),
            "guns": ("guns",),
            "threshold": ("hit", "wound", "count"),
            "risk": ("guns", "risk", "greed", "care", "endgame", "hit", "count"),
        }.get(self.lie, ())
        if self.lie in ("threshold", "risk") and self.count:
            used = tuple(name for name in used if name != "hit")
        if self.bullet == "schedule":
            used = ("order",) + used
        if self.read:
            used += ("read",)
        return used

    def spec(self) -> str:
        """The shortest ``custom:...`` spec that gives this strategy back."""
        parts = [f"bullet={self.bullet}", f"target={self.target}", f"lie={self.lie}"]
        parts += [
            f"{name}={getattr(self, name)}" if name == "order" else f"{name}={getattr(self, name):g}"
            for name in self.used_fields()
        ]
        return "custom:" + ",".join(parts)

    def describe(self) -> str:
        """One line of plain English."""
        bullet = {
            "random": "plays a random card",
            "early": "fires its loaded cards first",
            "late": "plays its Clicks first",
            "bigpot": f"fires only when the loot is >= {self.pot:.2f} x the expected pot",
            "safe": (
                f"fires only at a target whose chance of holding a loaded card is <= {self.safe:.2f}"
                if self.safe > 0
                else "fires only at a target with no loaded card left"
            ),
            "schedule": f"plays its cards in the order {self.order}",
        }[self.bullet]
        target = {
            "random": "at a random opponent",
            "leader": "at the richest",
            "retaliate": "at its last aggressor",
            "weakest": "at the most wounded",
            "clicks": "at the opponent most likely holding a Click",
        }[self.target]
        counted = "counted" if self.count else f"assumed {self.hit:.2f} per gun"
        lie = {
            "never": "never lies down",
            "random": f"lies down with probability {self.lie_p:.2f}",
            "guns": f"lies down at {self.guns}+ guns",
            "threshold": f"lies down when wound risk ({counted}, ${self.wound:,}/wound) outweighs the share",
            "risk": (
                f"lies down at {self.guns}+ guns when P(wound) ({counted}) > {self.risk:.2f}"
                + (f" +{self.greed:.2f}x(pot/expected-1)" if self.greed else "")
                + (f" -{self.care:.2f}/wound" if self.care else "")
                + (f" {self.endgame:+.2f}xround/7" if self.endgame else "")
            ),
        }[self.lie]
        read = "; reads an opponent who has shown only Clicks as playing Clicks first" if self.read else ""
        return f"{bullet} {target}; {lie}{read}"


#: The named strategies: name -> (one-line description, the strategy). ``coward``, ``patient``,
#: ``hunter``, ``avenger`` and ``vulture`` share the lie-down rule "two guns" and differ only in
#: card order and target; they play almost alike (the two-gun family, seeds/cash_n_guns.md).
NAMED_STRATEGIES: dict[str, tuple[str, Strategy]] = {
    "random": ("uniformly random card and target; lies down half the time", Strategy("random", "random", "random")),
    "stubborn": ("random card and target; never lies down", Strategy("random", "random", "never")),
    "coward": (
        "random card and target; lies down when aimed at by two or more (two-gun family)",
        Strategy("random", "random", "guns"),
    ),
    "patient": (
        "fires only when the loot is >= 1.2 x the round's expected pot (23% of round-one "
        "deals); lies down at two guns (two-gun family)",
        Strategy("bigpot", "random", "guns", pot=1.2),
    ),
    "hunter": (
        "shoots the richest opponent; lies down at two guns (two-gun family)",
        Strategy("random", "leader", "guns"),
    ),
    "avenger": (
        "aims at its last aggressor; lies down at two guns (two-gun family)",
        Strategy("random", "retaliate", "guns"),
    ),
    "calculator": (
        "random card and target; lies down when the wound risk (3/8 per gun) outweighs the pot share",
        Strategy("random", "random", "threshold", count=0),
    ),
    "trigger": ("fires Bang!Bang!Bang! and the Bangs first; never lies down", Strategy("early", "random", "never")),
    "vulture": (
        "fires early at the most wounded opponent; lies down at two guns (two-gun family)",
        Strategy("early", "weakest", "guns"),
    ),
    "bluffer": (
        "plays the Clicks first; lies down when the risk (3/8 per gun) outweighs the pot share",
        Strategy("late", "random", "threshold", count=0),
    ),
    "shark": (
        "fires for loot >= 1.2 x expected, at the richest; weighs risk (3/8 per gun) against the share",
        Strategy("bigpot", "leader", "threshold", pot=1.2, count=0),
    ),
    "bully": (
        "fires for loot >= 1.2 x expected, at the richest; never lies down",
        Strategy("bigpot", "leader", "never", pot=1.2),
    ),
    "sniper": (
        "plays the Clicks first, then fires at the richest; never lies down",
        Strategy("late", "leader", "never"),
    ),
    "counter": (
        "counts cards: fires only at an opponent with no loaded card left, aims at the one "
        "most likely holding a Click; lies down when the counted chance of a wound exceeds 1/2",
        Strategy("safe", "clicks", "risk", safe=0.0, guns=1, risk=0.5),
    ),
    "reader": (
        "counts cards: random card at the richest; lies down only when an aimer can still "
        "hold a loaded card and the counted chance of a wound exceeds 0.3",
        Strategy("random", "leader", "risk", guns=1, risk=0.3),
    ),
}


def parse_strategy(spec: str) -> Strategy:
    """A strategy from ``name`` or ``name:key=value,key=value``.

    ``name`` is a named strategy (or ``custom``, the all-random, never-lie base); the keys
    override its fields: ``bullet``, ``target``, ``lie`` (policy names) and the parameters of
    :class:`Strategy` (``cardsim cashnguns strategies`` lists them with their ranges). Example:
    ``calculator:wound=20000,hit=0.3`` or ``custom:bullet=safe,target=clicks,lie=risk,risk=0.4``.
    """
    name, _, overrides = spec.strip().partition(":")
    if name == "search":
        from cardsim.sims.cashnguns.search import parse_search

        return parse_search(overrides, spec)  # type: ignore[return-value]
    if name == "custom":
        strategy = Strategy()
    elif name in NAMED_STRATEGIES:
        strategy = NAMED_STRATEGIES[name][1]
    else:
        raise UserError(f"unknown strategy {name!r}; choose one of: {', '.join(NAMED_STRATEGIES)}, custom, search")
    if not overrides:
        return strategy
    types = {f.name: f.type for f in fields(Strategy)}
    changes: dict[str, object] = {}
    for item in overrides.split(","):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in types:
            raise UserError(f"bad strategy option {item!r} in {spec!r}; use key=value with keys: {', '.join(types)}")
        changes[key] = _convert(key, types[key], value, spec)
    return replace(strategy, **changes)


def _convert(key: str, type_name: object, value: str, spec: str) -> object:
    """One ``key=value`` option converted to its field type, or a one-line error."""
    try:
        if type_name in ("int", int):
            number = float(value)
            if not number.is_integer():
                raise ValueError(value)
            return int(number)
        if type_name in ("float", float):
            return float(value)
        if key == "order":
            return value.upper()
    except ValueError:
        raise UserError(f"bad value {value!r} for {key} in strategy {spec!r}") from None
    return value


@kernel(refcounts=False)
def loaded_chance(revealed: np.ndarray, seat: int) -> float:
    """Public estimate of the chance that ``seat``'s current card is loaded: the loaded cards it
    has not revealed over all the cards it has not revealed (its hand and any card it discarded
    unseen). 0 when it has revealed all three loaded cards."""
    unrevealed = CARDS_IN_HAND - revealed[seat, 0] - revealed[seat, 1] - revealed[seat, 2]
    if unrevealed <= 0:
        return 0.0
    return (LOADED_IN_HAND - revealed[seat, 1] - revealed[seat, 2]) / unrevealed


@kernel(refcounts=False)
def opponent_loaded(params: np.ndarray, revealed: np.ndarray, aims: np.ndarray, round_index: int, seat: int) -> float:
    """The chance that ``seat``'s current card is loaded as a strategy estimates it from the
    public record: :func:`loaded_chance`, or with ``read`` 1 and ``seat`` having revealed
    Clicks only (at least one), the reading "Clicks first": 0 while it has played fewer cards
    than a hand's Clicks (one card per round alive, from ``aims``), then 1."""
    if params[PARAM_READ] > 0 and revealed[seat, 0] > 0 and revealed[seat, 1] + revealed[seat, 2] == 0:
        played = 0
        for past in range(round_index):
            if aims[past, seat] >= 0:
                played += 1
        if played < HAND_COUNTS[CLICK]:
            return 0.0
        return 1.0
    return loaded_chance(revealed, seat)


@kernel(refcounts=False)
def schedule_card(order: int, hand: np.ndarray) -> int:
    """The next card of card order number ``order`` (:func:`order_of_index`) still in ``hand``:
    the first slot whose kind has appeared in the order up to it more often than the player
    has used that kind."""
    bbb = order // _BANG_PAIRS
    rank = order % _BANG_PAIRS
    first = -1
    second = -1
    for i in range(7):
        for j in range(i + 1, 7):
            if rank == 0 and first < 0:
                first = i
                second = j
            rank -= 1
    seen_click = 0
    seen_bang = 0
    seen_bbb = 0
    other = 0
    for slot in range(CARDS_IN_HAND):
        if slot == bbb:
            seen_bbb += 1
            if seen_bbb > HAND_COUNTS[BANG_BANG_BANG] - hand[BANG_BANG_BANG]:
                return BANG_BANG_BANG
        elif other == first or other == second:
            other += 1
            seen_bang += 1
            if seen_bang > HAND_COUNTS[BANG] - hand[BANG]:
                return BANG
        else:
            other += 1
            seen_click += 1
            if seen_click > HAND_COUNTS[CLICK] - hand[CLICK]:
                return CLICK
    return CLICK


@kernel(refcounts=False)
def choose_target(
    params: np.ndarray,
    me: int,
    alive: np.ndarray,
    money: np.ndarray,
    wounds: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    round_index: int,
    u: float,
) -> int:
    """The living opponent a player aims at (phase 3); ties are broken uniformly with ``u``.

    ``leader``: the richest; ``weakest``: the most wounded; ``clicks``: the lowest
    :func:`opponent_loaded`; ``retaliate``: the players who aimed at me without lying down in the
    most recent earlier round anyone did (``aims``/``lay``: one row per round), everyone if
    nobody ever did; ``random``: every living opponent.
    """
    policy = int(params[PARAM_TARGET])
    players = alive.shape[0]
    latest = -1  # retaliate: the most recent earlier round in which someone aimed at me
    if policy == TARGET_RETALIATE:
        for past in range(round_index - 1, -1, -1):
            for seat in range(players):
                if alive[seat] and seat != me and aims[past, seat] == me and not lay[past, seat]:
                    latest = past
            if latest >= 0:
                break
    best = -np.inf
    count = 0
    for seat in range(players):
        if alive[seat] and seat != me:
            value = target_value(policy, params, me, seat, money, wounds, revealed, aims, lay, round_index, latest)
            if value > best:
                best = value
                count = 1
            elif value == best:
                count += 1
    pick = int(u * count)
    for seat in range(players):
        if alive[seat] and seat != me:
            if target_value(policy, params, me, seat, money, wounds, revealed, aims, lay, round_index, latest) == best:
                if pick == 0:
                    return seat
                pick -= 1
    return -1


@kernel(refcounts=False)
def target_value(
    policy: int,
    params: np.ndarray,
    me: int,
    seat: int,
    money: np.ndarray,
    wounds: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    round_index: int,
    latest: int,
) -> float:
    """How much :func:`choose_target`'s ``policy`` wants to aim at the living opponent ``seat``
    (the highest wins, ties drawn): 1 for a player who aimed at me without lying down in round
    ``latest`` (retaliate; -1: nobody ever did, everyone 0), its money (leader), its wounds
    (weakest), minus its :func:`opponent_loaded` (clicks), 0 for everyone (random)."""
    if policy == TARGET_RETALIATE:
        return 1.0 if latest >= 0 and aims[latest, seat] == me and not lay[latest, seat] else 0.0
    if policy == TARGET_LEADER:
        return float(money[seat])
    if policy == TARGET_WEAKEST:
        return float(wounds[seat])
    if policy == TARGET_RANDOM:
        return 0.0
    return -opponent_loaded(params, revealed, aims, round_index, seat)


@kernel(refcounts=False)
def choose_bullet(
    params: np.ndarray,
    hand: np.ndarray,
    pot_units: float,
    expected_pot_units: float,
    target_loaded: float,
    u: float,
) -> int:
    """The bullet card a player plays this round (phase 2), from its remaining ``hand`` counts.

    ``pot_units``: the loot on the table; ``expected_pot_units``: the round's expected loot
    (:func:`rules.expected_round_pot`); ``target_loaded``: the chance the target holds a loaded
    card (:func:`opponent_loaded`); ``schedule`` plays :func:`schedule_card`. With no Click left a loaded card is played, and vice versa.
    """
    policy = int(params[PARAM_BULLET])
    if policy == BULLET_SCHEDULE:
        return schedule_card(int(params[PARAM_ORDER]), hand)
    if policy == BULLET_RANDOM:
        pick = int(u * (hand[0] + hand[1] + hand[2]))
        for card in range(3):
            if pick < hand[card]:
                return card
            pick -= hand[card]
        return CLICK
    fire = policy == BULLET_EARLY
    if policy == BULLET_BIG_POT:
        fire = pot_units >= params[PARAM_POT] * expected_pot_units
    elif policy == BULLET_SAFE:
        fire = target_loaded <= params[PARAM_SAFE]
    if fire and policy == BULLET_SAFE:
        order = (BANG, BANG_BANG_BANG, CLICK)
    elif fire:
        order = (BANG_BANG_BANG, BANG, CLICK)
    else:
        order = (CLICK, BANG, BANG_BANG_BANG)
    for card in order:
        if hand[card] > 0:
            return card
    return CLICK


@kernel(refcounts=False)
def choose_lie_down(
    params: np.ndarray,
    me: int,
    targets: np.ndarray,
    alive: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    pot_units: float,
    expected_pot_units: float,
    players_alive: int,
    my_wounds: int,
    my_money: int,
    round_index: int,
    shame_units: float,
    u: float,
) -> bool:
    """Whether a player lies down in phase 4, knowing who aims at whom (``targets``).

    The chance of at least one wound is ``1 - prod(1 - q)`` over the guns on me, with ``q`` the
    gun's :func:`opponent_loaded` when ``count`` is 1 and ``hit`` otherwise.
    ``threshold`` compares standing, worth ``(1 - p) * pot / players_alive - p * cost`` with
    ``cost = wound * (wounds + 1)`` (a third wound costs all my money plus ``3 * wound``),
    against lying down, worth the shame value. ``risk`` lies down with at least ``guns`` guns on
    me when ``p > risk + greed * (pot / expected - 1) - care * wounds + endgame * round / 7``.
    """
    policy = int(params[PARAM_LIE])
    if policy == LIE_NEVER:
        return False
    if policy == LIE_RANDOM:
        return u < params[PARAM_LIE_P]
    guns = 0
    p_safe = 1.0
    for seat in range(targets.shape[0]):
        if alive[seat] and seat != me and targets[seat] == me:
            guns += 1
            if params[PARAM_COUNT] > 0:
                p_safe *= 1.0 - opponent_loaded(params, revealed, aims, round_index, seat)
            else:
                p_safe *= 1.0 - params[PARAM_HIT]
    if policy == LIE_GUNS:
        return guns >= params[PARAM_GUNS]
    if guns == 0:
        return False
    p_hit = 1.0 - p_safe
    if policy == LIE_RISK:
        if guns < params[PARAM_GUNS]:
            return False
        tolerated = (
            params[PARAM_RISK]
            + params[PARAM_GREED] * (pot_units / expected_pot_units - 1.0)
            - params[PARAM_CARE] * my_wounds
            + params[PARAM_ENDGAME] * round_index / (ROUNDS - 1)
        )
        return p_hit > tolerated
    if my_wounds + 1 >= LETHAL_WOUNDS:
        cost = my_money + LETHAL_WOUNDS * params[PARAM_WOUND]
    else:
        cost = params[PARAM_WOUND] * (my_wounds + 1)
    stand_value = (1.0 - p_hit) * pot_units / players_alive - p_hit * cost
    return shame_units > stand_value
