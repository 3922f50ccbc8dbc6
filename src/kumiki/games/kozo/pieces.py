"""Kozo's pieces: the eleven Blokus 3D polycubes and the U pentacube, in one shared pool (45 cubes)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from kumiki.games.blokus3d.pieces import PIECES as BLOKUS_PIECES
from kumiki.geometry.polycube import Shape, columns, is_connected, normalize, orientations

STANDARD: dict[str, Shape] = {
    **BLOKUS_PIECES,
    "U5": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (2, 1, 0)),
}

#: The base: cells x, y in 0..2; the centre 1,1 is the chimney and nothing may be on or over it.
CHIMNEY = (1, 1)
RING: tuple[tuple[int, int], ...] = tuple((x, y) for x in range(3) for y in range(3) if (x, y) != CHIMNEY)
BALANCE_EDGE = 0.57
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # a balance cube's edge, in polycube cubes (0.4 in. against 0.7 in.)


@dataclass(frozen=True, slots=True)
class Placement:
    """An orientation of a piece at a horizontal position on the ring: its cells at level 0 and, per column,
    the lowest level it fills (what touches first when it is lowered)."""

    piece: str
    cells: Shape
    bottoms: tuple[tuple[tuple[int, int], int], ...]


def parse_pieces(value: str) -> dict[str, Shape]:
    """The ``pieces`` option: "standard", or a JSON object of names to cell lists, e.g. '{"I2": [[0,0,0],[1,0,0]]}'."""
    if value == "standard":
        return dict(STANDARD)
    try:
        raw = json.loads(value, object_pairs_hook=_unique_names)
    except json.JSONDecodeError as error:
        raise ValueError(f'pieces must be "standard" or a JSON object of name -> cells ({error.msg})') from None
    except RecursionError:  # "[[[[…": JSON nested deeper than Python parses (a ValueError, as every bad option)
        raise ValueError("pieces must be a JSON object of name -> list of [x, y, z] cells, not nested deeper") from None
    if not isinstance(raw, dict) or not raw:
        raise ValueError("pieces must be a non-empty JSON object of name -> list of [x, y, z] cells")
    out: dict[str, Shape] = {}
    seen: set[str] = set()
    for name, cells in raw.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"piece name {name!r} must be a letter followed by letters, digits or '_'")
        if name.upper() in seen:
            raise ValueError(f"piece names {name!r} and another differ only in case: moves could not tell them apart")
        seen.add(name.upper())
        if not isinstance(cells, list) or not cells:
            raise ValueError(f"piece {name}: cells must be a list of [x, y, z]")
        shape = []
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 3 and all(type(v) is int for v in cell)):  # not true
                raise ValueError(f"piece {name}: {cell!r} is not a cell [x, y, z] of integers")
            shape.append((cell[0], cell[1], cell[2]))
        if len(set(shape)) != len(shape) or not is_connected(shape):
            raise ValueError(f"piece {name}: the cells must be distinct and connected by faces")
        out[name] = normalize(shape)
    return out


def _unique_names(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object whose names are all different: JSON would keep the last of two pieces of one name unseen."""
    out: dict[str, object] = {}
    for name, value in pairs:
        if name in out:
            raise ValueError(f"piece name {name!r} is given twice")
        out[name] = value
    return out


def placements(name: str, shape: Shape) -> list[Placement]:
    """Every orientation and horizontal position of a piece with all its cells over ring columns, in a fixed order."""
    out = []
    ring = set(RING)
    for o in orientations(normalize(shape)):
        for tx in range(-3, 3):
            for ty in range(-3, 3):
                cells = tuple(sorted((x + tx, y + ty, z) for x, y, z in o))
                if all((x, y) in ring for x, y, _ in cells):
                    bottoms = tuple((col, levels[0]) for col, levels in sorted(columns(cells).items()))
                    out.append(Placement(name, cells, bottoms))
    return out
