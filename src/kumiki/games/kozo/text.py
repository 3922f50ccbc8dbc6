"""A plain-text picture of a Kozo tower: one 3×3 slice per level, top level first."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kumiki.games.kozo.rules import KozoState


def render_plain(state: KozoState) -> str:
    """Each slice shows y = 2 at the top; a cell is the placing player's digit, ``b`` a balance cube, ``#`` the
    chimney and ``.`` empty."""
    owner = {cell: state.placed[i][1] for cell, i in state.cells.items()}
    balances = set(state.balances)
    height = max([z + 1 for _, _, z in state.cells] + [z + 1 for _, _, z in balances] + [1])
    lines = []
    for z in range(height - 1, -1, -1):
        rows = []
        for y in range(2, -1, -1):
            row = []
            for x in range(3):
                if (x, y) == (1, 1):
                    row.append("#")
                elif (x, y, z) in owner:
                    row.append(str(owner[(x, y, z)]))
                elif (x, y, z) in balances:
                    row.append("b")
                else:
                    row.append(".")
            rows.append(" ".join(row))
        lines.append(f"z={z}: " + " | ".join(rows))
    scores = ", ".join(f"P{i} {s:g}" for i, s in enumerate(state.scores()))
    status = "over" if state.over else f"round {state.round + 1}, player {state.to_move} to move"
    lines.append(f"pool: {' '.join(state.pool) or '-'}; {scores}; {status}")
    return "\n".join(lines)
