"""Agents judge a position by sides: with teams, a teammate's tiles are not a rival's."""

from __future__ import annotations

import kumiki


def test_margins_without_teams_are_own_minus_best_other() -> None:
    state = kumiki.load_game("kuzushi", players=3).new_state()
    state.play("B 1,0")  # player 1: base + 3 flags = 4; player 0 has the CITY = 1; player 2 has 0
    assert state.scores() == [1.0, 4.0, 0.0]
    assert state.teams() == [0, 1, 2]
    assert state.margins() == [1.0 - 4.0, 4.0 - 1.0, 0.0 - 4.0]


def test_margins_with_teams_sum_each_side() -> None:
    state = kumiki.load_game("kuzushi", players=4, teams=2).new_state()
    state.play("B 1,0")
    assert state.teams() == [0, 1, 0, 1]
    assert state.team_scores() == [1.0, 4.0]
    assert state.margins() == [-3.0, 3.0, -3.0, 3.0]


def test_greedy_values_a_teammates_gain_as_its_own() -> None:
    """Greedy picks a move with the best lead for its whole team, counting its teammate's tiles as its own."""
    state = kumiki.load_game("kuzushi", players=4, teams=2).new_state()
    for move in ["B 1,0", "B 2,1", "B 0,1"]:  # seats 1, 2, 3
        state.play(move)
    greedy = kumiki.load_agent("greedy", seed=0)
    before = state.copy()
    move = greedy.choose(state)
    assert state.to_json() == before.to_json()
    after = state.copy()
    after.play(move)
    best = max(_margin_after(state, m) for m in state.legal_moves())
    assert after.margins()[state.to_move] == best


def _margin_after(state: kumiki.State, move: kumiki.Move) -> float:
    player = state.to_move
    assert player is not None
    after = state.copy()
    after.play(move)
    return after.margins()[player] + (1e9 if after.over and player in after.winners() else 0.0)
