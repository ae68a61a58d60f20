"""Batched, compiled environments: many games stepped by one call, for throughput.

Two games: The Game (:class:`TheGameVectorEnv`) and The Gang's basic heist
(:class:`GangVectorEnv`). Both are cooperative, so a game has one decision-maker at a time and
one observation per game, that seat's own information; both reset a finished game at once.
The speed of each is in ``cardsim bench envs``.

The Game
--------

``TheGameVectorEnv(num_envs, players=3)`` holds ``num_envs`` games of The Game and steps them
all with one compiled call (no Python per game or per step), in the manner of pgx or a
gymnasium vector environment. The rules are the batch kernel's and the PettingZoo
environment's (:class:`cardsim.sims.thegame.strategy.Table`; ``seeds/the_game.md``): the same
deal for the same deal seed, the same legal plays (a turn only starts when its minimum can be
played, and never gets stuck halfway), the same refills; seat 0 starts and nobody talks. The
Game is cooperative, so each game has one decision-maker at a time (the seat to move) and one
observation per game: that seat's.

Each call returns, per game, the observation of the seat to move, its ``action_mask`` and, for
``step``, the reward and whether the game ended. A game that ends is dealt again at once
(auto-reset): the observation returned is then the new game's first, and ``info["cards_left"]``
holds the finished game's cards left (-1 for a game that goes on). Deal seeds come from the
``seed`` given to :meth:`TheGameVectorEnv.reset`: the same seed, the same games.

Actions (``N_ACTIONS`` = 33, as ``cardsim.envs.thegame_v0``): 0 ends the turn (legal once
the minimum is played), ``1 + 4 * slot + pile`` plays the mover's card in hand slot ``slot`` on
``pile`` (0, 1 ascend from 1; 2, 3 descend from 100). The reward is 1 for each card played (a
game's return is the cards played; 98 is a win).

Observation (``OBS_SIZE`` = 208 floats in [0, 1], the seat to move's information only):

========  =====================================================================
0-97      1 if card ``2 + i`` is in the mover's hand
98-195    1 if card ``2 + i`` is already on a pile
196-199   each pile's top / 100
200       cards in the draw pile / 98
201       cards this turn must still play / 2 (at most 1)
202       cards played this turn / 8
203-207   hand sizes / 8 of the seats after the mover, in turn order (mover first)
========  =====================================================================
"""

from __future__ import annotations

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.rounds import showdown_in_order
from cardsim.sims.thegame.config import TheGameConfig
from cardsim.sims.thegame.rules import (
    DECK_SIZE,
    HIGHEST_CARD,
    LOWEST_CARD,
    MAX_HAND,
    MAX_PLAYERS,
    N_PILES,
)
from cardsim.sims.thegame.state import find_slot, new_work, refill, setup_game
from cardsim.sims.thegame.turn_search import completable_plays, play_and_list

N_ACTIONS = 1 + MAX_HAND * N_PILES
OBS_HAND = 0
OBS_PLAYED = OBS_HAND + DECK_SIZE
OBS_TOPS = OBS_PLAYED + DECK_SIZE
OBS_DRAW = OBS_TOPS + N_PILES
OBS_TO_PLAY = OBS_DRAW + 1
OBS_PLAYED_NOW = OBS_TO_PLAY + 1
OBS_COUNTS = OBS_PLAYED_NOW + 1
OBS_SIZE = OBS_COUNTS + MAX_PLAYERS

# per-game integer state, one row per game: its columns
G_DRAW, G_MOVER, G_REQUIRED, G_PLAYED, G_OVER, G_CARDS_PLAYED, G_SEED = range(7)
N_GAME_COLUMNS = 7


