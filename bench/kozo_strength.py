"""Strength in Kozo: MCTS with the Kozo hooks against the issue's greedy (``kozo-greedy``: the largest piece that
keeps the tower standing, balance cube at the safest spot), 2 players, 3 rounds, seats alternating.

    python -m bench.kozo_strength [--games 40] [--iterations 40] [--workers 2]

The bar is 65% of the games (a shared win counts half). The budget was 15 iterations when an iteration cost some
40 ms (before the fast judge of issue 18); 40 iterations now take less time than those 15 did (docs/agents.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rich.progress import Progress

import kumiki
from bench.strength import wilson

BAR = 0.65


def play_one(index: int, iterations: int) -> tuple[int, float, list[float], int]:
    """One game with MCTS in seat ``index % 2``: (its seat, its share of the win, the scores, the falls by seat)."""
    game = kumiki.load_game("kozo", players=2)
    state = game.new_state(seed=index)
    seat = index % 2
    agents = {
        seat: kumiki.load_agent("mcts", iterations=iterations, seed=index),
        1 - seat: kumiki.load_agent("kozo-greedy", seed=1000 + index),
    }
    while not state.over:
        state.play(agents[state.to_move].choose(state))  # type: ignore[index]
    winners = state.winners()
    falls = sum(1 for fall in state.falls if fall.player == seat)
    return seat, (1.0 / len(winners) if seat in winners else 0.0), state.scores(), falls


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.kozo_strength", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (its seed)")
    args = parser.parse_args()
    start = time.perf_counter()
    results = []
    indices = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(max_workers=args.workers) as pool, Progress(transient=True) as progress:
        task = progress.add_task("mcts vs kozo-greedy", total=args.games)
        futures = [pool.submit(play_one, i, args.iterations) for i in indices]
        for index, future in zip(indices, futures, strict=True):
            results.append(future.result())
            seat, share, scores, falls = results[-1]
            print(
                f"game {index}: mcts seat {seat}, share {share:g}, scores {scores}, mcts falls {falls}", file=sys.stderr
            )
            progress.advance(task)
    score = sum(share for _, share, _, _ in results)
    low, high = wilson(score, args.games)
    rate = score / args.games
    by_seat = ", ".join(f"seat {s}: {sum(x for seat, x, _, _ in results if seat == s):g}" for s in range(2))
    lead = sum(scores[seat] - scores[1 - seat] for seat, _, scores, _ in results)
    falls = sum(f for *_, f in results)
    print(
        f"kozo, 2 players: mcts iterations={args.iterations} vs kozo-greedy: "
        f"{score:g}/{args.games} = {rate:.1%} (95% CI {low:.1%}–{high:.1%}; {by_seat}); "
        f"mean lead {lead / args.games:+.2f} points; mcts falls {falls}; "
        f"bar {BAR:.0%}: {'met' if rate >= BAR else 'NOT met'} "
        f"[{time.perf_counter() - start:.0f} s]"
    )
    raise SystemExit(0 if rate >= BAR else 1)


if __name__ == "__main__":
    main()
