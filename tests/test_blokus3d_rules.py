"""Blokus 3D's rules, one hand-built position at a time.

Every expected value below was worked out by hand from the rules (the comment next to it says how), not read off the
engine. Small structures of our own (registered below, names starting with ``_rules_``) make colours run out of room
after a move or two, so forced play, colours going out and the end of the game can be checked exactly.
"""

from __future__ import annotations

from collections import Counter

import pytest
from tests.helpers import assert_illegal, names, snapshot

import kumiki
from kumiki.games.blokus3d import PIECE_NAMES, Blokus3DMove, register_structure

SIZE = 10


def grid(heights: dict[tuple[int, int], int]) -> list[str]:
    """``{(x, y): h}`` -> ten rows of digits, y = 9 first (cells not given are outside the mask)."""
    return ["".join(str(heights.get((x, y), 0)) for x in range(SIZE)) for y in range(SIZE - 1, -1, -1)]


def limits_of(heights: dict[tuple[int, int], int]) -> list[list[int]]:
    """The ``limits`` of ``to_json()``: ``limits[x][y]``."""
    return [[heights.get((x, y), 0) for y in range(SIZE)] for x in range(SIZE)]


FLAT3 = {(x, y): 3 for x in range(SIZE) for y in range(SIZE)}  # the whole turntable, three levels
ROW4 = {(x, 0): 1 for x in range(4)}  # four cells in a row, one level
ROW10 = {(x, 0): 1 for x in range(10)}  # ten cells in a row, one level
SINGLE = {(5, 5): 1}  # one cell: no piece fits
CORNER = {(1, 9): 1, (2, 9): 2}  # the top row (y = 9): x = 1 one level, x = 2 two levels
BIG = {(x, y): 9 for x in range(SIZE) for y in range(SIZE)}
NOTCH = {(1, 1): 1, (2, 1): 1, (2, 0): 1}  # three cells in an L: the corner (1, 0) of their box is outside the mask
# a row of ten on y = 0 with a second row over x = 4 … 9: the cells x = 0 … 3 are a dead end one cell wide
DEAD_END = {(x, 0): 1 for x in range(SIZE)} | {(x, 1): 1 for x in range(4, SIZE)}
HOOK = {(0, 3): 1, (0, 4): 1, (0, 5): 1, (0, 6): 1, (0, 2): 1, (1, 2): 1, (1, 1): 1}  # a line, then a notch below

register_structure("_rules_flat3", grid(FLAT3))
register_structure("_rules_row4", grid(ROW4))
register_structure("_rules_row10", grid(ROW10))
register_structure("_rules_single", grid(SINGLE))
register_structure("_rules_corner", grid(CORNER))
register_structure("_rules_big", grid(BIG))
register_structure("_rules_notch", grid(NOTCH))
register_structure("_rules_hook", grid(HOOK))
register_structure("_rules_dead_end", grid(DEAD_END))


def new_state(**options):
    return kumiki.load_game("blokus3d", **options).new_state(seed=0)


def after(*moves: str, **options):
    state = new_state(**options)
    for move in moves:
        state.play(move)
    return state


def assert_legal(state, move) -> None:
    """``move`` plays on a copy (the state itself is left alone) and is listed by ``legal_moves()``."""
    text = str(state.game.parse_move(move))  # the notation, cells sorted
    assert text in names(state.legal_moves()), move
    before = snapshot(state)
    twin = state.copy()
    twin.play(move)
    assert names(twin.history) == [*names(state.history), text]
    assert snapshot(state) == before


def cube(x, y, z, colour, piece):
    return {"x": x, "y": y, "z": z, "colour": colour, "piece": piece}


# ---------------------------------------------------------------------------------------------------------- set-up


A_2 = {(x, y): 4 for x in range(3, 7) for y in range(3, 7)}  # structure A, 2 colours: 4×4 footprint, 4 levels


def test_defaults_and_the_empty_position():
    game = kumiki.load_game("blokus3d")
    assert game.name == "blokus3d"
    assert game.players == 2
    assert game.options == {"players": 2, "structure": "A", "colours_per_player": 1}
    state = game.new_state(seed=0)
    assert state.to_json() == {
        "structure": "A",
        "limits": limits_of(A_2),
        "cubes": [],
        "pieces_left": [list(PIECE_NAMES), list(PIECE_NAMES)],
        "out": [],
        "colour_to_move": 0,
    }
    assert state.colour_to_move == 0
    assert state.to_move == 0
    assert state.over is False
    assert state.history == []
    # no cube on the table; every piece unplaced: 0 - 11 each
    assert state.scores() == [-11, -11]
    assert state.winners() == []


@pytest.mark.parametrize(
    ("options", "height", "colours"),
    [
        ({"players": 2}, 4, 2),
        ({"players": 3}, 6, 3),
        ({"players": 4}, 8, 4),
        ({"players": 2, "colours_per_player": 2}, 8, 4),  # the grid for the number of COLOURS in play
    ],
)
def test_structure_a_is_a_4x4_tower_of_4_6_8(options, height, colours):
    data = new_state(structure="A", **options).to_json()
    assert data["limits"] == limits_of({(x, y): height for x in range(3, 7) for y in range(3, 7)})
    assert len(data["pieces_left"]) == colours
    assert data["pieces_left"] == [list(PIECE_NAMES)] * colours


@pytest.mark.parametrize("structure", ["A", "B", "C", "D"])
@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3}, {"players": 4}])
def test_builtin_structure_volumes_are_70_to_90_percent_of_the_cubes(structure, options):
    limits = new_state(structure=structure, **options).to_json()["limits"]
    colours = options["players"]
    volume = sum(map(sum, limits))
    assert 0.7 * 40 * colours <= volume <= 0.9 * 40 * colours, volume
    assert len(limits) == SIZE and all(len(col) == SIZE for col in limits)
    assert all(0 <= h <= 9 for col in limits for h in col)


@pytest.mark.parametrize("structure", ["A", "B", "C", "D"])
def test_two_colours_each_uses_the_four_colour_grid(structure):
    four = new_state(structure=structure, players=4).to_json()["limits"]
    assert new_state(structure=structure, players=2, colours_per_player=2).to_json()["limits"] == four


def test_grid_rows_start_at_y_9_and_characters_are_x():
    state = new_state(structure="_rules_corner")
    # row 1 of the grid is "0120000000": cell (1, 9) has 1 level, cell (2, 9) has 2
    assert state.to_json()["limits"] == limits_of(CORNER)
    # the cubes that fit: (1,9,0), (2,9,0), (2,9,1). Pieces on them: I2 flat, I2 standing at x = 2, and V3 (an L of
    # three in the x-z plane, the top cube over x = 2). Nothing of 4 cubes, and I3 needs three in a line.
    assert names(state.legal_moves()) == ["I2 1,9,0 2,9,0", "I2 2,9,0 2,9,1", "V3 1,9,0 2,9,0 2,9,1"]