@kernel(inline="always")
def _splitmix(state: np.ndarray) -> np.int64:
    """The next deal seed of the environment's stream (splitmix64, kept positive)."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(27))
    return np.int64(z >> np.uint64(1))


@kernel
def _fill_mask(
    b: int,
    n: int,
    with_end: bool,
    hands: np.ndarray,
    counts: np.ndarray,
    mover: int,
    out: np.ndarray,
    mask: np.ndarray,
) -> None:
    """The mover's legal actions from the ``n`` plays (``card * 4 + pile``) listed in ``out``."""
    mask[b, :] = 0
    if with_end:
        mask[b, 0] = 1
    for k in range(n):
        card = out[k] >> 2
        pile = out[k] & 3
        slot = find_slot(hands[b], counts[b], mover, card)
        mask[b, 1 + N_PILES * slot + pile] = 1


@kernel
def _begin_turn(
    b: int,
    seat: int,
    players: int,
    min_cards: int,
    trick_ok: bool,
    hands: np.ndarray,
    counts: np.ndarray,
    piles: np.ndarray,
    below: np.ndarray,
    game: np.ndarray,
    mask: np.ndarray,
    params: np.ndarray,
    W: np.ndarray,
    F: np.ndarray,
    C: np.ndarray,
    out: np.ndarray,
) -> None:
    """Start the turn of the first seat from ``seat`` holding cards (the game is won when none
    does, and lost when the mover cannot play its minimum)."""
    found = False
    for _ in range(players):
        if counts[b, seat] > 0:
            found = True
            break
        seat = (seat + 1) % players
    if not found:  # every card is down: won
        game[b, G_OVER] = 1
        mask[b, :] = 0
        return
    game[b, G_MOVER] = seat
    game[b, G_REQUIRED] = min_cards if game[b, G_DRAW] < DECK_SIZE else 1
    game[b, G_PLAYED] = 0
    n = completable_plays(
        hands[b, seat], counts[b, seat], piles[b], below[b], game[b, G_REQUIRED], trick_ok, params, W, F, C, out
    )
    if n == 0:
        game[b, G_OVER] = 1
        mask[b, :] = 0
        return
    _fill_mask(b, n, False, hands, counts, seat, out, mask)


@kernel
def _deal(
    b: int,
    players: int,
    hand_size: int,
    min_cards: int,
    trick_ok: bool,
    seeds: np.ndarray,
    deck: np.ndarray,
    hands: np.ndarray,
    counts: np.ndarray,
    piles: np.ndarray,
    below: np.ndarray,
    rng: np.ndarray,
    game: np.ndarray,
    mask: np.ndarray,
    params: np.ndarray,
    W: np.ndarray,
    F: np.ndarray,
    C: np.ndarray,
    out: np.ndarray,
) -> None:
    """Deal game ``b`` again from the next seed of the stream; seat 0 starts."""
    deal_seed = _splitmix(seeds)
    game[b, G_SEED] = deal_seed
    game[b, G_DRAW] = setup_game(
        deal_seed, players, hand_size, deck[b], hands[b], counts[b], piles[b], below[b], rng[b]
    )
    game[b, G_OVER] = 0
    game[b, G_CARDS_PLAYED] = 0
    _begin_turn(b, 0, players, min_cards, trick_ok, hands, counts, piles, below, game, mask, params, W, F, C, out)


@kernel
def _encode(
    b: int,
    players: int,
    hands: np.ndarray,
    counts: np.ndarray,
    piles: np.ndarray,
    game: np.ndarray,
    obs: np.ndarray,
) -> None:
    """The observation of game ``b``'s seat to move (see the module docstring)."""
    row = obs[b]
    row[:] = 0.0
    mover = game[b, G_MOVER]
    for s in range(counts[b, mover]):
        row[OBS_HAND + hands[b, mover, s] - LOWEST_CARD] = 1.0
    for p in range(N_PILES):
        row[OBS_TOPS + p] = piles[b, p] / 100.0
    row[OBS_DRAW] = (DECK_SIZE - game[b, G_DRAW]) / DECK_SIZE
    row[OBS_TO_PLAY] = min(max(game[b, G_REQUIRED] - game[b, G_PLAYED], 0), 2) / 2.0
    row[OBS_PLAYED_NOW] = game[b, G_PLAYED] / MAX_HAND
    for k in range(players):
        row[OBS_COUNTS + k] = counts[b, (mover + k) % players] / MAX_HAND


