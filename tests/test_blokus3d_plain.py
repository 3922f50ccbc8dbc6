"""The plain Blokus 3D reference (bench/blokus3d_plain.py) against the rules, one hand-built position per rule.

The reference is the oracle the bitboard engine is checked against, so it is tested on its own here.
"""

from __future__ import annotations

import itertools
import random

import pytest

from bench.blokus3d_plain import (
    FACES,
    ORIENTATIONS,
    PIECE_ORDER,
    PIECES,
    SIZE,
    PlainBlokus3D,
    normalise,
    notation,
    parse,
    proper_rotations,
)


def grid(limits: dict[tuple[int, int], int]) -> list[str]:
    """A 10-row grid (y = 9 first) with the given height limits and 0 elsewhere."""
    return ["".join(str(limits.get((x, y), 0)) for x in range(SIZE)) for y in reversed(range(SIZE))]


def block(x0: int, y0: int, x1: int, y1: int, h: int) -> dict[tuple[int, int], int]:
    return {(x, y): h for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}


def put(game: PlainBlokus3D, colour: int, piece: str, cells: list[tuple[int, int, int]]) -> None:
    """Hand-build a position: place a piece without the rules or the turn order."""
    for cell in cells:
        assert cell not in game.cubes
        game.cubes[cell] = (colour, piece)
    game.pieces_left[colour].remove(piece)


# -- pieces and rotations ----------------------------------------------------------------------------------------


def test_24_proper_rotations() -> None:
    rotations = proper_rotations()
    assert len(set(rotations)) == 24
    for m in rotations:
        columns = [tuple(m[r][c] for r in range(3)) for c in range(3)]
        assert sorted(map(abs, itertools.chain.from_iterable(m))) == [0] * 6 + [1] * 3
        assert len(set(map(abs, (sum(col) for col in columns)))) == 1  # a signed permutation
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert identity in rotations
    assert ((-1, 0, 0), (0, 1, 0), (0, 0, 1)) not in rotations  # a mirror


def test_rotation_counts() -> None:
    counts = {name: len(ORIENTATIONS[name]) for name in PIECE_ORDER}
    expected = {"I2": 3, "I3": 3, "V3": 12, "I4": 3, "O4": 3, "T4": 12, "L4": 24, "Z4": 12, "P4": 8, "A4": 12, "B4": 12}
    assert counts == expected
    assert PIECE_ORDER == ("I2", "I3", "V3", "I4", "O4", "T4", "L4", "Z4", "P4", "A4", "B4")
    for name, shapes in ORIENTATIONS.items():
        assert normalise(PIECES[name]) in shapes
        assert all(len(shape) == len(PIECES[name]) for shape in shapes)


def test_no_mirror_images() -> None:
    """A4 and B4 are mirror images of each other: neither can be turned into the other."""
    mirrored_a4 = normalise((-x, y, z) for x, y, z in PIECES["A4"])
    assert mirrored_a4 in ORIENTATIONS["B4"]
    assert mirrored_a4 not in ORIENTATIONS["A4"]
    assert not set(ORIENTATIONS["A4"]) & set(ORIENTATIONS["B4"])
    # P4 (three arms from a corner) is its own mirror image.
    assert normalise((-x, y, z) for x, y, z in PIECES["P4"]) in ORIENTATIONS["P4"]


def test_notation() -> None:
    cells = [(5, 4, 0), (3, 4, 0), (4, 5, 0), (4, 4, 0)]
    assert notation("T4", cells) == "T4 3,4,0 4,4,0 4,5,0 5,4,0"
    assert parse("T4 3,4,0 4,4,0 4,5,0 5,4,0") == ("T4", ((3, 4, 0), (4, 4, 0), (4, 5, 0), (5, 4, 0)))


# -- the structure ------------------------------------------------------------------------------------------------


