"""The TowerBrix solver: its towers really are valid and meet the cards (checked by the judge and Card.holds, not by
the solver), it says "none" on contradictory cards, and the CLI wraps it."""

from __future__ import annotations

import json

import pytest

from kumiki.games.towerbrix import solver
from kumiki.games.towerbrix.bricks import Brick, connected, judge, place
from kumiki.games.towerbrix.cards import Card, load_deck
from kumiki.games.towerbrix.modes import RIVER, map_problems
from kumiki.games.towerbrix.solver import (
    GREEN_IDS,
    Solution,
    bonus,
    build_order,
    challenge_rule,
    library_meets,
    map_offset,
    meets_deck,
    shifted,
    solve,
    solve_cards,
)


def card(rule: str, card_id: str = "T1", deck: str = "green") -> Card:
    return Card(card_id, deck, 2, "a test card", rule)


def assert_valid(bricks: list[Brick], deck: str = "green") -> None:
    """Independent of the solver: the judge, the touch graph, the deck rule, and a replay by lowering."""
    assert meets_deck(bricks, deck)
    assert connected(bricks)
    assert judge(bricks).stands
    rebuilt: dict[str, Brick] = {}
    for b in build_order(bricks):
        rebuilt[b.id] = place(rebuilt, b.id, b.axis, b.box[0], b.box[1])
        assert rebuilt[b.id].box == b.box


RULES = [
    "every red touches table",
    "highest by top is purple|red",
    "at least 1 blue touches all yellow",
    "no yellow is vertical",
    "height >= 5",
]


@pytest.mark.parametrize("seed", [0, 1])
def test_solved_towers_are_valid_and_meet_every_card(seed: int) -> None:
    cards = [card(r, f"T{i}") for i, r in enumerate(RULES)]
    answer = solve(cards, seconds=20, seed=seed)
    assert answer.status == "solved"
    assert_valid(answer.bricks)
    assert all(c.holds(answer.bricks) for c in cards)
    assert answer.bonus == bonus(answer.bricks)


def test_pink_towers_use_every_colour_and_may_leave_bricks_out() -> None:
    cards = [card("no gray touches table", deck="pink"), card("at least 1 red is vertical", "T2", deck="pink")]
    answer = solve(cards, deck="pink", seconds=20)
    assert answer.status == "solved"
    assert_valid(answer.bricks, "pink")
    assert {b.colour for b in answer.bricks} == {"yellow", "purple", "red", "blue", "gray"}
    assert all(c.holds(answer.bricks) for c in cards)


@pytest.mark.slow
def test_contradictory_cards_have_no_tower_in_the_stated_space() -> None:
    cards = [card("highest by top is red"), card("highest by top is blue", "T2")]
    answer = solve(cards, seconds=10)
    assert answer.status == "none"
    assert "library towers" in answer.space and "colouring" in answer.space
    assert answer.bricks == []


def test_unknown_when_time_runs_out_without_refutation() -> None:
    cards = [card("highest by top is red"), card("highest by top is blue", "T2")]
    answer = solve(cards, seconds=0.3, refute=False)
    assert answer.status == "unknown"


def test_bonus_counts_height_and_footprint() -> None:
    column: dict[str, Brick] = {}
    for brick_id in GREEN_IDS[:5]:
        column[brick_id] = place(column, brick_id, "z", 0, 0)
    bricks = list(column.values())
    assert bonus(bricks) == 3 + 2  # 10 units tall, one brick on the table
    assert bonus(bricks[:4]) == 1 + 2  # 8 units: taller than the short side only


def test_challenge_rules() -> None:
    rule, skip = challenge_rule(13)
    assert skip and rule is not None
    assert challenge_rule(2) == (None, False)  # time: nothing to ask of the tower
    with pytest.raises(ValueError, match="challenge 99"):
        challenge_rule(99)
    row = [Brick("Y1", "x", (0, 0, 0, 2, 1, 1)), Brick("Y2", "x", (2, 0, 0, 4, 1, 1))]
    ell = [Brick("Y1", "x", (0, 0, 0, 2, 1, 1)), Brick("Y2", "y", (2, 0, 0, 3, 2, 1))]
    symmetric, _ = challenge_rule(6)
    assert symmetric is not None and symmetric(row) and not symmetric(ell)


