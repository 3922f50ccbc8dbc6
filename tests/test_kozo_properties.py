"""Kozo invariants over random games (hypothesis), checked against the rules written out plainly below.

A game is drawn as its options, a seed and a list of integers. Turn ``i`` either plays ``legal_moves()[k % len]``
(``k`` drawn), or — to check that nothing illegal is ever accepted — tries a move built at random (a piece of the
pool, any rotation, any position on or off the base, any level, any balance cell), or, in a "careful" game, tries a
few legal moves on copies and plays one that keeps the tower standing, so that towers grow taller than in a random
game. The checks read ``to_json()`` and the public API only:

- ``plain_legal_moves`` enumerates the rules from scratch (every rotation, every position, lowered one level at a
  time) and must equal ``legal_moves()``, in its order;
- every tower (``to_json()``'s ``pieces`` are in the order placed) keeps the placement rules at the time of each move;
- points change only by the size of the piece played, or drop to 0 for the mover on a fall;
- a fall, and its step, is what ``kumiki.physics.analyse`` says of the tower rebuilt from the JSON.
"""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import rotations

import kumiki
from kumiki.physics import analyse

RING = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
BALANCE = 0.57
SMALL_POOL = json.dumps(
    {
        "I2": [[0, 0, 0], [1, 0, 0]],
        "V3": [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        "S4": [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 2]],
        "J2": [[0, 0, 0], [0, 0, 1]],
    }
)


ROTATIONS = rotations()
assert len(ROTATIONS) == 24


def _normalize(cells):
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    return tuple(sorted((x - mx, y - my, z - mz) for x, y, z in cells))


def _turned(cells, m):
    return _normalize([tuple(sum(m[i][k] * c[k] for k in range(3)) for i in range(3)) for c in cells])


def orientations(cells) -> list[tuple]:
    return sorted({_turned(cells, m) for m in ROTATIONS})


class Table:
    """The current round's tower as the JSON describes it."""

    def __init__(self, data: dict) -> None:
        self.cubes = {(c["x"], c["y"], c["z"]) for c in data["cubes"]}
        self.balances = [tuple(b) for b in data["balance_cubes"]]

    def top(self, x: int, y: int, extra=()) -> int:
        return max([z + 1 for cx, cy, z in itertools.chain(self.cubes, extra) if (cx, cy) == (x, y)] + [0])

    def rest(self, shape) -> int | None:
        """Lower ``shape`` (at level 0 as given) from above, one level at a time: the level at which a polycube or
        the base stops it, or None if a balance cube (0.57 high, so met before a polycube one level lower) does."""
        level = max(z for _, _, z in self.cubes | set(self.balances) | {(0, 0, 0)}) + 2
        while True:
            below = {(x, y, z + level - 1) for x, y, z in shape}
            if any(z < 0 for _, _, z in below) or below & self.cubes:
                return level
            if below & set(self.balances):
                return None
            level -= 1

    def spots(self, cells) -> list[tuple[int, int, int]]:
        """Where a balance cube may go once ``cells`` are placed: on every column's highest polycube cube, if no
        balance cube is there already."""
        out = []
        for x, y in RING:
            h = self.top(x, y, cells)
            if h > 0 and (x, y, h) not in self.balances:
                out.append((x, y, h))
        return sorted(out)


def plain_legal_moves(game, data: dict) -> list[tuple[str, tuple, tuple]]:
    """Every legal move ``(piece, cells, balance)`` in the documented order: by piece in pool order, then cells,
    then balance cell."""
    table = Table(data)
    moves = []
    for name in data["pool"]:
        shape = game.pieces[name]
        if data["required_size"] is not None and len(shape) != data["required_size"]:
            continue
        for o in orientations(shape):
            for tx in range(3):
                for ty in range(3):
                    placed = [(x + tx, y + ty, z) for x, y, z in o]
                    if not all((x, y) in RING for x, y, _ in placed):
                        continue
                    level = table.rest(placed)
                    if level is None:
                        continue
                    cells = tuple(sorted((x, y, z + level) for x, y, z in placed))
                    for spot in table.spots(cells):
                        moves.append((name, cells, spot))
    order = {name: i for i, name in enumerate(data["pool"])}
    return sorted(moves, key=lambda m: (order[m[0]], m[1], m[2]))


