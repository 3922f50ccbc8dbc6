"""Blokus 3D speed: random 4-player games on structure A through the public API, the legal moves of a fixed
mid-game position, playouts and MCTS iterations — beside the plain implementation where there is one."""

from __future__ import annotations

import random
import time

import kumiki
from bench.kuzushi_speed import rate

TARGET_GAMES_PER_SECOND = 100.0
TARGET_LEGAL_MOVES_MS = 1.0
MIDGAME_SEED = 5
MIDGAME_PLIES = 12


def public_api_games(seconds: float, seed: int = 1) -> float:
    """Complete random 4-player games per second on structure A via ``legal_moves()`` + ``play()``."""
    game = kumiki.load_game("blokus3d", players=4, structure="A")
    choice = random.Random(seed).choice

    def one_game() -> int:
        state = game.new_state()
        while not state.over:
            state.play(choice(state.legal_moves()))
        return 1

    return rate(one_game, seconds)


def midgame_position() -> kumiki.State:
    """A fixed position: 12 random plies into a 4-player game on structure A."""
    game = kumiki.load_game("blokus3d", players=4, structure="A")
    state = game.new_state()
    rng = random.Random(MIDGAME_SEED)
    for _ in range(MIDGAME_PLIES):
        state.play(rng.choice(state.legal_moves()))
    return state


def legal_moves_ms(seconds: float) -> tuple[float, int]:
    """Milliseconds to find every legal move of the mid-game position from scratch (and how many there are).

    ``legal_moves()`` itself returns the list found when the turn began; this times that search.
    """
    state = midgame_position()
    colour = state.colour_to_move
    count = len(state._generate(colour))  # type: ignore[attr-defined]
    calls = rate(lambda: len(state._generate(colour)) and 1, seconds)  # type: ignore[attr-defined]
    return 1000.0 / calls, count


def plain_legal_moves_ms(seconds: float) -> float:
    """The same count with the plain set-based implementation, replaying the same moves."""
    from bench.blokus3d_plain import PlainBlokus3D

    state = midgame_position()
    plain = PlainBlokus3D(players=4, structure="A")
    for move in state.history:
        plain.play(str(move))

    def search() -> int:
        plain._cache = None  # the plain version caches its list: time the search itself
        return len(plain.legal_moves()) and 1

    return 1000.0 / rate(search, seconds)


def playouts(seconds: float, hook: str, seed: int = 1) -> float:
    game = kumiki.load_game("blokus3d", players=4, structure="A")
    rng = random.Random(seed)
    return rate(lambda: getattr(game.new_state(), hook)(rng) or 1, seconds)


def mcts_iterations(seconds: float, seed: int = 1) -> float:
    game = kumiki.load_game("blokus3d", players=4, structure="A")
    agent = kumiki.load_agent("mcts", iterations=300, seed=seed)

    def one_search() -> int:
        agent.choose(game.new_state())
        return agent.last_iterations

    return rate(one_search, seconds)


def run(seconds: float = 5.0) -> list[tuple[str, float, str]]:
    games = public_api_games(seconds)
    ms, count = legal_moves_ms(seconds)
    rows = [
        ("blokus3d random 4-player games/s (A), public API", games, f"target ≥ {TARGET_GAMES_PER_SECOND:,.0f}"),
        (f"blokus3d mid-game legal moves ({count}), ms", ms, f"target ≤ {TARGET_LEGAL_MOVES_MS:g} ms"),
    ]
    try:
        plain = plain_legal_moves_ms(min(seconds, 2.0))
        rows.append(("blokus3d the same, plain set version, ms", plain, f"bitboards are {plain / ms:.0f}× faster"))
    except ImportError:
        pass
    rows += [
        ("blokus3d random playouts/s", playouts(seconds, "playout"), "hook: no move lists"),
        ("blokus3d size-first playouts/s (mcts default)", playouts(seconds, "heuristic_playout"), ""),
        ("blokus3d mcts iterations/s from the opening", mcts_iterations(seconds), "4 players, structure A"),
    ]
    return rows


if __name__ == "__main__":
    start = time.perf_counter()
    for what, value, note in run(2.0):
        print(f"{what:<52} {value:>10,.2f}  {note}")
