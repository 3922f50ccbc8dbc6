"""TowerBrix's solver on the map challenges (11, the river; 14, the swamp): how often it finds a tower, how fast.

For each challenge and seed, the hand of a one-player challenge game (``kumiki.load_game("towerbrix", players=1,
mode="challenge", challenge=N, rounds=1, attempts=1).new_state(seed=s).hands[0]``) is solved twice, as
``kumiki solve towerbrix --challenge N --cards ...`` does (``solver.solve_cards``, seed 0): bounded by steps (the
hint's ``hint.HINT_STEPS`` by default: the same answer on any machine) and bounded by a time limit (10 s). Every
tower found is checked independently: on the map where it stands, standing, connected, every card held. One
process, one core.

    .venv/bin/python -m bench.towerbrix_maps [--challenges 11 14] [--seeds 20] [--steps 6000] [--seconds 10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import kumiki
from kumiki.games.towerbrix.bricks import connected, judge
from kumiki.games.towerbrix.hint import HINT_STEPS
from kumiki.games.towerbrix.modes import MAPS, map_problems
from kumiki.games.towerbrix.solver import Solution, solve_cards


def hand(challenge: int, seed: int) -> list[str]:
    """The cards of the one-player challenge game of ``seed``."""
    options = {"players": 1, "mode": "challenge", "challenge": challenge, "rounds": 1, "attempts": 1}
    state: Any = kumiki.load_game("towerbrix", **options).new_state(seed=seed)
    return list(state.hands[0])


def check(challenge: int, cards: list[str], answer: Solution) -> bool:
    """Whether the answer is a solved tower on the map where it stands, standing, connected and meeting the cards."""
    if answer.status != "solved":
        return False
    game: Any = kumiki.load_game("towerbrix", players=1, mode="challenge", challenge=challenge)
    bricks = answer.bricks
    ok = not map_problems(bricks, MAPS[challenge]) and connected(bricks) and judge(bricks).stands
    assert ok and all(game.cards[c].holds(bricks) for c in cards), (challenge, cards)
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.towerbrix_maps", description=__doc__)
    parser.add_argument("--challenges", type=int, nargs="+", default=[11, 14])
    parser.add_argument("--seeds", type=int, default=20, help="seeds 0..N-1 (default 20)")
    parser.add_argument("--steps", type=int, default=HINT_STEPS, help=f"steps a solve (default {HINT_STEPS})")
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit a solve (default 10; 0: skip)")
    args = parser.parse_args()
    began = time.monotonic()
    for challenge in args.challenges:
        by_steps: list[float] = []
        by_time: list[float] = []
        for seed in range(args.seeds):
            cards = hand(challenge, seed)
            start = time.perf_counter()
            answer = solve_cards(cards, challenge=challenge, steps=args.steps)
            took = time.perf_counter() - start
            line = f"  challenge {challenge} seed {seed:>2} {','.join(cards)}: {args.steps} steps "
            line += f"{'solved' if check(challenge, cards, answer) else answer.status} {took:.2f} s"
            if check(challenge, cards, answer):
                by_steps.append(took)
            if args.seconds > 0:
                timed = solve_cards(cards, challenge=challenge, seconds=args.seconds)
                line += f"; {args.seconds:g} s limit {timed.status} {timed.seconds:.2f} s"
                if check(challenge, cards, timed):
                    by_time.append(timed.seconds)
            print(line, flush=True)
        line = f"challenge {challenge}: {args.steps} steps solved {len(by_steps)}/{args.seeds}"
        if by_steps:
            line += f" (median {statistics.median(by_steps):.2f} s, max {max(by_steps):.2f} s)"
        if args.seconds > 0:
            line += f"; {args.seconds:g} s limit solved {len(by_time)}/{args.seeds}"
            if by_time:
                line += f" (median {statistics.median(by_time):.2f} s, max {max(by_time):.2f} s)"
        print(line, flush=True)
    print(f"wall clock {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
