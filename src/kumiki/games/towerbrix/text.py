"""A plain-text picture of a TowerBrix tower: one top-down map per layer (top layer first), then the cards."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from kumiki.games.towerbrix.bricks import TOL, Brick

if TYPE_CHECKING:
    from kumiki.games.towerbrix.rules import TowerBrixState

EMPTY = "·"


def layers(bricks: Sequence[Brick], grid: float = 0.5) -> list[tuple[float, list[str]]]:
    """For each layer (top first) its bottom ``z`` and a map of grid cells seen from above, y growing upward: a cell
    shows the first letter of the brick filling it (lower case for the second brick of a colour, e.g. ``y`` for
    Y2), ``·`` when empty. A layer is the slab between two consecutive heights where a brick starts or ends."""
    if not bricks:
        return []
    lo_x = min(b.box[0] for b in bricks)
    lo_y = min(b.box[1] for b in bricks)
    nx = math.ceil((max(b.box[3] for b in bricks) - lo_x) / grid - TOL)
    ny = math.ceil((max(b.box[4] for b in bricks) - lo_y) / grid - TOL)
    heights = sorted({round(v, 9) for b in bricks for v in (b.box[2], b.box[5])})
    out = []
    for bottom, top in reversed(list(pairwise(heights))):
        z = (bottom + top) / 2
        rows = []
        for j in range(ny - 1, -1, -1):
            y = lo_y + (j + 0.5) * grid
            rows.append("".join(_mark(bricks, lo_x + (i + 0.5) * grid, y, z) for i in range(nx)))
        if any(set(r) != {EMPTY} for r in rows):
            out.append((bottom, rows))
    return out


def brick_mark(brick_id: str) -> str:
    return brick_id[0].lower() if brick_id.endswith("2") else brick_id[0]


def _mark(bricks: Sequence[Brick], x: float, y: float, z: float) -> str:
    for b in bricks:
        x0, y0, z0, x1, y1, z1 = b.box
        if x0 < x < x1 and y0 < y < y1 and z0 < z < z1:
            return brick_mark(b.id)
    return EMPTY


def render_plain(state: TowerBrixState) -> str:
    """The layers, then the cards (all of them: this is the full state), the score and whose turn it is."""
    lines = []
    for z, rows in layers(state.bricks_in_order(), state.game.grid):
        lines.append(f"z={z:g}:")
        lines.extend("  " + r for r in rows)
    if not lines:
        lines.append("(no bricks)")
    for player, hand in enumerate(state.hands):
        lines.append(f"P{player} cards: {' '.join(hand) or '-'}")
    status = (
        "over" if state.over else f"round {state.round + 1}, attempt {state.attempt}, player {state.to_move} to move"
    )
    lines.append(f"score {state.score():g}; {status}")
    return "\n".join(lines)
