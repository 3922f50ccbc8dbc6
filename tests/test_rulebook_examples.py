"""The rulebooks' own worked examples and checkable figures, each rebuilt with the engine.

Each test names the rulebook (docs/rules/<game>.md lists them: 000 Kozo, 001 and 004 Kuzushi, 002 TowerBrix,
003 Blokus 3D) and quotes the sentence whose answer it asserts. Examples already reproduced elsewhere in tests/ are
not repeated here; the list of which test covers which example is in the docstring of each section.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import kumiki
from kumiki.games.towerbrix.cards import load_deck
from kumiki.games.towerbrix.conditions import Tower
from kumiki.games.towerbrix.moves import lowered
from kumiki.games.towerbrix.scoring import verdict

# ------------------------------------------------------------------------------------------------ Kuzushi (001, 004)

# Two random games on the default 2-player 6×6 grid (random.Random(seed).choice over legal_moves(), seeds 39 and 11),
# kept as move lists: both end with the grid full, as the example game of rulebook 001 does.
FULL_19_17 = [
    "B 0,-1",
    "B 0,1",
    "B 0,3",
    "B -2,-1",
    "B -1,-1",
    "B 1,-2",
    "B 2,3",
    "B -3,-2",
    "B 1,2",
    "F -3,-1",
    "F -1,0",
    "F -3,0",
    "B 0,-2",
    "F 2,-2",
    "B -3,2",
    "B -1,2",
    "B 2,1",
    "B -2,1",
    "F -3,3",
    "B -1,3",
    "B 0,2",
    "F -2,2",
    "F -1,-2",
    "F -1,1",
    "B 1,-1",
    "F -2,0",
    "F 2,0",
]
FULL_18_18 = [
    "B 1,0",
    "B 3,0",
    "B 2,1",
    "B 3,1",
    "B 2,3",
    "B 1,4",
    "F 1,1",
    "F 0,4",
    "B 1,3",
    "B 0,-1",
    "F 2,0",
    "B 4,2",
    "B -1,3",
    "B -1,1",
    "B 4,4",
    "F 4,0",
    "F 3,3",
    "F 4,-1",
    "B -1,2",
    "F 3,-1",
    "F 1,2",
    "B 1,-1",
    "B -1,4",
    "F 4,1",
    "F 2,2",
    "B 0,1",
    "B 2,4",
    "B 3,2",
]


def kuzushi_after(moves: list[str]):
    state = kumiki.load_game("kuzushi", players=2).new_state(seed=0)
    for move in moves:
        state.play(move)
    return state


def counted_on_the_board(state) -> tuple[list[int], list[int]]:
    """Each seat's tiles on the board (the CITY its owner's) and its largest orthogonal group, counted from
    ``to_json()`` cell by cell, apart from the engine's bitboards: the scores and islands asserted are not only the
    engine's word."""
    owner = {(c["x"], c["y"]): c["owner"] for c in state.to_json()["cells"]}
    tiles, largest = [0, 0], [0, 0]
    seen: set[tuple[int, int]] = set()
    for start, seat in owner.items():
        tiles[seat] += 1
        if start in seen:
            continue
        group, todo = 0, [start]
        seen.add(start)
        while todo:
            x, y = todo.pop()
            group += 1
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if owner.get(near) == seat and near not in seen:
                    seen.add(near)
                    todo.append(near)
        largest[seat] = max(largest[seat], group)
    return tiles, largest


def test_kuzushi_001_example_game_white_wins_19_17_on_a_full_6x6_board():
    """001: "Play continues until the 6×6 board is completely filled. In this game, White WINS 19-17." Black plays
    the CITY (seat 0), White moves first (seat 1); 19 + 17 = 36 = the full grid, so White has played all 19 tiles."""
    state = kuzushi_after(FULL_19_17)
    assert state.over
    assert len(state.to_json()["cells"]) == 36
    assert state.scores() == [17, 19] == counted_on_the_board(state)[0]
    assert state.tiles_left() == [3, 0]
    assert state.winners() == [1]


def test_kuzushi_001_counting_unplayed_tiles_gives_the_same_result():
    """001: "you may score a game by counting the number of unplayed tiles for each player – BUT remember to subtract
    1 from player 1's tile count to take their CITY tile into account" (player 1 of the book is seat 0)."""
    for moves in (FULL_19_17, FULL_18_18):
        state = kuzushi_after(moves)
        unplayed = state.tiles_left()
        unplayed[0] -= 1  # the CITY
        assert [19 - u for u in unplayed] == state.scores()
        fewest = min(unplayed)
        by_count = [seat for seat, u in enumerate(unplayed) if u == fewest]
        if len(by_count) == 1:
            assert state.winners() == by_count


