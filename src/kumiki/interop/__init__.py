"""Kumiki's games for learning libraries: OpenSpiel, PettingZoo and Gymnasium adapters (optional extras).

``encode`` and ``decode`` are the fixed action encoding every adapter shares (each game defines it beside its rules,
``game.encoding``); the adapters live in ``kumiki.interop.openspiel``, ``.pettingzoo`` and ``.gymnasium`` and import
their library only when used.
"""

from __future__ import annotations

from kumiki.core.game import Game, Move, State


def encode(game: Game, move: Move | str) -> int:
    """The action of ``move`` (or of its notation) in ``game``: an int in ``0 … game.num_actions-1``.

    ValueError when the move has no action (e.g. a TowerBrix corner beyond the encoded window)."""
    if isinstance(move, str):
        move = game.parse_move(move)
    return game.encoding.encode(move)


def decode(game: Game, action: int, state: State | None = None) -> Move:
    """The move of ``action`` in ``game``. Kozo's actions are drops whose levels follow from the tower: pass the
    ``state`` they are played in (``game.encoding.needs_state``; without it, the drop on the empty ring)."""
    return game.encoding.decode(action, state)


__all__ = ["decode", "encode"]
