"""TowerBrix's hint on the map challenges: how long one takes, and how often following it meets the challenge.

For each challenge (default 11, the river, and 14, the swamp) and seed, a one-player game of one round and one
attempt is dealt (``kumiki.load_game("towerbrix", players=1, mode="challenge", challenge=N, rounds=1, attempts=1)
.new_state(seed=s)``); the browser's Hint (``kumiki.server.hints.hint_for``: no memory between hints) is asked at
every turn and its move played, until the game is over (a hint with no move: ``ok``, which ends the build). The
figures: the first hint's time, the slowest hint's, the hints that named no move, and the games whose challenge was
met. One process, one core. The hint keeps the solver's towers by table (``towerbrix.hint.HINT_TOWERS``, a cache:
the same table, the same hint); ``--cold`` empties it before every hint, as a server's worker that never saw the game.

    .venv/bin/python -m bench.towerbrix_hints [--challenges 11 14] [--seeds 10] [--turns 40] [--cold]
"""

from __future__ import annotations

import argparse
import statistics
import time

import kumiki
from kumiki.games.towerbrix.hint import HINT_TOWERS
from kumiki.server.hints import hint_for


def follow(challenge: int, seed: int, turns: int, cold: bool = False) -> tuple[list[float], int, bool]:
    """The time of each hint, the hints with no move, and whether the challenge was met."""
    options = {"players": 1, "mode": "challenge", "challenge": challenge, "rounds": 1, "attempts": 1}
    game = kumiki.load_game("towerbrix", **options)
    state = game.new_state(seed=seed)
    moves: list[str] = []
    times: list[float] = []
    empty = 0
    for _ in range(turns):
        if state.over:
            break
        if cold:
            HINT_TOWERS.clear()
        start = time.perf_counter()
        move, _why = hint_for("towerbrix", options, seed, moves, [None], 0)
        times.append(time.perf_counter() - start)
        if move is None:
            empty += 1
            move = "ok"
        state.play(move)
        moves.append(move)
    met = bool(state.over and all(state.public_view()["round_success"] or [False]))
    return times, empty, met


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.towerbrix_hints", description=__doc__)
    parser.add_argument("--challenges", type=int, nargs="+", default=[11, 14])
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1 (default 10)")
    parser.add_argument("--turns", type=int, default=40, help="at most this many hints a game (default 40)")
    parser.add_argument("--cold", action="store_true", help="no tower kept between hints")
    args = parser.parse_args()
    for challenge in args.challenges:
        firsts, slowest, all_times, empties, met = [], [], [], 0, 0
        for seed in range(args.seeds):
            times, empty, ok = follow(challenge, seed, args.turns, args.cold)
            firsts.append(times[0])
            slowest.append(max(times))
            all_times += times
            empties += empty
            met += ok
            print(
                f"  challenge {challenge} seed {seed}: {len(times)} hints, first {times[0]:.2f} s, "
                f"slowest {max(times):.2f} s, no move {empty}, {'met' if ok else 'not met'}",
                flush=True,
            )
        print(
            f"challenge {challenge}: met {met}/{args.seeds}; first hint median {statistics.median(firsts):.2f} s, "
            f"max {max(firsts):.2f} s; every hint median {statistics.median(all_times):.2f} s, "
            f"max {max(slowest):.2f} s; hints with no move {empties}",
            flush=True,
        )


if __name__ == "__main__":
    main()
