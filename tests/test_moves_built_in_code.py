"""Moves built in code rather than parsed: numpy integers are whole numbers; floats, bools and unknown kinds are
refused with IllegalMove, the state untouched (a script's bad move never corrupts a game or its record)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import kumiki
from kumiki.core.errors import IllegalMove
from kumiki.games.blokus3d.moves import Blokus3DMove
from kumiki.games.kozo.moves import KozoMove
from kumiki.games.towerbrix.moves import TowerBrixMove


def _with_coordinates(move: object, convert: object) -> object:
    """``move`` with every whole-number coordinate passed through ``convert``."""
    fields = {}
    for field in dataclasses.fields(move):  # type: ignore[arg-type]
        value = getattr(move, field.name)
        if field.name in ("x", "y"):
            value = convert(value)  # type: ignore[operator]
        elif field.name in ("cells", "balance"):
            cells = value if field.name == "cells" else (value,)
            cells = tuple(tuple(convert(c) for c in cell) for cell in cells)  # type: ignore[operator]
            value = cells if field.name == "cells" else cells[0]
        elif field.name == "key":
            value = -1  # as a move built outside the engine
        fields[field.name] = value
    return type(move)(**fields)


GAMES = [("kuzushi", {}), ("blokus3d", {}), ("kozo", {})]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_numpy_coordinates_are_played_as_ints_and_the_record_reads_back(name: str, options: dict[str, object]) -> None:
    state = kumiki.load_game(name, **options).new_state(seed=1)
    move = state.legal_moves()[0]
    state.play(_with_coordinates(move, np.int64))  # type: ignore[arg-type]
    assert str(state.history[0]) == str(move)
    assert kumiki.read_record(kumiki.write_record(state))[1].to_json() == state.to_json()


@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("convert", [float, bool, str])
def test_coordinates_that_are_no_whole_numbers_are_refused(
    name: str, options: dict[str, object], convert: object
) -> None:
    state = kumiki.load_game(name, **options).new_state(seed=1)
    before = state.to_json()
    move = _with_coordinates(state.legal_moves()[-1], convert)
    with pytest.raises(IllegalMove, match="a coordinate is a whole number"):
        state.play(move)  # type: ignore[arg-type]
    assert state.to_json() == before


def test_a_towerbrix_move_of_no_known_kind_is_refused() -> None:
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    with pytest.raises(IllegalMove, match="kind is one of place, remove"):
        state.play(TowerBrixMove("zzz", "Y1", "z", 0.0, 0.0))
    assert state.history == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("kuzushi", "B \u0661,0"),
        ("blokus3d", "I2 \u0661,0,0 1,0,1"),
        ("kozo", "I2 \u0660,0,0 0,0,1 + 0,0,2"),
        ("towerbrix", "Y1 z \u0661,0"),
    ],
)
def test_the_notation_reads_ascii_digits_only(name: str, text: str) -> None:
    """Arabic-Indic digits are digits to a regular expression, but no notation writes them."""
    with pytest.raises(IllegalMove):
        kumiki.load_game(name).parse_move(text)


def test_a_seat_is_an_int_not_a_bool() -> None:
    with pytest.raises(ValueError, match="player True is not in"):
        kumiki.load_game("kuzushi").new_state().view(True)
    state = kumiki.load_game("towerbrix", turns="free").new_state(seed=1)
    assert state.view(np.int64(0)) == state.view(0) and state.may_act(np.int64(1))  # numpy integers are seats
    state.play("Y1 z 0,0", player=np.int64(1))
    assert state.movers == [1] and type(state.movers[0]) is int


@pytest.mark.parametrize("value", [True, np.bool_(True), "1", None, [1, 0], 1 + 0j])
def test_a_towerbrix_corner_that_is_no_number_is_refused(value: object) -> None:
    """str(move) wrote True as 1 and "1" as 1 (played silently), and float() raised TypeError on the rest."""
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    with pytest.raises(IllegalMove, match="a coordinate is a number"):
        state.play(TowerBrixMove("place", "Y1", "z", value, 0.0))  # type: ignore[arg-type]
    assert state.history == []


def test_a_towerbrix_corner_of_ints_or_numpy_numbers_is_played_as_floats() -> None:
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    state.play(TowerBrixMove("place", "Y1", "z", np.int64(0), np.float32(0.5)))  # type: ignore[arg-type]
    assert state.history == [TowerBrixMove("place", "Y1", "z", 0.0, 0.5)]
    assert kumiki.read_record(kumiki.write_record(state))[1].to_json() == state.to_json()


def test_a_towerbrix_waive_vote_names_its_card_by_whole_numbers() -> None:
    """The text of a vote for seat 1.7 read 'waive 1.1': another card was voted away without a word."""
    state = kumiki.load_game("towerbrix", mode="challenge", challenge=9, waive="vote").new_state(seed=1)
    with pytest.raises(IllegalMove, match="by whole numbers"):
        state.play(TowerBrixMove("waive", x=1.7, y=1.0))
    assert state.history == []


@pytest.mark.parametrize("cells", [np.True_, (np.array([3, 4, 0]),)])
def test_a_blokus3d_move_with_numpy_cells_and_a_known_key_is_refused(cells: object) -> None:
    """The key found a cached move, and comparing its cells with numpy's raised numpy's own ValueError."""
    state = kumiki.load_game("blokus3d").new_state(seed=1)
    move = dataclasses.replace(state.legal_moves()[0], cells=cells)
    with pytest.raises(IllegalMove):
        state.play(move)
    assert state.history == []


@pytest.mark.parametrize(
    "move",
    [
        KozoMove("L4", 5, None),  # type: ignore[arg-type]
        KozoMove("L4", ((0, 0),), (1, 2, 3)),  # type: ignore[arg-type]
        Blokus3DMove("I2", 7),  # type: ignore[arg-type]
        Blokus3DMove(None, ((1, 2),)),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_str_of_a_malformed_move_says_so_and_play_refuses_it(move: object) -> None:
    """str() never raises (a log line or an error message about a bad move must not crash in turn)."""
    assert str(move).startswith("<malformed move: ")
    name = "kozo" if isinstance(move, KozoMove) else "blokus3d"
    state = kumiki.load_game(name).new_state(seed=0)
    with pytest.raises(IllegalMove):
        state.play(move)  # type: ignore[arg-type]
    assert state.history == []


@pytest.mark.parametrize(
    "move",
    [
        TowerBrixMove("place", "Y1", "z", None, 0),  # type: ignore[arg-type]
        TowerBrixMove("waive", x="a", y=None),  # type: ignore[arg-type]
        TowerBrixMove("waive", x=float("nan"), y=1.0),
        TowerBrixMove("waive", x=float("inf"), y=1.0),
    ],
    ids=repr,
)
def test_str_of_a_malformed_towerbrix_move_says_so_and_play_refuses_it(move: TowerBrixMove) -> None:
    """str() raised TypeError, ValueError or OverflowError here, as Blokus 3D's and Kozo's moves no longer do."""
    assert str(move).startswith("<malformed move: ")
    state = kumiki.load_game("towerbrix", mode="challenge", challenge=9, waive="vote").new_state(seed=0)
    with pytest.raises(IllegalMove):
        state.play(move)
    assert state.history == []
