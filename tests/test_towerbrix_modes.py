"""TowerBrix modes: the intro variant, the solo game and the 14 challenges' digital rules."""

from __future__ import annotations

import pickle
import random

import pytest
from tests.test_towerbrix_rules import COLUMN, FLAT, SLAB, build, everyone_ok, standin

import kumiki
from kumiki.games.towerbrix.bricks import Brick, connected, judge, place
from kumiki.games.towerbrix.modes import (
    CHALLENGE_TOTALS,
    CHALLENGES,
    MAP_TOWERS,
    RIVER,
    SWAMP,
    budget_cut_possible,
    challenge_problems,
    map_problems,
    mirror_symmetric,
)
from kumiki.games.towerbrix.moves import lowered


def bricks_of(edits: list[str]) -> list[Brick]:
    return list(lowered(edits).values())


def problems(number: int, edits: list[str], margin: float = 10.0) -> list[str]:
    return challenge_problems(number, bricks_of(edits), margin, 2.0, 3.0, 6.0)


# ----------------------------------------------------------------- intro


def test_intro_deals_players_plus_round_minus_one_two_point_green_cards():
    g = kumiki.load_game("towerbrix", mode="intro", players=3)
    state = g.new_state(seed=1)
    assert len(state.dealt()) == 3 and all(g.cards[c].points == 2 for c in state.dealt())
    assert state.to_json()["total"] is None
    for _ in range(3):
        state.play("ok")  # fails: no bricks; the round is replayed with as many cards
    assert state.round == 0 and state.attempt == 2 and len(state.dealt()) == 3
    assert state.attempts_used == 1


def test_solo_uses_the_base_totals(tmp_path):
    state = kumiki.load_game("towerbrix", mode="solo", players=1, deck=standin(tmp_path)).new_state(seed=1)
    assert state.total == 16 and len(state.hands) == 1


@pytest.mark.parametrize(("option", "value"), [("difficulty", "hard"), ("total", 30), ("retry_drop", 5)])
def test_intro_takes_the_options_it_does_not_use_and_deals_as_without_them(option: str, value: object) -> None:
    """Records write every option and the web form offers them in every mode, so intro games written with them must
    keep loading (refusing them lost such games): they are taken, and the deal is the intro's own."""
    plain = kumiki.load_game("towerbrix", mode="intro", players=3).new_state(seed=4)
    given = kumiki.load_game("towerbrix", mode="intro", players=3, **{option: value}).new_state(seed=4)
    assert given.hands == plain.hands and [len(hand) for hand in given.hands] == [1, 1, 1]
    assert kumiki.read_record(kumiki.write_record(given))[1].to_json() == given.to_json()


def test_intro_round_two_has_one_more_card(monkeypatch):
    g = kumiki.load_game("towerbrix", mode="intro", players=2)
    state = g.new_state(seed=2)
    monkeypatch.setattr(type(g.deck[0]), "check", lambda self, tower: True)
    build(state, SLAB)
    state.play("ok")
    state.play("ok")
    assert state.evaluations[-1]["success"] and state.round == 1
    assert len(state.dealt()) == 3
    assert state.score() == 1  # the intro scores rounds completed; attempts are in to_json


# ----------------------------------------------------------------- challenges as data


def test_fourteen_challenges():
    assert sorted(CHALLENGES) == list(range(1, 15))
    assert all(c.rule for c in CHALLENGES.values())


def test_challenge_totals():
    for difficulty, total in CHALLENGE_TOTALS.items():
        state = kumiki.load_game("towerbrix", mode="challenge", challenge=1, difficulty=difficulty).new_state(seed=1)
        assert state.total == total
        assert state.game.options["rounds"] == 1


def test_challenge_needs_its_mode():
    with pytest.raises(ValueError, match="challenge"):
        kumiki.load_game("towerbrix", challenge=3)
    with pytest.raises(ValueError, match="challenge"):
        kumiki.load_game("towerbrix", mode="challenge")
    with pytest.raises(ValueError, match="blind"):
        kumiki.load_game("towerbrix", mode="challenge", challenge=10, players=1)


# ----------------------------------------------------------------- each challenge's tower rule


def test_1_small_footprint():
    assert problems(1, SLAB) == []
    assert problems(1, FLAT) == ["8 bricks touch the table (at most 2)"]


