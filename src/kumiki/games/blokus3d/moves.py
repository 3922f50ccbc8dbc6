"""Blokus 3D moves and their notation: the piece name, then the cells it covers, sorted, as ``x,y,z``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kumiki.core.errors import MoveSyntaxError, coordinate, quoted
from kumiki.core.game import Move
from kumiki.games.blokus3d.pieces import ORIENTATION_OF_SHAPE, PIECE_INDEX, PIECE_NAMES, PIECES
from kumiki.geometry.polycube import Cell, normalize

_CELL = re.compile(r"(-?\d+),(-?\d+),(-?\d+)", re.ASCII)


@dataclass(frozen=True, slots=True)
class Blokus3DMove(Move):
    """A piece and the cells it covers (sorted). ``key`` is the engine's index of the placement, or -1."""

    piece: str
    cells: tuple[Cell, ...]
    key: int = field(default=-1, compare=False, repr=False)
    rank: int = field(default=0, compare=False, repr=False)

    def __str__(self) -> str:
        try:
            return self.piece + " " + " ".join(f"{x},{y},{z}" for x, y, z in self.cells)
        except (TypeError, ValueError):  # a move built in code with wrong fields: say so, never raise from str()
            return f"<malformed move: piece={self.piece!r} cells={self.cells!r}>"


def sort_rank(piece: int, cells: tuple[Cell, ...]) -> int:
    """An integer that orders moves by piece, then by their sorted cells (the order of ``legal_moves()``)."""
    rank = piece
    for x, y, z in cells:
        rank = rank * 8192 + (x & 15) * 512 + (y & 15) * 32 + (z & 31)
    return rank << (13 * (4 - len(cells)))


def parse_blokus3d_move(text: str) -> Blokus3DMove:
    """Parse ``T4 3,4,0 4,4,0 4,5,0 5,4,0``; MoveSyntaxError says what is wrong (including a wrong shape)."""
    if not isinstance(text, str):
        raise MoveSyntaxError(f"{text!r}: a move is text such as 'I2 0,0,0 1,0,0'")
    parts = text.split()
    if not parts:
        raise MoveSyntaxError("an empty move: write the piece, then its cells, e.g. 'I2 0,0,0 1,0,0'")
    name = parts[0].upper() if parts[0].isascii() else parts[0]  # ASCII case only: 'ı'.upper() is 'I'
    if name not in PIECES:
        raise MoveSyntaxError(f"{quoted(text)}: no piece {quoted(parts[0], 20)} (pieces: {' '.join(PIECE_NAMES)})")
    cells: list[Cell] = []
    for part in parts[1:]:
        match = _CELL.fullmatch(part)
        if match is None:
            raise MoveSyntaxError(f"{quoted(text)}: {quoted(part, 20)} is not a cell x,y,z")
        cells.append((coordinate(match[1], text), coordinate(match[2], text), coordinate(match[3], text)))
    size = len(PIECES[name])
    if len(set(cells)) != len(cells):
        raise MoveSyntaxError(f"{quoted(text)}: a cell is given twice")
    if len(cells) != size:
        raise MoveSyntaxError(f"{quoted(text)}: {name} covers {size} cells, not {len(cells)}")
    shape = normalize(cells)
    if (PIECE_INDEX[name], shape) not in ORIENTATION_OF_SHAPE:
        raise MoveSyntaxError(
            f"{quoted(text)}: these cells are not {name} under any rotation (mirror images don't count)"
        )
    ordered = tuple(sorted(cells))
    return Blokus3DMove(name, ordered, -1, sort_rank(PIECE_INDEX[name], ordered))
