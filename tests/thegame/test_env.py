"""The Game's PettingZoo environment: PettingZoo's own API test, and the greedy twin played
through it wins as often as the batch kernel's greedy (game for game on the same deals)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardsim.envs  # noqa: E402
from cardsim.sims.core.user_strategy import load_strategy  # noqa: E402
from cardsim.sims.thegame.batch import play_games  # noqa: E402
from cardsim.sims.thegame.params import strategy_params  # noqa: E402
from cardsim.sims.thegame.state import GREEDY, S_CARDS_LEFT  # noqa: E402
from cardsim.stats import wilson_interval  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
GREEDY_SPEC = f"{EXAMPLES / 'thegame_greedy.py'}:Greedy"


@pytest.mark.parametrize("players", [1, 3, 5])
def test_pettingzoo_api_test_passes(players):
    from pettingzoo.test import api_test

    api_test(cardsim.envs.thegame_v0(players=players), num_cycles=300)


def play_through_env(env, twin, seed: int) -> tuple[int, float]:
    """One game of ``twin`` at every seat through the environment: (cards left, return)."""
    env.reset(seed=seed)
    game = env.unwrapped
    total = 0.0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        total += reward if agent == "player_0" else 0.0
        if termination or truncation:
            env.step(None)
            continue
        choice = twin.play(game.view(agent), game.legal_choices())
        action = game.action_of(choice)
        assert observation["action_mask"][action] == 1
        assert observation["observation"][-2] == 1  # its turn
        env.step(action)
    return int(info["cards_left"]), total


def test_the_greedy_twin_through_the_env_wins_as_the_kernel_does():
    """1,000 deals: the kernel's greedy win rate with its Wilson interval, and the twin's
    through the environment inside it (in fact equal, game for game)."""
    env = cardsim.envs.thegame_v0(players=2)
    twin = load_strategy(GREEDY_SPEC)
    seeds = np.random.default_rng(33).integers(0, 2**62, size=1_000)
    kernel_left = play_games(seeds, 2, 7, 2, True, GREEDY, strategy_params(2, "greedy"))[:, S_CARDS_LEFT]
    played = [play_through_env(env, twin, int(seed)) for seed in seeds]
    env_left = np.array([left for left, _ in played])
    assert env_left.tolist() == kernel_left.tolist()
    assert [ret for _, ret in played] == [98.0 - left for left in env_left.tolist()]
    wins = int((kernel_left == 0).sum())
    (lo,), (hi,) = wilson_interval([wins], [1_000])
    assert wins > 0 and lo <= (env_left == 0).mean() <= hi


def test_observations_show_only_public_information():
    env = cardsim.envs.thegame_v0(players=3)
    env.reset(seed=4)
    game = env.unwrapped
    mover = env.agent_selection
    others = [agent for agent in env.agents if agent != mover]
    for agent in env.agents:
        observation = env.observe(agent)["observation"]
        assert sorted(v for v in observation[:8].tolist() if v) == sorted(game.view(agent).hand)
    assert all(env.observe(agent)["action_mask"].sum() == 0 for agent in others)
    assert env.observe(mover)["action_mask"].sum() > 0


def test_an_illegal_action_is_refused():
    env = cardsim.envs.thegame_v0(players=2)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        env.step(0)  # the minimum is not played yet


def test_envs_are_loaded_lazily_and_unknown_names_refused():
    assert "thegame_v0" in cardsim.envs.ENVS
    with pytest.raises(AttributeError):
        cardsim.envs.nosuchgame_v0  # noqa: B018