def test_4_custom_built():
    four = ["Y1 z 0,0", "Y2 z 1,0", "P1 z 0,0", "P2 z 1,0", "R1 z 0,0", "R2 z 1,0", "B1 z 0,0", "B2 z 1,0"]
    assert problems(4, four) == []
    assert "the tower is 8 tall (exactly 8)" not in problems(4, SLAB)
    assert problems(4, SLAB) == []  # 8 tall (four standing bricks) on two bricks
    assert any("tall" in p for p in problems(4, COLUMN))


def test_5_shoddy_construction_uses_the_margin():
    assert problems(5, SLAB, margin=2.0) == []
    assert any("sturdy" in p for p in problems(5, SLAB, margin=10.0))
    assert any("at most 3" in p for p in problems(5, FLAT, margin=1.0))


def test_5_a_tower_of_fewer_than_six_bricks_can_never_collapse_as_the_challenge_counts():
    """The rulebook counts a collapse only when at least six bricks touch the table after the hit; the pink deck's
    five-brick towers (one of each colour) therefore fail challenge 5, however shaky."""
    five = ["R1 y 0,0.5", "P1 x -0.5,0.5", "B1 z 0.5,0.5", "G y 0.5,-0.5", "Y1 z 0.5,0.5"]
    assert len(bricks_of(five)) == 5
    assert problems(5, five, margin=1.0) == ["only 5 bricks: a collapse needs at least 6 on the table"]
    assert problems(5, [*five, "Y2 z 0.5,0.5"], margin=1.0) == []


def test_6_masterpiece_mirror_symmetry():
    assert mirror_symmetric(bricks_of(SLAB))
    assert mirror_symmetric(bricks_of(["Y1 z 0,0", "Y2 z 2,0", "P1 x 0.5,0"]))
    assert mirror_symmetric(bricks_of(["Y1 z 0,0", "Y2 x 1,0"]))  # one brick deep: symmetric front to back
    skew = ["Y1 z 0,0", "Y2 x 1,0", "P1 y 0,1", "P2 x 3,0"]  # an L with arms of 2 and 1 bricks
    assert not mirror_symmetric(bricks_of(skew))
    assert problems(6, skew) == ["the tower is not mirror-symmetric"]
    assert not mirror_symmetric(bricks_of(["Y1 x 0,0", "Y2 x 1,1"]))  # a Z: turned half round, not mirrored
    assert not mirror_symmetric(bricks_of(["Y1 z 0,0", "Y2 x 1,0", "P1 z 0,1"]))  # the arms differ in height


def test_6_masterpiece_mirror_in_a_diagonal_plane():
    """An L of two equal arms looks the same left and right seen from its corner: the mirror plane is its diagonal
    (the table has no directions of its own; the grid is the program's)."""
    assert mirror_symmetric(bricks_of(["Y1 z 0,0", "Y2 x 1,0", "P1 y 0,1"]))  # plane x - y = 0
    assert mirror_symmetric(bricks_of(["Y1 z 2,0", "Y2 x 0,0", "P1 y 2,1"]))  # plane x + y = 3
    corner = ["B1 z 0,0", "P1 x 1,0", "P2 y 0,1", "R1 x 1,0", "R2 y 0,1", "Y1 x 1,0", "Y2 y 0,1", "B2 z 0,0"]
    assert problems(6, corner) == []
    state = kumiki.load_game("towerbrix", mode="challenge", challenge=6, players=1).new_state(seed=1)
    state.hands = [["G18"]]  # at least one upright brick stands on the table
    build(state, corner)
    state.play("ok")
    assert state.evaluations[-1]["problems"] == [] and state.evaluations[-1]["success"]


def test_7_budget_cuts():
    assert any("at most 3" in p for p in problems(7, FLAT))
    lone = ["Y1 z 0,0", "Y2 x 0,0"]
    assert problems(7, lone) == ["no brick on the table touching three others can be taken away safely"]


def test_7_a_brick_that_can_go():
    # Y2 stands between Y1 and P1 and under R1: it touches three; R1 still rests on Y1 and P1 without it
    tower = ["Y1 z 0,0", "Y2 z 1,0", "P1 z 2,0", "R1 x 0.5,0"]
    bricks = bricks_of(tower)
    assert [b.box[2] for b in bricks] == [0, 0, 0, 2]
    assert budget_cut_possible(bricks)
    assert problems(7, tower) == []