def test_first_moves_on_structure_a():
    """The first piece goes anywhere (no contact needed), whole and gap-free, in a 4×4×4 box."""
    moves = new_state().legal_moves()
    counts = Counter(m.piece for m in moves)
    assert counts == {
        "I2": 12 + 12 + 16,  # along x: 3 starts × 4 rows; along y: the same; standing: 16 cells
        "I3": 8 + 8 + 16,  # 2 starts × 4, twice; standing in any of the 16 columns (3 ≤ 4 levels)
        "V3": 36 + 24 + 24,  # flat: 4 turns × 3×3 places; upright in x-z or y-z: only the 2 of 4 with no gap × 12
        "I4": 4 + 4 + 16,
        "O4": 9 + 12 + 12,  # flat 3×3; upright in x-z: 3 × 4 places, and in y-z the same
        "T4": 24 + 8 + 8,  # flat: 4 turns × 6 places; upright: only stem-up is gap-free, 2 × 4 places per plane
        "L4": 48 + 40 + 40,  # flat 8 × 6; per upright plane: 2 lying (2×4 places) + 2 standing (3×4) are gap-free
        "Z4": 24,  # flat 4 × 6; upright Z/S always leave a cube over nothing
        "P4": 36,  # the upright arm must point up: 4 of 8 × 3×3 places
        "A4": 36,  # a flat L of three with the fourth cube on one end: 4 of 12 × 3×3 places
        "B4": 36,
    }
    assert names(moves[:5]) == [
        "I2 3,3,0 3,3,1",
        "I2 3,3,0 3,4,0",
        "I2 3,3,0 4,3,0",
        "I2 3,4,0 3,4,1",
        "I2 3,4,0 3,5,0",
    ]


def test_legal_moves_are_ordered_by_piece_then_cells_without_duplicates():
    for state in (new_state(), after("T4 3,4,0 4,4,0 4,5,0 5,4,0"), new_state(structure="D", players=3)):
        moves = state.legal_moves()
        keys = [(PIECE_NAMES.index(m.piece), m.cells) for m in moves]
        assert keys == sorted(keys)
        assert len(set(keys)) == len(keys)
        assert len(set(names(moves))) == len(moves)
        for m in moves:
            assert list(m.cells) == sorted(m.cells)
            assert str(m) == m.piece + " " + " ".join(f"{x},{y},{z}" for x, y, z in m.cells)


# ------------------------------------------------------------------------------------------------ turns and colours


def test_colours_move_in_order_and_each_belongs_to_a_player():
    # on the open 10×10×3 structure nobody runs out of room in the first two rounds
    for players, colours_per_player, owners in [
        (2, 1, [0, 1, 0, 1, 0, 1, 0, 1]),
        (3, 1, [0, 1, 2, 0, 1, 2, 0, 1]),
        (4, 1, [0, 1, 2, 3, 0, 1, 2, 3]),
        (2, 2, [0, 1, 0, 1, 0, 1, 0, 1]),
    ]:
        state = new_state(structure="_rules_flat3", players=players, colours_per_player=colours_per_player)
        colours = players * colours_per_player
        seen_colours, seen_players = [], []
        for _ in owners:
            seen_colours.append(state.colour_to_move)
            seen_players.append(state.to_move)
            state.play(state.legal_moves()[0])
        assert seen_colours == [i % colours for i in range(len(owners))]
        assert seen_players == owners
        assert state.to_json()["out"] == []


def test_to_move_is_the_player_of_the_colour_to_move():
    state = new_state(structure="_rules_flat3", players=2, colours_per_player=2)
    assert (state.colour_to_move, state.to_move) == (0, 0)
    state.play("I2 0,0,0 1,0,0")
    assert (state.colour_to_move, state.to_move) == (1, 1)
    state.play("I2 2,0,0 3,0,0")
    assert (state.colour_to_move, state.to_move) == (2, 0)  # colour 2 is player 0's second colour
    state.play("I2 4,0,0 5,0,0")
    assert (state.colour_to_move, state.to_move) == (3, 1)
    assert state.to_json()["colour_to_move"] == 3


# ------------------------------------------------------------------------------------------------------- contact


def flat_after_two():
    """Colour 0 at 3,3 and 4,3; colour 1 beside it at 5,3 and 6,3 (all at level 0) on a 10×10×3 structure."""
    return after("I2 3,3,0 4,3,0", "I2 5,3,0 6,3,0", structure="_rules_flat3")


def test_the_first_piece_of_the_game_goes_anywhere():
    state = new_state(structure="_rules_flat3")
    for move in ["I2 0,0,0 1,0,0", "I2 9,9,0 9,9,1", "T4 3,4,0 4,4,0 4,5,0 5,4,0", "I3 7,2,0 7,2,1 7,2,2"]:
        assert_legal(state, move)


def test_first_piece_of_another_colour_must_touch_a_face_of_a_placed_cube():
    state = after("I2 3,3,0 4,3,0", structure="_rules_flat3")
    # one cell of empty space between
    assert_illegal(state, "I2 6,3,0 7,3,0", "must touch a face of a piece already placed")
    # 5,4 meets 4,3 along a vertical edge only
    assert_illegal(state, "I2 5,4,0 6,4,0", "must touch a face of a piece already placed")
    assert_illegal(state, "I2 5,4,0 5,4,1", "must touch a face of a piece already placed")
    # 2,2,1 (on top of the vertical I2 at 2,2) meets 3,3 nowhere near a face
    assert_illegal(state, "I2 2,2,0 2,2,1", "must touch a face of a piece already placed")
    # faces: beside at level 0
    assert_legal(state, "I2 5,3,0 6,3,0")
    assert_legal(state, "I2 3,4,0 4,4,0")
    assert_legal(state, "I3 3,2,0 3,2,1 3,2,2")
    # touching another colour's cube is enough for a first piece (it has no cube of its own yet)
    assert_legal(state, "I2 2,3,0 2,3,1")


def test_first_piece_of_another_colour_must_reach_the_board():
    state = after("I2 3,3,0 4,3,0", structure="_rules_flat3")
    # lying on colour 0's piece: touches it from above, but no cube at level 0
    assert_illegal(state, "I2 3,3,1 4,3,1", "must touch the board")
    assert_illegal(state, "I2 4,3,1 4,3,2", "must touch the board")
    assert_illegal(state, "V3 3,3,1 4,3,1 4,3,2", "must touch the board")
    # one cube at level 0 (5,3,0, beside 4,3,0) and one resting on colour 0's cube: fine
    assert_legal(state, "V3 4,3,1 5,3,0 5,3,1")