def test_limits_read_with_the_first_row_north() -> None:
    game = PlainBlokus3D(players=2, structure="B")
    limits = game.to_json()["limits"]
    assert isinstance(limits, list)
    assert limits[2][2] == 3 and limits[7][2] == 3 and limits[8][2] == 0  # the 6-long arm, along x at y = 1..2
    assert limits[2][7] == 3 and limits[3][7] == 3 and limits[4][7] == 0  # the arm along y reaches y = 7
    assert limits[2][8] == 0 and limits[2][0] == 0
    assert PlainBlokus3D(players=3, structure="B").to_json()["limits"][2][2] == 5  # "3" = 3 colours
    assert PlainBlokus3D(players=2, structure="B", colours_per_player=2).to_json()["limits"][2][2] == 6


def test_start_position() -> None:
    game = PlainBlokus3D(players=3, structure="C")
    assert game.colour_to_move == 0 and game.to_move == 0
    assert game.scores() == [-11.0, -11.0, -11.0]
    assert game.winners() == []
    data = game.to_json()
    assert data["structure"] == "C" and data["cubes"] == [] and data["out"] == []
    assert data["pieces_left"] == [list(PIECE_ORDER)] * 3 and data["colour_to_move"] == 0


# -- placing ------------------------------------------------------------------------------------------------------


def test_legal_move_order_and_first_moves() -> None:
    game = PlainBlokus3D(players=2, structure="A")  # 4×4 footprint x, y in 3..6, height 4
    moves = game.legal_moves()
    assert len(moves) == len(set(moves))
    key = [(PIECE_ORDER.index(m.split()[0]), parse(m)[1]) for m in moves]
    assert key == sorted(key)
    # I2 on an empty 4×4 tower: 12 along x + 12 along y + 16 standing (only on the board: no gaps).
    i2 = [m for m in moves if m.startswith("I2 ")]
    assert len(i2) == 40
    assert i2[0] == "I2 3,3,0 3,3,1" and i2[1] == "I2 3,3,0 3,4,0" and i2[2] == "I2 3,3,0 4,3,0"
    assert all(min(z for *_, z in parse(m)[1]) == 0 for m in moves)  # nothing floats on an empty table
    assert [m.split()[0] for m in moves] == sorted((m.split()[0] for m in moves), key=PIECE_ORDER.index)


def test_mask() -> None:
    game = PlainBlokus3D(players=2, structure="A")
    assert game.why_illegal(0, "I2", [(2, 3, 0), (3, 3, 0)]) == "mask"
    assert game.why_illegal(0, "I2", [(6, 6, 0), (6, 7, 0)]) == "mask"
    assert game.why_illegal(0, "I2", [(-1, 0, 0), (0, 0, 0)]) == "mask"
    assert game.why_illegal(0, "I2", [(3, 3, 0), (4, 3, 0)]) is None
    assert "I2 2,3,0 3,3,0" not in game.legal_moves()


def test_height_limit() -> None:
    game = PlainBlokus3D(grid=grid(block(0, 0, 3, 3, 1) | {(5, 5): 2}))
    assert game.why_illegal(0, "I2", [(0, 0, 0), (0, 0, 1)]) == "height"
    assert game.why_illegal(0, "I2", [(5, 5, 0), (5, 5, 1)]) is None
    assert game.why_illegal(0, "I3", [(5, 5, 0), (5, 5, 1), (5, 5, 2)]) == "height"
    assert all(z == 0 or (x, y) == (5, 5) for m in game.legal_moves() for x, y, z in parse(m)[1])
    # A structure's real limit: A for 2 colours is 4 high.
    tower = PlainBlokus3D(structure="A")
    assert tower.why_illegal(0, "I4", [(3, 3, 0), (3, 3, 1), (3, 3, 2), (3, 3, 3)]) is None
    put(tower, 0, "I4", [(3, 3, 0), (3, 3, 1), (3, 3, 2), (3, 3, 3)])
    assert tower.why_illegal(0, "V3", [(3, 3, 4), (3, 4, 3), (3, 4, 4)]) == "height"


