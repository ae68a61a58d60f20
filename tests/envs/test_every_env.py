"""Every environment of :data:`cardsim.envs.ENVS` with its default arguments: PettingZoo's API
and seed tests pass, a seeded reset replays the same episode (also on an environment that has
already played), and different seeds give different episodes. A new game's environment is
checked here as soon as it is listed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardsim.envs  # noqa: E402
from cardsim.envs import ENVS  # noqa: E402

MAX_STEPS = 5_000


def make(name: str):
    return getattr(cardsim.envs, name)()


@pytest.mark.parametrize("name", sorted(ENVS))
def test_pettingzoo_api_and_seed_tests_pass(name):
    from pettingzoo.test import api_test, seed_test

    api_test(make(name), num_cycles=200)
    seed_test(lambda: make(name), num_cycles=200)


def episode(env, seed: int, actions_seed: int) -> list:
    """One episode from ``reset(seed=seed)`` with random legal actions drawn from
    ``actions_seed``: every (agent, observation, reward, termination, info) seen."""
    env.reset(seed=seed)
    rng = np.random.default_rng(actions_seed)
    seen = []
    for step, agent in enumerate(env.agent_iter()):
        observation, reward, termination, truncation, info = env.last()
        seen.append((agent, {k: v.tolist() for k, v in observation.items()}, reward, termination, repr(info)))
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert step < MAX_STEPS, f"episode longer than {MAX_STEPS} steps"
    return seen


@pytest.mark.parametrize("name", sorted(ENVS))
def test_a_seeded_reset_replays_the_episode(name):
    env, other = make(name), make(name)
    first = episode(env, 11, 1)
    assert len(first) > 1 and first[-1][3]  # the episode ends
    assert episode(env, 11, 1) == first  # the same environment, reset with the same seed
    assert episode(other, 11, 1) == first  # a fresh one
    assert episode(env, 12, 1) != first  # another deal
    env.reset()
    env.reset(seed=11)
    assert env.observe(first[0][0])["observation"].tolist() == first[0][1]["observation"]


def _random_steps(env, steps: int, actions_seed: int) -> list:
    """Up to ``steps`` random legal actions (fewer when the episode ends): what each saw."""
    rng = np.random.default_rng(actions_seed)
    seen = []
    for agent in env.agent_iter(max_iter=steps):
        observation, reward, termination, truncation, _ = env.last()
        seen.append((agent, observation["observation"].tolist(), reward))
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return seen


@pytest.mark.parametrize("name", sorted(ENVS))
def test_copies_and_pickles_continue_the_same_game(name):
    """A deep copy, a clone and a pickled copy taken mid-episode are the same game at the
    same point: the same global state, and the same future under the same actions, while
    the original is left untouched by stepping a copy."""
    import copy
    import pickle

    env = make(name)
    env.reset(seed=21)
    _random_steps(env, 12, 3)
    raw = env.unwrapped
    state = raw.state()
    assert state.shape == raw.state_space.shape and raw.state_space.contains(state.astype(raw.state_space.dtype))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env)), raw.clone()]
    for other in copies:
        assert other.unwrapped.state().tolist() == state.tolist()
        assert other.agent_selection == env.agent_selection
    future = [_random_steps(other, 400, 9) for other in copies]
    assert raw.state().tolist() == state.tolist()  # stepping the copies left it as it was
    assert future[0] == future[1] == future[2] == _random_steps(env, 400, 9)
    for other in (env, *copies):
        other.close()


@pytest.mark.parametrize("name", sorted(ENVS))
def test_feature_encoding_is_one_bounded_vector_per_agent(name):
    """``encoding="features"``: PettingZoo's API test passes; every agent's observation is one
    float32 vector in [-1, 1] of the documented length, with its action mask beside it; the
    layout covers the raw observation; a bad encoding is one line."""
    from pettingzoo.test import api_test

    from cardsim.envs.common import feature_size, feature_table
    from cardsim.errors import UserError

    api_test(getattr(cardsim.envs, name)(encoding="features"), num_cycles=60)
    env = getattr(cardsim.envs, name)(encoding="features")
    env.reset(seed=5)
    raw = env.unwrapped
    fields = raw.feature_fields()
    assert sum(row["width"] for row in feature_table(fields)) == feature_size(fields)
    covered = set()
    for field in fields:
        covered.update(range(field.start, field.start + field.length))
    plain = getattr(cardsim.envs, name)()
    raw_size = plain.observation_space(plain.possible_agents[0])["observation"].shape[0]
    assert covered == set(range(raw_size))  # every raw number has its features
    seen = []
    for agent in env.agent_iter(max_iter=40):
        observation, _, termination, truncation, _ = env.last()
        vector = observation["observation"]
        assert vector.dtype == np.float32 and vector.shape == (feature_size(fields),)
        assert -1 <= vector.min() and vector.max() <= 1
        assert observation["action_mask"].shape == (env.action_space(agent).n,)
        seen.append(vector.tolist())
        env.step(None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0]))
    assert len({tuple(v) for v in seen}) > 1
    env.close()
    with pytest.raises(UserError, match="encoding must be raw or features"):
        getattr(cardsim.envs, name)(encoding="onehot")


def test_the_gang_runs_as_a_parallel_environment():
    """Each parallel step is one chip round: every seat chooses at once, each with its own
    mask; four steps end the heist with the team's reward."""
    from pettingzoo.test import parallel_api_test

    from cardsim.envs import PARALLEL_ENVS

    assert set(PARALLEL_ENVS) == {"gang_parallel_v0", "cashnguns_parallel_v0"}
    parallel_api_test(cardsim.envs.gang_parallel_v0(players=4), num_cycles=50)
    env = cardsim.envs.gang_parallel_v0(players=5)
    observations, _ = env.reset(seed=3)
    rounds = 0
    while env.agents:
        assert all(observations[a]["action_mask"].tolist() == [1] * 5 for a in env.agents)
        actions = {agent: int(agent[-1]) for agent in env.agents}  # seat k reaches for k + 1
        observations, rewards, terminations, _, infos = env.step(actions)
        rounds += 1
    assert rounds == 4 and set(terminations.values()) == {True}
    assert infos["player_0"]["chips"] == [[1, 2, 3, 4, 5]] * 4
    assert len(set(rewards.values())) == 1


