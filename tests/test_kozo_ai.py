"""Kozo's AI hooks: the exact pre-check, the judge's cache per tower, the greedy baseline and the heuristic."""

from __future__ import annotations

import random

import pytest

import kumiki
from bench.kozo_precheck import random_towers
from kumiki.games.kozo import KozoMove, ai
from kumiki.games.kozo.ai import FALL_PENALTY, own_slack, standing_after
from kumiki.games.kozo.rules import BASE_REGION
from kumiki.physics.model import Tower, body_from_cells
from kumiki.physics.statics import judge


def step_one_tower(state, move: KozoMove) -> Tower:
    """The tower the judge sees after the polycube of ``move`` (step 1), as play() builds it."""
    body = body_from_cells(f"{move.piece} #{len(state.placed) + 1}", move.cells)
    return Tower((*state.bodies, body, *state.balance_bodies), BASE_REGION, "falls")


def test_pre_check_never_disagrees_with_the_lp() -> None:
    # Thousands of placements on random towers; wherever the pre-check says "falls", the plain LP says so too (and
    # not on a knife edge). It must also decide often enough to be worth having.
    rng = random.Random(1)
    checked = decided = 0
    for state in random_towers(60):
        placements = {(m.piece, m.cells): m for m in state.legal_moves()}
        for move in rng.sample(list(placements.values()), min(40, len(placements))):
            checked += 1
            if ai.move_falls(state, move):
                decided += 1
                verdict = judge(step_one_tower(state, move), margin=False, explain=False)
                assert not verdict.stands and not verdict.edge, str(move)
    assert checked >= 1500
    assert decided >= 50


def test_cached_verdicts_are_the_judges() -> None:
    # Every cached verdict equals a fresh judgement of the same tower, fault and moving bodies included.
    rng = random.Random(2)
    for state in random_towers(25, seed=3):
        for move in rng.sample(state.legal_moves(), min(6, len(state.legal_moves()))):
            after = state.copy()
            after.play(move)
            fresh_state = state.copy()
            fresh_state.play(move)
            assert after.falls == fresh_state.falls
            if after.round == state.round:
                assert after.verdict() == judge(after.tower(), margin=False, explain=True)


def test_the_same_tower_by_two_orders_shares_one_verdict() -> None:
    game = kumiki.load_game("kozo", players=2)
    a = game.new_state(seed=0)
    a.play("I2 0,0,0 1,0,0 + 0,0,1")
    a.play("I3 2,0,0 2,1,0 2,2,0 + 2,2,1")
    b = game.new_state(seed=0)
    b.play("I3 2,0,0 2,1,0 2,2,0 + 2,2,1")
    hits = game.verdicts.hits
    b.play("I2 0,0,0 1,0,0 + 0,0,1")
    assert game.verdicts.hits == hits + 1  # after the balance cube: the tower a already had
    assert b.verdict() == a.verdict() == judge(b.tower(), margin=False, explain=True)


def test_kozo_greedy_plays_the_largest_piece_that_stands_with_the_safest_spot() -> None:
    rng = random.Random(4)
    state = random_towers(8, seed=5)[-1]
    agent = kumiki.load_agent("kozo-greedy", seed=0)
    move = agent.choose(state)
    g = state.game
    standing = [m for m in state.legal_moves() if standing_after(state, m) is not None]
    assert standing, "the built position has a move that stands"
    assert g.size[move.piece] == max(g.size[m.piece] for m in standing)
    chosen = standing_after(state, move)
    assert chosen is not None
    spots = [standing_after(state, m) for m in standing if (m.piece, m.cells) == (move.piece, move.cells)]
    assert chosen.margin() == max(s.margin() for s in spots if s is not None)
    assert rng  # the draw among placements is the agent's own


def test_kozo_greedy_is_for_kozo_only() -> None:
    state = kumiki.load_game("kuzushi").new_state()
    with pytest.raises(ValueError, match="Kozo only"):
        kumiki.load_agent("kozo-greedy").choose(state)


def test_heuristic_prefers_the_safer_of_two_moves() -> None:
    state = kumiki.load_game("kozo", players=2).new_state(seed=0)
    state.play("I2 0,0,0 1,0,0 + 1,0,1")
    # Two I3s: flat on the base, or resting on the I2's end at 0,0 and hanging two cubes out over 0,1 and 0,2
    # (its centre of mass, at y = 1.5, is half a cube beyond the square it rests on: it must fall).
    safe = state.game.parse_move("I3 0,2,0 1,2,0 2,2,0 + 1,2,1")
    hanging = state.game.parse_move("I3 0,0,1 0,1,1 0,2,1 + 0,1,2")
    assert own_slack(safe.cells, state.cells) > 0 > own_slack(hanging.cells, state.cells)
    safe_value, hanging_value = ai.move_values(state, [safe, hanging])
    assert hanging_value < -FALL_PENALTY / 2 < safe_value  # both are among the best checked: the judge drops it
    assert ai.move_falls(state, hanging) and not ai.move_falls(state, safe)
    assert not judge(step_one_tower(state, hanging), margin=False, explain=False).stands
    assert standing_after(state, safe) is not None


def test_heuristic_playout_ends_the_game_and_mcts_plays_kozo() -> None:
    state = kumiki.load_game("kozo", players=2).new_state(seed=0)
    rollout = state.copy()
    ai.heuristic_playout(rollout, random.Random(0))
    assert rollout.over and rollout.winners()
    move = kumiki.load_agent("mcts", iterations=4, seed=0).choose(state)
    assert move in state.legal_moves()
