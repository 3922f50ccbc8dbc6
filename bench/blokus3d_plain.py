"""Blokus 3D written the plain way: a dict of (x, y, z) cubes, rules read straight off the spec, no bitboards.

It serves twice: as the baseline the benchmark compares the bitboard engine with, and as an independent oracle
that the tests replay random games against (any disagreement is a bug in one of the two). Clarity comes before
speed: every candidate placement is built cube by cube and checked rule by rule (`why_illegal`).
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterator
from pathlib import Path

Cell = tuple[int, int, int]
Shape = frozenset[Cell]

STRUCTURES_FILE = Path(__file__).resolve().parent.parent / "src" / "kumiki" / "games" / "blokus3d" / "structures.toml"
SIZE = 10  # turntable cells x, y in 0..9

# The 11 pieces of a colour, in piece order, each as one shape.
PIECES: dict[str, tuple[Cell, ...]] = {
    "I2": ((0, 0, 0), (1, 0, 0)),
    "I3": ((0, 0, 0), (1, 0, 0), (2, 0, 0)),
    "V3": ((0, 0, 0), (1, 0, 0), (0, 1, 0)),
    "I4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)),
    "O4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)),
    "T4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
    "L4": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
    "Z4": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
    "P4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "A4": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)),
    "B4": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)),
}
PIECE_ORDER: tuple[str, ...] = tuple(PIECES)

# Face neighbours: the 6 cubes sharing a face (edges and corners do not count).
FACES: tuple[Cell, ...] = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def _determinant(m: tuple[tuple[int, ...], ...]) -> int:
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def proper_rotations() -> list[tuple[tuple[int, ...], ...]]:
    """The 24 rotation matrices of the cube: signed permutation matrices with determinant +1 (no mirrors)."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = tuple(tuple(signs[r] if col == perm[r] else 0 for col in range(3)) for r in range(3))
            if _determinant(m) == 1:
                out.append(m)
    assert len(out) == 24
    return out


def normalise(cells: object) -> Shape:
    """The shape translated so that its smallest x, y and z are 0."""
    cells = list(cells)  # type: ignore[call-overload]
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    return frozenset((x - mx, y - my, z - mz) for x, y, z in cells)


def orientations(piece: str) -> list[Shape]:
    """The distinct shapes (normalised) the piece takes under the 24 proper rotations, in a fixed order."""
    seen: list[Shape] = []
    for m in proper_rotations():
        turned = [tuple(sum(m[r][k] * cell[k] for k in range(3)) for r in range(3)) for cell in PIECES[piece]]
        shape = normalise(turned)
        if shape not in seen:
            seen.append(shape)
    return seen


ORIENTATIONS: dict[str, list[Shape]] = {name: orientations(name) for name in PIECE_ORDER}


def load_grid(structure: str, colours: int) -> list[str]:
    with STRUCTURES_FILE.open("rb") as f:
        data = tomllib.load(f)
    return list(data[structure][str(colours)])


def notation(piece: str, cells: object) -> str:
    return " ".join([piece] + [f"{x},{y},{z}" for x, y, z in sorted(cells)])  # type: ignore[call-overload]


def parse(move: str) -> tuple[str, tuple[Cell, ...]]:
    piece, *rest = move.split(" ")
    cells = tuple(tuple(int(v) for v in text.split(",")) for text in rest)
    assert all(len(c) == 3 for c in cells), move
    return piece, cells  # type: ignore[return-value]


