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
        # gauge[k]: the first k inner cells; full: every inner cell (only the shifted planes below are kept)
        gauge = [sum(inner[:k]) for k in range(self.cells + 1)]
        full = gauge[-1]
        supply = max(1, game.tiles_per_player)
        gauge_of_tiles = [gauge[min(self.cells, round(self.cells * t / supply))] for t in range(supply + 1)]
        # All the planes are one Python int, plane k shifted by k * w*w bits (a bitboard's own layout), unpacked by
        # one numpy call and cut to the inner M×M cells by a view. The planes that depend on few facts (the CITY, a
        # seat's tiles gauge, the to-move planes) are made once, already shifted.
        self.stride = stride = w * w
        plane_of_bases = [k * stride for k in range(players)]
        plane_of_flags = [(players + k) * stride for k in range(players)]
        city_plane = (1 << game.city_index) << (2 * players * stride)
        self.playable_shift = (2 * players + 1) * stride
        gauge_planes = [[board << ((2 * players + 2 + k) * stride) for board in gauge_of_tiles] for k in range(players)]
        # fixed_planes[player][to_move]: the CITY and the to-move planes (the last entry: nobody, the game is over)
        self.fixed_planes = [
            [
                city_plane | sum(full << ((3 * players + 2 + k) * stride) for k, q in enumerate(seats) if q == to_move)
                for to_move in [*range(players), -1]
            ]
            for seats in self.seats
        ]
        # seat_planes[player]: per seat from the observer on, (seat, its BASEs' shift, its FLAGs' shift, its gauge
        # plane by tiles left)
        self.seat_planes = [
            [(q, plane_of_bases[k], plane_of_flags[k], gauge_planes[k]) for k, q in enumerate(seats)]
            for seats in self.seats
        ]
        # the action mask: two planes after the observation's (the legal BASE cells, the observer's own FLAGs)
        self.mask_start = self.planes * stride
        inner_bits = np.array(cell_bits, dtype=np.intp)
        self.mask_index = np.concatenate([self.mask_start + inner_bits, self.mask_start + stride + inner_bits])
        self.nbits = {extra: (self.planes + 2 * extra) * stride for extra in (False, True)}
        self.nbytes = {extra: (bits + 7) // 8 for extra, bits in self.nbits.items()}

    def encode(self, move: Move) -> int:
        if not isinstance(move, KuzushiMove):
            raise ValueError(f"{move!r} is not a Kuzushi move")
        n = self.game.size
        if not (-n < move.x < n and -n < move.y < n):
            raise ValueError(f"{move}: outside the {n}×{n} grid, no action")
        return (move.kind != BASE) * self.cells + (move.x + n - 1) * self.side + move.y + n - 1

    def decode(self, action: int, state: State | None = None) -> Move:
        if type(action) is int and 0 <= action < self.num_actions:  # the adapters' case, checked in one line
            return self.moves[action]
        return self.moves[self.check_action(action)]

    def legal_actions(self, state: State, player: int | None = None) -> list[int]:
        s: KuzushiState = state  # type: ignore[assignment]
        p = s.to_move
        if p is None or (player is not None and player != p):
            return []
        return s.legal(p, self.base_action, self.flip_action)

    def observe(self, state: State, player: int) -> Tensor:
        w = self.game.width
        return self._bits(state, player, False).reshape(-1, w, w)[:, 1 : w - 1, 1 : w - 1]

    def observe_and_mask(self, state: State, player: int) -> tuple[Tensor, Mask]:
        bits = self._bits(state, player, True)
        w = self.game.width
        observation = bits[: self.mask_start].reshape(-1, w, w)[:, 1 : w - 1, 1 : w - 1]
        # the mover's mask is the last two planes (the legal BASE cells, then the observer's own FLAGs), their
        # inner cells picked in action order: one take, a contiguous array
        if state.to_move == player:
            return observation, bits.take(self.mask_index)
        return observation, np.zeros(self.num_actions, np.int8)

    def _bits(self, state: State, player: int, with_mask: bool) -> npt.NDArray[np.int8]:
        """The observation's planes as 0/1 (int8) in the bitboards' framed layout, then, ``with_mask``, the two
        planes of the action mask, flat. (On a 7 µs move this is the adapters' main cost, hence one int, one
        unpack, no Python loop over cells.)"""
        s: KuzushiState = state  # type: ignore[assignment]
        bases = s._bases
        flags = s._flags
        tiles = s._tiles
        to_move = s.to_move
        if to_move is None:
            playable = 0
            x = self.fixed_planes[player][-1]
        else:
            playable = s._playable()
            x = self.fixed_planes[player][to_move] | playable << self.playable_shift
        for q, base_shift, flag_shift, gauge in self.seat_planes[player]:
            x |= bases[q] << base_shift | flags[q] << flag_shift | gauge[tiles[q]]
        if with_mask:
            x |= ((playable if tiles[player] else 0) | flags[player] << self.stride) << self.mask_start
        # positional arguments: numpy's keyword parsing costs a third of the unpack here
        raw = np.frombuffer(x.to_bytes(self.nbytes[with_mask], "little"), np.uint8)
        return np.unpackbits(raw, None, self.nbits[with_mask], "little").view(np.int8)

    def max_length(self) -> int:
        # Every move makes one cell solid (a BASE placed, or a FLAG flipped), and solid tiles never leave.
        return self.game.size**2 - 1
