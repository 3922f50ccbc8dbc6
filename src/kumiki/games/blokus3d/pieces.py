"""The eleven Blokus 3D pieces (every polycube of 2 to 4 cubes) and their distinct proper rotations."""

from __future__ import annotations

from dataclasses import dataclass

from kumiki.geometry.polycube import Shape, columns, normalize, orientations

PIECES: dict[str, Shape] = {
    "I2": ((0, 0, 0), (1, 0, 0)),
    "I3": ((0, 0, 0), (1, 0, 0), (2, 0, 0)),
    "V3": ((0, 0, 0), (1, 0, 0), (0, 1, 0)),
    "I4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)),
    "O4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)),
    "T4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
    "L4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
    "Z4": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
    "P4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "A4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)),
    "B4": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)),
}
PIECE_NAMES: tuple[str, ...] = tuple(PIECES)
PIECE_INDEX = {name: i for i, name in enumerate(PIECE_NAMES)}

#: Bit stride between neighbouring x columns in a column bitboard (cell x, y is bit ``x * STRIDE + y``).
STRIDE = 16


@dataclass(frozen=True, slots=True)
class Orientation:
    """One distinct rotation of a piece, normalized to its minimum corner.

    ``columns`` lists, per ``(x, y)`` column of the footprint, its bit offset and the level of its lowest cube
    and how many cubes it stacks (always contiguous for pieces of up to four cubes); ``cubes`` lists each cube's
    column offset and level. A placement at translation ``(tx, ty, tz)`` needs every column at height
    ``tz + bottom``.
    """

    id: int
    piece: int
    shape: Shape
    columns: tuple[tuple[int, int, int], ...]
    cubes: tuple[tuple[int, int], ...]


def _build() -> tuple[Orientation, ...]:
    out: list[Orientation] = []
    for piece, name in enumerate(PIECE_NAMES):
        for shape in orientations(normalize(PIECES[name])):
            cols = []
            for (x, y), levels in sorted(columns(shape).items()):
                if levels != list(range(levels[0], levels[0] + len(levels))):
                    raise ValueError(f"{name}: a column with a hole cannot rest without a gap")
                cols.append((x * STRIDE + y, levels[0], len(levels)))
            cubes = tuple((x * STRIDE + y, z) for x, y, z in shape)
            out.append(Orientation(len(out), piece, shape, tuple(cols), cubes))
    return tuple(out)


ORIENTATIONS: tuple[Orientation, ...] = _build()
ORIENTATIONS_OF: tuple[tuple[Orientation, ...], ...] = tuple(
    tuple(o for o in ORIENTATIONS if o.piece == p) for p in range(len(PIECE_NAMES))
)
ORIENTATION_OF_SHAPE: dict[tuple[int, Shape], Orientation] = {(o.piece, o.shape): o for o in ORIENTATIONS}
