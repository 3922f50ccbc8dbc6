"""Blokus 3D (Rumis): polycubes on a structure, 2–4 players."""

from kumiki.games.blokus3d.moves import Blokus3DMove, parse_blokus3d_move
from kumiki.games.blokus3d.pieces import PIECE_NAMES, PIECES
from kumiki.games.blokus3d.rules import Blokus3D, Blokus3DState
from kumiki.games.blokus3d.structures import register_structure

__all__ = [
    "PIECES",
    "PIECE_NAMES",
    "Blokus3D",
    "Blokus3DMove",
    "Blokus3DState",
    "parse_blokus3d_move",
    "register_structure",
]
