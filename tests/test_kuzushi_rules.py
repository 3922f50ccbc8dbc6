"""Kuzushi's rules, one hand-built position at a time.

Every expected value below was worked out by hand from the rules (the comment next to it says how), not read off the
engine. Positions are written as ``"x,y Kp"`` pairs: K is C (CITY), B (BASE) or F (FLAG), p the owner.

Three situations the rules describe cannot arise in legal play (a proof sketch is in ``TestBranchesUnreachableByPlay``):
a FLAG placed for a player who is not the mover, a FLAG replaced by another player's, and the bounding box shrinking.
They are tested there on positions written straight into the state (white-box), and their absence in legal play is
checked in ``test_kuzushi_properties.py``.
"""

from __future__ import annotations

import random

import pytest
from tests.helpers import assert_illegal, names

import kumiki
from kumiki.games.kuzushi import KuzushiMove

KIND = {"C": "city", "B": "base", "F": "flag"}


def layout(text: str) -> list[dict[str, object]]:
    """``"0,0 C0 1,0 B1"`` -> the ``cells`` list of ``to_json()``, sorted by (x, y)."""
    items = text.split()
    assert len(items) % 2 == 0, text
    cells = []
    for xy, tile in zip(items[::2], items[1::2], strict=True):
        x, y = map(int, xy.split(","))
        cells.append({"x": x, "y": y, "owner": int(tile[1:]), "kind": KIND[tile[0]]})
    return sorted(cells, key=lambda c: (c["x"], c["y"]))


def expected(size: int, tiles_left: list[int], text: str) -> dict[str, object]:
    return {"size": size, "tiles_left": tiles_left, "cells": layout(text)}


def new_state(**options):
    return kumiki.load_game("kuzushi", **options).new_state(seed=0)


def after(*moves: str, **options):
    state = new_state(**options)
    for move in moves:
        state.play(move)
    return state


# ---------------------------------------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_city_for_player_0_and_player_1_moves_first(players):
    state = new_state(players=players)
    size = {2: 6, 3: 7, 4: 8, 5: 9, 6: 10}[players]
    # only the CITY (player 0's) at 0,0; every supply full; player 1 to move
    assert state.to_json() == expected(size, [19] * players, "0,0 C0")
    assert state.to_move == 1
    assert state.over is False
    assert state.history == []
    assert state.cell(0, 0) == ("city", 0)
    assert state.cell(1, 0) is None
    # the CITY is one tile of player 0's colour
    assert state.scores() == [1] + [0] * (players - 1)
    assert state.winners() == []
    # the four cells next to the CITY, in (x, y) order; no flag to flip
    assert names(state.legal_moves()) == ["B -1,0", "B 0,-1", "B 0,1", "B 1,0"]


@pytest.mark.parametrize(
    ("players", "expected_order"),
    [
        (2, [1, 0, 1, 0, 1, 0, 1]),
        (3, [1, 2, 0, 1, 2, 0, 1]),
        (6, [1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1]),
    ],
)
def test_turn_order(players, expected_order):
    state = new_state(players=players)
    rng = random.Random(players)
    seen = []
    for _ in expected_order:
        seen.append(state.to_move)
        state.play(rng.choice(state.legal_moves()))
    # 1 first, then 2, 3, …, P-1, 0, 1, … (19 tiles each: nobody runs out this early)
    assert seen == expected_order


# -------------------------------------------------------------------------------------------------- flag resolution


def test_first_base_takes_a_tile_and_flags_every_empty_neighbour():
    state = after("B 1,0")
    # P1: base 1,0 and flags east 2,0, north 1,1, south 1,-1 (west is the CITY) -> 19 - 4 = 15 tiles left
    assert state.to_json() == expected(6, [19, 15], "0,0 C0 1,-1 F1 1,0 B1 1,1 F1 2,0 F1")
    assert state.cell(1, 0) == ("base", 1)
    assert state.cell(2, 0) == ("flag", 1)
    assert state.cell(-1, 0) is None
    assert state.to_move == 0
    assert state.scores() == [1, 4]


def test_tie_removes_the_flag_and_returns_the_tile():
    state = after("B 1,0", "B 0,1")
    # 1,1 has P1's base 1,0 and P0's base 0,1 next to it: a 1-1 tie removes P1's flag (P1 15 -> 16);
    # P0 flags west -1,1 and north 0,2 (P0 19 - 3 = 16)
    assert state.to_json() == expected(6, [16, 16], "-1,1 F0 0,0 C0 0,1 B0 0,2 F0 1,-1 F1 1,0 B1 2,0 F1")
    assert state.cell(1, 1) is None


