"""Best-response search against a mix of a Cash'n Guns library: the arena that plays games,
the profile table, successive halving over candidates, the local search and the paired gain.

Random streams are SeedSequences keyed by purpose (``STOP_CHECK``, ``OUTSIDE_CHECK``), so the
numbers never depend on --jobs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cardsim.analysis.equilibrium import SymmetricGame, table_profiles
from cardsim.sims.cashnguns.rules import UNIT_DOLLARS
from cardsim.sims.cashnguns.search import is_search_row, restore_registry
from cardsim.sims.cashnguns.search import registry as search_registry
from cardsim.sims.cashnguns.simulator import play_lineups, strategy_rows
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES, Strategy, parse_strategy
from cardsim.sims.core.parallel import map_tasks
from cardsim.stats import Z95

# --- discover: a double-oracle / PSRO loop over the strategy space ------------------------------

#: discover's default stop tolerance per metric: three quarters of a point of win probability
#: (a margin under the one-point target), $750 of score.
DEFAULT_TOLERANCE = {"win": 0.0075, "score": 750.0}
#: Local-search candidates per best-response search (discover/5: one-move neighbours, compound
#: moves and a hill-climb, :func:`local_search_steps`), on top of ``budget``.
DEFAULT_LOCAL = 200

#: Games simulated per chunk; chunks are fixed by game index, so results never depend on --jobs.
DISCOVER_CHUNK = 20_000
#: Games per chunk when a ``search`` player sits at the table (some hundred times slower).
SEARCH_CHUNK = 200


class CashNGunsArena:
    """Plays Cash'n Guns games for the search: strategies as kernel rows, payoff per slot."""

    def __init__(self, players: int, metric: str, shame_value: int, jobs: int = 1) -> None:
        self.players = players
        self.metric = metric
        self.shame_value = shame_value
        self.jobs = jobs

    def play(self, strategies: Sequence[Strategy], lineups: np.ndarray, seeds: np.ndarray) -> np.ndarray:
        """(games, players) payoff of each slot: 1/0 win, or the score in dollars (0 if dead).
        Games are cut into fixed chunks by index and may run in ``jobs`` processes."""
        rows = strategy_rows(strategies)
        searching = any(is_search_row(row) for row in rows)
        chunk = SEARCH_CHUNK if searching else DISCOVER_CHUNK
        populations = search_registry() if searching else []
        bounds = [(i, min(i + chunk, len(seeds))) for i in range(0, len(seeds), chunk)]
        arguments = [(seeds[a:b], lineups[a:b], rows, self.shame_value, self.metric, populations) for a, b in bounds]
        parts = map_tasks(_play_chunk, arguments, self.jobs)
        if not parts:
            return np.zeros((0, self.players))
        return np.concatenate(parts)


def _play_chunk(
    seeds: np.ndarray,
    lineups: np.ndarray,
    rows: np.ndarray,
    shame_value: int,
    metric: str,
    populations: list | None = None,
) -> np.ndarray:
    if populations:
        restore_registry(populations)  # a worker: the search rows' populations as the parent has them
    raw = play_lineups(seeds, np.ascontiguousarray(lineups), rows, shame_value)
    money, _, shame, alive, winner = raw[:5]
    if metric == "win":
        return winner.astype(np.float64)
    return np.where(alive, money.astype(np.float64) * UNIT_DOLLARS + shame.astype(np.float64) * shame_value, 0.0)


