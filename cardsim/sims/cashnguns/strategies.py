"""Strategies: a bullet policy x a target policy x a lie-down policy, plus their parameters.

A strategy sees only public information (the loot on the table, every player's money,
wounds, shame and whether they are alive, who aimed at whom last round and, when deciding to
lie down, who aims at whom now) and its own bullet cards. Named strategies are presets; any
field can be overridden from the CLI with ``name:key=value,...`` (see :func:`parse_strategy`).

The decision functions are leaf ``@kernel`` functions that take one uniform random
number each, so the batch kernel and the plain-Python reference draw the same stream.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np
from cardsim.sims.core.jit import kernel

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import BANG, BANG_BANG_BANG, CLICK, LETHAL_WOUNDS, UNIT_DOLLARS

# Bullet policies: which card to play this round.
BULLET_RANDOM, BULLET_BIG_POT, BULLET_EARLY, BULLET_LATE = 0, 1, 2, 3
BULLET_POLICIES = {
    "random": (BULLET_RANDOM, "a uniformly random card from the hand"),
    "bigpot": (BULLET_BIG_POT, "Bang!Bang!Bang!, then Bang!, when the loot is worth >= pot; else Click"),
    "early": (BULLET_EARLY, "Bang!Bang!Bang! first, then the Bangs, then the Clicks"),
    "late": (BULLET_LATE, "the Clicks first, then the Bangs, Bang!Bang!Bang! last"),
}
# Target policies: whom to aim at.
TARGET_RANDOM, TARGET_LEADER, TARGET_RETALIATE, TARGET_WEAKEST = 0, 1, 2, 3
TARGET_POLICIES = {
    "random": (TARGET_RANDOM, "a uniformly random living opponent"),
    "leader": (TARGET_LEADER, "the richest living opponent"),
    "retaliate": (TARGET_RETALIATE, "someone who aimed at me last round, else random"),
    "weakest": (TARGET_WEAKEST, "the most wounded living opponent"),
}
# Lie-down policies: whether to lie down in phase 4.
LIE_NEVER, LIE_RANDOM, LIE_GUNS, LIE_THRESHOLD = 0, 1, 2, 3
LIE_POLICIES = {
    "never": (LIE_NEVER, "never lie down"),
    "random": (LIE_RANDOM, "lie down with probability lie_p"),
    "guns": (LIE_GUNS, "lie down when aimed at by >= guns guns"),
    "threshold": (LIE_THRESHOLD, "lie down when the expected loss from wounds exceeds the pot share"),
}

# Columns of the per-player parameter row handed to the kernel.
PARAM_POT, PARAM_GUNS, PARAM_LIE_P, PARAM_HIT, PARAM_WOUND = 0, 1, 2, 3, 4
N_PARAMS = 5


@dataclass(frozen=True)
class Strategy:
    """One fully specified strategy: three policy names and their parameters.

    Attributes:
        bullet: bullet policy name (``BULLET_POLICIES``).
        target: target policy name (``TARGET_POLICIES``).
        lie: lie-down policy name (``LIE_POLICIES``).
        pot: loot value in dollars from which ``bigpot`` fires its Bangs.
        guns: guns aimed at me from which ``guns`` lies down.
        lie_p: probability that ``random`` lies down.
        hit: chance ``threshold`` assumes each gun aimed at it wounds (3/8: the damaging
            share of a full hand).
        wound: dollar cost ``threshold`` puts on a wound (times wounds + 1; a lethal wound
            costs all my money plus three times this).
    """

    bullet: str = "random"
    target: str = "random"
    lie: str = "never"
    pot: int = 50_000
    guns: int = 2
    lie_p: float = 0.5
    hit: float = 0.375
    wound: int = 10_000

    def __post_init__(self) -> None:
        for name, table in (
            ("bullet", BULLET_POLICIES),
            ("target", TARGET_POLICIES),
            ("lie", LIE_POLICIES),
        ):
            value = getattr(self, name)
            if value not in table:
                raise UserError(f"unknown {name} policy {value!r}; choose one of: {', '.join(table)}")
        if self.pot < 0 or self.pot % UNIT_DOLLARS:
            raise UserError(f"pot must be a non-negative multiple of {UNIT_DOLLARS}, got {self.pot}")
        if not 1 <= self.guns <= 5:
            raise UserError(f"guns must be between 1 and 5, got {self.guns}")
        for name in ("lie_p", "hit"):
            value = getattr(self, name)
            if not (math.isfinite(value) and 0.0 <= value <= 1.0):
                raise UserError(f"{name} must be a probability in [0, 1], got {value}")
        if self.wound < 0:
            raise UserError(f"wound must be >= 0 dollars, got {self.wound}")

    def param_row(self) -> np.ndarray:
        """The parameters as the kernel's float row (money in $5,000 units)."""
        row = np.zeros(N_PARAMS, np.float64)
        row[PARAM_POT] = self.pot / UNIT_DOLLARS
        row[PARAM_GUNS] = self.guns
        row[PARAM_LIE_P] = self.lie_p
        row[PARAM_HIT] = self.hit
        row[PARAM_WOUND] = self.wound / UNIT_DOLLARS
        return row

    def policy_ids(self) -> tuple[int, int, int]:
        """(bullet, target, lie) policy ids for the kernel."""
        return (
            BULLET_POLICIES[self.bullet][0],
            TARGET_POLICIES[self.target][0],
            LIE_POLICIES[self.lie][0],
        )


