"""Games (seed 000, "KẾT THÚC TRÒ CHƠI" and the three modes; digest: "Games and modes")."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.analysis.gang import best_of_five, formula_check
from cardsim.sims.core.runner import run
from cardsim.sims.gang.cards import CHALLENGES
from cardsim.sims.gang.game import (
    GameState,
    cards_for_next_heist,
    new_game,
    record_outcome,
)
from cardsim.sims.gang.simulator import SIMULATOR


def test_three_vaults_win_three_alarms_lose() -> None:
    """A game ends at the third vault (win) or the third alarm (loss); two in Master Thief."""
    state = GameState(challenge_pile=[], specialist_pile=[])
    for outcome in (True, False, True, False, True):
        record_outcome(state, "basic", outcome)
    assert state.finished(3) and state.vaults == 3 and state.outcomes == "SFSFS"
    state = GameState(challenge_pile=[], specialist_pile=[])
    record_outcome(state, "master", False)
    assert not state.finished(2)
    record_outcome(state, "master", False)
    assert state.finished(2)


def test_advanced_success_draws_challenge_failure_draws_specialist() -> None:
    """Advanced: after a success the top challenge, after a failure the top specialist, active
    for one heist, then to the bottom of its pile."""
    config = SIMULATOR.make_config(unit="game", mode="advanced", deck_order="numbered")
    state = new_game(config, np.random.default_rng(0))
    assert cards_for_next_heist(state, "advanced", 0) == (0, 0)  # first heist plain
    record_outcome(state, "advanced", True)
    assert cards_for_next_heist(state, "advanced", 1) == (1 << 1, 0)  # challenge 1
    record_outcome(state, "advanced", False)
    assert state.challenge_pile[-1] == 1
    assert cards_for_next_heist(state, "advanced", 2) == (0, 1)  # specialist 1
    record_outcome(state, "advanced", True)
    assert state.specialist_pile[-1] == 1
    assert cards_for_next_heist(state, "advanced", 3) == (1 << 2, 0)


def test_professional_has_a_permanent_challenge_without_quick_access() -> None:
    """Professional: Quick Access leaves the pile; one random challenge is active all game,
    on top of the Advanced card."""
    config = SIMULATOR.make_config(unit="game", mode="professional")
    rng = np.random.default_rng(1)
    for _ in range(30):
        state = new_game(config, rng)
        assert CHALLENGES["quick-access"] not in state.challenge_pile + state.permanent
        assert len(state.permanent) == 1 and state.permanent[0] not in state.challenge_pile
    fixed = SIMULATOR.make_config(unit="game", mode="professional", challenges=("blackout",))
    state = new_game(fixed, rng)
    mask, _ = cards_for_next_heist(state, "professional", 0)
    assert mask == 1 << CHALLENGES["blackout"]
    record_outcome(state, "professional", True)
    mask, _ = cards_for_next_heist(state, "professional", 1)
    assert bin(mask).count("1") == 2


def test_master_thief_rotates_two_challenges() -> None:
    """Master Thief: two random challenges for the first heist (also with numbered piles: the
    rulebook flips two random cards, so games do not all start on challenges 2 and 3), no
    Quick Access, no specialists; before every later heist the lowest-numbered leaves and the
    next one is revealed."""
    config = SIMULATOR.make_config(unit="game", mode="master", deck_order="numbered")
    firsts = set()
    for seed in range(20):
        state = new_game(config, np.random.default_rng(seed))
        mask, specialist = cards_for_next_heist(state, "master", 0)
        firsts.add(mask)
        assert bin(mask).count("1") == 2 and specialist == 0 and not mask & (1 << 1)
        active = sorted(b for b in range(11) if mask >> b & 1)
        revealed = state.challenge_pile[0]
        record_outcome(state, "master", False)
        assert cards_for_next_heist(state, "master", 1) == ((1 << active[1]) | (1 << revealed), 0)
    assert len(firsts) > 3


def test_game_rows_are_consistent() -> None:
    """Vaults + alarms = heists = length of the outcome string; the winner has 3 vaults."""
    config = SIMULATOR.make_config(unit="game", mode="advanced", model="history")
    games = run(SIMULATOR, config, n=300, seed=2).episodes
    assert (games["vaults"] + games["alarms"] == games["heists"]).all()
    assert (games["outcomes"].str.len_chars() == games["heists"].cast(int)).all()
    assert (games.filter(games["success"])["vaults"] == 3).all()


@pytest.mark.slow
@pytest.mark.parametrize("model", ["percentile", "history"])
def test_basic_game_win_rate_matches_heist_rate(model: str) -> None:
    """Basic games: the win rate equals p^3 (1 + 3q + 6q^2) of the same model's per-heist p,
    within the 95% intervals (the heist interval mapped through the formula must overlap the
    game interval)."""
    heists = run(SIMULATOR, SIMULATOR.make_config(model=model), n=60_000, seed=3).episodes
    games = run(SIMULATOR, SIMULATOR.make_config(model=model, unit="game"), n=30_000, seed=4).episodes
    checked = formula_check(heists, games)
    assert checked["agrees"].all()


def test_best_of_five_formula() -> None:
    """p^3 (1 + 3q + 6q^2) is the chance of 3 successes before 3 failures (enumerated)."""
    from itertools import product

    p = 0.7
    exact = 0.0
    for outcomes in product([True, False], repeat=5):
        wins = losses = 0
        for success in outcomes:
            wins += success
            losses += not success
            if wins == 3 or losses == 3:
                break
        if wins == 3:
            exact += np.prod([p if o else 1 - p for o in outcomes])
    assert best_of_five(p) == pytest.approx(exact)