def _pick(options, agent: str, round_: int, salt: int):
    """A fixed choice among ``options`` for this agent, round and decision (the test's policy)."""
    options = sorted(options)
    return options[(int(agent[-1]) * 7 + round_ * 3 + salt) % len(options)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cashnguns_parallel_plays_the_aec_game(seed):
    """The same choices through the parallel environment (aim and card at once, then lying
    down) and through the AEC one give the same game: the same returns and final infos."""
    from pettingzoo.test import parallel_api_test

    parallel_api_test(cardsim.envs.cashnguns_parallel_v0(players=4), num_cycles=40)
    aec = cardsim.envs.cashnguns_v0(players=5)
    aec.reset(seed=seed)
    game = aec.unwrapped
    returns, finals = {}, {}
    for agent in aec.agent_iter():
        _, reward, termination, truncation, info = aec.last()
        returns[agent] = returns.get(agent, 0.0) + reward
        if termination or truncation:
            finals[agent] = info
            aec.step(None)
            continue
        decision, legal = game.decision(), game.legal_choices()
        salt = {"aim": 0, "card": 1, "lie_down": 2}[decision]
        aec.step(game.action_of(_pick(legal, agent, game.table.round, salt)))
    par = cardsim.envs.cashnguns_parallel_v0(players=5)
    observations, infos = par.reset(seed=seed)
    totals, ends = {}, {}
    while par.agents:
        round_ = par.aec.table.round
        actions = {}
        for agent in par.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            if infos[agent]["phase"] == "play":
                aim = _pick({a // 3 for a in legal}, agent, round_, 0)
                card = _pick({a % 3 for a in legal if a // 3 == aim}, agent, round_, 1)
                actions[agent] = 3 * aim + card
            else:
                actions[agent] = 15 + int(_pick((False, True), agent, round_, 2))
        observations, rewards, terminations, _, infos = par.step(actions)
        for agent, reward in rewards.items():
            totals[agent] = totals.get(agent, 0.0) + reward
        for agent, done in terminations.items():
            if done:
                ends[agent] = infos[agent]
    assert totals == pytest.approx(returns) and ends == finals


def test_bang_observations_hold_a_player_killed_by_dynamite():
    """A player killed at 1 life by an exploding Dynamite (3 life) is left at -2 life, which
    the raw observation shows as it is: the space must hold it."""
    from cardsim.sims.bang import view as V

    env = cardsim.envs.bang_v0()
    env.reset(seed=0)
    agent = env.agent_selection
    observation = env.observe(agent)["observation"].copy()
    observation[V.V_LIFE] = 1 - 3
    assert env.observation_space(agent)["observation"].contains(observation)
