"""TowerBrix rules: notation, edits, tower validity, the build's end, scoring, hidden information, records."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

import kumiki
from kumiki.games.towerbrix.moves import TowerBrixMove
from kumiki.games.towerbrix.rules import TowerBrixState

# A stand-in deck whose cards are easy to control: "always" cards hold for any tower, "never" for none here.
STANDIN = """
deck = "standin"
bricks = "{bricks}"
{cards}
"""
ALWAYS = 'id = "{id}"\npoints = {points}\ntext = "The tower has a brick."\nrule = "bricks >= 1"\n'
NEVER = 'id = "{id}"\npoints = {points}\ntext = "The tower is very tall."\nrule = "height >= 40"\n'


def standin(tmp_path: Path, bricks: str = "green", never: int = 0) -> str:
    cards = []
    for i in range(12):
        template = NEVER if i < never else ALWAYS
        cards.append("[[cards]]\n" + template.format(id=f"S{i:02d}", points=2 if i % 2 == 0 else 3))
    path = tmp_path / f"standin-{bricks}-{never}.toml"
    path.write_text(STANDIN.format(bricks=bricks, cards="\n".join(cards)), encoding="utf-8")
    return str(path)


# Five standing bricks in a column, then three lying ones on top, centred: 13 tall, one brick on the table.
COLUMN = ["Y1 z 0,0", "Y2 z 0,0", "P1 z 0,0", "P2 z 0,0", "R1 z 0,0", "R2 x -0.5,0", "B1 x -0.5,0", "B2 x -0.5,0"]
# Two standing bricks side by side and six lying on them: 8 tall, two bricks on the table.
SLAB = ["Y1 z 0,0", "Y2 z 1,0", "P1 x 0,0", "P2 x 0,0", "R1 x 0,0", "R2 x 0,0", "B1 x 0,0", "B2 x 0,0"]
# A low, wide tower: every brick on the table, 1 tall.
FLAT = ["Y1 x 0,0", "Y2 x 2,0", "P1 x 4,0", "P2 x 6,0", "R1 x 0,1", "R2 x 2,1", "B1 x 4,1", "B2 x 6,1"]


def build(state: TowerBrixState, edits: list[str]) -> None:
    for edit in edits:
        state.play(edit)


def everyone_ok(state: TowerBrixState) -> None:
    for _ in range(state.game.players):
        state.play("ok")


def game(tmp_path: Path, **options):
    options.setdefault("deck", standin(tmp_path))
    options.setdefault("total", 10)
    return kumiki.load_game("towerbrix", **options)


# ----------------------------------------------------------------- notation


@pytest.mark.parametrize("text", ["Y1 z 0,0", "R2 x 0.5,1", "G y -1.5,2", "-Y1", "ok"])
def test_notation_round_trip(text):
    g = kumiki.load_game("towerbrix", deck="pink")
    move = g.parse_move(text)
    assert str(move) == text
    assert g.parse_move(str(move)) == move


def test_notation_is_lenient_on_case_and_spaces():
    g = kumiki.load_game("towerbrix")
    assert str(g.parse_move("  y1 Z 0 , 0 ")) == "Y1 z 0,0"
    assert str(g.parse_move("OK")) == "ok"
    assert str(g.parse_move("- r2")) == "-R2"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Q1 z 0,0", "no brick"),
        ("Y1 w 0,0", "write a brick"),
        ("Y1 z 0.25,0", "grid"),
        ("Y1 z 5000,0", "within"),
        ("", "write a brick"),
        ("-Y3", "no brick"),
    ],
)
def test_bad_notation_is_one_clear_error(text, reason):
    g = kumiki.load_game("towerbrix")
    with pytest.raises(kumiki.IllegalMove, match=reason):
        g.parse_move(text)


@pytest.mark.parametrize(
    ("x", "written"), [(1e-5, "0.00001"), (5.551115123125783e-17, "0.00000000000000005551115123125783")]
)
def test_a_tiny_coordinate_is_written_without_an_exponent(x, written):
    """A move built in code writes every coordinate as the notation reads it (repr gave '1e-05', which no parser
    took): a rounding's crumb (0.1 + 0.2 - 0.3) is then the grid point, as typed, and a real offset is off the grid."""
    move = TowerBrixMove("place", "Y1", "z", x, 0.0)
    assert str(move) == f"Y1 z {written},0"
    state = kumiki.load_game("towerbrix").new_state(seed=1)
    if x < 1e-9:
        state.play(move)
        assert str(state.history[-1]) == "Y1 z 0,0"
    else:
        with pytest.raises(kumiki.IllegalMove, match=r"0\.00001 is not on the 0\.5 grid"):
            state.play(move)


