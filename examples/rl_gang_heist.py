"""A small learner, numpy only, on The Gang's heist: it learns which chip to reach for from its
own cards and the board, and beats the random policy (with a 95% interval).

The environment is the batched, compiled one (``cardsim.envs.vector.GangVectorEnv``: 1,024
heists stepped per call). The policy is linear-softmax, shared by every seat, over features
read from the seat's observation alone: per rank, its pocket cards, a pocket pair, its pocket
cards that pair the board, and the board's cards, each feature once per round (a separate
linear policy per chip round). It is trained by REINFORCE (policy gradient) on the team's
reward, 1 when the heist succeeds, against the batch's mean. Every heist of a batch has the
same length (four rounds of one chip per seat), so a batch of heists starts and ends
together.

Run it (about ten CPU-seconds):

    python examples/rl_gang_heist.py --iterations 300

It prints the learner's heist success and the random policy's on the same fresh deals, each
with its 95% Wilson interval, and their paired difference in points with its 95% interval.
"""

from __future__ import annotations

import argparse

import numpy as np

from cardsim.envs.vector import GangVectorEnv, random_actions
from cardsim.sims.core.user_strategy import paired_difference
from cardsim.stats import wilson_interval


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)


def features(obs: np.ndarray, players: int) -> np.ndarray:
    """The policy's inputs from the observation (see the module docstring): rank features,
    once per round (zero outside the round being played), and a bias per round."""
    batch = obs.shape[0]
    pocket = obs[:, :52].reshape(batch, 13, 4).sum(axis=2)  # card code = rank * 4 + suit
    board = obs[:, 52:104].reshape(batch, 13, 4).sum(axis=2)
    at = 104 + 4 * players
    rounds = obs[:, at : at + 4]
    per_rank = np.hstack([pocket, pocket == 2, pocket * board, board, np.ones((batch, 1))])
    return (per_rank[:, None, :] * rounds[:, :, None]).reshape(batch, -1)


def feature_size(players: int) -> int:
    return features(np.zeros((1, GangVectorEnv(1, players).observation_size), np.float32), players).shape[1]


def train(
    players: int = 4, iterations: int = 300, batch: int = 1024, learning_rate: float = 10.0, seed: int = 0
) -> np.ndarray:
    """The trained weights (by feature and action) after ``iterations`` batches of ``batch``
    heists."""
    env = GangVectorEnv(batch, players=players)
    rng = np.random.default_rng(seed)
    weights = np.zeros((feature_size(players), players))
    obs, _ = env.reset(seed=seed)
    steps = 4 * players
    for _ in range(iterations):
        seen, taken, probabilities = [], [], []
        for _ in range(steps):
            inputs = features(obs, players)
            p = softmax(inputs @ weights)
            actions = (p.cumsum(axis=1) > rng.random((batch, 1))).argmax(axis=1)
            seen.append(inputs)
            taken.append(actions)
            probabilities.append(p)
            obs, _, rewards, done, _ = env.step(actions)
        assert done.all()  # every heist of the batch ends on the same step
        advantage = rewards - rewards.mean()  # the team's reward, against the batch's mean
        gradient = np.zeros_like(weights)
        for inputs, actions, p in zip(seen, taken, probabilities):
            chosen = -p
            chosen[np.arange(batch), actions] += 1.0
            gradient += inputs.T @ (chosen * advantage[:, None])
        weights += learning_rate * gradient / batch
    return weights


def success_rates(
    weights: np.ndarray, players: int = 4, heists: int = 20_000, seed: int = 12345
) -> dict[str, np.ndarray]:
    """Each heist's success, played by the learner (its most likely chip) and by the random
    policy, on the same ``heists`` fresh deals (``seed`` differs from training's)."""
    found = {}
    for name in ("learner", "random"):
        env = GangVectorEnv(heists, players=players)
        obs, mask = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(4 * players):
            if name == "learner":
                actions = (features(obs, players) @ weights).argmax(axis=1)
            else:
                actions = random_actions(mask, rng)
            obs, mask, _, done, info = env.step(actions)
        found[name] = info["success"].astype(np.float64)
    return found


def report(found: dict[str, np.ndarray]) -> dict[str, float]:
    """Success rates with 95% Wilson intervals and the paired difference (points, 95%)."""
    n = found["learner"].size
    wins = [int(found["learner"].sum()), int(found["random"].sum())]
    lo, hi = wilson_interval(wins, [n, n])
    difference = paired_difference(found["learner"], found["random"])
    return {
        "n": n,
        "learner": wins[0] / n,
        "learner_lo": float(lo[0]),
        "learner_hi": float(hi[0]),
        "random": wins[1] / n,
        "random_lo": float(lo[1]),
        "random_hi": float(hi[1]),
        "difference": difference["difference"],
        "difference_lo": difference["lo"],
        "difference_hi": difference["hi"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--heists", type=int, default=20_000, help="fresh heists to evaluate on")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    weights = train(players=args.players, iterations=args.iterations, seed=args.seed)
    r = report(success_rates(weights, players=args.players, heists=args.heists))
    print(f"The Gang, {args.players} players, {r['n']:,} fresh heists (95% intervals):")
    print(f"  learner  {100 * r['learner']:.2f} ({100 * r['learner_lo']:.2f}-{100 * r['learner_hi']:.2f})")
    print(f"  random   {100 * r['random']:.2f} ({100 * r['random_lo']:.2f}-{100 * r['random_hi']:.2f})")
    print(
        f"  learner minus random, points: {100 * r['difference']:+.2f} "
        f"({100 * r['difference_lo']:+.2f}-{100 * r['difference_hi']:+.2f})"
    )


if __name__ == "__main__":
    main()