def test_9_and_13_one_brick_and_high_standards():
    assert problems(9, COLUMN) == []
    assert problems(9, SLAB) == ["2 bricks touch the table (exactly 1)"]
    assert problems(13, COLUMN) == []
    assert problems(13, SLAB) == ["the tower is 8 tall (at least 10)"]


def test_one_brick_on_the_table_is_one_brick_that_touches_it():
    """Challenge 4 on a one-brick column read "1 bricks touch the table (exactly 2)"."""
    assert problems(4, COLUMN)[0] == "1 brick touches the table (exactly 2)"
    assert problems(1, FLAT) == ["8 bricks touch the table (at most 2)"]


def test_11_and_14_maps():
    bank = [place({}, "Y1", "x", 0, 0)]
    assert any("foundation 2" in p for p in map_problems(bank, RIVER))
    bridge = bricks_of(["Y1 z 0,0", "Y2 z 6,0"])  # the river is x 2-5
    assert map_problems(bridge, RIVER) == []
    wet = bricks_of(["Y1 z 0,0", "Y2 z 6,0", "P1 z 3,0"])
    assert map_problems(wet, RIVER) == ["P1 stands on the map outside the foundations"]
    # Beyond the map a bank goes on (the rulebook: "or connected to it outside the map"), and so does the river.
    beyond_bank = bricks_of(["Y1 z 0,0", "Y2 z 6,0", "P1 z -3,7", "P2 x 0,5.5", "R1 z 8,-4"])
    assert map_problems(beyond_bank, RIVER) == []
    beyond_river = bricks_of(["Y1 z 0,0", "Y2 z 6,0", "P1 z 3,7"])
    assert map_problems(beyond_river, RIVER) == ["P1 stands off the map outside the foundations"]
    astride = bricks_of(["Y1 z 0,0", "Y2 z 6,0", "P1 x 1.5,7"])
    assert map_problems(astride, RIVER) == ["P1 stands off the map outside the foundations"]
    three = bricks_of(["Y1 z 0,0", "Y2 z 3,4", "P1 z 7,0"])
    assert map_problems(three, SWAMP) == []
    assert map_problems(three[:2], SWAMP) == ["foundation 3 carries no brick"]
    # The island in the swamp does not reach the edge: beside it, beyond the map, is swamp.
    assert map_problems([*three, *bricks_of(["P2 z 3,10"])], SWAMP) == ["P2 stands off the map outside the foundations"]


@pytest.mark.parametrize(
    ("number", "ground", "k"), [(n, g, k) for n, g in ((11, RIVER), (14, SWAMP)) for k in range(len(MAP_TOWERS[n]))]
)
def test_the_maps_can_be_met(number, ground, k):
    """Each map is met by towers of the eight coloured bricks (the river by a corbelled bridge of seven): every start
    tower of the solver, built by the game's own moves."""
    tower = bricks_of(list(MAP_TOWERS[number][k]))
    assert len(tower) == 8 and connected(tower)
    assert judge(tower).stands
    assert map_problems(tower, ground) == []


def test_12_settling_foundations():
    assert problems(12, SLAB, margin=8.0) == []
    assert any("shaky" in p for p in problems(12, SLAB, margin=4.0))


def test_5_and_12_the_margin_shown_stands_on_its_side_of_the_threshold():
    """A margin of 5.98° fails challenge 12's 6°: the problem said "margin 6.0° (at least 6° needed)", which reads as
    met; it shows as many decimals as it takes to tell the margin from the threshold."""
    assert problems(12, SLAB, margin=5.98) == ["too shaky: margin 5.98° (at least 6° needed)"]
    assert problems(12, SLAB, margin=5.5) == ["too shaky: margin 5.5° (at least 6° needed)"]
    assert problems(12, SLAB, margin=5.9999) == ["too shaky: margin 5.9999° (at least 6° needed)"]
    sturdy = challenge_problems(5, bricks_of(SLAB), 3.5763, 2.0, 3.58, 6.0)
    assert sturdy == []
    sturdy = challenge_problems(5, bricks_of(SLAB), 3.041, 2.0, 3.04, 6.0)
    assert sturdy == ["too sturdy: margin 3.04° (below 3.04° needed)"]  # not "3.0°"; equal is not below
    assert challenge_problems(5, bricks_of(SLAB), 3.04, 2.0, 3.0, 6.0) == ["too sturdy: margin 3.0° (below 3° needed)"]
    # a threshold its 6 digits do not write exactly is written as closely as the margin
    shaky = challenge_problems(12, bricks_of(SLAB), 3.576334374, 2.0, 3.0, 3.5763345)
    assert shaky == ["too shaky: margin 3.576334° (at least 3.576335° needed)"]