def test_first_piece_of_every_colour_needs_the_board_not_only_the_second():
    # 3 colours: colour 2's first piece follows the same rule as colour 1's
    state = after("I2 3,3,0 4,3,0", "I2 5,3,0 6,3,0", players=3, structure="_rules_flat3")
    assert state.colour_to_move == 2
    assert_illegal(state, "I2 5,3,1 6,3,1", "must touch the board")
    assert_illegal(state, "I2 8,3,0 9,3,0", "must touch a face of a piece already placed")
    # touching colour 0 only, or colour 1 only, is enough
    assert_legal(state, "I2 1,3,0 2,3,0")
    assert_legal(state, "I2 7,3,0 8,3,0")


def test_later_pieces_must_touch_their_own_colour():
    state = flat_after_two()
    assert state.colour_to_move == 0
    # touches only colour 1 (at 6,3)
    assert_illegal(state, "I3 7,3,0 8,3,0 9,3,0", "must touch a face of one of your pieces")
    # touches colour 1's 5,3 and 6,3 by faces, but its own 4,3 only along an edge
    assert_illegal(state, "I3 5,4,0 6,4,0 7,4,0", "must touch a face of one of your pieces")
    # touches nothing at all
    assert_illegal(state, "I3 0,8,0 1,8,0 2,8,0", "must touch a face of one of your pieces")
    # beside its own piece
    assert_legal(state, "I3 0,3,0 1,3,0 2,3,0")
    # beside its own piece and colour 1's: touching others too is fine
    assert_legal(state, "I3 3,4,0 4,4,0 5,4,0")
    # on top of its own piece (touching from above counts), overhanging onto colour 1's
    assert_legal(state, "I3 3,3,1 4,3,1 5,3,1")
    assert_legal(state, "O4 3,3,1 3,3,2 4,3,1 4,3,2")


def test_own_colour_contact_from_the_other_colours_view():
    state = flat_after_two()
    state.play("I3 0,3,0 1,3,0 2,3,0")
    assert state.colour_to_move == 1
    # colour 1 must now touch colour 1: resting on colour 0 only is not enough
    assert_illegal(state, "I3 2,3,1 3,3,1 4,3,1", "must touch a face of one of your pieces")
    # resting on colour 0's 4,3 and its own 5,3 (and 6,3)
    assert_legal(state, "I3 4,3,1 5,3,1 6,3,1")
    # standing beside its own 6,3
    assert_legal(state, "I3 7,3,0 7,3,1 7,3,2")


def test_touching_own_colour_one_level_up():
    # colour 0 stands an I3 at 3,3; colour 1 lies beside it at 4,3 and 5,3
    state = after("I3 3,3,0 3,3,1 3,3,2", "I2 4,3,0 5,3,0", structure="_rules_flat3")
    # resting on colour 1's cubes, touching colour 0's 3,3,1 (and 3,3,2) from the side
    assert_legal(state, "I2 4,3,1 5,3,1")
    assert_legal(state, "I2 4,3,1 4,3,2")
    # resting on colour 1's 5,3 only: its faces meet colour 1 below and empty cells around
    assert_illegal(state, "I2 5,3,1 5,3,2", "must touch a face of one of your pieces")


# ---------------------------------------------------------------------------------------- placement: every reason


def test_piece_already_placed():
    state = flat_after_two()
    assert_illegal(state, "I2 0,3,0 1,3,0", "I2 is already placed")
    assert_illegal(state, "I2 2,3,0 2,3,1", "already placed")


def test_outside_the_structure():
    state = new_state()  # structure A: x and y from 3 to 6
    assert_illegal(state, "I2 2,3,0 3,3,0", "outside the structure")
    assert_illegal(state, "I2 6,6,0 7,6,0", "outside the structure")
    assert_illegal(state, "I2 0,0,0 1,0,0", "outside the structure")
    # off the turntable altogether
    assert_illegal(state, "I2 9,9,0 10,9,0", "outside the structure")
    assert_illegal(state, "I2 -1,0,0 0,0,0", "outside the structure")
    assert_illegal(state, "I2 0,-1,0 0,0,0", "outside the structure")
    flat = new_state(structure="_rules_flat3")
    assert_illegal(flat, "I2 9,9,0 9,10,0", "outside the structure")
    assert_illegal(flat, "I2 9,9,0 10,9,0", "outside the structure")
    assert_illegal(flat, "I4 -1,5,0 0,5,0 1,5,0 2,5,0", "outside the structure")


def test_far_off_the_board_is_never_another_column():
    """A corner far off the board (y of 16 or more, or negative y with x >= 1) once named a real column of the next
    row (x * 16 + y): ``I2 2,19,0 3,19,0`` was played as ``I2 3,3,0 4,3,0``. It is refused, in play, in a record and
    in the action encoding."""
    for move in ("I2 2,19,0 3,19,0", "I2 4,-13,0 5,-13,0", "I2 3,-16,0 4,-16,0", "I2 2,35,0 3,35,0"):
        state = new_state()
        assert_illegal(state, move, "outside the structure")
        assert state.history == []
        with pytest.raises(ValueError, match="no action"):
            state.game.encoding.encode(state.game.parse_move(move))
    with pytest.raises(ValueError, match=r"line 4: illegal move: .* is outside the structure"):
        kumiki.read_record('[Game "blokus3d"]\n[Players "2"]\n\nI2 2,19,0 3,19,0\n')


def test_above_the_height_limit():
    state = new_state(structure="_rules_flat3")  # every column holds levels 0, 1, 2
    assert_illegal(state, "I4 0,0,0 0,0,1 0,0,2 0,0,3", "above the height limit")
    assert_legal(state, "I3 0,0,0 0,0,1 0,0,2")
    state = flat_after_two()
    # standing beside its own 3,3: the fourth cube would be at level 3
    assert_illegal(state, "I4 2,3,0 2,3,1 2,3,2 2,3,3", "above the height limit")
    # structure A (4 levels): a standing I4 fills a column, nothing more goes on it
    tower = after("I4 3,3,0 3,3,1 3,3,2 3,3,3", "I4 4,3,0 4,3,1 4,3,2 4,3,3")
    assert_illegal(tower, "I2 3,3,4 3,3,5", "above the height limit")
    # limits are per column: structure C (2 colours) rises 1,1,2,3,4,5 from x = 2 to 7
    steps = new_state(structure="C")
    assert_illegal(steps, "I2 2,4,0 2,4,1", "above the height limit")
    assert_legal(steps, "I2 4,4,0 4,4,1")
    assert_illegal(steps, "I3 4,4,0 4,4,1 4,4,2", "above the height limit")
    assert_legal(steps, "I3 5,4,0 5,4,1 5,4,2")


def test_below_the_board_is_outside_the_structure():
    state = new_state(structure="_rules_flat3")
    # levels start at 0: a cube at level -1 is not inside the structure (and the cell is not "taken": it is empty)
    message = assert_illegal(state, "I2 0,0,-1 0,0,0", "outside the structure")
    assert "taken" not in message


