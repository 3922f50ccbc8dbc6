"""The Kozo engine against the plain set-of-cells Kozo (bench/kozo_plain.py), written off docs/rules/kozo.md alone.

The two share no code but the physics judge, which knows no game: the reference has its own rotations, lowering,
balance spots, rounds, falls, scoring and tie-breaks. They must agree at every ply of seeded random games over
every player count and every option that changes the rules (opener, rounds, the variant's draw and no-fit rule,
tie-break, custom pools): the legal moves in order, moves one step from a legal one refused alike, the whole
`to_json()` (points per round, falls and their explanations, round ends, margin), who is to move, the scores and the
winners. The variant's draw comes from the engine's seed; the reference checks that each size drawn is one the rules
allow.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

import kumiki
from bench.kozo_plain import PlainKozo

# Pools of our own: small pieces stand more often, so rounds run long and end every way (placed, stuck, fall).
MONOS = json.dumps({f"M{i}": [[0, 0, 0]] for i in range(10)}, separators=(",", ":"))
SMALL = json.dumps(
    {
        "D1": [[0, 0, 0], [1, 0, 0]],
        "M": [[0, 0, 0]],
        "D2": [[0, 0, 0], [0, 0, 1]],
        "V": [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
    },
    separators=(",", ":"),
)
# A 2x2x2 cube fits nowhere on the ring: every round is stuck at once (alone) or once the others are placed.
NONE_FIT = json.dumps({"C8": [[x, y, z] for x in range(2) for y in range(2) for z in range(2)]}, separators=(",", ":"))
MIXED = json.dumps(
    {
        "C8": [[x, y, z] for x in range(2) for y in range(2) for z in range(2)],
        "M": [[0, 0, 0]],
        "I2": [[0, 0, 0], [1, 0, 0]],
    },
    separators=(",", ":"),
)

# Odd shapes: a ring of eight that fits flat round the chimney (four rotations, one shape) or on edge along a side
# (a hole in its middle column), a bar too long to lie down, a 3D hook, and the U pentacube.
RING8 = [[x, y, 0] for x in range(3) for y in range(3) if (x, y) != (1, 1)]
ODD = json.dumps(
    {
        "R8": RING8,
        "I5": [[i, 0, 0] for i in range(5)],
        "hook_1": [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 2], [1, 1, 2]],
        "M": [[0, 0, 0]],
        "U": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [2, 1, 0]],
        "I2": [[0, 0, 0], [1, 0, 0]],
    },
    separators=(",", ":"),
)


def random_config(rng: random.Random) -> dict[str, object]:
    config: dict[str, object] = {
        "players": rng.choice([1, 2, 2, 3, 4, 5, 6]),
        "rounds": rng.choice([1, 2, 3]),
        "opener": rng.choice(["rotate", "continue", "first"]),
        "random_size": rng.random() < 0.4,
        "size_draw": rng.choice(["size", "tile"]),
        "no_fit": rng.choice(["end", "redraw"]),
        "tiebreak": rng.choice(["shared", "later_turn"]),
        "pieces": rng.choice(["standard"] * 6 + [MONOS, MONOS, SMALL, SMALL, ODD, ODD, MIXED, NONE_FIT]),
    }
    return config


def careful_choice(state: kumiki.State, moves: list[str], rng: random.Random) -> str:
    """A move that keeps the tower standing, if one of a few drawn at random does: rounds then run long."""
    for move in rng.sample(moves, min(6, len(moves))):
        trial = state.copy()
        trial.play(move)
        if len(trial.to_json()["falls"]) == len(state.to_json()["falls"]):
            if rng.random() < 0.3:  # now and then the same placement, its balance cube at the highest spot
                placement = move.partition(" + ")[0]
                spots = [m for m in moves if m.partition(" + ")[0] == placement]
                return max(spots, key=lambda m: int(m.rpartition(",")[2]))
            return move
    return rng.choice(moves)


def nearby(move: str, rng: random.Random) -> str:
    """The move with its piece, or its balance cube, moved one step: mostly illegal, sometimes legal."""
    head, _, spot = move.partition(" + ")
    piece, *cells = head.split()
    bx, by, bz = (int(v) for v in spot.split(","))
    kind = rng.randrange(4)
    if kind == 0:  # the piece a level higher or lower
        dz = rng.choice([-1, 1])
        cells = [f"{x},{y},{int(z) + dz}" for x, y, z in (c.split(",") for c in cells)]
    elif kind == 1:  # the balance cube a level higher or lower
        bz += rng.choice([-1, 1])
    elif kind == 2:  # the balance cube on another column, at any level up to the top
        bx, by, bz = rng.choice([0, 2]), rng.randrange(3), rng.randrange(6)
    else:  # the piece shifted sideways
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        cells = [f"{int(x) + dx},{int(y) + dy},{z}" for x, y, z in (c.split(",") for c in cells)]
    return f"{piece} {' '.join(cells)} + {bx},{by},{bz}"


def assert_refusals_agree(state: kumiki.State, plain_moves: list[str], rng: random.Random, where: object) -> None:
    """Moves near a legal one: the engine's play() refuses exactly those that the reference does not list."""
    legal = set(plain_moves)
    for _ in range(3):
        text = nearby(rng.choice(plain_moves), rng)
        trial = state.copy()
        before = trial.to_json()
        try:
            trial.play(text)
        except kumiki.IllegalMove:
            assert text not in legal, (text, where)
            assert trial.to_json() == before, (text, where)
        else:
            assert text in legal and str(trial.history[-1]) == text, (text, where)


