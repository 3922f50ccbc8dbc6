"""Kozo speed on a 10-piece tower: ``legal_moves()``; ``play()`` with both judge calls (the verdict cache
emptied before each call, so every verdict is judged afresh), as the median over the tower's legal moves, beside
the plain LP's way (every verdict an LP on contacts found afresh, no certificate); and the ``mcts`` agent's
iterations per second of CPU time from that tower, both ways, beside the figure of the code before the fast judge.

    python -m bench.kozo_speed [--seconds 5] [--iterations 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import kumiki
from bench.kuzushi_speed import rate
from kumiki.games.kozo.rules import VerdictCache

TARGET_MS = 1.0
TOWER_SEED = 6
PIECES = 10
ITERATIONS = 300
# `mcts` iterations/s from the bench tower (300 iterations, seed 1, CPU time) at commit b62348b, before the
# certificates, the incremental contacts and the leaner Kozo playout: the "today's" figure (#18).
BEFORE = 23.6


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


def plain(state: kumiki.State) -> kumiki.State:
    """The same position in a game whose judge is the plain LP (the reference the certificates are checked
    against); the state keeps no prepared tower, so every verdict starts from nothing."""
    state = state.copy()
    state.game = kumiki.load_game("kozo", **state.game.options)  # type: ignore[assignment]
    state.game.verdicts = VerdictCache(shortcuts=False)  # type: ignore[attr-defined]
    state.setup = None  # type: ignore[attr-defined]
    return state


def mcts_rate(state: kumiki.State, iterations: int) -> float:
    """Iterations per second of CPU time of ``mcts`` (seed 1) choosing a move from ``state``, caches empty."""
    state = state.copy()
    state.game.verdicts.clear()  # type: ignore[attr-defined]
    agent = kumiki.load_agent("mcts", iterations=iterations, seed=1)
    began = time.process_time()
    agent.choose(state)
    return iterations / (time.process_time() - began)


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


def run(seconds: float = 5.0, iterations: int = ITERATIONS) -> list[tuple[str, float, str]]:
    state = ten_piece_tower()
    reference = plain(state)
    count = len(state.legal_moves())
    cold, cold_cpu, both, moves, falls = play_ms(state, seconds)
    plain_cold, *_ = play_ms(reference, seconds)
    warm, *_ = play_ms(state, seconds / 2, cold=False)
    fast = mcts_rate(state, iterations)
    slow = mcts_rate(reference, iterations)
    return [
        (f"kozo legal moves on a 10-piece tower ({count}), ms", legal_moves_ms(state, seconds), "≤ 5 ms"),
        (
            f"kozo play() median over its {moves} moves ({falls} fall), ms",
            cold,
            f"≤ {TARGET_MS:g} ms wall; cache emptied, every verdict judged",
        ),
        ("kozo play() the same, the plain LP judge, ms", plain_cold, f"{plain_cold / cold:.1f}× the time"),
        ("kozo play() the same, CPU time of the process, ms", cold_cpu, "what a loaded machine takes from it"),
        ("kozo play() CPU time, the moves that stand, ms", both, "both judge calls, no fall"),
        ("kozo play() the same, verdicts cached, ms", warm, "the tower met again (agents)"),
        (
            f"kozo mcts iterations/s from that tower ({iterations})",
            fast,
            f"{fast / BEFORE:.1f}× the {BEFORE:g}/s before the fast judge (≥ 10×)",
        ),
        ("kozo mcts the same, the plain LP judge, iterations/s", slow, f"the fast judge: {fast / slow:.1f}×"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.kozo_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    args = parser.parse_args()
    for what, value, note in run(args.seconds, args.iterations):
        print(f"{what:<56} {value:>10,.3f}  {note}")


if __name__ == "__main__":
    main()
