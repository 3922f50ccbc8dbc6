"""Kozo written the plain way: sets of cells, rules read straight off docs/rules/kozo.md, no tables or caches.

An independent oracle that the tests replay random games against (any disagreement is a bug in one of the two).
It shares no code with `kumiki.games.kozo`: its own rotations, lowering, balance spots, rounds and scoring. Only
"does the tower stand?" is asked of the physics judge (`kumiki.physics.judge`), which knows no game. The variant's
draw comes from the engine's seed, so the oracle is told the size drawn (`draw`, a callable) and checks that it is
one the rules allow. Clarity comes before speed.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from kumiki.physics import Body, Tower, body_from_cells, judge

Cell = tuple[int, int, int]

STANDARD: dict[str, list[Cell]] = {
    "I2": [(0, 0, 0), (1, 0, 0)],
    "I3": [(0, 0, 0), (1, 0, 0), (2, 0, 0)],
    "V3": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    "I4": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    "O4": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    "T4": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "L4": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "Z4": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "P4": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
    "A4": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],
    "B4": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)],
    "U5": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (2, 1, 0)],
}
RING = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
BALANCE = 0.57  # the balance cube's edge, in polycube cubes; centred on the top face of the cube below


def rotations() -> list[tuple[tuple[int, int, int], ...]]:
    """The 24 rotations of the cube: signed permutation matrices of determinant +1."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = [[signs[r] if c == perm[r] else 0 for c in range(3)] for r in range(3)]
            det = (
                m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
            )
            if det == 1:
                out.append(tuple(tuple(row) for row in m))
    assert len(out) == 24
    return out  # type: ignore[return-value]


def normalise(cells: list[Cell]) -> frozenset[Cell]:
    lx = min(c[0] for c in cells)
    ly = min(c[1] for c in cells)
    lz = min(c[2] for c in cells)
    return frozenset((x - lx, y - ly, z - lz) for x, y, z in cells)


def shapes_of(cells: list[Cell]) -> list[frozenset[Cell]]:
    """Every distinct shape of a piece under the 24 rotations (no mirror images)."""
    seen: list[frozenset[Cell]] = []
    for m in rotations():
        turned = [
            (
                m[0][0] * x + m[0][1] * y + m[0][2] * z,
                m[1][0] * x + m[1][1] * y + m[1][2] * z,
                m[2][0] * x + m[2][1] * y + m[2][2] * z,
            )
            for x, y, z in cells
        ]
        shape = normalise(turned)
        if shape not in seen:
            seen.append(shape)
    return seen


def fmt(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]},{cell[2]}"


def notation(piece: str, cells: tuple[Cell, ...], balance: Cell) -> str:
    return f"{piece} {' '.join(fmt(c) for c in sorted(cells))} + {fmt(balance)}"


