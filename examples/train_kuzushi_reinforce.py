"""Train a tiny policy on the smallest Kuzushi grid with REINFORCE, through the Gymnasium adapter, and show it
beats the random player it trained against.

    python examples/train_kuzushi_reinforce.py [--episodes 3000] [--seed 1]

A linear softmax policy over the observation (numpy only, no deep-learning library), masked to the legal actions,
trained from the first mover's seat (player 1) on a 3×3 grid. A few seconds on one core.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from kumiki.arena.intervals import Rate, wilson
from kumiki.interop.gymnasium import make

OPTIONS = {"players": 2, "size": 3}
SEAT = 1  # Kuzushi's first mover (player 0 holds the CITY)


def policy(weights: np.ndarray, features: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Action probabilities: a softmax of linear scores over the legal actions only."""
    scores = features @ weights
    scores = np.where(mask == 1, scores, -np.inf)
    scores -= scores.max()
    p = np.exp(scores)
    return p / p.sum()


def features_of(observation: dict[str, np.ndarray]) -> np.ndarray:
    return np.append(observation["observation"].ravel().astype(np.float64), 1.0)  # with a bias feature


def untrained(env: Any) -> np.ndarray:
    """All weights 0: every legal action equally likely."""
    observation, _ = env.reset(seed=0)
    return np.zeros((features_of(observation).size, env.action_space.n))


def win_rate(weights: np.ndarray, games: int, seed: int) -> Rate:
    """The share of ``games`` won from SEAT against random, each action drawn from the policy (as it was trained),
    with its 95% interval. With all weights 0 the policy is uniform over the legal actions: the random player."""
    env = make("kuzushi", opponents=["random"], seat=SEAT, **OPTIONS)
    rng = np.random.default_rng(seed)
    won = 0
    for episode in range(games):
        observation, _ = env.reset(seed=seed * 100_000 + episode)
        done, reward = False, 0.0
        while not done:
            p = policy(weights, features_of(observation), observation["action_mask"])
            observation, reward, done, _, _ = env.step(int(rng.choice(len(p), p=p)))
        won += reward > 0
    return wilson(won, games)


def train(episodes: int, seed: int, learning_rate: float = 0.1) -> np.ndarray:
    env = make("kuzushi", opponents=["random"], seat=SEAT, **OPTIONS)
    rng = np.random.default_rng(seed)
    weights = untrained(env)
    baseline = 0.0
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        steps = []
        done, reward = False, 0.0
        while not done:
            x = features_of(observation)
            p = policy(weights, x, observation["action_mask"])
            action = int(rng.choice(len(p), p=p))
            steps.append((x, p, action))
            observation, reward, done, _, _ = env.step(action)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, p, action in steps:  # the gradient of log softmax: x (one-hot(action) - p)
            grad = -p
            grad[action] += 1.0
            weights += learning_rate * advantage * np.outer(x, grad)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.episodes < 0:
        parser.error("--episodes must be 0 or more")
    if args.seed < 0:
        parser.error("--seed must be 0 or more")
    before = win_rate(untrained(make("kuzushi", opponents=["random"], seat=SEAT, **OPTIONS)), 500, seed=7)
    weights = train(args.episodes, args.seed)
    after = win_rate(weights, 500, seed=7)
    print(
        f"untrained policy (random) vs random: {before.value:.1%} [{before.low:.1%}, {before.high:.1%}] "
        f"won from seat {SEAT}"
    )
    print(
        f"trained policy vs random: {after.value:.1%} [{after.low:.1%}, {after.high:.1%}] won after {args.episodes} "
        "episodes of REINFORCE (500 games each, actions drawn from the policy; 95% Wilson intervals)"
    )
    print("beats random" if after.low > before.high else "does not beat random (the intervals overlap or it is worse)")


if __name__ == "__main__":
    main()