def test_kuzushi_001_a_18_18_tie_goes_to_the_largest_island():
    """001: "If the game had TIED 18-18, White would win on tie-breaks because they have the largest 'island' of
    adjacent tiles of their color." (004: "the player with the largest 'island' ... breaks the tie")."""
    state = kuzushi_after(FULL_18_18)
    assert state.over and len(state.to_json()["cells"]) == 36  # ended by the full grid: both still hold tiles
    assert state.tiles_left() == [2, 1]
    assert state.scores() == [18, 18]
    assert (state.island([0]), state.island([1])) == (16, 18)
    assert counted_on_the_board(state) == ([18, 18], [16, 18])
    assert state.winners() == [1]


def test_kuzushi_004_every_player_gets_19_cards_for_2_to_6_players():
    """004: "Kuzushi is an area control board game for 2-6 ... Each player should get 19 cards of their color", the
    CITY set aside (001: "from 19 to 38 of each color, not including the CITY")."""
    for players in range(2, 7):
        state = kumiki.load_game("kuzushi", players=players).new_state(seed=0)
        assert state.tiles_left() == [19] * players
        assert state.scores() == [1] + [0] * (players - 1)  # the CITY counts for its owner


# ------------------------------------------------------------------------------------------------- TowerBrix (002)

# Eleven standing bricks tall, two bricks on the table: two pillars, a lintel, then a column centred over a pillar.
TALL_ON_TWO = ["Y1 z 0,0", "Y2 z 1,0", "P1 x 0,0", "P2 z 0,0", "R1 z 0,0", "R2 z 0,0", "B1 x -0.5,0", "B2 x -0.5,0"]


def deck_file(tmp_path: Path, cards: list[tuple[str, int, str]], bricks: str = "green") -> str:
    """A deck of the given ``(id, points, rule)`` cards."""
    lines = ['deck = "book"', f'bricks = "{bricks}"']
    for card_id, points, rule in cards:
        lines += ["[[cards]]", f'id = "{card_id}"', f"points = {points}", 'text = "A card."', f'rule = "{rule}"']
    path = tmp_path / "book.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# The cards of evaluation example 1 with the points on their backs; every one holds for any tower.
EXAMPLE_1 = [
    ("B9", 3, "bricks >= 1"),
    ("B28", 2, "bricks >= 1"),
    ("B34", 3, "bricks >= 1"),
    ("B35", 2, "bricks >= 1"),
    ("B40", 2, "bricks >= 1"),
]


def tall_tower_on_two_evaluated(
    tmp_path: Path, cards: list[tuple[str, int, str]], total: int
) -> tuple[Any, Any, dict[str, Any]]:
    """Five players dealt exactly ``cards`` (a deck of them, at their points' ``total``) build ``TALL_ON_TWO`` and all
    say ok: the game, the state and the evaluation of the build."""
    game = kumiki.load_game("towerbrix", players=5, deck=deck_file(tmp_path, cards), total=total)
    state = game.new_state(seed=1)
    assert sorted(state.dealt()) == sorted(card for card, _, _ in cards)
    for edit in TALL_ON_TWO:
        state.play(edit)
    for _ in range(5):
        state.play("ok")
    return game, state, state.evaluations[-1]


def test_towerbrix_evaluation_example_1_scores_12_plus_5_bonus_17(tmp_path):
    """002: "B9: 3 points, B28: 2, B34: 3, B35: 2, B40: 2 = 12 points. There are also five bonus points because the
    tower is higher than the long side of the box (3 points) and only two bricks touch the playing surface (2 points).
    = 17 points"."""
    _, state, evaluation = tall_tower_on_two_evaluated(tmp_path, EXAMPLE_1, total=12)
    assert evaluation["success"], evaluation["problems"]
    assert evaluation["bonus"] == 3 + 2
    assert evaluation["points"] == 17
    assert state.score() == 17