def test_a_tower_is_slid_onto_the_map() -> None:
    # Two standing bricks 6 apart fit the river (banks x 0-2 and 5-7) wherever they were built.
    far = [Brick("Y1", "z", (20, 30, 0, 21, 31, 2)), Brick("Y2", "z", (26, 30, 0, 27, 31, 2))]
    offset = map_offset(far, RIVER)
    assert offset is not None
    assert map_problems(shifted(far, *offset), RIVER) == []
    near = [Brick("Y1", "z", (20, 30, 0, 21, 31, 2)), Brick("Y2", "z", (23, 30, 0, 24, 31, 2))]
    assert map_offset(near, RIVER) is None  # 3 apart: one of them is in the river wherever it goes
    rule, _ = challenge_rule(11)
    assert rule is not None and rule(far) and not rule(near)


def test_margin_challenges_use_the_tilt_margin() -> None:
    column: dict[str, Brick] = {}
    for brick_id in GREEN_IDS[:3]:
        column[brick_id] = place(column, brick_id, "z", 0, 0)  # 1 x 1 x 6: tips at atan(0.5 / 3) = 9.5 degrees
    shoddy, _ = challenge_rule(5)
    settled, _ = challenge_rule(12)
    assert shoddy is not None and settled is not None
    assert settled(list(column.values())) and not shoddy(list(column.values()))
    for brick_id in GREEN_IDS[3:7]:
        column[brick_id] = place(column, brick_id, "z", 0, 0)  # 1 x 1 x 14: atan(0.5 / 7) = 4.1 degrees
    assert not settled(list(column.values())) and not shoddy(list(column.values()))


def test_challenge_one_is_met() -> None:
    rule, skip = challenge_rule(1)
    answer = solve([card("every red touches table")], rule=rule, skip_one=skip, seconds=20)
    assert answer.status == "solved"
    assert_valid(answer.bricks)
    assert sum(1 for b in answer.bricks if b.box[2] == 0) <= 2


def test_cli_solve_and_cards(capsys: pytest.CaptureFixture[str]) -> None:
    from kumiki.cli import main

    with pytest.raises(SystemExit) as done:
        main(["cards", "towerbrix", "--json"])
    assert done.value.code == 0
    deck = json.loads(capsys.readouterr().out)
    assert {"id", "deck", "points", "text", "rule"} <= set(deck[0])
    with pytest.raises(SystemExit) as done:
        main(["solve", "towerbrix", "--cards", deck[0]["id"], "--seconds", "20", "--json"])
    assert done.value.code == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "solved"
    bricks = [Brick.from_json(b) for b in answer["bricks"]]
    assert_valid(bricks)
    assert Card(**{k: deck[0][k] for k in ("id", "deck", "points", "text", "rule")}).holds(bricks)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "towerbrix", "--cards", "NOPE", "--json"], "unknown card 'NOPE'"),
        (["solve", "towerbrix", "--cards", "G01", "--deck", "blue"], "blue: no such deck file"),
        (["cards", "towerbrix", "--deck", "blue"], "blue: no such deck file"),
        (["cards", "kozo"], "towerbrix only"),
        (["cards", "x" * 5000], "towerbrix only, not '" + "x" * 38 + "…\n"),  # the 5,000 characters were shown
        (["solve", "towerbrix", "--cards", "G01", "--seconds", "inf"], "--seconds must be a positive number"),
        (["solve", "towerbrix", "--cards", "G01", "--seconds", "nan"], "--seconds must be a positive number"),
        # the message names the value given (it said "(not inf)" for -1 and 0 too)
        (["solve", "towerbrix", "--cards", "G01", "--seconds", "-1"], "and finite, not -1"),
        (["solve", "towerbrix", "--cards", "G01", "--seconds", "0"], "and finite, not 0"),
    ],
)
def test_cli_errors_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    from kumiki.cli import main

    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


