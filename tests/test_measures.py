"""Every game's own measures (``State.measures()``), which the arena's reports average over many games."""

from __future__ import annotations

import random

import pytest

import kumiki

EXPECTED = {
    "kuzushi": {"tiles_left_seat_0", "tiles_left_seat_1"},
    "blokus3d": {"pieces_left_seat_0", "pieces_left_seat_1"},
    "kozo": {"falls", "falls_seat_0", "falls_seat_1"},
    "towerbrix": {"success", "rounds_won", "rounds"},  # and card_<id>_held for each card judged
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_finished_game_has_its_measures(name: str) -> None:
    options = {"rounds": 1} if name in ("kozo", "towerbrix") else {}
    state = kumiki.load_game(name, players=2, **options).new_state(seed=3)
    rng = random.Random(3)
    while not state.over:
        state.play(rng.choice(list(state.legal_moves())))
    measures = state.measures()
    cards = {k for k in measures if k.startswith("card_") and k.endswith("_held")}
    assert set(measures) - cards == EXPECTED[name]
    assert (name == "towerbrix") == bool(cards)
    assert all(isinstance(v, float) and v >= 0 for v in measures.values())
    if name == "kuzushi":
        assert [measures[f"tiles_left_seat_{p}"] for p in (0, 1)] == [float(n) for n in state.tiles_left()]
    if name == "kozo":
        assert measures["falls"] == measures["falls_seat_0"] + measures["falls_seat_1"] == len(state.falls)
    if name == "towerbrix":
        assert measures["rounds"] == 1 and measures["success"] == float(all(state.round_success))
