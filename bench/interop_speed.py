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

from kumiki import load_game

TARGET = 0.5
CASES: dict[str, dict[str, Any]] = {
    "kuzushi": {"players": 2, "size": 6},
    "blokus3d": {"players": 2, "structure": "A"},
    "kozo": {"players": 2, "rounds": 1},
    "towerbrix": {"players": 2, "rounds": 1, "attempts": 1, "max_edits": 12},
}


def rates(loops: dict[str, Callable[[int], int]], seconds: float, slice_seconds: float = 0.2) -> dict[str, float]:
    """Moves per second of each ``play_one(seed) -> moves`` loop over about ``seconds`` each, measured in turns of
    ``slice_seconds`` (whole games) so that a neighbour's load on a shared machine slows every loop alike and the
    ratios stay fair."""
    moves = dict.fromkeys(loops, 0)
    spent = dict.fromkeys(loops, 0.0)
    games = dict.fromkeys(loops, 0)
    while min(spent.values()) < seconds or min(games.values()) < 3:
        for name, play_one in loops.items():
            began = time.perf_counter()
            while True:
                moves[name] += play_one(games[name])
                games[name] += 1
                if time.perf_counter() - began >= slice_seconds:
                    break
            spent[name] += time.perf_counter() - began
    return {name: moves[name] / spent[name] for name in loops}


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
                action = rng.choice(observation["action_mask"].nonzero()[0].tolist())
                moves += 1
            environment.step(action)
        return moves

    return play_one


def gymnasium(name: str, options: dict[str, Any]) -> Callable[[int], int]:
    from kumiki.interop.gymnasium import make

    environment = make(name, opponents=["random"], **options)

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        observation, _ = environment.reset(seed=seed if seed == 0 else None)  # seeded once, as training runs do
        done = False
        while not done:
            action = rng.choice(observation["action_mask"].nonzero()[0].tolist())
            observation, _, done, _, _ = environment.step(action)
        return len(environment.state.history)

    return play_one


ADAPTERS = {"openspiel": openspiel, "pettingzoo": pettingzoo, "gymnasium": gymnasium}


def run(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """Rows of (what, moves per second, comment) for every game and adapter."""
    rows = []
    for name, options in CASES.items():
        loops = {"native": native(name, options), "observed": native_observed(name, options)}
        missing: dict[str, str] = {}
        for adapter, make_loop in ADAPTERS.items():
            try:
                loops[adapter] = make_loop(name, options)
            except ImportError as error:
                missing[adapter] = str(error)
        measured = rates(loops, seconds)
        base, observed = measured["native"], measured["observed"]
        rows.append((f"{name}: native random playout, moves/s", base, "legal_moves() + play()"))
        rows.append((f"{name}: native + observation, moves/s", observed, "the same, observing every move"))
        for adapter in ADAPTERS:
            if adapter in missing:
                rows.append((f"{name}: {adapter}", 0.0, f"not installed ({missing[adapter]})"))
                continue
            value = measured[adapter]
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