def test_the_most_bases_is_a_majority_even_when_not_more_than_half():
    """Decision p: 2-1-1 gives the flag to the player with 2 (rulebook 004: "which player has the most")."""
    state = after("B 0,1", "B 1,2", "B 1,0", players=3)
    # P1 0,1 flags 1,1, -1,1, 0,2 (15 left); P2 1,2 flags 2,2 and 1,3, and ties P1's 0,2 and 1,1 away (P1 17, P2 16);
    # P0 1,0 flags 2,0 and 1,-1 (16 left), and 1,1 is a 1-1-1 tie: it stays empty
    assert state.to_json() == expected(
        7, [16, 17, 16], "-1,1 F1 0,0 C0 0,1 B1 1,-1 F0 1,0 B0 1,2 B2 1,3 F2 2,0 F0 2,2 F2"
    )
    state.play("B 2,1")
    # P1 2,1: east 3,1 flag; west 1,1 has P1 2 (0,1 2,1), P0 1 (1,0), P2 1 (1,2): 2 of 4 bases, the most -> P1's
    # flag; north 2,2 (P2 1-1 P1) and south 2,0 (P0 1-1 P1) are ties: P2's and P0's flags go back. P1 17 - 3 = 14
    assert state.to_json() == expected(
        7, [17, 14, 17], "-1,1 F1 0,0 C0 0,1 B1 1,-1 F0 1,0 B0 1,1 F1 1,2 B2 1,3 F2 2,1 B1 3,1 F1"
    )


def test_majority_more_than_half_reads_2_1_1_as_no_majority():
    """Decision p's other reading, the option majority="more_than_half": rulebook 004 "If you have the majority of
    bases next to a given spot, mark it", rulebook 001 "if NO player has a majority of BASES ... remove any FLAG":
    2 of 4 bases is no majority."""
    state = after("B 0,1", "B 1,2", "B 1,0", players=3, majority="more_than_half")
    assert state.to_json() == expected(
        7, [16, 17, 16], "-1,1 F1 0,0 C0 0,1 B1 1,-1 F0 1,0 B0 1,2 B2 1,3 F2 2,0 F0 2,2 F2"
    )
    state.play("B 2,1")
    # as in the test above, but 1,1 (P1 2, P0 1, P2 1) stays empty: P1 flags only 3,1 (17 - 1 - 1 = 15)
    assert state.to_json() == expected(
        7, [17, 15, 17], "-1,1 F1 0,0 C0 0,1 B1 1,-1 F0 1,0 B0 1,2 B2 1,3 F2 2,1 B1 3,1 F1"
    )


@pytest.mark.parametrize(("majority", "kept"), [("most", True), ("more_than_half", False)])
def test_a_flag_held_2_1_goes_back_at_2_1_1_only_when_majority_is_more_than_half(majority, kept):
    # P1's flag on 1,1 from its base 0,1, kept at 2-0 (2,1) and at 2-1 (P2's 1,2: more than half under both readings);
    # P0's 1,0 makes it 2-1-1
    state = after("B 0,1", "B -1,0", "B 0,-1", "B 2,1", "B 1,2", players=3, majority=majority)
    assert state.cell(1, 1) == ("flag", 1)
    assert state.tiles_left() == [16, 14, 15]
    state.play("B 1,0")
    assert state.cell(1, 1) == (("flag", 1) if kept else None)
    assert state.tiles_left() == [15, 15 if kept else 16, 15]


def test_majority_owner_keeps_its_flag_when_someone_else_moves():
    state = after("B 1,0", "B -1,0", "B 2,1")
    # P1's 2,1: east 3,1 and north 2,2 get flags; 1,1 and 2,0 already hold P1's flags with 2 P1 bases next to them
    assert state.to_json() == expected(
        6, [15, 12], "-2,0 F0 -1,-1 F0 -1,0 B0 -1,1 F0 0,0 C0 1,-1 F1 1,0 B1 1,1 F1 2,0 F1 2,1 B1 2,2 F1 3,1 F1"
    )
    state.play("B 0,1")
    # P0's 0,1: at 1,1 P1 has 2 bases (1,0 and 2,1), P0 only 1 -> P1 keeps its flag although P0 moved;
    # at -1,1 P0 has 2 -> keeps its flag; 0,2 gets a P0 flag (15 - 2 = 13)
    assert state.to_json() == expected(
        6,
        [13, 12],
        "-2,0 F0 -1,-1 F0 -1,0 B0 -1,1 F0 0,0 C0 0,1 B0 0,2 F0 1,-1 F1 1,0 B1 1,1 F1 2,0 F1 2,1 B1 2,2 F1 3,1 F1",
    )
    assert state.cell(1, 1) == ("flag", 1)
    assert state.scores() == [7, 7]  # 6 tiles + CITY; 7 tiles


def test_neighbours_resolved_east_west_north_south_when_the_supply_runs_out():
    state = after("B 0,1", tiles=3)
    # 3 tiles: base 0,1 (2 left), east 1,1 (1 left), west -1,1 (0 left); north 0,2 finds no tile; south is the CITY
    assert state.to_json() == expected(6, [3, 0], "-1,1 F1 0,0 C0 0,1 B1 1,1 F1")
    assert state.over
    state = after("B 1,0", tiles=3)
    # base 1,0, east 2,0, (west is the CITY), north 1,1 gets the last tile; south 1,-1 stays empty
    assert state.to_json() == expected(6, [3, 0], "0,0 C0 1,0 B1 1,1 F1 2,0 F1")
    state = after("B 0,1", tiles=2)
    # base 0,1, then the last tile goes east (1,1), before west
    assert state.to_json() == expected(6, [2, 0], "0,0 C0 0,1 B1 1,1 F1")
    state = after("B -1,0", tiles=3)
    # base -1,0, (east is the CITY), west -2,0, then north -1,1 before south
    assert state.to_json() == expected(6, [3, 0], "-2,0 F1 -1,0 B1 -1,1 F1 0,0 C0")
    state = after("B 0,-1", tiles=3)
    # base 0,-1, east 1,-1, west -1,-1, (north is the CITY); south 0,-2 finds no tile
    assert state.to_json() == expected(6, [3, 0], "-1,-1 F1 0,-1 B1 0,0 C0 1,-1 F1")


