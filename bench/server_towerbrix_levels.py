"""How long the web server's TowerBrix computer teammates take a move, level by level (docs/server.md's levels table).

Each move is timed as a worker process of ``kumiki serve`` computes it: ``kumiki.server.agents.choose_move``, which
replays the game from its seed and then asks the level's agent (a fresh agent, as the server does). Two teammates of
the level build together (base game, green deck, easy cards) until the first evaluation of each game, so the
positions run from the empty table to complete towers being reworked.

    python -m bench.server_towerbrix_levels [--games 3] [--levels easy,medium,hard]

``--players 4 --difficulty medium --first 6`` times the heavy case (four teammates, medium cards, seeds 6..):
long rounds of repairs, each of several plans, where the hard level's slowest moves are.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

import kumiki
from kumiki.server.agents import choose_move, level_agent

TARGET_S = 3.0
OPTIONS = {"players": 2, "difficulty": "easy"}


def time_game(seed: int, level: str, options: dict[str, Any] | None = None) -> tuple[list[float], bool]:
    """The time of every move up to the first evaluation, and whether that attempt succeeded."""
    options = options or OPTIONS
    state = kumiki.load_game("towerbrix", **options).new_state(seed=seed)
    moves: list[str] = []
    times = []
    while not state.to_json()["evaluations"]:
        start = time.perf_counter()
        move = choose_move("towerbrix", options, seed, moves, level)
        times.append(time.perf_counter() - start)
        state.play(move)
        moves.append(move)
    return times, state.to_json()["evaluations"][0]["success"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games (seeds 1..N) per level")
    parser.add_argument("--levels", default="easy,medium,hard", help="levels to time, comma-separated")
    parser.add_argument("--players", type=int, default=OPTIONS["players"], help="teammates (2 to 6)")
    parser.add_argument("--difficulty", default=OPTIONS["difficulty"], choices=("easy", "medium", "hard"))
    parser.add_argument("--first", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    table = {"players": args.players, "difficulty": args.difficulty}
    print(f"a move must take under {TARGET_S:.0f} s")
    for level in args.levels.split(","):
        name, options = level_agent("towerbrix", level)
        times: list[float] = []
        wins = 0
        for seed in range(args.first, args.first + args.games):
            game_times, success = time_game(seed, level, table)
            times += game_times
            wins += success
        spec = " ".join(f"{k}={v}" for k, v in options.items())
        print(
            f"{level:7s} {name} {spec}".ljust(47)
            + f" {len(times)} moves: median {statistics.median(times):.2f} s, "
            + f"99th percentile {np.percentile(times, 99, method='lower'):.2f} s, max {max(times):.2f} s, "
            + f"first attempts met: {wins}/{args.games}"
            + ("" if max(times) < TARGET_S else "  OVER TARGET")
        )


if __name__ == "__main__":
    main()