def tower_json(pieces: list[list[tuple]], balances: list[tuple]) -> dict:
    """The tower for the judge, built from cells: each piece a body of unit cubes, each balance cube a 0.57 box."""
    half = BALANCE / 2
    bodies = [
        {"name": f"piece {i}", "boxes": [[x, y, z, x + 1, y + 1, z + 1] for x, y, z in cells]}
        for i, cells in enumerate(pieces)
    ]
    bodies += [
        {
            "name": f"cube {i}",
            "boxes": [[x + 0.5 - half, y + 0.5 - half, z, x + 0.5 + half, y + 0.5 + half, z + BALANCE]],
        }
        for i, (x, y, z) in enumerate(balances)
    ]
    return {"ground": [[0, 0, 3, 3]], "tie": "falls", "bodies": bodies}


def check_tower(data: dict) -> None:
    """The placement rules, for every piece and balance cube of the tower, at the time each was placed."""
    pieces = [[tuple(c) for c in p["cells"]] for p in data["pieces"]]
    balances = [tuple(b) for b in data["balance_cubes"]]
    assert len(balances) in (len(pieces), len(pieces) - 1)  # one fewer after a fall at step 1 (end of game)
    all_cells = [c for p in pieces for c in p]
    assert len(all_cells) == len(set(all_cells)), "two polycube cubes in one cell"
    assert not set(all_cells) & set(balances), "a polycube cube where a balance cube is"
    assert len(set(balances)) == len(balances)
    assert sorted((c["x"], c["y"], c["z"]) for c in data["cubes"]) == sorted(all_cells)
    assert [(c["x"], c["y"], c["z"]) for c in data["cubes"]] == sorted(all_cells)
    for k, cells in enumerate(pieces):
        assert all((x, y) in RING and z >= 0 for x, y, z in cells), f"piece {k} off the ring: {cells}"
        earlier = {c for p in pieces[:k] for c in p}
        earlier_balances = balances[:k]
        lowest: dict[tuple[int, int], int] = {}
        for x, y, z in cells:
            lowest[(x, y)] = min(z, lowest.get((x, y), z))
        for (x, y), zb in lowest.items():
            # It came from above: everything already in its column is below it ...
            assert all(z < zb for cx, cy, z in earlier if (cx, cy) == (x, y)), f"piece {k} passed through a cube"
            # ... and a balance cube (0.57 high) with a gap: it does not rest on it.
            assert all(b < zb for bx, by, b in earlier_balances if (bx, by) == (x, y)), f"piece {k} on a balance"
        # It rests: some column's lowest cube is on the base or right on a polycube cube.
        assert any(zb == 0 or (x, y, zb - 1) in earlier for (x, y), zb in lowest.items()), f"piece {k} floats"
    for j, (x, y, b) in enumerate(balances):
        placed = {c for p in pieces[: j + 1] for c in p}
        assert (x, y, b - 1) in placed, f"balance cube {j} is not on a polycube cube"
        assert not any((cx, cy) == (x, y) and z >= b for cx, cy, z in placed), f"balance cube {j} under a polycube"
        assert (x, y, b) not in balances[:j]


def check_points(before: dict, after: dict, mover: int, size: int, fell: bool) -> None:
    rounds_before, rounds_after = before["points"], after["points"]
    r = before["round"]
    for i, row in enumerate(rounds_after):
        if i < r:
            assert row == rounds_before[i], "an earlier round's points changed"
        elif i > r:
            assert row == [0.0] * len(row), "a new round starts with points"
    old, new = rounds_before[r], rounds_after[r]
    for p, (a, b) in enumerate(zip(old, new, strict=True)):
        if p != mover:
            assert a == b
        elif fell:
            assert b == 0.0
        else:
            assert b == a + size


def check_fall(before: dict, move, after: dict) -> int | None:
    """The step at which the tower falls according to the judge, rebuilt from the JSON; None if it stands."""
    pieces = [[tuple(c) for c in p["cells"]] for p in before["pieces"]] + [list(move.cells)]
    balances = [tuple(b) for b in before["balance_cubes"]]
    if not analyse(tower_json(pieces, balances)).stands:
        return 1
    if not analyse(tower_json(pieces, [*balances, move.balance])).stands:
        return 2
    return None