# ----------------------------------------------------------------- challenges in play


def challenge(number: int, tmp_path, players: int = 1, **options):
    options.setdefault("deck", standin(tmp_path))
    return kumiki.load_game("towerbrix", mode="challenge", challenge=number, players=players, **options)


def test_challenge_success_scores_one(tmp_path):
    state = challenge(1, tmp_path).new_state(seed=1)
    build(state, SLAB)
    state.play("ok")
    assert state.evaluations[-1]["success"] and state.over and state.score() == 1


def test_challenge_failure(tmp_path):
    state = challenge(1, tmp_path, attempts=1).new_state(seed=1)
    build(state, FLAT)
    state.play("ok")
    assert not state.evaluations[-1]["success"] and state.over and state.score() == 0


def test_the_evaluated_margin_stands_on_the_side_of_the_threshold_the_verdict_does(tmp_path):
    """Challenges 5 and 12 judge the exact margin; the evaluation gave it rounded to 2 places, so the column's 3.846°
    read "tilt margin 3.85°" beside "too shaky: margin 3.846° (at least 3.85° needed)" (12), and beside a success
    that needs a margin below 3.85° (5). The margin now keeps as many places as it takes to stay on its side."""
    margin = judge(bricks_of(COLUMN), margin=True).margin_deg
    threshold = round(margin, 2)
    assert margin < threshold  # 3.846... rounds up to 3.85
    for number, option, success in ((12, "pull_deg", False), (5, "shake_deg", True)):
        state = challenge(number, tmp_path, attempts=1, **{option: threshold}).new_state(seed=1)
        build(state, COLUMN)
        state.play("ok")
        evaluation = state.evaluations[-1]
        assert evaluation["success"] is success
        assert evaluation["margin_deg"] < threshold and evaluation["margin_deg"] == round(margin, 3)
    state = challenge(12, tmp_path, attempts=1).new_state(seed=1)  # far from the threshold: 2 places, as before
    build(state, COLUMN)
    state.play("ok")
    assert state.evaluations[-1]["margin_deg"] == round(margin, 2)


def test_8_placed_bricks_stay(tmp_path):
    state = challenge(8, tmp_path).new_state(seed=1)
    state.play("Y1 z 0,0")
    for edit in ("-Y1", "Y1 z 2,0"):
        with pytest.raises(kumiki.IllegalMove, match="challenge 8"):
            state.play(edit)
    assert not any(m.kind == "remove" for m in state.legal_moves())


def test_10_the_blind_player(tmp_path):
    state = challenge(10, tmp_path, players=3).new_state(seed=1)
    state.play("Y1 z 0,0")
    state.play("Y2 z 1,0")
    assert state.to_move == 2 and [str(m) for m in state.legal_moves()] == ["ok"]
    with pytest.raises(kumiki.IllegalMove, match="blind"):
        state.play("P1 x 0,0")
    view = state.view(2)
    assert view["bricks"] == [] and view["bricks_hidden"] and "holds" not in view
    assert len(state.view(0)["bricks"]) == 2


def test_9_one_card_may_fail(tmp_path):
    deck = standin(tmp_path, never=1)
    state = challenge(9, tmp_path, deck=deck, total=30).new_state(seed=1)  # draws every card, S00 among them
    assert "S00" in state.dealt()
    build(state, COLUMN)
    state.play("ok")
    evaluation = state.evaluations[-1]
    assert evaluation["waived"] == "S00" and evaluation["success"]


def test_9_two_failing_cards_fail(tmp_path):
    deck = standin(tmp_path, never=2)
    state = challenge(9, tmp_path, deck=deck, total=30, attempts=1).new_state(seed=1)
    build(state, COLUMN)
    state.play("ok")
    assert not state.evaluations[-1]["success"]


