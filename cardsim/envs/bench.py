"""`cardsim bench envs`: environment steps per CPU-second, batched against one game at a time.

For The Game and The Gang, the batched compiled environment (:mod:`cardsim.envs.vector`, many
games per call) beside the PettingZoo environment of the same game (one game, one step per
call) as the reference, both with uniformly random legal actions drawn in the loop, measured in
the same process; the target of the batched environments is 100,000 steps per CPU-second.
Cash'n Guns and Bang! have PettingZoo environments only: their rows give the reference alone.
Speed is CPU time of this process (``time.process_time``); each figure is the best of
``REPEATS`` timings, since noise only slows a run down.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

TARGET = 100_000.0
REPEATS = 3


def vector_speed(make: Any, seconds: float) -> float:
    """Steps per CPU-second of a batched environment with random legal actions."""
    from cardsim.envs.vector import random_actions

    env = make()
    _, mask = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(10):
        _, mask, *_ = env.step(random_actions(mask, rng))
    started = time.process_time()
    steps = 0
    while time.process_time() - started < seconds:
        for _ in range(10):
            _, mask, *_ = env.step(random_actions(mask, rng))
        steps += 10 * env.num_envs
    return steps / (time.process_time() - started)


def aec_speed(name: str, seconds: float, **kwargs: Any) -> float | None:
    """Steps per CPU-second of a PettingZoo environment with random legal actions (None
    without PettingZoo)."""
    try:
        import cardsim.envs
    except ImportError:
        return None
    try:
        env = getattr(cardsim.envs, name)(**kwargs)
    except Exception:  # PettingZoo missing: no reference row
        return None
    rng = np.random.default_rng(0)
    steps = 0
    seed = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    rate = steps / (time.process_time() - started)
    env.close()
    return rate


def _best(measure: Any, repeats: int) -> float | None:
    found = [measure() for _ in range(repeats)]
    return None if any(x is None for x in found) else max(found)


def main(quick: bool = False) -> list[dict[str, Any]]:
    """The rows of ``cardsim bench envs``."""
    from cardsim.envs.vector import GangVectorEnv, TheGameVectorEnv

    seconds = 0.5 if quick else 2.0
    repeats = 1 if quick else REPEATS
    rows: list[dict[str, Any]] = []
    batched = {
        "thegame": ("thegame_v0", {"players": 3}, lambda: TheGameVectorEnv(512, players=3), 512),
        "gang": ("gang_v0", {"players": 4}, lambda: GangVectorEnv(1024, players=4), 1024),
    }
    for game, (name, kwargs, make, games) in batched.items():
        fast = _best(lambda make=make: vector_speed(make, seconds), repeats)
        reference = _best(lambda name=name, kwargs=kwargs: aec_speed(name, seconds, **kwargs), repeats)
        rows.append(
            {
                "game": game,
                "environment": f"batched, {games} games per call",
                "players": kwargs["players"],
                "steps_per_cpu_second": round(fast or 0.0),
                "reference_steps_per_cpu_second": None if reference is None else round(reference),
                "ratio": None if not reference else round((fast or 0.0) / reference, 1),
                "target": TARGET,
                "meets_target": bool(fast and fast >= TARGET),
            }
        )
    for game, name, kwargs in (("cashnguns", "cashnguns_v0", {"players": 5}), ("bang", "bang_v0", {"players": 5})):
        reference = _best(lambda name=name, kwargs=kwargs: aec_speed(name, seconds, **kwargs), repeats)
        rows.append(
            {
                "game": game,
                "environment": "PettingZoo (AEC) only",
                "players": kwargs["players"],
                "steps_per_cpu_second": None,
                "reference_steps_per_cpu_second": None if reference is None else round(reference),
                "ratio": None,
                "target": None,
                "meets_target": None,
            }
        )
    return rows