def random_candidate(game, data: dict, rng: random.Random) -> str:
    """A move built at random, legal or not: a piece of the pool turned any way, anywhere near the base."""
    name = rng.choice(data["pool"])
    shape = rng.choice(orientations(game.pieces[name]))
    tx, ty, tz = rng.randint(-1, 2), rng.randint(-1, 2), rng.randint(0, 6)
    cells = sorted((x + tx, y + ty, z + tz) for x, y, z in shape)
    balance = (rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 8))
    return f"{name} {' '.join(f'{x},{y},{z}' for x, y, z in cells)} + {balance[0]},{balance[1]},{balance[2]}"


games = st.fixed_dictionaries(
    {
        "players": st.integers(1, 4),
        "rounds": st.integers(1, 2),
        "random_size": st.booleans(),
        "opener": st.sampled_from(["rotate", "continue", "first"]),
        "no_fit": st.sampled_from(["end", "redraw"]),
        "tiebreak": st.sampled_from(["shared", "later_turn"]),
        "pieces": st.sampled_from(["standard", "standard", SMALL_POOL]),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=games,
    seed=st.integers(0, 2**16),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=8),
    careful=st.booleans(),
)
def test_random_games_keep_the_rules(options, seed, picks, careful):
    game = kumiki.load_game("kozo", **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    opened: list[int] = []
    turn = 0
    last_mover = -1  # who played the last move: with opener "continue" the next seat opens the next round
    while not state.over and turn < 30:
        data = state.to_json()
        if not data["pieces"]:
            opened.append(data["round"])
            expected = {
                "rotate": data["round"] % game.players,
                "first": 0,
                "continue": (last_mover + 1) % game.players,  # a fall, the last piece, or the next who cannot place
            }[options["opener"]]
            assert state.to_move == expected == state.openers[-1], "the round's opener"
        assert data["to_move"] == state.to_move
        check_tower(data)
        legal = state.legal_moves()
        plain = plain_legal_moves(game, data)
        assert [(m.piece, m.cells, m.balance) for m in legal] == plain
        assert legal, "the round should have ended: the mover cannot place"
        if data["required_size"] is not None:
            assert data["required_size"] in {len(game.pieces[name]) for name in data["pool"]}
        k = picks[turn % len(picks)] + turn
        if k % 3 == 0:
            # A move built at random: accepted exactly when legal; refused without a trace.
            text = random_candidate(game, data, rng)
            try:
                parsed = game.parse_move(text)
            except kumiki.MoveSyntaxError:
                parsed = None
            if parsed is None or parsed not in legal:
                try:
                    state.play(text)
                except kumiki.IllegalMove:
                    assert state.to_json() == data
                else:
                    raise AssertionError(f"{text} was accepted but is not among the legal moves")
                move = legal[k % len(legal)]
            else:
                move = parsed
        elif careful and k % 3 == 1:
            move = legal[k % len(legal)]
            for candidate in rng.sample(legal, min(4, len(legal))):
                trial = state.copy()
                trial.play(candidate)
                if len(trial.falls) == len(state.falls):
                    move = candidate
                    break
        else:
            move = legal[k % len(legal)]
        assert move in legal
        mover = state.to_move
        last_mover = mover
        falls_before = len(data["falls"])
        state.play(move)
        after = state.to_json()
        assert state.history[-1] == move
        fell = len(after["falls"]) > falls_before
        step = check_fall(data, move, after)
        assert (after["falls"][-1]["step"] if fell else None) == step
        if fell:
            fall = after["fall"]
            assert (fall["round"], fall["player"], fall["move"]) == (data["round"], mover, str(move))
            assert after["round"] == data["round"] + 1
        check_points(data, after, mover, len(game.pieces[move.piece]), fell)
        if not state.over and after["round"] == data["round"]:
            assert after["pool"] == [name for name in data["pool"] if name != move.piece]
            assert after["to_move"] == (mover + 1) % game.players
        turn += 1
    data = state.to_json()
    check_tower(data)
    assert opened == sorted(set(opened))
    if state.over:
        assert state.legal_moves() == [] and state.to_move is None
        assert len(data["points"]) == game.rounds
        scores = state.scores()
        assert scores == [sum(r[p] for r in data["points"]) for p in range(game.players)]
        best = [p for p, s in enumerate(scores) if s == max(scores)]
        if options["tiebreak"] == "shared" or len(best) == 1:
            assert state.winners() == best
        else:
            assert len(state.winners()) == 1 and state.winners()[0] in best
    # Replaying the history gives the same state (the seed decides every draw).
    replay = game.new_state(seed=seed)
    for move in state.history:
        replay.play(str(move))
    assert replay.to_json() == data
