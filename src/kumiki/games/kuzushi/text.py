"""A plain-text picture of a Kuzushi position (the terminal UI draws a coloured one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kumiki.games.kuzushi.rules import KuzushiState

CITY_MARK = "@"


def render_plain(state: KuzushiState) -> str:
    """Rows from north to south; a base is the player's digit, a flag ``a``–``f``, the CITY ``@`` (player 0's)."""
    min_x, min_y, max_x, max_y = state.bounds()
    rows = []
    for y in range(max_y + 1, min_y - 2, -1):
        line: list[str] = []
        for x in range(min_x - 1, max_x + 2):
            tile = state.cell(x, y)
            if tile is None:
                line.append(".")
            elif tile[0] == "city":
                line.append(CITY_MARK)
            elif tile[0] == "base":
                line.append(str(tile[1]))
            else:
                line.append("abcdef"[tile[1]])
        rows.append(f"{y:>3} " + "".join(f"{mark:>3}" for mark in line))
    rows.append("    " + "".join(f"{x:>3}" for x in range(min_x - 1, max_x + 2)))
    scores = ", ".join(f"P{i} {s:g}" for i, s in enumerate(state.scores()))
    left = ", ".join(str(t) for t in state.tiles_left())
    status = "over" if state.over else f"player {state.to_move} to move"
    rows.append(f"scores {scores}; tiles left {left}; {status}")
    return "\n".join(rows)
