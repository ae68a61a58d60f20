"""Cash'n Guns' checks in the game contract (:mod:`cardsim.testing`): strategies read the
public record and their own hand, nothing hidden (digest "Information"), and the batch kernel
plays as the plain-Python table does.

From positions reached in real games (any round), everything a seat cannot see is dealt again
at random: every other seat's remaining hand (drawn from the cards it has not revealed, so the
public count of revealed cards is unchanged) and the order of the undrawn loot notes. Every
strategy, named and random custom ones, must then take exactly the same decisions (target,
card, lie down); the random ones include free card orders and opponent reading (``read``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.reference import Table, plan_lie, plan_shot, play_reference_game
from cardsim.sims.cashnguns.rng import PyStream
from cardsim.sims.cashnguns.rules import BANG, BANG_BANG_BANG, DECK_NOTE_COUNTS, HAND_COUNTS, NOTES_PER_ROUND
from cardsim.sims.cashnguns.simulator import play_games
from cardsim.sims.cashnguns.space import sample_extended_strategy, sample_strategy
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES
from cardsim.sims.core.game import HiddenInfoResult

#: a policy as the check sees it: (plan_shot, plan_lie) or functions of the same signatures
Policy = tuple[Callable[..., tuple[int, int]], Callable[..., bool]]

POSITIONS = 15


def strategy_rows(rng: np.random.Generator) -> list[np.ndarray]:
    named = [strategy.param_row() for _, strategy in NAMED_STRATEGIES.values()]
    return (
        named
        + [sample_strategy(rng).param_row() for _ in range(15)]
        + [sample_extended_strategy(rng).param_row() for _ in range(15)]
    )


def random_position(rng: np.random.Generator, rows: list[np.ndarray]) -> Table:
    """A table after phase 1 of a random round, reached by real play of random strategies."""
    players = int(rng.integers(4, 7))
    deck = [kind for kind in range(3) for _ in range(DECK_NOTE_COUNTS[kind])]
    table = Table(players, [int(k) for k in rng.permutation(deck)], shame_units=-1.0)
    seat_rows = [rows[int(rng.integers(len(rows)))] for _ in range(players)]
    stream = PyStream(int(rng.integers(2**62)))
    for _ in range(int(rng.integers(0, 8))):
        table.reveal_loot()
        targets, bullets, lying = [0] * players, [0] * players, [False] * players
        for seat in range(players):
            if table.alive[seat]:
                targets[seat], bullets[seat] = plan_shot(
                    table, seat, seat_rows[seat], stream.uniform(), stream.uniform()
                )
        for seat in range(players):
            if table.alive[seat]:
                lying[seat] = plan_lie(table, seat, seat_rows[seat], targets, stream.uniform())
        table.play_round(bullets, targets, lying)
        if table.finished:
            break
    if table.finished:
        return random_position(rng, rows)
    table.reveal_loot()
    return table


def redeal_hidden(table: Table, me: int, rng: np.random.Generator) -> Table:
    """The same public record with other seats' hands and the undrawn notes dealt again."""
    other = copy.deepcopy(table)
    for seat in range(table.players):
        if seat == me:
            continue
        unseen = [card for card in range(3) for _ in range(HAND_COUNTS[card] - table.revealed[seat][card])]
        hand = rng.permutation(unseen)[: sum(table.hands[seat])]
        other.hands[seat] = [int((hand == card).sum()) for card in range(3)]
    drawn = table.rounds_played * NOTES_PER_ROUND + NOTES_PER_ROUND
    other.deck = table.deck[:drawn] + [int(k) for k in rng.permutation(table.deck[drawn:])]
    return other


def decisions(table: Table, seat: int, row: np.ndarray, shot, lie, u: tuple[float, float, float]):
    targets = [plan_shot(table, s, row, u[0], u[1])[0] if table.alive[s] else -1 for s in range(table.players)]
    target, bullet = shot(table, seat, row, u[0], u[1])
    return target, bullet, lie(table, seat, row, targets, u[2])


def changed_decisions(shot, lie, seed: int = 7) -> tuple[int, int]:
    """(decisions that changed when hidden state was redealt, decisions checked)."""
    rng = np.random.default_rng(seed)
    rows = strategy_rows(rng)
    changed = checked = 0
    for _ in range(POSITIONS):
        table = random_position(rng, rows)
        for seat in range(table.players):
            if not table.alive[seat]:
                continue
            for row in rows:
                u = tuple(rng.random(3))
                before = decisions(table, seat, row, shot, lie, u)
                after = decisions(redeal_hidden(table, seat, rng), seat, row, shot, lie, u)
                changed += before != after
                checked += 1
    return changed, checked


def leaky_shot(table: Table, seat: int, row: np.ndarray, u_target: float, u_bullet: float):
    """Aims at the opponent holding the most loaded cards (reads hidden hands)."""
    target, bullet = plan_shot(table, seat, row, u_target, u_bullet)
    loaded = [
        table.hands[s][BANG] + table.hands[s][BANG_BANG_BANG] if table.alive[s] and s != seat else -1
        for s in range(table.players)
    ]
    return int(np.argmax(loaded)), bullet


def leaky_lie(table: Table, seat: int, row: np.ndarray, targets: list[int], u: float) -> bool:
    """Lies down exactly when an aimer still holds a loaded card (reads hidden hands)."""
    return any(
        table.alive[s] and targets[s] == seat and table.hands[s][BANG] + table.hands[s][BANG_BANG_BANG]
        for s in range(table.players)
    )


def hidden_info_check(seed: int, policy: Policy | None = None) -> HiddenInfoResult:
    """The game declaration's hidden-information hook: counts the decisions compared and those
    that changed when what a seat cannot see is dealt again, over the usual positions
    (``policy``: a (shot, lie) pair to check instead of the strategies' own)."""
    shot, lie = policy or (plan_shot, plan_lie)
    changed, checked = changed_decisions(shot, lie, seed=seed)
    return HiddenInfoResult(checked, changed)


#: the declared leaky policy the check must catch: it aims at the opponent holding the most
#: loaded cards and lies down when an aimer holds one
LEAKY_POLICY: Policy = (leaky_shot, leaky_lie)


def reference_check(seed: int) -> int:
    """The game declaration's reference hook (``reference_check``, run by the generic contract
    test): the batch kernel against the plain-Python Table engine on a few games of a small
    table; returns how many games it compared."""
    config = CashNGunsConfig(players=5, strategies=tuple(NAMED_STRATEGIES)[:5])
    seeds = np.random.default_rng(seed).integers(0, 2**63, 5).astype(np.uint64)
    raw = play_games(config, seeds)
    for game, deal in enumerate(seeds):
        expected = play_reference_game(int(deal), config.slot_strategies(), config.shame_value / 5000)
        assert raw[0][game].tolist() == expected["money"], int(deal)
        assert raw[4][game].tolist() == expected["winner"], int(deal)
    return len(seeds)
