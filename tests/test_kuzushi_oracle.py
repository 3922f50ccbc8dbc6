"""The bitboard engine against the plain dict-based Kuzushi (bench/kuzushi_plain.py), written straight off the spec.

Two implementations that share no code agreeing on every legal-move list and every position of thousands of
random games, over every player count and option, is the strongest check of the rules we have.
"""

from __future__ import annotations

import random

import pytest

import kumiki
from bench.kuzushi_plain import PlainKuzushi


def random_config(rng: random.Random) -> dict[str, object]:
    return {
        "players": rng.choice([2, 3, 4, 5, 6]),
        "size": rng.choice([2, 3, 4, 5, 6, 7, 8]),
        "tiles": rng.choice([1, 2, 3, 5, 8, 19]),
        "city_counts_as_base": rng.random() < 0.5,
        "majority": rng.choice(["most", "more_than_half"]),
    }


@pytest.mark.parametrize("block", range(8))
def test_engine_matches_plain_implementation(block: int) -> None:
    for seed in range(block * 100, block * 100 + 100):
        rng = random.Random(seed)
        config = random_config(rng)
        state = kumiki.load_game("kuzushi", **config).new_state()
        plain = PlainKuzushi(**config)  # type: ignore[arg-type]
        while not state.over:
            moves = [str(m) for m in state.legal_moves()]
            assert moves == plain.legal_moves(), (seed, config, [str(m) for m in state.history])
            move = rng.choice(moves)
            state.play(move)
            plain.play(move)
            assert state.to_json() == plain.to_json(), (seed, config, [str(m) for m in state.history])
            assert state.to_move == plain.to_move
        assert plain.to_move is None


def test_bit_sliced_gains_match_the_reference() -> None:
    for seed in range(150):
        rng = random.Random(seed)
        game = kumiki.load_game("kuzushi", players=rng.choice([2, 3, 4, 6]), city_counts_as_base=rng.random() < 0.5)
        state = game.new_state()
        while not state.over:
            p = state.to_move
            assert p is not None
            free = state._playable()
            planes = state.gains(p, free)
            for move in state.legal_moves():
                i = (move.x + game.size) * game.width + move.y + game.size
                bits = sum(((planes[k] >> i) & 1) << k for k in range(5))
                assert bits == state._gain(p, i, move.kind == "B"), (seed, str(move))
            state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("hook", ["playout", "heuristic_playout"])
def test_playout_hooks_reach_a_legal_end(hook: str) -> None:
    """A playout ends in a finished game that the public API could have reached (tiles conserved, box ≤ N×N)."""
    for seed in range(60):
        rng = random.Random(seed)
        game = kumiki.load_game("kuzushi", players=rng.choice([2, 3, 4]))
        state = game.new_state()
        for _ in range(rng.randrange(6)):
            if not state.over:
                state.play(rng.choice(state.legal_moves()))
        history = list(state.history)
        getattr(state, hook)(rng)
        assert state.over and state.to_move is None and state.winners()
        assert state.history == history  # playouts do not record moves
        on_table = [0] * game.players
        for cell in state.to_json()["cells"]:
            if cell["kind"] != "city":
                on_table[cell["owner"]] += 1
        assert [a + b for a, b in zip(on_table, state.tiles_left(), strict=True)] == [19] * game.players
        min_x, min_y, max_x, max_y = state.bounds()
        assert max_x - min_x < game.size and max_y - min_y < game.size