class PlainBlokus3D:
    """A game of Blokus 3D in progress. `grid` (10 rows, y = 9 first) overrides the structure's grid, for tests."""

    def __init__(
        self, players: int = 2, structure: str = "A", colours_per_player: int = 1, grid: list[str] | None = None
    ) -> None:
        assert 2 <= players <= 4, players
        assert colours_per_player == 1 or (colours_per_player == 2 and players == 2), (players, colours_per_player)
        self.players = players
        self.structure = structure
        self.colours = players * colours_per_player
        rows = grid if grid is not None else load_grid(structure, self.colours)
        assert len(rows) == SIZE and all(len(row) == SIZE for row in rows), rows
        # height[(x, y)] = h: cubes may occupy levels 0 … h-1 of that cell; 0 = outside the mask.
        self.height: dict[tuple[int, int], int] = {
            (x, SIZE - 1 - i): int(row[x]) for i, row in enumerate(rows) for x in range(SIZE)
        }
        self.cubes: dict[Cell, tuple[int, str]] = {}  # cell -> (colour, piece)
        self.pieces_left: list[list[str]] = [list(PIECE_ORDER) for _ in range(self.colours)]
        self.out: set[int] = set()
        self.colour_to_move: int | None = 0
        self._cache: tuple[object, list[str]] | None = None  # (position key, legal moves)

    # -- who moves ------------------------------------------------------------------------------------------------

    def player_of(self, colour: int) -> int:
        return colour % self.players

    @property
    def to_move(self) -> int | None:
        return None if self.colour_to_move is None else self.player_of(self.colour_to_move)

    @property
    def over(self) -> bool:
        return self.colour_to_move is None

    # -- the rules ------------------------------------------------------------------------------------------------

    def why_illegal(self, colour: int, piece: str, cells: object) -> str | None:
        """None if `colour` may place `piece` on exactly these cells now, else the rule it breaks:
        "placed", "shape", "mask", "height", "overlap", "gap" or "contact"."""
        cells = set(cells)  # type: ignore[call-overload]
        if piece not in self.pieces_left[colour]:
            return "placed"
        if len(cells) != len(PIECES[piece]) or normalise(cells) not in ORIENTATIONS[piece]:
            return "shape"
        return self.table_rule_broken(colour, cells)

    def table_rule_broken(self, colour: int, cells: set[Cell] | tuple[Cell, ...]) -> str | None:
        """The rules about where a piece of the right shape goes: None or "mask", "height", "overlap", "gap",
        "contact"."""
        for x, y, _ in cells:
            if not (0 <= x < SIZE and 0 <= y < SIZE) or self.height[(x, y)] == 0:
                return "mask"
        for x, y, z in cells:
            if not 0 <= z < self.height[(x, y)]:
                return "height"
        if any(cell in self.cubes for cell in cells):
            return "overlap"
        for x, y, z in cells:
            if z > 0 and (x, y, z - 1) not in self.cubes and (x, y, z - 1) not in cells:
                return "gap"
        if not self.contact_ok(colour, set(cells)):
            return "contact"
        return None

    def touching_colours(self, cells: set[Cell]) -> set[int]:
        """The colours of the cubes on the table sharing a face with one of `cells`."""
        out = set()
        for x, y, z in cells:
            for dx, dy, dz in FACES:
                neighbour = (x + dx, y + dy, z + dz)
                if neighbour in self.cubes:
                    out.add(self.cubes[neighbour][0])
        return out

    def contact_ok(self, colour: int, cells: set[Cell]) -> bool:
        if not self.cubes:  # the very first piece of the game goes anywhere
            return True
        touching = self.touching_colours(cells)
        if len(self.pieces_left[colour]) == len(PIECE_ORDER):  # this colour's first piece
            return bool(touching) and any(z == 0 for _, _, z in cells)
        return colour in touching

    def candidates(self, colour: int) -> Iterator[tuple[str, tuple[Cell, ...]]]:
        """Every (piece, sorted cells) of an unplaced piece of `colour`, in every rotation and every translation
        that keeps it within the mask's bounding box and below the highest limit (any other translation breaks
        the mask or height rule anyway). Legal or not; may repeat."""
        inside = [xy for xy, h in self.height.items() if h > 0]
        if not inside:
            return
        x0, x1 = min(x for x, _ in inside), max(x for x, _ in inside)
        y0, y1 = min(y for _, y in inside), max(y for _, y in inside)
        top = max(self.height.values())
        for piece in self.pieces_left[colour]:
            for shape in ORIENTATIONS[piece]:
                wx = max(c[0] for c in shape)
                wy = max(c[1] for c in shape)
                wz = max(c[2] for c in shape)
                for dx in range(x0, x1 - wx + 1):
                    for dy in range(y0, y1 - wy + 1):
                        for dz in range(0, top - wz):
                            yield piece, tuple(sorted((x + dx, y + dy, z + dz) for x, y, z in shape))

    def placements(self, colour: int) -> list[tuple[str, tuple[Cell, ...]]]:
        """Every legal (piece, sorted cells) for `colour`, in legal-move order, without duplicates."""
        found = {(piece, cells) for piece, cells in self.candidates(colour)}
        legal = [(piece, cells) for piece, cells in found if self.table_rule_broken(colour, cells) is None]
        return sorted(legal, key=lambda move: (PIECE_ORDER.index(move[0]), move[1]))

    def has_placement(self, colour: int) -> bool:
        return any(self.table_rule_broken(colour, cells) is None for _, cells in self.candidates(colour))

    def legal_moves(self) -> list[str]:
        if self.colour_to_move is None:
            return []
        key = (len(self.cubes), self.colour_to_move, tuple(map(len, self.pieces_left)))
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, [notation(p, cells) for p, cells in self.placements(self.colour_to_move)])
        return list(self._cache[1])

    def play(self, move: str) -> None:
        assert move in self.legal_moves(), move
        mover = self.colour_to_move
        assert mover is not None
        piece, cells = parse(move)
        for cell in cells:
            self.cubes[cell] = (mover, piece)
        self.pieces_left[mover].remove(piece)
        self._cache = None
        # Go round from the colour after the mover, up to the mover itself.
        self.colour_to_move = None
        for step in range(1, self.colours + 1):
            colour = (mover + step) % self.colours
            if colour in self.out:
                continue
            if self.has_placement(colour):
                self.colour_to_move = colour
                break
            self.out.add(colour)

    # -- scoring --------------------------------------------------------------------------------------------------

    def top_colours(self) -> dict[tuple[int, int], int]:
        """The colour of the topmost cube of every turntable cell that has a cube."""
        tops: dict[tuple[int, int], tuple[int, int]] = {}  # (x, y) -> (z, colour)
        for (x, y, z), (colour, _) in self.cubes.items():
            if (x, y) not in tops or z > tops[(x, y)][0]:
                tops[(x, y)] = (z, colour)
        return {xy: colour for xy, (_, colour) in tops.items()}

    def colour_scores(self) -> list[int]:
        visible = [0] * self.colours
        for colour in self.top_colours().values():
            visible[colour] += 1
        return [visible[c] - len(self.pieces_left[c]) for c in range(self.colours)]

    def scores(self) -> list[float]:
        """A player's score is their colour's; with two colours each, the better one (Rumis)."""
        per_colour = self.colour_scores()
        return [
            float(max(per_colour[c] for c in range(self.colours) if self.player_of(c) == p))
            for p in range(self.players)
        ]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        scores = self.scores()
        return [p for p in range(self.players) if scores[p] == max(scores)]

    def to_json(self) -> dict[str, object]:
        return {
            "structure": self.structure,
            "limits": [[self.height[(x, y)] for y in range(SIZE)] for x in range(SIZE)],
            "cubes": [
                {"x": x, "y": y, "z": z, "colour": colour, "piece": piece}
                for (x, y, z), (colour, piece) in sorted(self.cubes.items())
            ],
            "pieces_left": [list(left) for left in self.pieces_left],
            "out": sorted(self.out),
            "colour_to_move": self.colour_to_move,
        }
