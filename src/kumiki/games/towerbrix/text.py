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
GAP = "…"  # a long run of cells no brick reaches, drawn as one
MAX_GAP = 20  # cells: ten brick thicknesses on the default grid, more than the box's long side


def layers(bricks: Sequence[Brick], grid: float = 0.5) -> list[tuple[float, list[str]]]:
    """For each layer (top first) its bottom ``z`` and a map of grid cells seen from above, y growing upward: a cell
    shows the first letter of the brick filling it (lower case for the second brick of a colour, e.g. ``y`` for
    Y2), ``·`` when empty. A layer is the slab between two consecutive heights where a brick starts or ends.

    A run of more than ``MAX_GAP`` columns (rows) that no brick reaches is drawn as one column (row) of ``GAP``: two
    bricks at opposite corners of the table (corners lie within 1,000 of the origin) would otherwise be a map of
    millions of cells, which took minutes to draw (``kumiki replay`` of a two-move record)."""
    if not bricks:
        return []
    lo_x = min(b.box[0] for b in bricks)
    lo_y = min(b.box[1] for b in bricks)
    nx = math.ceil((max(b.box[3] for b in bricks) - lo_x) / grid - TOL)
    ny = math.ceil((max(b.box[4] for b in bricks) - lo_y) / grid - TOL)
    xs = _centres([(b.box[0], b.box[3]) for b in bricks], lo_x, nx, grid)
    ys = _centres([(b.box[1], b.box[4]) for b in bricks], lo_y, ny, grid)
    heights = sorted({round(v, 9) for b in bricks for v in (b.box[2], b.box[5])})
    out = []
    for bottom, top in reversed(list(pairwise(heights))):
        z = (bottom + top) / 2
        rows = []
        filled = False
        for y in reversed(ys):
            if y is None:
                rows.append(GAP * len(xs))
                continue
            row = "".join(GAP if x is None else _mark(bricks, x, y, z) for x in xs)
            filled = filled or any(mark not in (EMPTY, GAP) for mark in row)
            rows.append(row)
        if filled:
            out.append((bottom, rows))
    return out


def _centres(spans: Sequence[tuple[float, float]], lo: float, cells: int, grid: float) -> list[float | None]:
    """The centres of the ``cells`` grid cells from ``lo`` that a map draws along one axis, in order, with None for
    each run of more than ``MAX_GAP`` cells that none of ``spans`` reaches."""
    reached: set[int] = set()
    for start, end in spans:
        first = max(0, math.floor((start - lo) / grid + TOL))
        reached.update(range(first, min(cells, math.ceil((end - lo) / grid - TOL))))
    out: list[float | None] = []
    previous = -1
    for index in [*sorted(reached), cells]:
        if index - previous - 1 > MAX_GAP:
            out.append(None)
        else:
            out.extend(lo + (i + 0.5) * grid for i in range(previous + 1, index))
        if index < cells:
            out.append(lo + (index + 0.5) * grid)
        previous = index
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
