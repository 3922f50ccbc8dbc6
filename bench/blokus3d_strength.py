"""Strength in Blokus 3D: MCTS (1,000 iterations a move) in one seat against three greedy players, 4 players on
structure A, the MCTS seat rotating through 0–3.

    python -m bench.blokus3d_strength [--games 40] [--iterations 1000] [--workers 2]

A random player would win a quarter of the games; the bar is half. A shared win counts its share.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from rich.progress import Progress

import kumiki
from bench.strength import wilson

BAR = 0.50


def play_one(index: int, iterations: int, structure: str) -> tuple[int, float, list[float]]:
    """One game with MCTS in seat ``index % 4``: (its seat, its share of the win, the scores)."""
    game = kumiki.load_game("blokus3d", players=4, structure=structure)
    state = game.new_state(seed=index)
    seat = index % 4
    agents = {p: kumiki.load_agent("greedy", seed=1000 * index + p) for p in range(4)}
    agents[seat] = kumiki.load_agent("mcts", iterations=iterations, seed=index)
    while not state.over:
        state.play(agents[state.to_move].choose(state))  # type: ignore[index]
    winners = state.winners()
    return seat, (1.0 / len(winners) if seat in winners else 0.0), state.scores()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.blokus3d_strength", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--structure", default="A")
    args = parser.parse_args()
    start = time.perf_counter()
    results = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool, Progress(transient=True) as progress:
        task = progress.add_task("mcts vs 3 greedy", total=args.games)
        futures = [pool.submit(play_one, i, args.iterations, args.structure) for i in range(args.games)]
        for future in futures:
            results.append(future.result())
            progress.advance(task)
    score = sum(share for _, share, _ in results)
    low, high = wilson(score, args.games)
    rate = score / args.games
    by_seat = ", ".join(f"seat {s}: {sum(x for seat, x, _ in results if seat == s):g}" for s in range(4))
    margin = sum(scores[seat] - max(v for i, v in enumerate(scores) if i != seat) for seat, _, scores in results)
    print(
        f"blokus3d, structure {args.structure}: mcts iterations={args.iterations} vs 3 greedy: "
        f"{score:g}/{args.games} = {rate:.1%} (95% CI {low:.1%}–{high:.1%}; {by_seat}); "
        f"mean lead over the best other {margin / args.games:+.2f}; "
        f"bar {BAR:.0%}: {'met' if rate >= BAR else 'NOT met'} "
        f"[{time.perf_counter() - start:.0f} s]"
    )
    raise SystemExit(0 if rate >= BAR else 1)


if __name__ == "__main__":
    main()
