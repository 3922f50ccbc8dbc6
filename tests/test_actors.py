"""Simultaneous play in the protocol: ``actors``, ``legal_moves(player=)``, ``play(move, player=)``, TowerBrix's
``turns`` option and the per-move seats in records (turn-based games unchanged, old records still load)."""

from __future__ import annotations

import random

import pytest

import kumiki
from kumiki import IllegalMove

GAMES = [
    ("kuzushi", {"players": 3}),
    ("blokus3d", {"players": 3}),
    ("kozo", {"players": 2, "rounds": 1}),
    ("towerbrix", {"players": 2, "max_edits": 6, "rounds": 1}),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_turn_based_play_has_one_actor_the_seat_to_move(name: str, options: dict[str, object]) -> None:
    game = kumiki.load_game(name, **options)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.over:
        assert state.actors == [state.to_move]
        mover = state.to_move
        assert mover is not None
        moves = state.legal_moves()
        assert state.legal_moves(player=mover) == moves
        for other in range(game.players):
            if other != mover:
                assert state.legal_moves(player=other) == []
                with pytest.raises(IllegalMove, match=f"not player {other}'s turn"):
                    state.copy().play(moves[0], player=other)
        move = rng.choice(moves)
        twin = state.copy()
        twin.play(move)
        state.play(move, player=mover)  # the same as without the player
        assert state.to_json() == twin.to_json()
    assert state.actors == [] and state.legal_moves(player=0) == []
    with pytest.raises(ValueError, match="not in 0"):
        state.legal_moves(player=game.players)


@pytest.mark.parametrize("name", kumiki.games())
def test_a_refused_seat_leaves_the_state_untouched(name: str) -> None:
    state = kumiki.load_game(name).new_state(seed=1)
    before = state.to_json()
    other = (state.to_move + 1) % state.game.players  # type: ignore[operator]
    if other != state.to_move:
        with pytest.raises(IllegalMove):
            state.play(state.legal_moves()[0], player=other)
    assert state.to_json() == before and state.history == []


@pytest.mark.parametrize("name", kumiki.games())
@pytest.mark.parametrize("player", [2, -1, 99, True, "1", 1.0])
def test_a_player_that_is_no_seat_is_refused_with_illegal_move(name: str, player: object) -> None:
    """CONTRACT: play(move, player=p) is "refused with IllegalMove when p is not among actors", also when p is no
    seat of the game at all (it was a bare ValueError)."""
    state = kumiki.load_game(name, players=2).new_state(seed=1)
    before = state.to_json()
    with pytest.raises(IllegalMove):
        state.play(state.legal_moves()[0], player=player)  # type: ignore[arg-type]
    assert state.to_json() == before and state.history == []


def test_towerbrix_free_turns_let_every_seat_act() -> None:
    game = kumiki.load_game("towerbrix", players=3, turns="free")
    state = game.new_state(seed=2)
    assert state.actors == [0, 1, 2] and state.to_move == 0
    state.play("Y1 z 0,0", player=2)  # seat 2 steps in before seat 0
    assert state.movers == [2] and state.to_move == 0  # the seat after the last to act is first again
    assert state.actors == [0, 1, 2]
    state.play("ok", player=1)
    assert state.oks == {1} and state.actors == [2, 0, 1]
    assert state.legal_moves(player=0) == state.legal_moves(player=2) != []
    state.play("Y2 z 1,0", player=1)  # an edit clears every thumbs-up
    assert state.oks == set()
    for seat in (0, 1, 2):
        state.play("ok", player=seat)
    assert state.evaluations and state.evaluations[0]["attempt"] == 1  # all up: the build is evaluated


def test_towerbrix_cycle_is_the_default_and_keeps_seat_order() -> None:
    state = kumiki.load_game("towerbrix", players=3).new_state(seed=2)
    assert state.game.options["turns"] == "cycle" and state.actors == [0]
    with pytest.raises(IllegalMove, match="not player 2's turn"):
        state.play("Y1 z 0,0", player=2)
    assert state.move_seats() is None


def test_the_blind_seat_may_only_say_ok_in_free_turns() -> None:
    game = kumiki.load_game("towerbrix", players=3, mode="challenge", challenge=10, turns="free")
    state = game.new_state(seed=1)
    assert [str(m) for m in state.legal_moves(player=2)] == ["ok"]
    with pytest.raises(IllegalMove, match="blind"):
        state.play("Y1 z 0,0", player=2)
    state.play("Y1 z 0,0", player=1)


def test_records_of_free_turns_name_each_moves_seat_and_replay_exactly() -> None:
    game = kumiki.load_game("towerbrix", players=3, turns="free", max_edits=5, rounds=1)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    while not state.over:
        seat = rng.choice(state.actors)
        state.play(rng.choice(state.legal_moves(player=seat)), player=seat)
    text = kumiki.write_record(state)
    moves = text.split("\n\n", 1)[1].splitlines()
    assert all(line.rsplit(" @", 1)[1].isdigit() for line in moves)
    _, replayed = kumiki.read_record(text)
    assert replayed.to_json() == state.to_json() and replayed.movers == state.movers


def test_records_without_seats_still_load_and_bad_seats_are_one_line() -> None:
    state = kumiki.load_game("towerbrix", players=2).new_state(seed=1)
    state.play("Y1 z 0,0")
    state.play("ok")
    text = kumiki.write_record(state)
    assert " @" not in text  # seat order: the seats are not written
    assert kumiki.read_record(text)[1].to_json() == state.to_json()
    free = text.replace('[turns "cycle"]', '[turns "free"]')
    assert kumiki.read_record(free)[1].movers == [0, 1]  # an old free-turn record: each move by the seat to move
    with pytest.raises(kumiki.RecordError, match="@5: no such seat"):
        kumiki.read_record(free.replace("ok\n", "ok @5\n"))
    with pytest.raises(kumiki.RecordError, match="not player 1's turn"):
        kumiki.read_record(text.replace("Y1 z 0,0\n", "Y1 z 0,0 @1\n"))  # seat order refuses another seat


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_acting_refuses_what_is_no_seat_as_every_game_does(name: str, options: dict[str, object]) -> None:
    # True == 1 and 1.0 == 1 in Python, but neither is a seat (core.options.whole): acting refuses them in every
    # game, as play(player=), legal_moves(player=) and TowerBrix's acting do.
    state = kumiki.load_game(name, **options).new_state(seed=3)
    mover = state.to_move
    assert mover is not None
    assert state.acting(mover).to_move == mover
    for bad in (bool(mover), float(mover), -1, state.game.players):
        with pytest.raises(ValueError):
            state.acting(bad)  # type: ignore[arg-type]
