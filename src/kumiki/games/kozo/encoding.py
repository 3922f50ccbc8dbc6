"""Kozo's action encoding and observation tensor (see docs/interop.md).

An action is what a player does with their hands: drop a piece, in one of its rotations, over a spot of the ring
(a *placement*: every cell over a ring column) and put the balance cube on one of the eight ring columns:
``action = placement * 8 + column``. The piece comes to rest where the tower stops it, and the balance cube sits on
the column's highest polycube cube, so the levels follow from the position: ``decode`` needs the state (without
one it reads the action on the empty ring, the position of a round's first move).

Why not number the levels too: a bijection over (placement, level, column, balance level) would need 244 × 31 × 8 ×
31 ≈ 1.9 million actions for the standard pool, almost all of them never legal; this encoding has 244 × 8 = 1,952
and still reaches every legal move (in any position each legal move has exactly one action).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from kumiki.core.encoding import Encoding, Tensor
from kumiki.games.kozo.moves import KozoMove
from kumiki.games.kozo.pieces import RING, Placement

if TYPE_CHECKING:
    from kumiki.core.game import Move, State
    from kumiki.games.kozo.rules import Kozo, KozoState

_RING_INDEX = {col: i for i, col in enumerate(RING)}
_COLUMNS = len(RING)


class KozoEncoding(Encoding):
    """Placements × balance columns. The observation (flat, float32), seats numbered from the observer: the
    tower's cubes ``(P + 1, H, 3, 3)`` (each seat's polycube cubes, then the balance cubes; ``H`` the highest level a
    cube can reach with this pool), the pool ``(pieces)``, the size drawn ``(sizes)`` (random-size variant), the
    round ``(rounds)``, this round's points and the game's points per seat ``(2P``, as fractions of the most there
    can be), and the seat to move ``(P)``."""

    needs_state = True

    def __init__(self, game: Kozo) -> None:
        self.game = game
        self.placements: list[Placement] = [p for name in game.names for p in game.placements[name]]
        self.index = {(p.piece, p.cells): i for i, p in enumerate(self.placements)}
        self.num_actions = len(self.placements) * _COLUMNS
        # a placement's first action, by the placement object itself (the game's own, which lowered() hands out)
        self.first_action = self._first_actions()
        # the highest level a cube can reach: every piece stacked by its tallest side
        self.height = sum(max(max(c) - min(c) + 1 for c in zip(*shape, strict=True)) for shape in game.pieces.values())
        self.cubes = sum(game.size.values())
        self.sizes = sorted(set(game.size.values()))
        players = game.players
        self.layout: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in (
            ("tower", (players + 1) * self.height * 9),
            ("pool", len(game.names)),
            ("required_size", len(self.sizes)),
            ("round", game.rounds),
            ("round_points", players),
            ("points", players),
            ("to_move", players),
        ):
            self.layout[name] = (start, start + size)
            start += size
        self.observation_shape = (start,)

    def _first_actions(self) -> dict[int, int]:
        return {id(p): i * _COLUMNS for i, p in enumerate(self.placements)}

    def __setstate__(self, data: dict[str, Any]) -> None:
        """After pickle or deepcopy the placements are new objects: their table is keyed by the new ones."""
        self.__dict__.update(data)
        self.first_action = self._first_actions()

    def encode(self, move: Move) -> int:
        if not isinstance(move, KozoMove) or not move.cells:
            raise ValueError(f"{move!r} is not a Kozo move")
        lowest = min(z for _, _, z in move.cells)
        shape = tuple(sorted((x, y, z - lowest) for x, y, z in move.cells))
        placement = self.index.get((move.piece, shape))
        column = _RING_INDEX.get(move.balance[:2])
        if placement is None:
            raise ValueError(f"{move}: not a placement of a piece of this pool over the ring, no action")
        if column is None:
            raise ValueError(f"{move}: the balance cube is not over a ring column, no action")
        return placement * _COLUMNS + column

    def legal_actions(self, state: State, player: int | None = None) -> list[int]:
        """``legal_moves()``'s actions, built from the same walk over the lowered placements and the balance spots
        without making the moves (the adapters' mask every step: making and encoding 500 moves cost more than
        the move played). The walk repeats ``KozoState.legal_moves``'s rather than sharing it: one generator for
        both cost ``legal_moves`` 7% and this 20% (measured); tests/interop/test_encoding.py keeps the two equal."""
        s: KozoState = state  # type: ignore[assignment]
        if (player is not None and not s.may_act(player)) or s.over:
            return []
        top = s.top
        taken = set(s.balances)
        columns = [(x, y, _RING_INDEX[x, y]) for x, y in sorted(top)]
        first_action = self.first_action
        if s.game is not self.game:  # a state of another Kozo: its own placement objects (those without an action
            # here, from another pool, are left out as the base class leaves out moves encode refuses)
            first_action = {}
            for of_piece in s.game.placements.values():
                for p in of_piece:
                    index = self.index.get((p.piece, p.cells))
                    if index is not None:
                        first_action[id(p)] = index * _COLUMNS
        out: list[int] = []
        append = out.append
        for _, found in s.lowered():
            for placement, _, cells in found:
                first = first_action.get(id(placement))
                if first is None:
                    continue
                raised: dict[tuple[int, int], int] = {}
                for x, y, c in cells:
                    if c + 1 > raised.get((x, y), 0):
                        raised[x, y] = c + 1
                for x, y, k in columns:
                    h = raised.get((x, y)) or top[x, y]
                    if h > 0 and (x, y, h) not in taken:
                        append(first + k)
        out.sort()
        return out

    def decode(self, action: int, state: State | None = None) -> Move:
        """The move of ``action`` in ``state``; without a state, on the empty ring (a round's first move)."""
        action = self.check_action(action)
        placement = self.placements[action // _COLUMNS]
        bx, by = RING[action % _COLUMNS]
        z: int | None = 0
        top = 0
        if state is not None:
            s: KozoState = state  # type: ignore[assignment]
            z = s.resting_level(placement)
            top = s.top[(bx, by)]
        if z is None:
            raise ValueError(f"action {action}: {placement.piece} dropped there would come to rest on a balance cube")
        cells = tuple((x, y, c + z) for x, y, c in placement.cells)
        for x, y, c in cells:
            if (x, y) == (bx, by):
                top = max(top, c + 1)
        return KozoMove(placement.piece, cells, (bx, by, top))

    def observe(self, state: State, player: int) -> Tensor:
        s: KozoState = state  # type: ignore[assignment]
        g = self.game
        players = g.players
        out = np.zeros(self.observation_shape, dtype=np.float32)
        h = self.height
        lo, hi = self.layout["tower"]
        tower = out[lo:hi].reshape(players + 1, h, 3, 3)
        if s.cells:  # every polycube cube at once: its cell, and its piece's seat numbered from the observer
            cubes = np.array(list(s.cells), dtype=np.intp)
            piece = np.fromiter(s.cells.values(), dtype=np.intp, count=len(s.cells))
            seats = (np.array([seat for _, seat, _ in s.placed], dtype=np.intp) - player) % players
            low = cubes[:, 2] < h
            tower[seats[piece[low]], cubes[low, 2], cubes[low, 0], cubes[low, 1]] = 1.0
        if s.balances:
            cubes = np.array(s.balances, dtype=np.intp)
            low = cubes[:, 2] < h
            tower[players, cubes[low, 2], cubes[low, 0], cubes[low, 1]] = 1.0
        lo, _ = self.layout["pool"]
        for name in s.pool:
            out[lo + g.order[name]] = 1.0
        if s.required_size is not None:
            out[self.layout["required_size"][0] + self.sizes.index(s.required_size)] = 1.0
        if s.round < g.rounds:
            out[self.layout["round"][0] + s.round] = 1.0
        totals = s.scores()
        current = s.points[-1] if s.points else [0.0] * players
        for k in range(players):
            seat = (player + k) % players
            out[self.layout["round_points"][0] + k] = current[seat] / self.cubes
            out[self.layout["points"][0] + k] = totals[seat] / (self.cubes * g.rounds)
        if s.to_move is not None:
            out[self.layout["to_move"][0] + (s.to_move - player) % players] = 1.0
        return out

    def max_length(self) -> int:
        return self.game.rounds * len(self.game.names)
