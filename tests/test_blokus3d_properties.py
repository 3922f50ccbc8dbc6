"""Blokus 3D invariants over random games (hypothesis), checked against the rules written out plainly below.

A game is drawn as its options (the built-in structures, two small ones of ours, or a random grid registered on the
fly) plus a list of integers; turn ``i`` plays ``legal_moves()[k % len]`` with ``k = picks[i % len(picks)] + i``, so
every drawn game runs to its end. The checks read only ``to_json()`` and the public API; ``Table.placements`` is a
plain enumeration of the rules (every rotation, every translation) that every listed move must pass, that
``legal_moves()`` must equal, and that confirms a colour said to be out really has no legal placement at that moment.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import rotations

import kumiki
from kumiki.games.blokus3d import PIECE_NAMES, PIECES, register_structure

SIZE = 10
FACES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def _normalize(cells):
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    return tuple(sorted((x - mx, y - my, z - mz) for x, y, z in cells))


ROTATIONS = rotations()
SHAPES = {
    name: sorted(
        {
            _normalize([tuple(sum(m[i][k] * c[k] for k in range(3)) for i in range(3)) for c in PIECES[name]])
            for m in ROTATIONS
        }
    )
    for name in PIECE_NAMES
}

# Small structures of our own, so colours run out of room at every stage of a game.
register_structure(
    "_prop_small",
    {
        2: ["0000000000"] * 7 + ["0002220000", "0002320000", "0002220000"],
        3: ["0000000000"] * 6 + ["0000000000", "0123300000", "0133310000", "0033200000"],
        4: ["0000000000"] * 4 + ["0222000000", "0232000000", "0222000000", "0000000000", "0000011110", "0000011110"],
    },
)
register_structure(
    "_prop_ragged",
    [
        "1000000009",
        "0100000090",
        "0020000900",
        "0003009000",
        "0000440000",
        "0000550000",
        "0006006000",
        "0070000700",
        "0800000080",
        "9000000009",
    ],
)
STRUCTURES = ["A", "B", "C", "D", "_prop_small", "_prop_ragged"]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def random_structures(draw):
    """A random grid (cells of the turntable with heights 1–9), registered under a name made from it."""
    cells = draw(
        st.dictionaries(st.tuples(st.integers(0, 9), st.integers(0, 9)), st.integers(1, 9), min_size=12, max_size=70)
    )
    rows = ["".join(str(cells.get((x, y), 0)) for x in range(SIZE)) for y in range(SIZE - 1, -1, -1)]
    name = "_prop_" + "".join(rows)
    register_structure(name, rows)
    return name


@st.composite
def games(draw):
    players = draw(st.integers(2, 4))
    structure = draw(st.sampled_from([*STRUCTURES, "random", "random"]))
    if structure == "random":
        structure = draw(random_structures())
    options = {
        "players": players,
        "structure": structure,
        "colours_per_player": draw(st.sampled_from([1, 2])) if players == 2 else 1,
    }
    picks = draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=50))
    return options, picks


def play_through(options, picks, each_turn=None, each_position=None):
    """Play the drawn game to its end; call ``each_position(state)`` before every turn and at the end, and
    ``each_turn(before, move, after)`` after every turn (``before`` is a copy)."""
    game = kumiki.load_game("blokus3d", **options)
    state = game.new_state(seed=0)
    colours = options["players"] * options["colours_per_player"]
    turn = 0
    while True:
        if each_position:
            each_position(state)
        if state.over:
            return state
        moves = state.legal_moves()
        move = moves[(picks[turn % len(picks)] + turn) % len(moves)]
        before = state.copy()
        state.play(move)
        if each_turn:
            each_turn(before, move, state)
        turn += 1
        assert turn <= 11 * colours, "each colour places at most eleven pieces"


# ---------------------------------------------------------------------------------------------- the plain rules


class Table:
    """A position read from ``to_json()``: the cubes by cell, and what each colour has placed."""

    def __init__(self, data):
        self.limits = data["limits"]
        self.cubes = {(c["x"], c["y"], c["z"]): c["colour"] for c in data["cubes"]}
        self.pieces_left = data["pieces_left"]
        self.colours = len(data["pieces_left"])
        self.height = {}
        for x, y, z in self.cubes:
            self.height[(x, y)] = max(self.height.get((x, y), 0), z + 1)
        self.has_cubes = [False] * self.colours
        for colour in self.cubes.values():
            self.has_cubes[colour] = True

    def inside(self, x, y, z) -> bool:
        return 0 <= x < SIZE and 0 <= y < SIZE and 0 <= z < self.limits[x][y]

    def legal(self, colour, piece, cells) -> bool:
        """The placement rules as written, for ``cells`` (already known to be ``piece`` under a rotation)."""
        if piece not in self.pieces_left[colour]:
            return False
        cubes = self.cubes
        own = set(cells)
        for x, y, z in cells:
            if not self.inside(x, y, z) or (x, y, z) in cubes:
                return False
            if z > 0 and (x, y, z - 1) not in cubes and (x, y, z - 1) not in own:
                return False
        if not cubes:
            return True  # the very first piece of the game
        neighbours = [cubes.get((x + dx, y + dy, z + dz)) for x, y, z in cells for dx, dy, dz in FACES]
        if not self.has_cubes[colour]:
            return min(z for _, _, z in cells) == 0 and any(n is not None for n in neighbours)
        return colour in neighbours

    def placements(self, colour) -> list[str]:
        """Every legal placement of the colour, as notation, in ``legal_moves()`` order."""
        found = sorted((PIECE_NAMES.index(name), cells) for name, cells in self._placements(colour))
        return [PIECE_NAMES[p] + " " + " ".join(f"{x},{y},{z}" for x, y, z in cells) for p, cells in found]

    def can_place(self, colour) -> bool:
        return next(self._placements(colour), None) is not None

    def _placements(self, colour):
        """With no gap anywhere every column is a solid stack, and a piece's lowest cube in a column must sit right on
        it (no overlap: not lower; no gap: not higher), so each rotation and (x, y) shift has one level to try."""
        for name in self.pieces_left[colour]:
            for shape in SHAPES[name]:
                x0, y0, _z0 = shape[0]
                bottom0 = min(z for x, y, z in shape if (x, y) == (x0, y0))
                span_x = max(c[0] for c in shape)
                span_y = max(c[1] for c in shape)
                for tx in range(SIZE - span_x):
                    for ty in range(SIZE - span_y):
                        tz = self.height.get((x0 + tx, y0 + ty), 0) - bottom0
                        if tz < 0:
                            continue
                        cells = sorted((x + tx, y + ty, z + tz) for x, y, z in shape)
                        if self.legal(colour, name, cells):
                            yield name, cells


def move_cells(move) -> list[tuple[int, int, int]]:
    return [tuple(map(int, part.split(","))) for part in str(move).split()[1:]]


def recount_scores(data, players) -> list[int]:
    tops: dict[tuple[int, int], tuple[int, int]] = {}
    for c in data["cubes"]:
        key = (c["x"], c["y"])
        if key not in tops or c["z"] > tops[key][0]:
            tops[key] = (c["z"], c["colour"])
    colours = len(data["pieces_left"])
    per_colour = [
        sum(1 for _, col in tops.values() if col == colour) - len(data["pieces_left"][colour])
        for colour in range(colours)
    ]
    return [max(per_colour[c] for c in range(colours) if c % players == p) for p in range(players)]


def check_table(data, game_limits=None) -> None:
    """No cube outside the mask or at/above its limit, no gap, one colour per cell, each piece whole and turned."""
    limits = data["limits"]
    if game_limits is not None:
        assert limits == game_limits
    cells = [(c["x"], c["y"], c["z"]) for c in data["cubes"]]
    assert cells == sorted(cells)
    assert len(set(cells)) == len(cells)
    occupied = set(cells)
    for x, y, z in cells:
        assert 0 <= x < SIZE and 0 <= y < SIZE and z >= 0, (x, y, z)
        assert z < limits[x][y], (x, y, z, limits[x][y])
        assert z == 0 or (x, y, z - 1) in occupied, f"gap under {x},{y},{z}"
    groups: dict[tuple[int, str], list] = {}
    for c in data["cubes"]:
        groups.setdefault((c["colour"], c["piece"]), []).append((c["x"], c["y"], c["z"]))
    for colour, left in enumerate(data["pieces_left"]):
        assert left == [n for n in PIECE_NAMES if n in left]
        placed = {piece for col, piece in groups if col == colour}
        assert placed == set(PIECE_NAMES) - set(left)
    for (_colour, piece), group in groups.items():
        assert _normalize(group) in SHAPES[piece], (piece, group)


# -------------------------------------------------------------------------------------------------------- tests


@SETTINGS
@given(games())
def test_positions_are_always_well_formed(game):
    options, picks = game
    players = options["players"]
    colours = players * options["colours_per_player"]
    limits = kumiki.load_game("blokus3d", **options).new_state().to_json()["limits"]

    def check(state):
        data = state.to_json()
        check_table(data, limits)
        assert len(data["pieces_left"]) == colours
        assert data["out"] == sorted(set(data["out"]))
        assert data["colour_to_move"] == state.colour_to_move
        assert state.scores() == recount_scores(data, players)
        assert len(state.scores()) == players
        moves = state.legal_moves()
        if state.over:
            assert state.to_move is None and state.colour_to_move is None
            assert moves == []
            assert data["out"] == list(range(colours))
            best = max(state.scores())
            assert state.winners() == [p for p, s in enumerate(state.scores()) if s == best]
            return
        assert state.winners() == []
        colour = state.colour_to_move
        assert colour not in data["out"]
        assert state.to_move == colour % players
        assert moves, "the colour to move has a placement"
        keys = [(PIECE_NAMES.index(m.piece), m.cells) for m in moves]
        assert keys == sorted(keys)
        assert len(set(keys)) == len(keys)
        table = Table(data)
        for m in moves:
            assert m.piece in data["pieces_left"][colour]
            cells = move_cells(m)
            assert cells == sorted(cells)
            assert _normalize(cells) in SHAPES[m.piece]
            assert table.legal(colour, m.piece, cells), str(m)

    play_through(options, picks, each_position=check)


@SETTINGS
@given(games())
def test_turn_order_outs_and_the_end(game):
    """The colour to move is the next colour after the mover that is not out; every colour passed over is out and
    has no placement at that moment; out is for good (a colour out is skipped even if room opens up for it later);
    the game ends exactly when the turn goes round and no colour can place."""
    options, picks = game
    colours = options["players"] * options["colours_per_player"]

    def check(before, move, after):
        assert move in before.legal_moves()
        assert after.history == [*before.history, move]
        mover = before.colour_to_move
        old_out, new_out = set(before.to_json()["out"]), set(after.to_json()["out"])
        assert old_out <= new_out
        table = Table(after.to_json())
        if after.over:
            passed = [(mover + step) % colours for step in range(1, colours + 1)]
        else:
            nxt = after.colour_to_move
            assert nxt not in new_out
            passed = []
            colour = (mover + 1) % colours
            while colour != nxt:
                passed.append(colour)
                colour = (colour + 1) % colours
            assert table.can_place(nxt)
        for colour in passed:
            assert colour in new_out, colour
            if colour not in old_out:
                assert not table.can_place(colour), f"colour {colour} is out but can place"
        # nobody becomes out except while being passed over
        assert new_out - old_out <= set(passed)
        if after.over:
            assert new_out == set(range(colours))

    state = play_through(options, picks, each_turn=check)
    assert state.over


@SETTINGS
@given(games())
def test_legal_moves_are_exactly_the_rules_placements(game):
    """At every third position (from one chosen by the draw), legal_moves() is every placement the plain rules
    allow, in order."""
    options, picks = game
    start = picks[0] % 3
    turn = [0]

    def check(state):
        if turn[0] % 3 == start or state.over:
            expected = [] if state.over else Table(state.to_json()).placements(state.colour_to_move)
            assert [str(m) for m in state.legal_moves()] == expected
        turn[0] += 1

    play_through(options, picks, each_position=check)


@SETTINGS
@given(games(), st.randoms(use_true_random=False))
def test_every_legal_move_plays_and_others_are_refused(game, rng):
    options, picks = game
    kept = []  # (copy, its snapshot) from the position before: the original has moved on since

    def snap(state):
        return (
            state.to_json(),
            [str(m) for m in state.history],
            state.to_move,
            state.colour_to_move,
            state.over,
            [str(m) for m in state.legal_moves()],
        )

    def check(state):
        for twin, seen in kept:
            assert snap(twin) == seen
        before = snap(state)
        moves = state.legal_moves()
        listed = {str(m) for m in moves}
        for move in rng.sample(moves, min(6, len(moves))):
            twin = state.copy()
            twin.play(move)
            assert twin.history[-1] == move
            assert len(twin.history) == len(state.history) + 1
            again = state.copy()
            again.play(str(move))  # the notation plays the same
            assert again.to_json() == twin.to_json()
            if not twin.over:
                twin.copy().play(twin.legal_moves()[0])
        # random pieces, rotations and places: accepted exactly when listed, and a refusal changes nothing
        if not state.over:
            for _ in range(12):
                name = rng.choice(PIECE_NAMES)
                shape = rng.choice(SHAPES[name])
                tx, ty, tz = rng.randrange(-1, SIZE), rng.randrange(-1, SIZE), rng.randrange(0, 6)
                cells = sorted((x + tx, y + ty, z + tz) for x, y, z in shape)
                text = name + " " + " ".join(f"{x},{y},{z}" for x, y, z in cells)
                twin = state.copy()
                try:
                    twin.play(text)
                except kumiki.IllegalMove:
                    assert text not in listed, text
                    assert snap(twin) == before
                else:
                    assert text in listed, f"{text} is not in legal_moves() but was accepted"
        assert snap(state) == before
        twin = state.copy()
        kept[:] = [(twin, snap(twin))]

    play_through(options, picks, each_position=check)


@SETTINGS
@given(games())
def test_records_round_trip(game):
    options, picks = game
    half = []

    def keep(state):
        if len(state.history) == len(picks) % 12:
            half.append(state.copy())

    state = play_through(options, picks, each_position=keep)
    for s in [state, *half]:
        text = kumiki.write_record(s, {"Event": "property test"})
        _game, replayed = kumiki.read_record(text)
        assert replayed.to_json() == s.to_json()
        assert [str(m) for m in replayed.history] == [str(m) for m in s.history]
        assert replayed.over == s.over
        assert replayed.to_move == s.to_move
        assert replayed.colour_to_move == s.colour_to_move
        assert replayed.scores() == s.scores()
        assert replayed.winners() == s.winners()


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1))
def test_playout_ends_a_copy_in_a_finished_legal_game(game, seed):
    options, picks = game
    players = options["players"]
    colours = players * options["colours_per_player"]
    prefix = picks[0] % 10
    state = kumiki.load_game("blokus3d", **options).new_state(seed=0)
    for turn in range(prefix):
        if state.over:
            break
        moves = state.legal_moves()
        state.play(moves[(picks[turn % len(picks)] + turn) % len(moves)])
    before = (state.to_json(), [str(m) for m in state.history], state.colour_to_move, state.over)
    twin = state.copy()
    twin.playout(random.Random(seed))
    assert (state.to_json(), [str(m) for m in state.history], state.colour_to_move, state.over) == before
    assert twin.over
    assert twin.to_move is None and twin.colour_to_move is None
    assert twin.legal_moves() == []
    data = twin.to_json()
    check_table(data, state.to_json()["limits"])
    # what was on the table stays, and more only ever goes on top
    old = {(c["x"], c["y"], c["z"]): (c["colour"], c["piece"]) for c in state.to_json()["cubes"]}
    new = {(c["x"], c["y"], c["z"]): (c["colour"], c["piece"]) for c in data["cubes"]}
    assert all(new.get(cell) == what for cell, what in old.items())
    assert data["out"] == list(range(colours))
    assert twin.scores() == recount_scores(data, players)
    best = max(twin.scores())
    assert twin.winners() == [p for p, s in enumerate(twin.scores()) if s == best]