@pytest.mark.parametrize(("number", "key"), [(2, "time_limit"), (3, "silence")])
def test_talking_and_time_are_recorded_for_the_server(tmp_path, number, key):
    data = challenge(number, tmp_path).new_state(seed=1).to_json()
    assert data["recorded"]["enforced_by"] == "server" and key in data["recorded"]


def test_2_when_the_clock_runs_out_the_build_fails_whatever_it_built(tmp_path):
    state = challenge(2, tmp_path, attempts=2, time_limit=90).new_state(seed=1)
    assert state.clock() is None  # the build has not begun: no clock yet
    build(state, SLAB)
    assert state.clock() == (90.0, 0, "time")  # 90 s from the first edit (ply 0)
    assert "time" not in [str(m) for m in state.legal_moves()]  # a clock plays it, never a player
    state.play("time")
    evaluation = state.evaluations[-1]
    assert not evaluation["success"] and evaluation["points"] == 0
    assert evaluation["problems"][0] == "the time ran out (90 s)"
    assert state.attempt == 2 and state.clock() is None
    state.play("Y1 z 0,0")
    assert state.clock() == (90.0, len(SLAB) + 1, "time")  # the second build's clock starts at its first edit
    build(state, SLAB[1:])
    state.play("ok")
    assert state.evaluations[-1]["success"] and state.over and state.score() == 1


def test_2_the_clocks_move_is_refused_before_the_clock_starts(tmp_path):
    """The clock runs from the build's first move: before it no time can have run out (a record could say so)."""
    state = challenge(2, tmp_path, attempts=2).new_state(seed=1)
    with pytest.raises(kumiki.IllegalMove, match="the clock starts at the build's first move"):
        state.play("time")
    assert state.history == [] and state.evaluations == []
    state.play("Y1 z 0,0")
    state.play("time")  # the clock has started: the build fails
    assert state.attempt == 2 and state.clock() is None
    with pytest.raises(kumiki.IllegalMove, match="the clock starts"):
        state.play("time")  # the second build has not begun


@pytest.mark.parametrize(("mode", "options"), [("base", {}), ("challenge", {"challenge": 3})])
def test_only_challenge_2_has_a_clock(tmp_path, mode, options):
    state = kumiki.load_game("towerbrix", mode=mode, players=1, deck=standin(tmp_path), **options).new_state(seed=1)
    state.play("Y1 z 0,0")
    assert state.clock() is None
    with pytest.raises(kumiki.IllegalMove, match="only challenge 2"):
        state.play("time")


def test_a_record_with_the_clocks_move_replays(tmp_path):
    game = challenge(2, tmp_path, attempts=2)
    state = game.new_state(seed=4)
    build(state, SLAB[:3])
    state.play("time")
    again = kumiki.read_record(kumiki.write_record(state))[1]
    assert [str(m) for m in again.history] == [*SLAB[:3], "time"] and again.attempt == 2


@pytest.mark.parametrize("number", [1, 4, 6, 7, 9, 13])
def test_the_solver_reads_the_challenges_as_the_game_does(number):
    from kumiki.games.towerbrix.solver import challenge_rule

    rule, one_may_fail = challenge_rule(number)
    assert one_may_fail == CHALLENGES[number].waive_one
    four = ["Y1 z 0,0", "Y2 z 1,0", "P1 z 0,0", "P2 z 1,0", "R1 z 0,0", "R2 z 1,0", "B1 z 0,0", "B2 z 1,0"]
    for tower in (SLAB, COLUMN, FLAT, four, ["Y1 z 0,0", "Y2 x 1,0", "P1 y 0,1"]):
        assert rule(bricks_of(tower)) == (problems(number, tower) == []), tower


@pytest.mark.parametrize(("number", "ground"), [(11, RIVER), (14, SWAMP), (1, None)])
def test_the_views_carry_the_map(tmp_path, number, ground):
    state = challenge(number, tmp_path, players=2).new_state(seed=1)
    for data in (state.to_json(), state.view(0), state.public_view()):
        if ground is None:
            assert "map" not in data
        else:
            assert data["map"] == {
                "name": ground.name,
                "area": list(ground.area),
                "foundations": [list(f) for f in ground.foundations],
            }