def test_cell_taken():
    state = flat_after_two()
    assert_illegal(state, "I3 3,3,0 3,4,0 3,5,0", "is taken")
    assert_illegal(state, "O4 4,3,0 4,4,0 5,3,0 5,4,0", "is taken")


def test_no_gaps():
    state = flat_after_two()
    # 4,4,1 has nothing under it (the rest rests on colour 0's piece)
    assert_illegal(state, "V3 3,3,1 4,3,1 4,4,1", "gap")
    # 3,3,1 and 4,3,1 rest on colour 0's own cubes, 2,3,1 beside them is over an empty cell
    assert_illegal(state, "I3 2,3,1 3,3,1 4,3,1", "gap")
    # the piece's own cubes count as support
    assert_legal(state, "I3 2,3,0 2,3,1 2,3,2")
    assert_legal(state, "P4 2,3,0 2,3,1 1,3,0 2,4,0")
    assert_legal(state, "V3 2,3,0 2,3,1 3,3,1")


def test_gap_also_under_a_first_piece():
    state = new_state(structure="_rules_flat3")
    # the very first piece goes anywhere, but not in the air
    assert_illegal(state, "I2 0,0,1 1,0,1", "gap")
    assert_illegal(state, "T4 0,0,1 1,0,1 2,0,1 1,0,0", "gap")
    state = after("I2 3,3,0 4,3,0", structure="_rules_flat3")
    # colour 1's first piece: 5,3,0 touches the board and colour 0, but 6,3,1 has nothing under it
    assert_illegal(state, "L4 5,3,0 5,3,1 6,3,1 7,3,1", "gap")


def test_a_piece_may_cover_cells_whose_bounding_box_corner_is_outside_the_mask():
    # the mask is 1,1 2,1 2,0 (one level): the V3 covering all three is a legal first piece; its box's minimum
    # corner 1,0 is not part of the mask, but no cube is there
    state = new_state(structure="_rules_notch")
    assert names(state.legal_moves()) == ["I2 1,1,0 2,1,0", "I2 2,0,0 2,1,0", "V3 1,1,0 2,0,0 2,1,0"]
    state.play("V3 1,1,0 2,1,0 2,0,0")
    assert state.to_json()["cubes"] == [cube(1, 1, 0, 0, "V3"), cube(2, 0, 0, 0, "V3"), cube(2, 1, 0, 0, "V3")]


def test_a_colour_whose_only_placement_has_its_box_corner_outside_the_mask_must_play_it():
    # the mask: a line 0,3 … 0,6, then 0,2 1,2 1,1 below it (1 level everywhere)
    state = after("I2 0,3,0 0,4,0", "I2 0,5,0 0,6,0", structure="_rules_hook")
    # colour 0 must touch its 0,3: only through 0,2, and the only piece that fits 0,2 1,2 1,1 is V3 (its I2 is
    # placed; I3 needs three in a line). V3's box corner 0,1 is outside the mask: still legal.
    assert state.over is False
    assert state.colour_to_move == 0
    assert names(state.legal_moves()) == ["V3 0,2,0 1,1,0 1,2,0"]
    state.play("V3 0,2,0 1,1,0 1,2,0")
    # then nobody has room: colour 1 (2 squares, 10 pieces left) and colour 0 (5 squares, 9 pieces left) are out
    assert state.over
    assert state.scores() == [5 - 9, 2 - 10]
    assert state.winners() == [0]


def test_illegal_moves_after_the_end_and_unparsable_text_leave_the_state_alone():
    state = after("I2 0,0,0 1,0,0", "I2 2,0,0 3,0,0", structure="_rules_row4")
    assert state.over
    assert_illegal(state, "I3 0,0,0 1,0,0 2,0,0")
    assert_illegal(state, "nonsense", error=kumiki.MoveSyntaxError)
    running = new_state()
    assert_illegal(running, "pass", error=kumiki.MoveSyntaxError)
    assert_illegal(running, "", error=kumiki.MoveSyntaxError)
    assert_illegal(running, "A4 0,0,0 0,0,1 1,0,0 1,1,0", error=kumiki.MoveSyntaxError)


def test_illegal_move_keeps_copies_and_history_intact():
    state = flat_after_two()
    twin = state.copy()
    for move in ["I2 0,0,0 1,0,0", "I3 7,3,0 8,3,0 9,3,0", "I3 3,3,0 3,4,0 3,5,0", "V3 3,3,1 4,3,1 4,4,1"]:
        assert_illegal(state, move)
    assert snapshot(state) == snapshot(twin)
    assert names(state.history) == ["I2 3,3,0 4,3,0", "I2 5,3,0 6,3,0"]


def test_a_move_object_from_legal_moves_and_its_text_do_the_same():
    a = flat_after_two()
    b = flat_after_two()
    move = next(m for m in a.legal_moves() if str(m) == "I3 0,3,0 1,3,0 2,3,0")
    a.play(move)
    b.play("I3 2,3,0 0,3,0 1,3,0")  # cells in any order
    assert a.to_json() == b.to_json()
    assert a.history == b.history
    assert names(a.history)[-1] == "I3 0,3,0 1,3,0 2,3,0"


def test_a_move_built_in_code_plays_its_cells_whatever_key_it_carries():
    """``key`` is the engine's index of a placement; one given by hand (or taken from another move) must not place
    something other than the move's piece and cells, which the history and the record write."""
    game = kumiki.load_game("blokus3d")
    state = game.new_state()
    i4 = next(m for m in state.legal_moves() if m.piece == "I4")
    forged = Blokus3DMove("I2", ((3, 3, 0), (3, 4, 0)), key=i4.key)
    twin = state.copy()
    twin.play(forged)
    assert names(twin.history) == ["I2 3,3,0 3,4,0"]
    assert [(c["x"], c["y"], c["z"], c["piece"]) for c in twin.to_json()["cubes"]] == [
        (3, 3, 0, "I2"),
        (3, 4, 0, "I2"),
    ]
    _, replayed = kumiki.read_record(kumiki.write_record(twin))
    assert replayed.to_json() == twin.to_json()
    encoding = game.encoding
    assert encoding.encode(forged) == encoding.encode(game.parse_move("I2 3,3,0 3,4,0")) != encoding.encode(i4)
    # a key that names no placement at all is no crash either
    assert_illegal(state, Blokus3DMove("I4", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)), key=10**9), "outside")
    twin = state.copy()
    twin.play(Blokus3DMove("I2", ((3, 3, 0), (3, 4, 0)), key=10**9))
    assert names(twin.history) == ["I2 3,3,0 3,4,0"]
    twin = state.copy()
    twin.play(Blokus3DMove(i4.piece, i4.cells, key=float(i4.key)))  # a key that is no int
    assert twin.history == [i4] and type(twin.history[0].key) is int


