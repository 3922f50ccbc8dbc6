"""The colours of the seats, shared by the games whose pieces belong to players (Kuzushi, Kozo)."""

from __future__ import annotations

# (colour, text on it): a player's solid tiles or cubes, with the seat number written in the second colour.
SEAT_PALETTE: tuple[tuple[str, str], ...] = (
    ("blue", "bright_white"),
    ("red", "bright_white"),
    ("green", "black"),
    ("yellow", "black"),
    ("magenta", "bright_white"),
    ("cyan", "black"),
)
# The same colours, brighter, for what is written on the dark background of a terminal (names, flags, marks).
SEAT_INK = ("bright_blue", "bright_red", "bright_green", "bright_yellow", "bright_magenta", "bright_cyan")
