"""Kuzushi: grid area control for 2–6 players."""

from kumiki.games.kuzushi.moves import KuzushiMove, parse_kuzushi_move
from kumiki.games.kuzushi.rules import Kuzushi, KuzushiState

__all__ = ["Kuzushi", "KuzushiMove", "KuzushiState", "parse_kuzushi_move"]
