"""A plain-text picture of a Blokus 3D position: the height map with each column's top colour."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kumiki.games.blokus3d.structures import SIZE

if TYPE_CHECKING:
    from kumiki.games.blokus3d.rules import Blokus3DState

LETTERS = "BYRG"  # blue, yellow, red, green: colours 0, 1, 2, 3


def render_plain(state: Blokus3DState) -> str:
    """Rows from y = 9 (north) down; a cell is its top colour's letter and its height (``.`` outside, ``_0`` empty)."""
    g = state.game
    rows = []
    for y in range(SIZE - 1, -1, -1):
        cells = []
        for x in range(SIZE):
            if g.limits[x][y] == 0:
                cells.append(" . ")
                continue
            top = state.top_colour(x, y)
            mark = "_" if top is None else LETTERS[top]
            cells.append(f"{mark}{state.height(x, y)}".ljust(3))
        rows.append((f"{y} " + " ".join(cells)).rstrip())
    rows.append(("  " + " ".join(f" {x} " for x in range(SIZE))).rstrip())
    scores = ", ".join(f"P{i} {s:g}" for i, s in enumerate(state.scores()))
    status = "over" if state.over else f"colour {state.colour_to_move} ({LETTERS[state.colour_to_move or 0]}) to move"
    rows.append(f"scores {scores}; {status}")
    return "\n".join(rows)
