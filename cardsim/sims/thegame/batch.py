"""Batch kernels of The Game: many independent games, each played sequentially in numba.

One batch kernel per strategy family, chosen in Python by :func:`batch_kernel`, so a run
compiles only the code its strategy reaches. Each allocates its arrays and hands them to its
game loop (``greedy_games`` and so on), compiled without numba's reference counting like every
kernel the loop calls (``kernel(refcounts=False)``): the counts of the arrays passed to the many
small rule and policy calls of a game cost more than the rules. :func:`play_games` returns one
row of episode statistics per deal seed; :func:`trace_game` also returns one game's play log.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.thegame.heuristic_turns import (
    choose_first_player,
    play_out,
    play_out_greedy,
)
from cardsim.sims.thegame.rollouts import (
    plan_game,
    play_out_search,
    play_plan,
)
from cardsim.sims.thegame.rules import (
    DECK_SIZE,
)
from cardsim.sims.thegame.state import (
    GREEDY,
    LOG_CAPACITY,
    N_STATS,
    OMNISCIENT,
    P_SEARCH_ROLLOUTS,
    S_CARDS_LEFT,
    S_DRAW_LEFT,
    S_EXTRA_PLAYS,
    S_FIRST_PLAYER,
    S_IN_HANDS,
    S_LOG_LEN,
    S_TRICKS,
    S_TURNS,
    SEARCH,
    SIGNALS,
    STATS_LEN,
    new_rollout,
    new_table,
    new_work,
    setup_game,
)


@kernel(inline="always")
def finish_row(out_row, counts, players, draw_pos, first, stats) -> None:
    """Fill ``out_row`` (N_STATS episode statistics) at the end of a game."""
    in_hands = 0
    for q in range(players):
        in_hands += counts[q]
    out_row[S_CARDS_LEFT] = in_hands + DECK_SIZE - draw_pos
    out_row[S_IN_HANDS] = in_hands
    out_row[S_DRAW_LEFT] = DECK_SIZE - draw_pos
    out_row[S_TURNS] = stats[S_TURNS]
    out_row[S_FIRST_PLAYER] = first
    out_row[S_EXTRA_PLAYS] = stats[S_EXTRA_PLAYS]
    out_row[S_TRICKS] = stats[S_TRICKS]


# One batch kernel per strategy family, chosen in Python by :func:`batch_kernel`, so that a run
# compiles only the code its strategy reaches (greedy never compiles the planner, the planners
# never compile omniscient's plan search). Each plays one game per seed into ``out`` rows; a
# ``stats`` vector longer than STATS_LEN also receives the play log (one game: see trace_game).
# The strategies that talk (signals and above) let the team pick who starts.


@kernel(inline="always")
def start_talking_game(
    deal_seed,
    players,
    hand_size,
    min_cards,
    trick_ok,
    talk,
    params,
    deck,
    hands,
    counts,
    piles,
    below,
    rng,
    W,
    F,
    C,
    stats,
) -> tuple[int, int]:
    """Deal one game and clear its stats; when the team ``talk``s (signals and above) and has
    more than one player, it picks who starts (:func:`choose_first_player`), else seat 0.
    Returns (draw position, first player)."""
    draw_pos = setup_game(deal_seed, players, hand_size, deck, hands, counts, piles, below, rng)
    stats[:STATS_LEN] = 0
    first = 0
    if talk and players > 1:
        first = choose_first_player(hands, counts, players, piles, below, min_cards, trick_ok, params, W, F, C)
    return draw_pos, first


@kernel
def batch_greedy(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, stats, out) -> None:
    """greedy games (:func:`play_out_greedy`); the first seat starts. Allocates the game's
    arrays and plays the games in :func:`greedy_games`."""
    greedy_games(deal_seeds, players, hand_size, min_cards, trick_ok, params, new_table(), new_work(), stats, out)


@kernel(refcounts=False)
def greedy_games(deal_seeds, players, hand_size, min_cards, trick_ok, params, table, work, stats, out) -> None:
    """The game loop of :func:`batch_greedy`, which allocates the per-game state in ``table``
    (deck, hands, counts, piles, below, rng) and ``work`` (W, F, C), reset at the start of
    every game, so the loop runs without reference counting."""
    deck, hands, counts, piles, below, rng = table
    W, F, C = work
    for g in range(deal_seeds.shape[0]):
        draw_pos = setup_game(deal_seeds[g], players, hand_size, deck, hands, counts, piles, below, rng)
        stats[:STATS_LEN] = 0
        draw_pos = play_out_greedy(
            deck,
            draw_pos,
            hands,
            counts,
            0,
            players,
            hand_size,
            min_cards,
            trick_ok,
            piles,
            below,
            params,
            W,
            F,
            C,
            stats,
        )
        finish_row(out[g], counts, players, draw_pos, 0, stats)


@kernel
def batch_heuristic(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, stats, out) -> None:
    """random / planner / signals / search without rollouts games (:func:`play_out`).
    Allocates the game's arrays and plays the games in :func:`heuristic_games`."""
    heuristic_games(
        deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, new_table(), new_work(), stats, out
    )


@kernel(refcounts=False)
def heuristic_games(
    deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, table, work, stats, out
) -> None:
    """The game loop of :func:`batch_heuristic`, without reference counting (its arrays as
    in :func:`greedy_games`)."""
    deck, hands, counts, piles, below, rng = table
    W, F, C = work
    for g in range(deal_seeds.shape[0]):
        draw_pos, first = start_talking_game(
            deal_seeds[g],
            players,
            hand_size,
            min_cards,
            trick_ok,
            strategy >= SIGNALS,
            params,
            deck,
            hands,
            counts,
            piles,
            below,
            rng,
            W,
            F,
            C,
            stats,
        )
        draw_pos = play_out(
            strategy,
            deck,
            draw_pos,
            hands,
            counts,
            first,
            players,
            hand_size,
            min_cards,
            trick_ok,
            piles,
            below,
            rng,
            params,
            W,
            F,
            C,
            stats,
        )
        finish_row(out[g], counts, players, draw_pos, first, stats)