def engine_draw(state: kumiki.State) -> Callable[[int], int]:
    """The size the engine drew for the reference's turn now beginning in round ``r``: the draw of the engine's turn,
    or, when that turn found no piece of it to place, the size its round's end records."""

    def draw(r: int) -> int:
        data = state.to_json()
        for end in data["ends"]:
            if end["round"] == r and end["how"] == "stuck":
                return int(end["size"])
        assert data["round"] == r, (data["round"], r)
        return int(data["required_size"])

    return draw


def assert_same(state: kumiki.State, plain: PlainKozo, where: object) -> None:
    mine = plain.to_json()
    theirs = state.to_json()
    assert sorted(theirs) == sorted(mine), where
    for key in mine:
        assert theirs[key] == mine[key], (key, where)
    assert state.to_move == plain.to_move, where
    assert state.required_size == plain.required_size, where
    assert list(state.openers) == plain.openers, where
    assert state.over == plain.over, where
    assert state.scores() == plain.scores(), where
    assert state.winners() == plain.winners(), where


def play_game(seed: int, config: dict[str, object], careful: bool) -> int:
    rng = random.Random(seed)
    state = kumiki.load_game("kozo", **config).new_state(seed=seed)
    plain = PlainKozo(**config, draw=engine_draw(state))  # type: ignore[arg-type]
    history: list[str] = []
    where = (seed, config, history)
    assert_same(state, plain, where)
    plies = 0
    while not plain.over:
        moves = [str(m) for m in state.legal_moves()]
        assert moves == plain.legal_moves(), where
        assert_refusals_agree(state, moves, rng, where)
        move = careful_choice(state, moves, rng) if careful else rng.choice(moves)
        history.append(move)
        state.play(move)
        plain.play(move)
        plies += 1
        assert_same(state, plain, where)
    assert state.over and [str(m) for m in state.legal_moves()] == []
    return plies


BLOCKS = 8
GAMES_PER_BLOCK = 12


@pytest.mark.parametrize("block", range(BLOCKS))
def test_engine_matches_plain_implementation(block: int) -> None:
    """Even seeds play carefully (long rounds, placed and stuck ends), odd seeds at random (falls, step 2 too)."""
    for seed in range(block * GAMES_PER_BLOCK, (block + 1) * GAMES_PER_BLOCK):
        config = random_config(random.Random(seed))
        play_game(seed, config, careful=seed % 2 == 0)


def test_the_games_cover_every_option() -> None:
    """The seeds above draw every player count and every value of every option that changes the rules."""
    configs = [random_config(random.Random(seed)) for seed in range(BLOCKS * GAMES_PER_BLOCK)]
    wanted: dict[str, set[object]] = {
        "players": {1, 2, 3, 4, 5, 6},
        "rounds": {1, 2, 3},
        "opener": {"rotate", "continue", "first"},
        "random_size": {True, False},
        "tiebreak": {"shared", "later_turn"},
        "pieces": {"standard", MONOS, SMALL, ODD, MIXED, NONE_FIT},
    }
    for option, values in wanted.items():
        assert {c[option] for c in configs} == values, option
    variant = [(c["size_draw"], c["no_fit"]) for c in configs if c["random_size"]]
    assert set(variant) == {(d, n) for d in ("size", "tile") for n in ("end", "redraw")}