@kernel
def _step_all(
    actions: np.ndarray,
    players: int,
    hand_size: int,
    min_cards: int,
    trick_ok: bool,
    seeds: np.ndarray,
    deck: np.ndarray,
    hands: np.ndarray,
    counts: np.ndarray,
    piles: np.ndarray,
    below: np.ndarray,
    rng: np.ndarray,
    game: np.ndarray,
    played_cards: np.ndarray,
    mask: np.ndarray,
    obs: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    cards_left: np.ndarray,
    params: np.ndarray,
    W: np.ndarray,
    F: np.ndarray,
    C: np.ndarray,
    out: np.ndarray,
) -> int:
    """One action per game; returns -1, or the first game whose action was not legal (nothing
    is stepped then)."""
    for b in range(actions.shape[0]):
        a = actions[b]
        if a < 0 or a >= N_ACTIONS or mask[b, a] == 0:
            return b
    for b in range(actions.shape[0]):
        a = actions[b]
        mover = game[b, G_MOVER]
        rewards[b] = 0.0
        done[b] = False
        cards_left[b] = -1
        turn_over = a == 0
        if not turn_over:
            slot = (a - 1) >> 2
            pile = (a - 1) & 3
            card = hands[b, mover, slot]
            game[b, G_PLAYED] += 1
            game[b, G_CARDS_PLAYED] += 1
            played_cards[b, card - LOWEST_CARD] = 1
            rewards[b] = 1.0
            to_play = game[b, G_REQUIRED] - game[b, G_PLAYED]
            n = play_and_list(
                hands[b],
                counts[b],
                mover,
                card,
                pile,
                piles[b],
                below[b],
                max(to_play, 0),
                trick_ok,
                params,
                W,
                F,
                C,
                out,
            )
            if n > 0:
                _fill_mask(b, n, to_play <= 0, hands, counts, mover, out, mask)
            else:
                turn_over = True
        if turn_over:
            game[b, G_DRAW] = refill(hands[b], counts[b], mover, hand_size, deck[b], game[b, G_DRAW])
            _begin_turn(
                b,
                (mover + 1) % players,
                players,
                min_cards,
                trick_ok,
                hands,
                counts,
                piles,
                below,
                game,
                mask,
                params,
                W,
                F,
                C,
                out,
            )
        if game[b, G_OVER] == 1:
            done[b] = True
            cards_left[b] = DECK_SIZE - game[b, G_CARDS_PLAYED]
            played_cards[b, :] = 0
            _deal(
                b,
                players,
                hand_size,
                min_cards,
                trick_ok,
                seeds,
                deck,
                hands,
                counts,
                piles,
                below,
                rng,
                game,
                mask,
                params,
                W,
                F,
                C,
                out,
            )
        _encode(b, players, hands, counts, piles, game, obs)
        obs[b, OBS_PLAYED : OBS_PLAYED + DECK_SIZE] = played_cards[b]
    return -1


@kernel
def _reset_all(
    players: int,
    hand_size: int,
    min_cards: int,
    trick_ok: bool,
    seeds: np.ndarray,
    deck: np.ndarray,
    hands: np.ndarray,
    counts: np.ndarray,
    piles: np.ndarray,
    below: np.ndarray,
    rng: np.ndarray,
    game: np.ndarray,
    played_cards: np.ndarray,
    mask: np.ndarray,
    obs: np.ndarray,
    params: np.ndarray,
    W: np.ndarray,
    F: np.ndarray,
    C: np.ndarray,
    out: np.ndarray,
) -> None:
    for b in range(game.shape[0]):
        played_cards[b, :] = 0
        _deal(
            b,
            players,
            hand_size,
            min_cards,
            trick_ok,
            seeds,
            deck,
            hands,
            counts,
            piles,
            below,
            rng,
            game,
            mask,
            params,
            W,
            F,
            C,
            out,
        )
        _encode(b, players, hands, counts, piles, game, obs)
        obs[b, OBS_PLAYED : OBS_PLAYED + DECK_SIZE] = played_cards[b]


