"""Kozo (ACTOP): the balance tower, refereed by the physics judge."""

from kumiki.games.kozo.moves import KozoMove, parse_kozo_move
from kumiki.games.kozo.pieces import STANDARD
from kumiki.games.kozo.rules import Kozo, KozoState

__all__ = ["STANDARD", "Kozo", "KozoMove", "KozoState", "parse_kozo_move"]
