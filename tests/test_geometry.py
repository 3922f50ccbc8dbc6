"""Polycube geometry: the 24 proper rotations, orientations of the Blokus 3D pieces, canonical forms.

The rotation group is rebuilt here independently (closure of two quarter turns), and every count below is worked out
by hand from the shapes' symmetries, not read off the engine.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kumiki.games.blokus3d import PIECE_NAMES, PIECES
from kumiki.geometry.polycube import (
    ROTATIONS,
    canonical,
    columns,
    face_neighbours,
    is_connected,
    normalize,
    orientations,
    rotate,
    translate,
)

IDENTITY = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
QUARTER_X = ((1, 0, 0), (0, 0, -1), (0, 1, 0))  # (x, y, z) -> (x, -z, y)
QUARTER_Z = ((0, -1, 0), (1, 0, 0), (0, 0, 1))  # (x, y, z) -> (-y, x, z)
MIRROR_X = ((-1, 0, 0), (0, 1, 0), (0, 0, 1))

# Distinct proper rotations of each piece, by hand: 24 / (number of proper rotations that map it onto itself).
# I2, I3, I4, O4: a rod or a square has 8 such rotations -> 3 (one per axis it lies along / is normal to).
# V3, T4, Z4: planar, with 2 (V3, T4: the half turn about the in-plane mirror axis; Z4: the half turn about the
# plane's normal) -> 12.  L4: only the identity (its in-plane flip is a rotation out of the plane that does not
# map it onto itself) -> 24.  P4 (the tripod corner): the 3-fold turns about the body diagonal -> 8.
# A4, B4 (the screws): a half turn -> 12.
ORIENTATION_COUNTS = {
    "I2": 3,
    "I3": 3,
    "V3": 12,
    "I4": 3,
    "O4": 3,
    "T4": 12,
    "L4": 24,
    "Z4": 12,
    "P4": 8,
    "A4": 12,
    "B4": 12,
}


def multiply(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def determinant(m) -> int:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def group_closure(generators) -> set:
    group = {IDENTITY}
    frontier = [IDENTITY]
    while frontier:
        m = frontier.pop()
        for g in generators:
            product_ = multiply(m, g)
            if product_ not in group:
                group.add(product_)
                frontier.append(product_)
    return group


def plain_orientations(cells) -> set:
    """Orientations computed here, from the independently built group."""
    return {tuple(sorted(normalize(rotate(cells, m)))) for m in group_closure([QUARTER_X, QUARTER_Z])}


def mirror(cells):
    return rotate(cells, MIRROR_X)


# ------------------------------------------------------------------------------------------------------- rotations


def test_rotations_are_the_24_proper_rotations_of_the_cube():
    assert len(ROTATIONS) == 24
    assert len(set(ROTATIONS)) == 24
    assert ROTATIONS[0] == IDENTITY
    for m in ROTATIONS:
        assert determinant(m) == 1
        # a signed permutation matrix: one ±1 per row and column
        for row in m:
            assert sorted(map(abs, row)) == [0, 0, 1]
        for j in range(3):
            assert sorted(abs(m[i][j]) for i in range(3)) == [0, 0, 1]
    assert set(ROTATIONS) == group_closure([QUARTER_X, QUARTER_Z])


def test_rotations_form_a_group():
    rotations = set(ROTATIONS)
    assert IDENTITY in rotations
    for a in ROTATIONS:
        for b in ROTATIONS:
            assert multiply(a, b) in rotations
        # the inverse of a rotation matrix is its transpose, and it is in the set
        transpose = tuple(tuple(a[j][i] for j in range(3)) for i in range(3))
        assert transpose in rotations
        assert multiply(a, transpose) == IDENTITY


def test_no_mirror_in_the_rotations():
    assert MIRROR_X not in ROTATIONS
    assert all(multiply(MIRROR_X, m) not in ROTATIONS for m in ROTATIONS)


def test_rotate_applies_the_matrix_to_each_cell():
    assert rotate([(1, 2, 3)], IDENTITY) == [(1, 2, 3)]
    assert rotate([(1, 2, 3)], QUARTER_Z) == [(-2, 1, 3)]
    assert rotate([(1, 2, 3)], QUARTER_X) == [(1, -3, 2)]
    assert rotate([(1, 0, 0), (0, 1, 0)], QUARTER_Z) == [(0, 1, 0), (-1, 0, 0)]


# ---------------------------------------------------------------------------------------------------- orientations


def test_the_eleven_pieces_in_order():
    assert PIECE_NAMES == ("I2", "I3", "V3", "I4", "O4", "T4", "L4", "Z4", "P4", "A4", "B4")
    sizes = [len(PIECES[name]) for name in PIECE_NAMES]
    assert sizes == [2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]
    for name in PIECE_NAMES:
        assert is_connected(PIECES[name]), name
        assert len(set(PIECES[name])) == len(PIECES[name])


def test_the_pieces_are_every_polycube_of_2_to_4_cubes_up_to_rotation():
    """Grow every polycube by adding a cube at a time: 1 domino, 2 trominoes, 8 tetracubes under proper rotation."""
    found: dict[int, set] = {1: {((0, 0, 0),)}}
    for size in (2, 3, 4):
        grown = set()
        for shape in found[size - 1]:
            for cell in shape:
                for n in face_neighbours(cell):
                    if n not in shape:
                        grown.add(min(plain_orientations([*shape, n])))
        found[size] = grown
    assert len(found[2]) == 1 and len(found[3]) == 2 and len(found[4]) == 8
    pieces = {min(plain_orientations(PIECES[name])) for name in PIECE_NAMES}
    assert pieces == found[2] | found[3] | found[4]


@pytest.mark.parametrize("name", list(ORIENTATION_COUNTS))
def test_orientation_counts(name):
    shapes = orientations(normalize(PIECES[name]))
    assert len(shapes) == ORIENTATION_COUNTS[name]
    assert len(set(shapes)) == len(shapes)
    assert set(shapes) == plain_orientations(PIECES[name])
    assert list(shapes) == sorted(shapes)
    for shape in shapes:
        assert shape == normalize(shape)
        assert len(shape) == len(PIECES[name])


def test_orientations_total():
    assert sum(len(orientations(normalize(PIECES[name]))) for name in PIECE_NAMES) == 104


def test_mirror_pieces_differ():
    a, b = PIECES["A4"], PIECES["B4"]
    assert canonical(a) != canonical(b)
    assert not set(orientations(normalize(a))) & set(orientations(normalize(b)))
    # each screw is the other's mirror image
    assert canonical(mirror(a)) == canonical(b)
    assert canonical(mirror(b)) == canonical(a)


@pytest.mark.parametrize("name", [n for n in PIECE_NAMES if n not in ("A4", "B4")])
def test_other_pieces_are_their_own_mirror_image(name):
    # planar pieces are flipped over by a rotation out of their plane; P4 has a mirror plane (x = y)
    assert canonical(mirror(PIECES[name])) == canonical(PIECES[name])


# -------------------------------------------------------------------------------------------------------- helpers


def test_normalize_moves_the_minimum_corner_to_the_origin_and_sorts():
    assert normalize([(5, 3, 2), (4, 3, 2), (4, 4, 3)]) == ((0, 0, 0), (0, 1, 1), (1, 0, 0))
    assert normalize([(-2, -1, 0), (-1, -1, 0)]) == ((0, 0, 0), (1, 0, 0))
    assert normalize([]) == ()
    shape = ((0, 0, 0), (1, 0, 0))
    assert normalize(shape) == shape


def test_translate_moves_and_sorts():
    assert translate([(1, 0, 0), (0, 0, 0)], 2, 3, 4) == ((2, 3, 4), (3, 3, 4))
    assert translate([(0, 0, 0)], -1, -1, 0) == ((-1, -1, 0),)
    assert translate([(1, 2, 3)], 0, 0, 0) == ((1, 2, 3),)


def test_columns_lists_levels_bottom_up():
    assert columns([(0, 0, 2), (0, 0, 0), (1, 0, 0), (0, 0, 1)]) == {(0, 0): [0, 1, 2], (1, 0): [0]}
    assert columns(PIECES["P4"]) == {(0, 0): [0, 1], (1, 0): [0], (0, 1): [0]}
    assert columns([]) == {}


def test_is_connected_needs_shared_faces():
    assert is_connected([(0, 0, 0)])
    assert is_connected([(0, 0, 0), (0, 0, 1)])
    assert is_connected([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)])
    assert not is_connected([])
    assert not is_connected([(0, 0, 0), (1, 1, 0)])  # an edge only
    assert not is_connected([(0, 0, 0), (1, 1, 1)])  # a corner only
    assert not is_connected([(0, 0, 0), (2, 0, 0)])
    assert not is_connected([(0, 0, 0), (1, 0, 0), (5, 5, 5), (5, 5, 6)])


def test_face_neighbours():
    assert sorted(face_neighbours((1, 1, 1))) == sorted(
        [(0, 1, 1), (2, 1, 1), (1, 0, 1), (1, 2, 1), (1, 1, 0), (1, 1, 2)]
    )


def test_canonical_invariant_under_rotation_and_translation_of_every_piece():
    for name in PIECE_NAMES:
        want = canonical(PIECES[name])
        assert want in orientations(normalize(PIECES[name]))
        for m, (dx, dy, dz) in product(ROTATIONS, [(0, 0, 0), (3, -2, 7), (-5, 5, -1)]):
            moved = translate(rotate(PIECES[name], m), dx, dy, dz)
            assert canonical(moved) == want, (name, m)


# ------------------------------------------------------------------------------------------------------ hypothesis


@st.composite
def polycubes(draw):
    """A random connected polycube of 1 to 7 cubes, grown one face neighbour at a time."""
    size = draw(st.integers(1, 7))
    cells = [(0, 0, 0)]
    while len(cells) < size:
        base = draw(st.sampled_from(cells))
        n = draw(st.sampled_from(face_neighbours(base)))
        if n not in cells:
            cells.append(n)
    return cells


SETTINGS = settings(max_examples=200, deadline=None)


@SETTINGS
@given(
    polycubes(),
    st.sampled_from(ROTATIONS),
    st.tuples(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20)),
)
def test_canonical_of_a_rotated_polycube_is_its_canonical(cells, m, shift):
    assert is_connected(cells)
    moved = translate(rotate(cells, m), *shift)
    assert is_connected(moved)
    assert canonical(moved) == canonical(cells)
    assert set(orientations(normalize(moved))) == set(orientations(normalize(cells)))
    assert set(orientations(normalize(cells))) == plain_orientations(cells)
    # the canonical form is itself one of the shape's orientations, normalized
    assert canonical(cells) == normalize(canonical(cells))
    assert len(canonical(cells)) == len(set(cells))


@SETTINGS
@given(polycubes())
def test_mirror_image_is_the_same_piece_exactly_when_a_rotation_says_so(cells):
    mirrored = mirror(cells)
    same = normalize(mirrored) in plain_orientations(cells)
    assert (canonical(mirrored) == canonical(cells)) == same
    # the number of orientations divides 24 (orbit-stabiliser)
    assert 24 % len(orientations(normalize(cells))) == 0
