"""The Blokus 3D engine against the plain dict-of-cubes reference (bench/blokus3d_plain.py), written off the spec.

The two share no code (the reference has its own rotations, structure reading and rules), so agreeing on every
legal-move list, position, score and winner of many random games is a strong check of both.
"""

from __future__ import annotations

import random

import pytest

import kumiki
from bench.blokus3d_plain import PlainBlokus3D

if "blokus3d" not in kumiki.games():
    pytest.skip("the Blokus 3D engine is not registered yet", allow_module_level=True)

COLOURINGS = [(2, 1), (3, 1), (4, 1), (2, 2)]  # (players, colours_per_player)
# A and B get most of the games (the reference is slow); C and D one seed range each.
CASES = [(s, p, k, seeds) for s in "AB" for p, k in COLOURINGS for seeds in (range(0, 2), range(2, 4))] + [
    (s, p, k, range(100, 101)) for s in "CD" for p, k in COLOURINGS
]


def assert_same(state: kumiki.State, plain: PlainBlokus3D, where: object) -> None:
    assert state.to_json() == plain.to_json(), where
    assert state.to_move == plain.to_move, where
    assert state.scores() == plain.scores(), where
    assert state.winners() == plain.winners(), where
    assert state.over == plain.over, where


@pytest.mark.parametrize(("structure", "players", "per_player", "seeds"), CASES)
def test_engine_matches_plain_implementation(structure: str, players: int, per_player: int, seeds: range) -> None:
    options = {"players": players, "structure": structure, "colours_per_player": per_player}
    for seed in seeds:
        rng = random.Random(seed)
        state = kumiki.load_game("blokus3d", **options).new_state()
        plain = PlainBlokus3D(players=players, structure=structure, colours_per_player=per_player)
        history: list[str] = []
        assert_same(state, plain, (seed, options, history))
        while not plain.over:
            moves = [str(m) for m in state.legal_moves()]
            assert moves == plain.legal_moves(), (seed, options, history)
            move = rng.choice(moves)
            history.append(move)
            state.play(move)
            plain.play(move)
            assert_same(state, plain, (seed, options, history))
        assert state.over and [str(m) for m in state.legal_moves()] == []
        assert plain.winners()


# Irregular masks: a placement's minimum corner may lie outside the mask (a V3 bent round a notch), heights vary
# cell by cell, and the mask may be in several parts.
RAGGED = {
    "notched": ["0000000000"] * 6 + ["0000000000", "0123300000", "0133310000", "0033200000"],
    "holes": ["0000000000", "0333033300", "0313013300", "0333033300", "0000000000"] + ["0000000000"] * 5,
    "islands": ["2200000022", "2200000022"] + ["0000000000"] * 6 + ["2200000022", "2200000022"],
}


@pytest.mark.parametrize("name", sorted(RAGGED))
@pytest.mark.parametrize(("players", "per_player"), [(2, 1), (3, 1), (2, 2)])
def test_engine_matches_plain_on_irregular_masks(name: str, players: int, per_player: int) -> None:
    from kumiki.games.blokus3d import register_structure

    grid = RAGGED[name]
    register_structure(f"_oracle_{name}", grid)
    options = {"players": players, "structure": f"_oracle_{name}", "colours_per_player": per_player}
    for seed in range(3):
        rng = random.Random(seed)
        state = kumiki.load_game("blokus3d", **options).new_state()
        plain = PlainBlokus3D(players=players, structure=f"_oracle_{name}", colours_per_player=per_player, grid=grid)
        history: list[str] = []
        while not plain.over:
            moves = [str(m) for m in state.legal_moves()]
            assert moves == plain.legal_moves(), (seed, options, history)
            move = rng.choice(moves)
            history.append(move)
            state.play(move)
            plain.play(move)
            assert state.to_json()["cubes"] == plain.to_json()["cubes"], (seed, options, history)
            assert state.to_move == plain.to_move and state.scores() == plain.scores(), (seed, options, history)
        assert state.over
