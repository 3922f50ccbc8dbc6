"""Kuzushi's action encoding and observation tensor (see docs/interop.md).

Every cell a tile can reach lies within N-1 of the CITY, so with ``M = 2N - 1``:
``action = kind * M*M + (x + N - 1) * M + (y + N - 1)``, ``kind`` 0 for ``B`` (place a BASE) and 1 for ``F`` (flip
your FLAG): ``num_actions = 2 * M * M`` (242 on the 6×6 grid). The actions ascend in ``legal_moves()`` order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kumiki.core.encoding import Encoding, Mask, Tensor
from kumiki.games.kuzushi.moves import BASE, KuzushiMove

if TYPE_CHECKING:
    from kumiki.core.game import Move, State
    from kumiki.games.kuzushi.rules import Kuzushi, KuzushiState


class KuzushiEncoding(Encoding):
    """Cells × {B, F}. The observation is ``(4P + 2, M, M)`` 0/1 planes (int8, as PettingZoo's board games have
    them), seats numbered from the observer: each
    seat's BASEs (P planes), each seat's FLAGs (P), the CITY, the cells a BASE may go on now, each seat's tiles left
    (P: the first ``round(M*M * left / supply)`` cells in ``(x, y)`` order are 1, a gauge a convolution reads as
    easily as a number), and the seat to move (P: all 1 for that seat). Every plane is a bitboard, so the whole
    tensor is one numpy unpack of a few integers."""

    def __init__(self, game: Kuzushi) -> None:
        self.game = game
        n = game.size
        m = self.side = 2 * n - 1
        self.cells = m * m
        self.num_actions = 2 * self.cells
        w = game.width
        # per bitboard bit: its B action (-1 on the frame, where no tile can ever be)
        self.base_action = [-1] * (w * w)
        inner = []
        for i in range(w * w):
            c, r = divmod(i, w)
            if 1 <= c <= m and 1 <= r <= m:
                self.base_action[i] = (c - 1) * m + (r - 1)
                inner.append(1 << i)
        self.flip_action = [a + self.cells if a >= 0 else -1 for a in self.base_action]
        # the game's own move objects (the ones legal_moves lists), in action order: bits ascend as actions do
        cell_bits = [bit.bit_length() - 1 for bit in inner]
        self.moves: list[KuzushiMove] = [game.base_moves[i] for i in cell_bits] + [
            game.flip_moves[i] for i in cell_bits
        ]
        self.planes = 4 * game.players + 2
        self.observation_shape = (self.planes, m, m)
        self.observation_dtype = np.int8
        players = game.players
        self.seats = [[(p + k) % players for k in range(players)] for p in range(players)]
        self.city = 1 << game.city_index
        self.nbytes = (w * w + 7) // 8
        # inner[with_mask]: where each plane's inner cells lie in the unpacked bits of all the planes' bitboards
        cells = [c * w + r for c in range(1, m + 1) for r in range(1, m + 1)]
        self.inner = {
            extra: np.array([k * self.nbytes * 8 + i for k in range(self.planes + 2 * extra) for i in cells], np.intp)
            for extra in (False, True)
        }
        # gauge[k]: the first k inner cells; full: every inner cell
        self.gauge = [sum(inner[:k]) for k in range(self.cells + 1)]
        self.full = self.gauge[-1]
        supply = max(1, game.tiles_per_player)
        self.gauge_of_tiles = [self.gauge[min(self.cells, round(self.cells * t / supply))] for t in range(supply + 1)]

    def encode(self, move: Move) -> int:
        if not isinstance(move, KuzushiMove):
            raise ValueError(f"{move!r} is not a Kuzushi move")
        n = self.game.size
        if not (-n < move.x < n and -n < move.y < n):
            raise ValueError(f"{move}: outside the {n}×{n} grid, no action")
        return (move.kind != BASE) * self.cells + (move.x + n - 1) * self.side + move.y + n - 1

    def decode(self, action: int, state: State | None = None) -> Move:
        return self.moves[self.check_action(action)]

    def legal_actions(self, state: State, player: int | None = None) -> list[int]:
        s: KuzushiState = state  # type: ignore[assignment]
        p = s.to_move
        if p is None or (player is not None and player != p):
            return []
        return s.legal(p, self.base_action, self.flip_action)

    def observe(self, state: State, player: int) -> Tensor:
        return self._bits(state, player, False)

    def observe_and_mask(self, state: State, player: int) -> tuple[Tensor, Mask]:
        planes = self._bits(state, player, True)
        k = self.planes
        # the mover's mask is the last two planes: the legal BASE cells, then the observer's own FLAGs
        mask = planes[k:].reshape(-1) if state.to_move == player else np.zeros(self.num_actions, dtype=np.int8)
        return planes[:k], mask

    def _bits(self, state: State, player: int, with_mask: bool) -> npt.NDArray[np.int8]:
        """The observation's planes as 0/1 (int8), then, ``with_mask``, the two planes of the action mask: one
        contiguous array, so that both are views of it."""
        s: KuzushiState = state  # type: ignore[assignment]
        seats = self.seats[player]
        bases = s._bases
        flags = s._flags
        tiles = s._tiles
        gauge = self.gauge_of_tiles
        to_move = s.to_move
        playable = s._playable() if to_move is not None else 0
        boards = [bases[q] for q in seats]
        boards += [flags[q] for q in seats]
        boards.append(self.city)
        boards.append(playable)
        boards += [gauge[tiles[q]] for q in seats]
        boards += [self.full if q == to_move else 0 for q in seats]
        if with_mask:
            boards.append(playable if tiles[player] else 0)
            boards.append(flags[player])
        nbytes = self.nbytes
        raw = b"".join([board.to_bytes(nbytes, "little") for board in boards])
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little").view(np.int8)
        return bits.take(self.inner[with_mask]).reshape(len(boards), self.side, self.side)

    def max_length(self) -> int:
        # Every move makes one cell solid (a BASE placed, or a FLAG flipped), and solid tiles never leave.
        return self.game.size**2 - 1
