"""Every strategy makes only legal moves and stops only when the rules say so: kernel games are
replayed move by move by the plain-Python referee (cardsim.sims.thegame.reference)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim.sims.thegame import kernel, reference
from cardsim.sims.thegame.config import STRATEGY_NAMES
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import rules_hand_size

SEEDS = st.integers(min_value=0, max_value=2**62)
PLAYERS = st.integers(min_value=1, max_value=5)


def check(
    seed: int,
    players: int,
    strategy: int,
    min_cards: int = 2,
    trick_ok: bool = True,
    hand_size: int | None = None,
    params: np.ndarray | None = None,
) -> None:
    size = hand_size or rules_hand_size(players)
    if params is None:
        params = strategy_params(players, STRATEGY_NAMES[strategy])
    out, log = kernel.trace_game(seed, players, size, min_cards, trick_ok, strategy, params)
    deck = kernel.deal_deck(seed).tolist()
    replay = reference.replay(deck, players, size, min_cards, trick_ok, [tuple(int(v) for v in row) for row in log])
    assert replay.cards_left == out[kernel.S_CARDS_LEFT]
    assert replay.turns == out[kernel.S_TURNS]
    assert replay.first_player == out[kernel.S_FIRST_PLAYER]
    assert replay.tricks == out[kernel.S_TRICKS]
    if strategy >= kernel.PLANNER:
        assert replay.extra_plays == out[kernel.S_EXTRA_PLAYS]
    assert out[kernel.S_CARDS_LEFT] == out[kernel.S_IN_HANDS] + out[kernel.S_DRAW_LEFT]


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=PLAYERS, strategy=st.sampled_from([0, 1, 2, 3]))
def test_heuristic_strategies_play_legally(seed: int, players: int, strategy: int) -> None:
    check(seed, players, strategy)


@settings(max_examples=15, deadline=None)
@given(
    seed=SEEDS,
    players=PLAYERS,
    strategy=st.sampled_from([0, 1, 2, 3, 4]),
    min_cards=st.integers(1, 3),
    trick_ok=st.booleans(),
)
def test_variant_knobs_are_respected(seed: int, players: int, strategy: int, min_cards: int, trick_ok: bool) -> None:
    check(seed, players, strategy, min_cards=min_cards, trick_ok=trick_ok)


@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, players=PLAYERS, strategy=st.sampled_from([4, 5]))
def test_search_strategies_play_legally(seed: int, players: int, strategy: int) -> None:
    name = "search" if strategy == kernel.SEARCH else "omniscient"
    params = strategy_params(players, name, rollouts=1)
    params[kernel.P_SEARCH_CANDIDATES] = 2
    check(seed, players, strategy, params=params)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=PLAYERS, min_cards=st.integers(1, 3), trick_ok=st.booleans())
def test_omniscient_plan_plays_legally(seed: int, players: int, min_cards: int, trick_ok: bool) -> None:
    """omniscient plays a plan assembled from search's game and adopted rollouts (default
    budget): the referee replays it, including the variant knobs."""
    check(seed, players, kernel.OMNISCIENT, min_cards=min_cards, trick_ok=trick_ok)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_search_lookahead_plays_legally(seed: int, players: int) -> None:
    check(seed, players, kernel.SEARCH)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_kernel_greedy_matches_plain_python_greedy(seed: int, players: int) -> None:
    size = rules_hand_size(players)
    out = kernel.play_games(np.array([seed], np.int64), players, size, 2, True, kernel.GREEDY, strategy_params(players))
    deck = kernel.deal_deck(seed).tolist()
    assert reference.greedy_game(deck, players, size, 2, True) == out[0, kernel.S_CARDS_LEFT]


def test_referee_catches_an_illegal_play() -> None:
    seed, players = 7, 1
    out, log = kernel.trace_game(seed, players, 8, 2, True, kernel.GREEDY, strategy_params(1))
    rows = [tuple(int(v) for v in row) for row in log]
    player, card, pile = rows[0]
    rows[0] = (player, card, 2 if pile < 2 else 0)  # same card, wrong direction or top
    deck = kernel.deal_deck(seed).tolist()
    try:
        reference.replay(deck, players, 8, 2, True, rows)
    except reference.RuleViolation:
        return
    raise AssertionError("an altered log passed the referee")


def test_referee_catches_a_premature_end() -> None:
    seed = 11
    out, log = kernel.trace_game(seed, 1, 8, 2, True, kernel.GREEDY, strategy_params(1))
    rows = [tuple(int(v) for v in row) for row in log]
    cut = [i for i, row in enumerate(rows) if row[2] == reference.LOG_TURN_END][2]
    deck = kernel.deal_deck(seed).tolist()
    try:
        reference.replay(deck, 1, 8, 2, True, rows[: cut + 1])
    except reference.RuleViolation:
        return
    raise AssertionError("a game cut after three turns passed the referee")
