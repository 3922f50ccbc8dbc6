"""The browser's Hint button: a seat's suggested move and why, in one line, worked out in the agents' pool.

Each game's hint is its own planner's (Blokus 3D: ``kumiki.games.blokus3d.ai.hints``; Kozo:
``kumiki.games.kozo.ai.plan_round``; TowerBrix: ``kumiki.games.towerbrix.hint.build_hint``, which reads the
seat's own view only). The position is replayed from plain data (as ``choose_move`` does), so the server's event
loop never waits for the search.
"""

from __future__ import annotations

from typing import Any, cast

from kumiki import State
from kumiki.server.agents import replay

HINT_GAMES = ("blokus3d", "kozo", "towerbrix")  # the games with a Hint button


def hint_for(
    game: str, options: dict[str, Any], seed: int | None, moves: list[str], seats: list[int | None], seat: int
) -> tuple[str | None, str]:
    """The move (notation, or None) suggested to ``seat`` after ``moves``, and one line saying why."""
    state = replay(game, options, seed, moves, seats)
    if state.over or seat not in state.actors:
        return None, "no move to suggest: it is not your turn"
    if seat != state.to_move:
        state = state.acting(seat)
    if game == "blokus3d":
        return _blokus3d(state)
    if game == "kozo":
        return _kozo(state)
    if game == "towerbrix":
        return _towerbrix(state)
    raise ValueError(f"{game} has no hints")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def _blokus3d(state: State) -> tuple[str | None, str]:
    from kumiki.games.blokus3d.ai import gain_words, hints
    from kumiki.games.blokus3d.rules import Blokus3DState

    blokus = cast(Blokus3DState, state)
    found = hints(blokus, 1)
    colour = blokus.colour_to_move
    if not found or colour is None:
        return None, "no move to suggest: there is no legal move"
    best = found[0]
    why = gain_words(blokus, best)
    total = len(blokus.legal_moves())
    return str(best.move), f"{best.move}: the best gain at once of {_plural(total, 'move')}, {best.value:+d} ({why})"


def _kozo(state: State) -> tuple[str | None, str]:
    from kumiki.games.kozo.ai import hint_words
    from kumiki.games.kozo.rules import KozoState

    move, why = hint_words(cast(KozoState, state))
    return (None if move is None else str(move)), why


def _towerbrix(state: State) -> tuple[str | None, str]:
    from kumiki.games.towerbrix.hint import build_hint

    found = build_hint(state)  # the seat's own view only: never another seat's cards
    return found.move, found.line()
