"""Write your own Bang! strategy: the view a seat sees, its decisions, and the engine that plays
games with it in one role while built-in bots play every other seat.

A strategy is a class (instantiated without arguments) or an object with methods named in
:data:`DECISIONS`, each ``method(view, legal) -> choice`` returning one of ``legal``:

``play(view, legal)``
    The play phase, once per card played: a :class:`Play` ``(card, target, which)`` from
    ``legal``, or :data:`END` (always the last legal option) to end the phase. ``card`` is a
    card id (:func:`card_kind`, :func:`card_name`) or :data:`SID_ABILITY` (Sid Ketchum:
    discard two cards, regain one life); ``target`` a seat or -1; ``which`` for Panic! and Cat
    Balou the card in play taken from the target, -1 for a random card from its hand.
``discard(view, legal)``
    End of turn, once per card over the hand limit (current life, seed 003): a card id of
    the hand.
``store_pick(view, legal)``
    General Store, in one's own turn or another's: one of the shown card ids still there.
``sid_discard(view, legal)``
    Sid Ketchum's ability (played, or to survive at 0 life): an ordered pair ``(first,
    second)`` of hand cards, discarded in that order (the second ends on top of the pile).
``jesse_source(view, legal)``
    Jesse Jones's draw: the seat to take the first card from at random, -1 for the deck.
``kit_return(view, legal)``
    Kit Carlson's draw: which of the three cards he looked at goes back on the deck.
``pedro_discard(view, legal)``
    Pedro Ramirez's draw: ``True`` to take the discard pile's top card first.

Responses are automatic as for every built-in bot (a Missed!, a Barrel or a Beer whenever
they save a life point; BANG!s in a Duel and against Indians! while held).

A strategy may leave decisions out: each one it does not define is made by the built-in bot
it is evaluated against (``--against``), with that bot's parameters for the role. So a
strategy of one method, ``play``, differs from the built-in in its plays only. At least one
decision must be defined.

The :class:`View` holds only what the seat may know (seed 003 and the published rules): its
own role and hand, the Sheriff's seat, every role made public (the Sheriff's, the dead's),
each seat's character, life, hand size, distance and cards in play, the public attack record
(who attacked whom), the counts of living Outlaws and foes of the law from the role counts
minus the revealed dead, and the top of the discard pile; never another hand, a hidden role
or the draw pile. The engine builds it from the same public view array the built-in bots
read (:mod:`cardsim.sims.bang.view`).

The built-in bots through this interface: :class:`cardsim.sims.bang.builtin.BuiltinBot` (every
decision in plain Python; with the role bot's parameters it plays exactly the kernel's games).
Examples: ``examples/strategies/bang_role.py`` (``RoleBot``, the role bot) and
``examples/strategies/bang_renegade.py`` (``TwoRules``: the tuned bot as a Renegade with the two
structural rules, one method overridden). ``docs/strategies.md`` has the tutorial.

The engine is the compiled one (:mod:`cardsim.sims.bang.engine`): the user's seat has bot
code ``BOT_USER + k`` (k: the fallback built-in), and at each of its decisions the kernel
steps out once (:mod:`cardsim.sims.bang.usercall`) to ask the strategy, so only the user's own
code runs as Python. Games with the user's seat played by the built-in instead meet the same
deals (common random numbers: deals and play come from separate streams).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.bang import engine
from cardsim.sims.bang.cards import (  # noqa: F401  (re-exported for strategies)
    BANG,
    BARREL,
    BEER,
    BOT_NAMES,
    BOT_SEARCH,
    BOT_USER,
    CARABINE,
    CARD_KIND,
    CARD_RANK,
    CARD_SUIT,
    CAT_BALOU,
    CHARACTER_NAMES,
    DEPUTY,
    DUEL,
    DYNAMITE,
    FIRST_BLUE,
    FIRST_WEAPON,
    GATLING,
    GENERAL_STORE,
    INDIANS,
    JAIL,
    KIND_NAMES,
    MISSED,
    MUSTANG,
    N_CARDS,
    N_KINDS,
    OUTLAW,
    PANIC,
    REMINGTON,
    RENEGADE,
    ROLE_NAMES,
    ROLE_SIDE,
    SALOON,
    SCHOFIELD,
    SCOPE,
    SHERIFF,
    STAGECOACH,
    VOLCANIC,
    WEAPON_REACH,
    WELLS_FARGO,
    WINCHESTER,
)  # fmt: skip
from cardsim.sims.bang.policies import SID_ABILITY
from cardsim.sims.bang.usercall import FALLBACK, SID_BASE, install
from cardsim.sims.bang.view import (
    MAX_SEATS,
    V_ALIVE,
    V_ALIVE_N,
    V_ATTACKS,
    V_CHAR,
    V_DISCARD_TOP,
    V_DIST,
    V_FOES,
    V_HAND_COUNT,
    V_HAND_N,
    V_LIFE,
    V_MAX_LIFE,
    V_MAY_BANG,
    V_MY_CARDS,
    V_MY_ROLE,
    V_OUTLAWS,
    V_PLAYERS,
    V_REACH,
    V_ROLE,
    V_SEAT,
    V_SHERIFF,
    V_TABLE,
)  # fmt: skip
from cardsim.sims.core.user_strategy import DEFAULT_TIME_LIMIT, StrategyError, decide

#: The decision methods of a Bang! strategy, in the order of the engine's decision codes.
DECISIONS = ("play", "discard", "store_pick", "sid_discard", "jesse_source", "kit_return", "pedro_discard")
#: The built-in bots a strategy may be evaluated against (and falls back on): the search bot
#: plans with the engine itself, so it is left out.
AGAINST = tuple(name for code, name in enumerate(BOT_NAMES) if code != BOT_SEARCH)
EVALUATE_CHUNK = 100  # games per chunk of an evaluation (chunk i: the root seed's i-th child)
MAX_TURNS = 1000  # the simulator's turn cap: a game still going is won by nobody

_KINDS = tuple(int(k) for k in CARD_KIND)
_SUITS = "SHDC"
_RANKS = {11: "J", 12: "Q", 13: "K", 14: "A"}


class Play(NamedTuple):
    """One play of the play phase: ``card`` (a card id, or :data:`SID_ABILITY`), ``target`` (a
    seat, -1 for none) and ``which`` (Panic!/Cat Balou: the card in play taken, -1 blind from
    the hand; -1 otherwise). :data:`END` ends the phase."""

    card: int
    target: int
    which: int


#: The play that ends the play phase (always the last legal play).
END = Play(-1, -1, -1)
PEDRO_CHOICES = (False, True)


@dataclass(frozen=True, slots=True)
class View:
    """What seat ``seat`` knows when it decides (per-seat tuples are indexed by seat, 0 is the
    Sheriff's, turn order clockwise).

    Attributes:
        seat, players, turn: the deciding seat, the table size, turns begun so far (all seats).
        role: my role (``SHERIFF``, ``DEPUTY``, ``OUTLAW``, ``RENEGADE``); ``sheriff`` his seat.
        roles: each seat's role where it is public (the Sheriff, the dead, mine), else -1.
        characters: each seat's character (``CHARACTER_NAMES``).
        life, max_life, alive, hand_counts: each seat's state (cards in hand: a count).
        distance: from me to each living seat (0 for me and the dead).
        in_play: per seat, the card ids it has in play (blue cards, weapon, Jail, Dynamite).
        attacks: ``attacks[a][t]`` attacks seat a has made on seat t (BANG!, Duel, Jail,
            Panic!, Cat Balou), the public record the built-in bots reason from.
        hand: my card ids, ascending.
        living: players alive; outlaws_alive, foes_alive: living Outlaws and Outlaws plus
            Renegade, from the role counts minus the revealed dead.
        may_bang: whether I may still play a BANG! this turn; reach: my weapon's reach.
        discard_top: the card on top of the discard pile, -1 if it is empty.
    """

    seat: int
    players: int
    turn: int
    role: int
    sheriff: int
    roles: tuple[int, ...]
    characters: tuple[int, ...]
    life: tuple[int, ...]
    max_life: tuple[int, ...]
    alive: tuple[bool, ...]
    hand_counts: tuple[int, ...]
    distance: tuple[int, ...]
    in_play: tuple[tuple[int, ...], ...]
    attacks: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]
    living: int
    outlaws_alive: int
    foes_alive: int
    may_bang: bool
    reach: int
    discard_top: int


def card_kind(card: int) -> int:
    """The kind of card id ``card`` (``BANG``, ``MISSED``, ... ; ``KIND_NAMES`` names them)."""
    return _KINDS[card]


def card_name(card: int) -> str:
    """A card id as text: its name, rank and suit ("BANG! AS")."""
    if card == SID_ABILITY:
        return "Sid Ketchum's ability"
    rank = int(CARD_RANK[card])
    return f"{KIND_NAMES[_KINDS[card]]} {_RANKS.get(rank, str(rank))}{_SUITS[int(CARD_SUIT[card])]}"


def build_view(v: np.ndarray, turn: int) -> View:
    """The :class:`View` of the public view array ``v`` (:func:`decisions.public_view`), which
    holds the public record and the deciding seat's own hand only."""
    a = v.tolist()
    n = a[V_PLAYERS]

    def seats(offset: int) -> tuple[int, ...]:
        return tuple(a[offset : offset + n])

    table = a[V_TABLE : V_TABLE + n * N_KINDS]
    return View(
        seat=a[V_SEAT],
        players=n,
        turn=int(turn),
        role=a[V_MY_ROLE],
        sheriff=a[V_SHERIFF],
        roles=seats(V_ROLE),
        characters=seats(V_CHAR),
        life=seats(V_LIFE),
        max_life=seats(V_MAX_LIFE),
        alive=tuple(x == 1 for x in a[V_ALIVE : V_ALIVE + n]),
        hand_counts=seats(V_HAND_COUNT),
        distance=seats(V_DIST),
        in_play=tuple(tuple(c for c in table[q * N_KINDS : (q + 1) * N_KINDS] if c >= 0) for q in range(n)),
        attacks=tuple(tuple(a[V_ATTACKS + q * MAX_SEATS : V_ATTACKS + q * MAX_SEATS + n]) for q in range(n)),
        hand=tuple(a[V_MY_CARDS : V_MY_CARDS + a[V_HAND_N]]),
        living=a[V_ALIVE_N],
        outlaws_alive=a[V_OUTLAWS],
        foes_alive=a[V_FOES],
        may_bang=a[V_MAY_BANG] == 1,
        reach=a[V_REACH],
        discard_top=a[V_DISCARD_TOP],
    )


def legal_choices(decision: int, view: View, extra: np.ndarray) -> tuple[Any, ...]:
    """The legal answers of decision code ``decision`` (``extra``: the engine's legal plays as
    triples, or the cards shown)."""
    name = DECISIONS[decision]
    if name == "play":
        flat = extra.tolist()
        return tuple(Play(*flat[i : i + 3]) for i in range(0, len(flat), 3)) + (END,)
    if name == "discard":
        return view.hand
    if name in ("store_pick", "kit_return"):
        return tuple(extra.tolist())
    if name == "sid_discard":
        return tuple((a, b) for a in view.hand for b in view.hand if a != b)
    if name == "jesse_source":
        return (-1,) + tuple(
            q for q in range(view.players) if q != view.seat and view.alive[q] and view.hand_counts[q] > 0
        )
    return PEDRO_CHOICES


def encode(decision: int, choice: Any, legal: tuple[Any, ...]) -> int:
    """The engine's integer for a legal ``choice``: an index for a play, a store pick or Kit's
    card, a card id for a discard, a seat for Jesse, first * SID_BASE + second for Sid."""
    name = DECISIONS[decision]
    if name in ("play", "store_pick", "kit_return"):
        return legal.index(choice)
    if name == "sid_discard":
        return choice[0] * SID_BASE + choice[1]
    return int(choice)


class UserSeat:
    """The handler a user seat's decisions reach (:func:`usercall.install`): builds the view,
    asks the strategy through :func:`~cardsim.sims.core.user_strategy.decide` (legal choice,
    time limit, one-line error) and answers the engine; a decision the strategy does not
    define goes back to the built-in fallback bot."""

    def __init__(self, strategy: Any, spec: str, role: int, time_limit: float = DEFAULT_TIME_LIMIT) -> None:
        self.strategy, self.spec, self.role, self.time_limit = strategy, spec, role, time_limit
        self.defined = [callable(getattr(strategy, name, None)) for name in DECISIONS]
        self.game = 0
        self.error: StrategyError | None = None

    def __call__(self, decision: int, v: np.ndarray, extra: np.ndarray, turn: int) -> int:
        if not self.defined[decision]:
            return FALLBACK
        view = build_view(v, turn)
        legal = legal_choices(decision, view, extra)
        try:
            choice = decide(
                self.strategy,
                DECISIONS[decision],
                view,
                legal,
                spec=self.spec,
                seat=f"{ROLE_NAMES[self.role]} (seat {view.seat})",
                turn=f"game {self.game}, turn {turn}",
                time_limit=self.time_limit,
            )
        except StrategyError as err:
            self.error = err
            raise
        return encode(decision, choice, legal)


def builtin_tables(bot: str, players: int) -> tuple[int, np.ndarray]:
    """(bot code, parameters per role) of built-in ``bot`` at ``players``."""
    from cardsim.sims.bang.simulator import bot_params

    return BOT_NAMES.index(bot), np.ascontiguousarray(bot_params(bot, players), np.float64)


def play_user_games(
    seat: UserSeat, players: int, others: str, fallback: str, deal_seed: int, play_seed: int, n: int, *, first: int = 0
) -> tuple[np.ndarray, ...]:
    """``n`` games with the first seat of ``seat.role`` played by ``seat``'s strategy (its
    missing decisions by ``fallback``) and every other seat by built-in ``others``: the
    result arrays of :func:`engine.play_focus_games` (winner, turns, roles, chars, alive,
    life, killer, out_turn, errors; one row per game). Deals come from ``deal_seed``'s stream and
    play from ``play_seed``'s, as :func:`builtin_games` draws them, game by game (games are
    numbered from ``first + 1`` in errors). A failing decision raises its
    :class:`StrategyError`."""
    other_code, other_table = builtin_tables(others, players)
    fallback_code, fallback_table = builtin_tables(fallback, players)
    bots = np.full(4, other_code, dtype=np.int64)
    deal_rng, play_rng = np.random.default_rng(deal_seed), np.random.default_rng(play_seed)
    rows = []
    previous = install(seat)
    try:
        for i in range(n):
            seat.game = first + i + 1
            try:
                result = engine.play_focus_games(
                    1,
                    players,
                    bots,
                    other_table,
                    seat.role,
                    BOT_USER + fallback_code,
                    fallback_table[seat.role],
                    MAX_TURNS,
                    deal_rng,
                    play_rng,
                    False,
                    rollout_params=other_table,
                )
            except Exception:
                if seat.error is not None:
                    raise seat.error from seat.error.__cause__
                raise
            rows.append(result)
    finally:
        install(previous)
    return tuple(np.concatenate(column) for column in zip(*rows, strict=True))


def builtin_games(
    role: int, players: int, others: str, bot: str, deal_seed: int, play_seed: int, n: int
) -> tuple[np.ndarray, ...]:
    """The same ``n`` deals as :func:`play_user_games` with built-in ``bot`` in the seat: the
    kernel's result arrays."""
    other_code, other_table = builtin_tables(others, players)
    code, table = builtin_tables(bot, players)
    bots = np.full(4, other_code, dtype=np.int64)
    return engine.play_focus_games(
        n,
        players,
        bots,
        other_table,
        role,
        code,
        table[role],
        MAX_TURNS,
        np.random.default_rng(deal_seed),
        np.random.default_rng(play_seed),
        False,
        rollout_params=other_table,
    )


def play_seat_games(
    players: int,
    role: int,
    seat: str,
    others: dict[str, str],
    deal_seed: int,
    play_seed: int,
    n: int,
    *,
    fallback: str = "tuned",
    first: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> tuple[np.ndarray, ...]:
    """``n`` games with the first seat of ``role`` played by ``seat`` (a built-in bot, or a
    strategy ``FILE.py:NAME`` whose missing decisions are ``fallback``'s) and every other seat
    by ``others`` (``BangConfig`` bot fields per role: built-in bots or files, whose missing
    decisions are ``tuned``'s). Every file runs in a process of its own
    (:func:`file_seats`). Deals come from ``deal_seed``'s stream and play from
    ``play_seed``'s, as :func:`builtin_games` draws them (games are numbered from ``first + 1``
    in errors). A failing decision raises its :class:`StrategyError`."""
    from cardsim.sims.bang.simulator import BangConfig, bot_params, is_file_spec

    fields: dict[str, Any] = dict(others)
    config = BangConfig(players=players, **fields)
    bots, params = config.bots_by_role(), np.ascontiguousarray(config.params_by_role(), np.float64)
    specs = config.file_specs()
    if is_file_spec(seat):
        focus_code, focus_params = BOT_USER + BOT_NAMES.index(fallback), bot_params(fallback, players)[role]
        specs[role] = seat
    else:
        focus_code, focus_params = BOT_NAMES.index(seat), bot_params(seat, players)[role]
    deal_rng, play_rng = np.random.default_rng(deal_seed), np.random.default_rng(play_seed)

    def play(count: int) -> tuple[np.ndarray, ...]:
        return engine.play_focus_games(
            count,
            players,
            bots,
            params,
            role,
            focus_code,
            focus_params,
            MAX_TURNS,
            deal_rng,
            play_rng,
            False,
            rollout_params=params,
        )

    if not specs:
        return play(n)
    handler = file_seats(specs, time_limit)
    rows = []
    previous = install(handler)
    try:
        for i in range(n):
            handler.start_game(first + i + 1)
            try:
                rows.append(play(1))
            except Exception:
                failure = handler.failure()
                if failure is not None:
                    raise failure from failure.__cause__
                raise
    finally:
        install(previous)
    return tuple(np.concatenate(column) for column in zip(*rows, strict=True)) if rows else play(0)


def evaluate_chunk(
    spec: str,
    players: int,
    role: int,
    against: str,
    others: str | dict[str, str],
    rng: np.random.Generator,
    n: int,
    first: int,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> dict[str, Any]:
    """One chunk of an evaluation (runs in workers): the same ``n`` deals played with the
    user's strategy (``spec``, in a process of its own) and with ``against`` (a built-in bot or
    another file) in the seat of ``role``; ``others``: the bot of every other seat, or
    ``BangConfig`` bot fields per role (built-in bots or files). Returns 1/0 wins of the role's
    side per game, or ``error`` (the :class:`StrategyError`'s fields and the strategy's
    traceback as text) instead of raising across processes."""
    from cardsim.sims.bang.simulator import is_file_spec
    from cardsim.sims.core.user_strategy import strategy_traceback

    deal_seed, play_seed = (int(x) for x in rng.integers(0, 2**63 - 1, size=2))
    fields = {f"{name}_bot": others for name in ROLE_NAMES} if isinstance(others, str) else dict(others)
    fallback = "tuned" if is_file_spec(against) else against
    try:
        user = play_seat_games(
            players, role, spec, fields, deal_seed, play_seed, n, fallback=fallback, first=first, time_limit=time_limit
        )[0]
        builtin = play_seat_games(
            players, role, against, fields, deal_seed, play_seed, n, first=first, time_limit=time_limit
        )[0]
    except StrategyError as err:
        return {
            "error": {
                "problem": err.problem,
                "strategy": err.strategy,
                "seat": err.seat,
                "turn": err.turn,
                "decision": err.decision,
            },
            "traceback": strategy_traceback(err),
        }
    side = ROLE_SIDE[role]
    return {"user": (user == side).astype(np.int8), "builtin": (builtin == side).astype(np.int8)}


def check_strategy(strategy: Any, spec: str) -> None:
    """Refuse a strategy that defines none of :data:`DECISIONS` before anything runs."""
    if not any(callable(getattr(strategy, name, None)) for name in DECISIONS):
        raise UserError(
            f"strategy {spec} defines none of the Bang! decisions "
            f"{', '.join(DECISIONS)} (each a method (view, legal) -> choice)"
        )


class RoleSeats:
    """The handler of a table where several roles are played by Python strategies: each
    decision goes to the :class:`UserSeat` of the deciding seat's role (the seats of one role
    share its strategy, as the seats of one built-in bot share its code)."""

    def __init__(self, seats: dict[int, UserSeat]) -> None:
        self.seats = seats

    def start_game(self, game: int) -> None:
        """Number the next game (for error messages)."""
        for seat in self.seats.values():
            seat.game = game

    def failure(self) -> StrategyError | None:
        """The strategy failure met by a seat, if any."""
        return next((seat.error for seat in self.seats.values() if seat.error is not None), None)

    def __call__(self, decision: int, v: np.ndarray, extra: np.ndarray, turn: int) -> int:
        return self.seats[int(v[V_MY_ROLE])](decision, v, extra, turn)


def file_seats(specs: dict[int, str], time_limit: float = DEFAULT_TIME_LIMIT) -> RoleSeats:
    """The handler for the roles of ``specs`` (role index -> ``FILE.py:NAME``), each strategy
    in a process of its own (:func:`~cardsim.sims.core.isolation.isolated_strategy`, started
    once per process and file) that sees a copy of its view. A file that fails to load, or
    defines no decision, is a :class:`UserError` naming it."""
    from cardsim.sims.core.isolation import isolated_strategy

    seats = {}
    for role, spec in specs.items():
        strategy = isolated_strategy(spec, DECISIONS, time_limit, require=False)
        check_strategy(strategy, spec)
        seats[role] = UserSeat(strategy, spec, role, time_limit)
    return RoleSeats(seats)


def play_file_games(config: Any, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """``n`` games of a :class:`~cardsim.sims.bang.simulator.BangConfig` in which some roles are
    played by Python strategies (:meth:`BangConfig.file_specs`): the result arrays of
    :func:`engine.play_games`, drawn from ``rng`` as the kernel draws them, one game at a time.
    A failing decision raises its :class:`StrategyError`."""
    handler = file_seats(config.file_specs())
    bots, params = config.bots_by_role(), config.params_by_role()
    rows = []
    previous = install(handler)
    try:
        for i in range(n):
            handler.start_game(i + 1)
            try:
                rows.append(engine.play_games(1, config.players, bots, params, config.max_turns, rng, False))
            except Exception:
                failure = handler.failure()
                if failure is not None:
                    raise failure from failure.__cause__
                raise
    finally:
        install(previous)
    if not rows:
        return engine.play_games(0, config.players, bots, params, config.max_turns, rng, False)
    result = tuple(np.concatenate(column) for column in zip(*rows, strict=True))
    if result[-1].max() > 0:
        raise RuntimeError("bang: invariant broken in a game with a Python strategy")
    return result