def test_mover_without_a_tile_leaves_the_majority_cell_empty():
    state = after("B 1,0", tiles=2)
    # base 1,0 (1 left), east 2,0 takes the last tile; north 1,1 and south 1,-1: P1 has the majority but no tile
    assert state.to_json() == expected(6, [2, 0], "0,0 C0 1,0 B1 2,0 F1")
    assert state.cell(1, 1) is None
    assert state.cell(1, -1) is None


def test_no_flag_beyond_a_row_that_reaches_width_n():
    state = after("B 1,0", "B -1,0", size=4)
    # row -1,0 / 0,0 / 1,0 / 2,0 spans x -1..2 = 4 = N: no flag at -2,0; north -1,1 and south -1,-1 get P0 flags
    assert state.to_json() == expected(4, [16, 15], "-1,-1 F0 -1,0 B0 -1,1 F0 0,0 C0 1,-1 F1 1,0 B1 1,1 F1 2,0 F1")
    assert state.cell(-2, 0) is None
    assert_illegal(state, "B -2,0", exact="B -2,0: outside the 4×4 grid")
    assert_illegal(state, "B 3,0", exact="B 3,0: outside the 4×4 grid")
    assert "B -2,0" not in names(state.legal_moves())


def test_no_flag_outside_the_box_in_either_direction():
    state = after("B 1,0", "B 0,1", size=3)
    # after P1's 1,0 the box is x 0..2, y -1..1 (3×3). P0's 0,1: 1,1 is a 1-1 tie (P1's flag back, 15 -> 16);
    # west -1,1 would make x -1..2 and north 0,2 y -1..2: both 4 > 3, so P0 places no flag (19 - 1 = 18)
    assert state.to_json() == expected(3, [18, 16], "0,0 C0 0,1 B0 1,-1 F1 1,0 B1 2,0 F1")


def test_box_includes_flags_placed_earlier_in_the_same_turn():
    state = after("B 1,0", size=2)
    # N = 2: east 2,0 makes x 0..2 (3 wide): no flag. North 1,1 fits (y 0..1); south 1,-1 would then make
    # y -1..1 with the new flag at 1,1: no flag. 19 - 2 = 17
    assert state.to_json() == expected(2, [19, 17], "0,0 C0 1,0 B1 1,1 F1")


def test_flip_takes_no_tile_and_resolves_the_neighbours():
    state = after("B 1,0", "B -1,0")
    assert state.to_json()["tiles_left"] == [15, 15]
    assert "F 1,1" in names(state.legal_moves())
    state.play("F 1,1")
    # 1,1 becomes P1's base (no tile); east 2,1, west 0,1 (the CITY does not count) and north 1,2 get P1 flags:
    # 15 - 3 = 12
    assert state.to_json() == expected(
        6, [15, 12], "-2,0 F0 -1,-1 F0 -1,0 B0 -1,1 F0 0,0 C0 0,1 F1 1,-1 F1 1,0 B1 1,1 B1 1,2 F1 2,0 F1 2,1 F1"
    )
    assert state.cell(1, 1) == ("base", 1)
    assert names(state.history) == ["B 1,0", "B -1,0", "F 1,1"]
    assert state.to_move == 0


def test_city_counts_as_base_leaves_a_cell_by_the_city_empty_beside_a_flag_until_a_base_comes():
    state = after("B 1,0", city_counts_as_base=True)
    # P1's BASE on 1,0 flags 2,0, 1,1 and 1,-1. Cell 0,1 is next to the CITY (a BASE of P0: 1-0) and to P1's FLAG on
    # 1,1 (a FLAG counts for nobody), but to no BASE: it was not resolved and stays empty (decision q)
    assert state.cell(1, 1) == ("flag", 1)
    assert state.cell(0, 1) is None
    assert state.to_json() == expected(6, [19, 15], "0,0 C0 1,-1 F1 1,0 B1 1,1 F1 2,0 F1")


def test_city_counts_as_base_makes_a_difference():
    moves = ("B 1,0", "B -1,0", "F 1,1")
    plain = after(*moves)
    counted = after(*moves, city_counts_as_base=True)
    # 0,1 after P1 flips 1,1: P1 1 vs P0 0 (plain: P1 flag) or P0 1 via the CITY (counted: tie, empty)
    assert plain.cell(0, 1) == ("flag", 1)
    assert counted.cell(0, 1) is None
    assert plain.to_json()["tiles_left"] == [15, 12]
    assert counted.to_json()["tiles_left"] == [15, 13]
    plain.play("F -1,1")
    counted.play("F -1,1")
    # P0 flips -1,1. Plain: 0,1 is a 1-1 tie, P1's flag goes back (12 -> 13); counted: P0 has -1,1 and the CITY
    # (2) against P1's 1,1 (1) -> P0 flag. Both: west -2,1 and north -1,2 get P0 flags
    common = "-2,0 F0 -2,1 F0 -1,-1 F0 -1,0 B0 -1,1 B0 -1,2 F0 0,0 C0 1,-1 F1 1,0 B1 1,1 B1 1,2 F1 2,0 F1 2,1 F1"
    assert plain.to_json() == expected(6, [13, 13], common)
    assert counted.to_json() == expected(6, [12, 13], common + " 0,1 F0")
    # the CITY stays a CITY in the output either way, and counts once in the score
    assert counted.cell(0, 0) == ("city", 0)
    assert plain.scores() == [7, 6]  # 6 tiles + CITY; 6 tiles
    assert counted.scores() == [8, 6]


