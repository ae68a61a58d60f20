"""A plain-Python engine: one table, one game at a time, every transition a named method.

It serves four purposes: scenario tests drive :class:`Table` with fixed cards and choices;
:func:`play_reference_game` replays a game with the same random streams as the compiled kernel
(tests require identical results, which checks the kernel's game loop); :func:`plan_shot` and
:func:`plan_lie` are a seat's decisions from a whole :class:`Table`, which the information test
perturbs (hidden cards and deck order) to show they read only the public record; and the
benchmark uses it as the interpreted reference speed. Rule and decision functions are called
through their interpreted originals (``.py_func``); only the small helpers
they call (:func:`strategies.opponent_loaded`, :func:`strategies.schedule_card`) stay compiled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardsim.sims.cashnguns import rules, strategies
from cardsim.sims.cashnguns.rng import PyStream, private_seeds
from cardsim.sims.cashnguns.rules import (
    DECK_NOTE_COUNTS,
    HAND_COUNTS,
    LETHAL_WOUNDS,
    NOTES_PER_ROUND,
    ROUNDS,
)

_split_share = rules.split_share.py_func
_resolve_shots_into = rules.resolve_shots_into.py_func
_final_winners_into = rules.final_winners_into.py_func
_wounds_after = rules.wounds_after.py_func
_shares_loot = rules.shares_loot.py_func
_choose_bullet = strategies.choose_bullet.py_func
_choose_target = strategies.choose_target.py_func
_choose_lie_down = strategies.choose_lie_down.py_func
_opponent_loaded = strategies.opponent_loaded.py_func
_expected_round_pot = rules.expected_round_pot.py_func


@dataclass
class RoundReport:
    """What one round did: wounds taken, who went down, whose shot fired, the split."""

    wounds_taken: list[int]
    down: list[bool]
    fired: list[bool]
    sharers: list[int]
    share_units: int
    notes_paid: tuple[int, int, int]


@dataclass
class Table:
    """The state of one game (money in $5,000 units, notes as counts of 5k/10k/20k).

    Seats are 0..players-1. ``deck`` lists the loot notes in draw order as kinds 0/1/2
    ($5k/$10k/$20k); :meth:`reveal_loot` takes the next five.

    Public record: ``alive``, ``wounds``, ``shame``, ``cash``, ``loot``, ``drawn`` (notes drawn
    per kind), ``expected_pot_units`` (of the current round), ``revealed`` (cards each seat has
    shown, per kind), ``aims`` and ``lay`` (one list per finished round: each seat's target, -1
    if dead, and whether it lay down). Hidden: ``hands`` (each seat's remaining cards) and the
    undrawn part of ``deck``.
    """

    players: int
    deck: list[int]
    shame_units: float = -1.0
    alive: list[bool] = field(init=False)
    wounds: list[int] = field(init=False)
    shame: list[int] = field(init=False)
    cash: list[int] = field(init=False)
    shots: list[int] = field(init=False)
    hands: list[list[int]] = field(init=False)
    loot: list[int] = field(init=False)
    drawn: list[int] = field(init=False)
    revealed: list[list[int]] = field(init=False)
    aims: list[list[int]] = field(init=False)
    lay: list[list[bool]] = field(init=False)
    expected_pot_units: float = 0.0
    rounds_played: int = 0
    drawn_units: int = 0
    paid_units: int = 0
    finished: bool = False

    def __post_init__(self) -> None:
        self.alive = [True] * self.players
        self.wounds = [0] * self.players
        self.shame = [0] * self.players
        self.cash = [0] * self.players
        self.shots = [0] * self.players
        self.hands = [list(HAND_COUNTS) for _ in range(self.players)]
        self.loot = [0, 0, 0]
        self.drawn = [0, 0, 0]
        self.revealed = [[0, 0, 0] for _ in range(self.players)]
        self.aims = []
        self.lay = []

    @property
    def loot_units(self) -> int:
        """Value of the notes on the table, in units."""
        return self.loot[0] + 2 * self.loot[1] + 4 * self.loot[2]

    def reveal_loot(self) -> None:
        """Phase 1: five new notes join the notes left unsplit from earlier rounds."""
        if self.finished:
            raise ValueError("the game is over")
        self.expected_pot_units = _expected_round_pot(self.loot_units, np.array(self.drawn))
        start = self.rounds_played * NOTES_PER_ROUND
        for kind in self.deck[start : start + NOTES_PER_ROUND]:
            self.loot[kind] += 1
            self.drawn[kind] += 1
            self.drawn_units += (1, 2, 4)[kind]

    def play_round(self, bullets: list[int], targets: list[int], lying: list[bool]) -> RoundReport:
        """Phases 2-7 after the loot is revealed, with every living player's choices given.

        Checks the choices (a card still in hand, a living opponent as target), uses the
        cards up, resolves the shots, splits the loot, removes players with three wounds
        and ends the game with one survivor or none, or after round 8.
        """
        for seat in range(self.players):
            if not self.alive[seat]:
                continue
            if self.hands[seat][bullets[seat]] <= 0:
                raise ValueError(f"seat {seat} has no {rules.BULLET_NAMES[bullets[seat]]} left")
            target = targets[seat]
            if target == seat or not 0 <= target < self.players or not self.alive[target]:
                raise ValueError(f"seat {seat} must aim at a living opponent, not {target}")
            self.hands[seat][bullets[seat]] -= 1
        alive = np.array(self.alive)
        taken = np.zeros(self.players, np.int64)
        down, fired, shown = (np.zeros(self.players, np.bool_) for _ in range(3))
        _resolve_shots_into(
            np.array(targets), np.array(bullets), np.array(lying) & alive, alive, taken, down, fired, shown
        )
        sharers = []
        self.aims.append([targets[seat] if self.alive[seat] else -1 for seat in range(self.players)])
        self.lay.append([bool(lying[seat]) and self.alive[seat] for seat in range(self.players)])
        for seat in range(self.players):
            if self.alive[seat]:
                self.shame[seat] += int(lying[seat])
                self.shots[seat] += int(fired[seat])
                self.wounds[seat] = _wounds_after(self.wounds[seat], int(taken[seat]))
                if shown[seat]:
                    self.revealed[seat][bullets[seat]] += 1
                if _shares_loot(True, bool(lying[seat]), bool(down[seat])):
                    sharers.append(seat)
        share, fives, tens, twenties = _split_share(self.loot[0], self.loot[1], self.loot[2], len(sharers))
        for seat in sharers:
            self.cash[seat] += share
        self.paid_units += share * len(sharers)
        self.loot = [self.loot[0] - fives, self.loot[1] - tens, self.loot[2] - twenties]
        for seat in range(self.players):
            if self.wounds[seat] >= LETHAL_WOUNDS:
                self.alive[seat] = False
        self.rounds_played += 1
        if sum(self.alive) <= 1 or self.rounds_played == ROUNDS:
            self.finished = True
        return RoundReport(
            [int(t) for t in taken],
            [bool(d) for d in down],
            [bool(f) for f in fired],
            sharers,
            share,
            (fives, tens, twenties),
        )

    def winners(self) -> list[bool]:
        """Who won: the lone survivor, nobody if none survive, else the final ranking."""
        if not self.finished:
            raise ValueError("the game is not over")
        if sum(self.alive) <= 1:
            return list(self.alive)
        score = np.array([c + self.shame_units * s for c, s in zip(self.cash, self.shame)])
        won = np.zeros(self.players, np.bool_)
        _final_winners_into(np.array(self.alive), score, np.array(self.shame), np.array(self.wounds), won)
        return [bool(w) for w in won]


def _history(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """The aims and lie-downs of every round so far as the kernel's (ROUNDS, players) arrays."""
    aims = np.full((ROUNDS, table.players), -1, np.int64)
    lay = np.zeros((ROUNDS, table.players), np.bool_)
    for index, (aimed, lain) in enumerate(zip(table.aims, table.lay)):
        aims[index] = aimed
        lay[index] = lain
    return aims, lay


def plan_shot(table: Table, seat: int, row: np.ndarray, u_target: float, u_bullet: float) -> tuple[int, int]:
    """Phases 2-3 for ``seat`` after the loot is revealed: (target, bullet card), from the
    public record of ``table`` and the seat's own hand only."""
    alive = np.array(table.alive)
    revealed = np.array(table.revealed, np.int64)
    aims, lay = _history(table)
    target = _choose_target(
        row,
        seat,
        alive,
        np.array(table.cash),
        np.array(table.wounds),
        revealed,
        aims,
        lay,
        table.rounds_played,
        u_target,
    )
    bullet = _choose_bullet(
        row,
        np.array(table.hands[seat]),
        table.loot_units,
        table.expected_pot_units,
        _opponent_loaded(row, revealed, aims, table.rounds_played, target),
        u_bullet,
    )
    return int(target), int(bullet)


def plan_lie(table: Table, seat: int, row: np.ndarray, targets: list[int], u: float) -> bool:
    """Phase 4 for ``seat``: lie down or not, knowing every aim (``targets``) but not the cards
    the others chose (still in ``table.hands`` until the round is played)."""
    aims, _ = _history(table)
    return bool(
        _choose_lie_down(
            row,
            seat,
            np.array(targets),
            np.array(table.alive),
            np.array(table.revealed, np.int64),
            aims,
            table.loot_units,
            table.expected_pot_units,
            sum(table.alive),
            table.wounds[seat],
            table.cash[seat],
            table.rounds_played,
            table.shame_units,
            u,
        )
    )


def _shuffled(values: list[int], stream: PyStream) -> list[int]:
    out = list(values)
    for i in range(len(out) - 1, 0, -1):
        j = int(stream.uniform() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def play_reference_game(
    seed: int, slot_strategies: tuple[strategies.Strategy, ...], shame_units: float
) -> dict[str, list]:
    """One game with the kernel's random streams and draw order; results per player slot. The
    game's stream shuffles the seats and the deck; each slot's private stream
    (:func:`rng.private_seeds`) gives its player's numbers: aim, card, lying down, a round."""
    players = len(slot_strategies)
    stream = PyStream(seed)
    slot_of_seat = _shuffled(list(range(players)), stream)
    deck = _shuffled([kind for kind in range(3) for _ in range(DECK_NOTE_COUNTS[kind])], stream)
    table = Table(players, deck, shame_units)
    rows = [slot_strategies[slot].param_row() for slot in slot_of_seat]
    slot_private = private_seeds(seed, players).tolist()
    private = [PyStream(slot_private[slot]) for slot in slot_of_seat]
    while not table.finished:
        table.reveal_loot()
        living = [seat for seat in range(players) if table.alive[seat]]
        bullets = [0] * players
        targets = [0] * players
        lying = [False] * players
        draws = {seat: [private[seat].uniform() for _ in range(3)] for seat in living}
        for seat in living:
            targets[seat], bullets[seat] = plan_shot(table, seat, rows[seat], draws[seat][0], draws[seat][1])
        for seat in living:
            lying[seat] = plan_lie(table, seat, rows[seat], targets, draws[seat][2])
        table.play_round(bullets, targets, lying)
    won = table.winners()
    result: dict[str, list] = {
        key: [0] * players for key in ("money", "wounds", "shame", "alive", "winner", "shots", "cards_used")
    }
    for seat, slot in enumerate(slot_of_seat):
        result["money"][slot] = table.cash[seat]
        result["wounds"][slot] = table.wounds[seat]
        result["shame"][slot] = table.shame[seat]
        result["alive"][slot] = table.alive[seat]
        result["winner"][slot] = won[seat]
        result["shots"][slot] = table.shots[seat]
        result["cards_used"][slot] = [HAND_COUNTS[c] - table.hands[seat][c] for c in range(3)]
    result["game"] = [table.rounds_played, table.drawn_units, table.paid_units, table.loot_units]
    return result