def test_overlap() -> None:
    game = PlainBlokus3D(structure="A")
    game.play("I2 3,3,0 4,3,0")
    assert game.why_illegal(1, "I2", [(4, 3, 0), (5, 3, 0)]) == "overlap"
    assert game.why_illegal(1, "I2", [(5, 3, 0), (6, 3, 0)]) is None
    assert not any((4, 3, 0) in parse(m)[1] for m in game.legal_moves())


def test_no_gaps() -> None:
    game = PlainBlokus3D(structure="A")
    assert game.why_illegal(0, "I2", [(3, 3, 1), (4, 3, 1)]) == "gap"  # floating
    # an overhang in the x-z plane: (4, 3, 2) has nothing under it
    assert game.why_illegal(0, "L4", [(3, 3, 0), (3, 3, 1), (3, 3, 2), (4, 3, 2)]) == "gap"
    # the piece's own cubes hold it up
    assert game.why_illegal(0, "V3", [(3, 3, 0), (3, 3, 1), (4, 3, 0)]) is None
    game.play("I2 3,3,0 4,3,0")
    # cubes on the table (of any colour) hold a piece up too
    assert game.why_illegal(1, "L4", [(3, 3, 1), (4, 3, 1), (5, 3, 1), (5, 3, 0)]) is None
    assert game.why_illegal(1, "L4", [(3, 3, 1), (4, 3, 1), (5, 3, 1), (3, 4, 1)]) == "gap"
    assert game.why_illegal(1, "T4", [(3, 3, 1), (4, 3, 1), (5, 3, 1), (4, 3, 0)]) == "overlap"


def test_shape_and_placed_pieces() -> None:
    game = PlainBlokus3D(structure="A")
    assert game.why_illegal(0, "I3", [(3, 3, 0), (4, 3, 0), (4, 4, 0)]) == "shape"
    assert game.why_illegal(0, "A4", [(3, 3, 0), (4, 3, 0), (3, 4, 0), (3, 3, 1)]) == "shape"  # that is P4
    assert game.why_illegal(0, "P4", [(3, 3, 0), (4, 3, 0), (3, 4, 0), (3, 3, 1)]) is None
    game.play("I2 3,3,0 4,3,0")
    game.play("I2 5,3,0 6,3,0")
    assert game.why_illegal(0, "I2", [(3, 4, 0), (4, 4, 0)]) == "placed"
    assert not any(m.startswith("I2 ") for m in game.legal_moves())


def test_first_piece_of_the_game_goes_anywhere() -> None:
    game = PlainBlokus3D(structure="D")
    assert game.why_illegal(0, "I2", [(2, 2, 0), (3, 2, 0)]) is None  # a corner of the pyramid
    assert game.why_illegal(0, "O4", [(4, 4, 0), (5, 4, 0), (4, 5, 0), (5, 5, 0)]) is None  # the centre
    assert "O4 4,4,0 4,5,0 5,4,0 5,5,0" in game.legal_moves()


def test_first_piece_of_another_colour_touches_the_table_and_a_piece() -> None:
    game = PlainBlokus3D(structure="A")
    game.play("I2 3,3,0 4,3,0")
    assert game.colour_to_move == 1
    assert game.why_illegal(1, "I2", [(6, 5, 0), (6, 6, 0)]) == "contact"  # touches nothing
    assert game.why_illegal(1, "I2", [(5, 4, 0), (6, 4, 0)]) == "contact"  # an edge of (4, 3, 0) only
    assert game.why_illegal(1, "I2", [(3, 3, 1), (4, 3, 1)]) == "contact"  # touches, but not the board
    assert game.why_illegal(1, "I2", [(5, 3, 0), (6, 3, 0)]) is None
    assert game.why_illegal(1, "I2", [(3, 4, 0), (3, 5, 0)]) is None
    assert game.why_illegal(1, "I2", [(5, 3, 0), (5, 3, 1)]) is None
    # on the board at one end, on top of the other colour at the other
    assert game.why_illegal(1, "V3", [(4, 3, 1), (5, 3, 0), (5, 3, 1)]) is None
    moves = game.legal_moves()
    assert moves and all(any(z == 0 for *_, z in parse(m)[1]) for m in moves)
    assert "I2 5,3,0 6,3,0" in moves and "I2 3,3,1 4,3,1" not in moves


