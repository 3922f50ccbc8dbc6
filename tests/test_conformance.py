"""One suite every registered game must pass, through the public protocol only (no game-specific knowledge)."""

from __future__ import annotations

import json
import pickle
import random

import pytest

import kumiki
from kumiki.core.game import forfeit_winners

GAMES = kumiki.games()
SEEDS = [0, 1, 2]
MAX_TURNS = 5000
AGENTS = [("random", {"seed": 1}), ("greedy", {"seed": 1}), ("mcts", {"iterations": 50, "seed": 1})]


def snapshot(state) -> tuple:
    return (
        json.dumps(state.to_json(), sort_keys=True),
        [str(m) for m in state.history],
        state.to_move,
        state.over,
        list(state.scores()),
        list(state.winners()),
    )


def sampled(states, rng: random.Random, share: float):
    """The positions of ``states`` that go on, each kept with probability ``share`` (drawn from ``rng``)."""
    for state in states:
        if not state.over and rng.random() <= share:
            yield state


def random_game(name: str, seed: int):
    """A random game to its end; yields the state before every turn, then the final state."""
    game = kumiki.load_game(name)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_TURNS):
        yield state
        if state.over:
            return
        state.play(rng.choice(state.legal_moves()))
    raise AssertionError(f"{name}: no end after {MAX_TURNS} turns")


def test_games_are_listed_sorted():
    assert sorted(GAMES) == GAMES
    assert "kuzushi" in GAMES


@pytest.mark.parametrize("name", GAMES)
def test_game_facts(name):
    game = kumiki.load_game(name)
    assert game.name == name
    assert isinstance(game.players, int) and game.players >= 1
    assert isinstance(game.options, dict)
    json.dumps(game.options)
    assert kumiki.load_game(name, **game.options).options == game.options
    with pytest.raises(ValueError, match="no_such_option"):
        kumiki.load_game(name, no_such_option=1)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_to_the_end(name, seed):
    last = None
    for state in random_game(name, seed):
        last = state
        if state.over:
            break
        assert state.to_move in range(state.game.players)
        assert state.winners() == []
        moves = state.legal_moves()
        assert moves, "a player to move has a legal move"
        assert len(set(moves)) == len(moves)
        assert state.legal_moves() == moves  # deterministic
        for move in moves:
            assert isinstance(move, kumiki.Move)
            again = state.game.parse_move(str(move))
            assert again == move
            assert str(again) == str(move)
    assert last is not None and last.over
    assert last.to_move is None
    assert last.legal_moves() == []
    winners = last.winners()
    assert winners, "a finished game has at least one winner"
    assert winners == sorted(set(winners))
    assert all(w in range(last.game.players) for w in winners)
    assert len(last.scores()) == last.game.players
    with pytest.raises(kumiki.IllegalMove):
        last.play(last.history[-1])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_played_move_was_legal_and_history_replays(name, seed):
    final = None
    for state in random_game(name, seed):
        final = state
    replay = kumiki.load_game(name, **final.game.options).new_state(seed=seed)
    for move in final.history:
        assert move in replay.legal_moves()
        replay.play(str(move))
    assert snapshot(replay) == snapshot(final)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_copies_are_independent(name, seed):
    rng = random.Random(seed + 100)
    for state in sampled(random_game(name, seed), rng, 0.3):
        before = snapshot(state)
        twin = state.copy()
        assert snapshot(twin) == before
        twin.play(rng.choice(twin.legal_moves()))
        assert snapshot(state) == before
        after_twin = snapshot(twin)
        state.copy().play(state.legal_moves()[0])
        assert snapshot(twin) == after_twin


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_pickled_states_play_on_alike(name, seed):
    """A state sent to another process (multiprocessing, Ray) or saved with pickle plays on as the original."""
    for state in sampled(random_game(name, seed), random.Random(seed + 200), 0.2):
        twin = pickle.loads(pickle.dumps(state))
        assert snapshot(twin) == snapshot(state)
        assert [str(m) for m in twin.legal_moves()] == [str(m) for m in state.legal_moves()]
        move = state.legal_moves()[0]
        twin.play(twin.game.parse_move(str(move)))
        copy = state.copy()
        copy.play(move)
        assert snapshot(twin) == snapshot(copy)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_json_and_records_round_trip(name, seed):
    rng = random.Random(seed)
    for state in random_game(name, seed):
        if not state.over and rng.random() > 0.25:
            continue
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data
        for player in range(state.game.players):
            view = state.view(player)
            assert json.loads(json.dumps(view)) == view
        public = state.public_view()
        assert json.loads(json.dumps(public)) == public
        text = kumiki.write_record(state)
        game, again = kumiki.read_record(text)
        assert game.name == name
        assert again.to_json() == data
        assert [str(m) for m in again.history] == [str(m) for m in state.history]
        assert (again.to_move, again.over, again.winners()) == (state.to_move, state.over, state.winners())


@pytest.mark.parametrize("name", GAMES)
def test_a_resigned_game_is_won_by_the_other_sides_in_copies_and_records_too(name):
    """CONTRACT (``State.resign``): once a seat resigns, ``winners()`` is every seat not on its side. A game whose
    ``winners()`` read only its own end (as docs/adding-a-game.md's example did) said nobody won, and its copies
    forgot the resignation."""
    state = kumiki.load_game(name).new_state(seed=1)
    state.play(state.legal_moves()[0])
    seat = state.to_move
    expected = forfeit_winners(state, seat)
    if not expected:  # a game of one side (co-operative, solo): nobody to resign to
        with pytest.raises(kumiki.IllegalMove):
            state.resign(seat)
        return
    state.resign(seat)
    twin = state.copy()
    _, again = kumiki.read_record(kumiki.write_record(state))
    for each in (state, twin, again):
        assert (each.over, each.to_move, each.resigned, each.winners()) == (True, None, seat, expected)


@pytest.mark.parametrize("name", GAMES)
def test_view_rejects_a_player_who_is_not_there(name):
    state = kumiki.load_game(name).new_state(seed=0)
    for player in (-1, state.game.players):
        with pytest.raises(ValueError):
            state.view(player)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("agent_name", "options"), AGENTS, ids=[a for a, _ in AGENTS])
def test_agents_return_legal_moves_and_leave_the_state_alone(name, seed, agent_name, options):
    states = [s.copy() for s in random_game(name, seed) if not s.over]
    picks = sorted({0, len(states) // 2, len(states) - 1})
    agent = kumiki.load_agent(agent_name, **options)
    for index in picks:
        state = states[index]
        before = snapshot(state)
        move = agent.choose(state)
        assert snapshot(state) == before
        assert move in state.legal_moves()
        state.copy().play(move)


@pytest.mark.parametrize(
    ("agent_name", "options", "named"),
    [
        ("random", {"depth": 2}, "depth"),
        ("random", {"seed": "one"}, "seed"),
        ("greedy", {"seed": 1.5}, "seed"),
        ("greedy", {"iterations": 10}, "iterations"),
        ("mcts", {"iterations": 0}, "iterations"),
        ("mcts", {"iterations": "50"}, "iterations"),
        ("mcts", {"iterations": True}, "iterations"),
        ("mcts", {"c": -1.0}, "c"),
        ("mcts", {"seconds": 0}, "seconds"),
        ("mcts", {"budget": 5}, "budget"),
        ("alphazero", {}, "alphazero"),
    ],
)
def test_load_agent_with_a_bad_option(agent_name, options, named):
    with pytest.raises(ValueError) as caught:
        kumiki.load_agent(agent_name, **options)
    assert named in str(caught.value)