MY_DECK = """
deck = "mine"
bricks = "pink"

[[cards]]
id = "M1"
points = 2
text = "The gray brick touches the table."
rule = "every gray touches table"
"""


def test_cli_reads_a_deck_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from kumiki.cli import main

    path = tmp_path / "mine.toml"
    path.write_text(MY_DECK, encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["cards", "towerbrix", "--deck", str(path), "--json"])
    assert done.value.code == 0
    assert [c["id"] for c in json.loads(capsys.readouterr().out)] == ["M1"]
    with pytest.raises(SystemExit) as done:
        main(["solve", "towerbrix", "--deck", str(path), "--cards", "M1", "--seconds", "20", "--json"])
    assert done.value.code == 0
    bricks = [Brick.from_json(b) for b in json.loads(capsys.readouterr().out)["bricks"]]
    assert_valid(bricks, "pink")  # played with the bricks the file names
    assert any(b.id == "G" and b.box[2] == 0 for b in bricks)
    path.write_text(MY_DECK.replace("every gray touches table", "every gray touches tabel"), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["solve", "towerbrix", "--deck", str(path), "--cards", "M1"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert str(path) in err and "M1" in err and err.count("\n") == 1


def test_the_refutation_sweep_agrees_with_checking_each_colouring_in_full() -> None:
    """The sweep computes a library tower's relations once and only swaps colour masks: its answers must be those of
    building every coloured tower anew (the slow, obvious form)."""
    from kumiki.games.towerbrix.solver import _Checker, _colourings, _library, _refute

    contradictory = [card("every red touches table"), card("no red touches table", "T2")]
    checker = _Checker(contradictory, "green", None, False)
    assert _refute(checker, GREEN_IDS, 0.5, deadline=float("inf")).status == "none"
    wanted = [card("highest by top is red"), card("every yellow touches table", "T2")]
    checker = _Checker(wanted, "green", None, False)
    answer = _refute(checker, GREEN_IDS, 0.5, deadline=float("inf"))
    slow = [
        names
        for shape in _library(checker, GREEN_IDS, 0.5)
        for names in _colourings(GREEN_IDS)
        if all(
            c.holds(
                [Brick(n, a, b) for n, (a, b) in zip(names, [(x.axis, x.box) for x in shape.values()], strict=True)]
            )
            for c in wanted
        )
    ]
    assert answer.status == ("solved" if slow else "none")
    if slow:
        assert_valid(answer.bricks)
        assert all(c.holds(answer.bricks) for c in wanted)


def test_none_comes_soon_after_the_sweep() -> None:
    cards = [card("vertical bricks = 0"), card("every horizontal brick touches vertical brick", "T2")]
    answer = solve(cards, seconds=4)
    assert answer.status == "none"
    assert answer.seconds < 3.4  # half the limit (and 0.4 s after the sweep), not 90 % of it


def test_the_solver_builds_a_bridge_on_the_map() -> None:
    from kumiki.games.towerbrix.solver import solve_cards

    answer = solve_cards(["G01", "G09"], "green", challenge=11, seconds=20)
    assert answer.status == "solved"
    assert_valid(answer.bricks)
    assert map_problems(answer.bricks, RIVER) == []  # where it stands, not up to a shift


def test_a_challenge_solution_claims_no_bonus_points() -> None:
    """A challenge scores 1 or 0 with no bonus: the answer's ``bonus`` is what the game would give (it said 5 for a
    tall challenge-9 tower), and the same cards outside a challenge keep their bonus."""
    from kumiki.games.towerbrix.solver import solve_cards

    plain = solve_cards(["G02", "G10"], "green", seconds=10, seed=1)
    challenged = solve_cards(["G02", "G10"], "green", challenge=9, seconds=10, seed=1)
    assert plain.status == challenged.status == "solved"
    assert plain.bonus > 0 and challenged.bonus == 0


def test_a_search_counted_in_steps_gives_the_same_answer_twice() -> None:
    """``iterations`` bounds the search by steps, not the clock: the same seed gives the same tower, and a
    contradictory set is answered "none" (the sweep) or "unknown" (no sweep) when the steps run out."""
    cards = [card(r, f"T{i}") for i, r in enumerate(RULES)]
    first, second = (solve(cards, seed=3, iterations=3000) for _ in range(2))
    assert first.status == "solved"
    assert_valid(first.bricks)
    assert all(c.holds(first.bricks) for c in cards)
    assert [b.to_json() for b in first.bricks] == [b.to_json() for b in second.bricks]
    contradictory = [card("highest by top is red"), card("highest by top is blue", "T2")]
    assert solve(contradictory, iterations=300, refute=False).status == "unknown"
    assert solve(contradictory, iterations=300).status == "none"


@pytest.mark.parametrize("deck", ["green", "pink"])
def test_the_answer_replays_in_the_order_given(deck: str) -> None:
    """The docs: "solved with the tower (the bricks in build order: bottom face first, so the tower can be replayed
    edit by edit)". A program that places ``answer.bricks`` as they come must get that tower (the search's order
    put a brick resting at height 2 first, which then fell to the table)."""
    cards = load_deck(deck)[:4]
    answer = solve(cards, deck, seed=3, iterations=3000)
    assert answer.status == "solved"
    replayed: dict[str, Brick] = {}
    for b in answer.bricks:
        replayed[b.id] = place(replayed, b.id, b.axis, b.box[0], b.box[1])
    assert [replayed[b.id].box for b in answer.bricks] == [b.box for b in answer.bricks]
    assert [b.box[2] for b in answer.bricks] == sorted(b.box[2] for b in answer.bricks)


def test_a_challenge_no_library_tower_can_meet_is_not_answered_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """No tower of the refutation library has exactly one brick on the table (challenge 9), so its sweep answered
    "none" for any cards the search had not met by then: the pink challenge 9 deal of seed 0 (web, one player) was
    "none" at 4 s of 8, and solved at 5.9 s without the sweep. Those cards are not contradictory: such a challenge
    is not swept, as a map is not."""
    assert not library_meets(challenge_rule(9)[0], "pink")
    assert library_meets(challenge_rule(12)[0], "green")  # where some library tower has the shape, it is swept
    swept: dict[int, bool] = {}

    def spy(*args: object, **kwargs: object) -> Solution:
        swept[len(swept)] = bool(kwargs["refute"])
        return Solution("unknown")

    monkeypatch.setattr(solver, "solve", spy)
    solve_cards(["P27", "P02", "P42"], deck="pink", challenge=9, seconds=1)
    solve_cards(["G03"], challenge=12, seconds=1)
    solve_cards(["G03"], seconds=1)
    assert swept == {0: False, 1: True, 2: True}


def _map_hand(challenge: int, seed: int) -> list[str]:
    """The cards of the one-player challenge game of ``seed`` (as ``bench.towerbrix_maps`` deals them)."""
    import kumiki

    options = {"players": 1, "mode": "challenge", "challenge": challenge, "rounds": 1, "attempts": 1}
    return list(kumiki.load_game("towerbrix", **options).new_state(seed=seed).hands[0])


def test_a_swamp_hand_is_solved_within_the_hints_steps() -> None:
    """The swamp's one start tower had a single brick that carried nothing, and the search restarted from random
    towers, which never meet a map: the hand of the swamp game of seed 7 was ``unknown`` at 6,000 steps (the hint's)
    and after 10 s. From the start towers of MAP_TOWERS, in turn, it is solved, on the swamp where it stands, and the
    same tower twice."""
    cards = _map_hand(14, 7)
    answer = solve_cards(cards, challenge=14, steps=6000)
    assert answer.status == "solved", answer
    assert_valid(answer.bricks)
    assert map_problems(answer.bricks, solver.MAPS[14]) == []
    deck = {c.id: c for c in load_deck("green")}
    assert all(deck[c].holds(answer.bricks) for c in cards)
    again = solve_cards(cards, challenge=14, steps=6000)
    assert [b.to_json() for b in again.bricks] == [b.to_json() for b in answer.bricks]


def test_a_stale_search_on_a_map_restarts_from_a_start_tower(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stale search on a map began again from a random tower, which never meets the map (a blind search almost never
    builds a bridge), so the rest of the steps were lost; it now restarts from the next tower of MAP_TOWERS."""
    begun: list[frozenset[tuple[float, ...]]] = []
    real = solver._begin

    def begin(*args, **kwargs):  # type: ignore[no-untyped-def]
        tower = real(*args, **kwargs)
        begun.append(frozenset(b.box for b in tower.values()))
        return tower

    def no_random_tower(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a random tower on a map")

    monkeypatch.setattr(solver, "_begin", begin)
    monkeypatch.setattr(solver, "random_tower", no_random_tower)
    # A rule no tower meets, and no bonus to gain (a box no tower outgrows): every step is stale.
    towers = solver.map_starts(14)
    answer = solve([], rule=lambda bricks: False, starts=towers, iterations=2000, box=(99.0, 99.0), refute=False)
    assert answer.status == "unknown"
    starts = [frozenset(b.box for b in tower) for tower in solver.map_starts(14)]
    assert len(begun) >= 2 and begun == [starts[k % len(starts)] for k in range(len(begun))]


@pytest.mark.parametrize("challenge", [11, 14])
def test_the_fast_map_fit_agrees_with_the_maps_rule(challenge: int) -> None:
    """``map_offset`` checks each shift inline (``modes.map_problems`` on every shift was nine tenths of a swamp
    search's time): on the footprints of random towers and the start towers, the first shift it finds is the first
    that map_problems accepts, shifts tried in the same order."""
    import random

    ground = solver.MAPS[challenge]
    rng = random.Random(3)
    checker = solver._Checker([], "green", None, False)
    towers = [
        *solver.map_starts(challenge),
        *(list(solver.random_tower(rng, GREEN_IDS, checker).values()) for _ in range(8)),
    ]
    for tower in towers:
        table = sorted(b.box for b in tower if b.box[2] == 0)
        ox, oy = min(b[0] for b in table), min(b[1] for b in table)
        footprint = tuple((b[0] - ox, b[1] - oy, b[3] - ox, b[4] - oy) for b in table)
        expected = None
        x0, y0, x1, y1 = ground.area
        for dx in solver._steps(x0 - max(b[2] for b in footprint), x1, 0.5):
            for dy in solver._steps(y0 - max(b[3] for b in footprint), y1, 0.5):
                moved = [Brick("Y1", "z", (b[0] + dx, b[1] + dy, 0.0, b[2] + dx, b[3] + dy, 1.0)) for b in footprint]
                if expected is None and not map_problems(moved, ground):
                    expected = (dx, dy)
        assert solver._fit(footprint, ground, 0.5) == expected


def test_challenge_12s_threshold_is_the_one_asked_for() -> None:
    """``kumiki solve --challenge 12`` asked the solver for the default 6° whatever the game's ``pull_deg``: a tower it
    gave could fail a game played at 20°. Now the threshold is passed on, and checked like the game's option."""
    answer = solve_cards(["G03"], challenge=12, steps=3000, pull_deg=20.0)
    assert answer.status == "solved"
    assert judge(answer.bricks, margin=True).margin_deg >= 20.0
    with pytest.raises(ValueError, match=r"pull_deg \(--pull-deg\) is an angle from 0 to 90 degrees, not 100"):
        solve_cards(["G03"], challenge=12, seconds=1, pull_deg=100.0)
