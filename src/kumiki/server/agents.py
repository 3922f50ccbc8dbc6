"""Agent seats: the levels the lobby offers, and the worker process pool they think in.

An agent's move is computed in another process from the game's name, options, seed and moves (plain data that
pickles cheaply), so the server's event loop never waits for a search.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kumiki import State, load_agent, load_game

# The lobby's levels and the agent behind each (docs/server.md lists them).
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {}),
    "medium": ("mcts", {"iterations": 500}),
    "hard": ("mcts", {"seconds": 3.0}),
    "random": ("random", {}),  # a uniformly random legal move: for trying the app out, and for tests
}
# Plain agents a seat may name directly ({"kind": "agent", "agent": "random"}): fast opponents for tests.
PLAIN_AGENTS: dict[str, tuple[str, dict[str, Any]]] = {"random": ("random", {}), "greedy": ("greedy", {})}
LEVEL_NAMES = {
    "easy": "easy computer",
    "medium": "medium computer",
    "hard": "hard computer",
    "random": "random computer",
}
MAX_WORKERS = 2


def replay(game: str, options: dict[str, Any], seed: int | None, moves: Iterable[str]) -> State:
    """The position after ``moves``, replayed from the seed and options."""
    state = load_game(game, **options).new_state(seed=seed)
    for move in moves:
        state.play(move)
    return state


def choose_move(game: str, options: dict[str, Any], seed: int | None, moves: list[str], level: str) -> str:
    """The move the agent of ``level`` plays after ``moves`` (runs in a worker process)."""
    state = replay(game, options, seed, moves)
    name, agent_options = LEVELS.get(level) or PLAIN_AGENTS[level]
    return str(load_agent(name, **agent_options).choose(state))


def make_pool(workers: int = MAX_WORKERS) -> ProcessPoolExecutor:
    """A pool of fresh (spawned) interpreters: never a fork of the threaded server process."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
