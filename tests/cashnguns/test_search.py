"""The ``search`` player: public information only (the hidden-card swap over every decision it
makes, which catches a leaky variant), replays from the seed, plays wherever a strategy name
is, and bad settings are one line."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import HAND_COUNTS, NOTES_PER_ROUND
from cardsim.sims.cashnguns.search import SearchPlayer, parse_search
from cardsim.sims.cashnguns.simulator import play_lineups, strategy_rows
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.cashnguns.strategy import GameState, play_steps

#: A small budget keeps the test quick; the decisions are the same code at any budget.
SPEC = "search:budget=12"
MIX_4P = [
    "custom:bullet=late,target=leader,lie=risk,guns=2,risk=0.6,greed=2,care=0.5,endgame=0,count=1",
    "custom:bullet=late,target=random,lie=guns,guns=3",
]


def redeal(game: GameState, me: int, rng: np.random.Generator) -> GameState:
    """The same public record with what ``me`` cannot see dealt again: every other seat's
    hand and this round's card where chosen (from the cards it has not revealed) and the order
    of the undrawn notes."""
    other = copy.deepcopy(game)
    chosen = game.chosen
    for seat in range(game.players):
        if seat == me or not game.alive[seat]:
            continue
        pool = [k for k in range(3) for _ in range(HAND_COUNTS[k] - int(game.revealed[seat, k]))]
        pool = list(rng.permutation(pool))
        size = int(game.hands[seat].sum())
        other.hands[seat] = [sum(1 for k in pool[:size] if k == kind) for kind in range(3)]
        # a built-in seat has chosen this round's card when the round opened; a Python seat after aiming
        if chosen[seat] == 2 or not game.seat_user[seat]:
            other.bullets[seat] = pool[size]
    drawn = (game.round + 1) * NOTES_PER_ROUND
    other.deck[drawn:] = rng.permutation(game.deck[drawn:])
    return other


class Leaky(SearchPlayer):
    """The search player with a leak: its worlds hold every opponent's true hand (``game``)."""

    game: GameState

    def _search(self, view, phase, options, base_choice, hand, target, targets):
        self._observe(view)
        self.hands[:] = self.game.hands[:, None, :]
        self.followed[:] = True
        return super()._search(view, phase, options, base_choice, hand, target, targets)


def swap_check(player_type: type, games: int = 6, seed: int = 3) -> tuple[int, dict[str, int]]:
    """(decisions changed by a redeal of the hidden cards, decisions checked per kind), for the
    search player in one seat of real games against the 4-player mix's members."""
    rng = np.random.default_rng(seed)
    rows = strategy_rows([parse_strategy(spec) for spec in MIX_4P])
    search_row = parse_strategy(SPEC).param_row()
    changed, checked = 0, {"aim": 0, "card": 0, "lie_down": 0}
    for _ in range(games):
        game = GameState(4)
        slots = [None] + [rows[int(rng.integers(2))] for _ in range(3)]
        users = game.begin(int(rng.integers(2**62)), slots, -5000)
        me = users[0]
        player = player_type(search_row)
        moves = play_steps(game, users)
        try:
            seat, decision, _ = next(moves)
            while True:
                view, legal = game.view(seat), game.legal
                other = redeal(game, me, rng)
                twin = copy.deepcopy(player)
                player.game, twin.game = game, other
                before = getattr(player, decision)(view, legal)
                after = getattr(twin, decision)(other.view(seat), other.legal)
                checked[decision] += 1
                changed += before != after
                seat, decision, _ = moves.send(before)
        except StopIteration:
            pass
    return changed, checked


def test_every_decision_reads_only_the_public_record():
    changed, checked = swap_check(SearchPlayer)
    assert min(checked.values()) >= 20, checked
    assert changed == 0


def test_a_leaky_search_is_caught():
    changed, checked = swap_check(Leaky)
    assert changed > 0.02 * sum(checked.values())


def test_a_game_replays_from_its_seed_and_a_search_seat_plays_everywhere():
    """The same seeds give the same games; a search slot plays beside kernel slots in one batch
    and its games differ from the kernel's games of its base only where it searched."""
    rows = strategy_rows([parse_strategy(spec) for spec in MIX_4P] + [parse_strategy(SPEC)])
    seeds = np.arange(1, 13, dtype=np.uint64)
    lineups = np.array([[2, 0, 1, 1] if game % 2 else [0, 1, 1, 0] for game in range(12)], np.int64)
    first = play_lineups(seeds, lineups, rows, -5000)
    second = play_lineups(seeds, lineups, rows, -5000)
    for a, b in zip(first, second, strict=True):
        assert np.array_equal(a, b)
    plain = play_lineups(seeds[::2], lineups[::2], rows[:2], -5000)
    for a, b in zip(first, plain, strict=True):
        assert np.array_equal(a[::2], b)  # games without a search slot: the kernel's
    assert (first[7][1::2] >= 1).all()  # the search games were played


