"""Where agents find a game's AI hooks, so that a game's rules need not know its AI.

A hook is a fast path or a policy an agent may use if a game offers it: ``playout(rng)``, ``heuristic_playout(rng)``
(a game-specific, still random, playout) and ``move_values(moves)`` (one-ply values, the MCTS prior). A game offers
a hook as a method of its state (a playout that walks the rules' own bitboards belongs there), or as a function
``name(state, ...)`` of its AI module ``kumiki.games.<name>.ai``, found here by the game's name: the rules never
import it (``tests/test_layers.py`` checks).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import Any

from kumiki.core.game import State

_AI_MODULES: dict[str, ModuleType | None] = {}


def game_ai(game: str) -> ModuleType | None:
    """The AI module of ``game`` (``kumiki.games.<game>.ai``), or None if it has none."""
    if game not in _AI_MODULES:
        name = f"kumiki.games.{game}.ai"
        try:
            _AI_MODULES[game] = import_module(name)
        except ModuleNotFoundError as error:
            if error.name not in (name, f"kumiki.games.{game}"):
                raise
            _AI_MODULES[game] = None
    return _AI_MODULES[game]


def hook(state: State, name: str) -> Callable[..., Any] | None:
    """The hook ``name`` for states like ``state``, as a function taking the state first (``hook(state,
    "heuristic_playout")(rollout, rng)``), or None if the game offers none."""
    method = getattr(type(state), name, None)
    if callable(method):
        return method  # type: ignore[no-any-return]
    module = game_ai(state.game.name)
    function = getattr(module, name, None) if module is not None else None
    return function if callable(function) else None


def has_hook(state: State, name: str) -> bool:
    """Whether the game of ``state`` offers the hook ``name``."""
    return hook(state, name) is not None