def test_first_piece_of_a_third_colour_may_touch_any_colour() -> None:
    game = PlainBlokus3D(players=3, structure="A")
    game.play("I2 3,3,0 4,3,0")
    game.play("I2 5,3,0 6,3,0")
    assert game.colour_to_move == 2
    assert game.why_illegal(2, "I2", [(6, 4, 0), (6, 5, 0)]) is None  # touches colour 1 only
    assert game.why_illegal(2, "I2", [(3, 4, 0), (3, 5, 0)]) is None  # touches colour 0 only
    assert game.why_illegal(2, "I2", [(4, 5, 0), (5, 5, 0)]) == "contact"


def later_position() -> PlainBlokus3D:
    """Colour 0 at (3..4, 3, 0), colour 1 at (5..6, 3, 0); colour 0 to move its second piece."""
    game = PlainBlokus3D(structure="A")
    game.play("I2 3,3,0 4,3,0")
    game.play("I2 5,3,0 6,3,0")
    assert game.colour_to_move == 0
    return game


def test_later_pieces_touch_their_own_colour() -> None:
    game = later_position()
    assert game.why_illegal(0, "I3", [(3, 4, 0), (4, 4, 0), (5, 4, 0)]) is None  # own side face (and colour 1's)
    assert game.why_illegal(0, "I3", [(5, 4, 0), (6, 4, 0), (6, 5, 0)]) == "shape"
    assert game.why_illegal(0, "V3", [(5, 4, 0), (6, 4, 0), (6, 5, 0)]) == "contact"  # colour 1 and an edge of 0
    assert game.why_illegal(0, "O4", [(5, 3, 1), (6, 3, 1), (5, 3, 2), (6, 3, 2)]) == "contact"  # on colour 1 only
    assert game.why_illegal(0, "O4", [(4, 3, 1), (5, 3, 1), (4, 3, 2), (5, 3, 2)]) is None  # on own and colour 1
    assert game.why_illegal(0, "I3", [(3, 3, 1), (3, 4, 1), (3, 5, 1)]) == "gap"
    assert game.why_illegal(0, "V3", [(3, 3, 1), (3, 4, 0), (3, 4, 1)]) is None
    # the first-piece rule no longer applies: no cube on the board is needed
    assert game.why_illegal(0, "I3", [(3, 3, 1), (4, 3, 1), (5, 3, 1)]) is None
    assert game.why_illegal(0, "I2", [(3, 4, 0), (4, 4, 0)]) == "placed"
    moves = game.legal_moves()
    assert "O4 5,3,1 5,3,2 6,3,1 6,3,2" not in moves and "O4 4,3,1 4,3,2 5,3,1 5,3,2" in moves
    assert "I3 3,4,0 4,4,0 5,4,0" in moves and "V3 5,4,0 6,4,0 6,5,0" not in moves


def test_edge_and_corner_contact_does_not_count() -> None:
    game = later_position()  # colour 0 at (3..4, 3, 0), colour 1 at (5..6, 3, 0)
    # an edge at the same level: (5, 4, 0) meets colour 0's (4, 3, 0) along a vertical edge only
    assert game.why_illegal(0, "I3", [(5, 4, 0), (5, 5, 0), (5, 6, 0)]) == "contact"
    # an edge across levels: (5, 3, 1), on colour 1, meets (4, 3, 0) along a horizontal edge only
    assert game.why_illegal(0, "I3", [(5, 3, 1), (6, 3, 1), (6, 3, 2)]) == "shape"
    assert game.why_illegal(0, "V3", [(5, 3, 1), (6, 3, 1), (6, 3, 2)]) == "contact"
    game.play("I3 3,4,0 3,5,0 3,6,0")
    game.play("V3 5,4,0 6,4,0 6,5,0")
    assert game.colour_to_move == 0
    # a corner: (5, 4, 1), on colour 1, meets colour 0's (4, 3, 0) at a corner only
    assert game.why_illegal(0, "V3", [(5, 4, 1), (6, 4, 1), (6, 5, 1)]) == "contact"
    assert "V3 5,4,1 6,4,1 6,5,1" not in game.legal_moves()
    # a face: (4, 4, 0) touches (4, 3, 0) and (3, 4, 0)
    assert game.why_illegal(0, "V3", [(4, 4, 0), (4, 5, 0), (5, 5, 0)]) is None


