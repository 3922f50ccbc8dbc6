"""TowerBrix notation: ``Y1 z 0,0`` places (or moves) a brick, ``-Y1`` takes it away, ``ok`` is a thumbs-up,
``time`` says the build's time ran out (challenge 2: played by a front end's clock, never by a player), and
``waive 2.1`` is a vote to waive seat 2's first card (challenges 9 and 13 with ``waive="vote"``: a card is named by
its seat and place in the hand, face down, never by what it says).

A placement names the brick, the axis its long side lies along (``x``, ``y``: lying; ``z``: standing) and the
brick's minimum corner ``x,y`` on the table plane; the brick is then lowered until it rests.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from kumiki.core.errors import IllegalMove, MoveSyntaxError, quoted
from kumiki.core.game import Move
from kumiki.games.towerbrix.bricks import AXES, BRICK_IDS, Brick, place

_NUMBER = r"(-?\d+(?:\.\d+)?)"
_PLACE = re.compile(rf"([A-Za-z]\d?)\s+([xyzXYZ])\s+{_NUMBER}\s*,\s*{_NUMBER}", re.ASCII)
_REMOVE = re.compile(r"-\s*([A-Za-z]\d?)", re.ASCII)
_WAIVE = re.compile(r"waive\s+(\d{1,2})\.(\d{1,2})", re.IGNORECASE | re.ASCII)
_BY_UPPER = {b.upper(): b for b in BRICK_IDS}


def format_number(value: float) -> str:
    """``0``, ``0.5``, ``-1.5``: whole numbers without a decimal point, never an exponent (``repr`` writes 0.00001
    as ``1e-05``, which the notation does not read): the shortest digits that read back as the same float."""
    if float(value).is_integer():
        return str(int(value))
    text = repr(float(value))
    return format(Decimal(text), "f") if "e" in text else text


@dataclass(frozen=True, slots=True)
class TowerBrixMove(Move):
    """``kind`` is "place", "remove", "ok", "time" or "waive"; ``brick``, ``axis``, ``x``, ``y`` as needed (else ""
    and 0); a waive vote keeps the card's seat in ``x`` and its place in the hand (from 1) in ``y``."""

    kind: str
    brick: str = ""
    axis: str = ""
    x: float = 0.0
    y: float = 0.0

    def __str__(self) -> str:
        try:
            if self.kind in ("ok", "time"):
                return self.kind
            if self.kind == "remove":
                return f"-{self.brick}"
            if self.kind == "waive":
                return f"waive {int(self.x)}.{int(self.y)}"
            return f"{self.brick} {self.axis} {format_number(self.x)},{format_number(self.y)}"
        except (TypeError, ValueError, OverflowError):  # a move built in code with wrong fields: never raise from str()
            return (
                f"<malformed move: kind={self.kind!r} brick={self.brick!r} axis={self.axis!r} "
                f"x={self.x!r} y={self.y!r}>"
            )


MOVE_KINDS = ("place", "remove", "ok", "time", "waive")
EDIT_KINDS = ("place", "remove")  # the moves that change the tower (an edit: the edit count, the thumbs cleared)


def is_edit(move: object) -> bool:
    """Whether ``move`` is a TowerBrix edit (a placement or a removal)."""
    return getattr(move, "kind", "") in EDIT_KINDS


OK = TowerBrixMove("ok")
TIME = TowerBrixMove("time")


def place_move(brick: str, axis: str, x: float, y: float) -> TowerBrixMove:
    return TowerBrixMove("place", brick, axis, float(x), float(y))


def remove_move(brick: str) -> TowerBrixMove:
    return TowerBrixMove("remove", brick)


def waive_move(seat: int, place_in_hand: int) -> TowerBrixMove:
    """A vote to waive seat ``seat``'s card number ``place_in_hand`` (from 1), face down."""
    return TowerBrixMove("waive", x=float(seat), y=float(place_in_hand))


def _real(value: object, move: TowerBrixMove) -> float:
    """A coordinate of a move built in code as a float (an int or a numpy number becomes one); IllegalMove for a
    bool, a text or anything else, which ``str(move)`` would write as another number or not at all."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy's bool is no Real either
        raise IllegalMove(f"{move!r}: a coordinate is a number, not {value!r}")
    return float(value)


def checked_numbers(move: TowerBrixMove) -> TowerBrixMove:
    """A move built in code with its ``x`` and ``y`` as floats, or IllegalMove: a placement's corner is two
    numbers, a waive vote's seat and place are whole numbers (its text would truncate 2.7 to seat 2)."""
    if move.kind not in ("place", "waive"):
        return move
    x, y = _real(move.x, move), _real(move.y, move)
    if move.kind == "waive" and not (x.is_integer() and y.is_integer()):
        raise IllegalMove(f"{move!r}: a waive vote names a seat and a place in the hand by whole numbers")
    return TowerBrixMove(move.kind, move.brick, move.axis, x, y)


def _brick(name: str, text: str) -> str:
    brick = _BY_UPPER.get(name.upper())
    if brick is None:
        raise MoveSyntaxError(f"{quoted(text)}: no brick {quoted(name, 20)} (bricks: {' '.join(BRICK_IDS)})")
    return brick


def parse_towerbrix_move(text: str) -> TowerBrixMove:
    """Parse the notation (case-insensitive); the grid and the rules are checked by the game."""
    if not isinstance(text, str):
        raise MoveSyntaxError(f"{text!r}: a move is text such as 'Y1 z 0,0', '-Y1' or 'ok'")
    stripped = text.strip()
    if stripped.lower() == "ok":
        return OK
    if stripped.lower() == "time":
        return TIME
    match = _REMOVE.fullmatch(stripped)
    if match:
        return remove_move(_brick(match[1], stripped))
    match = _WAIVE.fullmatch(stripped)
    if match:
        return waive_move(int(match[1]), int(match[2]))
    match = _PLACE.fullmatch(stripped)
    if match:
        axis = match[2].lower()
        assert axis in AXES
        x, y = float(match[3]), float(match[4])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise MoveSyntaxError(f"{quoted(stripped)}: the corner's coordinates are too large")
        return place_move(_brick(match[1], stripped), axis, x, y)
    raise MoveSyntaxError(
        f"{quoted(stripped)}: write a brick, an axis and a corner ('Y1 z 0,0'), '-Y1', 'ok' or 'waive 0.1'"
    )


def apply_edit(bricks: Mapping[str, Brick], move: TowerBrixMove) -> dict[str, Brick]:
    """The bricks after a placement (the brick lifted, then lowered at its new place) or a removal; ``ok`` and
    ``time`` change nothing. No rule is checked."""
    after = dict(bricks)
    if is_edit(move):
        after.pop(move.brick, None)
    if move.kind == "place":
        after[move.brick] = place(after, move.brick, move.axis, move.x, move.y)
    return after


def lowered(edits: Iterable[str]) -> dict[str, Brick]:
    """The bricks of placements in the notation (``Y1 z 0,0``), lowered one after another as the game lowers them
    (no rule is checked: for building known towers in docs, data and tests)."""
    bricks: dict[str, Brick] = {}
    for edit in edits:
        move = parse_towerbrix_move(edit)
        if move.kind != "place":
            raise MoveSyntaxError(f"{edit!r}: a placement such as 'Y1 z 0,0' is needed here")
        bricks[move.brick] = place(bricks, move.brick, move.axis, move.x, move.y)
    return bricks
