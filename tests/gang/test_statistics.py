"""Slow statistical sanity checks of the cards on paired runs: every card run uses the
same seed, so the same deals; a difference counts when its 95% Newcombe interval excludes 0."""

from __future__ import annotations

import pytest

from cardsim.analysis.gang import difference_interval
from cardsim.sims.core.runner import run
from cardsim.sims.gang.simulator import SIMULATOR

N = 20_000


def _successes(model: str, **cards) -> tuple[int, int]:
    config = SIMULATOR.make_config(players=4, model=model, **cards)
    episodes = run(SIMULATOR, config, n=N, seed=21).episodes
    return int(episodes["success"].sum()), episodes.height


@pytest.mark.slow
@pytest.mark.parametrize("card", ["security-cameras", "blackout"])
def test_cameras_and_blackout_lower_history_success(card: str) -> None:
    base = _successes("history")
    with_card = _successes("history", challenges=(card,))
    _, _, hi = difference_interval(*with_card, *base)
    assert hi < 0


@pytest.mark.slow
@pytest.mark.parametrize("card", ["getaway-driver", "informant", "con-artist"])
def test_information_specialists_raise_bayes_success(card: str) -> None:
    """Cards that reveal information raise bayes success."""
    base = _successes("bayes")
    with_card = _successes("bayes", specialist=card)
    _, lo, _ = difference_interval(*with_card, *base)
    assert lo > 0


@pytest.mark.slow
def test_informant_fixes_the_viewer_and_shower_order() -> None:
    """The Informant's mechanism: on the same deals, the shower and viewer (chosen in the red
    chip dance) end in the wrong order (by their final hands) clearly less often than without
    the card."""
    import numpy as np

    from cardsim.sims.gang.engine import play_batch
    from cardsim.sims.gang.models import BAYES

    n = 6000
    runs = [
        play_batch(
            np.random.default_rng(31), 4, BAYES, 1, np.zeros(n, dtype=np.int64), np.full(n, spec, dtype=np.int64)
        )
        for spec in (0, 1)
    ]
    wrong = [0, 0]
    for i in range(n):
        shower = runs[1]["flags"][i, 3]
        viewer = runs[1]["flags"][i, 6]
        for k, out in enumerate(runs):
            finals, red = out["finals"][i], out["chips"][i, 3]
            if finals[viewer] != finals[shower] and ((finals[viewer] > finals[shower]) != (red[viewer] > red[shower])):
                wrong[k] += 1
    assert wrong[1] < wrong[0] - 4 * np.sqrt(wrong[0])


@pytest.mark.slow
@pytest.mark.parametrize("model", ["history", "bayes"])
@pytest.mark.parametrize("card", ["retina-scan", "fingerprint-scan"])
def test_scans_never_beat_no_card(model: str, card: str) -> None:
    """A scan only adds a condition, so on the same deals it can never succeed more often."""
    base_config = SIMULATOR.make_config(players=4, model=model)
    scan_config = SIMULATOR.make_config(players=4, model=model, challenges=(card,))
    base = run(SIMULATOR, base_config, n=5000, seed=22).episodes
    scan = run(SIMULATOR, scan_config, n=5000, seed=22).episodes
    assert (scan["order_ok"] == base["order_ok"]).all()
    assert not (scan["success"] & ~base["success"]).any()
    assert scan["success"].sum() < base["success"].sum()
