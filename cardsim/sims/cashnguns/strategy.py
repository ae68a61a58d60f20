"""Write your own Cash'n Guns strategy: the view a seat sees, its three decisions, the engine.

A strategy is a Python object with three methods, each ``method(view, legal) -> choice``
returning one of ``legal``:

- ``aim(view, legal)``: phases 2-3, whom to aim at. ``legal``: the seats of the living
  opponents.
- ``card(view, legal)``: phase 2, the bullet card to play at ``view.target`` (the seat just
  aimed at). ``legal``: the kinds still in hand, 0 Click, 1 Bang!, 2 Bang!Bang!Bang!.
- ``lie_down(view, legal)``: phase 4, knowing every aim (``view.targets``) but no card.
  ``legal``: ``(False, True)``.

The :class:`View` holds only what the seat may know (``seeds/cash_n_guns.md``, "Information"):
its own hand, the round, every player's money, wounds, shame and whether alive, the notes on
the table and drawn so far, the cards each player has revealed, who aimed at whom and who lay
down in every finished round, and ``u``, a uniform random number in [0, 1) drawn for this
decision from the seat's own private stream (:mod:`rng`: seeded from the game seed through a
cryptographic hash, so a strategy that randomizes replays from the seed, while ``u`` tells
nothing about the deck or another seat's numbers). It never
holds another player's hand or an undrawn note. Money is in dollars.

Example (``examples/strategies/cashnguns_patient.py``)::

    class Patient:
        '''Aims at the richest, plays Clicks until round 6, lies down under two guns.'''

        def aim(self, view, legal):
            return max(legal, key=lambda seat: (view.money[seat], -seat))

        def card(self, view, legal):
            return 0 if 0 in legal and view.round < 5 else max(legal)

        def lie_down(self, view, legal):
            return sum(1 for aim in view.targets if aim == view.seat) >= 2

The engine (:func:`play_game`, :func:`play_games`) plays the seats driven by such objects
through :func:`cardsim.sims.core.user_strategy.decide` and every other seat by a built-in
strategy in the compiled round phases of :mod:`steps`, which Python meets a few times a
round. The order of a game is :func:`play_steps`, a generator that stops at every decision of
a Python seat (the engine answers with :func:`decide`, the PettingZoo environment
``cardsim.envs.cashnguns_v0`` with its agents' actions). It draws the game's random streams
exactly as the kernel does, so a game whose seats are all built-in plays as in
:func:`kernel.play_batch` (tested), and a user's seat and a built-in in the same seat meet
the same deals and draws (common random numbers).
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardsim.sims.cashnguns import steps
from cardsim.sims.cashnguns.rng import private_seeds
from cardsim.sims.cashnguns.rules import DECK_NOTE_COUNTS, HAND_COUNTS, ROUNDS, UNIT_DOLLARS
from cardsim.sims.cashnguns.search import SearchPlayer, is_search_row
from cardsim.sims.cashnguns.strategies import N_PARAMS
from cardsim.sims.core.isolation import IsolatedStrategy
from cardsim.sims.core.jit import python_entry
from cardsim.sims.core.user_strategy import DEFAULT_TIME_LIMIT, DecisionClock, decide

#: Players that run in the engine's process, by name (a search player, say): each name maps to
#: a factory of an object with the three decisions. The module that defines such a player
#: registers it here; tournaments and ``engine_lineups`` then seat it by its name.
PLAYERS: dict[str, Callable[[], Any]] = {}

#: The decision methods a Cash'n Guns strategy defines, in the order a round asks them.
DECISIONS = ("aim", "card", "lie_down")
AIM, CARD, LIE = DECISIONS
#: The legal answers of ``lie_down``.
LIE_CHOICES = (False, True)
#: :attr:`GameState.asked` when no decision is asked (the game is over).
NOBODY: tuple[int, str, float] = (-1, "", 0.0)


@dataclass(frozen=True)
class View:
    """What seat ``seat`` knows when it decides (money in dollars; per-seat tuples by seat).

    Attributes:
        seat, players, round: the deciding seat, the table size, the round (0-7).
        hand: my cards left as counts (Clicks, Bangs, Bang!Bang!Bang!s).
        alive, money, wounds, shame: every player's state (money: notes taken so far).
        loot: the notes on the table as counts of $5,000 / $10,000 / $20,000;
            ``loot_value`` their value; ``expected_loot``: the round's expected loot before its
            notes were turned (notes left over plus five times the mean undrawn note).
        drawn: notes drawn so far per kind (the deck holds 15 / 15 / 10).
        revealed: per seat, its revealed Clicks, Bangs and Bang!Bang!Bang!s.
        aims, lay: per finished round, each seat's target (-1 if dead) and whether it lay down.
        target: the seat I aim at this round (``card`` and ``lie_down``), else -1.
        targets: each seat's aim this round (``lie_down``), -1 for the dead, else empty.
        shame_value: dollars one shame marker adds to the final score (negative: a penalty).
        u: a uniform random number in [0, 1) from the seat's private stream for this decision.
    """

    seat: int
    players: int
    round: int
    hand: tuple[int, int, int]
    alive: tuple[bool, ...]
    money: tuple[int, ...]
    wounds: tuple[int, ...]
    shame: tuple[int, ...]
    loot: tuple[int, int, int]
    loot_value: int
    expected_loot: float
    drawn: tuple[int, int, int]
    revealed: tuple[tuple[int, int, int], ...]
    aims: tuple[tuple[int, ...], ...]
    lay: tuple[tuple[bool, ...], ...]
    target: int
    targets: tuple[int, ...]
    shame_value: int
    u: float


@dataclass(frozen=True)
class Seat:
    """A user strategy in a seat: the object and the spec it was loaded from (for errors)."""

    strategy: Any
    spec: str


#: The phases of a round that Python calls, in their order.
_PHASES = (steps.open_round, steps.built_in_lie_downs, steps.close_round)


_python_entry = functools.cache(python_entry)


@functools.cache
def _parameters(phase: Any) -> tuple[str, ...]:
    """The parameter names of a compiled phase of :mod:`steps`."""
    return tuple(inspect.signature(phase.py_func).parameters)


class GameState:
    """The state of one game as the kernel keeps it (money in $5,000 units), in the arrays
    the compiled phases of :mod:`steps` read and write, and the decision :func:`play_steps`
    asks now: ``asked`` (seat, decision, its ``u``) and its ``legal`` choices. The hidden
    parts (``hands``, this round's ``bullets``, the undrawn part of ``deck``) may be changed
    between decisions without changing any view but their owner's (the hidden-card tests)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.alive = np.ones(players, np.bool_)
        self.wounds = np.zeros(players, np.int64)
        self.shame = np.zeros(players, np.int64)
        self.cash = np.zeros(players, np.int64)
        self.shots = np.zeros(players, np.int64)
        self.revealed = np.zeros((players, 3), np.int64)
        self.aims = np.full((ROUNDS, players), -1, np.int64)
        self.lay = np.zeros((ROUNDS, players), np.bool_)
        self.hands = np.tile(np.array(HAND_COUNTS, np.int64), (players, 1))
        self.table = np.zeros(3, np.int64)
        self.drawn = np.zeros(3, np.int64)
        self.stream = np.zeros(1, np.uint64)
        self.slot_private = np.zeros(players, np.uint64)
        self.private = np.zeros(players, np.uint64)
        self.slot_of_seat = np.arange(players, dtype=np.int64)
        self.deck = np.zeros(sum(DECK_NOTE_COUNTS), np.int64)
        self.slot_params = np.zeros((players, N_PARAMS), np.float64)
        self.slot_user = np.zeros(players, np.bool_)
        self.seat_params = np.zeros((players, N_PARAMS), np.float64)
        self.seat_user = np.zeros(players, np.bool_)
        self.targets = np.zeros(players, np.int64)
        self.bullets = np.zeros(players, np.int64)
        self.lying = np.zeros(players, np.bool_)
        self.u = np.zeros((players, 3), np.float64)
        self.info = np.zeros(2, np.float64)
        self.out = np.zeros((players, steps.OUT_COLUMNS), np.int64)
        self.shame_value = 0
        self.shame_units = 0.0
        self.round = 0
        self.over = False
        self.asked = NOBODY
        self.legal: tuple[Any, ...] = ()
        #: per seat this round: 0 nothing chosen yet, 1 aimed, 2 aimed and played a card
        self.chosen = [0] * players
        #: this round's aims by seat (-1 for the dead) once every seat has aimed, else empty
        self.aimed: tuple[int, ...] = ()
        self._public: dict | None = None
        self._args: dict[tuple[str, int, float], tuple[Any, ...]] = {}

    def public(self) -> dict:
        """The fields of every view of this round's decisions that all seats share (built
        once a round: none of them changes before the round resolves)."""
        if self._public is None:
            units, table = UNIT_DOLLARS, self.table.tolist()
            self._public = {
                "players": self.players,
                "round": self.round,
                "alive": tuple(self.alive.tolist()),
                "money": tuple((self.cash * units).tolist()),
                "wounds": tuple(self.wounds.tolist()),
                "shame": tuple(self.shame.tolist()),
                "loot": tuple(table),
                "loot_value": (table[0] + 2 * table[1] + 4 * table[2]) * units,
                "expected_loot": float(self.info[steps.INFO_EXPECTED]) * units,
                "drawn": tuple(self.drawn.tolist()),
                "revealed": tuple(map(tuple, self.revealed.tolist())),
                "aims": tuple(map(tuple, self.aims[: self.round].tolist())),
                "lay": tuple(map(tuple, self.lay[: self.round].tolist())),
                "shame_value": self.shame_value,
            }
        return self._public

    def view(self, seat: int) -> View:
        """Seat ``seat``'s view now: at its own decision the view its strategy is asked with;
        otherwise the same public record with ``u`` 0. Built into the instance's ``__dict__``
        without the frozen dataclass's field-by-field ``__init__``: the engine builds one per
        decision, and a trivial strategy's decision costs less than that ``__init__``."""
        asked_seat, decision, u = self.asked
        view = object.__new__(View)
        fields = view.__dict__
        fields.update(self._public if self._public is not None else self.public())
        fields["seat"] = seat
        fields["hand"] = tuple(self.hands[seat].tolist())
        fields["target"] = self.targets.item(seat) if self.chosen[seat] else -1
        fields["targets"] = self.aimed if decision == LIE else ()
        fields["u"] = u if asked_seat == seat else 0.0
        return view

    def phase_args(self, phase: Any, skip: int = 1) -> tuple[Any, ...]:
        """What ``phase`` (a compiled phase of :mod:`steps`) takes after its first ``skip``
        arguments (the round): this state's fields named as its parameters, in its order
        (made once: the arrays are made with the state and never replaced)."""
        key = (phase.__name__, skip, self.shame_units)
        args = self._args.get(key)
        if args is None:
            args = self._args[key] = tuple([getattr(self, name) for name in _parameters(phase)[skip:]])
        return args

    def lie_phase(self) -> bool:
        """Whether the decision asked is a lying down (every aim of the round is known)."""
        return self.asked[1] == LIE

    def begin(
        self,
        seed: int,
        slots: Sequence[np.ndarray | Seat | None],
        shame_value: int,
        private: Sequence[int] | np.ndarray | None = None,
    ) -> list[int]:
        """Seat the slots and shuffle the deck from ``seed``, as the kernel does; a slot is a
        built-in's kernel row or a Python seat (a :class:`Seat`, or None). ``private``: the
        slots' private-stream seeds, by default the game seed's (:func:`rng.private_seeds`);
        the information checks set them apart from the game seed. The Python seats."""
        for slot, player in enumerate(slots):
            if player is None or isinstance(player, Seat):
                self.slot_user[slot], self.slot_params[slot] = True, 0.0
            else:
                self.slot_user[slot], self.slot_params[slot] = False, player
        self.stream[0] = int(seed) & 0xFFFFFFFFFFFFFFFF
        self.slot_private[:] = private_seeds(int(self.stream[0]), self.players) if private is None else private
        _python_entry(steps.begin_game)(*self.phase_args(steps.begin_game, skip=0))
        self.shame_value, self.shame_units = int(shame_value), shame_value / UNIT_DOLLARS
        self.round, self.over, self.asked, self.legal, self.aimed, self._public = 0, False, NOBODY, (), (), None
        self.chosen = [0] * self.players
        return [seat for seat, user in enumerate(self.seat_user.tolist()) if user]

    def totals(self) -> tuple[int, int, int, int]:
        """After the game, as the kernel reports them: rounds played, and the loot drawn, paid
        out and left on the table (in $5,000 units)."""
        rounds = int((self.aims >= 0).any(axis=1).sum())
        drawn = int(self.drawn[0] + 2 * self.drawn[1] + 4 * self.drawn[2])
        left = int(self.table[0] + 2 * self.table[1] + 4 * self.table[2])
        return rounds, drawn, int(self.cash.sum()), left

    def result(self) -> dict[str, list]:
        """Per player slot after the game: money (dollars), wounds, shame, alive, winner,
        shots, cards used, and the score (money plus shame markers times the shame value for a
        survivor, 0 for the dead)."""
        columns = self.out.T.tolist()
        money = [units * UNIT_DOLLARS for units in columns[steps.OUT_MONEY]]
        alive = [bool(a) for a in columns[steps.OUT_ALIVE]]
        shame = columns[steps.OUT_SHAME]
        return {
            "money": money,
            "wounds": columns[steps.OUT_WOUNDS],
            "shame": shame,
            "alive": alive,
            "winner": [bool(w) for w in columns[steps.OUT_WINNER]],
            "shots": columns[steps.OUT_SHOTS],
            "cards_used": self.out[:, steps.OUT_CARDS :].tolist(),
            "score": [
                money[slot] + shame[slot] * self.shame_value if alive[slot] else 0 for slot in range(self.players)
            ],
        }


def play_steps(game: GameState, users: list[int]) -> Generator[tuple[int, str, float], Any, None]:
    """The rest of the game :meth:`GameState.begin` began, round by round (phases of
    ``seeds/cash_n_guns.md``), stopping at every decision of a living Python seat of ``users``:
    it yields the decision (``game.asked``: seat, decision name, its ``u``) with ``game.legal``
    set and takes the choice (one of ``legal``) by ``send``. In a round: the built-in seats aim and play their
    cards (:func:`steps.open_round`); the Python seats, in seat order, aim then play a card;
    the built-in seats lie down or stand (:func:`steps.built_in_lie_downs`); the Python seats
    do, in seat order, knowing every aim; the round resolves (:func:`steps.close_round`). When
    no Python seat is alive the rest is played compiled (:func:`steps.play_rounds`). At the
    end ``game.out`` holds the results (:func:`steps.finish_game`) and ``game.over`` is set."""
    players = game.players
    # the compiled phases as Python calls them, and their arrays, bound once a game
    open_round, built_in_lie_downs, close_round = map(_python_entry, _PHASES)
    open_args, lie_args, close_args = map(game.phase_args, _PHASES)
    survivors = players
    for round_index in range(ROUNDS):
        alive = game.alive.tolist()
        living_users = [seat for seat in users if alive[seat]]
        if not living_users:
            survivors = _python_entry(steps.play_rounds)(round_index, *game.phase_args(steps.play_rounds))
            break
        open_round(round_index, *open_args)
        game.round, game._public = round_index, None
        living = [seat for seat in range(players) if alive[seat]]
        u, chosen = game.u.tolist(), game.chosen
        for seat in living_users:
            game.asked = asked = (seat, AIM, u[seat][0])
            game.legal = tuple([s for s in living if s != seat])
            game.targets[seat] = yield asked
            chosen[seat] = 1
            hand = game.hands[seat].tolist()
            game.asked = asked = (seat, CARD, u[seat][1])
            game.legal = tuple([kind for kind in (0, 1, 2) if hand[kind] > 0])
            card = yield asked
            game.bullets[seat] = card
            game.hands[seat, card] -= 1
            chosen[seat] = 2
        built_in_lie_downs(round_index, *lie_args)
        targets = game.targets.tolist()
        game.aimed = tuple([targets[seat] if alive[seat] else -1 for seat in range(players)])
        for seat in living_users:
            game.asked = asked = (seat, LIE, u[seat][2])
            game.legal = LIE_CHOICES
            game.lying[seat] = yield asked
        game.asked, game.legal, game.aimed, game._public = NOBODY, (), (), None
        game.chosen = [0] * players
        survivors = close_round(round_index, *close_args)
        if survivors <= 1:
            break
    _python_entry(steps.finish_game)(survivors, *game.phase_args(steps.finish_game))
    game.over = True


def _searcher(slot: np.ndarray | Seat) -> np.ndarray | Seat:
    """A built-in ``search`` row as the Python seat that plays it (:mod:`search`), else ``slot``."""
    if isinstance(slot, Seat) or not is_search_row(slot):
        return slot
    return Seat(SearchPlayer(slot), "search")


def _play(
    game: GameState, seed: int, slots: Sequence[np.ndarray | Seat], shame_value: int, clock: DecisionClock
) -> dict[str, list]:
    """One game on ``game``'s arrays (see :func:`play_game`): :func:`play_steps` with every
    Python seat's decision made by :func:`decide`."""
    slots = [_searcher(slot) for slot in slots]
    users = game.begin(seed, slots, shame_value)
    seat_of: list[Any] = [slots[slot] for slot in game.slot_of_seat.tolist()]
    moves = play_steps(game, users)
    send, view = moves.send, game.view
    try:
        seat, decision, _ = next(moves)
        while True:
            user = seat_of[seat]
            if isinstance(user.strategy, IsolatedStrategy):
                choice = user.strategy.remote_decide(decision, view(seat), game.legal, seat=seat, turn=game.round + 1)
                seat, decision, _ = send(choice)
                continue
            choice = decide(
                user.strategy,
                decision,
                view(seat),
                game.legal,
                spec=user.spec,
                seat=seat,
                turn=game.round + 1,
                # built in: no time limit (its first decision may wait for numba to compile)
                time_limit=math.inf if isinstance(user.strategy, SearchPlayer) else DEFAULT_TIME_LIMIT,
                clock=clock,
            )
            seat, decision, _ = send(choice)
    except StopIteration:
        pass
    return game.result()


def play_game(seed: int, slots: Sequence[np.ndarray | Seat], shame_value: int) -> dict[str, list]:
    """One game from ``seed``; ``slots[s]`` is player slot ``s``'s built-in strategy (a kernel
    row, :meth:`strategies.Strategy.param_row`) or a :class:`Seat` played through
    :func:`~cardsim.sims.core.user_strategy.decide`. The random stream is drawn as the kernel
    draws them (the game's stream shuffles the seats and the loot deck; each slot's private
    stream gives three numbers a round while it lives: aim, card, lying down), whoever plays. Results per player slot:
    :meth:`GameState.result`."""
    with DecisionClock() as clock:
        return _play(GameState(len(slots)), seed, slots, shame_value, clock)


def play_games(
    seeds: Sequence[int] | np.ndarray,
    lineups: Sequence[Sequence[np.ndarray | Seat]],
    shame_value: int,
    *,
    with_totals: bool = False,
) -> list[Any]:
    """:func:`play_game` for each seed, game ``i`` with the slots ``lineups[i]`` (all of one
    table size): the same games, with one state and one decision clock for the batch.
    ``with_totals``: each game as (result, :meth:`GameState.totals`)."""
    if len(seeds) != len(lineups):
        raise ValueError(f"play_games: {len(seeds)} seeds but {len(lineups)} lineups")
    if not len(seeds):
        return []
    game = GameState(len(lineups[0]))
    with DecisionClock() as clock:
        if with_totals:
            return [
                (_play(game, int(seed), slots, shame_value, clock), game.totals())
                for seed, slots in zip(seeds, lineups, strict=True)
            ]
        return [_play(game, int(seed), slots, shame_value, clock) for seed, slots in zip(seeds, lineups, strict=True)]


def play_games_interleaved(
    seeds: Sequence[int] | np.ndarray,
    lineups: Sequence[Sequence[np.ndarray | Seat]],
    shame_value: int,
    *,
    lanes: int = 64,
) -> list[tuple[dict[str, list], tuple[int, int, int, int]]]:
    """:func:`play_games` with ``with_totals``, for lineups whose Python seats run in their own
    processes (:class:`~cardsim.sims.core.isolation.IsolatedStrategy`): up to ``lanes`` games
    are played side by side, each on its own state, and the decisions they wait for are sent to
    each strategy's process together, one message a turn instead of one a decision. Each game
    plays exactly as alone (its own seed and stream); a strategy's process keeps one instance
    per lane, which meets the lane's games one after another, as a single instance meets every
    game in :func:`play_games`."""
    count = len(seeds)
    if count != len(lineups):
        raise ValueError(f"play_games_interleaved: {count} seeds but {len(lineups)} lineups")
    results: list[Any] = [None] * count
    if not count:
        return results
    players = len(lineups[0])
    states = [GameState(players) for _ in range(min(lanes, count))]
    running: dict[int, tuple[int, Generator, list[Any]]] = {}  # lane -> (game, moves, seat_of)
    waiting: dict[int, tuple[int, str]] = {}  # lane -> (seat, decision) it waits for
    upcoming = iter(range(count))

    def advance(lane: int, choice: Any = None, first: bool = False) -> None:
        """Move the lane's game to its next decision of an isolated seat (deciding those of
        in-process seats here), or finish it and start the next game on the lane."""
        while True:
            game_index, moves, seat_of = running[lane]
            try:
                seat, decision, _ = next(moves) if first else moves.send(choice)
            except StopIteration:
                results[game_index] = (states[lane].result(), states[lane].totals())
                del running[lane]
                if not start(lane):
                    return
                first = True
                continue
            first = False
            user = seat_of[seat]
            if isinstance(user.strategy, IsolatedStrategy):
                waiting[lane] = (seat, decision)
                return
            state = states[lane]
            choice = decide(
                user.strategy,
                decision,
                state.view(seat),
                state.legal,
                spec=user.spec,
                seat=seat,
                turn=state.round + 1,
                clock=clock,
            )

    def start(lane: int) -> bool:
        game_index = next(upcoming, None)
        if game_index is None:
            return False
        state, slots = states[lane], lineups[game_index]
        users = state.begin(int(seeds[game_index]), slots, shame_value)
        seat_of = [slots[slot] for slot in state.slot_of_seat.tolist()]
        running[lane] = (game_index, play_steps(state, users), seat_of)
        return True

    with DecisionClock() as clock:
        for lane in range(len(states)):
            if start(lane):
                advance(lane, first=True)
        while waiting:
            asked: dict[int, list[int]] = {}
            hosts: dict[int, IsolatedStrategy] = {}
            for lane, (seat, _) in waiting.items():
                host = running[lane][2][seat].strategy
                asked.setdefault(id(host), []).append(lane)
                hosts[id(host)] = host
            for key, host in hosts.items():
                host.send_batch(
                    [
                        (
                            lane,
                            waiting[lane][1],
                            states[lane].view(waiting[lane][0]),
                            states[lane].legal,
                            waiting[lane][0],
                            states[lane].round + 1,
                        )
                        for lane in asked[key]
                    ]
                )
            answers: list[tuple[int, Any]] = []
            for key, host in hosts.items():
                answers += zip(asked[key], host.receive_batch(), strict=True)
            waiting.clear()
            for lane, choice in answers:
                advance(lane, choice)
    return results