def test_the_search_player_reads_a_mix_member():
    """After a few rounds against copies of one mix member, that member carries most weight."""
    rows = strategy_rows([parse_strategy(MIX_4P[1])])
    player = SearchPlayer(parse_strategy(SPEC).param_row())
    game = GameState(4)
    users = game.begin(17, [None, rows[0], rows[0], rows[0]], -5000)
    moves = play_steps(game, users)
    seat, decision, _ = next(moves)
    while game.round < 4:
        seat, decision, _ = moves.send(getattr(player, decision)(game.view(seat), game.legal))
    member = [k for k in range(player.pop.shape[0]) if np.array_equal(player.pop[k], rows[0])][0]
    weights = np.exp(player.logpost)
    weights /= weights.sum(axis=1, keepdims=True)
    opponents = [s for s in range(4) if s != users[0] and game.alive[s]]
    assert all(weights[s, member] > 0.5 for s in opponents)


@pytest.mark.parametrize(
    "spec, keyword",
    [
        ("search:budget=0", "budget"),
        ("search:budget=2.5", "budget"),
        ("search:population=nobody", "population"),
        ("search:metric=money", "metric"),
        ("search:depth=3", "search option"),
    ],
)
def test_bad_settings_are_one_line_naming_the_keyword(spec, keyword):
    with pytest.raises(UserError, match=keyword):
        parse_strategy(spec)


def test_a_population_file(tmp_path):
    good = tmp_path / "pop.py"
    good.write_text('POPULATION = ["sniper", "custom:bullet=late,target=random,lie=guns,guns=3"]\n')
    strategy = parse_search(f"population=presets+{good}", "search")
    rows = strategy_rows([strategy, parse_strategy("sniper")])
    out = play_lineups(np.arange(2, dtype=np.uint64), np.array([[0, 1, 1, 1]] * 2), rows, -5000)
    assert out[4].shape == (2, 4)
    broken = tmp_path / "broken.py"
    broken.write_text("POPULATION = [1/0]\n")
    with pytest.raises(UserError, match="population file .* failed to load"):
        parse_search(f"population={broken}", "search")
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    with pytest.raises(UserError, match="population file .* must define POPULATION"):
        parse_search(f"population={empty}", "search")
    with pytest.raises(UserError, match="population"):
        parse_search("population=missing_file.py", "search")


def test_bad_settings_on_the_command_line_exit_2(capsys):
    from cardsim.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["cashnguns", "run", "--players", "4", "-s", "search:budget=0", "--n", "10"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "budget" in err


def test_the_outside_check_plays_the_search_player_as_a_reply():
    """``check`` with the oracle: the search player's record is one of the searches, measured
    on its own fresh paired games, named and described; it gives the check's figures when its
    upper bound is the highest; the same for any --jobs."""
    from cardsim.analysis.cashnguns import OutsideCheck, check_equilibrium

    entry = {
        "players": 4,
        "metric": "win",
        "shame_value": -5000,
        "library": [{"name": "d2", "spec": MIX_4P[0]}, {"name": "d6", "spec": MIX_4P[1]}],
        "equilibrium": {"d2": 0.351, "d6": 0.649},
    }
    check = OutsideCheck(
        budget=2, search_games=10, validation_games=60, seed=4, local=0, sweep=False, oracle_games=30, oracle_budget=6
    )
    found = check_equilibrium(entry, check)
    oracle = [record for record in found["searches"] if record["search"] == "search player"]
    assert len(oracle) == 1 and oracle[0]["validation_games"] == 30
    assert oracle[0]["best_response"].startswith("search:budget=6,metric=win")
    assert oracle[0]["best_response_name"] == "search" and "sampled worlds" in oracle[0]["description"]
    best = max(found["searches"], key=lambda record: record["exploitability_hi"])
    assert found["exploitability_from"] == best["search"]
    assert check_equilibrium(entry, check, jobs=2)["searches"] == found["searches"]
    without = check_equilibrium(
        entry, OutsideCheck(budget=2, search_games=10, validation_games=60, seed=4, local=0, sweep=False)
    )
    assert [record["search"] for record in without["searches"]] == ["search"]


def test_evaluate_plays_against_the_search_player():
    """``evaluate --against search``: a Python strategy at one seat, search at the others (and
    as the comparator in its seat), the same numbers for a rerun."""
    from pathlib import Path

    from cardsim.analysis.cashnguns.evaluate import evaluate_strategy

    patient = Path(__file__).resolve().parents[2] / "examples" / "strategies" / "cashnguns_patient.py"
    found = evaluate_strategy(f"{patient}:Patient", players=4, n=4, against="search:budget=4", seed=2)
    assert found["against"] == "search:budget=4" and found["n"] == 4
    again = evaluate_strategy(f"{patient}:Patient", players=4, n=4, against="search:budget=4", seed=2)
    assert again["difference"] == found["difference"]
