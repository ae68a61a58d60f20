"""Cash'n Guns' checks in the game contract (:mod:`cardsim.testing`): strategies read the
public record and their own hand, nothing hidden (digest "Information"), and the batch kernel
plays as the plain-Python table does.

From positions reached in real games (any round), everything a seat cannot see is dealt again
at random: every other seat's remaining hand (drawn from the cards it has not revealed, so the
public count of revealed cards is unchanged) and the order of the undrawn loot notes. Every
strategy, named and random custom ones, must then take exactly the same decisions (target,
card, lie down); the random ones include free card orders and opponent reading (``read``).

That check holds each decision's random number ``u`` fixed while it deals the hidden parts
again, so it cannot see a channel through ``u`` itself. A second check does
(:func:`private_draws_check`): with one player slot's private seed held, games of other game
seeds (other seat orders and loot decks) and other private seeds of the other slots must hand
that slot the very same numbers, so its ``u`` carries nothing about the deck or another
player's draws. Its leaky example is the scheme the engine used before, one stream shared by
the shuffles and every seat's numbers (:func:`shared_stream_draws`), through which a seat
rebuilds the undrawn deck (:func:`read_deck`, the mutant :class:`DeckReader`).
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
from cardsim.sims.cashnguns.strategy import GameState, play_steps
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


# --- the channel through ``u`` -----------------------------------------------------------------

#: A scheme's numbers: (game seed, the slots' private seeds) -> each slot's ``u`` in the order
#: it is handed them (aim, card, lie down, round by round).
Draws = Callable[[int, list[int]], list[list[float]]]

_MASK = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
DECK_SIZE = sum(DECK_NOTE_COUNTS)


class _Bystander:
    """A player that aims at the first opponent, plays its first card and always lies down
    (so nobody is ever wounded and every seat is asked all eight rounds)."""

    def aim(self, view, legal):
        return legal[0]

    def card(self, view, legal):
        return legal[0]

    def lie_down(self, view, legal):
        return True


def engine_draws(game_seed: int, slot_private: list[int]) -> list[list[float]]:
    """The ``u`` each player slot is handed in a whole game played by the engine
    (:func:`strategy.play_steps`), every seat a :class:`_Bystander`, with the slots' private
    seeds ``slot_private`` (the engine's own scheme)."""
    players = len(slot_private)
    game = GameState(players)
    users = game.begin(game_seed, [None] * players, -5000, private=slot_private)
    slot_of_seat = game.slot_of_seat.tolist()
    handed: list[list[float]] = [[] for _ in range(players)]
    player = _Bystander()
    moves = play_steps(game, users)
    try:
        seat, decision, u = next(moves)
        while True:
            handed[slot_of_seat[seat]].append(u)
            seat, decision, u = moves.send(getattr(player, decision)(game.view(seat), game.legal))
    except StopIteration:
        pass
    return handed


def _deal(game_seed: int, players: int) -> tuple[list[int], list[int], PyStream]:
    """The seat order (slot of each seat) and the loot deck the game's stream deals, and the
    stream after the deal."""
    stream = PyStream(game_seed)
    slot_of_seat = list(range(players))
    deck = [kind for kind in range(3) for _ in range(DECK_NOTE_COUNTS[kind])]
    for values in (slot_of_seat, deck):
        for i in range(len(values) - 1, 0, -1):
            j = int(stream.uniform() * (i + 1))
            values[i], values[j] = values[j], values[i]
    return slot_of_seat, deck, stream


def shared_stream_draws(game_seed: int, slot_private: list[int]) -> list[list[float]]:
    """The leaky scheme the engine used before (a model, for the checks): the first round's
    ``u`` of each slot drawn from the game's own stream right after the deal (aim and card of
    every seat in seat order, then every seat's lie down); ``slot_private`` is ignored."""
    players = len(slot_private)
    slot_of_seat, _, stream = _deal(game_seed, players)
    handed: list[list[float]] = [[] for _ in range(players)]
    for seat in range(players):
        handed[slot_of_seat[seat]] += [stream.uniform(), stream.uniform()]
    for seat in range(players):
        handed[slot_of_seat[seat]].append(stream.uniform())
    return handed


def private_draws_check(seed: int, draws: Draws = engine_draws, trials: int = 6, games: int = 4) -> HiddenInfoResult:
    """Numbers handed to a player are its own: for ``trials`` held private seeds of one slot
    (4-6 players), ``games`` games with other game seeds and other private seeds of the other
    slots; counts the numbers compared (the held slot's, over the rounds every game played)
    and those that differ from the first game's."""
    rng = np.random.default_rng(seed)
    compared = changed = 0
    for _ in range(trials):
        players = int(rng.integers(4, 7))
        held = int(rng.integers(players))
        private = [int(x) for x in rng.integers(0, 2**63, players)]
        sequences = []
        for _ in range(games):
            others = [int(x) for x in rng.integers(0, 2**63, players)]
            others[held] = private[held]
            sequences.append(draws(int(rng.integers(2**63)), others)[held])
        length = min(len(seq) for seq in sequences)
        for seq in sequences[1:]:
            compared += length
            changed += sum(a != b for a, b in zip(seq[:length], sequences[0][:length]))
    return HiddenInfoResult(compared, changed)


def _unshift(value: int, shift: int) -> int:
    """The inverse of ``value ^ (value >> shift)`` on 64 bits."""
    out = value
    for _ in range(64 // shift + 1):
        out = value ^ (out >> shift)
    return out


def _mix(state: int) -> int:
    z = ((state ^ (state >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def _unmix(output: int) -> int:
    z = (_unshift(output, 31) * pow(_MIX2, -1, 1 << 64)) & _MASK
    z = (_unshift(z, 27) * pow(_MIX1, -1, 1 << 64)) & _MASK
    return _unshift(z, 30)


def read_deck(players: int, seat: int, u_aim: float, u_card: float) -> list[int] | None:
    """The attack on the shared-stream scheme: from a seat's first-round aim and card numbers
    (two consecutive raw SplitMix64 outputs, 53 of 64 bits shown), rebuild the stream's state,
    step back to the game seed and deal the whole loot deck again. None when no state fits
    (the numbers did not come from the game's stream)."""
    before = (players - 1) + (DECK_SIZE - 1) + 2 * seat  # draws before this seat's aim
    high, following = int(u_aim * 2**53) << 11, int(u_card * 2**53)
    for low in range(1 << 11):
        state = _unmix(high | low)
        if _mix((state + _GOLDEN) & _MASK) >> 11 == following:
            game_seed = (state - (before + 1) * _GOLDEN) & _MASK
            return _deal(game_seed, players)[1]
    return None


def predict_later_notes(players: int, seat: int, u_aim: float, u_card: float) -> list[int]:
    """The notes of the second round on, as :func:`read_deck` reads them; where the reading
    fails, a deck shuffled from the numbers themselves (a guess)."""
    deck = read_deck(players, seat, u_aim, u_card)
    if deck is None:
        deck = _deal(int(u_aim * 2**53), players)[1]
    return deck[NOTES_PER_ROUND:]


class DeckReader:
    """A deliberately leaky mutant: in the first round it reads the loot deck out of its own
    ``u`` (:func:`predict_later_notes`: ``predicted``, the notes from the second round on).
    It aims at the first opponent, plays its first card and always lies down."""

    def __init__(self) -> None:
        self.u_aim = 0.0
        self.predicted: list[int] = []

    def aim(self, view, legal):
        self.u_aim = view.u
        return legal[0]

    def card(self, view, legal):
        if view.round == 0:
            self.predicted = predict_later_notes(view.players, view.seat, self.u_aim, view.u)
        return legal[0]

    def lie_down(self, view, legal):
        return True


def deck_reading_hits(seed: int, draws: Draws = engine_draws, games: int = 100) -> np.ndarray:
    """Per game, the share of the notes after the first round that :func:`predict_later_notes`
    names right for slot 0 (4-6 players) when its numbers come from ``draws``. Chance (a guess
    that knows only the deck's make-up) is :data:`CHANCE_HITS`."""
    rng = np.random.default_rng(seed)
    hits = np.zeros(games)
    for game in range(games):
        players = int(rng.integers(4, 7))
        game_seed = int(rng.integers(2**63))
        u = draws(game_seed, [int(x) for x in rng.integers(0, 2**63, players)])[0]
        slot_of_seat, deck, _ = _deal(game_seed, players)
        predicted = predict_later_notes(players, slot_of_seat.index(0), u[0], u[1])
        hits[game] = np.mean([a == b for a, b in zip(predicted, deck[NOTES_PER_ROUND:])])
    return hits


#: the expected share of notes a guess names right knowing only the deck's make-up (15 / 15 /
#: 10 notes): the chance that two independent shuffles agree at a place
CHANCE_HITS = sum(count * count for count in DECK_NOTE_COUNTS) / DECK_SIZE**2


def hidden_info_check(seed: int, policy: Policy | None = None) -> HiddenInfoResult:
    """The game declaration's hidden-information hook: counts the decisions compared and those
    that changed when what a seat cannot see is dealt again, over the usual positions
    (``policy``: a (shot, lie) pair to check instead of the strategies' own), and the numbers
    a seat is handed compared across games that differ in everything but its private seed
    (:func:`private_draws_check`)."""
    shot, lie = policy or (plan_shot, plan_lie)
    changed, checked = changed_decisions(shot, lie, seed=seed)
    draws = private_draws_check(seed)
    return HiddenInfoResult(checked + draws.compared, changed + draws.changed)


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
