"""Kozo's options as data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumiki.core.options import Option
from kumiki.games.kozo.pieces import parse_pieces


def _check_pieces(value: Any, resolved: Mapping[str, Any]) -> str | None:
    try:
        parse_pieces(value)
    except ValueError as error:
        return str(error)
    if value.splitlines() != [value]:  # json.dumps(pool, indent=2): valid JSON, but no record could write it
        return "write the pool on one line (a record keeps an option on one line)"
    return None


KOZO_OPTIONS = (
    Option("players", int, 2, "number of players (1: solo)", 1, 6),
    Option("rounds", int, 3, "rounds in a game; who opens each is the option opener", 1, 100),
    Option(
        "opener",
        str,
        "rotate",
        "who opens a round: 'rotate' (round r: player r mod players), 'continue' (the turn order goes on: the "
        "player after the one who played last, or the one who could not place) or 'first' (player 0, every round)",
        choices=("rotate", "continue", "first"),
        quiet_default=True,
    ),
    Option(
        "random_size",
        bool,
        False,
        "variant: before each turn a size is drawn (from the seed) among those left; the mover plays that size",
    ),
    Option(
        "size_draw",
        str,
        "size",
        "random_size: 'size' (each size left equally likely) or 'tile' (a face-down scoring tile of the pieces left: "
        "each piece equally likely; the web app's default)",
        choices=("size", "tile"),
        quiet_default=True,
    ),
    Option(
        "no_fit",
        str,
        "end",
        "random_size, when no piece of the size drawn fits: 'end' the round, or 'redraw' (the mover draws again "
        "among the sizes left that fit; the round ends only when no piece left fits)",
        choices=("end", "redraw"),
        quiet_default=True,
    ),
    Option(
        "tiebreak",
        str,
        "shared",
        "a tie for the most points: 'shared', or 'later_turn' (the tied player who moved later in the last round)",
        choices=("shared", "later_turn"),
    ),
    Option(
        "pieces",
        str,
        "standard",
        'the pool: "standard" (I2 I3 V3 I4 O4 T4 L4 Z4 P4 A4 B4 U5) or a JSON object of name -> cells',
        check=_check_pieces,
    ),
)
