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
    _require_game(game)
    if isinstance(move, str):
        move = game.parse_move(move)
    return game.encoding.encode(move)


def decode(game: Game, action: int, state: State | None = None) -> Move:
    """The move of ``action`` in ``game``. Kozo's actions are drops whose levels follow from the tower: pass the
    ``state`` they are played in (``game.encoding.needs_state``; without it, the drop on the empty ring)."""
    _require_game(game)
    if state is not None and not (isinstance(state, State) and state.game.name == game.name):
        # Kozo reads the position: another game's state (or a text) failed deep inside as an AttributeError
        # ("'KuzushiState' object has no attribute 'resting_level'"), and the other games ignored it
        what = f"a {state.game.name} state" if isinstance(state, State) else f"a {type(state).__name__}"
        raise ValueError(f"decode reads an action of {game.name} in a {game.name} state (or None), not in {what}")
    return game.encoding.decode(action, state)


MAX_ACTIONS = 2**24
"""The most actions an adapter offers (16,777,216). The adapters give every seat a mask of every action (and
OpenSpiel's algorithms keep arrays over them), so a game beyond it (TowerBrix with ``brick="100x1x1"``: 245 million
actions, 1.2 GB an environment; 5.6 billion with the pink deck on the 0.125 grid, more than memory or OpenSpiel's
action numbers hold) is refused in one line instead of running out of memory."""


def check_action_count(game: Game) -> None:
    """ValueError when ``game`` has more actions than an adapter offers (``MAX_ACTIONS``)."""
    if game.num_actions > MAX_ACTIONS:
        raise ValueError(
            f"{game!r} has {game.num_actions:,} actions, more than the adapters offer ({MAX_ACTIONS:,}: a mask of "
            "every action is kept per seat); choose smaller bricks or a coarser grid"
        )


def _require_game(game: object) -> None:
    """ValueError for a game given by name: the adapters take names (``pettingzoo.env("kuzushi")``), so a name is the
    likely slip here, and it failed deep inside as an AttributeError. The encoding depends on the game's options."""
    if not isinstance(game, Game):
        hint = f"kumiki.load_game({game!r}, ...)" if isinstance(game, str) else "kumiki.load_game(name, ...)"
        raise ValueError(f"encode and decode take a Game with its options ({hint}), not a {type(game).__name__}")


__all__ = ["MAX_ACTIONS", "check_action_count", "decode", "encode"]
