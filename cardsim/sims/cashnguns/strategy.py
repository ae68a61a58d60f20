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

The engine (:func:`play_games`) plays the seats driven by such objects through
:func:`cardsim.sims.core.user_strategy.decide` and every other seat by a built-in strategy,
calling the compiled rule and decision functions of :mod:`rules` and :mod:`strategies`; it
draws the game's random stream exactly as the kernel does, so a game whose seats are all
built-in plays as in :func:`kernel.play_batch` (tested), and a user's seat and a built-in in
the same seat meet the same deals and draws (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardsim.sims.cashnguns.rng import PyStream
from cardsim.sims.cashnguns.rules import (
    DECK_NOTE_COUNTS,
    HAND_COUNTS,
    LETHAL_WOUNDS,
    NOTES_PER_ROUND,
    ROUNDS,
    UNIT_DOLLARS,
    expected_round_pot,
    final_winners,
    resolve_shots,
    shares_loot,
    split_share,
    wounds_after,
)
from cardsim.sims.cashnguns.strategies import choose_bullet, choose_lie_down, choose_target, opponent_loaded
from cardsim.sims.core.user_strategy import decide

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


def _shuffle(values: list[int], stream: PyStream) -> list[int]:
    """The kernel's Fisher-Yates shuffle with the game's stream."""
    out = list(values)
    for i in range(len(out) - 1, 0, -1):
        j = int(stream.uniform() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


class _Game:
    """The state of one game as the kernel keeps it (money in $5,000 units)."""

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
        return View(**shared, seat=seat, hand=tuple(self.hands[seat].tolist()), target=int(target),
                    targets=tuple(targets), u=float(u))


def play_game(seed: int, slots: Sequence[np.ndarray | Seat], shame_value: int) -> dict[str, list]:
    """One game from ``seed``; ``slots[s]`` is player slot ``s``'s built-in strategy (a kernel
    row, :meth:`strategies.Strategy.param_row`) or a :class:`Seat` played through
    :func:`~cardsim.sims.core.user_strategy.decide`. The random stream is drawn as the kernel
    draws it (seats shuffled, the loot deck shuffled, then per round two numbers per living
    seat for aim and card and one for lying down), whoever plays. Results per player slot:
    money (dollars), wounds, shame, alive, winner, shots, cards used, and the score (money plus
    shame markers times ``shame_value`` for a survivor, 0 for the dead)."""
    players = len(slots)
    shame_units = shame_value / UNIT_DOLLARS
    stream = PyStream(seed)
    slot_of_seat = _shuffle(list(range(players)), stream)
    deck = _shuffle([kind for kind in range(3) for _ in range(DECK_NOTE_COUNTS[kind])], stream)
    seat_of = [slots[slot] for slot in slot_of_seat]
    users = any(isinstance(player, Seat) for player in seat_of)
    game = _Game(players)
    targets = np.zeros(players, np.int64)
    bullets = np.zeros(players, np.int64)
    lying = np.zeros(players, np.bool_)
    survivors = players
    for round_index in range(ROUNDS):
        expected = expected_round_pot(int(game.table[0] + 2 * game.table[1] + 4 * game.table[2]), game.drawn)
        for kind in deck[round_index * NOTES_PER_ROUND:(round_index + 1) * NOTES_PER_ROUND]:
            game.table[kind] += 1
            game.drawn[kind] += 1
        pot = int(game.table[0] + 2 * game.table[1] + 4 * game.table[2])
        living = [seat for seat in range(players) if game.alive[seat]]
        public = game.public(round_index, expected, shame_value) if users else None
        for seat in living:
            u_target, u_bullet = stream.uniform(), stream.uniform()
            player = seat_of[seat]
            if isinstance(player, Seat):
                legal = tuple(s for s in living if s != seat)
                target = decide(player.strategy, "aim",
                                game.view(seat, round_index, expected, shame_value, u_target, public=public),
                                legal, spec=player.spec, seat=seat, turn=round_index + 1)
                hand = tuple(kind for kind in range(3) if game.hands[seat, kind] > 0)
                card = decide(player.strategy, "card",
                              game.view(seat, round_index, expected, shame_value, u_bullet, target=target,
                                        public=public),
                              hand, spec=player.spec, seat=seat, turn=round_index + 1)
            else:
                target = choose_target(player, seat, game.alive, game.cash, game.wounds, game.revealed, game.aims,
                                       game.lay, round_index, u_target)
                card = choose_bullet(player, game.hands[seat], pot, expected,
                                     opponent_loaded(player, game.revealed, game.aims, round_index, target), u_bullet)
            targets[seat] = target
            bullets[seat] = card
            game.hands[seat, card] -= 1
        aimed = [int(targets[seat]) if game.alive[seat] else -1 for seat in range(players)]
        for seat in range(players):
            lying[seat] = False
        for seat in living:
            u = stream.uniform()
            player = seat_of[seat]
            if isinstance(player, Seat):
                lying[seat] = decide(player.strategy, "lie_down",
                                     game.view(seat, round_index, expected, shame_value, u,
                                               target=int(targets[seat]), targets=aimed, public=public),
                                     LIE_CHOICES, spec=player.spec, seat=seat, turn=round_index + 1)
            else:
                lying[seat] = choose_lie_down(player, seat, targets, game.alive, game.revealed, game.aims, pot,
                                              expected, len(living), game.wounds[seat], game.cash[seat],
                                              round_index, shame_units, u)
        taken, down, fired, shown = resolve_shots(targets, bullets, lying, game.alive)
        sharers = 0
        for seat in living:
            game.shame[seat] += lying[seat]
            game.shots[seat] += fired[seat]
            game.wounds[seat] = wounds_after(game.wounds[seat], taken[seat])
            game.aims[round_index, seat] = targets[seat]
            game.lay[round_index, seat] = lying[seat]
            if shown[seat]:
                game.revealed[seat, bullets[seat]] += 1
            sharers += shares_loot(True, lying[seat], down[seat])
        share, fives, tens, twenties = split_share(game.table[0], game.table[1], game.table[2], sharers)
        for seat in living:
            if shares_loot(True, lying[seat], down[seat]):
                game.cash[seat] += share
        game.table -= np.array([fives, tens, twenties], np.int64)
        survivors = 0
        for seat in range(players):
            if game.wounds[seat] >= LETHAL_WOUNDS:
                game.alive[seat] = False
            survivors += game.alive[seat]
        if survivors <= 1:
            break
    score_units = game.cash + shame_units * game.shame
    if survivors > 1:
        winners = final_winners(game.alive, score_units.astype(np.float64), game.shame, game.wounds)
    else:
        winners = game.alive.copy()
    result: dict[str, list] = {key: [0] * players for key in
                               ("money", "wounds", "shame", "alive", "winner", "shots", "cards_used", "score")}
    for seat, slot in enumerate(slot_of_seat):
        result["money"][slot] = int(game.cash[seat]) * UNIT_DOLLARS
        result["wounds"][slot] = int(game.wounds[seat])
        result["shame"][slot] = int(game.shame[seat])
        result["alive"][slot] = bool(game.alive[seat])
        result["winner"][slot] = bool(winners[seat])
        result["shots"][slot] = int(game.shots[seat])
        result["cards_used"][slot] = [HAND_COUNTS[c] - int(game.hands[seat, c]) for c in range(3)]
        result["score"][slot] = (int(game.cash[seat]) * UNIT_DOLLARS + int(game.shame[seat]) * shame_value
                                 if game.alive[seat] else 0)
    return result