def test_contact_through_each_face_counts_and_through_edges_or_corners_does_not() -> None:
    """The contact rule cell by cell: a later piece's cube touches an own cube in each of the 26 directions."""
    for dx, dy, dz in itertools.product((-1, 0, 1), repeat=3):
        if (dx, dy, dz) == (0, 0, 0):
            continue
        game = PlainBlokus3D(grid=grid(block(0, 0, 9, 9, 9)))
        put(game, 0, "I2", [(5 + dx, 5 + dy, 5 + dz), (9, 9, 0)])  # an own cube next to (5, 5, 5), any way
        put(game, 1, "I2", [(0, 0, 0), (0, 1, 0)])
        expected = (dx, dy, dz) in FACES
        assert game.contact_ok(0, {(5, 5, 5)}) is expected, (dx, dy, dz)
        assert game.contact_ok(1, {(5, 5, 5)}) is False


def test_touching_from_above_counts_in_play() -> None:
    game = later_position()
    assert "I3 3,3,1 4,3,1 5,3,1" in game.legal_moves()  # lies on own cubes (and colour 1's)
    assert "I3 5,3,1 6,3,1 6,4,1" not in game.legal_moves()
    game.play("I3 3,3,1 4,3,1 5,3,1")
    # colour 1 may now put a piece on top of colour 0's, touching its own (6, 3, 0) from above only at (6, 3, 1)
    assert game.why_illegal(1, "V3", [(6, 3, 1), (6, 4, 1), (6, 3, 2)]) == "gap"
    assert game.why_illegal(1, "I3", [(6, 3, 1), (6, 3, 2), (6, 3, 3)]) is None  # (6, 3, 1) sits on own (6, 3, 0)
    assert game.why_illegal(1, "I3", [(3, 3, 2), (4, 3, 2), (5, 3, 2)]) == "contact"  # on colour 0 only
    assert game.why_illegal(1, "I3", [(4, 3, 2), (5, 3, 2), (6, 3, 2)]) == "gap"


# -- turns, out and the end -----------------------------------------------------------------------------------------


def test_no_passing_and_illegal_moves_refused() -> None:
    game = PlainBlokus3D(structure="B")
    assert all(not m.startswith("pass") for m in game.legal_moves())
    with pytest.raises(AssertionError):
        game.play("I2 0,0,0 1,0,0")
    with pytest.raises(AssertionError):
        game.play("pass")
    game.play(game.legal_moves()[0])
    with pytest.raises(AssertionError):
        game.play(game.legal_moves()[0].replace(",0 ", ",1 ", 1))


def test_a_colour_that_cannot_place_is_out_and_skipped() -> None:
    # Two cells three high: once colour 0 covers the board, colour 1's first piece cannot reach level 0.
    game = PlainBlokus3D(grid=grid({(0, 0): 3, (1, 0): 3}))
    game.play("I2 0,0,0 1,0,0")
    assert game.out == {1}
    assert game.colour_to_move == 0 and game.to_move == 0  # colour 0 moves again (forced)
    assert game.legal_moves() == ["V3 0,0,1 0,0,2 1,0,1", "V3 0,0,1 1,0,1 1,0,2", "O4 0,0,1 0,0,2 1,0,1 1,0,2"]
    assert game.winners() == []
    game.play("V3 0,0,1 0,0,2 1,0,1")
    # one cell left: no piece fits, colour 0 is out too and the game is over
    assert game.over and game.colour_to_move is None and game.to_move is None
    assert game.legal_moves() == []
    assert game.to_json()["out"] == [0, 1]
    assert game.scores() == [2.0 - 9, 0.0 - 11]
    assert game.winners() == [0]


