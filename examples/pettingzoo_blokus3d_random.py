"""A random PettingZoo loop on Blokus 3D, choosing among the legal actions with the action mask.

    python examples/pettingzoo_blokus3d_random.py [--games 3] [--players 3]

The loop is PettingZoo's usual AEC loop; each agent's observation carries ``action_mask`` (1 for each legal action
of the fixed encoding, ``kumiki.interop.encode``), and ``render_mode="ansi"`` prints the game's text board.
"""

from __future__ import annotations

import argparse

import numpy as np

from kumiki.interop import decode
from kumiki.interop.pettingzoo import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be 1 or more")
    try:  # a bad --players: one line, as the kumiki command says it
        environment = env("blokus3d", players=args.players, structure="B", render_mode="ansi")
    except ValueError as error:
        parser.error(str(error))
    rng = np.random.default_rng(0)
    for number in range(args.games):
        environment.reset(seed=number)
        returns = dict.fromkeys(environment.possible_agents, 0.0)
        moves = 0
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            returns[agent] += reward
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(rng.choice(legal))
                if moves == 0:
                    move = decode(environment.game, action, environment.state)
                    print(f"game {number + 1}: {agent} opens with action {action} = {move} ({len(legal)} legal)")
                moves += 1
            environment.step(action)
        print(environment.render())
        print(f"game {number + 1}: {moves} moves; returns {returns}\n")


if __name__ == "__main__":
    main()
