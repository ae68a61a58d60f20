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
down in every finished round, and ``u``, a uniform random number in [0, 1) drawn from the
game's stream for this decision (so a strategy that randomizes replays from the seed). It never
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
round; it draws the game's random stream exactly as the kernel does, so a game whose seats are
all built-in plays as in :func:`kernel.play_batch` (tested), and a user's seat and a built-in
in the same seat meet the same deals and draws (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardsim.sims.cashnguns import steps
from cardsim.sims.cashnguns.rules import DECK_NOTE_COUNTS, HAND_COUNTS, ROUNDS, UNIT_DOLLARS
from cardsim.sims.cashnguns.strategies import N_PARAMS
from cardsim.sims.core.user_strategy import DecisionClock, decide

#: The decision methods a Cash'n Guns strategy defines, in the order a round asks them.
DECISIONS = ("aim", "card", "lie_down")
#: The legal answers of ``lie_down``.
LIE_CHOICES = (False, True)


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
        u: a uniform random number in [0, 1) from the game's stream for this decision.
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


def _new_view(fields: dict) -> View:
    """A :class:`View` of ``fields`` (every field, by name) without the frozen dataclass's
    field-by-field ``__init__``: the engine builds one per decision from a round's shared
    fields, and a trivial strategy's decision costs less than that ``__init__``."""
    view = object.__new__(View)
    view.__dict__.update(fields)
    return view


class _Game:
    """The state of one game as the kernel keeps it (money in $5,000 units), in the arrays
    the compiled phases of :mod:`steps` read and write."""

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
        self.slot_of_seat = np.arange(players, dtype=np.int64)
        self.deck = np.zeros(sum(DECK_NOTE_COUNTS), np.int64)
        self.seat_params = np.zeros((players, N_PARAMS), np.float64)
        self.seat_user = np.zeros(players, np.bool_)
        self.targets = np.zeros(players, np.int64)
        self.bullets = np.zeros(players, np.int64)
        self.lying = np.zeros(players, np.bool_)
        self.u = np.zeros((players, 3), np.float64)
        self.info = np.zeros(2, np.float64)
        self.out = np.zeros((players, steps.OUT_COLUMNS), np.int64)
        self.shame_units = 0.0

    def public(self, round_index: int, expected: float, shame_dollars: int) -> dict:
        """The fields of every view of this round's decisions that all seats share."""
        units = UNIT_DOLLARS
        table = self.table.tolist()
        return {
            "players": self.players, "round": round_index, "alive": tuple(self.alive.tolist()),
            "money": tuple((self.cash * units).tolist()), "wounds": tuple(self.wounds.tolist()),
            "shame": tuple(self.shame.tolist()), "loot": tuple(table),
            "loot_value": (table[0] + 2 * table[1] + 4 * table[2]) * units,
            "expected_loot": float(expected) * units, "drawn": tuple(self.drawn.tolist()),
            "revealed": tuple(map(tuple, self.revealed.tolist())),
            "aims": tuple(map(tuple, self.aims[:round_index].tolist())),
            "lay": tuple(map(tuple, self.lay[:round_index].tolist())), "shame_value": int(shame_dollars),
        }

    def view(self, seat: int, round_index: int, expected: float, shame_dollars: int, u: float,
             target: int = -1, targets: Sequence[int] = (), public: dict | None = None) -> View:
        """Seat ``seat``'s view (``public``: this round's shared fields, if already built)."""
        shared = public if public is not None else self.public(round_index, expected, shame_dollars)
        return _new_view({**shared, "seat": seat, "hand": tuple(self.hands[seat].tolist()), "target": int(target),
                          "targets": tuple(targets), "u": float(u)})

    def begin(self, seed: int, slots: Sequence[np.ndarray | Seat]) -> None:
        """Seat the slots and shuffle the deck from ``seed``, as the kernel does."""
        slot_params = np.zeros((self.players, N_PARAMS), np.float64)
        slot_user = np.zeros(self.players, np.bool_)
        for slot, player in enumerate(slots):
            if isinstance(player, Seat):
                slot_user[slot] = True
            else:
                slot_params[slot] = player
        self.stream[0] = int(seed) & 0xFFFFFFFFFFFFFFFF
        steps.begin_game(slot_params, slot_user, self.stream, self.slot_of_seat, self.seat_params, self.seat_user,
                         self.deck, self.alive, self.wounds, self.shame, self.cash, self.shots, self.revealed,
                         self.aims, self.lay, self.hands, self.table, self.drawn)


def _user_round(game: _Game, round_index: int, seat_of: list, users: list[int], shame_value: int,
                clock: DecisionClock) -> None:
    """Phases 2-4 of the living user seats ``users`` (the built-in seats' aims and cards are
    made; their lie-downs are made between this round's two questions to the users)."""
    expected = game.info[steps.INFO_EXPECTED]
    public = game.public(round_index, expected, shame_value)
    living = [seat for seat, alive in enumerate(game.alive.tolist()) if alive]
    u = game.u.tolist()
    turn = round_index + 1
    for seat in users:
        player = seat_of[seat]
        hand = game.hands[seat].tolist()
        legal = tuple(s for s in living if s != seat)
        fields = {**public, "seat": seat, "hand": tuple(hand), "target": -1, "targets": (), "u": u[seat][0]}
        target = decide(player.strategy, "aim", _new_view(fields), legal, spec=player.spec, seat=seat, turn=turn,
                        clock=clock)
        fields["target"], fields["u"] = target, u[seat][1]
        card = decide(player.strategy, "card", _new_view(fields), tuple(kind for kind in range(3) if hand[kind] > 0),
                      spec=player.spec, seat=seat, turn=turn, clock=clock)
        game.targets[seat] = target
        game.bullets[seat] = card
        game.hands[seat, card] -= 1
    steps.built_in_lie_downs(round_index, game.alive, game.cash, game.wounds, game.revealed, game.aims,
                             game.seat_params, game.seat_user, game.u, game.targets, game.lying, game.info,
                             game.shame_units)
    targets = game.targets.tolist()
    aimed = tuple(targets[seat] if seat in living else -1 for seat in range(game.players))
    for seat in users:
        player = seat_of[seat]
        fields = {**public, "seat": seat, "hand": tuple(game.hands[seat].tolist()), "target": targets[seat],
                  "targets": aimed, "u": u[seat][2]}
        game.lying[seat] = decide(player.strategy, "lie_down", _new_view(fields), LIE_CHOICES, spec=player.spec,
                                  seat=seat, turn=turn, clock=clock)


def _play(game: _Game, seed: int, slots: Sequence[np.ndarray | Seat], shame_value: int,
          clock: DecisionClock) -> dict[str, list]:
    """One game on ``game``'s arrays (see :func:`play_game`)."""
    players = game.players
    game.shame_units = shame_units = shame_value / UNIT_DOLLARS
    game.begin(seed, slots)
    slot_of_seat = game.slot_of_seat.tolist()
    seat_of = [slots[slot] for slot in slot_of_seat]
    user_seats = [seat for seat in range(players) if isinstance(seat_of[seat], Seat)]
    survivors = players
    for round_index in range(ROUNDS):
        users = [seat for seat in user_seats if game.alive[seat]]
        if not users:
            survivors = steps.play_rounds(round_index, game.deck, game.table, game.drawn, game.alive, game.cash,
                                          game.wounds, game.shame, game.shots, game.revealed, game.aims, game.lay,
                                          game.hands, game.seat_params, game.seat_user, game.stream, game.u,
                                          game.targets, game.bullets, game.lying, game.info, shame_units)
            break
        steps.open_round(round_index, game.deck, game.table, game.drawn, game.alive, game.cash, game.wounds,
                         game.revealed, game.aims, game.lay, game.hands, game.seat_params, game.seat_user,
                         game.stream, game.u, game.targets, game.bullets, game.info)
        _user_round(game, round_index, seat_of, users, shame_value, clock)
        survivors = steps.close_round(round_index, game.targets, game.bullets, game.lying, game.alive, game.wounds,
                                      game.shame, game.cash, game.shots, game.revealed, game.aims, game.lay,
                                      game.table)
        if survivors <= 1:
            break
    steps.finish_game(survivors, game.alive, game.cash, game.wounds, game.shame, game.shots, game.hands,
                      game.slot_of_seat, shame_units, game.out)
    columns = game.out.T.tolist()
    money = [units * UNIT_DOLLARS for units in columns[steps.OUT_MONEY]]
    alive = [bool(a) for a in columns[steps.OUT_ALIVE]]
    shame = columns[steps.OUT_SHAME]
    return {
        "money": money, "wounds": columns[steps.OUT_WOUNDS], "shame": shame, "alive": alive,
        "winner": [bool(w) for w in columns[steps.OUT_WINNER]], "shots": columns[steps.OUT_SHOTS],
        "cards_used": game.out[:, steps.OUT_CARDS:].tolist(),
        "score": [money[slot] + shame[slot] * shame_value if alive[slot] else 0 for slot in range(players)],
    }


def play_game(seed: int, slots: Sequence[np.ndarray | Seat], shame_value: int) -> dict[str, list]:
    """One game from ``seed``; ``slots[s]`` is player slot ``s``'s built-in strategy (a kernel
    row, :meth:`strategies.Strategy.param_row`) or a :class:`Seat` played through
    :func:`~cardsim.sims.core.user_strategy.decide`. The random stream is drawn as the kernel
    draws it (seats shuffled, the loot deck shuffled, then per round two numbers per living
    seat for aim and card and one for lying down), whoever plays. Results per player slot:
    money (dollars), wounds, shame, alive, winner, shots, cards used, and the score (money plus
    shame markers times ``shame_value`` for a survivor, 0 for the dead)."""
    with DecisionClock() as clock:
        return _play(_Game(len(slots)), seed, slots, shame_value, clock)


def play_games(seeds: Sequence[int] | np.ndarray, lineups: Sequence[Sequence[np.ndarray | Seat]],
               shame_value: int) -> list[dict[str, list]]:
    """:func:`play_game` for each seed, game ``i`` with the slots ``lineups[i]`` (all of one
    table size): the same games, with one state and one decision clock for the batch."""
    if len(seeds) != len(lineups):
        raise ValueError(f"play_games: {len(seeds)} seeds but {len(lineups)} lineups")
    if not len(seeds):
        return []
    game = _Game(len(lineups[0]))
    with DecisionClock() as clock:
        return [_play(game, int(seed), slots, shame_value, clock) for seed, slots in zip(seeds, lineups, strict=True)]
