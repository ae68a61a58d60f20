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
        env.step(None if termination or truncation
                 else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
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
