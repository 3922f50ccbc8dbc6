"""How long each game's computer levels take a move (issue #18: within 3 s on 2 cores), on positions from the
opening to the end of a game.

The positions are every ``--every``-th move of the level in ``--games`` games the level's own agent plays against
the easy level (two players, each game's default options); each move is timed as a fresh agent of the level chooses it
(``kumiki.agents.levels.level_agent``), wall clock, one process. TowerBrix is left out: its levels are teammates
timed by ``python -m bench.server_towerbrix_levels``.

    python -m bench.level_times [--games 1] [--every 3] [--only kozo,kuzushi]
"""

from __future__ import annotations

import argparse
import statistics
import time

import kumiki
from kumiki.agents.levels import LEVELS, level_agent, level_spec

TARGET_S = 3.0
GAMES = ("kuzushi", "blokus3d", "kozo")


def times(game: str, level: str, games: int, every: int) -> list[float]:
    """Seconds a move of ``level`` took, every ``every``-th of its moves in ``games`` games against easy."""
    out = []
    for seed in range(1, games + 1):
        state = kumiki.load_game(game, players=2).new_state(seed=seed)
        easy = level_agent(game, "easy", seed=seed)
        turn = 0  # the level's own moves (counting plies missed every one of them with an even --every in Kuzushi,
        # where seat 1 moves first)
        while not state.over:
            ours = state.to_move == 0
            began = time.perf_counter()
            move = (level_agent(game, level, seed=seed) if ours else easy).choose(state)
            if ours:
                if turn % every == 0:
                    out.append(time.perf_counter() - began)
                turn += 1
            state.play(move)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.level_times", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--every", type=int, default=3, help="time every N-th move of the level")
    parser.add_argument("--only", default=",".join(GAMES), help="games to time, comma-separated")
    args = parser.parse_args()
    print(f"a move must take under {TARGET_S:.0f} s")
    for game in args.only.split(","):
        for level in LEVELS:
            name, options = level_spec(game, level)
            found = times(game, level, args.games, args.every)
            spec = ",".join(f"{k}={v}" for k, v in options.items())
            verdict = "" if max(found) < TARGET_S else "  OVER TARGET"
            print(
                f"{game:9s} {level:7s} {name}{':' + spec if spec else ''}".ljust(44)
                + " "
                + f"median {statistics.median(found):.2f} s, max {max(found):.2f} s ({len(found)} moves){verdict}"
            )


if __name__ == "__main__":
    main()