@pytest.mark.parametrize(
    "move",
    [
        Blokus3DMove("I2", ((3, 3), (3, 4))),  # cells of two coordinates
        Blokus3DMove("I2", ((3, 3, 0, 0), (3, 4, 0, 0))),
        Blokus3DMove("I2", "ab"),  # type: ignore[arg-type]
        Blokus3DMove(None, ((3, 3, 0), (3, 4, 0))),  # type: ignore[arg-type]
        Blokus3DMove("i2", ((3, 3, 0), (3, 4, 0))),  # the notation forgives the case; a move object names its piece
        Blokus3DMove("I2", ((3.0, 3, 0), (3, 4, 0)), key=5),  # a float, and a key that is not this move's
    ],
)
def test_a_malformed_move_object_is_an_illegal_move(move):
    assert_illegal(new_state(), move)


def test_the_piece_name_forgives_only_ascii_case():
    game = kumiki.load_game("blokus3d")
    assert str(game.parse_move("i2 3,3,0 3,4,0")) == "I2 3,3,0 3,4,0"
    with pytest.raises(kumiki.MoveSyntaxError, match="no piece"):
        game.parse_move("\u01312 3,3,0 3,4,0")  # a dotless i, which str.upper() turns into I


# ------------------------------------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text",
    [
        "X9 0,0,0 1,0,0",  # unknown piece
        "I5 0,0,0 1,0,0 2,0,0 3,0,0 4,0,0",
        "I2 0,0 1,0,0",  # bad cell text
        "I2 0,0,0,0 1,0,0",
        "I2 a,b,c 1,0,0",
        "I2 0;0;0 1,0,0",
        "I2 1.5,0,0 2,0,0",
        "I2 0,0,0",  # wrong number of cells
        "I2",
        "I2 0,0,0 1,0,0 2,0,0",
        "T4 0,0,0 1,0,0 2,0,0",
        "I2 0,0,0 0,0,0",  # a repeated cell
        "O4 0,0,0 1,0,0 0,1,0 0,1,0",
        "I2 0,0,0 2,0,0",  # not the piece's shape
        "I2 0,0,0 1,1,0",
        "I3 0,0,0 1,0,0 1,1,0",  # that is V3
        "T4 3,4,0 4,4,0 4,5,0 6,4,0",
        "L4 0,0,0 1,0,0 1,1,0 2,1,0",  # that is Z4
        "A4 0,0,0 0,0,1 1,0,0 1,1,0",  # B4's cells, written as A4
        "B4 0,0,0 1,0,0 0,1,0 1,0,1",  # A4's cells, written as B4
        "",
        "   ",
    ],
)
def test_parse_errors(text):
    game = kumiki.load_game("blokus3d")
    with pytest.raises(kumiki.MoveSyntaxError):
        game.parse_move(text)
    state = game.new_state(seed=0)
    assert_illegal(state, text, error=kumiki.MoveSyntaxError)


def test_parse_round_trip_and_sorting():
    game = kumiki.load_game("blokus3d")
    move = game.parse_move("T4 5,4,0 3,4,0 4,5,0 4,4,0")
    assert str(move) == "T4 3,4,0 4,4,0 4,5,0 5,4,0"
    assert move.piece == "T4"
    assert move.cells == ((3, 4, 0), (4, 4, 0), (4, 5, 0), (5, 4, 0))
    assert game.parse_move(str(move)) == move
    # the mirror pieces parse under their own names
    assert str(game.parse_move("A4 0,0,0 1,0,0 0,1,0 1,0,1")) == "A4 0,0,0 0,1,0 1,0,0 1,0,1"
    assert str(game.parse_move("B4 0,0,0 1,0,0 1,1,0 0,0,1")) == "B4 0,0,0 0,0,1 1,0,0 1,1,0"
    # any proper rotation, anywhere (legality is not parse_move's business)
    assert str(game.parse_move("L4 9,9,9 9,9,8 9,9,7 8,9,7")) == "L4 8,9,7 9,9,7 9,9,8 9,9,9"
    for m in new_state().legal_moves():
        assert game.parse_move(str(m)) == m


def test_every_rotation_of_every_piece_parses_and_no_mirror_of_a_screw_does():
    from kumiki.games.blokus3d import PIECES
    from kumiki.geometry.polycube import ROTATIONS, rotate, translate

    game = kumiki.load_game("blokus3d")

    def text(name, cells):
        return name + " " + " ".join(f"{x},{y},{z}" for x, y, z in cells)

    for name in PIECE_NAMES:
        for m in ROTATIONS:
            cells = translate(rotate(PIECES[name], m), 4, 4, 4)
            assert str(game.parse_move(text(name, cells))) == text(name, sorted(cells))
            mirrored = [(-x + 4, y + 4, z + 4) for x, y, z in rotate(PIECES[name], m)]
            if name in ("A4", "B4"):
                with pytest.raises(kumiki.MoveSyntaxError):
                    game.parse_move(text(name, mirrored))
                other = "B4" if name == "A4" else "A4"
                game.parse_move(text(other, mirrored))
            else:
                game.parse_move(text(name, mirrored))


# ------------------------------------------------------------------------------------ forced play, out, the end


def test_forced_play_and_the_end_when_nobody_can_place():
    state = new_state(structure="_rules_row4")  # four cells in a row, one level
    # colour 0's first piece anywhere in the row: I2 at 3 places, I3 at 2, I4 at 1 (nothing else is flat and 1 wide)
    assert names(state.legal_moves()) == [
        "I2 0,0,0 1,0,0",
        "I2 1,0,0 2,0,0",
        "I2 2,0,0 3,0,0",
        "I3 0,0,0 1,0,0 2,0,0",
        "I3 1,0,0 2,0,0 3,0,0",
        "I4 0,0,0 1,0,0 2,0,0 3,0,0",
    ]
    state.play("I2 0,0,0 1,0,0")
    # colour 1: only cells 2 and 3 are left, and 2 touches colour 0's 1,0: one move, and it must be played
    assert state.colour_to_move == 1
    assert names(state.legal_moves()) == ["I2 2,0,0 3,0,0"]
    assert_illegal(state, "pass", error=kumiki.MoveSyntaxError)
    state.play("I2 2,0,0 3,0,0")
    # the row is full: colour 0, then colour 1, cannot place and are out; the game is over
    assert state.over is True
    assert state.to_move is None
    assert state.colour_to_move is None
    assert state.legal_moves() == []
    data = state.to_json()
    assert data["out"] == [0, 1]
    assert data["colour_to_move"] is None
    assert data["cubes"] == [
        cube(0, 0, 0, 0, "I2"),
        cube(1, 0, 0, 0, "I2"),
        cube(2, 0, 0, 1, "I2"),
        cube(3, 0, 0, 1, "I2"),
    ]
    assert data["pieces_left"] == [list(PIECE_NAMES[1:]), list(PIECE_NAMES[1:])]
    # two visible squares each, ten pieces left each: a shared win
    assert state.scores() == [-8, -8]
    assert state.winners() == [0, 1]


