"""Polycubes: sets of integer cells, the 24 proper rotations, canonical forms and placement by translation.

Physical pieces can be turned but not mirrored, so only the rotations of the cube (determinant +1) count; a piece
and its mirror image (Blokus 3D's two screws) are different pieces.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import permutations, product

Cell = tuple[int, int, int]
Shape = tuple[Cell, ...]
Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]


def _determinant(m: Matrix) -> int:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def _signed_permutations() -> list[Matrix]:
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            rows = tuple(tuple(signs[r] if c == perm[r] else 0 for c in range(3)) for r in range(3))
            out.append(rows)
    return out  # type: ignore[return-value]


#: The 24 rotations of the cube as integer matrices, identity first, in a fixed order.
ROTATIONS: tuple[Matrix, ...] = tuple(sorted((m for m in _signed_permutations() if _determinant(m) == 1), reverse=True))


def rotate(cells: Iterable[Cell], m: Matrix) -> list[Cell]:
    """Every cell multiplied by the rotation matrix ``m``."""
    return [
        (
            m[0][0] * x + m[0][1] * y + m[0][2] * z,
            m[1][0] * x + m[1][1] * y + m[1][2] * z,
            m[2][0] * x + m[2][1] * y + m[2][2] * z,
        )
        for x, y, z in cells
    ]


def normalize(cells: Iterable[Cell]) -> Shape:
    """The cells translated so that their minimum corner is 0,0,0, sorted: a shape independent of position."""
    cells = list(cells)
    if not cells:
        return ()
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    return tuple(sorted((x - mx, y - my, z - mz) for x, y, z in cells))


def translate(shape: Iterable[Cell], dx: int, dy: int, dz: int) -> Shape:
    """The shape moved by ``(dx, dy, dz)``, sorted."""
    return tuple(sorted((x + dx, y + dy, z + dz) for x, y, z in shape))


@cache
def orientations(shape: Shape) -> tuple[Shape, ...]:
    """The distinct shapes a polycube takes under the 24 proper rotations, normalized, in a fixed order."""
    seen: dict[Shape, None] = {}
    for m in ROTATIONS:
        seen.setdefault(normalize(rotate(shape, m)), None)
    return tuple(sorted(seen))


def canonical(cells: Iterable[Cell]) -> Shape:
    """A representative of the polycube up to translation and proper rotation (the least of its orientations)."""
    return orientations(normalize(cells))[0]


def is_connected(cells: Iterable[Cell]) -> bool:
    """Whether the cells form one piece through shared faces."""
    remaining = set(cells)
    if not remaining:
        return False
    stack = [remaining.pop()]
    while stack:
        x, y, z = stack.pop()
        for n in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1)):
            if n in remaining:
                remaining.remove(n)
                stack.append(n)
    return not remaining


def face_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six cells that share a face with ``cell``."""
    x, y, z = cell
    return ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1))


def columns(shape: Iterable[Cell]) -> dict[tuple[int, int], list[int]]:
    """The levels the shape fills in each ``(x, y)`` column, sorted bottom up."""
    out: dict[tuple[int, int], list[int]] = {}
    for x, y, z in shape:
        out.setdefault((x, y), []).append(z)
    for levels in out.values():
        levels.sort()
    return out
