"""User strategies for The Game: the Python engine plays by the kernel's rules, the
greedy twin written against the interface plays the kernel's greedy game for game, and no view
a strategy receives depends on a hidden card."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cardsim.sims.core.user_strategy import load_strategy
from cardsim.sims.thegame import reference, strategy
from cardsim.sims.thegame.batch import play_games
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import rules_hand_size
from cardsim.sims.thegame.state import (
    GREEDY,
    PLANNER,
    S_CARDS_LEFT,
    S_EXTRA_PLAYS,
    S_FIRST_PLAYER,
    S_TRICKS,
    S_TURNS,
    SIGNALS,
    deal_deck,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
GREEDY_SPEC = f"{EXAMPLES / 'thegame_greedy.py'}:Greedy"
CLOSEST_SPEC = f"{EXAMPLES / 'thegame_closest.py'}:Closest"
SIGNALS_FILE = EXAMPLES / "thegame_signals.py"
SEEDS = np.arange(60, dtype=np.int64) * 7919 + 3


class SeededRandom:
    """Uniform among the legal choices, from its own seeded stream; talks at random too."""

    def __init__(self, seed: int = 5) -> None:
        self.rng = random.Random(seed)

    def play(self, view, legal):
        return self.rng.choice(legal)

    def signal(self, view, legal):
        return self.rng.choice(legal)

    def opening(self, view, legal):
        return self.rng.choice(legal)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_greedy_twin_plays_the_kernels_greedy_game_for_game(players):
    size = rules_hand_size(players)
    kernel_rows = play_games(SEEDS, players, size, 2, True, GREEDY, strategy_params(players, "greedy"))
    twin_rows = strategy.play_games(load_strategy(GREEDY_SPEC), GREEDY_SPEC, SEEDS, players)
    assert twin_rows.tolist() == kernel_rows.tolist()
    assert (kernel_rows[:, S_TURNS] > 0).all()


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("name, strategy_id", [("Planner", PLANNER), ("Signals", SIGNALS)])
def test_planner_and_signals_twins_play_the_kernels_games(players, name, strategy_id):
    """The talk too: signals' reservations are the twin's ``signal`` answers, and its choice
    of who starts is the lowest ``opening`` bid (twice the opening's cost)."""
    spec = f"{SIGNALS_FILE}:{name}"
    seeds = SEEDS[:40]
    kernel_rows = play_games(
        seeds, players, rules_hand_size(players), 2, True, strategy_id, strategy_params(players, name.lower())
    )
    twin_rows = strategy.play_games(load_strategy(spec), spec, seeds, players)
    assert twin_rows.tolist() == kernel_rows.tolist()
    assert (kernel_rows[:, S_CARDS_LEFT] == 0).any()
    if name == "Signals" and players > 1:
        assert (kernel_rows[:, S_FIRST_PLAYER] > 0).any()


@pytest.mark.parametrize("min_cards, trick_ok, hand_size", [(3, True, None), (2, False, None), (1, True, 4)])
@pytest.mark.parametrize("name", ["greedy", "signals"])
def test_twins_follow_the_variant_knobs(min_cards, trick_ok, hand_size, name):
    size = hand_size or rules_hand_size(3)
    spec = GREEDY_SPEC if name == "greedy" else f"{SIGNALS_FILE}:Signals"
    kernel_rows = play_games(
        SEEDS[:30], 3, size, min_cards, trick_ok, GREEDY if name == "greedy" else SIGNALS, strategy_params(3, name)
    )
    twin_rows = strategy.play_games(
        load_strategy(spec), spec, SEEDS[:30], 3, hand_size=hand_size, min_cards=min_cards, backwards_trick=trick_ok
    )
    assert twin_rows.tolist() == kernel_rows.tolist()


@pytest.mark.parametrize("players", [1, 2, 3, 5])
@pytest.mark.parametrize("make", [SeededRandom, lambda: load_strategy(CLOSEST_SPEC)])
def test_engine_games_pass_the_referee(players, make):
    """Every play legal, turn order and minimum kept, and the game stops only when the player
    to move really cannot play the minimum (the referee searches every order)."""
    size = rules_hand_size(players)
    for seed in SEEDS[:15].tolist():
        table = strategy.play_table(make(), "s.py:S", seed, players)
        row = table.stats_row()
        replayed = reference.replay(deal_deck(seed).tolist(), players, size, 2, True, table.log)
        assert replayed.cards_left == row[S_CARDS_LEFT] == table.cards_left()
        assert replayed.turns == row[S_TURNS] and replayed.tricks == row[S_TRICKS]
        assert replayed.extra_plays == row[S_EXTRA_PLAYS]
        assert replayed.first_player == row[S_FIRST_PLAYER] or row[S_TURNS] == 0


def _play(user, seed, players, on_decision=None):
    """:func:`strategy.play_game` written out, returning the table (and calling
    ``on_decision(table, seat)`` before every decision)."""
    table = strategy.Table(seed, players)
    first = 0
    if hasattr(user, "opening"):
        bids = [user.opening(table.view(q), strategy.OPENING_CHOICES) for q in range(players)]
        first = bids.index(min(bids))
    table.start(first)
    while not table.over:
        seat = table.mover
        if hasattr(user, "signal") and players > 1 and table.played_this_turn == 0:
            signals = []
            for q in range(players):
                if q == seat or table.counts[q] == 0:
                    signals.append(())
                    continue
                if on_decision:
                    on_decision(table, q)
                signals.append(user.signal(table.view(q), strategy.SIGNAL_CHOICES))
            table.signals = tuple(signals)
        if on_decision:
            on_decision(table, seat)
        table.play(user.play(table.view(seat), table.legal))
    return table


def test_the_engine_replays_like_play_game():
    for seed in SEEDS[:5].tolist():
        row = strategy.play_game(SeededRandom(), "s.py:S", seed, 3)
        assert _play(SeededRandom(), seed, 3).stats_row().tolist() == row.tolist()


def test_talk_reaches_the_views():
    """opening: the lowest bid starts (ties to the lower seat); signal: the mover sees what the
    others announced at the start of its turn, and its own entry is empty."""

    class Talker:
        seen = []

        def opening(self, view, legal):
            return {0: 50, 1: 7, 2: 7}[view.seat]

        def signal(self, view, legal):
            return (view.seat % 4,)

        def play(self, view, legal):
            Talker.seen.append((view.seat, view.signals))
            return legal[0] if view.to_play == 0 else legal[-1]

    row = strategy.play_game(Talker(), "t.py:Talker", 3, 3)
    assert row[S_FIRST_PLAYER] == 1
    seat, signals = Talker.seen[0]
    assert seat == 1 and signals == ((0,), (), (2,))


def test_examples_of_the_interface_play_whole_games():
    rows = strategy.play_games(load_strategy(CLOSEST_SPEC), CLOSEST_SPEC, SEEDS[:20], 3)
    assert (rows[:, S_TURNS] > 10).all() and rows[:, S_CARDS_LEFT].mean() < 40


def test_the_bench_rows_of_user_strategies_measure_whole_games():
    from cardsim.sims.thegame import bench

    for user in (bench.FirstLegal(), bench.ClosestCard()):
        games, decisions = bench.user_strategy_speed(user, 3, 6)
        assert games > 0 and decisions > 2 * games


def test_the_tutorial_shows_the_example_files_the_tests_run():
    """docs/strategies.md's code block for The Game is the example file (which the tests above
    run), and the module docstring's example is its code."""
    root = EXAMPLES.parents[1]
    text = (root / "docs" / "strategies.md").read_text()
    section = text.split("## The Game", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("\n", 1)[1].split("```", 1)[0] for block in section.split("```python")[1:]]
    closest = EXAMPLES / "thegame_closest.py"
    assert blocks == [closest.read_text()]
    for path in (closest, EXAMPLES / "thegame_greedy.py"):
        assert str(path.relative_to(root)) in section
    code = closest.read_text().split("\n\n\n", 1)[1]
    docstring = "\n".join(line[4:] for line in strategy.__doc__.splitlines())
    assert code.strip() in docstring
