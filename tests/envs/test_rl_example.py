"""RL smoke test: the numpy learner of examples/rl_gang_heist.py, briefly trained on the
batched Gang environment, beats the random policy on fresh deals, its 95% interval clear of
random's (and the paired difference's interval above 0)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_gang_heist.py"


def _example():
    spec = importlib.util.spec_from_file_location("rl_gang_heist", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_briefly_trained_learner_beats_random():
    rl = _example()
    weights = rl.train(players=4, iterations=40, seed=0)
    result = rl.report(rl.success_rates(weights, players=4, heists=10_000, seed=777))
    assert result["n"] == 10_000
    assert 0.02 < result["random"] < 0.1  # about 1 in 4! orders, plus ties
    assert result["learner_lo"] > result["random_hi"], result
    assert result["difference_lo"] > 0, result


def test_an_untrained_learner_does_not_beat_random():
    """The test can fail: zero weights play chip 1 everywhere, which never beats random."""
    import numpy as np

    rl = _example()
    weights = np.zeros((rl.feature_size(4), 4))
    result = rl.report(rl.success_rates(weights, players=4, heists=5_000, seed=777))
    assert not result["difference_lo"] > 0