def test_legal_moves_bases_in_xy_order_then_flips():
    state = after("B 1,0", "B -1,0")
    # empty cells next to a tile, all inside 6×6 from the box x -2..2, y -1..1; then P1's flags
    assert names(state.legal_moves()) == [
        "B -3,0",
        "B -2,-1",
        "B -2,1",
        "B -1,-2",
        "B -1,2",
        "B 0,-1",
        "B 0,1",
        "B 1,-2",
        "B 1,2",
        "B 2,-1",
        "B 2,1",
        "B 3,0",
        "F 1,-1",
        "F 1,1",
        "F 2,0",
    ]


# ------------------------------------------------------------------------------------------------- end and scoring


def test_game_ends_when_the_grid_is_full():
    state = after("B 1,0", "B 0,1", size=2)
    # 2×2: city, P1's base 1,0, P0's base 0,1 (the 1,1 flag was a tie and went back): not full yet
    assert state.to_json() == expected(2, [18, 18], "0,0 C0 0,1 B0 1,0 B1")
    assert not state.over
    assert state.winners() == []
    assert names(state.legal_moves()) == ["B 1,1"]  # the only cell left inside 2×2
    state.play("B 1,1")
    # 4 = N² tiles: over. Scores 2-2; islands {0,0 0,1} and {1,0 1,1} are both 2 -> shared win
    assert state.to_json() == expected(2, [18, 17], "0,0 C0 0,1 B0 1,0 B1 1,1 B1")
    assert state.over
    assert state.to_move is None
    assert state.legal_moves() == []
    assert state.scores() == [2, 2]
    assert state.winners() == [0, 1]


def test_game_ends_when_a_supply_is_empty():
    state = after("B 1,0", tiles=2)
    # P1 spends both tiles (base 1,0 and flag 2,0): over at once; 1 (CITY) against 2
    assert state.over
    assert state.to_move is None
    assert state.legal_moves() == []
    assert state.scores() == [1, 2]
    assert state.winners() == [1]


def test_game_goes_on_while_every_supply_has_a_tile():
    state = after("B 1,0", tiles=5)
    # 5 - 4 = 1 tile left: the game goes on
    assert state.to_json()["tiles_left"] == [5, 1]
    assert not state.over
    assert state.to_move == 0


def test_scores_count_every_tile_of_your_colour():
    state = after("B 1,0", "B 0,1", "B 2,1")
    # P0: CITY, base 0,1, flags -1,1 and 0,2 = 4. P1: bases 1,0 and 2,1, flags 1,-1, 2,0 (kept, 2 bases),
    # 1,1 (P1 2 vs P0 1), 3,1 and 2,2 = 7
    assert state.scores() == [4, 7]
    assert state.to_json()["tiles_left"] == [16, 12]


def test_equal_scores_broken_by_the_largest_island():
    moves = ["B 0,-1", "B 0,-3", "B 1,0", "F 1,-3", "B 2,-1"]
    state = after(*moves, size=4, tiles=6)
    # traced by hand: the last base spends P1's last tile (2,-2 finds none). P0: CITY + 0,-3 1,-3 -1,-3 2,-3 1,-2;
    # P1: 0,-1 -1,-1 1,-1 1,0 2,0 2,-1
    assert state.to_json() == expected(
        4,
        [1, 0],
        "-1,-3 F0 -1,-1 F1 0,-3 B0 0,-1 B1 0,0 C0 1,-3 B0 1,-2 F0 1,-1 F1 1,0 B1 2,-3 F0 2,-1 B1 2,0 F1",
    )
    assert state.over
    # 6-6; P0's largest group is 5 (the CITY is cut off), P1's six tiles are all connected -> P1 wins
    assert state.scores() == [6, 6]
    assert state.winners() == [1]


def test_shared_win_when_score_and_island_tie():
    state = after("B 0,1", tiles=1)
    # P1's only tile is its base: 1-1, islands 1-1 -> both win
    assert state.over
    assert state.scores() == [1, 1]
    assert state.winners() == [0, 1]


# ------------------------------------------------------------------------------------------------------------ teams


