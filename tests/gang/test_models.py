"""Player models (digest: "Player models"): the random baseline against its exact per-deal
value, the ladder's order, the levels knob, chip legality and reproducibility."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim.errors import UserError
from cardsim.sims.core.runner import run
from cardsim.sims.gang.cards import CHALLENGES, SPECIALISTS
from cardsim.sims.gang.engine import play_batch
from cardsim.sims.gang.models import BAYES, HISTORY, PERCENTILE, RANDOM, chip_likelihood
from cardsim.sims.gang.simulator import SIMULATOR


def _success(players: int, model: int, n: int, levels: int = 1, seed: int = 0) -> np.ndarray:
    out = play_batch(
        np.random.default_rng(seed), players, model, levels, np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    )
    return out["flags"][:, 0] == 1, out["random_p"]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_random_model_matches_exact_per_deal_value(players: int) -> None:
    """The random model's success rate equals the mean exact value (tied orders / n!) of the
    same deals, within 4.5 standard errors of the difference."""
    n = 20_000
    success, exact = _success(players, RANDOM, n, seed=players)
    difference = success.mean() - exact.mean()
    standard_error = np.sqrt(np.mean(exact * (1 - exact)) / n)
    assert abs(difference) < 4.5 * standard_error
    assert exact.min() >= 1 / np.prod(np.arange(1, players + 1)) - 1e-12


def test_model_ladder_order() -> None:
    """random < percentile < history < bayes at four players (gaps far above the noise)."""
    n = 2000
    rates = {m: _success(4, m, n, seed=11)[0].mean() for m in (RANDOM, PERCENTILE, HISTORY)}
    rates[BAYES] = _success(4, BAYES, 1500, seed=11)[0].mean()
    half_width = 2 * 0.5 / np.sqrt(1500)
    assert rates[RANDOM] + half_width < rates[PERCENTILE]
    assert rates[PERCENTILE] + half_width < rates[HISTORY]
    assert rates[PERCENTILE] + half_width < rates[BAYES]


def test_levels_approach_perfect_sorting() -> None:
    """More strength bands per chip raise success towards 1 (ties and card-removal effects
    keep it a hair below)."""
    n = 1500
    coarse = _success(5, PERCENTILE, n, levels=1, seed=5)[0].mean()
    fine = _success(5, PERCENTILE, n, levels=256, seed=5)[0].mean()
    assert fine > coarse + 0.2
    assert fine > 0.97


def test_chip_likelihood_is_a_distribution_and_informative() -> None:
    """P(chip | band) sums to one over chips and rises with the band for the top chip."""
    table = chip_likelihood(4, 8)
    assert np.allclose(table.sum(axis=0), 1.0)
    assert (np.diff(table[3]) > 0).all()


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(3, 6),
    model=st.sampled_from([RANDOM, PERCENTILE, HISTORY, BAYES]),
    challenges=st.sets(st.sampled_from(sorted(CHALLENGES.values())), max_size=2),
    specialist=st.sampled_from([0, *SPECIALISTS.values()]),
    seed=st.integers(0, 2**32 - 1),
)
def test_no_card_twice_and_every_player_gets_a_legal_chip(players, model, challenges, specialist, seed) -> None:
    """Under any cards: every card appears at most once among pockets and board (the suitless
    Jack aside), and every chip round hands out exactly the chips 1..players."""
    mask = sum(1 << c for c in challenges)
    n = 4
    out = play_batch(
        np.random.default_rng(seed),
        players,
        model,
        2,
        np.full(n, mask, dtype=np.int64),
        np.full(n, specialist, dtype=np.int64),
    )
    for i in range(n):
        dealt = [c for c in out["pockets"][i, :players].ravel() if c >= 0 and c != 52]
        dealt += list(out["board"][i])
        assert len(dealt) == len(set(dealt))
        for r in range(4):
            row = np.sort(out["chips"][i, r, :players])
            assert (row == 0).all() or (row == np.arange(1, players + 1)).all()
        assert (out["chips"][i, 3, :players] > 0).all()


def test_same_seed_same_rows_and_chunking_invariance() -> None:
    """Reproducible: the same seed gives identical episode tables."""
    config = SIMULATOR.make_config(players=4, model="history")
    a = run(SIMULATOR, config, n=600, seed=7, chunk_size=200).episodes
    b = run(SIMULATOR, config, n=600, seed=7, chunk_size=200).episodes
    c = run(SIMULATOR, config, n=600, seed=8, chunk_size=200).episodes
    assert a.equals(b)
    assert not a.equals(c)


@pytest.mark.parametrize(
    "fields",
    [
        {"players": 2},
        {"players": 7},
        {"model": "oracle"},
        {"levels": 0},
        {"challenges": ("no-such-card",)},
        {"specialist": "nobody"},
        {"unit": "heist", "mode": "advanced"},
        {"unit": "game", "mode": "professional", "challenges": ("quick-access",)},
        {"unit": "game", "mode": "master", "challenges": ("blackout",)},
    ],
)
def test_bad_config_is_a_user_error(fields) -> None:
    """Out-of-range players (3-6 only), unknown names and mode conflicts are clear errors."""
    with pytest.raises(UserError):
        SIMULATOR.make_config(**fields)
