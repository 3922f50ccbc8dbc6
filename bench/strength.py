"""Strength: MCTS (1,000 iterations a move) against random and greedy in 2-player Kuzushi, seats alternating.

    python -m bench.strength [--games 100] [--iterations 1000] [--workers 2]

Prints each match's score (a shared win counts ½) with a 95% Wilson interval, and whether it meets the
issue's bar (≥ 95% against random, ≥ 80% against greedy). Games are independent, so they run in parallel.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from rich.progress import Progress

import kumiki

BARS = {"random": 0.95, "greedy": 0.80}


def play_one(opponent: str, index: int, iterations: int, mcts_options: dict[str, object]) -> tuple[int, float]:
    """One game; MCTS sits in seat ``index % 2``. Returns (its seat, its share of the win)."""
    game = kumiki.load_game("kuzushi", players=2, size=6)
    state = game.new_state(seed=index)
    seat = index % 2
    agents = {
        seat: kumiki.load_agent("mcts", iterations=iterations, seed=index, **mcts_options),
        1 - seat: kumiki.load_agent(opponent, seed=10_000 + index),
    }
    while not state.over:
        state.play(agents[state.to_move].choose(state))  # type: ignore[index]
    winners = state.winners()
    return seat, (1.0 / len(winners) if seat in winners else 0.0)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def match(opponent: str, games: int, iterations: int, workers: int, options: dict[str, object]) -> dict[str, float]:
    start = time.perf_counter()
    results: list[tuple[int, float]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool, Progress(transient=True) as progress:
        task = progress.add_task(f"mcts vs {opponent}", total=games)
        futures = [pool.submit(play_one, opponent, i, iterations, options) for i in range(games)]
        for future in futures:
            results.append(future.result())
            progress.advance(task)
    score = sum(share for _, share in results)
    low, high = wilson(score, games)
    return {
        "score": score,
        "games": games,
        "rate": score / games,
        "low": low,
        "high": high,
        "as_seat_0": sum(s for seat, s in results if seat == 0),
        "as_seat_1": sum(s for seat, s in results if seat == 1),
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--against", nargs="*", default=list(BARS), choices=list(BARS))
    parser.add_argument("--option", action="append", default=[], help="extra mcts option name=value")
    args = parser.parse_args()
    options = {}
    for text in args.option:
        name, _, value = text.partition("=")
        options[name] = kumiki.core.options.parse_value(value)
    print(f"mcts iterations={args.iterations} {options or ''} vs each opponent, {args.games} games, seats alternating")
    failed = False
    for opponent in args.against:
        r = match(opponent, args.games, args.iterations, args.workers, options)
        ok = r["rate"] >= BARS[opponent]
        failed |= not ok
        print(
            f"  vs {opponent:<7} {r['score']:>5g}/{r['games']} = {r['rate']:.1%} "
            f"(95% CI {r['low']:.1%}–{r['high']:.1%}; as seat 0: {r['as_seat_0']:g}, as seat 1: {r['as_seat_1']:g}) "
            f"bar {BARS[opponent]:.0%}: {'met' if ok else 'NOT met'}  [{r['seconds']:.0f} s]"
        )
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