class TheGameVectorEnv:
    """``num_envs`` games of The Game stepped together (see the module docstring).

    >>> env = TheGameVectorEnv(4, players=3)
    >>> obs, mask = env.reset(seed=0)
    >>> obs.shape, mask.shape
    ((4, 208), (4, 33))
    """

    n_actions = N_ACTIONS
    observation_size = OBS_SIZE

    def __init__(
        self,
        num_envs: int,
        players: int = 3,
        min_cards: int = 2,
        hand_size: int | None = None,
        backwards_trick: bool = True,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise UserError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        config = TheGameConfig(
            players=players, min_cards=min_cards, hand_size=hand_size, backwards_trick=backwards_trick
        )  # one-line UserError on bad rules
        self.num_envs = num_envs
        self.players = players
        self.hand_size = config.effective_hand_size
        self.min_cards = min_cards
        self.trick_ok = bool(backwards_trick)
        b = num_envs
        self._seeds = np.zeros(1, np.uint64)
        self._deck = np.zeros((b, DECK_SIZE), np.int64)
        self._hands = np.zeros((b, MAX_PLAYERS, MAX_HAND), np.int64)
        self._counts = np.zeros((b, MAX_PLAYERS), np.int64)
        self._piles = np.zeros((b, N_PILES), np.int64)
        self._below = np.zeros((b, HIGHEST_CARD + 2), np.int64)
        self._rng = np.zeros((b, 1), np.uint64)
        self._game = np.zeros((b, N_GAME_COLUMNS), np.int64)
        self._played = np.zeros((b, DECK_SIZE), np.float32)
        self.action_mask = np.zeros((b, N_ACTIONS), np.int8)
        self.observation = np.zeros((b, OBS_SIZE), np.float32)
        self._rewards = np.zeros(b, np.float32)
        self._done = np.zeros(b, np.bool_)
        self._cards_left = np.zeros(b, np.int64)
        W, F, C = new_work()
        self._scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] = (
            np.zeros(64),
            W,
            F,
            C,
            np.zeros(64, np.int64),
        )
        self._ready = False

    def _rules(self) -> tuple[int, int, int, bool, np.ndarray]:
        return self.players, self.hand_size, self.min_cards, self.trick_ok, self._seeds

    def _tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self._deck, self._hands, self._counts, self._piles, self._below, self._rng

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game from ``seed``'s stream; returns (observations, action masks)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise UserError(f"seed must be a non-negative whole number, got {seed!r}")
        self._seeds[0] = np.uint64(int(seed) % 2**64)
        _reset_all(
            *self._rules(),
            *self._tables(),
            self._game,
            self._played,
            self.action_mask,
            self.observation,
            *self._scratch,
        )
        self._ready = True
        return self.observation, self.action_mask

    @property
    def deal_seeds(self) -> np.ndarray:
        """The deal seed of each game being played (``Table(seed, players)`` deals the same)."""
        return self._game[:, G_SEED].copy()

    @property
    def movers(self) -> np.ndarray:
        """The seat to move in each game."""
        return self._game[:, G_MOVER].copy()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """One action per game (the seat to move's); returns (observations, action masks,
        rewards, dones, info) with ``info["cards_left"]`` of each game that ended (-1 for the
        others). The arrays are the environment's own, overwritten by the next call: copy what
        you keep."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} whole numbers, got shape {actions.shape} of {actions.dtype}"
            )
        bad = _step_all(
            actions.astype(np.int64, copy=False),
            *self._rules(),
            *self._tables(),
            self._game,
            self._played,
            self.action_mask,
            self.observation,
            self._rewards,
            self._done,
            self._cards_left,
            *self._scratch,
        )
        if bad >= 0:
            raise ValueError(f"action {int(actions[bad])} is not legal in game {bad} (see the action mask)")
        return (self.observation, self.action_mask, self._rewards, self._done, {"cards_left": self._cards_left})


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``mask`` (the random policy)."""
    scores = rng.random(mask.shape) * mask
    actions: np.ndarray = scores.argmax(axis=1)
    return actions


