"""Agent seats: the levels the lobby offers, and the worker process pool they think in.

An agent's move is computed in another process from the game's name, options, seed and moves (plain data that
pickles cheaply), so the server's event loop never waits for a search.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from itertools import zip_longest
from typing import Any

from kumiki import State, load_agent, load_game
from kumiki.agents.levels import COMMON_LEVELS, AgentSpec
from kumiki.agents.levels import GAME_LEVELS as CALIBRATED
from kumiki.core.processes import exit_with

# The lobby's levels and the agent behind each: the calibrated levels of each game (kumiki.agents.levels, measured
# by the ladder studies; docs/agents.md), and "random" for trying the app out and for tests.
LEVELS: dict[str, AgentSpec] = {**COMMON_LEVELS, "random": ("random", {})}
GAME_LEVELS: dict[str, dict[str, AgentSpec]] = {game: dict(levels) for game, levels in CALIBRATED.items()}
# OpenSpiel's MCTS (kumiki[openspiel]) is offered as a level of its own where OpenSpiel is installed: a bot from
# another library at the table. Its simulations per game keep a move within about 2 s on this machine (Kozo and
# TowerBrix roll out with the physics judge, a simulation costing some 0.06 s and 0.35 s).
if importlib.util.find_spec("pyspiel") is not None:
    LEVELS["openspiel"] = ("openspiel:mcts", {"simulations": 300})
    for _game, _simulations in (("blokus3d", 100), ("kozo", 20), ("towerbrix", 5)):
        GAME_LEVELS.setdefault(_game, {})["openspiel"] = ("openspiel:mcts", {"simulations": _simulations})
# Plain agents a seat may name directly ({"kind": "agent", "agent": "random"}): fast opponents for tests.
PLAIN_AGENTS: dict[str, AgentSpec] = {"random": ("random", {}), "greedy": ("greedy", {})}
LEVEL_NAMES = {
    "easy": "easy computer",
    "medium": "medium computer",
    "hard": "hard computer",
    "random": "random computer",
    "openspiel": "OpenSpiel MCTS computer",
}
MAX_WORKERS = 2


def level_agent(game: str, level: str) -> AgentSpec:
    """The agent (name and options) behind ``level`` in ``game``: the game's own setting, else the common one."""
    spec = GAME_LEVELS.get(game, {}).get(level) or LEVELS.get(level) or PLAIN_AGENTS.get(level)
    if spec is None:  # a level stored by an installation that had it (OpenSpiel's, say), or by another version
        raise ValueError(f"this server has no computer player {level!r}")
    return spec


def positions(
    game: str, options: dict[str, Any], seed: int | None, moves: Iterable[str], seats: Iterable[int | None] = ()
) -> Iterator[State]:
    """The position before the first of ``moves`` and after each (one State, moved on in place), replayed from the
    seed and options. Each move is played by its seat where one is given (it matters where every seat may act at
    once, TowerBrix with free turns; in turn-based play the stored seat is the seat to move)."""
    state = load_game(game, **options).new_state(seed=seed)
    yield state
    for move, seat in zip_longest(moves, seats):
        if move is None:
            break
        state.play(move, player=seat)
        yield state


def replay(
    game: str, options: dict[str, Any], seed: int | None, moves: Iterable[str], seats: Iterable[int | None] = ()
) -> State:
    """The position after ``moves`` (see ``positions``)."""
    *_, state = positions(game, options, seed, moves, seats)
    return state


def choose_move(
    game: str,
    options: dict[str, Any],
    seed: int | None,
    moves: list[str],
    level: str,
    seats: list[int | None] | None = None,
    seat: int | None = None,
) -> str:
    """The move the agent of ``level`` plays after ``moves`` (runs in a worker process), for ``seat`` (default:
    the seat to move; where several may act at once, any of them: ``State.acting``)."""
    state = replay(game, options, seed, moves, seats or ())
    if seat is not None and seat != state.to_move:
        state = state.acting(seat)
    name, agent_options = level_agent(game, level)
    if name == "random" and "seed" not in agent_options:
        # the same position, the same move: the random seat of a test, a replay or a bug report plays alike each time
        agent_options = {**agent_options, "seed": ((seed or 0) * 1_000_003 + len(moves) * 31 + (seat or 0)) % 2**63}
    return str(load_agent(name, **agent_options).choose(state))


def make_pool(workers: int = MAX_WORKERS) -> ProcessPoolExecutor:
    """A pool of fresh (spawned) interpreters: never a fork of the threaded server process."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(workers, context, initializer=exit_with, initargs=(os.getpid(),))
