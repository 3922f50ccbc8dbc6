"""Blokus 3D's action encoding and observation tensor (see docs/interop.md).

An action is one placement that fits the empty structure: a piece's rotation (those that fit somewhere), its
minimum corner ``(x, y)`` on the turntable and its level ``z``, with every cube under the structure's height limit.
They are numbered by piece (``I2 I3 V3 I4 O4 T4 L4 Z4 P4 A4 B4``), rotation, level, then corner (``x``, then
``y``): an exact bijection between the placements that could ever be legal and ``0 … num_actions-1``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kumiki.core.encoding import Encoding, Tensor, relative, unpack_bits
from kumiki.games.blokus3d.moves import Blokus3DMove
from kumiki.games.blokus3d.pieces import ORIENTATIONS, PIECE_NAMES, STRIDE
from kumiki.games.blokus3d.structures import SIZE

if TYPE_CHECKING:
    from kumiki.core.game import Move, State
    from kumiki.games.blokus3d.rules import Blokus3D, Blokus3DState

KEY_LEVELS = 32  # as in rules.py: a move's key is (orientation * KEY_LEVELS + z) * 256 + column
_COLUMNS = np.array([x * STRIDE + y for x in range(SIZE) for y in range(SIZE)], dtype=np.intp)


class Blokus3DEncoding(Encoding):
    """Placements that fit the structure. The observation (flat, float32), colours numbered from the observer's
    first colour: each colour's cubes ``(C, L, 10, 10)`` (``L`` the highest limit), the room under the limits
    ``(L, 10, 10)``, each colour's pieces left ``(C, 11)``, the colour to move ``(C)`` and the colours out ``(C)``."""

    def __init__(self, game: Blokus3D) -> None:
        self.game = game
        levels = self.levels = game.max_limit
        self.keys: list[int] = []
        for piece in range(len(PIECE_NAMES)):
            for o in game.usable[piece]:
                for tz in range(levels):
                    room = game.corners
                    for off, bottom, count in o.columns:
                        room &= game.at_least[tz + bottom + count] >> off
                    while room:
                        low = room & -room
                        self.keys.append((o.id * KEY_LEVELS + tz) * 256 + low.bit_length() - 1)
                        room ^= low
        self.index = {key: action for action, key in enumerate(self.keys)}
        self.num_actions = len(self.keys)
        c = self.colours = game.colours
        cube_size = c * levels * SIZE * SIZE
        self.layout = {
            "cubes": (0, cube_size),
            "room": (cube_size, cube_size + levels * SIZE * SIZE),
        }
        start = cube_size + levels * SIZE * SIZE
        for name, size in (("pieces_left", c * len(PIECE_NAMES)), ("to_move", c), ("out", c)):
            self.layout[name] = (start, start + size)
            start += size
        self.observation_shape = (start,)
        under = np.zeros((levels, SIZE, SIZE), dtype=np.float32)
        for x in range(SIZE):
            for y in range(SIZE):
                under[: game.limits[x][y], x, y] = 1.0
        self._room = under.ravel()

    def encode(self, move: Move) -> int:
        if not isinstance(move, Blokus3DMove):
            raise ValueError(f"{move!r} is not a Blokus 3D move")
        key = move.key if self.game.known(move) else -1
        if key < 0:
            o, tz, pos = self.game.placement(move)
            key = (o.id * KEY_LEVELS + tz) * 256 + pos if tz >= 0 and pos >= 0 else -1
        action = self.index.get(key)
        if action is None:
            raise ValueError(f"{move}: does not fit structure {self.game.structure.name}, no action")
        return action

    def decode(self, action: int, state: State | None = None) -> Move:
        key = self.keys[self.check_action(action)]
        o_id, rest = divmod(key, KEY_LEVELS * 256)
        tz, pos = divmod(rest, 256)
        return self.game.move_for(ORIENTATIONS[o_id], tz, pos)

    def legal_actions(self, state: State, player: int | None = None) -> list[int]:
        s: Blokus3DState = state  # type: ignore[assignment]
        if player is not None and player != s.to_move:
            return []
        index = self.index
        return sorted([index[m.key] for m in s._legal])

    def observe(self, state: State, player: int) -> Tensor:
        s: Blokus3DState = state  # type: ignore[assignment]
        c = self.colours
        levels = self.levels
        out = np.zeros(self.observation_shape, dtype=np.float32)
        order = [(player + k) % c for k in range(c)]  # the observer's first colour is colour `player`
        boards = [s._own[colour][z] for colour in order for z in range(levels)]
        bits = unpack_bits(boards, SIZE * STRIDE)[:, _COLUMNS]
        lo, hi = self.layout["cubes"]
        out[lo:hi] = bits.ravel()
        lo, hi = self.layout["room"]
        out[lo:hi] = self._room
        lo, _ = self.layout["pieces_left"]
        pieces = len(PIECE_NAMES)
        for k, colour in enumerate(order):
            left = s._left[colour]
            for i in range(pieces):
                if left >> i & 1:
                    out[lo + k * pieces + i] = 1.0
        if s.colour_to_move is not None:
            out[self.layout["to_move"][0] + relative(s.colour_to_move, player, c)] = 1.0
        lo, _ = self.layout["out"]
        for k, colour in enumerate(order):
            if s._out[colour]:
                out[lo + k] = 1.0
        return out

    def max_length(self) -> int:
        return len(PIECE_NAMES) * self.game.colours
