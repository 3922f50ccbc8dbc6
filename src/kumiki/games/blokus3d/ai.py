"""Blokus 3D's move ranking for hints (the terminal's ``hint`` and the browser's Hint button): each legal move by
what it does for the scores at once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kumiki.games.blokus3d.moves import Blokus3DMove
    from kumiki.games.blokus3d.rules import Blokus3DState

HINTS = 5


@dataclass(frozen=True)
class Hint:
    """A move and what it does for the scores at once (one ply)."""

    move: Blokus3DMove
    value: int  # the mover's score change minus the other players' (the margin gained)
    gains: list[int]  # each colour's score change


def hints(state: Blokus3DState, count: int = HINTS) -> list[Hint]:
    """The best ``count`` moves by one ply: the mover's score gain plus what the other players lose.

    Ties go to bigger pieces (the small ones fit in later), then to the order of ``legal_moves()``."""
    if state.over or state.to_move is None:
        return []
    g = state.game
    player = state.to_move
    before = state.colour_scores()
    ranked = []
    for index, move in enumerate(state.legal_moves()):
        after = state.copy()
        after.play(move)
        gains = [a - b for a, b in zip(after.colour_scores(), before, strict=True)]
        own = sum(d for c, d in enumerate(gains) if g.player_of(c) == player)
        others = sum(d for c, d in enumerate(gains) if g.player_of(c) != player)
        hint = Hint(move, own - others, gains)
        ranked.append((-hint.value, -own, -len(move.cells), index, hint))
    ranked.sort(key=lambda item: item[:4])
    return [item[4] for item in ranked[:count]]
