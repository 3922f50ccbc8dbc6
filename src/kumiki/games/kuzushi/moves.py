"""Kuzushi moves and their notation: ``B x,y`` places a BASE, ``F x,y`` flips your FLAG at x,y into a BASE."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kumiki.core.errors import MoveSyntaxError, coordinate, quoted
from kumiki.core.game import Move

BASE = "B"
FLIP = "F"

_MOVE = re.compile(r"\s*([BbFf])\s*(-?\d+)\s*,\s*(-?\d+)\s*", re.ASCII)
_CELL = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*", re.ASCII)


@dataclass(frozen=True, slots=True)
class KuzushiMove(Move):
    """``kind`` is "B" (place a BASE from your supply) or "F" (flip your FLAG); ``x, y`` the cell."""

    kind: str
    x: int
    y: int

    def __post_init__(self) -> None:
        if self.kind not in (BASE, FLIP):
            raise MoveSyntaxError(f"{self.kind!r}: a Kuzushi move is 'B' (base) or 'F' (flip)")

    def __str__(self) -> str:
        return f"{self.kind} {self.x},{self.y}"

    @property
    def xy(self) -> tuple[int, int]:
        return (self.x, self.y)

    @classmethod
    def from_text(cls, text: str) -> KuzushiMove:
        return parse_kuzushi_move(text)


def parse_kuzushi_move(text: str) -> KuzushiMove:
    """Parse ``B x,y`` or ``F x,y`` (case and spacing are forgiven); MoveSyntaxError otherwise."""
    if not isinstance(text, str):
        raise MoveSyntaxError(f"{text!r}: a move is text such as 'B 1,0' or 'F 1,1'")
    match = _MOVE.fullmatch(text)
    if match is None:
        raise MoveSyntaxError(f"{quoted(text)}: not a Kuzushi move (write 'B x,y' to place a base, 'F x,y' to flip)")
    kind = BASE if match[1] in "Bb" else FLIP
    return KuzushiMove(kind, coordinate(match[2], text), coordinate(match[3], text))


def parse_kuzushi_cell(text: str) -> tuple[int, int] | None:
    """A bare cell ``x,y`` (the shorthand a player may type for B or F there), or None if ``text`` is not one;
    MoveSyntaxError for a coordinate off any board."""
    match = _CELL.fullmatch(text)
    return None if match is None else (coordinate(match[1], text), coordinate(match[2], text))