def test_towerbrix_evaluation_example_2_an_unmet_card_repeats_the_round_lower(tmp_path):
    """002: "in addition to the cards above, card B48 is also in play. You have not fulfilled card B48 and therefore
    have not completed the round. In this case, you would repeat the round and draw new cards for a lower difficulty
    level than before." (B48's points are not given; 2 here.)"""
    cards = [*EXAMPLE_1, ("B48", 2, "height >= 40")]
    game, state, evaluation = tall_tower_on_two_evaluated(tmp_path, cards, total=14)
    assert not evaluation["success"] and evaluation["points"] == 0
    assert state.score() == 0
    assert (state.round, state.attempt) == (0, 2)  # the same round again
    assert state.total < 14  # at a lower total
    assert sum(game.cards[c].points for c in state.dealt()) == state.total


def test_towerbrix_medium_example_three_threes_and_two_twos_make_13_for_four_players(tmp_path):
    """002: "you draw three three-point cards and two two-point cards. Your cards then have a total value of 13 ...
    Since there are four of you playing, each of you receives one card. You decide together who will receive the
    fifth card" — and 13 is medium ("Medium 13 – 19")."""
    cards = [(f"M{i}", 3, "bricks >= 1") for i in range(3)] + [(f"N{i}", 2, "bricks >= 1") for i in range(2)]
    state = kumiki.load_game("towerbrix", players=4, deck=deck_file(tmp_path, cards), total=13).new_state(seed=3)
    assert sorted(len(hand) for hand in state.hands) == [1, 1, 1, 2]
    assert sorted(state.game.cards[c].points for c in state.dealt()) == [2, 2, 3, 3, 3]


def test_towerbrix_challenge_example_three_twos_and_two_threes_are_easy_12(tmp_path):
    """002 (challenges): "Easy 12 ... You draw three two-point cards and two three-point cards. This gives you a total
    value of 12."."""
    cards = [(f"M{i}", 3, "bricks >= 1") for i in range(2)] + [(f"N{i}", 2, "bricks >= 1") for i in range(3)]
    game = kumiki.load_game(
        "towerbrix", players=2, mode="challenge", challenge=1, difficulty="easy", deck=deck_file(tmp_path, cards)
    )
    state = game.new_state(seed=1)
    assert state.total == 12
    assert sorted(game.cards[c].points for c in state.dealt()) == [2, 2, 2, 3, 3]


def test_towerbrix_intro_example_five_players_draw_six_cards_in_round_two(monkeypatch):
    """002 (intro): "There are five of you and you have just played your first round with five cards ... For this,
    you draw six new cards ... everyone now has one card face down in front of them, one card remains"; round 3:
    number of players + 2."""
    game = kumiki.load_game("towerbrix", mode="intro", players=5)
    state = game.new_state(seed=4)
    monkeypatch.setattr(type(game.deck[0]), "check", lambda self, tower: True)
    for expected in ([1, 1, 1, 1, 1], [1, 1, 1, 1, 2], [1, 1, 1, 2, 2]):
        assert sorted(len(hand) for hand in state.hands) == expected
        assert all(game.cards[c].points == 2 for c in state.dealt())
        for edit in TALL_ON_TWO:
            state.play(edit)
        for _ in range(5):
            state.play("ok")
        assert state.evaluations[-1]["success"]
    assert state.over and state.score() == 3


def test_towerbrix_intro_uses_the_28_two_point_green_cards_and_no_gray():
    """002 (intro): "Take the 28 two-point green cards ... You do not need the gray brick for this variant."."""
    game = kumiki.load_game("towerbrix", mode="intro", players=2)
    state = game.new_state(seed=0)
    stacks = state.to_json()["stacks"]
    assert (stacks["2"] + len(state.dealt()), stacks["3"]) == (28, 0)
    assert all(game.cards[c].points == 2 and game.cards[c].deck == "green" for c in state.dealt())
    with pytest.raises(kumiki.IllegalMove):
        state.play("G x 0,0")


@pytest.mark.parametrize(
    ("score", "band"),
    [(0, 0), (39, 0), (40, 1), (49, 1), (50, 2), (59, 2), (60, 3), (69, 3), (70, 4), (79, 4), (80, 5), (120, 5)],
)
def test_towerbrix_scoring_table_bands(score, band):
    """002: "39 or fewer | 40–49 | 50–59 | 60–69 | 70–79 | 80 or more"."""
    bands = [verdict(low) for low in (0, 40, 50, 60, 70, 80)]
    assert len(set(bands)) == 6
    assert verdict(score) == bands[band]