def test_a_colour_with_every_piece_placed_is_out_when_its_turn_comes() -> None:
    game = PlainBlokus3D(players=3, structure="A")
    game.pieces_left[1] = []  # as if colour 1 had placed all 11 pieces
    assert game.out == set()
    game.play("I2 3,3,0 4,3,0")
    assert game.out == {1} and game.colour_to_move == 2
    game.play("I2 5,3,0 6,3,0")
    assert game.colour_to_move == 0  # colour 1 is skipped from now on
    game.play(game.legal_moves()[0])
    assert game.colour_to_move == 2
    assert game.to_json()["out"] == [1]


def test_out_is_for_the_rest_of_the_game() -> None:
    # Colour 1 cannot start (no free board cell beside colour 0's piece) and stays out even once the tower grows.
    game = PlainBlokus3D(grid=grid({(0, 0): 4, (1, 0): 4, (5, 5): 1}))
    game.play("I2 0,0,0 1,0,0")
    assert game.out == {1}
    while not game.over:
        assert game.colour_to_move == 0
        game.play(game.legal_moves()[0])
    assert all(colour == 0 for colour, _ in game.cubes.values())


def test_game_ends_when_every_colour_is_out() -> None:
    game = PlainBlokus3D(grid=grid({(0, 0): 1, (1, 0): 1, (2, 0): 1, (3, 0): 1}))
    game.play("I2 0,0,0 1,0,0")
    assert game.colour_to_move == 1
    game.play("I2 2,0,0 3,0,0")
    assert game.over and game.out == {0, 1}
    assert game.scores() == [-8.0, -8.0] and game.winners() == [0, 1]


def test_scoring_counts_topmost_cubes_and_unplaced_pieces() -> None:
    game = PlainBlokus3D(structure="A")
    game.play("I2 3,3,0 4,3,0")
    game.play("V3 4,3,1 5,3,0 5,3,1")  # covers colour 0's (4, 3, 0)
    assert game.scores() == [1.0 - 10, 2.0 - 10]
    assert all(isinstance(s, float) for s in game.scores())
    assert game.winners() == []
    game.play("P4 3,4,0 3,4,1 3,5,0 4,4,0")
    assert game.top_colours() == {(3, 3): 0, (3, 4): 0, (3, 5): 0, (4, 4): 0, (4, 3): 1, (5, 3): 1}
    assert game.scores() == [4.0 - 9, 2.0 - 10]
    game.play("I2 3,3,1 3,3,2")  # colour 1 covers colour 0's (3, 3)
    assert game.top_colours()[(3, 3)] == 1
    assert game.scores() == [3.0 - 9, 3.0 - 9]
    assert game.colour_scores() == [-6, -6]


def test_two_colours_each() -> None:
    game = PlainBlokus3D(players=2, structure="A", colours_per_player=2)
    assert game.colours == 4
    assert game.to_json()["limits"][3][3] == 8  # the grid for 4 colours
    seen = []
    for _ in range(6):
        seen.append((game.colour_to_move, game.to_move))
        game.play(game.legal_moves()[0])
    assert seen == [(0, 0), (1, 1), (2, 0), (3, 1), (0, 0), (1, 1)]
    per_colour = game.colour_scores()
    assert game.scores() == [float(max(per_colour[0], per_colour[2])), float(max(per_colour[1], per_colour[3]))]
    assert len(game.to_json()["pieces_left"]) == 4
    # colour 2 is a colour of its own: its later pieces must touch colour 2, not colour 0
    game = PlainBlokus3D(players=2, structure="A", colours_per_player=2)
    game.play("I2 3,3,0 4,3,0")
    game.play("I2 5,3,0 6,3,0")
    game.play("I2 3,4,0 4,4,0")  # colour 2's first piece, beside colour 0's
    game.play("I2 5,4,0 6,4,0")
    assert game.colour_to_move == 0
    assert game.why_illegal(2, "I3", [(3, 5, 0), (4, 5, 0), (5, 5, 0)]) is None
    assert game.why_illegal(2, "I3", [(3, 2, 0), (4, 2, 0), (5, 2, 0)]) == "mask"
    assert game.why_illegal(2, "I3", [(3, 3, 1), (4, 3, 1), (5, 3, 1)]) == "contact"  # on colours 0 and 1 only
    assert game.why_illegal(0, "I3", [(3, 3, 1), (4, 3, 1), (5, 3, 1)]) is None


