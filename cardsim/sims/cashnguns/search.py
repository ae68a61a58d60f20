"""The ``search`` player: it reads its opponents and plans each decision to the end of the game.

For every opponent it keeps a posterior over a population of policies (built-in strategies:
by default the members of the reading's shipped mix and the named presets). After every
round it multiplies each policy's weight by the likelihood of what the opponent did in
public under that policy: its aim (the policy's tie-broken choice), its card when it was
revealed (a policy that plays by a rule of the public record, such as a fixed card order, is
followed card by card, so its hand is known under that policy; a random card policy's card is
a draw from the cards it has not revealed), and whether it lay down. An action a policy would
not take costs it a factor ``MISMATCH`` (not zero: the opponent may play outside the
population).

At each of its decisions (whom to aim at, which card, whether to lie down) it samples
``budget`` worlds consistent with the public record: a policy per opponent from the
posterior, each opponent's hand (followed under that policy, else drawn from its unrevealed
cards), this round's hidden cards where they are already chosen (by the sampled policy), and
the order of the undrawn notes. Every legal option is played in every world (common random
numbers) to the end of the game in compiled code (:mod:`steps`), the opponents playing their
sampled policies and the player itself its base policy (the largest member of the mix in its
population; ``NO_MIX_BASE`` when it has none), and scored by the reading's metric: a win (ties included, the shame
rule deciding as in the game) or the final score in $5,000 units. It leaves its base
policy's choice only for an option better by ``SWITCH_Z`` standard errors of the paired
difference. Standing with no gun aimed at it is kept without search (lying down then only
loses the share and adds shame).

It reads only its view (:class:`cardsim.sims.cashnguns.strategy.View`) and what it remembers
of earlier views; its random numbers come from the view's ``u``, so a game replays from its
seed. ``tests/cashnguns/test_search.py`` deals the hidden cards again at each of its decisions
and checks that none changes, and that a leaky variant is caught.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.cashnguns import steps
from cardsim.sims.cashnguns.rng import next_uniform, next_uniform_at
from cardsim.sims.cashnguns.rules import (
    DECK_NOTE_COUNTS,
    HAND_COUNTS,
    NOTES_PER_ROUND,
    ROUNDS,
    UNIT_DOLLARS,
    final_winners,
)
from cardsim.sims.cashnguns.strategies import (
    BULLET_RANDOM,
    LIE_RANDOM,
    N_PARAMS,
    NAMED_STRATEGIES,
    PARAM_BULLET,
    PARAM_LIE,
    PARAM_LIE_P,
    PARAM_POT,
    PARAM_RISK,
    PARAM_SAFE,
    PARAM_TARGET,
    choose_bullet,
    choose_lie_down,
    choose_target,
    opponent_loaded,
    parse_strategy,
    target_value,
)
from cardsim.sims.core.jit import kernel, python_entry

#: ``PARAM_BULLET`` of a search player's row: no built-in bullet policy has this id, so a
#: search row is never played by the kernel's decision functions (see :func:`is_search_row`).
SEARCH_MARK = 99.0
#: Worlds sampled per decision when the spec does not say (each played once per option).
DEFAULT_BUDGET = 64
#: Allowed budgets (worlds per decision).
BUDGET_RANGE = (1, 4096)
#: Likelihood factor of an action the policy would not take.
MISMATCH = 1e-3
#: An option replaces the base policy's choice only when better by this many standard errors.
SWITCH_Z = 1.0
#: Population names (``population=``, joined with ``+``): the reading's shipped mix members,
#: every member of its shipped library, the named presets. A ``FILE.py`` defining
#: ``POPULATION`` (a list of strategy specs) adds its members.
POPULATION_NAMES = ("mix", "library", "presets")
DEFAULT_POPULATION = "mix+presets"
#: Share of the prior spread evenly over the population (the rest follows the mix's shares).
PRIOR_FLOOR = 0.2
METRICS = ("win", "score")
#: The policy the player plays itself in rollouts when its population has no mix shares.
NO_MIX_BASE = "bluffer"
#: Where the row keeps the search settings (the columns of the built-in parameters).
COL_BUDGET, COL_METRIC, COL_POPULATION = PARAM_POT, PARAM_SAFE, PARAM_RISK
#: Population bits in ``COL_POPULATION``; an explicit population adds its registry index + 1 times POP_FILE.
POP_MIX, POP_LIBRARY, POP_PRESETS, POP_FILE = 1, 2, 4, 8

#: Explicit populations by index (the row carries the index): each a tuple of (spec, share),
#: from a population file or given by the caller (:attr:`SearchStrategy.members`). Worker
#: processes get the parent's list with their games (:func:`registry`, :func:`restore_registry`).
_REGISTRY: list[tuple[tuple[str, float], ...]] = []

SHIPPED = Path(__file__).resolve().parent / "data" / "libraries.json"


@dataclass(frozen=True)
class SearchStrategy:
    """The search player's settings: ``budget`` worlds per decision, the ``metric`` it plays
    for (``win`` or ``score``) and the ``population`` of policies it reads opponents with."""

    budget: int = DEFAULT_BUDGET
    metric: str = "win"
    population: str = DEFAULT_POPULATION
    #: (spec, share) pairs read as one more population part (the outside check passes the
    #: mix it checks); not part of the spec.
    members: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        low, high = BUDGET_RANGE
        if isinstance(self.budget, bool) or not isinstance(self.budget, int) or not low <= self.budget <= high:
            raise UserError(f"search: budget must be a whole number {low}-{high}, got {self.budget!r}")
        if self.metric not in METRICS:
            raise UserError(f"search: metric must be one of: {', '.join(METRICS)}, got {self.metric!r}")
        population_bits(self.population, self.members)  # validates names and loads files

    # the Strategy interface the tables, searches and reports use
    bullet = target = lie = "search"

    def param_row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, np.float64)
        row[PARAM_BULLET] = SEARCH_MARK
        row[COL_BUDGET] = self.budget
        row[COL_METRIC] = METRICS.index(self.metric)
        row[COL_POPULATION] = population_bits(self.population, self.members)
        return row

    def policy_ids(self) -> tuple[int, int, int]:
        return int(SEARCH_MARK), -1, -1

    def used_fields(self) -> tuple[str, ...]:
        return ("budget", "metric", "population")

    def spec(self) -> str:
        """The spec; explicit ``members`` (the mix a caller passes) show as ``mix``."""
        return f"search:budget={self.budget},metric={self.metric},population={self.population_label()}"

    def population_label(self) -> str:
        return f"mix+{self.population}" if self.members else self.population

    def describe(self) -> str:
        return (
            f"reads each opponent's policy from the public record (population {self.population_label()}) and "
            f"plays every decision by {self.budget} sampled worlds to the end of the game ({self.metric})"
        )


def parse_search(overrides: str, spec: str) -> SearchStrategy:
    """``search`` or ``search:budget=N,metric=win|score,population=NAMES``."""
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in overrides.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in ("budget", "metric", "population"):
            raise UserError(
                f"bad search option {item!r} in {spec!r}; use budget=N, metric=win|score, "
                f"population={'|'.join(POPULATION_NAMES)}|FILE.py (joined with +)"
            )
        if key == "budget":
            try:
                number = float(value)
            except ValueError:
                raise UserError(f"search: budget must be a whole number, got {value!r}") from None
            if not number.is_integer():
                raise UserError(f"search: budget must be a whole number, got {value!r}")
            values[key] = int(number)
        else:
            values[key] = value
    return SearchStrategy(**values)


def population_bits(population: str, members: tuple[tuple[str, float], ...] = ()) -> float:
    """The population as the row's number: name bits plus an explicit population's registry
    index (a file's members, or ``members``) times ``POP_FILE``; a file is loaded here, so a
    file that fails is a one-line error."""
    bits = 0
    explicit = tuple(members)
    for part in population.split("+"):
        part = part.strip()
        if part in POPULATION_NAMES:
            bits |= (POP_MIX, POP_LIBRARY, POP_PRESETS)[POPULATION_NAMES.index(part)]
        elif part.endswith(".py"):
            explicit += file_members(str(Path(part).resolve()))
        else:
            raise UserError(
                f"search: unknown population {part!r}; use {', '.join(POPULATION_NAMES)} "
                "or a FILE.py defining POPULATION, joined with +"
            )
    if explicit:
        if explicit not in _REGISTRY:
            _REGISTRY.append(explicit)
        bits += POP_FILE * (1 + _REGISTRY.index(explicit))
    return float(bits)


def registry() -> list[tuple[tuple[str, float], ...]]:
    """The explicit populations rows of this process refer to (for worker processes)."""
    return list(_REGISTRY)


def restore_registry(populations: list[tuple[tuple[str, float], ...]]) -> None:
    """Make this process's explicit populations the parent's (:func:`registry`)."""
    _REGISTRY[:] = [tuple((str(spec), float(share)) for spec, share in members) for members in populations]


@functools.cache
def file_members(path: str) -> tuple[tuple[str, float], ...]:
    """The (spec, share) pairs of a population file: its ``POPULATION``, a list of strategy
    specs (share 0) or a dict of spec to share, each spec checked."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"search: population file {path} not found")
    module_spec = importlib.util.spec_from_file_location(f"cardsim_population_{abs(hash(path))}", file)
    if module_spec is None or module_spec.loader is None:
        raise UserError(f"search: population file {path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # the user's file: any failure is one line
        raise UserError(f"search: population file {path} failed to load: {type(exc).__name__}: {exc}") from None
    specs = getattr(module, "POPULATION", None)
    if isinstance(specs, dict):
        pairs = list(specs.items())
    elif isinstance(specs, (list, tuple)):
        pairs = [(spec, 0.0) for spec in specs]
    else:
        pairs = []
    if not pairs or not all(
        isinstance(spec, str) and isinstance(share, (int, float)) and share >= 0 for spec, share in pairs
    ):
        raise UserError(
            f"search: population file {path} must define POPULATION, a list of strategy specs "
            "(or a dict of spec to share)"
        )
    for spec, _ in pairs:
        if spec.split(":")[0].strip() == "search":
            raise UserError(f"search: population file {path}: a population member cannot be search")
        parse_strategy(spec)
    return tuple((spec, float(share)) for spec, share in pairs)


def is_search_row(row: np.ndarray) -> bool:
    return bool(row[PARAM_BULLET] == SEARCH_MARK)


@functools.cache
def _shipped(players: int, metric: str, shame_value: int) -> tuple[tuple[str, ...], tuple[float, ...]] | None:
    """(library specs, mix shares) of the shipped reading, None when there is none."""
    try:
        readings = json.loads(SHIPPED.read_text(encoding="utf-8"))["readings"]
    except (OSError, ValueError, KeyError):
        return None
    for entry in readings:
        if (entry["players"], entry["metric"], entry["shame_value"]) == (players, metric, shame_value):
            specs = tuple(item["spec"] for item in entry["library"])
            shares = tuple(float(entry["equilibrium"].get(item["name"], 0.0)) for item in entry["library"])
            return specs, shares
    return None


def population(row: np.ndarray, players: int, shame_value: int) -> tuple[np.ndarray, np.ndarray, int]:
    """:func:`_population` of the row's population and metric (made once per process)."""
    bits = int(row[COL_POPULATION])
    explicit = _REGISTRY[bits // POP_FILE - 1] if bits >= POP_FILE else ()
    return _population(bits % POP_FILE, explicit, int(row[COL_METRIC]), players, shame_value)


@functools.cache
def _population(
    bits: int, explicit: tuple[tuple[str, float], ...], metric_index: int, players: int, shame_value: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """(rows, prior, base index) of a search row's population at a table: the policies it reads
    opponents with, their prior weights (the mix's shares, floored by an even share
    ``PRIOR_FLOOR``) and the member it plays itself in rollouts (the mix's largest member;
    ``NO_MIX_BASE`` when the population has no mix shares)."""
    metric = METRICS[metric_index]
    specs: list[str] = []
    shares: list[float] = []

    def add(spec: str, share: float) -> None:
        if spec in specs:
            shares[specs.index(spec)] += share
        else:
            specs.append(spec)
            shares.append(share)

    shipped = _shipped(players, metric, shame_value)
    if bits & (POP_MIX | POP_LIBRARY) and shipped is not None:
        for spec, share in zip(*shipped):
            if share > 0 or bits & POP_LIBRARY:
                add(parse_strategy(spec).spec(), share)
    if bits & POP_PRESETS:
        for _, strategy in NAMED_STRATEGIES.values():
            add(strategy.spec(), 0.0)
    for spec, share in explicit:
        add(parse_strategy(spec).spec(), share)
    if not specs:  # a mix asked for where no shipped reading exists: the presets
        for _, strategy in NAMED_STRATEGIES.values():
            add(strategy.spec(), 0.0)
    weights = np.array(shares, np.float64)
    weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(specs), 1.0 / len(specs))
    prior = (1 - PRIOR_FLOOR) * weights + PRIOR_FLOOR / len(specs)
    rows = np.array([parse_strategy(spec).param_row() for spec in specs], np.float64)
    base = int(np.argmax(weights)) if np.ptp(weights) > 0 else None
    if base is None:  # no mix shares: the base is NO_MIX_BASE, added if missing
        base_spec = parse_strategy(NO_MIX_BASE).spec()
        if base_spec not in specs:
            rows = np.vstack([rows, parse_strategy(base_spec).param_row()])
            prior = np.append(prior, PRIOR_FLOOR / len(specs))
        base = [*specs, base_spec].index(base_spec)
    return rows, prior / prior.sum(), base


# --- compiled core ------------------------------------------------------------------------------

AIM_PHASE, CARD_PHASE, LIE_PHASE = 0, 1, 2


@kernel
def target_chance(
    params: np.ndarray,
    me: int,
    aim: int,
    alive: np.ndarray,
    money: np.ndarray,
    wounds: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    round_index: int,
) -> float:
    """The chance that the policy ``params`` in seat ``me`` aims at ``aim`` (as
    :func:`strategies.choose_target`: the best value, ties drawn evenly)."""
    policy = int(params[PARAM_TARGET])
    players = alive.shape[0]
    latest = -1
    if policy == 2:  # retaliate: the latest earlier round in which someone aimed at me
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
    if aim < 0 or aim == me or not alive[aim]:
        return MISMATCH
    value = target_value(policy, params, me, aim, money, wounds, revealed, aims, lay, round_index, latest)
    if value == best:
        return 1.0 / count
    return MISMATCH


@kernel
def observe_round(
    pop: np.ndarray,
    logpost: np.ndarray,
    hands: np.ndarray,
    followed: np.ndarray,
    me: int,
    round_index: int,
    alive: np.ndarray,
    cash: np.ndarray,
    wounds: np.ndarray,
    revealed: np.ndarray,
    pot: float,
    expected: float,
    aims: np.ndarray,
    lay: np.ndarray,
    revealed_after: np.ndarray,
    shame_units: float,
) -> None:
    """Bayes update of every opponent's policy weights (``logpost``, seats x policies) by the
    likelihood of its public actions in round ``round_index``, from the record at the round's
    start (``alive`` .. ``expected``; ``aims``/``lay`` hold that round's row) and the cards
    revealed by its end (``revealed_after``). ``hands[seat, k]``: the seat's hand under policy
    k while it is followed (``followed``), advanced by the card the policy played."""
    players = alive.shape[0]
    targets = aims[round_index]
    players_alive = 0
    for seat in range(players):
        players_alive += alive[seat]
    for seat in range(players):
        if seat == me or not alive[seat]:
            continue
        shown = -1
        for card in range(3):
            if revealed_after[seat, card] > revealed[seat, card]:
                shown = card
        unrevealed = 8 - revealed[seat, 0] - revealed[seat, 1] - revealed[seat, 2]
        aim = targets[seat]
        for k in range(pop.shape[0]):
            params = pop[k]
            chance = target_chance(params, seat, aim, alive, cash, wounds, revealed, aims, lay, round_index)
            if int(params[PARAM_BULLET]) == BULLET_RANDOM or not followed[seat, k]:
                if shown >= 0 and unrevealed > 0:
                    chance *= max(HAND_COUNTS[shown] - revealed[seat, shown], 0) / unrevealed
            else:
                loaded = opponent_loaded(params, revealed, aims, round_index, aim) if aim >= 0 else 0.0
                played = choose_bullet(params, hands[seat, k], pot, expected, loaded, 0.5)
                if shown >= 0 and shown != played:
                    chance *= MISMATCH
                    played = shown
                if hands[seat, k, played] > 0:
                    hands[seat, k, played] -= 1
                else:
                    followed[seat, k] = False
            lie = lay[round_index, seat]
            if int(params[PARAM_LIE]) == LIE_RANDOM:
                chance *= params[PARAM_LIE_P] if lie else 1.0 - params[PARAM_LIE_P]
            else:
                would = choose_lie_down(
                    params,
                    seat,
                    targets,
                    alive,
                    revealed,
                    aims,
                    pot,
                    expected,
                    players_alive,
                    wounds[seat],
                    cash[seat],
                    round_index,
                    shame_units,
                    0.5,
                )
                if would != lie:
                    chance *= MISMATCH
            logpost[seat, k] += math.log(max(chance, 1e-300))
        top = -np.inf
        for k in range(pop.shape[0]):
            top = max(top, logpost[seat, k])
        for k in range(pop.shape[0]):
            logpost[seat, k] -= top


@kernel
def _pick(weights: np.ndarray, total: float, u: float) -> int:
    x = u * total
    for k in range(weights.shape[0]):
        x -= weights[k]
        if x < 0:
            return k
    return weights.shape[0] - 1


@kernel
def value_options(
    pop: np.ndarray,
    logpost: np.ndarray,
    hands_k: np.ndarray,
    followed: np.ndarray,
    base: np.ndarray,
    me: int,
    round_index: int,
    phase: int,
    options: np.ndarray,
    my_target: int,
    my_card: int,
    my_hand: np.ndarray,
    alive: np.ndarray,
    cash: np.ndarray,
    wounds: np.ndarray,
    shame: np.ndarray,
    revealed: np.ndarray,
    aims: np.ndarray,
    lay: np.ndarray,
    table: np.ndarray,
    drawn: np.ndarray,
    expected: float,
    now_targets: np.ndarray,
    shame_units: float,
    score_metric: bool,
    budget: int,
    seed: int,
) -> np.ndarray:
    """(budget, options) value of each option in each sampled world (see the module): the
    opponents' policies and hands drawn from the posterior and the public record, the undrawn
    notes shuffled, and every option played on to the end of the game in the same world."""
    players = alive.shape[0]
    n_options = options.shape[0]
    values = np.zeros((budget, n_options))
    search_stream = np.zeros(1, np.uint64)
    search_stream[0] = np.uint64(seed)
    weights = np.zeros(pop.shape[0])
    world_params = np.zeros((players, base.shape[0]))
    world_hands = np.zeros((players, 3), np.int64)
    world_bullets = np.zeros(players, np.int64)
    pot = table[0] + 2 * table[1] + 4 * table[2]
    undrawn = np.zeros(3, np.int64)
    for kind in range(3):
        undrawn[kind] = DECK_NOTE_COUNTS[kind] - drawn[kind]
    deck = np.zeros(DECK_NOTE_COUNTS[0] + DECK_NOTE_COUNTS[1] + DECK_NOTE_COUNTS[2], np.int64)
    first_undrawn = (round_index + 1) * NOTES_PER_ROUND
    # the scratch state one option's rollout plays on
    s_alive = np.zeros(players, np.bool_)
    s_cash = np.zeros(players, np.int64)
    s_wounds = np.zeros(players, np.int64)
    s_shame = np.zeros(players, np.int64)
    s_shots = np.zeros(players, np.int64)
    s_revealed = np.zeros((players, 3), np.int64)
    s_aims = np.zeros((ROUNDS, players), np.int64)
    s_lay = np.zeros((ROUNDS, players), np.bool_)
    s_hands = np.zeros((players, 3), np.int64)
    s_table = np.zeros(3, np.int64)
    s_drawn = np.zeros(3, np.int64)
    s_user = np.zeros(players, np.bool_)
    s_u = np.zeros((players, 3))
    s_targets = np.zeros(players, np.int64)
    s_bullets = np.zeros(players, np.int64)
    s_lying = np.zeros(players, np.bool_)
    s_info = np.zeros(2)
    stream = np.zeros(players, np.uint64)  # each seat's numbers in the rollout
    unseen = np.zeros(8, np.int64)
    for world in range(budget):
        # opponents' policies and hands
        for seat in range(players):
            for k in range(base.shape[0]):
                world_params[seat, k] = base[k]
            for card in range(3):
                world_hands[seat, card] = my_hand[card] if seat == me else 0
            if seat == me or not alive[seat]:
                continue
            total = 0.0
            for k in range(pop.shape[0]):
                weights[k] = math.exp(logpost[seat, k])
                total += weights[k]
            k = _pick(weights, total, next_uniform(search_stream))
            for j in range(base.shape[0]):
                world_params[seat, j] = pop[k, j]
            if followed[seat, k] and int(pop[k, PARAM_BULLET]) != BULLET_RANDOM:
                for card in range(3):
                    world_hands[seat, card] = hands_k[seat, k, card]
            else:
                # the cards it has not revealed, less a random draw of those it used unseen
                count = 0
                for card in range(3):
                    for _ in range(HAND_COUNTS[card] - revealed[seat, card]):
                        unseen[count] = card
                        count += 1
                played = 0
                for past in range(round_index):
                    if aims[past, seat] >= 0:
                        played += 1
                hidden_used = played - (8 - count)
                for i in range(count - 1, 0, -1):
                    j = int(next_uniform(search_stream) * (i + 1))
                    unseen[i], unseen[j] = unseen[j], unseen[i]
                for i in range(hidden_used, count):
                    world_hands[seat, unseen[i]] += 1
        # this round's hidden cards already chosen (lie phase), by the sampled policies
        for seat in range(players):
            world_bullets[seat] = 0
            if phase == LIE_PHASE and alive[seat] and seat != me:
                target = now_targets[seat]
                card = choose_bullet(
                    world_params[seat],
                    world_hands[seat],
                    pot,
                    expected,
                    opponent_loaded(world_params[seat], revealed, aims, round_index, target),
                    next_uniform(search_stream),
                )
                world_bullets[seat] = card
                world_hands[seat, card] -= 1
        # the undrawn notes
        position = first_undrawn
        for kind in range(3):
            for _ in range(undrawn[kind]):
                if position < deck.shape[0]:
                    deck[position] = kind
                    position += 1
        for i in range(deck.shape[0] - 1, first_undrawn, -1):
            j = first_undrawn + int(next_uniform(search_stream) * (i - first_undrawn + 1))
            deck[i], deck[j] = deck[j], deck[i]
        world_seed = search_stream[0] ^ np.uint64(0x5851F42D4C957F2D)
        for option in range(n_options):
            for seat in range(players):
                stream[seat] = world_seed + np.uint64(seat) * np.uint64(0xD1B54A32D192ED03)
            for seat in range(players):
                s_alive[seat] = alive[seat]
                s_cash[seat] = cash[seat]
                s_wounds[seat] = wounds[seat]
                s_shame[seat] = shame[seat]
                s_shots[seat] = 0
                for card in range(3):
                    s_revealed[seat, card] = revealed[seat, card]
                    s_hands[seat, card] = world_hands[seat, card]
                for past in range(ROUNDS):
                    s_aims[past, seat] = aims[past, seat]
                    s_lay[past, seat] = lay[past, seat]
            for kind in range(3):
                s_table[kind] = table[kind]
                s_drawn[kind] = drawn[kind]
            players_alive = 0
            for seat in range(players):
                players_alive += s_alive[seat]
            # phases 2-3 of this round
            for seat in range(players):
                if not s_alive[seat]:
                    continue
                u_aim = next_uniform_at(stream, seat)
                u_card = next_uniform_at(stream, seat)
                if phase == LIE_PHASE:
                    s_targets[seat] = now_targets[seat]
                    s_bullets[seat] = my_card if seat == me else world_bullets[seat]
                    continue
                if seat == me:
                    target = options[option] if phase == AIM_PHASE else my_target
                else:
                    target = choose_target(
                        world_params[seat],
                        seat,
                        s_alive,
                        s_cash,
                        s_wounds,
                        s_revealed,
                        s_aims,
                        s_lay,
                        round_index,
                        u_aim,
                    )
                if seat == me and phase == CARD_PHASE:
                    card = options[option]
                else:
                    card = choose_bullet(
                        world_params[seat],
                        s_hands[seat],
                        pot,
                        expected,
                        opponent_loaded(world_params[seat], s_revealed, s_aims, round_index, target),
                        u_card,
                    )
                s_targets[seat] = target
                s_bullets[seat] = card
                s_hands[seat, card] -= 1
            # phase 4
            for seat in range(players):
                s_lying[seat] = False
                if not s_alive[seat]:
                    continue
                u_lie = next_uniform_at(stream, seat)
                if seat == me and phase == LIE_PHASE:
                    s_lying[seat] = options[option] != 0
                else:
                    s_lying[seat] = choose_lie_down(
                        world_params[seat],
                        seat,
                        s_targets,
                        s_alive,
                        s_revealed,
                        s_aims,
                        pot,
                        expected,
                        players_alive,
                        s_wounds[seat],
                        s_cash[seat],
                        round_index,
                        shame_units,
                        u_lie,
                    )
            survivors = steps.close_round(
                round_index,
                s_targets,
                s_bullets,
                s_lying,
                s_alive,
                s_wounds,
                s_shame,
                s_cash,
                s_shots,
                s_revealed,
                s_aims,
                s_lay,
                s_table,
            )
            if survivors > 1 and round_index + 1 < ROUNDS:
                survivors = steps.play_rounds(
                    round_index + 1,
                    deck,
                    s_table,
                    s_drawn,
                    s_alive,
                    s_cash,
                    s_wounds,
                    s_shame,
                    s_shots,
                    s_revealed,
                    s_aims,
                    s_lay,
                    s_hands,
                    world_params,
                    s_user,
                    stream,
                    s_u,
                    s_targets,
                    s_bullets,
                    s_lying,
                    s_info,
                    shame_units,
                )
            if score_metric:
                values[world, option] = s_cash[me] + shame_units * s_shame[me] if s_alive[me] else 0.0
            elif survivors > 1:
                score = np.empty(players)
                for seat in range(players):
                    score[seat] = s_cash[seat] + shame_units * s_shame[seat]
                values[world, option] = 1.0 if final_winners(s_alive, score, s_shame, s_wounds)[me] else 0.0
            else:
                values[world, option] = 1.0 if s_alive[me] else 0.0
    return values


def choose_option(values: np.ndarray, base_index: int) -> int:
    """The option to play: the best mean, if better than the base policy's option (index
    ``base_index``) by ``SWITCH_Z`` standard errors of the paired difference; else the base's."""
    best = int(np.argmax(values.mean(axis=0)))
    if best == base_index:
        return base_index
    diff = values[:, best] - values[:, base_index]
    se = float(diff.std(ddof=1)) / math.sqrt(values.shape[0]) if values.shape[0] > 1 else 0.0
    return best if diff.mean() > max(SWITCH_Z * se, 0.0) else base_index


# --- the player ---------------------------------------------------------------------------------


def _seed(u: float, round_index: int, decision: int, seat: int) -> int:
    """The search's own stream seed for one decision: from the decision's ``u`` (the seat's
    private stream) and where it is, so the game replays from its seed."""
    value = int(u * 2**53) * 0x9E3779B97F4A7C15 + round_index * 0x100000001B3 + decision * 7919 + seat * 104729
    return value & 0x7FFFFFFFFFFFFFFF


def public_history(view: Any) -> tuple[np.ndarray, np.ndarray]:
    """The view's aims and lie-downs of the rounds played so far as (rounds x players) arrays,
    -1 and False for the rounds to come: the public record as the compiled functions read it."""
    aims = np.full((ROUNDS, view.players), -1, np.int64)
    lay = np.zeros((ROUNDS, view.players), np.bool_)
    if view.round:
        aims[: view.round] = np.array(view.aims, np.int64)
        lay[: view.round] = np.array(view.lay, np.bool_)
    return aims, lay


class SearchPlayer:
    """The search player as a strategy object (``aim``, ``card``, ``lie_down`` of a
    :class:`~cardsim.sims.cashnguns.strategy.View`), remembering the record of earlier views.
    ``row``: its search row (:meth:`SearchStrategy.param_row`); the population is resolved for
    the table on the first view. One object plays one seat of one game at a time; a view of
    round 0 starts a new game."""

    def __init__(self, row: np.ndarray) -> None:
        self.row = np.asarray(row, np.float64)
        self.budget = int(self.row[COL_BUDGET])
        self.score_metric = bool(int(self.row[COL_METRIC]) == 1)
        self._table: tuple[int, int] | None = None
        self.decisions = 0
        #: When a list, every decision is appended to it as (decision, choice, view): the
        #: record :func:`play_search_lineups` returns on request; None (the default) records nothing.
        self.log: list[tuple[str, Any, Any]] | None = None

    @classmethod
    def from_spec(cls, spec: str = "search") -> SearchPlayer:
        """The player of a ``search[:...]`` spec, e.g. to drive an agent of the PettingZoo
        environment (``cardsim.envs.cashnguns_v0``: ``env.action_of(player.aim(env.view(agent),
        env.legal_choices()))``)."""
        strategy = parse_strategy(spec)
        if not isinstance(strategy, SearchStrategy):
            raise UserError(f"search: {spec!r} is not a search spec (search or search:key=value,...)")
        return cls(strategy.param_row())

    def _start(self, view: Any) -> None:
        players, shame_value = view.players, view.shame_value
        if self._table != (players, shame_value):
            self.pop, self.prior, base = population(self.row, players, shame_value)
            self.base = self.pop[base].copy()
            self._table = (players, shame_value)
        self.logpost = np.tile(np.log(self.prior), (players, 1))
        self.hands = np.tile(np.array(HAND_COUNTS, np.int64), (players, self.pop.shape[0], 1))
        self.followed = np.ones((players, self.pop.shape[0]), np.bool_)
        self.snap: tuple | None = None
        self.round = -1
        self.my_card = 0

    def _record(self, view: Any) -> tuple:
        aims, lay = public_history(view)
        return (
            np.array(view.alive, np.bool_),
            np.array(view.money, np.int64) // UNIT_DOLLARS,
            np.array(view.wounds, np.int64),
            np.array(view.shame, np.int64),
            np.array(view.revealed, np.int64).reshape(view.players, 3),
            aims,
            lay,
            np.array(view.loot, np.int64),
            np.array(view.drawn, np.int64),
        )

    def _observe(self, view: Any) -> tuple:
        """Bring the posterior up to date with every round finished since the last view; the
        record as arrays."""
        if view.round < self.round or not hasattr(self, "logpost"):
            self._start(view)
        record = self._record(view)
        if view.round != self.round:
            alive, cash, wounds, _, revealed, aims, lay, table, _ = record
            if self.snap is not None and self.snap[0] == view.round - 1:
                r, s_alive, s_cash, s_wounds, s_revealed, s_pot, s_expected = self.snap
                python_entry(observe_round)(
                    self.pop,
                    self.logpost,
                    self.hands,
                    self.followed,
                    view.seat,
                    r,
                    s_alive,
                    s_cash,
                    s_wounds,
                    s_revealed,
                    s_pot,
                    s_expected,
                    aims,
                    lay,
                    revealed,
                    view.shame_value / UNIT_DOLLARS,
                )
            pot = float(table[0] + 2 * table[1] + 4 * table[2])
            self.snap = (view.round, alive, cash, wounds, revealed, pot, view.expected_loot / UNIT_DOLLARS)
            self.round = view.round
        return record

    def _search(
        self,
        view: Any,
        phase: int,
        options: list[int],
        base_choice: int,
        hand: np.ndarray,
        target: int,
        targets: np.ndarray,
    ) -> int:
        record = self._observe(view)
        if len(options) == 1:
            return options[0]
        alive, cash, wounds, shame, revealed, aims, lay, table, drawn = record
        self.decisions += 1
        values = python_entry(value_options)(
            self.pop,
            self.logpost,
            self.hands,
            self.followed,
            self.base,
            view.seat,
            view.round,
            phase,
            np.array(options, np.int64),
            target,
            self.my_card,
            hand,
            alive,
            cash,
            wounds,
            shame,
            revealed,
            aims,
            lay,
            table,
            drawn,
            view.expected_loot / UNIT_DOLLARS,
            targets,
            view.shame_value / UNIT_DOLLARS,
            self.score_metric,
            self.budget,
            _seed(view.u, view.round, phase, view.seat),
        )
        return options[choose_option(values, options.index(base_choice))]

    def aim(self, view: Any, legal: Any) -> int:
        if view.round == 0:
            self._start(view)  # a new game
        record = self._observe(view)
        alive, cash, wounds, _, revealed, aims, lay, _, _ = record
        base = int(
            python_entry(choose_target)(
                self.base, view.seat, alive, cash, wounds, revealed, aims, lay, view.round, view.u
            )
        )
        hand = np.array(view.hand, np.int64)
        target = self._search(view, AIM_PHASE, list(legal), base, hand, -1, np.zeros(0, np.int64))
        if self.log is not None:
            self.log.append(("aim", target, view))
        return target

    def card(self, view: Any, legal: Any) -> int:
        record = self._observe(view)
        revealed, aims = record[4], record[5]
        table = record[7]
        hand = np.array(view.hand, np.int64)
        pot = float(table[0] + 2 * table[1] + 4 * table[2])
        loaded = python_entry(opponent_loaded)(self.base, revealed, aims, view.round, view.target)
        base = int(python_entry(choose_bullet)(self.base, hand, pot, view.expected_loot / UNIT_DOLLARS, loaded, view.u))
        card = self._search(view, CARD_PHASE, list(legal), base, hand, view.target, np.zeros(0, np.int64))
        self.my_card = card
        if self.log is not None:
            self.log.append(("card", card, view))
        return card

    def lie_down(self, view: Any, legal: Any) -> bool:
        record = self._observe(view)
        targets = np.array(view.targets, np.int64)
        guns = sum(
            1 for seat, aim in enumerate(view.targets) if aim == view.seat and seat != view.seat and view.alive[seat]
        )
        if guns == 0:
            if self.log is not None:
                self.log.append(("lie_down", False, view))
            return False
        alive, cash, wounds, _, revealed, aims, _, table, _ = record
        pot = float(table[0] + 2 * table[1] + 4 * table[2])
        base = bool(
            python_entry(choose_lie_down)(
                self.base,
                view.seat,
                targets,
                alive,
                revealed,
                aims,
                pot,
                view.expected_loot / UNIT_DOLLARS,
                int(alive.sum()),
                int(wounds[view.seat]),
                int(cash[view.seat]),
                view.round,
                view.shame_value / UNIT_DOLLARS,
                view.u,
            )
        )
        hand = np.array(view.hand, np.int64)
        choice = bool(self._search(view, LIE_PHASE, [0, 1], int(base), hand, view.target, targets))
        if self.log is not None:
            self.log.append(("lie_down", choice, view))
        return choice


def play_search_lineups(
    seeds: np.ndarray,
    lineups: np.ndarray,
    rows: np.ndarray,
    shame_value: int,
    log: list[tuple[int, int, list]] | None = None,
) -> tuple[np.ndarray, ...]:
    """:func:`kernel.play_batch`'s output for games in which some slots play search rows: each
    game played by the engine of :mod:`strategy` (the same deals and random streams), every
    search slot a :class:`SearchPlayer` of its own and every other slot compiled. With ``log``
    a list, each search slot's decisions of each game are appended to it as (game, slot,
    [(decision, choice, view), ...]) (:attr:`SearchPlayer.log`)."""
    from cardsim.sims.cashnguns.strategy import GameState, play_steps

    n, players = lineups.shape
    out = (
        np.zeros((n, players), np.int32),
        np.zeros((n, players), np.int8),
        np.zeros((n, players), np.int8),
        np.zeros((n, players), np.bool_),
        np.zeros((n, players), np.bool_),
        np.zeros((n, players), np.int8),
        np.zeros((n, players, 3), np.int8),
        np.zeros(n, np.int8),
        np.zeros(n, np.int32),
        np.zeros(n, np.int32),
        np.zeros(n, np.int32),
    )
    money, wounds, shame, alive, winner, shots, cards, rounds, drawn, paid, left = out
    game = GameState(players)
    searchers: dict[tuple[int, int], SearchPlayer] = {}
    for index in range(n):
        slots = []
        for slot in range(players):
            row = rows[lineups[index, slot]]
            if is_search_row(row):
                player = searchers.setdefault((slot, int(lineups[index, slot])), SearchPlayer(row))
                slots.append(player)
            else:
                slots.append(row)
        if log is not None:
            for slot, player in enumerate(slots):
                if isinstance(player, SearchPlayer):
                    player.log = []
                    log.append((index, slot, player.log))
        users = game.begin(int(seeds[index]), [None if isinstance(s, SearchPlayer) else s for s in slots], shame_value)
        seat_of = [slots[slot] for slot in game.slot_of_seat.tolist()]
        moves = play_steps(game, users)
        try:
            seat, decision, _ = next(moves)
            while True:
                player = seat_of[seat]
                choice = getattr(player, decision)(game.view(seat), game.legal)
                seat, decision, _ = moves.send(choice)
        except StopIteration:
            pass
        table = game.out
        money[index] = table[:, steps.OUT_MONEY]
        wounds[index] = table[:, steps.OUT_WOUNDS]
        shame[index] = table[:, steps.OUT_SHAME]
        alive[index] = table[:, steps.OUT_ALIVE] != 0
        winner[index] = table[:, steps.OUT_WINNER] != 0
        shots[index] = table[:, steps.OUT_SHOTS]
        cards[index] = table[:, steps.OUT_CARDS :]
        notes = game.drawn
        rounds[index] = int(notes.sum()) // NOTES_PER_ROUND
        drawn[index] = int(notes[0] + 2 * notes[1] + 4 * notes[2])
        left[index] = int(game.table[0] + 2 * game.table[1] + 4 * game.table[2])
        paid[index] = drawn[index] - left[index]
    return out