def test_towerbrix_example_tower_2_the_highest_point_decides_the_highest_brick():
    """002: "Although the purple and yellow bricks are both at the top of this tower, the purple brick counts as the
    'highest brick' because its highest point is higher than the yellow one." (card G03: purple or red highest)."""
    g03 = next(card for card in load_deck("green") if card.id == "G03")
    # two blue bricks lie on the table; a yellow brick lies on one (top 2), a purple one stands on the other (top 3)
    tower = lowered(["B1 x 0,0", "B2 x 0,1", "Y1 x 0,0", "P1 z 0,1"]).values()
    assert g03.check(Tower(tower))
    # a yellow brick standing as high as the purple one is a highest brick too, and it is neither purple nor red
    tower = lowered(["B1 x 0,0", "B2 x 0,1", "Y1 z 0,0", "P1 z 0,1"]).values()
    assert not g03.check(Tower(tower))


def test_towerbrix_example_tower_3_two_highest_bricks_of_the_same_height_both_count():
    """002: "Since the purple and red bricks are the same height, both count as the 'highest bricks.' However, both
    do not necessarily have to be the same color, since the condition only states that the highest brick must be
    purple or red."."""
    g03 = next(card for card in load_deck("green") if card.id == "G03")
    tower = lowered(["B1 x 0,0", "B2 x 0,1", "Y1 x 0,0", "P1 z 0,1", "R1 z 1,1"]).values()
    assert g03.check(Tower(tower))


def test_towerbrix_pink_example_conditions_apply_only_to_the_bricks_used():
    """002 (pink): "'Every blue brick touches at least one red brick' would mean that every blue brick in the tower
    must touch at least one red brick in the tower. It does not mean that both blue bricks must be used."."""
    card = next(
        c for c in load_deck("pink") if c.text == "Each blue brick in the tower touches at least one red brick."
    )
    one_blue = lowered(["R1 x 0,0", "B1 x 0,1", "Y1 x 2,0", "P1 x 2,1", "G x 0,2"]).values()
    assert card.check(Tower(one_blue))
    apart = lowered(["R1 x 0,0", "Y1 x 0,1", "B1 x 0,2", "P1 x 2,0", "G x 2,1"]).values()
    assert not card.check(Tower(apart))


def test_towerbrix_materials_9_bricks_50_green_and_55_pink_cards():
    """002: "9 Bricks", "50 Green condition cards: 28 two-point, 22 three-point"; pink: "32 two-point, 23
    three-point"; green uses 2 bricks of each of four colours, pink all nine."""
    green, pink = load_deck("green"), load_deck("pink")
    assert (len(green), sum(c.points == 2 for c in green), sum(c.points == 3 for c in green)) == (50, 28, 22)
    assert (len(pink), sum(c.points == 2 for c in pink), sum(c.points == 3 for c in pink)) == (55, 32, 23)
    assert kumiki.load_game("towerbrix", deck="pink").new_state(seed=0).to_json()["bricks"] == []
    state = kumiki.load_game("towerbrix", deck="pink").new_state(seed=0)
    state.play("G x 0,0")  # the gray brick is among the pink deck's bricks


# ------------------------------------------------------------------------------------------------- Blokus 3D (003)


def test_blokus3d_003_components_100_squares_44_pieces_11_shapes_a_colour_4_masks():
    """003: "rotating turntable with 100 squares", "44 Blokus pieces in 4 colors", "Each of the 11 pieces in a given
    color has a different shape", masks for structures A, B, C, D."""
    for structure in "ABCD":
        state = kumiki.load_game("blokus3d", players=4, structure=structure).new_state(seed=0)
        shown = state.to_json()
        assert len(shown["limits"]) == 10 and all(len(column) == 10 for column in shown["limits"])
        left = shown["pieces_left"]
        assert len(left) == 4 and sum(len(pieces) for pieces in left) == 44
        assert all(len(set(pieces)) == 11 for pieces in left)


def test_blokus3d_003_an_unplaced_piece_costs_a_point_as_greens_5_minus_1():
    """003 fig. 7: "green earns 4 points (5 points minus a remaining piece)": one point per visible top square, minus
    one per piece not placed; every colour starts at 0 - 11."""
    state = kumiki.load_game("blokus3d", players=4).new_state(seed=0)
    assert state.scores() == [-11] * 4
    rng = random.Random(5)
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    shown = state.to_json()
    tops: dict[tuple[int, int], int] = {}
    for cube in sorted(shown["cubes"], key=lambda c: c["z"]):
        tops[(cube["x"], cube["y"])] = cube["colour"]
    for colour in range(4):
        visible = sum(1 for owner in tops.values() if owner == colour)
        assert state.colour_scores()[colour] == visible - len(shown["pieces_left"][colour])
