"""How long the web server's Kozo computer players take a move, level by level (docs/server.md's levels table).

Each move is timed as a worker process of ``kumiki serve`` computes it: ``kumiki.server.agents.choose_move``, which
replays the game from its seed and then asks the level's agent (a fresh agent, as the server does). The positions
are every ``--every``-th position of games that ``kozo-greedy`` plays against itself (3 rounds, 2 players), so
they run from the empty base to tall towers late in a round.

    python -m bench.server_kozo_levels [--games 1] [--every 4] [--levels easy,medium,hard]
"""

from __future__ import annotations

import argparse
import statistics
import time

import kumiki
from kumiki.server.agents import choose_move, level_agent

TARGET_S = 3.0


def positions(games: int, every: int) -> list[tuple[int, list[str]]]:
    """(seed, moves so far) for every ``every``-th position of ``games`` kozo-greedy self-play games."""
    found = []
    for seed in range(1, games + 1):
        state = kumiki.load_game("kozo").new_state(seed=seed)
        agent = kumiki.load_agent("kozo-greedy", seed=seed)
        moves: list[str] = []
        while not state.over:
            if len(moves) % every == 0:
                found.append((seed, list(moves)))
            move = agent.choose(state)
            state.play(move)
            moves.append(str(move))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="self-play games to take positions from")
    parser.add_argument("--every", type=int, default=4, help="time every N-th position")
    parser.add_argument("--levels", default="easy,medium,hard", help="levels to time, comma-separated")
    args = parser.parse_args()
    spots = positions(args.games, args.every)
    print(f"{len(spots)} positions; a move must take under {TARGET_S:.0f} s")
    for level in args.levels.split(","):
        name, options = level_agent("kozo", level)
        times = []
        for seed, moves in spots:
            start = time.perf_counter()
            choose_move("kozo", {"players": 2}, seed, moves, level)
            times.append(time.perf_counter() - start)
        spec = " ".join(f"{k}={v}" for k, v in options.items())
        print(
            f"{level:7s} {name} {spec}".ljust(32)
            + " "
            + f"median {statistics.median(times):.2f} s, max {max(times):.2f} s"
            + ("" if max(times) < TARGET_S else "  OVER TARGET")
        )


if __name__ == "__main__":
    main()