def handle_of(state, card_id):
    """The face-down name of a card: its seat and place in the hand (from 1)."""
    return next(f"{s}.{h.index(card_id) + 1}" for s, h in enumerate(state.hands) if card_id in h)


def voted(tmp_path, players=2, **options):
    deck = standin(tmp_path, never=1)  # S00 never holds
    return challenge(9, tmp_path, players=players, deck=deck, total=30, attempts=1, waive="vote", **options)


def test_9_by_vote_the_team_waives_the_card_it_chose(tmp_path):
    state = voted(tmp_path).new_state(seed=1)
    chosen = handle_of(state, "S00")
    assert f"waive {chosen}" in [str(m) for m in state.legal_moves()]
    state.play(f"waive {chosen}", player=state.to_move)
    state.play(f"waive {chosen}", player=state.to_move)
    assert state.to_json()["votes"] == {"0": chosen, "1": chosen}
    build(state, COLUMN)
    everyone_ok(state)
    evaluation = state.evaluations[-1]
    assert evaluation["waived"] == "S00" and evaluation["success"]


def test_9_by_vote_the_wrong_card_waived_fails(tmp_path):
    state = voted(tmp_path).new_state(seed=1)
    other = next(c for c in state.dealt() if c != "S00")
    for _ in range(2):
        state.play(f"waive {handle_of(state, other)}")
    build(state, COLUMN)
    everyone_ok(state)
    evaluation = state.evaluations[-1]
    assert evaluation["waived"] == other and not evaluation["success"]  # S00 still had to hold


def test_9_by_vote_without_a_majority_nothing_is_waived(tmp_path):
    state = voted(tmp_path).new_state(seed=1)
    state.play(f"waive {handle_of(state, 'S00')}")  # one seat of two: not more than half
    build(state, COLUMN)
    everyone_ok(state)
    assert state.evaluations[-1]["waived"] is None and not state.evaluations[-1]["success"]


def test_a_vote_is_no_edit_is_capped_and_is_checked(tmp_path):
    state = voted(tmp_path).new_state(seed=1)
    state.play("ok")  # seat 0
    state.play("waive 0.1")  # seat 1: the tower is unchanged, so seat 0's thumb stays up and no edit is counted
    assert state.to_json()["oks"] == [0] and state.edits == 0
    listed = [str(m) for m in state.legal_moves()]  # seat 0 to move: every card, its own vote none yet
    assert "waive 0.1" in listed and "waive 1.1" in listed
    state.play("waive 1.1")  # seat 0
    again = [str(m) for m in state.legal_moves()]  # seat 1, whose vote is 0.1: no vote for the same card again
    assert "waive 0.1" not in again and "waive 1.1" in again
    with pytest.raises(kumiki.IllegalMove, match="no such card"):
        state.play("waive 5.1")
    with pytest.raises(kumiki.IllegalMove, match="no such card"):
        state.play("waive 0.9")
    for handle in ("1.1", "0.2"):  # seat 1's second and third votes (seat 0 says ok between them)
        state.play(f"waive {handle}")
        state.play("ok")
    assert not any(m.kind == "waive" for m in state.legal_moves())  # three votes a seat and attempt
    with pytest.raises(kumiki.IllegalMove, match="at most 3 times"):
        state.play("waive 1.2")
    plain = challenge(9, tmp_path, players=2).new_state(seed=1)
    assert not any(m.kind == "waive" for m in plain.legal_moves())
    with pytest.raises(kumiki.IllegalMove, match="waive='vote'"):
        plain.play("waive 0.1")


def test_a_computer_teammate_backs_the_card_the_votes_name(tmp_path):
    state = voted(tmp_path).new_state(seed=1)
    state.play("ok")  # seat 0 (a person, here)
    state.play("waive 0.2", player=1)
    teammate = kumiki.load_agent("towerbrix-teammate", seed=1)
    assert str(teammate.choose(state)) == "waive 0.2"  # seat 0's turn: it joins seat 1's vote
    state.play("waive 0.2")
    assert state.waive_choice() == (0, 2)
    assert str(teammate.choose(state.copy())) != "waive 0.2"  # nothing left to back: it plays on