def test_scores_with_two_colours_each_at_the_end() -> None:
    game = PlainBlokus3D(players=2, grid=grid({(0, 0): 1, (1, 0): 1, (2, 0): 1, (3, 0): 1}), colours_per_player=2)
    game.play("I2 0,0,0 1,0,0")
    game.play("I2 2,0,0 3,0,0")
    assert game.over and game.out == {0, 1, 2, 3}
    assert game.colour_scores() == [2 - 10, 2 - 10, 0 - 11, 0 - 11]
    assert game.scores() == [2.0 - 10, 2.0 - 10]  # each player's better colour
    assert game.winners() == [0, 1]


# -- random games -------------------------------------------------------------------------------------------------

CONFIGS = [(s, p, k) for s in "ABCD" for p, k in ((2, 1), (3, 1), (4, 1), (2, 2))]


def assert_valid(game: PlainBlokus3D) -> None:
    for (x, y, z), (colour, _) in game.cubes.items():
        assert 0 <= x < SIZE and 0 <= y < SIZE and 0 <= z < game.height[(x, y)]
        assert z == 0 or (x, y, z - 1) in game.cubes
        assert 0 <= colour < game.colours
    by_piece: dict[tuple[int, str], set[tuple[int, int, int]]] = {}
    for cell, (colour, piece) in game.cubes.items():
        by_piece.setdefault((colour, piece), set()).add(cell)
    for (colour, piece), cells in by_piece.items():
        assert piece not in game.pieces_left[colour]
        assert normalise(cells) in ORIENTATIONS[piece]
    for colour in range(game.colours):
        placed = [p for p in PIECE_ORDER if p not in game.pieces_left[colour]]
        assert sorted(placed) == sorted(p for c, p in by_piece if c == colour)
        assert game.pieces_left[colour] == [p for p in PIECE_ORDER if p in game.pieces_left[colour]]


@pytest.mark.parametrize(("structure", "players", "per_player"), CONFIGS)
def test_random_games_stay_valid(structure: str, players: int, per_player: int) -> None:
    rng = random.Random(f"{structure}{players}{per_player}")
    game = PlainBlokus3D(players=players, structure=structure, colours_per_player=per_player)
    moves_made = 0
    while not game.over:
        moves = game.legal_moves()
        assert moves, "a colour to move always has a placement"
        assert game.to_move == game.colour_to_move % players  # type: ignore[operator]
        out_before = set(game.out)
        game.play(rng.choice(moves))
        moves_made += 1
        assert_valid(game)
        assert game.colour_to_move not in game.out and out_before <= game.out
        for colour in game.out - out_before:  # a colour goes out only when it has no placement
            assert not game.placements(colour)
    assert moves_made >= game.colours
    assert game.out == set(range(game.colours))
    assert game.winners() and max(game.scores()) == game.scores()[game.winners()[0]]
    data = game.to_json()
    assert data["colour_to_move"] is None and len(data["cubes"]) == len(game.cubes)  # type: ignore[arg-type]
    assert data["cubes"] == sorted(data["cubes"], key=lambda c: (c["x"], c["y"], c["z"]))  # type: ignore[arg-type]