def test_four_players_in_two_teams():
    moves = ["B 1,0", "B 3,0", "B 2,0", "B 2,2", "B 0,1"]
    state = after(*moves, players=4, size=4, tiles=5, teams=2)
    # traced by hand; P1's last tile goes to the flag 0,2, which ends the game
    assert state.to_json() == expected(
        4,
        [2, 0, 2, 3],
        "0,0 C0 0,1 B1 0,2 F1 1,-1 F1 1,0 B1 1,1 F1 1,2 F0 2,-1 F3 2,0 B3 2,2 B0 3,-1 F2 3,0 B2 3,1 F2 3,2 F0",
    )
    assert state.over
    assert state.scores() == [4, 5, 3, 2]  # per player even with teams
    # team 0 = seats 0, 2: 4 + 3; team 1 = seats 1, 3: 5 + 2
    assert state.team_scores() == [7, 7]
    # team 0's largest group is 1,2 2,2 3,2 3,1 3,0 3,-1 (6, across P0 and P2); team 1's seven tiles all touch
    assert state.winners() == [1, 3]


def test_six_players_in_three_teams():
    moves = ["B 1,0", "B 2,1", "B 2,-1", "B 1,1", "B 1,-1", "B 2,0"]
    state = after(*moves, players=6, size=3, tiles=5, teams=3)
    # traced by hand: the 3×3 grid fills on P0's move
    assert state.to_json() == expected(
        3, [4, 4, 4, 4, 3, 3], "0,-1 F5 0,0 C0 0,1 F4 1,-1 B5 1,0 B1 1,1 B4 2,-1 B3 2,0 B0 2,1 B2"
    )
    assert state.over
    assert state.scores() == [2, 1, 1, 1, 2, 2]
    # seat i plays for team i mod 3: {0, 3} 2+1, {1, 4} 1+2, {2, 5} 1+2
    assert state.team_scores() == [3, 3, 3]
    # islands: {2,0 2,-1} = 2; {1,0 1,1 0,1} = 3 (P1 and P4 together); {1,-1 0,-1} = 2 -> team 1 wins
    assert state.winners() == [1, 4]


def test_team_island_own_breaks_a_tie_by_one_members_own_group():
    """Rulebook 001's tie-break names "the player with the most placed tiles orthogonally touching each other"; with
    teams that may be read as one member's own group (``team_island="own"``) or the team's tiles joined (default)."""
    moves = ["B 1,0", "B 2,1", "B 2,-1", "B 1,1", "B 1,-1", "B 2,0"]
    state = after(*moves, players=6, size=3, tiles=5, teams=3, team_island="own")
    assert state.team_scores() == [3, 3, 3]
    # own groups: P0 1 (2,0; the CITY apart), P3 1; P1 1, P4 2 (1,1 0,1); P2 1, P5 2 (1,-1 0,-1): teams 1 and 2
    assert state.winners() == [1, 2, 4, 5]
    assert state.to_json()["team_island"] == "own"
    assert "team_island" not in after(*moves, players=6, size=3, tiles=5, teams=3).to_json()
    game, again = kumiki.read_record(kumiki.write_record(state))
    assert game.options["team_island"] == "own" and again.winners() == [1, 2, 4, 5]
    # without teams every player is a side of one: the two readings are one
    solo = after("B 0,1", players=4, tiles=1, team_island="own")  # 1-1 on tiles and on groups
    assert solo.winners() == after("B 0,1", players=4, tiles=1).winners() == [0, 1]


def test_teams_on_an_early_end():
    state = after("B 1,0", players=4, tiles=2, teams=2)
    # P1: base and flag 2,0, no tile left. Teams {0, 2}: 1 + 0, {1, 3}: 2 + 0
    assert state.scores() == [1, 2, 0, 0]
    assert state.team_scores() == [1, 2]
    assert state.winners() == [1, 3]
    state = after("B 1,0", players=6, tiles=2, teams=2)
    # teams {0, 2, 4}: 1 and {1, 3, 5}: 2
    assert state.team_scores() == [1, 2]
    assert state.winners() == [1, 3, 5]
    state = after("B 0,1", players=4, tiles=1, teams=2)
    # 1-1, islands 1-1 (the CITY and 0,1 are different teams): both teams win
    assert state.team_scores() == [1, 1]
    assert state.winners() == [0, 1, 2, 3]


# ---------------------------------------------------------------------------------------------------------- options


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_option_defaults(players):
    game = kumiki.load_game("kuzushi", players=players)
    size = {2: 6, 3: 7, 4: 8, 5: 9, 6: 10}[players]
    assert game.players == players
    assert game.name == "kuzushi"
    assert game.options == {
        "players": players,
        "size": size,
        "tiles": 19,
        "teams": None,
        "city_counts_as_base": False,
        "majority": "most",
        "team_island": "joined",
    }


