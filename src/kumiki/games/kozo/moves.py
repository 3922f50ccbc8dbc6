"""Kozo moves: a polycube where it comes to rest, and the cell its balance cube sits in.

``L4 0,0,0 0,1,0 1,0,0 2,0,0 + 2,0,1``: the piece, its cells sorted as x,y,z, ``+``, the balance cube's cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kumiki.core.errors import MoveSyntaxError, coordinate, quoted
from kumiki.core.game import Move
from kumiki.geometry.polycube import Cell

_CELL = re.compile(r"(-?\d+),(-?\d+),(-?\d+)", re.ASCII)


@dataclass(frozen=True, slots=True)
class KozoMove(Move):
    piece: str
    cells: tuple[Cell, ...]
    balance: Cell

    def __str__(self) -> str:
        try:
            cells = " ".join(f"{x},{y},{z}" for x, y, z in self.cells)
            bx, by, bz = self.balance
        except (TypeError, ValueError):  # a move built in code with wrong fields: say so, never raise from str()
            return f"<malformed move: piece={self.piece!r} cells={self.cells!r} balance={self.balance!r}>"
        return f"{self.piece} {cells} + {bx},{by},{bz}"


def _cell(part: str, text: str) -> Cell:
    match = _CELL.fullmatch(part)
    if match is None:
        raise MoveSyntaxError(f"{quoted(text)}: {quoted(part, 20)} is not a cell x,y,z")
    return (coordinate(match[1], text), coordinate(match[2], text), coordinate(match[3], text))


def parse_kozo_move(text: str) -> KozoMove:
    """Parse the notation; the shape is checked against the pool by the game."""
    if not isinstance(text, str):
        raise MoveSyntaxError(f"{text!r}: a move is text such as 'I2 0,0,0 1,0,0 + 0,0,1'")
    head, plus, tail = text.partition("+")
    parts = head.split()
    if not plus or len(parts) < 2 or len(tail.split()) != 1:
        raise MoveSyntaxError(
            f"{quoted(text)}: write the piece, its cells, '+' and the balance cube's cell, "
            "e.g. 'I2 0,0,0 1,0,0 + 0,0,1'"
        )
    cells = tuple(sorted(_cell(p, text) for p in parts[1:]))
    if len(set(cells)) != len(cells):
        raise MoveSyntaxError(f"{quoted(text)}: a cell is given twice")
    return KozoMove(parts[0], cells, _cell(tail.strip(), text))
