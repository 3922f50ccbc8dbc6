"""Random playouts through each interop adapter, side by side with the same playouts through the native API.

    python -m bench.interop_speed [--seconds S]

Every loop plays whole games with uniformly random legal moves: the native one with ``legal_moves()`` and
``play()``; OpenSpiel with ``legal_actions()`` and ``apply_action()``; PettingZoo with ``env.last()`` (the
observation tensor and the action mask, built every step as a learner gets them) and ``env.step()``; Gymnasium with
``reset()``/``step()`` against a random opponent. Target (issue: interop): every adapter ≥ 50% of the native rate.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from kumiki import load_game

TARGET = 0.5
CASES: dict[str, dict[str, Any]] = {
    "kuzushi": {"players": 2, "size": 6},
    "blokus3d": {"players": 2, "structure": "A"},
    "kozo": {"players": 2, "rounds": 1},
    "towerbrix": {"players": 2, "rounds": 1, "attempts": 1, "max_edits": 12},
}


def rate(play_one: Callable[[int], int], seconds: float) -> float:
    """Moves per second of ``play_one(seed) -> moves`` over about ``seconds`` (whole games, at least three)."""
    began = time.perf_counter()
    moves = games = 0
    while games < 3 or time.perf_counter() - began < seconds:
        moves += play_one(games)
        games += 1
    return moves / (time.perf_counter() - began)


def native(name: str, options: dict[str, Any]) -> Callable[[int], int]:
    game = load_game(name, **options)

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.over:
            state.play(rng.choice(state.legal_moves()))
        return len(state.history)

    return play_one


def native_observed(name: str, options: dict[str, Any]) -> Callable[[int], int]:
    """The native loop that also builds the mover's observation and mask each move: what a learner scripting
    Kumiki directly would do, the plain way to compare the environments with."""
    game = load_game(name, **options)
    encoding = game.encoding

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.over:
            encoding.observe_and_mask(state, state.to_move or 0)
            state.play(rng.choice(state.legal_moves()))
        return len(state.history)

    return play_one


def openspiel(name: str, options: dict[str, Any]) -> Callable[[int], int]:
    from kumiki.interop.openspiel import load

    game = load(name, **options)

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        return moves

    return play_one


def pettingzoo(name: str, options: dict[str, Any]) -> Callable[[int], int]:
    from kumiki.interop.pettingzoo import env

    environment = env(name, **options)

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        environment.reset(seed=seed)
        moves = 0
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                moves += 1
            environment.step(action)
        return moves

    return play_one


def gymnasium(name: str, options: dict[str, Any]) -> Callable[[int], int]:
    from kumiki.interop.gymnasium import make

    environment = make(name, opponents=["random"], **options)

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        observation, _ = environment.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            observation, _, done, _, _ = environment.step(action)
        return len(environment.state.history)

    return play_one


ADAPTERS = {"openspiel": openspiel, "pettingzoo": pettingzoo, "gymnasium": gymnasium}


def run(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """Rows of (what, moves per second, comment) for every game and adapter."""
    rows = []
    for name, options in CASES.items():
        base = rate(native(name, options), seconds)
        rows.append((f"{name}: native random playout, moves/s", base, "legal_moves() + play()"))
        observed = rate(native_observed(name, options), seconds)
        rows.append((f"{name}: native + observation, moves/s", observed, "the same, observing every move"))
        for adapter, make_loop in ADAPTERS.items():
            try:
                value = rate(make_loop(name, options), seconds)
            except ImportError as error:
                rows.append((f"{name}: {adapter}", 0.0, f"not installed ({error})"))
                continue
            ok = "ok" if value >= TARGET * base else "BELOW TARGET"
            comment = f"{value / base:.0%} of native (target ≥ 50%: {ok})"
            if adapter != "openspiel":
                comment += f"; {value / observed:.0%} of native + observation"
            rows.append((f"{name}: {adapter}, moves/s", value, comment))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.interop_speed", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="wall-clock budget per figure (default 3)")
    args = parser.parse_args()
    for what, value, comment in run(args.seconds):
        print(f"  {what:<44} {value:>10,.0f}   {comment}")


if __name__ == "__main__":
    main()