def test_default_players_is_two():
    game = kumiki.load_game("kuzushi")
    assert game.players == 2
    assert game.options == {
        "players": 2,
        "size": 6,
        "tiles": 19,
        "teams": None,
        "city_counts_as_base": False,
        "majority": "most",
        "team_island": "joined",
    }


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "size": 2},
        {"players": 2, "size": 20},
        {"players": 6, "size": 2},
        {"players": 2, "size": 8, "tiles": 38},
        {"players": 4, "teams": 2},
        {"players": 6, "teams": 2},
        {"players": 6, "teams": 3},
        {"players": 4, "teams": None},
        {"city_counts_as_base": True},
        {"tiles": 1},
    ],
)
def test_valid_options(options):
    game = kumiki.load_game("kuzushi", **options)
    for name, value in options.items():
        assert game.options[name] == value
    state = game.new_state(seed=1)
    assert state.to_json()["size"] == game.options["size"]
    assert state.to_json()["tiles_left"] == [game.options["tiles"]] * game.players


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"players": 1}, "players"),
        ({"players": 7}, "players"),
        ({"players": 0}, "players"),
        ({"players": 2.5}, "players"),
        ({"players": 2.0}, "players"),
        ({"players": True}, "players"),
        ({"players": "2"}, "players"),
        ({"players": None}, "players"),
        ({"size": 1}, "size"),
        ({"size": 21}, "size"),
        ({"size": -6}, "size"),
        ({"size": "6"}, "size"),
        ({"size": 6.0}, "size"),
        ({"size": True}, "size"),
        ({"tiles": 0}, "tiles"),
        ({"tiles": -1}, "tiles"),
        ({"tiles": "19"}, "tiles"),
        ({"tiles": 19.5}, "tiles"),
        ({"tiles": False}, "tiles"),
        ({"players": 2, "teams": 2}, "teams"),
        ({"players": 3, "teams": 3}, "teams"),
        ({"players": 5, "teams": 2}, "teams"),
        ({"players": 4, "teams": 3}, "teams"),
        ({"players": 4, "teams": 4}, "teams"),
        ({"players": 4, "teams": 1}, "teams"),
        ({"players": 6, "teams": 6}, "teams"),
        ({"players": 6, "teams": 4}, "teams"),
        ({"players": 4, "teams": "2"}, "teams"),
        ({"players": 4, "teams": 2.0}, "teams"),
        ({"players": 4, "teams": True}, "teams"),
        ({"city_counts_as_base": 1}, "city_counts_as_base"),
        ({"city_counts_as_base": "true"}, "city_counts_as_base"),
        ({"city_counts_as_base": None}, "city_counts_as_base"),
        ({"colour": "red"}, "colour"),
        ({"Size": 6}, "Size"),
    ],
)
def test_invalid_options_name_the_option(options, name):
    with pytest.raises(ValueError) as caught:
        kumiki.load_game("kuzushi", **options)
    assert name in str(caught.value)


def test_unknown_game():
    with pytest.raises(ValueError, match="chess"):
        kumiki.load_game("chess")
    assert "kuzushi" in kumiki.games()


# -------------------------------------------------------------------------------------------------- illegal moves


def test_outside_the_grid():
    state = new_state()
    assert_illegal(state, "B 9,9", exact="B 9,9: outside the 6×6 grid")
    assert_illegal(state, "B 6,0", exact="B 6,0: outside the 6×6 grid")
    assert_illegal(state, "B -6,0", exact="B -6,0: outside the 6×6 grid")
    state = new_state(size=3)
    assert_illegal(state, "B 0,-3", exact="B 0,-3: outside the 3×3 grid")
    state = after("B 1,0", size=3)
    # the box is already x 0..2: -1,0 next to the CITY would make it 4 wide
    assert_illegal(state, "B -1,0", exact="B -1,0: outside the 3×3 grid")
    assert_illegal(state, "B 3,0", exact="B 3,0: outside the 3×3 grid")


@pytest.mark.parametrize("cell", ["0,0", "1,0", "2,0", "1,1"])
def test_occupied_cell(cell):
    state = after("B 1,0")  # CITY 0,0, P1's base 1,0 and flags 2,0 1,1
    message = assert_illegal(state, f"B {cell}")
    assert message.startswith(f"B {cell}: ")
    assert "outside" not in message
    assert "not next to" not in message


@pytest.mark.parametrize("cell", ["1,1", "2,0", "-1,-1", "0,2", "0,-5"])
def test_not_next_to_any_tile(cell):
    state = new_state()
    assert_illegal(state, f"B {cell}", exact=f"B {cell}: not next to any tile")


def test_flip_needs_your_own_flag():
    state = new_state()
    assert_illegal(state, "F 1,0", exact="F 1,0: no flag of yours there")  # empty
    assert_illegal(state, "F 0,0", exact="F 0,0: no flag of yours there")  # the CITY
    state = after("B 1,0")  # P0 to move
    assert_illegal(state, "F 2,0", exact="F 2,0: no flag of yours there")  # P1's flag
    assert_illegal(state, "F 1,0", exact="F 1,0: no flag of yours there")  # P1's base
    assert_illegal(state, "F 3,0", exact="F 3,0: no flag of yours there")  # empty
    state = after("B 1,0", "B -1,0")  # P1 to move
    assert_illegal(state, "F 1,0", exact="F 1,0: no flag of yours there")  # its own base
    assert_illegal(state, "F -1,1", exact="F -1,1: no flag of yours there")  # P0's flag
    state.play("F 1,1")  # its own flag is fine


def test_no_move_after_the_game_is_over():
    state = after("B 1,0", tiles=2)
    assert state.over
    for move in ["B 0,1", "B -1,0", "F 2,0", "B 9,9"]:
        assert_illegal(state, move)
    with pytest.raises(kumiki.IllegalMove):
        state.play(KuzushiMove("B", 0, 1))


