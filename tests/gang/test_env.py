"""The Gang's PettingZoo environment: PettingZoo's API test, the percentile twin through the
environment plays the kernel's heists (so its success rate is the kernel's, inside its
interval), and the observations show only public information (hidden-card swaps)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardsim.envs  # noqa: E402
from cardsim.errors import UserError  # noqa: E402
from cardsim.sims.core.user_strategy import load_strategy  # noqa: E402
from cardsim.sims.gang.strategy import builtin_heists  # noqa: E402
from cardsim.stats import wilson_interval  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
TWIN = f"{EXAMPLES / 'gang_percentile.py'}:Percentile"


@pytest.mark.parametrize("players", [3, 4, 6])
def test_pettingzoo_api_test_passes(players):
    from pettingzoo.test import api_test

    api_test(cardsim.envs.gang_v0(players=players), num_cycles=300)


def play_through_env(env, twin, seed: int, steps: int | None = None) -> dict:
    """One heist of ``twin`` at every seat through the environment (``steps``: stop after that
    many decisions); the last info, with every agent's return."""
    env.reset(seed=seed)
    game = env.unwrapped
    returns = dict.fromkeys(game.possible_agents, 0.0)
    info: dict = {}
    for done, agent in enumerate(env.agent_iter()):
        observation, reward, termination, truncation, info = env.last()
        returns[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        if steps is not None and done == steps:
            break
        star = twin.take_chip(game.view(agent), game.legal_choices())
        action = game.action_of(star)
        assert observation["action_mask"][action] == 1
        env.step(action)
    return {**info, "returns": returns}


def test_the_percentile_twin_through_the_env_plays_the_kernels_heists():
    """1,000 heists at 4 players: the kernel's percentile success rate with its Wilson
    interval, and the twin's through the environment inside it (in fact equal, heist for
    heist, chip for chip); every agent's return is the heist's success."""
    env = cardsim.envs.gang_v0(players=4)
    twin = load_strategy(TWIN)
    seeds = np.random.default_rng(33).integers(0, 2**62, size=1_000)
    kernel_success, env_success = [], []
    for seed in seeds:
        kernel = builtin_heists("percentile", 4, np.random.default_rng(int(seed)), 1)
        result = play_through_env(env, twin, int(seed))
        assert result["chips"] == kernel["chips"][0].tolist()
        assert set(result["returns"].values()) == {float(result["success"])}
        kernel_success.append(bool(kernel["success"][0]))
        env_success.append(result["success"])
    assert env_success == kernel_success
    wins = sum(kernel_success)
    (lo,), (hi,) = wilson_interval([wins], [1_000])
    assert 0 < wins < 1_000 and lo <= np.mean(env_success) <= hi


def test_a_rounds_claims_are_hidden_until_it_settles():
    """Seat 0's claim does not show in seat 1's observation of the same round; once the
    round settles, the chips show."""
    seen = []
    for action in (0, 3):
        env = cardsim.envs.gang_v0(players=4)
        env.reset(seed=5)
        env.step(action)
        seen.append(env.observe("player_1")["observation"].tolist())
    assert seen[0] == seen[1]
    for _ in range(3):
        env.step(0)
    chips = env.unwrapped.heist.chips
    assert len(chips) == 1 and chips[0][0] == 4  # seat 0 reached for 4 stars and holds them
    assert env.observe("player_1")["observation"][7:11].tolist() == list(chips[0])


def test_observations_do_not_change_when_hidden_cards_are_swapped():
    """From positions of real heists (any round, any seat to move), the cards an agent cannot
    see (teammates' pockets, the community cards to come) are dealt again from the cards it
    has not seen: its observation, mask and view stay the same. Changing its own pocket does
    change them, so the check can fail."""
    rng = np.random.default_rng(8)
    twin = load_strategy(TWIN)
    checked = 0
    for players in (3, 4, 6):
        env = cardsim.envs.gang_v0(players=players)
        game = env.unwrapped
        for seed in range(8):
            play_through_env(env, twin, seed, steps=int(rng.integers(0, 4 * players)))
            heist = game.heist
            for agent in game.possible_agents:
                seat = game.agent_seat[agent]
                before, view = env.observe(agent), game.view(agent)
                pockets, board = list(heist.pockets), heist.board
                shown = heist.shown()
                seen = set(pockets[seat]) | set(shown)
                fresh = [int(c) for c in rng.permutation([c for c in range(52) if c not in seen])]
                heist.pockets = [
                    pocket if p == seat else (fresh.pop(), fresh.pop()) for p, pocket in enumerate(pockets)
                ]
                heist.board = shown + tuple(fresh.pop() for _ in range(5 - len(shown)))
                assert heist.pockets != pockets
                after = env.observe(agent)
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
                assert game.view(agent) == view
                heist.pockets[seat] = (fresh.pop(), fresh.pop())
                assert not np.array_equal(before["observation"], env.observe(agent)["observation"])
                assert game.view(agent) != view
                heist.pockets, heist.board = pockets, board
                checked += 1
    assert checked == 8 * (3 + 4 + 6)


def test_bad_arguments_are_one_line_user_errors():
    with pytest.raises(UserError, match="players must be 3 to 6"):
        cardsim.envs.gang_v0(players=7)
    with pytest.raises(UserError, match="render_mode"):
        cardsim.envs.gang_v0(render_mode="rgb")


def test_render_shows_the_table():
    env = cardsim.envs.gang_v0(players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text.startswith("round pre-flop, board []") and "player_2:" in text
