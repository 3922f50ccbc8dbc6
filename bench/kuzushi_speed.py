"""Kuzushi speed: random games through the public API, raw playouts, MCTS iterations, against the plain way.

Each figure is measured on one core (a single process) for a fixed wall-clock budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import kumiki
from bench.kuzushi_plain import PlainKuzushi

TARGET_GAMES_PER_SECOND = 3000.0
TARGET_MCTS_ITERATIONS_PER_SECOND = 2000.0


def rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` done per second, over about ``seconds`` of wall-clock time."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def public_api_games(seconds: float, seed: int = 1) -> float:
    """Complete random 2-player 6×6 games per second via ``legal_moves()`` + ``play()``."""
    game = kumiki.load_game("kuzushi", players=2, size=6)
    rng = random.Random(seed)
    choice = rng.choice

    def one_game() -> int:
        state = game.new_state()
        while not state.over:
            state.play(choice(state.legal_moves()))
        return 1

    return rate(one_game, seconds)


def plain_games(seconds: float, seed: int = 1) -> float:
    """The same games with the plain dict-based implementation."""
    rng = random.Random(seed)

    def one_game() -> int:
        state = PlainKuzushi()
        while state.to_move is not None:
            state.play(rng.choice(state.legal_moves()))
        return 1

    return rate(one_game, seconds)


def raw_playouts(seconds: float, seed: int = 1) -> float:
    """Random games per second through the state's ``playout`` hook (what MCTS uses)."""
    game = kumiki.load_game("kuzushi", players=2, size=6)
    rng = random.Random(seed)

    def one_game() -> int:
        game.new_state().playout(rng)
        return 1

    return rate(one_game, seconds)


def heuristic_playouts(seconds: float, seed: int = 1) -> float:
    """Games per second through the ε-greedy ``heuristic_playout`` hook (the MCTS default)."""
    game = kumiki.load_game("kuzushi", players=2, size=6)
    rng = random.Random(seed)

    def one_game() -> int:
        game.new_state().heuristic_playout(rng)
        return 1

    return rate(one_game, seconds)


def mcts_iterations(seconds: float, seed: int = 1, **options: object) -> float:
    """MCTS iterations per second from the opening of a 2-player 6×6 game (default options)."""
    game = kumiki.load_game("kuzushi", players=2, size=6)
    agent = kumiki.load_agent("mcts", iterations=2000, seed=seed, **options)

    def one_search() -> int:
        agent.choose(game.new_state())
        return agent.last_iterations

    return rate(one_search, seconds)


def run(seconds: float = 5.0) -> list[tuple[str, float, str]]:
    """Every figure as (what, value, comment)."""
    api = public_api_games(seconds)
    plain = plain_games(seconds)
    playouts = raw_playouts(seconds)
    heavy = heuristic_playouts(seconds)
    mcts = mcts_iterations(seconds)
    mcts_plain = mcts_iterations(seconds, playout="random")
    return [
        ("kuzushi random games/s, public API", api, f"target ≥ {TARGET_GAMES_PER_SECOND:,.0f}"),
        ("kuzushi random games/s, plain dict version", plain, f"bitboards are {api / plain:.1f}× faster"),
        ("kuzushi random playouts/s, playout hook", playouts, f"{playouts / api:.1f}× the public API"),
        ("kuzushi heuristic playouts/s (mcts default)", heavy, f"{heavy / playouts:.2f}× the uniform playout"),
        ("mcts iterations/s from the opening (default)", mcts, f"target ≥ {TARGET_MCTS_ITERATIONS_PER_SECOND:,.0f}"),
        ("mcts iterations/s, playout=random", mcts_plain, "uniform playouts"),
    ]