@pytest.mark.parametrize(
    "text", ["", "   ", "B", "B 1", "B 1,", "B ,0", "B 1,0,0", "X 1,0", "B x,y", "B 1.5,0", "BB 1,0", "pass", "1 B,0"]
)
def test_unparsable_text(text):
    state = after("B 1,0")
    assert_illegal(state, text, error=kumiki.MoveSyntaxError)
    with pytest.raises(kumiki.MoveSyntaxError):
        state.game.parse_move(text)


def test_not_a_move_at_all():
    state = new_state()
    for thing in [None, 10, ("B", 1, 0)]:
        assert_illegal(state, thing)


def test_error_classes():
    assert issubclass(kumiki.MoveSyntaxError, kumiki.IllegalMove)
    assert issubclass(kumiki.IllegalMove, ValueError)


# ---------------------------------------------------------------------------------------------------------- notation


def test_notation_round_trip():
    game = kumiki.load_game("kuzushi")
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.over:
        for move in state.legal_moves():
            text = str(move)
            again = game.parse_move(text)
            assert again == move
            assert hash(again) == hash(move)
            assert str(again) == text
        state.play(rng.choice(state.legal_moves()))


def test_notation_examples():
    game = kumiki.load_game("kuzushi")
    assert str(game.parse_move("B 1,0")) == "B 1,0"
    assert str(game.parse_move("F -1,-2")) == "F -1,-2"
    assert game.parse_move("B -3,12") == KuzushiMove("B", -3, 12)
    assert game.parse_move("F 0,0") != game.parse_move("B 0,0")
    assert str(game.parse_move("b 1,0")) == "B 1,0"
    assert str(game.parse_move("  F  2 , -1 ")) == "F 2,-1"


def test_play_accepts_text_and_moves_alike():
    by_text = after("B 1,0", "B -1,0", "F 1,1")
    by_move = new_state()
    for move in [KuzushiMove("B", 1, 0), KuzushiMove("B", -1, 0), KuzushiMove("F", 1, 1)]:
        by_move.play(move)
    assert by_text.to_json() == by_move.to_json()
    assert by_text.history == by_move.history
    assert all(isinstance(m, kumiki.Move) for m in by_text.history)


# ----------------------------------------------------------------------------------------------------------- variant


@pytest.mark.parametrize("seed", range(4))
def test_seed_variant_8x8_with_38_tiles_runs_to_the_end(seed):
    game = kumiki.load_game("kuzushi", players=2, size=8, tiles=38)
    assert game.options == {
        "players": 2,
        "size": 8,
        "tiles": 38,
        "teams": None,
        "city_counts_as_base": False,
        "majority": "most",
        "team_island": "joined",
    }
    state = game.new_state(seed=seed)
    agent = kumiki.load_agent("random", seed=seed)
    turns = 0
    while not state.over:
        state.play(agent.choose(state))
        turns += 1
        assert turns <= 64
    data = state.to_json()
    assert data["size"] == 8
    assert len(data["cells"]) == 64 or 0 in data["tiles_left"]
    assert state.scores() == [38 - data["tiles_left"][0] + 1, 38 - data["tiles_left"][1]]
    assert state.winners()


# ----------------------------------------------------------------------------------------------------- copy & json


def test_copy_is_independent():
    state = after("B 1,0")
    twin = state.copy()
    twin.play("B 0,1")
    assert state.to_json() == expected(6, [19, 15], "0,0 C0 1,-1 F1 1,0 B1 1,1 F1 2,0 F1")
    assert names(state.history) == ["B 1,0"]
    assert state.to_move == 0
    state.play("B -1,0")
    assert names(twin.history) == ["B 1,0", "B 0,1"]
    assert twin.cell(-1, 0) is None


def test_to_json_is_plain_and_sorted():
    state = after("B 1,0", "B 0,1", "B 2,1")
    data = state.to_json()
    assert set(data) == {"size", "tiles_left", "cells"}
    keys = [(c["x"], c["y"]) for c in data["cells"]]
    assert keys == sorted(keys)
    for cell in data["cells"]:
        assert set(cell) == {"x", "y", "owner", "kind"}
        assert cell["kind"] in ("city", "base", "flag")
        assert state.cell(cell["x"], cell["y"]) == (cell["kind"], cell["owner"])
    # mutating the returned dict does not touch the state
    data["cells"].clear()
    data["tiles_left"][0] = 99
    assert state.to_json()["tiles_left"] == [16, 12]
    assert len(state.to_json()["cells"]) == 11


# ------------------------------------------------------------------------------------- branches unreachable by play


def forge(text: str, tiles_left: list[int], to_move: int, **options):
    """A position written straight into KuzushiState's bitboards (white-box: it uses the engine's internals).

    Used only for the situations legal play never produces; checks that the engine reads it back as written.
    """
    game = kumiki.load_game("kuzushi", **options)
    state = game.new_state()
    n, w = game.size, game.width
    players = game.players
    bases, flags = [0] * players, [0] * players
    occ = occ_t = 0
    cells = layout(text)
    for cell in cells:
        i = (cell["x"] + n) * w + cell["y"] + n
        occ |= 1 << i
        occ_t |= game.transposed[i]
        if cell["kind"] == "base":
            bases[cell["owner"]] |= 1 << i
        elif cell["kind"] == "flag":
            flags[cell["owner"]] |= 1 << i
    city = 1 << game.city_index
    solid = city
    for mask in bases:
        solid |= mask
    if game.city_counts_as_base:
        bases[0] |= city
    state._bases, state._flags, state._tiles = bases, flags, list(tiles_left)
    state._occ, state._occ_t, state._solid, state._count = occ, occ_t, solid, len(cells)
    state._minc = min(c["x"] for c in cells) + n
    state._maxc = max(c["x"] for c in cells) + n
    state._minr = min(c["y"] for c in cells) + n
    state._maxr = max(c["y"] for c in cells) + n
    state.to_move = to_move
    assert state.to_json() == expected(n, list(tiles_left), text)
    return state