def test_a_colour_out_is_skipped_and_the_others_play_on():
    state = new_state(structure="_rules_row10", players=3)  # ten cells in a row, one level
    state.play("I2 0,0,0 1,0,0")
    state.play("I2 2,0,0 3,0,0")
    assert state.to_json()["out"] == []
    state.play("I2 4,0,0 5,0,0")
    # colour 0's cubes (0, 1) have no free neighbour; nor have colour 1's (2, 3): both out; colour 2 plays again
    assert state.to_json()["out"] == [0, 1]
    assert state.colour_to_move == 2
    assert state.to_move == 2
    assert state.over is False
    # colour 2 must touch its 5,0 through 6,0: I3 or I4 starting at x = 6 (its I2 is placed)
    assert names(state.legal_moves()) == ["I3 6,0,0 7,0,0 8,0,0", "I4 6,0,0 7,0,0 8,0,0 9,0,0"]
    # colour 0 and 1's moves are refused: it is colour 2's turn (and it has no I2 any more)
    assert_illegal(state, "I2 6,0,0 7,0,0", "already placed")
    state.play("I4 6,0,0 7,0,0 8,0,0 9,0,0")
    assert state.over
    assert state.to_json()["out"] == [0, 1, 2]
    # 2 - 10, 2 - 10, 6 - 9
    assert state.scores() == [-8, -8, -3]
    assert state.winners() == [2]


def test_with_two_colours_each_a_colour_out_leaves_the_players_other_colour_playing():
    """Decision i: "may not place any more pieces" is read per colour: player 0's colour 0 is out, colour 2 plays."""
    state = after(
        "I2 0,0,0 1,0,0",  # colour 0 (player 0) at the end of the dead end
        "I2 2,0,0 3,0,0",  # colour 1 (player 1) shuts it in
        "I2 4,0,0 5,0,0",  # colour 2 (player 0): its first piece, on the board beside colour 1
        "I2 4,1,0 5,1,0",  # colour 3 (player 1): its first piece, beside colour 2
        structure="_rules_dead_end",
        colours_per_player=2,
    )
    # colour 0's cubes (0,0 and 1,0) and colour 1's (2,0 and 3,0) have no free cell beside them: both out; colour 2,
    # player 0's other colour, moves on beside its 5,0
    assert state.to_json()["out"] == [0, 1]
    assert (state.colour_to_move, state.to_move, state.over) == (2, 0, False)
    assert "I3 6,0,0 7,0,0 8,0,0" in names(state.legal_moves())
    state.play("I3 6,0,0 7,0,0 8,0,0")
    assert state.to_json()["out"] == [0, 1] and state.colour_to_move == 3  # colour 0 stays out: its turn is skipped


def test_a_structure_with_no_room_ends_before_the_first_move():
    state = new_state(structure="_rules_single")
    assert state.over is True
    assert state.to_move is None
    assert state.colour_to_move is None
    assert state.legal_moves() == []
    assert state.to_json()["out"] == [0, 1]
    assert state.scores() == [-11, -11]
    assert state.winners() == [0, 1]
    assert_illegal(state, "I2 5,5,0 5,5,1")


def test_a_colour_with_every_piece_placed_is_out():
    # 10×10×9: room for everything; each colour places its first legal move every turn
    state = new_state(structure="_rules_big")
    for _ in range(21):
        state.play(state.legal_moves()[0])
    # colour 0 has placed all eleven; colour 1 has one left and is to move. Colour 0 is not asked until its turn.
    assert state.to_json()["pieces_left"][0] == []
    assert state.colour_to_move == 1
    last = state.to_json()["pieces_left"][1]
    assert len(last) == 1
    state.play(state.legal_moves()[0])
    assert state.over
    assert state.to_json()["out"] == [0, 1]
    assert state.to_json()["pieces_left"] == [[], []]
    # no penalty: the score is the visible squares
    tops: dict[tuple[int, int], tuple[int, int]] = {}
    for c in state.to_json()["cubes"]:
        key = (c["x"], c["y"])
        if key not in tops or c["z"] > tops[key][0]:
            tops[key] = (c["z"], c["colour"])
    assert state.scores() == [sum(1 for _, col in tops.values() if col == p) for p in range(2)]
    assert sum(1 for c in state.to_json()["cubes"] if c["colour"] == 0) == 40


# A 4-colour game on structure A (each turn: the legal move at index "turn number" of legal_moves()). After move 29
# colour 2 (red) has no placement and is out; move 30 (colour 3's I4 at 5,4) raises column 5,4 to height 5, and
# then red's Z4 at 5,4,5 5,4,6 6,4,6 6,4,7 would be legal by the placement rules: it stands on 5,4 (height 5) and
# 6,4 (height 6: red's V3 and I4, colour 3's L4 on top), stays below the limit 8, and touches red's 5,3,5 (its O4)
# by a face. Out is for good: red is skipped anyway.
OUT_FOR_GOOD = [
    "I2 3,3,0 3,3,1",
    "I2 3,4,0 3,5,0",
    "I2 4,3,0 4,3,1",
    "I2 4,4,0 4,5,0",
    "V3 3,3,2 4,3,2 4,3,3",
    "V3 3,4,1 3,4,2 4,4,1",
    "V3 5,3,0 5,4,0 6,4,0",
    "V3 3,6,0 3,6,1 4,6,0",
    "O4 3,3,3 3,3,4 3,4,3 3,4,4",
    "O4 4,5,1 4,5,2 4,6,1 4,6,2",
    "I4 6,4,1 6,4,2 6,4,3 6,4,4",
    "O4 5,6,0 5,6,1 6,6,0 6,6,1",
    "T4 4,4,2 4,4,3 4,4,4 4,5,3",
    "T4 3,6,2 3,6,3 3,6,4 4,6,3",
    "L4 5,5,0 5,5,1 5,5,2 6,5,0",
    "Z4 6,5,1 6,5,2 6,6,2 6,6,3",
    "L4 3,3,5 3,4,5 3,4,6 3,4,7",
    "Z4 4,4,5 4,5,4 4,5,5 4,6,4",
    "I3 5,3,1 5,3,2 5,3,3",
    "I3 6,6,4 6,6,5 6,6,6",
    "I3 3,5,1 3,5,2 3,5,3",
    "A4 3,6,5 4,5,6 4,6,5 4,6,6",
    "T4 5,5,3 5,6,2 5,6,3 5,6,4",
    "L4 6,4,5 6,5,3 6,5,4 6,5,5",
    "I4 3,5,4 3,5,5 3,5,6 3,5,7",
    "L4 4,4,6 4,4,7 4,5,7 4,6,7",
    "O4 4,3,4 4,3,5 5,3,4 5,3,5",
    "T4 5,5,4 5,5,5 5,5,6 5,6,5",
    "P4 5,5,7 6,5,6 6,5,7 6,6,7",
    "I4 5,4,1 5,4,2 5,4,3 5,4,4",
    "I3 3,3,6 4,3,6 5,3,6",
]


