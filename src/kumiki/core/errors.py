"""Errors a player or a script can act on; each is a ValueError whose message quotes the input and says why."""

from __future__ import annotations

from kumiki.core.options import whole


class IllegalMove(ValueError):
    """A move that cannot be played in this position (or text that is not a move at all).

    The message names the move and the reason, e.g. ``"B 9,9: outside the 6×6 grid"``.
    """


class MoveSyntaxError(IllegalMove):
    """Text that does not parse as a move in the game's notation."""


class RecordError(ValueError):
    """A game record that cannot be read: ``line`` is its 1-based line number (0 when it concerns the whole file)."""

    def __init__(self, message: str, line: int = 0, move: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.move = move


def quoted(text: str, limit: int = 60) -> str:
    """``text`` (stripped) quoted for an error message, cut to ``limit`` characters: a message stays one short line.

    Only ASCII white space is stripped, as the parsers strip it: a no-break space that made a move unreadable stays
    in the quote (repr shows it as ``\\xa0``) instead of vanishing from a message that then quotes a readable move."""
    text = text.strip(" \t\r\n\f\v")
    return repr(text if len(text) <= limit else text[:limit] + "…")


MAX_DIGITS = 9  # a coordinate of more digits is off any board (and int() refuses texts of over 4,300 digits)


def coordinate(digits: str, text: str) -> int:
    """A coordinate as a move's text writes it (``-?\\d+``), as an int; MoveSyntaxError beyond ``MAX_DIGITS`` digits."""
    sign, number = ("-", digits[1:]) if digits.startswith("-") else ("", digits)
    number = number.lstrip("0") or "0"  # leading zeros are no size (and int() counts them against its limit)
    if len(number) > MAX_DIGITS:
        shown = digits if len(digits) <= 12 else digits[:12] + "…"
        raise MoveSyntaxError(f"{quoted(text)}: {shown} is off any board (at most {MAX_DIGITS} digits)")
    return int(sign + number)


def whole_number(value: object, move: object) -> int:
    """A coordinate of a move built in code, as an int (a numpy integer becomes one); IllegalMove for anything
    else (a float, a bool, a text): a move's coordinates are whole numbers, and a bool would be written True."""
    number = whole(value)
    if number is None:
        raise IllegalMove(f"{move}: a coordinate is a whole number, not {value!r}")
    return number