class ProfileTable:
    """Running sums of each strategy's payoff in each table profile, keyed by strategy specs
    (a profile is the sorted tuple of its players' specs), so rounds can share and resume it."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.sums: dict[tuple[str, ...], dict[str, list[float]]] = {}

    def add(self, profile: tuple[str, ...], payoffs: np.ndarray) -> None:
        """Add the (games, players) payoffs of games played with slot s using ``profile[s]``."""
        cell = self.sums.setdefault(tuple(sorted(profile)), {})
        for spec in sorted(set(profile)):
            values = payoffs[:, [slot for slot, s in enumerate(profile) if s == spec]].ravel()
            n, total, squares = cell.get(spec, [0.0, 0.0, 0.0])
            cell[spec] = [n + values.size, total + float(values.sum()), squares + float((values**2).sum())]

    def game(self, specs: Sequence[str], metric: str) -> SymmetricGame:
        """The symmetric game of ``specs`` (every profile of them must have been played)."""
        count = len(specs)
        multisets = table_profiles(count, self.players - 1)
        others = np.zeros((len(multisets), count), np.int64)
        for row, multiset in enumerate(multisets):
            for index in multiset:
                others[row, index] += 1
        payoff = np.full((count, len(multisets)), np.nan)
        variance = np.full((count, len(multisets)), np.nan)
        for row, multiset in enumerate(multisets):
            for s in range(count):
                profile = tuple(sorted(specs[i] for i in multiset + (s,)))
                n, total, squares = self.sums[profile][specs[s]]
                mean = total / n
                payoff[s, row] = mean
                variance[s, row] = max(squares / n - mean**2, 0.0) / max(n - 1, 1)
        factorial = np.array([math.factorial(k) for k in range(self.players)], np.float64)
        coefficients = math.factorial(self.players - 1) / factorial[others].prod(axis=1)
        return SymmetricGame(tuple(specs), self.players, others, payoff, coefficients, variance, metric)

    def to_json(self) -> list:
        return [[list(profile), spec, *sums] for profile, cell in self.sums.items() for spec, sums in cell.items()]

    @classmethod
    def from_json(cls, players: int, rows: list) -> ProfileTable:
        table = cls(players)
        for profile, spec, *sums in rows:
            table.sums.setdefault(tuple(profile), {})[spec] = list(sums)
        return table


#: Random streams. Every stream is a SeedSequence of entropy (root, *key) and a spawn key that
#: names who draws from it, so streams of different owners never coincide, whatever the root
#: and key: discover's own tables, searches and validations (no spawn key, the numbers as they
#: always were), discover's j-th independent stop check ((STOP_CHECK, j)), and the outside
#: check of a finished library ((OUTSIDE_CHECK,), see :func:`check_equilibrium`, and
#: (OUTSIDE_CHECK, 1) for its schedule sweep) and discover's schedule sweep ((SWEEP_CHECK,)).
STOP_CHECK, OUTSIDE_CHECK, SWEEP_CHECK = 1, 2, 3


def _sequence(root: int, key: tuple[int, ...], streams: tuple[int, ...]) -> np.random.SeedSequence:
    """The SeedSequence of one purpose: entropy (root, *key), spawn key ``streams``."""
    return np.random.SeedSequence([root, *key], spawn_key=streams)


def keyed_seeds(root: int, *key: int, size: int, streams: tuple[int, ...] = ()) -> np.ndarray:
    """Game seeds for one purpose of one round: a SeedSequence keyed by (root, *key)."""
    rng = np.random.default_rng(_sequence(root, key, streams))
    return rng.integers(0, np.iinfo(np.int64).max, size=size, dtype=np.int64).astype(np.uint64)


def profile_weights(profiles: list[tuple[int, ...]], mix: np.ndarray) -> np.ndarray:
    """How much each full profile matters to the payoffs against ``mix``: the sum over its
    distinct strategies s of the probability that the others are the rest of the profile."""
    weights = np.zeros(len(profiles))
    log_mix = np.log(np.maximum(mix, 1e-300))
    for row, profile in enumerate(profiles):
        for s in set(profile):
            rest = list(profile)
            rest.remove(s)
            counts = np.bincount(rest, minlength=len(mix))
            coefficient = math.factorial(len(rest)) / np.prod([math.factorial(int(c)) for c in counts])
            weights[row] += coefficient * math.exp(float(counts @ log_mix))
    return weights


def fill_table(
    arena, table: ProfileTable, library: Sequence[str], mix: np.ndarray, games: int, profile_min: int, seeds: np.ndarray
) -> None:
    """Play every profile of ``library`` (specs) not yet in the table ``profile_min`` games,
    then ``games`` more spread over the profiles in proportion to :func:`profile_weights` (all
    profiles share ``seeds``: common random numbers)."""
    profiles = table_profiles(len(library), arena.players)
    keys = [tuple(sorted(library[i] for i in profile)) for profile in profiles]
    plan = [profile_min if key not in table.sums else 0 for key in keys]
    weights = profile_weights(profiles, mix)
    extra = np.floor(games * weights / weights.sum()).astype(np.int64)
    plan = [p + int(e) for p, e in zip(plan, extra)]
    chosen = [(profile, key, g) for profile, key, g in zip(profiles, keys, plan) if g > 0]
    if not chosen:
        return
    strategies = [parse_strategy(spec) for spec in library]
    lineups = np.concatenate([np.tile(np.array(profile, np.int64), (g, 1)) for profile, _, g in chosen])
    game_seeds = np.concatenate([seeds[:g] for _, _, g in chosen])
    payoffs = arena.play(strategies, lineups, game_seeds)
    start = 0
    for profile, _key, g in chosen:
        table.add(tuple(library[i] for i in profile), payoffs[start : start + g])
        start += g


def _lineups_against(
    mix: np.ndarray, players: int, games: int, root: int, *key: int, streams: tuple[int, ...] = ()
) -> np.ndarray:
    """(games, players - 1) opponents drawn independently from ``mix`` (library indices)."""
    rng = np.random.default_rng(_sequence(root, key, streams))
    return rng.choice(len(mix), size=(games, players - 1), p=mix).astype(np.int64)


def focal_payoffs(
    arena,
    library: Sequence,
    mix: np.ndarray,
    candidates: Sequence,
    games: int,
    root: int,
    *key: int,
    streams: tuple[int, ...] = (),
) -> np.ndarray:
    """(candidates, games) payoff of each candidate in slot 0 against opponents drawn from
    ``mix``, every candidate on the same games and opponents (common random numbers)."""
    opponents = _lineups_against(mix, arena.players, games, root, *key, 0, streams=streams)
    seeds = keyed_seeds(root, *key, 1, size=games, streams=streams)
    pool = list(library) + list(candidates)
    focal = np.repeat(np.arange(len(library), len(pool), dtype=np.int64), games)
    lineups = np.column_stack([focal, np.tile(opponents, (len(candidates), 1))])
    payoffs = arena.play(pool, lineups, np.tile(seeds, len(candidates)))
    return payoffs[:, 0].reshape(len(candidates), games)


def search_best_response(
    arena,
    library: Sequence,
    mix: np.ndarray,
    candidates: Sequence,
    games: int,
    root: int,
    round_index: int,
    refine: Callable[[Sequence], Sequence] | None = None,
    streams: tuple[int, ...] = (),
    local: Sequence[Callable[[list, np.ndarray], Sequence]] = (),
) -> tuple[object, float]:
    """The candidate with the highest payoff against ``mix``, by successive halving.

    Stage 1: every candidate plays ``games`` games; ``refine`` (if given) then proposes
    variations of the stage-1 leaders, which play the same games; then each step of ``local``
    (the local search, :func:`local_search_steps`) proposes candidates from the pool so far and
    its stage-1 means, which play the same games again (common random numbers: a hill-climb
    compares neighbours on identical games). Stage 2: the best tenth (at
    least 3) play 4 x ``games`` fresh games; stage 3: the best three 15 x ``games``. Every stage
    plays all its candidates on the same games and opponents (common random numbers). Returns
    (the winner, its stage-3 mean payoff). ``streams``: whose random streams (see
    ``STOP_CHECK``); ``round_index`` keys fresh games within them.
    """
    pool = list(candidates)
    means = focal_payoffs(arena, library, mix, pool, games, root, round_index, 10, streams=streams).mean(axis=1)
    steps = list(local)
    if refine is not None:  # the first step: variations of the five stage-1 leaders
        steps.insert(0, lambda pool, means: refine([pool[i] for i in np.argsort(-means, kind="stable")[:5]]))
    for step in steps:
        extra = [c for c in step(pool, means) if c not in pool]
        if extra:
            pool += extra
            more = focal_payoffs(arena, library, mix, extra, games, root, round_index, 10, streams=streams).mean(axis=1)
            means = np.concatenate([means, more])
    alive = list(range(len(pool)))
    for stage, (count, keep) in enumerate(((4 * games, 3), (15 * games, 1)), start=1):
        order = np.argsort(-means, kind="stable")
        alive = [alive[i] for i in order[: max(keep, len(pool) // 10) if stage == 1 else keep]]
        means = focal_payoffs(
            arena, library, mix, [pool[i] for i in alive], count, root, round_index, 10 + stage, streams=streams
        ).mean(axis=1)
    best = int(np.argmax(means))
    return pool[alive[best]], float(means[best])


def measure_gain(
    arena,
    library: Sequence,
    mix: np.ndarray,
    response,
    games: int,
    root: int,
    round_index: int,
    check: int = 0,
    streams: tuple[int, ...] = (),
) -> tuple[float, float, float]:
    """Gain of ``response`` over the mix itself against the mix, on fresh paired games: each
    game is played once with ``response`` in slot 0 and once with a slot-0 strategy drawn from
    the mix, against the same opponents and seed. Returns (gain, 95% low, 95% high)."""
    opponents = _lineups_against(mix, arena.players, games, root, round_index, 20, check, streams=streams)
    seeds = keyed_seeds(root, round_index, 21, check, size=games, streams=streams)
    rng = np.random.default_rng(_sequence(root, (round_index, 22, check), streams))
    own = rng.choice(len(mix), size=games, p=mix).astype(np.int64)
    pool = list(library) + [response]
    lineups = np.concatenate(
        [np.column_stack([np.full(games, len(library)), opponents]), np.column_stack([own, opponents])]
    )
    payoffs = arena.play(pool, lineups, np.concatenate([seeds, seeds]))[:, 0]
    difference = payoffs[:games] - payoffs[games:]
    gain = float(difference.mean())
    half = Z95 * float(difference.std(ddof=1)) / math.sqrt(games) if games > 1 else math.inf
    return gain, gain - half, gain + half


def propose_candidates(
    archive: Sequence[Strategy], library: Sequence[Strategy], mix: np.ndarray, count: int, rng: np.random.Generator
) -> list[Strategy]:
    """``count`` distinct candidates (by spec): the archive (every strategy a library held or a
    round chose as its best reply) and the named strategies, then in turn a fresh random strategy and one to three mutations
    of a strategy drawn from the mix."""
    from cardsim.sims.cashnguns.space import mutate, sample_strategy

    seen: set[str] = set()
    candidates: list[Strategy] = []

    def offer(strategy: Strategy) -> None:
        spec = strategy.spec()
        if spec not in seen and len(candidates) < count:
            seen.add(spec)
            candidates.append(parse_strategy(spec))

    for strategy in list(archive) + [s for _, s in NAMED_STRATEGIES.values()]:
        if isinstance(strategy, Strategy):  # the search player is no candidate of the space
            offer(strategy)
    attempts = 0
    while len(candidates) < count and attempts < 50 * count:
        attempts += 1
        if attempts % 2:
            offer(sample_strategy(rng))
        else:
            parent = library[int(rng.choice(len(library), p=mix))]
            if not isinstance(parent, Strategy):  # a search member has no parameters to mutate
                parent = sample_strategy(rng)
            for _ in range(int(rng.integers(1, 4))):
                parent = mutate(parent, rng)
            offer(parent)
    return candidates


def refinements(leaders: Sequence[Strategy], count: int, rng: np.random.Generator) -> list[Strategy]:
    """``count`` distinct one-step mutations of the search leaders (in turn)."""
    from cardsim.sims.cashnguns.space import mutate

    specs = {s.spec() for s in leaders}
    out: list[Strategy] = []
    attempts = 0
    while len(out) < count and attempts < 50 * count:
        child = mutate(leaders[attempts % len(leaders)], rng)
        attempts += 1
        if child.spec() not in specs:
            specs.add(child.spec())
            out.append(parse_strategy(child.spec()))
    return out


#: How the local budget is spent: ``MEMBER_SHARE`` on the library members' one-move neighbours,
#: ``COMPOUND_SHARE`` on compound moves (several parameters at once, discover/5), the rest on
#: ``CLIMB_STEPS`` hill-climb steps from the ``CLIMB_TOP`` best candidates so far.
MEMBER_SHARE, COMPOUND_SHARE, CLIMB_STEPS, CLIMB_TOP = 0.3, 0.5, 2, 3
#: Parameters a compound move changes once every pair of range ends is tried.
COMPOUND_SIZE = 3


def _interleave(lists: Sequence[Sequence[Strategy]]) -> list[Strategy]:
    """The first item of each list, then the second of each, and so on."""
    return [lst[k] for k in range(max(map(len, lists), default=0)) for lst in lists if k < len(lst)]


def _fresh(pool: Sequence[Strategy], options: Sequence[Strategy], count: int) -> list[Strategy]:
    """The first ``count`` options (parsed back from their specs) whose spec is neither in
    ``pool`` nor repeated."""
    seen = {c.spec() for c in pool}
    out = []
    for option in options:
        spec = option.spec()
        if spec not in seen and len(out) < count:
            seen.add(spec)
            out.append(parse_strategy(spec))
    return out


def local_budget(local: int) -> tuple[int, int, list[int]]:
    """``local`` candidates split into (members' neighbours, compound moves, each climb step)."""
    members = round(local * MEMBER_SHARE)
    compound = round(local * COMPOUND_SHARE)
    rest = local - members - compound
    return members, compound, [rest * (k + 1) // CLIMB_STEPS - rest * k // CLIMB_STEPS for k in range(CLIMB_STEPS)]


def compound_candidates(
    members: Sequence[Strategy],
    leaders: Sequence[Strategy],
    count: int,
    pool: Sequence[Strategy],
    rng: np.random.Generator,
) -> list[Strategy]:
    """``count`` compound moves not in ``pool``: every pair of range ends (``space.end_pairs``,
    each strategy's pairs in an order drawn from ``rng``) of the ``members``, taken in turn,
    then of the ``leaders`` the same way; once those run out, random ``COMPOUND_SIZE``-parameter
    moves (``space.compound_move``) of members and leaders in turn."""
    from cardsim.sims.cashnguns.space import compound_move, end_pairs

    def shuffled_pairs(strategy: Strategy) -> list[Strategy]:
        options = end_pairs(strategy)
        return [options[int(i)] for i in rng.permutation(len(options))]

    bases = list(members) + list(leaders)
    out = _fresh(
        pool,
        _interleave([shuffled_pairs(m) for m in members]) + _interleave([shuffled_pairs(m) for m in leaders]),
        count,
    )
    attempts = 0
    while bases and len(out) < count and attempts < 50 * count:
        move = compound_move(bases[attempts % len(bases)], COMPOUND_SIZE, rng)
        attempts += 1
        out += _fresh(list(pool) + out, [move], 1)
    return out


def local_search_steps(
    library: Sequence[Strategy], mix: np.ndarray, local: int, rng: np.random.Generator
) -> list[Callable[[list, np.ndarray], list[Strategy]]]:
    """The local search of one best-response search (discover/5), as steps for
    :func:`search_best_response`, ``local`` candidates in all (none when 0), in this order:

    1. the neighbours of the mix's members (``space.neighbours``: every other bullet policy,
       with ``safe`` at each midpoint between the counted chances such as 0.3542 between 1/3
       and 3/8; every other target and lie-down rule; each parameter one and two grid steps and
       to the next chance midpoint), members with a share by decreasing share, taken in turn
       (the first neighbour of each member, then the second, ...), then the library's members
       without a share the same way, ``MEMBER_SHARE`` of ``local``;
    2. compound moves, ``COMPOUND_SHARE`` of ``local`` (:func:`compound_candidates`): from the
       mix's members by decreasing share, then from the ``CLIMB_TOP`` best candidates so far on
       the stage-1 games, two parameters set to ends of their ranges at once, then random moves
       of three parameters; they reach replies that differ from every member in several
       parameters where no single change gains (discover/4's one-move search cannot);
    3. ``CLIMB_STEPS`` hill-climb steps that share the rest: each takes the ``CLIMB_TOP`` best
       candidates so far on the stage-1 games and tries neighbours of theirs drawn at random
       (``rng``), on the same games.

    Candidates already in the pool are skipped; the draws depend only on ``rng`` and the
    stage-1 means, so the search is the same for any --jobs."""
    from cardsim.sims.cashnguns.space import neighbours

    if local <= 0:
        return []
    members, compound, climbs = local_budget(local)
    ranked = np.argsort(-np.asarray(mix), kind="stable")
    support = [library[i] for i in ranked if mix[i] > 0 and isinstance(library[i], Strategy)]
    rest = [library[i] for i in ranked if mix[i] <= 0 and isinstance(library[i], Strategy)]

    def leaders(pool: list, means: np.ndarray) -> list[Strategy]:
        return [pool[i] for i in np.argsort(-means, kind="stable")[:CLIMB_TOP]]

    def around_members(pool: list, means: np.ndarray) -> list[Strategy]:
        return _fresh(
            pool, _interleave([neighbours(m) for m in support]) + _interleave([neighbours(m) for m in rest]), members
        )

    def compound_moves(pool: list, means: np.ndarray) -> list[Strategy]:
        member_specs = {m.spec() for m in support}
        best = [s for s in leaders(pool, means) if s.spec() not in member_specs]
        return compound_candidates(support, best, compound, pool, rng)

    def climb(count: int) -> Callable[[list, np.ndarray], list[Strategy]]:
        def step(pool: list, means: np.ndarray) -> list[Strategy]:
            options = _fresh(pool, [n for leader in leaders(pool, means) for n in neighbours(leader)], 10**9)
            picked = rng.permutation(len(options))[:count] if options else []
            return [options[int(i)] for i in sorted(picked)]

        return step

    steps = [around_members] + ([compound_moves] if compound > 0 else [])
    return steps + [climb(count) for count in climbs if count > 0]


@dataclass(frozen=True)
class Reply:
    """One best-response search's answer: the reply, its last-stage search payoff, and its
    gain over the mix itself measured on fresh paired games (``gain`` with the 95% interval
    ``low``..``high``, on ``games`` games; see :func:`measure_gain`)."""

    strategy: Strategy
    search_payoff: float
    gain: float
    low: float
    high: float
    games: int
    candidates: int

    @property
    def spec(self) -> str:
        return self.strategy.spec()

    def record(self, names: dict[str, str]) -> dict:
        """The reply as a discover round stores it."""
        return {
            "best_response": self.spec,
            "best_response_name": names.get(self.spec, self.spec),
            "description": self.strategy.describe(),
            "candidates": self.candidates,
            "gain": self.gain,
            "exploitability_lo": self.low,
            "exploitability_hi": self.high,
            "validation_games": self.games,
        }


def find_reply(
    arena,
    library: Sequence[Strategy],
    mix: np.ndarray,
    archive: Sequence[Strategy],
    *,
    budget: int,
    search_games: int,
    validation_games: int,
    root: int,
    key: int,
    streams: tuple[int, ...] = (),
    quick: bool = True,
    local: int = DEFAULT_LOCAL,
) -> Reply:
    """One best-response search against ``mix`` and the measure of its reply's gain.

    ``budget`` candidates: seven tenths proposed by :func:`propose_candidates` (the
    ``archive`` and named strategies first), the rest one-step refinements of the stage-1
    leaders, then ``local`` local-search candidates (:func:`local_search_steps`: neighbours of
    the library's members, compound moves of several parameters and a short hill-climb from the
    best candidates so far, discover/5);
    successive halving (:func:`search_best_response`, ``search_games`` per candidate
    first) picks the reply. Its gain is measured on fresh paired games that no candidate was
    selected on: a fifth of ``validation_games`` first when ``quick`` and, unless that already
    shows a significant gain, all of them. Every draw comes from the streams ``streams`` keyed
    by (``root``, ``key``): discover's own (no spawn key), a stop check's or the outside check's."""
    rng = np.random.default_rng(_sequence(root, (key, 3), streams))
    initial = budget - budget * 3 // 10
    candidates = propose_candidates(archive, library, mix, initial, rng)
    response, search_mean = search_best_response(
        arena,
        library,
        mix,
        candidates,
        search_games,
        root,
        key,
        refine=lambda leaders: refinements(leaders, budget - len(candidates), rng),
        streams=streams,
        local=local_search_steps(library, mix, local, rng),
    )
    games = max(1, validation_games // 5) if quick else validation_games
    gain, low, high = measure_gain(arena, library, mix, response, games, root, key, 0, streams=streams)
    if quick and low <= 0:  # not clearly significant: measure on the full, separate set of games
        games = validation_games
        gain, low, high = measure_gain(arena, library, mix, response, games, root, key, 1, streams=streams)
    return Reply(response, search_mean, gain, low, high, games, budget + max(local, 0))