# ---------------------------------------------------------------------------------------------
# The Gang: one basic heist per episode.

GANG_ROUNDS = 4
GANG_CARDS = 52
GANG_BOARD_SHOWN = (0, 3, 4, 5)  # community cards shown in each chip round (H4-H7)


def gang_obs_size(players: int) -> int:
    """The length of :class:`GangVectorEnv`'s observation at ``players`` seats."""
    return 2 * GANG_CARDS + GANG_ROUNDS * players + GANG_ROUNDS + players


@kernel
def _gang_encode(
    b: int,
    players: int,
    decks: np.ndarray,
    round_: np.ndarray,
    mover: np.ndarray,
    chips: np.ndarray,
    obs: np.ndarray,
) -> None:
    """The observation of heist ``b``'s seat to move (see :class:`GangVectorEnv`)."""
    row = obs[b]
    row[:] = 0.0
    seat = mover[b]
    r = min(round_[b], GANG_ROUNDS - 1)
    row[decks[b, 2 * seat]] = 1.0
    row[decks[b, 2 * seat + 1]] = 1.0
    shown = 0 if r == 0 else r + 2
    for k in range(shown):
        row[GANG_CARDS + decks[b, 2 * players + k]] = 1.0
    at = 2 * GANG_CARDS
    for done_round in range(round_[b]):
        for k in range(players):
            row[at + done_round * players + k] = chips[b, done_round, (seat + k) % players] / players
    at += GANG_ROUNDS * players
    row[at + r] = 1.0
    row[at + GANG_ROUNDS + seat] = 1.0


@kernel
def _gang_step(
    actions: np.ndarray,
    players: int,
    decks: np.ndarray,
    finals: np.ndarray,
    ties: np.ndarray,
    round_: np.ndarray,
    mover: np.ndarray,
    keys: np.ndarray,
    chips: np.ndarray,
    obs: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    success: np.ndarray,
) -> int:
    """One star per heist (action a reaches for a + 1 stars); returns -1, or the first heist
    whose action is out of range (nothing is stepped then). A round is settled once every
    seat has chosen, as the engine settles it: by the star reached for, equal stars by the
    heist's tie-breaks, then by seat."""
    for b in range(actions.shape[0]):
        if actions[b] < 0 or actions[b] >= players:
            return b
    for b in range(actions.shape[0]):
        rewards[b] = 0.0
        done[b] = False
        success[b] = False
        r = round_[b]
        seat = mover[b]
        keys[b, seat] = actions[b] + ties[b, r, seat]
        mover[b] = seat + 1
        if mover[b] == players:
            for p in range(players):
                rank = 0
                for q in range(players):
                    if keys[b, q] < keys[b, p] or (keys[b, q] == keys[b, p] and q < p):
                        rank += 1
                chips[b, r, p] = rank + 1
            mover[b] = 0
            round_[b] = r + 1
            if r + 1 == GANG_ROUNDS:
                done[b] = True
                success[b] = showdown_in_order(finals[b], chips[b, GANG_ROUNDS - 1], players)
                rewards[b] = 1.0 if success[b] else 0.0
        if not done[b]:
            _gang_encode(b, players, decks, round_, mover, chips, obs)
    return -1


