"""An independent audit of Blokus 3D against rulebook 003, sharing no code with the engine or bench/.

The pieces are grown cube by cube and told apart by rotations built from two quarter turns (not the engine's
signed permutation matrices). The placement rule is the rulebook's, cell by cell: inside the mask and under its
height (lines 25-27), no gap under a cube (line 28), the first piece of a colour on the board touching a placed
piece (line 16), later pieces touching their own colour (line 18). Near misses of every kind are made by moving a
legal placement one cell along each axis, and others by dropping a random rotation of a random piece from above
onto the cubes where it falls; ``play`` must accept exactly the ones this check allows.
"""

from __future__ import annotations

import random

import pytest

import kumiki
from kumiki.games.blokus3d import PIECES, register_structure

Cell = tuple[int, int, int]
FACES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def norm(cells: object) -> frozenset[Cell]:
    cells = list(cells)  # type: ignore[call-overload]
    low = [min(c[i] for c in cells) for i in range(3)]
    return frozenset((x - low[0], y - low[1], z - low[2]) for x, y, z in cells)


def turns(shape: frozenset[Cell]) -> set[frozenset[Cell]]:
    """Every shape reached by quarter turns about x and about z: the 24 rotations, no mirror."""
    seen, todo = {shape}, [shape]
    while todo:
        s = todo.pop()
        for t in (norm((x, -z, y) for x, y, z in s), norm((-y, x, z) for x, y, z in s)):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def key(shape: frozenset[Cell]) -> tuple[Cell, ...]:
    return min(tuple(sorted(t)) for t in turns(shape))


def polycubes(size: int) -> set[tuple[Cell, ...]]:
    """Every polycube of ``size`` cubes, one key per class under rotation."""
    shapes = {frozenset({(0, 0, 0)})}
    for _ in range(size - 1):
        grown = ((s, (x + dx, y + dy, z + dz)) for s in shapes for x, y, z in s for dx, dy, dz in FACES)
        shapes = {norm(s | {cell}) for s, cell in grown if cell not in s}
    return {key(s) for s in shapes}


def test_the_pieces_are_every_polycube_of_two_to_four_cubes_each_once():
    """Rulebook line 6: eleven pieces, each a different shape; 1 + 2 + 8 polycubes, the two screws apart."""
    wanted = polycubes(2) | polycubes(3) | polycubes(4)
    assert len(wanted) == 11
    assert {key(norm(cells)) for cells in PIECES.values()} == wanted
    counts = {name: len(turns(norm(cells))) for name, cells in PIECES.items()}
    assert counts == {
        "I2": 3, "I3": 3, "V3": 12, "I4": 3, "O4": 3, "T4": 12, "L4": 24, "Z4": 12, "P4": 8, "A4": 12, "B4": 12,
    }  # fmt: skip
    assert sum(counts.values()) == 104


class Table:
    """The cubes of a position, read from ``to_json()`` only."""

    def __init__(self, state: kumiki.State) -> None:
        data = state.to_json()
        self.limits = data["limits"]
        self.cubes = {(c["x"], c["y"], c["z"]): c["colour"] for c in data["cubes"]}
        self.colour = data["colour_to_move"]
        self.first = all(c != self.colour for c in self.cubes.values())
        self.left = set(data["pieces_left"][self.colour])

    def allows(self, piece: str, cells: tuple[Cell, ...]) -> bool:
        if piece not in self.left:
            return False
        for x, y, z in cells:
            if not (0 <= x < 10 and 0 <= y < 10 and 0 <= z < self.limits[x][y]) or (x, y, z) in self.cubes:
                return False
            if z > 0 and (x, y, z - 1) not in self.cubes and (x, y, z - 1) not in cells:
                return False
        near = [self.cubes.get((x + dx, y + dy, z + dz)) for x, y, z in cells for dx, dy, dz in FACES]
        if not self.cubes:
            return True
        if self.first:
            return min(z for _, _, z in cells) == 0 and any(c is not None for c in near)
        return self.colour in near

    def dropped(self, rng: random.Random) -> tuple[str, tuple[Cell, ...]]:
        """A random piece, turned at random, let down at a random spot until it rests (on the board or cubes)."""
        piece = rng.choice(sorted(PIECES))
        shape = rng.choice(sorted(tuple(sorted(t)) for t in turns(norm(PIECES[piece]))))
        if self.cubes and rng.random() < 0.5:  # one of its cubes over a column already built on
            (cx, cy, _), (x0, y0, _) = rng.choice(sorted(self.cubes)), rng.choice(shape)
            tx, ty = cx - x0, cy - y0
        else:
            tx, ty = rng.randrange(-1, 10), rng.randrange(-1, 10)
        height = {(x, y): z + 1 for x, y, z in sorted(self.cubes)}  # the last is the top: columns have no gaps
        tz = max(height.get((x + tx, y + ty), 0) - z for x, y, z in shape)
        return piece, tuple((x + tx, y + ty, z + tz) for x, y, z in shape)


def text(piece: str, cells: tuple[Cell, ...]) -> str:
    return piece + " " + " ".join(f"{x},{y},{z}" for x, y, z in sorted(cells))


register_structure("_audit_ragged", ["9000000009", "0100000010", "0012345000", "0098765000", "0000000000"] * 2)


def agrees(state: kumiki.State, table: Table, piece: str, cells: tuple[Cell, ...]) -> bool:
    """Play the placement on a copy; the engine must accept it exactly when the table allows it, and a refusal is
    one line that leaves the copy as it was. Whether it was accepted."""
    twin, move = state.copy(), text(piece, cells)
    try:
        twin.play(move)
    except kumiki.IllegalMove as error:
        assert not table.allows(piece, cells), (move, str(error))
        assert "\n" not in str(error) and twin.to_json() == state.to_json()
        return False
    assert table.allows(piece, cells), f"{move} was accepted"
    return True


@pytest.mark.parametrize(
    ("structure", "players", "per_player"), [("A", 3, 1), ("D", 2, 2), ("_audit_ragged", 4, 1), ("C", 2, 1)]
)
def test_play_accepts_exactly_what_the_rulebook_allows(structure, players, per_player):
    game = kumiki.load_game("blokus3d", players=players, structure=structure, colours_per_player=per_player)
    state = game.new_state()
    rng = random.Random(players * 10 + per_player)
    verdicts = []
    while not state.over:
        table = Table(state)
        moves = state.legal_moves()
        for move in rng.sample(moves, min(6, len(moves))):
            assert table.allows(move.piece, move.cells), move
            for dx, dy, dz in FACES:  # the near misses: one cell off
                cells = tuple((x + dx, y + dy, z + dz) for x, y, z in move.cells)
                verdicts.append(agrees(state, table, move.piece, cells))
        for _ in range(20):
            verdicts.append(agrees(state, table, *table.dropped(rng)))
        state.play(rng.choice(moves))
    assert True in verdicts and False in verdicts  # both kinds were tried
