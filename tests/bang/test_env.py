"""Bang!'s PettingZoo environment: PettingZoo's own API test, and the role-bot twin played
through it at every seat wins as often as the batch kernel's role bots (game for game on the
same deals)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardsim.envs  # noqa: E402
from cardsim.envs.bang import N_ACTIONS, OBS_MY_TURN  # noqa: E402
from cardsim.sims.bang import strategy as S  # noqa: E402
from cardsim.sims.bang.cards import ROLE_SIDE, SHERIFF, SIDE_NAMES  # noqa: E402
from cardsim.sims.core.user_strategy import load_strategy  # noqa: E402
from cardsim.stats import wilson_interval  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
TWIN = f"{EXAMPLES / 'bang_role.py'}:RoleBot"


@pytest.mark.parametrize("players", [4, 7])
def test_pettingzoo_api_test_passes(players):
    from pettingzoo.test import api_test

    api_test(cardsim.envs.bang_v0(players=players), num_cycles=300)


def play_through_env(env, twin, seed: int) -> dict:
    """One game of ``twin`` at every seat through the environment: player_0's final info and
    the return of every agent."""
    env.reset(seed=seed)
    game = env.unwrapped
    returns = dict.fromkeys(env.possible_agents, 0.0)
    infos = {}
    choice = None
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        returns[agent] += reward
        if termination or truncation:
            infos[agent] = info
            env.step(None)
            continue
        if not game.prefix:  # a new decision (a choice is made once its tokens leave one)
            choice = getattr(twin, game.decision)(game.view(agent), game.legal_choices())
        action = game.action_of(choice)
        assert observation["action_mask"][action] == 1
        assert observation["observation"][OBS_MY_TURN] == 1
        env.step(action)
    return {"infos": infos, "returns": returns, "seeds": (game.deal_seed, game.play_seed)}


def test_the_role_twin_through_the_env_wins_as_the_kernel_does():
    """1,000 games at 5 players: the kernel's Sheriff-side win rate with its Wilson interval,
    and the twin's through the environment inside it (in fact equal, game for game: each
    game's winner and roles are the kernel's on the same deal and play seeds)."""
    env = cardsim.envs.bang_v0(players=5)
    twin = load_strategy(TWIN)
    sheriff_won = []
    kernel_won = []
    for seed in range(1_000):
        game = play_through_env(env, twin, seed)
        kernel = S.builtin_games(SHERIFF, 5, "role", "role", *game["seeds"], 1)
        winner = int(kernel[0][0])
        roles = kernel[2][0, :5].tolist()
        for seat, agent in enumerate(env.possible_agents):
            info = game["infos"][agent]
            assert info["winner"] == SIDE_NAMES[winner]
            assert game["returns"][agent] == float(ROLE_SIDE[roles[seat]] == winner)
        sheriff_won.append(game["infos"]["player_0"]["won"])
        kernel_won.append(winner == ROLE_SIDE[SHERIFF])
    assert sheriff_won == kernel_won
    wins = int(np.sum(kernel_won))
    (lo,), (hi,) = wilson_interval([wins], [1_000])
    assert 0 < wins < 1_000 and lo <= np.mean(sheriff_won) <= hi


def test_observations_show_only_public_information():
    env = cardsim.envs.bang_v0(players=6)
    env.reset(seed=4)
    game = env.unwrapped
    mover = env.agent_selection
    view = game.view(mover)
    observation = env.observe(mover)
    first_tokens = {game.actions_of(choice)[0] for choice in game.legal_choices()}
    assert observation["action_mask"].sum() == len(first_tokens) > 0
    assert all(env.observe(agent)["action_mask"].sum() == 0 for agent in env.agents if agent != mover)
    from cardsim.sims.bang import view as V

    row = observation["observation"]
    assert row[V.V_SEAT] == view.seat and row[V.V_MY_ROLE] == view.role
    assert row[V.V_ROLE : V.V_ROLE + 6].tolist() == list(view.roles)
    assert sorted(row[V.V_MY_CARDS : V.V_MY_CARDS + row[V.V_HAND_N]].tolist()) == list(view.hand)


def test_an_illegal_action_is_refused_and_a_reset_ends_the_game():
    env = cardsim.envs.bang_v0(players=4)
    env.reset(seed=1)
    illegal = next(a for a in range(N_ACTIONS) if env.observe(env.agent_selection)["action_mask"][a] == 0)
    with pytest.raises(ValueError, match="not legal"):
        env.unwrapped.step(illegal)
    first = env.unwrapped._game
    env.reset(seed=2)
    assert first is not None and not first.is_alive()
    env.close()


def test_bad_players_are_refused():
    from cardsim.errors import UserError

    with pytest.raises(UserError, match="players must be 4-7"):
        cardsim.envs.bang_v0(players=3)
    assert "bang_v0" in cardsim.envs.ENVS


def test_actions_are_factored_into_a_few_hundred_tokens():
    """A choice takes at most three tokens out of a small space; every legal choice is reached
    by its tokens and no other, and the mask never offers a token that leads nowhere."""
    import copy

    assert N_ACTIONS <= 300
    env = cardsim.envs.bang_v0(players=5)
    env.reset(seed=8)
    game = env.unwrapped
    rng = np.random.default_rng(0)
    decisions = 0
    while not all(env.terminations.values()) and decisions < 60:
        legal = game.legal_choices()
        choice = legal[int(rng.integers(len(legal)))]
        tokens = game.actions_of(choice)
        assert 1 <= len(tokens) <= 3
        agent, prefix_seen = env.agent_selection, []
        for token in tokens:
            if game.prefix != tuple(prefix_seen):
                break  # the tokens given already left one choice: it was made
            assert env.observe(agent)["action_mask"][token] == 1
            branch = copy.deepcopy(env)  # a token the mask offers always leads to a choice
            branch.step(token)
            prefix_seen.append(token)
            env.step(token)
        decisions += 1
    assert decisions > 10