@kernel
def batch_search(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, stats, out) -> None:
    """search games with rollouts (:func:`play_out_search`). Allocates the game's arrays and
    plays the games in :func:`search_games`."""
    search_games(
        deal_seeds, players, hand_size, min_cards, trick_ok, params, new_table(), new_work(), new_rollout(), stats, out
    )


@kernel(refcounts=False)
def search_games(deal_seeds, players, hand_size, min_cards, trick_ok, params, table, work, sc, stats, out) -> None:
    """The game loop of :func:`batch_search`, without reference counting (its arrays as in
    :func:`greedy_games`, and the search buffers ``sc``)."""
    deck, hands, counts, piles, below, rng = table
    W, F, C = work
    for g in range(deal_seeds.shape[0]):
        draw_pos, first = start_talking_game(
            deal_seeds[g],
            players,
            hand_size,
            min_cards,
            trick_ok,
            True,
            params,
            deck,
            hands,
            counts,
            piles,
            below,
            rng,
            W,
            F,
            C,
            stats,
        )
        draw_pos = play_out_search(
            deck,
            draw_pos,
            hands,
            counts,
            first,
            players,
            hand_size,
            min_cards,
            trick_ok,
            piles,
            below,
            rng,
            params,
            W,
            F,
            C,
            sc,
            stats,
        )
        finish_row(out[g], counts, players, draw_pos, first, stats)


@kernel
def batch_omniscient(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, stats, out) -> None:
    """omniscient games: the plan of :func:`plan_game`, then played (:func:`play_plan`).
    Allocates the game's arrays and plays the games in :func:`omniscient_games`."""
    omniscient_games(
        deal_seeds, players, hand_size, min_cards, trick_ok, params, new_table(), new_work(), new_rollout(), stats, out
    )


@kernel(refcounts=False)
def omniscient_games(deal_seeds, players, hand_size, min_cards, trick_ok, params, table, work, sc, stats, out) -> None:
    """The game loop of :func:`batch_omniscient`, without reference counting (its arrays as
    in :func:`search_games`)."""
    deck, hands, counts, piles, below, rng = table
    W, F, C = work
    for g in range(deal_seeds.shape[0]):
        draw_pos, first = start_talking_game(
            deal_seeds[g],
            players,
            hand_size,
            min_cards,
            trick_ok,
            True,
            params,
            deck,
            hands,
            counts,
            piles,
            below,
            rng,
            W,
            F,
            C,
            stats,
        )
        rows = plan_game(
            deck,
            draw_pos,
            hands,
            counts,
            first,
            players,
            hand_size,
            min_cards,
            trick_ok,
            piles,
            below,
            rng,
            params,
            W,
            F,
            C,
            sc,
        )
        draw_pos = play_plan(
            deck, draw_pos, hands, counts, first, players, hand_size, min_cards, piles, below, rows, sc, stats
        )
        finish_row(out[g], counts, players, draw_pos, first, stats)


def batch_kernel(strategy: int, params: np.ndarray):
    """The batch kernel of the strategy family ``strategy`` (with these parameters) belongs to."""
    if strategy == OMNISCIENT:
        return batch_omniscient
    if strategy == SEARCH and params[P_SEARCH_ROLLOUTS] > 0:
        return batch_search
    if strategy == GREEDY:
        return batch_greedy
    return batch_heuristic


def play_batch(
    deal_seeds: np.ndarray,
    players: int,
    hand_size: int,
    min_cards: int,
    trick_ok: bool,
    strategy: int,
    params: np.ndarray,
    stats: np.ndarray,
    out: np.ndarray,
) -> None:
    """Play one game per seed into ``out`` with the strategy family's kernel. Scalars are passed
    as plain int / bool so that numpy and Python numbers share one compiled signature."""
    batch_kernel(int(strategy), params)(
        deal_seeds,
        int(players),
        int(hand_size),
        int(min_cards),
        bool(trick_ok),
        int(strategy),
        np.asarray(params, np.float64),
        stats,
        out,
    )


def play_games(
    deal_seeds: np.ndarray,
    players: int,
    hand_size: int,
    min_cards: int,
    trick_ok: bool,
    strategy: int,
    params: np.ndarray,
) -> np.ndarray:
    """Play one game per seed; returns an int16 array [n, N_STATS] of episode statistics."""
    out = np.zeros((deal_seeds.shape[0], N_STATS), np.int16)
    play_batch(
        deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, np.zeros(STATS_LEN, np.int64), out
    )
    return out


def trace_game(
    deal_seed: int, players: int, hand_size: int, min_cards: int, trick_ok: bool, strategy: int, params: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One game with its full play log: (episode statistics [N_STATS], log [k, 3]) where each
    log row is (player, card, pile) and a row (player, 0, LOG_TURN_END) closes a turn."""
    out = np.zeros((1, N_STATS), np.int16)
    stats = np.zeros(STATS_LEN + LOG_CAPACITY, np.int64)
    play_batch(np.array([deal_seed], np.int64), players, hand_size, min_cards, trick_ok, strategy, params, stats, out)
    n_log = stats[S_LOG_LEN]
    return out[0], stats[STATS_LEN : STATS_LEN + 3 * n_log].copy().reshape((n_log, 3))