#: The named strategies: name -> (one-line description, the strategy).
NAMED_STRATEGIES: dict[str, tuple[str, Strategy]] = {
    "random": ("uniformly random card and target; lies down half the time",
               Strategy("random", "random", "random")),
    "stubborn": ("random card and target; never lies down",
                 Strategy("random", "random", "never")),
    "coward": ("random card and target; lies down when aimed at by two or more",
               Strategy("random", "random", "guns")),
    "patient": ("saves the Bangs for loot worth $50,000 or more; lies down at two guns",
                Strategy("bigpot", "random", "guns")),
    "hunter": ("shoots the richest opponent; lies down at two guns",
               Strategy("random", "leader", "guns")),
    "avenger": ("aims at last round's shooter; lies down at two guns",
                Strategy("random", "retaliate", "guns")),
    "calculator": ("random card and target; lies down when the wound risk outweighs the pot share",
                   Strategy("random", "random", "threshold")),
    "trigger": ("fires Bang!Bang!Bang! and the Bangs first; never lies down",
                Strategy("early", "random", "never")),
    "vulture": ("fires early at the most wounded opponent; lies down at two guns",
                Strategy("early", "weakest", "guns")),
    "bluffer": ("plays the Clicks first; lies down when the risk outweighs the pot share",
                Strategy("late", "random", "threshold")),
    "shark": ("Bangs for big loot, aimed at the richest; weighs risk against the pot share",
              Strategy("bigpot", "leader", "threshold")),
    "bully": ("Bangs for big loot, aimed at the richest; never lies down",
              Strategy("bigpot", "leader", "never")),
    "sniper": ("plays the Clicks first, then fires at the richest; never lies down",
               Strategy("late", "leader", "never")),
}


def parse_strategy(spec: str) -> Strategy:
    """A strategy from ``name`` or ``name:key=value,key=value``.

    ``name`` is a named strategy (or ``custom``, the all-random, never-lie base); the keys
    override its fields: ``bullet``, ``target``, ``lie`` (policy names) and the parameters
    ``pot``, ``guns``, ``lie_p``, ``hit``, ``wound``. Example:
    ``calculator:wound=20000,hit=0.3`` or ``custom:bullet=early,target=leader,lie=guns,guns=3``.
    """
    name, _, overrides = spec.strip().partition(":")
    if name == "custom":
        strategy = Strategy()
    elif name in NAMED_STRATEGIES:
        strategy = NAMED_STRATEGIES[name][1]
    else:
        raise UserError(
            f"unknown strategy {name!r}; choose one of: {', '.join(NAMED_STRATEGIES)}, custom"
        )
    if not overrides:
        return strategy
    types = {f.name: f.type for f in fields(Strategy)}
    changes: dict[str, object] = {}
    for item in overrides.split(","):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in types:
            raise UserError(
                f"bad strategy option {item!r} in {spec!r}; use key=value with keys: {', '.join(types)}"
            )
        changes[key] = _convert(key, types[key], value, spec)
    return replace(strategy, **changes)