class GangVectorEnv:
    """``num_envs`` basic heists of The Gang stepped together: one heist per episode, as
    ``cardsim.envs.gang_v0`` (four chip rounds, each seat in turn reaching for a chip; a round's
    chips are settled once every seat has chosen; the showdown, ``seeds/the_gang.md``
    H4-H7). Deals are drawn as the kernel draws them
    (:func:`~cardsim.sims.gang.strategy.draw_deals` from the generator of ``reset``'s seed),
    contests settled with the kernel's tie-breaks.

    Actions (``players`` of them, all legal): ``a`` reaches for the chip of ``a + 1`` stars.
    Reward: 1 for every step that ends a successful heist, else 0 (shared by the team).
    ``info["success"]`` marks the heists that ended in success.

    Observation (``gang_obs_size(players)`` floats in [0, 1], the seat to move's information):
    52 for its pocket cards (one-hot by card code ``rank * 4 + suit``), 52 for the community
    cards shown, ``4 * players`` for the stars (/ players) each seat took in each settled round
    (round-major, seats from the mover on), 4 for the round (one-hot) and ``players`` for the
    mover's seat (one-hot). Claims of the round being played are not shown (the engine's
    rounds are simultaneous).
    """

    def __init__(self, num_envs: int, players: int = 4) -> None:
        from cardsim.sims.gang.config import GangConfig

        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise UserError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        GangConfig(players=players)  # one-line UserError on a bad table size
        self.num_envs = num_envs
        self.players = players
        self.n_actions = players
        self.observation_size = gang_obs_size(players)
        b = num_envs
        self._decks = np.zeros((b, GANG_CARDS), np.int64)
        self._seeds = np.zeros(b, np.int64)
        self._finals = np.zeros((b, players), np.int64)
        self._ties = np.zeros((b, GANG_ROUNDS, players))
        self._round = np.zeros(b, np.int64)
        self._mover = np.zeros(b, np.int64)
        self._keys = np.zeros((b, players))
        self._chips = np.zeros((b, GANG_ROUNDS, players), np.int64)
        self.observation = np.zeros((b, self.observation_size), np.float32)
        self.action_mask = np.ones((b, players), np.int8)
        self._rewards = np.zeros(b, np.float32)
        self._done = np.zeros(b, np.bool_)
        self._success = np.zeros(b, np.bool_)
        self._rng: np.random.Generator | None = None

    def _deal(self, games: np.ndarray) -> None:
        """New heists in ``games`` (indices), in index order from the environment's generator."""
        from cardsim.sims.gang.strategy import deal_outcomes, draw_deals

        assert self._rng is not None
        decks, seeds = draw_deals(self._rng, len(games))
        finals = np.zeros((len(games), self.players), np.int64)
        ties = np.zeros((len(games), GANG_ROUNDS, self.players))
        deal_outcomes(decks, seeds, self.players, finals, ties)
        self._decks[games], self._seeds[games] = decks, seeds
        self._finals[games], self._ties[games] = finals, ties
        self._round[games] = 0
        self._mover[games] = 0
        self._chips[games] = 0
        for b in games.tolist():
            _gang_encode(b, self.players, self._decks, self._round, self._mover, self._chips, self.observation)

    @property
    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        """Each heist's deck (pockets seat by seat, then the board) and tie-break seed."""
        return self._decks.copy(), self._seeds.copy()

    @property
    def movers(self) -> np.ndarray:
        return self._mover.copy()

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Deal every heist from ``numpy.random.default_rng(seed)``; returns (observations,
        action masks)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise UserError(f"seed must be a non-negative whole number, got {seed!r}")
        self._rng = np.random.default_rng(int(seed))
        self._deal(np.arange(self.num_envs))
        return self.observation, self.action_mask

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """One action per heist; returns (observations, action masks, rewards, dones, info),
        ``info["success"]`` for the heists that ended. Arrays are overwritten by the next call."""
        if self._rng is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.num_envs} whole numbers, got shape {actions.shape} of {actions.dtype}"
            )
        bad = _gang_step(
            actions.astype(np.int64, copy=False),
            self.players,
            self._decks,
            self._finals,
            self._ties,
            self._round,
            self._mover,
            self._keys,
            self._chips,
            self.observation,
            self._rewards,
            self._done,
            self._success,
        )
        if bad >= 0:
            raise ValueError(f"action {int(actions[bad])} is not legal in heist {bad} (0-{self.players - 1})")
        finished = np.flatnonzero(self._done)
        if finished.size:
            self._deal(finished)
        return (self.observation, self.action_mask, self._rewards, self._done, {"success": self._success})


__all__ = ["TheGameVectorEnv", "GangVectorEnv", "N_ACTIONS", "OBS_SIZE", "gang_obs_size", "random_actions"]