@dataclass
class PlainKozo:
    players: int = 2
    rounds: int = 3
    opener: str = "rotate"
    random_size: bool = False
    size_draw: str = "size"
    no_fit: str = "end"
    tiebreak: str = "shared"
    pieces: str = "standard"
    draw: Callable[[int], int] | None = None  # told the variant's size drawn for the given round
    catalogue: dict[str, list[Cell]] = field(default_factory=dict)
    shapes: dict[str, list[frozenset[Cell]]] = field(default_factory=dict)
    round: int = 0
    to_move: int | None = 0
    pool: list[str] = field(default_factory=list)
    placed: list[tuple[str, int, tuple[Cell, ...]]] = field(default_factory=list)  # (piece, player, cells)
    balances: list[Cell] = field(default_factory=list)
    points: list[list[float]] = field(default_factory=list)
    falls: list[dict[str, object]] = field(default_factory=list)
    ends: list[dict[str, object]] = field(default_factory=list)
    movers: list[list[int]] = field(default_factory=list)  # who moved, in order, in each round
    openers: list[int] = field(default_factory=list)
    required_size: int | None = None
    toppled: bool = False

    def __post_init__(self) -> None:
        if self.pieces == "standard":
            self.catalogue = {name: list(cells) for name, cells in STANDARD.items()}
        else:
            data = json.loads(self.pieces)
            self.catalogue = {name: [tuple(c) for c in cells] for name, cells in data.items()}
        self.shapes = {name: shapes_of(cells) for name, cells in self.catalogue.items()}
        self.start_round(0)

    # --- geometry -------------------------------------------------------------------------------------------------

    def cubes(self) -> dict[Cell, tuple[str, int]]:
        return {c: (piece, player) for piece, player, cells in self.placed for c in cells}

    def top(self, x: int, y: int) -> int:
        """The level of the highest polycube cube in column x,y, or -1 for an empty column."""
        return max((c[2] for c in self.cubes() if c[0] == x and c[1] == y), default=-1)

    def lowered(self, shape: frozenset[Cell], dx: int, dy: int) -> tuple[Cell, ...] | None:
        """Where the shape at x,y offset dx,dy comes to rest, or None if a balance cube stops it."""
        columns: dict[tuple[int, int], int] = {}
        for x, y, z in shape:
            col = (x + dx, y + dy)
            columns[col] = min(z, columns.get(col, z))
        if any(col not in RING for col in columns):
            return None
        level = 0
        for (x, y), low in columns.items():
            level = max(level, self.top(x, y) + 1 - low)
        for (x, y), low in columns.items():
            for bx, by, bz in self.balances:
                if (bx, by) == (x, y) and bz > self.top(x, y) and level + low <= bz:
                    return None  # it would land on (or pass through) the balance cube
        return tuple(sorted((x + dx, y + dy, z + level) for x, y, z in shape))

    def balance_spots(self, extra: tuple[Cell, ...]) -> list[Cell]:
        cubes = set(self.cubes()) | set(extra)
        out = []
        for x, y in RING:
            zs = [c[2] for c in cubes if c[0] == x and c[1] == y]
            if zs:
                spot = (x, y, max(zs) + 1)
                if spot not in self.balances:
                    out.append(spot)
        return sorted(out)

    def placements(self, piece: str) -> list[tuple[Cell, ...]]:
        found: set[tuple[Cell, ...]] = set()
        for shape in self.shapes[piece]:
            for dx in range(3):
                for dy in range(3):
                    cells = self.lowered(shape, dx, dy)
                    if cells is not None:
                        found.add(cells)
        return sorted(found)

    def fits(self, piece: str) -> bool:
        return bool(self.placements(piece))

    # --- turns and rounds -----------------------------------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        if self.to_move is None:
            return []
        out = []
        for piece in self.pool:
            if self.required_size is not None and len(self.catalogue[piece]) != self.required_size:
                continue
            for cells in self.placements(piece):
                for spot in self.balance_spots(cells):
                    out.append(notation(piece, cells, spot))
        return out

    def start_round(self, opener: int) -> None:
        """Round self.round starts on an empty base, opened by ``opener``, unless nobody can place."""
        self.pool = list(self.catalogue)
        self.placed = []
        self.balances = []
        self.toppled = False
        self.points.append([0.0] * self.players)
        self.movers.append([])
        self.openers.append(opener)
        self.to_move = opener
        self.begin_turn()

    def begin_turn(self) -> None:
        """The player to move draws (variant) and is stuck if nothing fits; then the round ends."""
        self.required_size = None
        if self.random_size:
            assert self.draw is not None
            size = self.draw(self.round)
            sizes = {len(self.catalogue[p]) for p in self.pool}
            assert size in sizes, (size, sizes)
            fitting = {len(self.catalogue[p]) for p in self.pool if self.fits(p)}
            if self.no_fit == "redraw" and fitting:
                assert size in fitting, (size, fitting)
            self.required_size = size
        if not self.legal_moves():
            self.end_round("stuck", self.to_move)

    def end_round(self, how: str, next_player: int | None) -> None:
        height = max((c[2] + 1 for c in self.cubes()), default=0)
        self.ends.append(
            {
                "round": self.round,
                "how": how,
                "pieces": len(self.placed),
                "height": height,
                "size": self.required_size if how == "stuck" else None,
            }
        )
        self.round += 1
        self.required_size = None
        if self.round == self.rounds:
            self.to_move = None
            return
        if self.opener == "rotate":
            opener = self.round % self.players
        elif self.opener == "first":
            opener = 0
        else:
            assert next_player is not None
            opener = next_player
        self.start_round(opener)

    def tower(self, cells: list[tuple[str, tuple[Cell, ...]]], balances: list[Cell]) -> Tower:
        bodies: list[Body] = []
        for i, (piece, cs) in enumerate(cells):
            bodies.append(body_from_cells(f"{piece} #{i + 1}", cs))
        half = BALANCE / 2
        for i, (x, y, z) in enumerate(balances):
            cx, cy = x + 0.5, y + 0.5  # centred on the face below
            box = (cx - half, cy - half, float(z), cx + half, cy + half, z + BALANCE)
            bodies.append(Body(f"balance cube {i + 1}", (box,)))
        return Tower(tuple(bodies), ground=((0.0, 0.0, 3.0, 3.0),), tie="falls")

    def current_tower(self) -> Tower:
        return self.tower([(p, cs) for p, _, cs in self.placed], self.balances)

    def play(self, text: str) -> None:
        assert text in self.legal_moves(), text
        p = self.to_move
        assert p is not None
        head, _, spot_text = text.partition(" + ")
        piece, *cell_texts = head.split()
        cells = tuple(tuple(int(v) for v in c.split(",")) for c in cell_texts)
        spot: Cell = tuple(int(v) for v in spot_text.split(","))  # type: ignore[assignment]
        self.movers[-1].append(p)
        self.pool.remove(piece)
        self.placed.append((piece, p, cells))  # type: ignore[arg-type]
        nxt = (p + 1) % self.players
        for step in (1, 2):
            if step == 2:
                self.balances.append(spot)
            verdict = judge(self.current_tower(), margin=False, explain=True)
            if not verdict.stands:
                self.points[-1][p] = 0.0
                self.falls.append(
                    {
                        "round": self.round,
                        "player": p,
                        "step": step,
                        "move": text,
                        "explanation": verdict.fault,
                        "moving": list(verdict.moving),
                    }
                )
                self.toppled = True
                self.end_round("fall", nxt)
                return
        self.points[-1][p] += len(self.catalogue[piece])
        if not self.pool:
            self.end_round("placed", nxt)
            return
        self.to_move = nxt
        self.begin_turn()

    # --- results ---------------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.to_move is None

    def scores(self) -> list[float]:
        return [sum(r[i] for r in self.points) for i in range(self.players)]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        totals = self.scores()
        best = max(totals)
        tied = [i for i in range(self.players) if totals[i] == best]
        if self.tiebreak == "shared" or len(tied) == 1:
            return tied
        last = self.movers[self.rounds - 1]

        def when(i: int) -> int:
            return max((k for k, q in enumerate(last) if q == i), default=-1)

        latest = max(when(i) for i in tied)
        if latest < 0:
            return [min(tied)]
        return [i for i in tied if when(i) == latest]

    def margin(self) -> float:
        if not self.placed or self.toppled:
            return 0.0
        return round(judge(self.current_tower(), margin=True, explain=False).margin_deg, 2)

    def to_json(self) -> dict[str, object]:
        cubes = self.cubes()
        return {
            "round": self.round,
            "rounds": self.rounds,
            "to_move": self.to_move,
            "pool": list(self.pool),
            "required_size": self.required_size,
            "cubes": [
                {"x": c[0], "y": c[1], "z": c[2], "piece": piece, "player": player}
                for c, (piece, player) in sorted(cubes.items())
            ],
            "pieces": [
                {"piece": piece, "player": player, "cells": [list(c) for c in sorted(cs)]}
                for piece, player, cs in self.placed
            ],
            "balance_cubes": [list(b) for b in self.balances],
            "points": [list(r) for r in self.points],
            "falls": [dict(f) for f in self.falls],
            "fall": dict(self.falls[-1]) if self.falls else None,
            "ends": [dict(e) for e in self.ends],
            "margin_deg": self.margin(),
        }