class TestBranchesUnreachableByPlay:
    """Rules for cells whose FLAG (or emptiness) no longer matches the majority next to them.

    In legal play a FLAG always belongs to the unique majority owner of its cell, and one turn adds one BASE of the
    mover's next to each resolved cell. So the mover's count rises by one: a FLAG is either kept or (on a tie)
    removed, never handed to someone else, and new FLAGs go to the mover only. (A cell left empty because it was
    outside the box or the mover had no tile has exactly one BASE next to it.) A removed FLAG always has another
    BASE next to it in its own row or column or beyond, so the box never shrinks. These positions are forged.
    """

    def test_flag_for_the_majority_owner_who_is_not_the_mover(self):
        state = forge("0,0 C0 1,0 B0 2,1 B0 3,1 B1", [10, 10], 1)
        state.play("B 3,0")
        # east 4,0: P1 1 -> P1 flag; west 2,0: P0 2 (1,0 2,1) vs P1 1 -> P0's flag (P0 10 -> 9);
        # south 3,-1: P1 flag. P1 10 - 3 = 7
        assert state.to_json() == expected(6, [9, 7], "0,0 C0 1,0 B0 2,0 F0 2,1 B0 3,-1 F1 3,0 B1 3,1 B1 4,0 F1")

    def test_majority_change_replaces_the_flag(self):
        state = forge("0,0 C0 1,0 B0 2,0 F1 2,1 B1", [10, 10], 0)
        state.play("B 2,-1")
        # 2,0: P0 2 (1,0 2,-1) vs P1 1 (2,1) -> P1's flag back (11), P0's flag there; east 3,-1, west 1,-1 and
        # south 2,-2 get P0 flags too: 10 - 1 - 4 = 5
        assert state.to_json() == expected(6, [5, 11], "0,0 C0 1,-1 F0 1,0 B0 2,-2 F0 2,-1 B0 2,0 F0 2,1 B1 3,-1 F0")

    def test_majority_owner_without_a_tile_leaves_the_cell_empty(self):
        state = forge("0,0 C0 1,0 B0 2,0 F1 2,1 B1", [3, 10], 0)
        state.play("B 2,-1")
        # 3 tiles: base, east 3,-1, west 1,-1; at 2,0 P1's flag goes back (11) and P0 has nothing to put there
        assert state.to_json() == expected(6, [0, 11], "0,0 C0 1,-1 F0 1,0 B0 2,-1 B0 2,1 B1 3,-1 F0")
        assert state.cell(2, 0) is None
        assert state.over

    def test_removing_an_edge_flag_shrinks_the_box(self):
        state = forge("0,0 C0 2,0 F1", [1, 10], 0, size=3)
        assert state.bounds() == (0, 0, 2, 0)
        state.play("B 1,0")
        # P0's last tile is the base; 2,0 goes to P0 (1 vs 0): P1's flag back, nothing to place -> box x 0..1
        assert state.to_json() == expected(3, [0, 11], "0,0 C0 1,0 B0")
        assert state.bounds() == (0, 0, 1, 0)


# ------------------------------------------------------------------------------------------- queries for tools and UIs


def test_cell_takes_numpy_coordinates():
    np = pytest.importorskip("numpy")
    state = after("B 1,0")
    # a numpy integer is a whole number, as in play(): 1,0 holds P1's base, 2,0 P1's flag
    assert state.cell(np.int64(1), np.int32(0)) == ("base", 1)
    assert state.has_flag(1, np.int64(2), np.int64(0))
    assert state.cell(np.int64(-5), np.int64(5)) is None


@pytest.mark.parametrize("x", [1.5, "1", None, True])
def test_cell_refuses_a_coordinate_that_is_no_whole_number(x):
    state = after("B 1,0")
    with pytest.raises(ValueError) as info:
        state.cell(x, 0)
    message = str(info.value)
    assert message == f"cell({x!r}, 0): a coordinate is a whole number, not {x!r}"
    assert "\n" not in message


@pytest.mark.parametrize("seat", [2, -1, "0", True, 0.0])
def test_island_refuses_a_seat_of_no_player(seat):
    state = after("B 1,0")
    with pytest.raises(ValueError) as info:
        state.island([0, seat])
    assert str(info.value) == f"island: seat {seat!r} is not in 0…1"


def test_island_takes_numpy_seats():
    np = pytest.importorskip("numpy")
    state = after("B 1,0")
    # P1: base 1,0 and flags 2,0 1,1 1,-1, all joined; P0: the CITY alone, next to P1's base
    assert state.island([np.int64(1)]) == 4
    assert state.island([np.int64(0), 1]) == 5