def test_out_is_for_good():
    state = new_state(players=4)
    for move in OUT_FOR_GOOD[:29]:
        state.play(move)
    # after colour 3's T4 (move 28) colour 0 was out; colour 1 played the P4; then colour 2 was out
    assert state.to_json()["out"] == [0, 2]
    assert state.colour_to_move == 3
    state.play(OUT_FOR_GOOD[29])
    cubes = {(c["x"], c["y"], c["z"]): c["colour"] for c in state.to_json()["cubes"]}
    assert [z for (x, y, z) in cubes if (x, y) == (5, 4)] == [0, 1, 2, 3, 4]
    assert [z for (x, y, z) in cubes if (x, y) == (6, 4)] == [0, 1, 2, 3, 4, 5]
    assert cubes[(5, 3, 5)] == 2
    assert "Z4" in state.to_json()["pieces_left"][2]
    # red would have a placement now, but it stays out; colour 0 too; colour 1 is to move
    assert state.to_json()["out"] == [0, 2]
    assert state.colour_to_move == 1
    state.play(OUT_FOR_GOOD[30])
    assert state.over
    assert state.to_json()["out"] == [0, 1, 2, 3]
    assert names(state.history) == OUT_FOR_GOOD


# --------------------------------------------------------------------------------------------------------- scoring


def test_scores_count_visible_squares_minus_pieces_left():
    state = new_state(structure="_rules_flat3")
    assert state.scores() == [-11, -11]
    state.play("I2 3,3,0 4,3,0")
    assert state.scores() == [2 - 10, -11]
    state.play("I2 5,3,0 6,3,0")
    assert state.scores() == [2 - 10, 2 - 10]
    state.play("I3 3,3,1 4,3,1 5,3,1")
    # colour 0 is on top of 3,3 4,3 (its own) and 5,3 (colour 1's); colour 1 keeps only 6,3
    assert state.scores() == [3 - 9, 1 - 10]
    state.play("V3 6,3,1 7,3,0 7,3,1")
    # colour 1 on its own 6,3 and beside it at 7,3: two squares on top, one piece fewer left
    assert state.scores() == [3 - 9, 2 - 9]
    assert state.winners() == []
    assert state.to_json()["cubes"] == [
        cube(3, 3, 0, 0, "I2"),
        cube(3, 3, 1, 0, "I3"),
        cube(4, 3, 0, 0, "I2"),
        cube(4, 3, 1, 0, "I3"),
        cube(5, 3, 0, 1, "I2"),
        cube(5, 3, 1, 0, "I3"),
        cube(6, 3, 0, 1, "I2"),
        cube(6, 3, 1, 1, "V3"),
        cube(7, 3, 0, 1, "V3"),
        cube(7, 3, 1, 1, "V3"),
    ]


def test_two_colours_each_score_together():
    state = new_state(structure="_rules_flat3", players=2, colours_per_player=2)
    state.play("I2 3,3,0 4,3,0")  # colour 0 (player 0)
    state.play("I2 5,3,0 6,3,0")  # colour 1 (player 1)
    state.play("I3 7,3,0 8,3,0 9,3,0")  # colour 2 (player 0): its first piece touches colour 1
    state.play("I2 3,4,0 4,4,0")  # colour 3 (player 1): its first piece touches colour 0
    # colours: 2 - 10, 2 - 10, 3 - 10, 2 - 10; player 0 has colours 0 and 2, player 1 colours 1 and 3, and each
    # scores the better of their two (Rumis: "the player with the most points in one colour wins the game")
    assert state.colour_scores() == [-8, -8, -7, -8]
    assert state.scores() == [-7, -8]
    assert state.colour_to_move == 0
    state.play("I3 3,3,1 4,3,1 5,3,1")  # colour 0 on its own piece, covering colour 1's 5,3
    assert state.colour_scores() == [3 - 9, 1 - 10, 3 - 10, 2 - 10]
    assert state.scores() == [max(3 - 9, 3 - 10), max(1 - 10, 2 - 10)]
    assert state.to_json()["pieces_left"] == [
        [n for n in PIECE_NAMES if n not in ("I2", "I3")],
        [n for n in PIECE_NAMES if n != "I2"],
        [n for n in PIECE_NAMES if n != "I3"],
        [n for n in PIECE_NAMES if n != "I2"],
    ]
    assert state.winners() == []


def test_winners_at_the_end_with_two_colours_each():
    # row of four, 2 players × 2 colours: colour 0 takes the middle two cells
    state = new_state(structure="_rules_row4", players=2, colours_per_player=2)
    state.play("I2 1,0,0 2,0,0")
    # cells 0 and 3 are single cells, one level high: no piece fits anywhere any more. Colours 1, 2 and 3 are out
    # at their first turn, and colour 0 too.
    assert state.over
    assert state.to_json()["out"] == [0, 1, 2, 3]
    # player 0: the better of colour 0 (2 - 10) and colour 2 (0 - 11); player 1: 0 - 11 in both
    assert state.scores() == [-8, -11]
    assert state.winners() == [0]


def test_with_two_colours_each_the_best_single_colour_wins_not_the_sum():
    """Rumis' game for two with four colours: "the player with the most points in one colour wins the game". In this
    random game the two players' colours sum to the same (a shared win by sums); player 0's best colour is higher."""
    import random

    state = new_state(structure="A", players=2, colours_per_player=2)
    rng = random.Random(10)
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    colours = state.colour_scores()
    assert colours == [-3, 3, 5, -1]
    assert colours[0] + colours[2] == colours[1] + colours[3]  # summed, a tie
    assert state.scores() == [5.0, 3.0]
    assert state.winners() == [0]


# ------------------------------------------------------------------------------------------------------- to_json


def test_to_json_fields():
    state = after("I2 3,3,0 4,3,0", "V3 4,3,1 5,3,0 5,3,1", structure="_rules_flat3")
    data = state.to_json()
    assert data == {
        "structure": "_rules_flat3",
        "limits": limits_of(FLAT3),
        # sorted by (x, y, z)
        "cubes": [
            cube(3, 3, 0, 0, "I2"),
            cube(4, 3, 0, 0, "I2"),
            cube(4, 3, 1, 1, "V3"),
            cube(5, 3, 0, 1, "V3"),
            cube(5, 3, 1, 1, "V3"),
        ],
        "pieces_left": [list(PIECE_NAMES[1:]), [n for n in PIECE_NAMES if n != "V3"]],
        "out": [],
        "colour_to_move": 0,
    }
    import json

    assert json.loads(json.dumps(data)) == data
    assert state.view(0) == data
    assert state.view(1) == data


