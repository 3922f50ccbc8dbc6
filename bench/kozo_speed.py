"""Kozo speed on a 10-piece tower: ``legal_moves()``, and ``play()`` with both judge calls (the verdict cache
emptied before each call, so every verdict is solved), as the median over the tower's legal moves.

    python -m bench.kozo_speed [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import kumiki
from bench.kuzushi_speed import rate

TARGET_MS = 5.0
TOWER_SEED = 6
PIECES = 10


def ten_piece_tower(seed: int = TOWER_SEED) -> kumiki.State:
    """A fixed standing tower of 10 pieces (and 10 balance cubes) from random moves that keep it standing."""
    game = kumiki.load_game("kozo", players=2)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while len(state.placed) < PIECES:  # type: ignore[attr-defined]
        moves = state.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            after = state.copy()
            after.play(move)
            if not after.falls and after.round == 0:
                state = after
                break
        else:
            raise RuntimeError("no standing move: pick another seed")
    return state


def legal_moves_ms(state: kumiki.State, seconds: float) -> float:
    return 1000.0 / rate(lambda: len(state.legal_moves()) and 1, seconds)


def play_ms(state: kumiki.State, seconds: float, cold: bool = True) -> tuple[float, float, float, int, int]:
    """Median ms of ``play()`` over the tower's legal moves (cycled until ``seconds`` are spent), wall-clock and
    CPU time of this process (the fair figure on a machine shared with other work), CPU time over the moves that
    stand (both judge calls), how many moves, and how many of them make the tower fall."""
    moves = state.legal_moves()
    cache = state.game.verdicts  # type: ignore[attr-defined]
    times: list[float] = []
    cpu: list[float] = []
    standing_cpu: list[float] = []
    falls = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(times) < len(moves):
        move = moves[len(times) % len(moves)]
        after = state.copy()
        if cold:
            cache.clear()
        start = time.perf_counter()
        start_cpu = time.process_time()
        after.play(move)
        cpu.append(time.process_time() - start_cpu)
        times.append(time.perf_counter() - start)
        if not after.falls:
            standing_cpu.append(cpu[-1])
        if len(times) <= len(moves):
            falls += bool(after.falls)
    both = 1000.0 * statistics.median(standing_cpu) if standing_cpu else float("nan")
    return 1000.0 * statistics.median(times), 1000.0 * statistics.median(cpu), both, len(moves), falls


def run(seconds: float = 5.0) -> list[tuple[str, float, str]]:
    state = ten_piece_tower()
    count = len(state.legal_moves())
    cold, cold_cpu, both, moves, falls = play_ms(state, seconds)
    warm, *_ = play_ms(state, seconds / 2, cold=False)
    return [
        (f"kozo legal moves on a 10-piece tower ({count}), ms", legal_moves_ms(state, seconds), f"≤ {TARGET_MS:g} ms"),
        (
            f"kozo play() median over its {moves} moves ({falls} fall), ms",
            cold,
            f"≤ {TARGET_MS:g} ms wall; cache emptied, every verdict solved",
        ),
        ("kozo play() the same, CPU time of the process, ms", cold_cpu, "what a loaded machine takes from it"),
        ("kozo play() CPU time, the moves that stand, ms", both, "both judge calls, no fall"),
        ("kozo play() the same, verdicts cached, ms", warm, "the tower met again (agents)"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.kozo_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for what, value, note in run(args.seconds):
        print(f"{what:<56} {value:>10,.3f}  {note}")


if __name__ == "__main__":
    main()
