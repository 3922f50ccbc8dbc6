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


def gain_words(state: Blokus3DState, hint: Hint) -> str:
    """What ``hint`` does, in words ("blue +3 on top, +1 for the piece; covers 2 of yellow's"): one wording for the
    terminal's list and the browser's Hint."""
    from kumiki.games.blokus3d.rules import COLOUR_NAMES

    def name(c: int) -> str:
        return COLOUR_NAMES[c] if c < len(COLOUR_NAMES) else f"colour {c}"

    colour = state.colour_to_move
    if colour is None:
        return ""
    words = f"{name(colour)} {hint.gains[colour] - 1:+d} on top, +1 for the piece"
    covered = [
        f"{-d} of {name(c)}'s{' (yours)' if state.game.player_of(c) == state.to_move else ''}"
        for c, d in enumerate(hint.gains)
        if c != colour and d < 0
    ]
    return words + ("; covers " + ", ".join(covered) if covered else "")