def test_grid_option_changes_the_allowed_corners():
    g = kumiki.load_game("towerbrix", grid=0.25)
    assert str(g.parse_move("Y1 z 0.25,0")) == "Y1 z 0.25,0"


def long_decimals(value: object) -> list[str]:
    """The numbers in ``value``'s JSON written with over 6 decimals (0.6000000000000001)."""
    return re.findall(r"-?[0-9]+\.[0-9]{7,}", json.dumps(value))


@pytest.mark.parametrize("brick", ["2x1x1", "1.3x0.7x1.1"])
def test_a_corner_on_a_fifth_grid_is_written_as_its_own_decimal(brick: str) -> None:
    """With grid=0.2 the listed placements were k * 0.2 (0.6000000000000001), and so were the moves, the record,
    the action decoding and to_json()'s boxes (corner -1.4 plus side 2); they are now the grid point's decimal."""
    game = kumiki.load_game("towerbrix", grid=0.2, brick=brick)
    state = game.new_state(seed=1)
    for _ in range(7):
        listed = state.legal_moves()
        assert all(game.parse_move(str(move)) == move for move in listed)
        assert not long_decimals([str(move) for move in listed])
        assert all(game.encoding.decode(game.encoding.encode(move)) == move for move in listed[:400])
        places = [move for move in listed if move.kind == "place"]
        state.play(places[len(places) // 2])
    assert not long_decimals(state.to_json()) and not long_decimals(kumiki.write_record(state))
    assert str(game.parse_move("Y1 z 0.6000000000000001,0")) == "Y1 z 0.6,0"


# ----------------------------------------------------------------- edits


def test_turns_cycle_and_an_edit_clears_the_oks(tmp_path):
    state = game(tmp_path, players=3).new_state(seed=1)
    assert state.to_move == 0
    state.play("Y1 z 0,0")
    assert state.to_move == 1
    state.play("ok")
    state.play("ok")
    assert state.oks == {1, 2}
    state.play("Y2 z 1,0")
    assert state.oks == set() and state.to_move == 1


def test_moving_a_brick_lifts_and_lowers_it(tmp_path):
    state = game(tmp_path).new_state(seed=1)
    build(state, ["Y1 z 0,0", "Y2 x 0,0"])
    assert state.bricks["Y2"].box == (0, 0, 2, 2, 1, 3)
    state.play("Y2 x 3,0")
    assert state.bricks["Y2"].box == (3, 0, 0, 5, 1, 1)


def test_a_brick_that_carries_others_cannot_go(tmp_path):
    state = game(tmp_path).new_state(seed=1)
    build(state, ["Y1 z 0,0", "Y2 x 0,0"])
    before = json.dumps(state.to_json(), sort_keys=True)
    for edit in ("-Y1", "Y1 z 4,4"):
        with pytest.raises(kumiki.IllegalMove, match="carries Y2"):
            state.play(edit)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert "-Y1" not in [str(m) for m in state.legal_moves()]
    state.play("-Y2")
    state.play("-Y1")
    assert state.bricks == {}


def test_removing_a_brick_not_there_and_gray_with_green(tmp_path):
    state = game(tmp_path).new_state(seed=1)
    with pytest.raises(kumiki.IllegalMove, match="not in the tower"):
        state.play("-Y1")
    with pytest.raises(kumiki.IllegalMove, match="gray"):
        state.play("G z 0,0")


def test_legal_moves_are_ok_removals_then_touching_placements(tmp_path):
    state = game(tmp_path, players=1, mode="solo").new_state(seed=1)
    first = [str(m) for m in state.legal_moves()]
    assert first[0] == "ok"
    assert "Y1 z 0,0" in first and "Y2 z 0,0" not in first  # one brick of each colour is listed
    state.play("Y1 z 0,0")
    moves = [str(m) for m in state.legal_moves()]
    assert moves[:2] == ["ok", "-Y1"]
    assert "Y2 z 1,0" in moves and "P1 x 0,0" in moves  # beside Y1, and on top of it
    assert "Y2 z 1,1" not in moves  # corner to corner: no shared face
    assert "Y2 z 3,0" not in moves  # not touching
    state.play("Y2 z 3,0")  # legal all the same


# ----------------------------------------------------------------- validity and evaluation


def test_the_build_ends_when_everyone_says_ok_and_is_evaluated(tmp_path):
    state = game(tmp_path, players=2).new_state(seed=1)
    build(state, SLAB)
    state.play("ok")
    assert not state.evaluations
    state.play("ok")
    evaluation = state.evaluations[-1]
    assert evaluation["success"] and evaluation["problems"] == []
    assert evaluation["bonus"] == 1 + 2  # 8 tall (> 6), two bricks on the table
    assert evaluation["points"] == 10 + 3
    assert state.round == 1 and state.bricks == {}
    # The cards are revealed with their faces: every player can read what the others held.
    for card in evaluation["cards"]:
        assert card["text"] == state.game.cards[card["id"]].text


def test_a_tall_tower_on_one_brick_earns_both_bonuses(tmp_path):
    state = game(tmp_path, players=1, mode="solo").new_state(seed=1)
    build(state, COLUMN)
    state.play("ok")
    assert state.evaluations[-1]["bonus"] == 3 + 2
    assert state.score() == 10 + 5


def test_a_flat_tower_earns_no_bonus(tmp_path):
    state = game(tmp_path, players=1, mode="solo").new_state(seed=1)
    build(state, FLAT)
    state.play("ok")
    assert state.evaluations[-1]["success"] and state.evaluations[-1]["bonus"] == 0


def test_the_intro_and_the_challenges_report_no_bonus(tmp_path):
    # Only the base and solo games add bonuses; an evaluation elsewhere showed "points 1 (bonus 5)", a bonus that
    # was never counted (the rulebook: no points in the intro, "You will not add up the points" in the challenges).
    state = game(tmp_path, players=1, mode="challenge", challenge=1).new_state(seed=1)
    build(state, SLAB)  # 8 tall, two bricks on the table: worth 1 + 2 in the base game
    state.play("ok")
    assert state.evaluations[-1]["success"]
    assert (state.evaluations[-1]["points"], state.evaluations[-1]["bonus"]) == (1, 0)
    intro = kumiki.load_game("towerbrix", players=1, mode="intro")
    for seed in range(40):
        state = intro.new_state(seed=seed)
        build(state, SLAB)
        state.play("ok")
        if state.evaluations[-1]["success"]:
            break
    assert state.evaluations[-1]["success"]
    assert (state.evaluations[-1]["points"], state.evaluations[-1]["bonus"]) == (1, 0)


def test_the_box_is_an_option(tmp_path):
    state = game(tmp_path, players=1, mode="solo", box_short=8.0, box_long=12.0).new_state(seed=1)
    build(state, SLAB)  # 8 tall: not taller than 8
    state.play("ok")
    assert state.evaluations[-1]["bonus"] == 2


def test_green_needs_all_eight_bricks(tmp_path):
    state = game(tmp_path, players=1, mode="solo").new_state(seed=1)
    build(state, SLAB[:-1])
    state.play("ok")
    evaluation = state.evaluations[-1]
    assert not evaluation["success"] and evaluation["points"] == 0
    assert any("B2" in p for p in evaluation["problems"])


def test_pink_needs_every_colour_and_allows_fewer_bricks(tmp_path):
    deck = standin(tmp_path, bricks="pink")
    state = game(tmp_path, players=1, mode="solo", deck=deck).new_state(seed=1)
    build(state, ["Y1 z 0,0", "P1 z 1,0", "R1 x 0,0", "B1 x 0,0"])
    state.play("ok")
    assert any("gray" in p for p in state.evaluations[-1]["problems"])
    build(state, ["Y1 z 0,0", "P1 z 1,0", "R1 x 0,0", "B1 x 0,0", "G x 0,0"])
    state.play("ok")
    assert state.evaluations[-1]["success"]


def test_a_disconnected_tower_fails(tmp_path):
    state = game(tmp_path, players=1, mode="solo").new_state(seed=1)
    build(state, [*FLAT[:-1], "B2 x 9,0"])
    state.play("ok")
    assert "the bricks are not all connected" in state.evaluations[-1]["problems"]


def test_a_falling_tower_fails(tmp_path):
    state = game(tmp_path, players=1, mode="solo").new_state(seed=1)
    build(state, [*SLAB[:-1], "B2 x 1,0"])  # the top brick hangs half over the edge: a knife edge falls
    state.play("ok")
    assert "the tower falls" in state.evaluations[-1]["problems"]


def test_a_failed_card_fails_the_round_and_lowers_the_total(tmp_path):
    deck = standin(tmp_path, never=12)
    state = game(tmp_path, players=1, mode="solo", deck=deck, total=12, attempts=2).new_state(seed=1)
    build(state, SLAB)
    state.play("ok")
    assert not state.evaluations[-1]["success"]
    assert (state.round, state.attempt, state.total) == (0, 2, 10)
    assert sum(state.game.cards[c].points for c in state.dealt()) == 10
    state.play("ok")  # the second attempt fails too: the round is lost, the next one starts at the full total
    assert state.round_points == [0] and (state.round, state.attempt, state.total) == (1, 1, 12)


def test_max_edits_ends_the_build(tmp_path):
    state = game(tmp_path, players=1, mode="solo", max_edits=3).new_state(seed=1)
    build(state, SLAB[:3])
    assert len(state.evaluations) == 1 and state.bricks == {}


def test_the_game_ends_after_the_rounds_with_the_verdict(tmp_path):
    state = game(tmp_path, players=1, mode="solo", rounds=2, total=20).new_state(seed=1)
    for _ in range(2):
        build(state, COLUMN)
        state.play("ok")
    assert state.over and state.to_move is None and state.legal_moves() == []
    assert state.score() == 2 * (20 + 5)
    assert state.winners() == [0]
    assert state.to_json()["verdict"].startswith("Solid")  # 50: the 50-59 band


def test_once_over_the_state_shows_the_last_attempt_played(tmp_path):
    """After the last round's last failed attempt, ``to_json()`` showed "attempt 1" and the first total, as if a new
    attempt were dealt (the web app wrote "Round 2 of 2 · attempt 1 · cards worth 12" under the final score)."""
    deck = standin(tmp_path, never=12)
    state = game(tmp_path, players=1, mode="solo", deck=deck, total=12, attempts=2, rounds=2).new_state(seed=1)
    for _ in range(4):
        build(state, SLAB)
        state.play("ok")
    assert state.over and [e["success"] for e in state.evaluations] == [False] * 4
    shown = state.to_json()
    last = state.evaluations[-1]
    assert (shown["round"], shown["attempt"], shown["total"]) == (2, 2, 10) == (last["round"], last["attempt"], 10)
    assert last["total"] == 10


def test_deal_is_even_and_matches_the_total(tmp_path):
    for players in range(1, 7):
        mode = "solo" if players == 1 else "base"
        state = kumiki.load_game("towerbrix", players=players, mode=mode, total=17).new_state(seed=players)
        sizes = [len(h) for h in state.hands]
        assert max(sizes) - min(sizes) <= 1
        assert sum(state.game.cards[c].points for c in state.dealt()) == 17


@pytest.mark.parametrize(("difficulty", "low", "high"), [("easy", 2, 12), ("medium", 13, 19), ("hard", 20, 200)])
def test_difficulty_totals_lie_in_their_range(difficulty, low, high):
    state = kumiki.load_game("towerbrix", difficulty=difficulty).new_state(seed=3)
    assert low <= state.total <= high
    assert sum(state.game.cards[c].points for c in state.dealt()) == state.total


@pytest.mark.parametrize(("deck", "top", "impossible"), [("green", 122, 121), ("pink", 133, 132)])
def test_every_total_the_deck_can_make_is_drawn_exactly(deck, top, impossible):
    """Near the whole deck a random pick of 2s and 3s could strand the rest (green 120 drew 122): each pick keeps
    the remainder makeable from the cards left."""
    for total in range(2, top + 1):
        if total == impossible:
            continue
        game = kumiki.load_game("towerbrix", deck=deck, total=total)
        for seed in range(3):
            state = game.new_state(seed=seed)
            assert sum(game.cards[c].points for c in state.dealt()) == state.total == total, (total, seed)


@pytest.mark.parametrize(("players", "difficulty"), [(4, "easy"), (5, "easy"), (5, "medium"), (6, "medium")])
def test_every_player_gets_a_card_when_the_total_allows(players, difficulty):
    """The rulebook: "Divide the cards as evenly as possible … In Round 1, everyone gets one card each"; the team draws
    2s and 3s as it needs, so a total of at least two points a player is drawn in at least one card a player (five
    players at easy 10 drew 3 + 3 + 2 + 2, four players at a retry's 8 drew 3 + 3 + 2: a player held no card)."""
    game = kumiki.load_game("towerbrix", players=players, difficulty=difficulty)
    for seed in range(40):
        state = game.new_state(seed=seed)
        for _ in range(3):  # the first attempt and two retries at lower totals
            if state.total >= 2 * players:
                assert min(len(hand) for hand in state.hands) >= 1, (seed, state.attempt, state.hands)
            for _ in range(players):
                state.play("ok")  # an empty table fails: the next attempt draws fewer points


def test_a_total_below_two_points_a_player_deals_as_many_cards_as_it_can():
    """Six players at easy (10 points): five 2-point cards, not 3 + 3 + 2 + 2 (two players without a card)."""
    game = kumiki.load_game("towerbrix", players=6, difficulty="easy")
    for seed in range(20):
        assert len(game.new_state(seed=seed).dealt()) == 5


@pytest.mark.parametrize(("deck", "total"), [("green", 121), ("pink", 132)])
def test_a_total_no_set_of_cards_makes_is_refused(deck, total):
    with pytest.raises(ValueError, match=f"option 'total': no set of the {deck} deck's cards makes exactly {total}"):
        kumiki.load_game("towerbrix", deck=deck, total=total)


def test_a_retry_total_no_cards_make_drops_to_the_next_one_they_do():
    state = kumiki.load_game("towerbrix", players=1, mode="solo", total=122, retry_drop=1).new_state(seed=1)
    state.play("ok")  # fails: 122 - 1 = 121 cannot be drawn from the green deck, so the retry draws 120
    assert state.attempt == 2 and state.total == 120
    assert sum(state.game.cards[c].points for c in state.dealt()) == 120


def test_acting_takes_only_a_seat():
    state = kumiki.load_game("towerbrix", players=3, turns="free").new_state(seed=1)
    assert state.acting(1).to_move == 1
    for seat in (True, 1.0, -1, 3):
        with pytest.raises(ValueError, match="not in 0…2"):
            state.acting(seat)


def test_discards_are_reshuffled_when_a_stack_runs_out(tmp_path):
    state = game(tmp_path, players=1, mode="solo", total=30, rounds=5, attempts=1).new_state(seed=2)
    seen = set(state.dealt())
    for _ in range(4):
        state.play("ok")
        seen |= set(state.dealt())
    assert not state.over and len(seen) == 12  # the 12 stand-in cards came round again


# ----------------------------------------------------------------- hidden information


def test_view_shows_own_cards_and_only_counts_of_others(tmp_path):
    state = game(tmp_path, players=3, total=14).new_state(seed=4)
    for player in range(3):
        view = state.view(player)
        assert view["hands"][player] == state.hands[player]
        assert all(view["hands"][i] is None for i in range(3) if i != player)
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        assert set(view["cards"]) == set(state.hands[player])
        text = json.dumps(view)
        for other in range(3):
            if other != player:
                for card in state.hands[other]:
                    assert card not in text
    public = json.dumps(state.public_view())
    assert all(card not in public for card in state.dealt())


def test_the_helper_says_whether_own_cards_hold_now(tmp_path):
    deck = standin(tmp_path, never=6)
    state = game(tmp_path, players=1, mode="solo", deck=deck).new_state(seed=1)
    assert all(not holds for holds in state.view(0)["holds"].values())  # no bricks: no card holds
    state.play("Y1 z 0,0")
    holds = state.view(0)["holds"]
    assert holds == {c: state.game.cards[c].rule == "bricks >= 1" for c in state.hands[0]}
    off = game(tmp_path, players=1, mode="solo", deck=deck, helper=False).new_state(seed=1)
    assert "holds" not in off.view(0)


def test_cards_are_revealed_at_the_evaluation(tmp_path):
    state = game(tmp_path, players=2).new_state(seed=5)
    dealt = {p: list(h) for p, h in enumerate(state.hands)}
    build(state, SLAB)
    everyone_ok(state)
    revealed = state.view(1)["evaluations"][-1]["cards"]
    assert {(c["player"], c["id"]) for c in revealed} == {(p, c) for p, hand in dealt.items() for c in hand}


def test_solo_cards_are_face_up():
    state = kumiki.load_game("towerbrix", players=1, mode="solo").new_state(seed=1)
    assert state.public_view()["hands"] == state.hands


# ----------------------------------------------------------------- records


def test_records_replay(tmp_path):
    g = game(tmp_path, players=2)
    state = g.new_state(seed=9)
    build(state, [*SLAB, "ok", "ok", "Y1 z 0,0", "-Y1", "Y1 x 0,0"])
    text = kumiki.write_record(state)
    _, again = kumiki.read_record(text)
    assert again.to_json() == state.to_json()
    assert [str(m) for m in again.history] == [str(m) for m in state.history]


def test_contract_bricks_in_to_json(tmp_path):
    state = game(tmp_path).new_state(seed=1)
    state.play("R2 x 0.5,1")
    assert state.to_json()["bricks"] == [{"id": "R2", "colour": "red", "axis": "x", "box": [0.5, 1, 0, 2.5, 2, 1]}]


def test_bad_options_are_named():
    for options, named in [
        ({"mode": "solo", "players": 2}, "mode"),
        ({"deck": "nope.toml"}, "deck"),
        ({"grid": 0.3}, "grid"),
        ({"brick": "2by1"}, "brick"),
        ({"mode": "intro", "deck": "pink"}, "deck"),
        ({"box_long": 3.0}, "box_long"),
        ({"total": 123}, "total': at most 122"),  # beyond the green deck's points: it dealt them all, unsaid
        ({"total": 200, "deck": "pink"}, "total': at most"),
    ]:
        with pytest.raises(ValueError, match=named):
            kumiki.load_game("towerbrix", **options)


def test_a_brick_placed_where_it_lies_is_an_edit_that_clears_the_thumbs() -> None:
    """docs/rules/towerbrix.md, Decisions: a brick lifted and put back is an edit; legal_moves never lists it."""
    state = kumiki.load_game("towerbrix", players=2).new_state(seed=1)
    state.play("Y1 z 0,0")
    state.play("ok")
    before = state.bricks["Y1"].box
    assert "Y1 z 0,0" not in {str(m) for m in state.legal_moves()}
    state.play("Y1 z 0,0")
    assert state.bricks["Y1"].box == before and state.edits == 2 and not state.oks


def test_to_json_and_views_never_hand_out_the_states_own_evaluations():
    """The contract's copy() is independent and to_json() is the caller's: editing the dict a view or to_json gave
    (its past evaluations too) changes neither the state nor its copies."""
    state = kumiki.load_game("towerbrix", players=2).new_state(seed=1)
    state.play("ok")
    state.play("ok")  # the first attempt is evaluated
    before = json.dumps(state.to_json(), sort_keys=True)
    twin = state.copy()
    for data in (state.to_json(), state.view(0), state.public_view(), twin.to_json()):
        data["evaluations"][0]["cards"].clear()
        data["evaluations"][0]["bricks"].append("X")
        data["evaluations"][0]["success"] = True
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert json.dumps(twin.to_json(), sort_keys=True) == before


def test_the_evaluations_in_views_are_fresh_at_every_depth_and_equal_to_a_deep_copy() -> None:
    """The views copy the evaluations fast (they are most of a long game's view, built per move and per position of
    a replay) yet as ``copy.deepcopy`` did: the same JSON, the same types, and nothing shared with the state, down to
    a brick's box and a card's flag."""
    state = kumiki.load_game("towerbrix", players=2).new_state(seed=1)
    rng = random.Random(5)
    while len(state.evaluations) < 3:
        state.play(rng.choice(state.legal_moves()))
    before = json.dumps(state.to_json(), sort_keys=True)
    assert [e["bricks"] for e in state.evaluations] != [[], [], []]  # some evaluation judged a tower
    for data in (state.to_json(), state.view(1), state.public_view(), state.common_view()):
        assert json.dumps(data["evaluations"]) == json.dumps(copy.deepcopy(state.evaluations))
        assert data["evaluations"] == state.evaluations and data["evaluations"] is not state.evaluations
        for mine, theirs in zip(data["evaluations"], state.evaluations, strict=True):
            assert mine is not theirs and mine["cards"] is not theirs["cards"]
            assert [type(v) for v in mine.values()] == [type(v) for v in theirs.values()]
            for brick in mine["bricks"]:
                brick["box"][0] = 99
                brick["id"] = "X"
            for card in mine["cards"]:
                card["holds"] = not card["holds"]
            mine["problems"].append("edited")
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_the_first_mover_is_named_only_where_one_seat_opens_the_whole_game() -> None:
    """The cycle carries on across attempts and rounds, so only a one-round, one-attempt game under the cycle has a
    seat that opens the whole game; with free turns nobody moves first (a report said "seat 0 (moves first)")."""
    assert kumiki.load_game("towerbrix", players=3, rounds=1, attempts=1).first_mover() == 0
    assert kumiki.load_game("towerbrix", players=3, rounds=1, attempts=3).first_mover() is None
    assert kumiki.load_game("towerbrix", players=3).first_mover() is None
    assert kumiki.load_game("towerbrix", players=3, rounds=1, attempts=1, turns="free").first_mover() is None
    assert kumiki.load_game("towerbrix", players=1, mode="solo").first_mover() == 0