def test_votes_replay_from_a_record_and_have_interop_actions(tmp_path):
    state = voted(tmp_path).new_state(seed=1)
    for move in ("waive 1.1", "WAIVE 1.1", "Y1 z 0,0"):
        state.play(move)
    with pytest.raises(kumiki.IllegalMove, match="your vote already"):
        state.play("waive 1.1")  # seat 1 again
    game, again = kumiki.read_record(kumiki.write_record(state))
    assert [str(m) for m in again.history] == ["waive 1.1", "waive 1.1", "Y1 z 0,0"]
    assert again.to_json()["votes"] == state.to_json()["votes"] == {"0": "1.1", "1": "1.1"}
    from kumiki.interop import decode, encode

    action = encode(game, state.history[0])
    assert decode(game, action) == state.history[0] and action >= game.encoding.first_waive


@pytest.mark.parametrize(
    "options",
    [{"mode": "intro"}, {"mode": "solo", "players": 1}, {"deck": "pink", "turns": "free"}]
    + [{"mode": "challenge", "challenge": number, "players": 3} for number in sorted(CHALLENGES)]
    + [{"mode": "challenge", "challenge": 13, "players": 3, "waive": "vote"}],
    ids=str,
)
def test_states_of_every_mode_pickle(options):
    """The cards' compiled rules are closures: a state goes through pickle (another process, a saved game) as its
    rules' text and comes back playing alike."""
    state = kumiki.load_game("towerbrix", **options).new_state(seed=3)
    rng = random.Random(1)
    for _ in range(6):
        if state.over:
            break
        state.play(rng.choice(state.legal_moves()))
    twin = pickle.loads(pickle.dumps(state))
    assert twin.to_json() == state.to_json()
    assert [c.id for c in twin.game.deck] == [c.id for c in state.game.deck]
    if not state.over:
        move = state.legal_moves()[-1]
        twin.play(twin.game.parse_move(str(move)))
        state.play(move)
        assert twin.to_json() == state.to_json()


def test_a_challenges_rule_shows_the_games_own_figures() -> None:
    """The rule players read names this game's time limit and angles, not the options' names and defaults."""
    timed = (
        kumiki.load_game("towerbrix", players=2, mode="challenge", challenge=2, time_limit=12)
        .new_state(seed=1)
        .to_json()
    )
    assert timed["challenge_rule"] == "the build lasts at most 12 seconds from its first move"
    odd = kumiki.load_game("towerbrix", players=2, mode="challenge", challenge=2, time_limit=12.3456789)
    assert "at most 12.3456789 seconds" in odd.new_state(seed=1).to_json()["challenge_rule"]  # not cut to 12.3457
    shaky = (
        kumiki.load_game("towerbrix", players=2, mode="challenge", challenge=5, shake_deg=2.5)
        .new_state(seed=1)
        .to_json()
    )
    assert "below 2.5°" in shaky["challenge_rule"] and "shake_deg" not in shaky["challenge_rule"]
    pulled = kumiki.load_game("towerbrix", players=2, mode="challenge", challenge=12).new_state(seed=1).to_json()
    assert "at least 6°" in pulled["challenge_rule"]


def test_the_options_help_gives_the_totals_the_engine_draws_and_allows():
    """`kumiki games` and the web form said "see the rules for the totals" and let `total` run to 200: the help now
    gives the totals each difficulty draws and the most a deck's cards make, as the engine has them."""
    import re

    from kumiki.games.towerbrix.options import TOWERBRIX_OPTIONS

    docs = {option.name: option.doc for option in TOWERBRIX_OPTIONS}
    for difficulty in ("easy", "medium", "hard"):
        base = kumiki.load_game("towerbrix", difficulty=difficulty).base_total()
        assert f"{difficulty} {base}" in docs["difficulty"]
    challenge = [
        kumiki.load_game("towerbrix", mode="challenge", challenge=1, difficulty=d).base_total()
        for d in ("easy", "medium", "hard")
    ]
    assert f"(challenges: {', '.join(map(str, challenge))})" in docs["difficulty"]
    for deck in ("green", "pink"):
        most, _ = kumiki.load_game("towerbrix", deck=deck).total_bounds()
        assert re.search(rf"\b{most} with the {deck}\b", docs["total"]), (deck, most)
        kumiki.load_game("towerbrix", deck=deck, total=most)
        with pytest.raises(ValueError, match=f"at most {most}"):
            kumiki.load_game("towerbrix", deck=deck, total=most + 1)