def _convert(key: str, type_name: object, value: str, spec: str) -> object:
    """One ``key=value`` option converted to its field type, or a one-line error."""
    try:
        if type_name in ("int", int):
            return int(float(value)) if float(value).is_integer() else int(value)
        if type_name in ("float", float):
            return float(value)
    except ValueError:
        raise UserError(f"bad value {value!r} for {key} in strategy {spec!r}") from None
    return value


@kernel
def choose_bullet(policy: int, hand: np.ndarray, pot_units: int, params: np.ndarray, u: float) -> int:
    """The bullet card a player plays this round (phase 2), from its remaining ``hand`` counts."""
    if policy == BULLET_RANDOM:
        pick = int(u * (hand[0] + hand[1] + hand[2]))
        for card in range(3):
            if pick < hand[card]:
                return card
            pick -= hand[card]
        return CLICK
    if policy == BULLET_BIG_POT:
        if pot_units >= params[PARAM_POT]:
            order = (BANG_BANG_BANG, BANG, CLICK)
        else:
            order = (CLICK, BANG, BANG_BANG_BANG)
    elif policy == BULLET_EARLY:
        order = (BANG_BANG_BANG, BANG, CLICK)
    else:
        order = (CLICK, BANG, BANG_BANG_BANG)
    for card in order:
        if hand[card] > 0:
            return card
    return CLICK


@kernel
def choose_target(
    policy: int,
    me: int,
    alive: np.ndarray,
    money: np.ndarray,
    wounds: np.ndarray,
    last_targets: np.ndarray,
    u: float,
) -> int:
    """The living opponent a player aims at (phase 3); ties are broken uniformly with ``u``.

    ``leader``: the richest; ``weakest``: the most wounded; ``retaliate``: those who aimed at
    me last round (everyone if nobody did); ``random``: every living opponent.
    """
    players = alive.shape[0]
    ranked = policy == TARGET_LEADER or policy == TARGET_WEAKEST
    best = -1
    retaliate = False
    for seat in range(players):
        if alive[seat] and seat != me:
            value = money[seat] if policy == TARGET_LEADER else wounds[seat]
            if ranked and value > best:
                best = value
            if policy == TARGET_RETALIATE and last_targets[seat] == me:
                retaliate = True
    count = 0
    pick = -1
    for sweep in range(2):  # first count the candidates, then walk to the chosen one
        for seat in range(players):
            if not alive[seat] or seat == me:
                continue
            if ranked and (money[seat] if policy == TARGET_LEADER else wounds[seat]) != best:
                continue
            if retaliate and last_targets[seat] != me:
                continue
            if sweep == 0:
                count += 1
            elif pick == 0:
                return seat
            else:
                pick -= 1
        pick = int(u * count)
    return -1


@kernel
def choose_lie_down(
    policy: int,
    guns_at_me: int,
    pot_units: int,
    players_alive: int,
    my_wounds: int,
    my_money: int,
    shame_units: float,
    params: np.ndarray,
    u: float,
) -> bool:
    """Whether a player lies down in phase 4, knowing how many guns aim at it.

    ``threshold`` compares standing, worth ``(1 - p) * pot / players_alive - p * cost`` with
    ``p = 1 - (1 - hit) ** guns_at_me`` and ``cost = wound * (wounds + 1)`` (a third wound
    costs all my money plus ``3 * wound``), against lying down, worth the shame value.
    """
    if policy == LIE_NEVER:
        return False
    if policy == LIE_RANDOM:
        return u < params[PARAM_LIE_P]
    if policy == LIE_GUNS:
        return guns_at_me >= params[PARAM_GUNS]
    if guns_at_me == 0:
        return False
    p_hit = 1.0 - (1.0 - params[PARAM_HIT]) ** guns_at_me
    if my_wounds + 1 >= LETHAL_WOUNDS:
        cost = my_money + LETHAL_WOUNDS * params[PARAM_WOUND]
    else:
        cost = params[PARAM_WOUND] * (my_wounds + 1)
    stand_value = (1.0 - p_hit) * pot_units / players_alive - p_hit * cost
    return shame_units > stand_value