def test_column_queries_off_the_turntable_name_no_other_column():
    """``height``, ``top_colour`` and ``colour_at`` agree off the board: nothing is there (column ``x, y`` is bit
    ``x * 16 + y`` inside, so an unchecked ``1, 19`` would be column ``2, 3``)."""
    state = after("I2 2,3,0 2,4,0", structure="C")
    assert (state.height(2, 3), state.top_colour(2, 3), state.colour_at(2, 3, 0)) == (1, 0, 0)
    for x, y in [(1, 19), (2, -13), (-1, 3), (10, 3), (2, 10)]:
        assert (state.height(x, y), state.top_colour(x, y), state.colour_at(x, y, 0)) == (0, None, None), (x, y)


# -------------------------------------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"players": 5}, "players"),
        ({"players": 1}, "players"),
        ({"players": "2"}, "players"),
        ({"players": 3, "colours_per_player": 2}, "colours_per_player"),
        ({"players": 4, "colours_per_player": 2}, "colours_per_player"),
        ({"colours_per_player": 3}, "colours_per_player"),
        ({"colours_per_player": 0}, "colours_per_player"),
        ({"structure": "Z"}, "structure"),
        ({"structure": ""}, "structure"),
        ({"structure": 1}, "structure"),
        ({"structure": "/nonexistent/dir/nothing.toml"}, "structure"),
        ({"size": 6}, "size"),
    ],
)
def test_bad_options_raise_value_error_naming_the_option(options, named):
    with pytest.raises(ValueError) as caught:
        kumiki.load_game("blokus3d", **options)
    assert named in str(caught.value)


ROWS_OK = "\n".join(f'  "{row}",' for row in grid({(x, y): 2 for x in range(3) for y in range(3)}))
ROWS_TALL = "\n".join(f'  "{row}",' for row in grid({(0, 0): 5, (1, 0): 5}))


@pytest.mark.parametrize(
    "text",
    [
        "this is [not toml",
        "",  # no structure at all
        "[S]\nheights = []\n",  # not ten rows
        "[S]\nheights = [" + ", ".join(['"0000000000"'] * 9) + "]\n",  # nine rows
        "[S]\nheights = [" + ", ".join(['"000000000"'] * 10) + "]\n",  # rows of nine
        "[S]\nheights = [" + ", ".join(['"00000x0000"'] * 10) + "]\n",  # not a digit
        "[S]\nheights = [" + ", ".join(['"0000000000"'] * 10) + "]\n",  # an empty mask
        '[S]\n"2" = [\n' + ROWS_OK + "\n]\n",  # no grid for 3 or 4 colours
        "S = 3\n",  # not a table
    ],
)
def test_bad_structure_files(tmp_path, text):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        kumiki.load_game("blokus3d", structure=str(path))
    assert "structure" in str(caught.value)


def test_structure_files_first_and_named(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        '[square]\ndescription = "a 3×3 of two levels"\nheights = [\n'
        + ROWS_OK
        + "\n]\n\n[bar]\nheights = [\n"
        + ROWS_TALL
        + "\n]\n",
        encoding="utf-8",
    )
    first = new_state(structure=str(path))
    assert first.to_json()["limits"] == limits_of({(x, y): 2 for x in range(3) for y in range(3)})
    named = new_state(structure=f"{path}:bar", players=3)
    assert named.to_json()["limits"] == limits_of({(0, 0): 5, (1, 0): 5})
    # on the bar (two columns of five), the first move is any piece that fits in a 2×1×5 slot, gap-free
    assert {m.piece for m in named.legal_moves()} == {"I2", "I3", "V3", "I4", "O4", "L4"}
    with pytest.raises(ValueError, match="structure"):
        kumiki.load_game("blokus3d", structure=f"{path}:nothing")


def test_registered_structure_with_a_grid_per_colour_count():
    register_structure(
        "_rules_per_count",
        {2: grid({(0, 0): 1, (1, 0): 1}), 3: grid({(0, 0): 2, (1, 0): 2}), 4: grid({(0, 0): 3, (1, 0): 3})},
    )
    for options, height in [({"players": 2}, 1), ({"players": 3}, 2), ({"players": 4}, 3)]:
        limits = new_state(structure="_rules_per_count", **options).to_json()["limits"]
        assert limits == limits_of({(0, 0): height, (1, 0): height})
    with pytest.raises(ValueError) as error:
        register_structure("_rules_bad", {2: grid({(0, 0): 1})})  # no grid for 3 or 4 colours
    # the structure is named once, not "structure '_rules_bad': structure '_rules_bad' has no grid …"
    assert str(error.value) == (
        'register_structure: structure \'_rules_bad\' has no grid for 3 colours (key "3" or "heights")'
    )
    # a key of no meaning (a typo, a grid for 5 colours) was ignored: the structure silently used another grid
    for key in ("hieghts", "5"):
        with pytest.raises(
            ValueError, match=rf"^register_structure: structure '_rules_bad' has an unknown key '{key}'"
        ):
            register_structure("_rules_bad", {"heights": grid({(0, 0): 1}), key: grid({(0, 0): 2})})
    with pytest.raises(ValueError):
        register_structure("_rules_bad", ["0000000000"] * 9)
    with pytest.raises(ValueError):
        register_structure("_rules_bad", ["0000000000"] * 10)


@pytest.mark.parametrize("name", [["S"], {"S": 1}, None, 3, "", "mine.toml"])
def test_register_structure_refuses_a_bad_name_with_value_error(name):
    """A name that is no text (a list is not even hashable) is a bad input: one clear ValueError, no TypeError."""
    with pytest.raises(ValueError, match="a structure name is a short text"):
        register_structure(name, grid({(0, 0): 1, (1, 0): 1}))


# -------------------------------------------------------------------------------------------------------- records


def test_record_round_trip_of_a_hand_played_game():
    state = after("I2 3,3,0 4,3,0", "V3 4,3,1 5,3,0 5,3,1", "I3 0,3,0 1,3,0 2,3,0", structure="_rules_flat3")
    text = kumiki.write_record(state)
    assert '[Game "blokus3d"]' in text
    assert '[structure "_rules_flat3"]' in text
    assert "V3 4,3,1 5,3,0 5,3,1" in text
    _game, replayed = kumiki.read_record(text)
    assert replayed.to_json() == state.to_json()
    assert names(replayed.history) == names(state.history)
    assert replayed.colour_to_move == state.colour_to_move


@pytest.mark.parametrize(
    ("text", "reason"),
    [  # tomllib raises int()'s ValueError ("use sys.set_int_max_str_digits()") and a RecursionError for these
        ("[S]\nx = 1" + "0" * 5000 + "\n", "not valid TOML: a number of over 4300 digits"),
        ("[S]\nx = " + "[" * 3000 + "]" * 3000 + "\n", "not valid TOML: arrays or tables nested too deeply"),
    ],
)
def test_structure_files_tomllib_cannot_read_are_one_line(tmp_path, text, reason):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        kumiki.load_game("blokus3d", structure=str(path))
    assert str(caught.value) == f"option 'structure': {path}: {reason}"
