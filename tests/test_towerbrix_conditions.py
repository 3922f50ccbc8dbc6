"""The condition language: every primitive on towers built for it, true and false, and the error messages."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from tests.helpers import race

from kumiki.games.towerbrix.bricks import Brick, place, rests_on, touching
from kumiki.games.towerbrix.conditions import ConditionError, Tower, holds, parse_rule
from kumiki.games.towerbrix.moves import lowered


def build(*edits: str) -> list[Brick]:
    """Bricks dropped in order, each edit ``ID axis x,y`` as in the notation."""
    return list(lowered(edits).values())


# R1 and B1 stand side by side on the table, P1 lies across both, Y2 stands on P1, Y1 lies on the table behind R1/B1.
#   R1 (0,0,0)-(1,1,2)  B1 (1,0,0)-(2,1,2)  P1 (0,0,2)-(2,1,3)  Y2 (0,0,3)-(1,1,5)  Y1 (0,1,0)-(2,2,1)
TOWER = build("R1 z 0,0", "B1 z 1,0", "P1 x 0,0", "Y1 x 0,1", "Y2 z 0,0")


def check(rule: str, expected: bool, bricks: list[Brick] = TOWER) -> None:
    assert holds(rule, bricks) is expected, rule


def test_the_tower_is_as_described() -> None:
    boxes = {b.id: b.box for b in TOWER}
    assert boxes == {
        "R1": (0, 0, 0, 1, 1, 2),
        "B1": (1, 0, 0, 2, 1, 2),
        "P1": (0, 0, 2, 2, 1, 3),
        "Y1": (0, 1, 0, 2, 2, 1),
        "Y2": (0, 0, 3, 1, 1, 5),
    }


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("every red touches table", True),
        ("every yellow touches table", False),
        ("no purple touches table", True),
        ("no blue touches table", False),
        ("at least 3 brick touches table", True),
        ("at least 4 brick touches table", False),
        ("at most 3 brick touches table", True),
        ("at most 2 brick touches table", False),
        ("exactly 3 brick touches table", True),
        ("exactly 2 brick touches table", False),
        ("none yellow touches blue|red", False),
        ("each purple touches yellow", True),
    ],
)
def test_quantifiers(rule: str, expected: bool) -> None:
    check(rule, expected)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("every red is vertical", True),
        ("every yellow is vertical", False),
        ("every purple is horizontal", True),
        ("every blue is horizontal", False),
        ("exactly 1 vertical yellow touches purple", True),
        ("at least 1 horizontal yellow touches purple", False),
        ("every vertical brick is red|blue|yellow", True),
        ("every vertical brick is red", False),
        ("every brick is brick", True),
    ],
)
def test_orientation_groups_and_colour_predicates(rule: str, expected: bool) -> None:
    check(rule, expected)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("every purple touches yellow", True),
        ("every yellow touches blue", False),  # Y2 only touches P1
        ("at least 1 purple touches all red|blue", True),
        ("at least 1 purple touches all yellow", False),
        ("every red touches all blue", True),
        ("every purple touches exactly 3 brick", True),
        ("every purple touches exactly 2 brick", False),
        ("at least 1 brick touches at least 3 brick", True),
        ("at least 1 brick touches at least 4 brick", False),
        ("every brick touches at most 3 brick", True),
        ("every brick touches at most 2 brick", False),
        ("every vertical yellow touches no red|blue", True),
        ("every horizontal yellow touches no red|blue", False),
        ("every red touches none yellow", False),
        ("every red touches vertical blue", True),
        ("every red touches horizontal blue", False),
    ],
)
def test_touches(rule: str, expected: bool) -> None:
    check(rule, expected)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("every purple rests on all red|blue", True),
        ("every purple rests on all brick", False),  # not on Y1 or Y2
        ("at least 1 yellow rests on purple", True),
        ("every yellow rests on purple", False),
        ("every red rests on table", True),
        ("every yellow rests on table", False),
        ("every purple rests on exactly 2 brick", True),
        ("every purple rests on at least 3 brick", False),
        ("every purple carries yellow", True),
        ("every red carries purple", True),
        ("at least 1 yellow carries brick", False),
        ("no brick carries red", True),
        ("no brick carries purple", False),
        ("no brick rests on yellow", True),
        ("every blue carries no brick", False),
    ],
)
def test_rests_on_and_carries(rule: str, expected: bool) -> None:
    check(rule, expected)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("every vertical yellow is above all red|blue|purple", True),
        ("every purple is above all red|blue", True),  # resting on them counts as entirely above
        ("every purple is above all yellow", False),
        ("at least 1 purple is above yellow", True),  # above Y1
        ("at least 1 yellow is below all purple", True),
        ("every yellow is below purple", False),
        ("every red is below all yellow", False),  # Y1 lies beside R1, not above it
        ("every red is above brick", False),
    ],
)
def test_entirely_above_and_below(rule: str, expected: bool) -> None:
    check(rule, expected)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("highest by top is yellow", True),
        ("highest by top is purple|red", False),
        ("highest by top is vertical", True),
        ("lowest by top is yellow", True),  # Y1, top 1
        ("lowest by top is vertical", False),
        ("highest by bottom is yellow", True),
        ("highest by bottom is purple", False),
        ("lowest by bottom is red|blue|yellow", True),
        ("lowest by bottom is red|blue", False),  # Y1 ties on the table
        ("at least 1 yellow is highest by top", True),
        ("at least 1 red is highest by top", False),
        ("exactly 3 brick is lowest by bottom", True),
        ("every red is lowest by top", False),
    ],
)
def test_highest_and_lowest(rule: str, expected: bool) -> None:
    check(rule, expected)


def test_a_towers_verdicts_are_kept_and_dropped_when_it_is_recoloured() -> None:
    # A search reads one tower's cards from several places (its own score, the others' value): each rule's verdict
    # is kept on the tower. The refutation sweep recolours one shape in place: the kept verdicts must go.
    tower = Tower(TOWER)
    rule = parse_rule("highest by top is yellow")
    assert rule.evaluate(tower) and tower.memo == {rule.text: True}
    tower.recolour({**dict.fromkeys(tower.colour, 0), "red": tower.colour["yellow"], "yellow": tower.colour["red"]})
    assert not rule.evaluate(tower) and parse_rule("highest by top is red").evaluate(tower)


def test_ties_count_every_tied_brick() -> None:
    # P1 and R1 lie flat on the table side by side: both are the highest (top 1).
    purple_red = build("P1 x 0,0", "R1 x 0,1")
    purple_yellow = build("P1 x 0,0", "Y1 x 0,1")
    check("highest by top is purple|red", True, purple_red)
    check("highest by top is purple", False, purple_red)
    check("highest by top is purple|red", False, purple_yellow)
    check("exactly 2 brick is highest by top", True, purple_red)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("height = 5", True),
        ("height >= 6", False),
        ("height > 4.5", True),
        ("height < 5", False),
        ("height <= 5", True),
        ("height != 5", False),
        ("height == 5", True),
        ("bricks = 5", True),
        ("bricks >= 6", False),
        ("bricks on table = 3", True),
        ("bricks on table <= 2", False),
        ("vertical bricks = 3", True),
        ("vertical bricks >= 4", False),
        ("horizontal bricks = 2", True),
        ("horizontal bricks < 2", False),
    ],
)
def test_measures(rule: str, expected: bool) -> None:
    check(rule, expected)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("exactly 1 red", True),
        ("exactly 2 yellow", True),
        ("at least 2 red", False),
        ("no gray", True),
        ("every gray touches table", True),  # vacuous: no gray brick in use
        ("no gray touches table", True),
        ("at least 1 gray touches table", False),
        ("at least 1 red touches all gray", True),  # "all" over no brick is vacuous
        ("every red touches all red", True),  # a brick is not among the others it must touch
        ("every red touches red", False),  # ... but "some red" needs another red brick
        ("every yellow touches yellow", False),
        ("highest by top is gray", False),
    ],
)
def test_counting_groups_and_vacuous_truth(rule: str, expected: bool) -> None:
    check(rule, expected)


def test_vacuous_extremes_on_an_empty_tower() -> None:
    check("highest by top is gray", True, [])
    check("height = 0", True, [])
    check("at least 1 brick", False, [])


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("not every yellow touches table", True),
        ("not not height = 5", True),
        ("height = 5 and bricks = 4", False),
        ("height = 5 or bricks = 4", True),
        ("not (height = 5 or bricks = 4)", False),
        ("bricks = 4 and height = 5 or height = 5", True),  # "and" binds tighter than "or"
        ("bricks = 4 and (height = 5 or height = 5)", False),
        ("every purple not touches table", True),
        ("every yellow not touches blue", False),  # Y1 touches B1
        ("Every RED Touches Table", True),
        ("at least 1 red touch table", True),
        ("at least 2 brick are vertical", True),
        ("every grey touches table", True),
    ],
)
def test_logic_and_spelling(rule: str, expected: bool) -> None:
    check(rule, expected)


def test_a_red_brick_touching_both_purple_bricks() -> None:
    # R1 lies between P1 and P2 on the table; B1 on top touches only R1.
    between = build("P1 x 0,0", "R1 x 0,1", "P2 x 0,2", "B1 x 0,1")
    check("at least 1 red touches all purple", True, between)
    check("every blue touches at least 1 red", True, between)
    apart = build("P1 x 0,0", "R1 x 0,1", "B1 x 0,2", "P2 x 0,3")
    check("at least 1 red touches all purple", False, apart)
    check("every blue touches at least 1 red", True, apart)
    check("every purple touches blue", False, apart)


def test_the_shared_tower_matches_the_brick_relations() -> None:
    rng = random.Random(3)
    ids = ("Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2", "G")
    for _ in range(30):
        bricks: dict[str, Brick] = {}
        for brick_id in ids:
            bricks[brick_id] = place(bricks, brick_id, rng.choice("xyz"), rng.randrange(6) / 2, rng.randrange(6) / 2)
        items = list(bricks.values())
        tower = Tower(items)
        for i, a in enumerate(items):
            for j, b in enumerate(items):
                assert bool(tower.touch[i] >> j & 1) == (i != j and touching(a, b))
                assert bool(tower.rests_on[i] >> j & 1) == (i != j and rests_on(a, b))
                assert bool(tower.carries[i] >> j & 1) == (i != j and rests_on(b, a))
                assert bool(tower.above[i] >> j & 1) == (i != j and a.box[2] >= b.box[5])


def test_a_rule_compiled_once_evaluates_many_towers() -> None:
    rule = parse_rule("at least 1 red touches all purple and height >= 6")
    shared = Tower(TOWER)
    assert rule.evaluate(shared) is rule.holds(TOWER) is False
    assert parse_rule("at least 1 red touches all purple and height >= 5").evaluate(shared) is True
    assert str(rule) == "at least 1 red touches all purple and height >= 6"
    assert rule.colours == {"red", "purple"}


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("", "empty rule"),
        ("every reed touches table", "column 7 ('reed'): expected a colour"),
        ("every red foo", "column 11 ('foo'): expected a predicate"),
        ("height >", "at end of rule: expected a number"),
        ("height 4", "column 8 ('4'): expected a comparison"),
        ("at leest 2 red touches table", "column 4 ('leest'): expected 'least' or 'most'"),
        ("at least two red touches table", "column 10 ('two'): expected a whole number"),
        ("every red touches table and", "at end of rule: expected a statement"),
        ("(height = 4", "at end of rule: expected ')'"),
        ("height = 4 height = 5", "column 12 ('height'): expected 'and', 'or' or the end"),
        ("every red carries table", "column 19 ('table'): expected a colour or 'brick'"),
        ("every red is above table", "column 20 ('table')"),
        ("every red rests table", "column 17 ('table'): expected 'on'"),
        ("every red is tall", "column 14 ('tall'): expected 'above', 'below'"),
        ("highest by side is red", "column 12 ('side'): expected 'top' or 'bottom'"),
        ("every red touches table; height = 4", "column 24: unexpected character ';'"),
        ("touches table", "column 1 ('touches'): expected a statement"),
        ("not " * 65 + "height = 4", "column 257 ('not'): expected at most 64 nested 'not' or '('"),
        ("(" * 65 + "height = 4" + ")" * 65, "column 65 ('('): expected at most 64 nested 'not' or '('"),
        ("every red " + "not " * 65 + "is vertical", "column 267 ('not'): expected at most 64 nested 'not'"),
        ("at least " + "9" * 5000 + " red", "column 10 ('999999999"),
    ],
)
def test_errors_name_the_position(rule: str, message: str) -> None:
    with pytest.raises(ConditionError) as error:
        parse_rule(rule)
    text = str(error.value)
    assert message in text
    assert "\n" not in text
    assert text.startswith(f"rule {rule!r}")


def test_deep_nesting_within_the_limit_still_parses() -> None:
    """The nesting limit refuses a deck file's stack bomb (thousands of 'not' were a RecursionError), not rules."""
    assert parse_rule("not " * 64 + "height >= 1").holds(TOWER) is True
    assert parse_rule("(" * 64 + "height >= 1" + ")" * 64).holds(TOWER) is True
    assert parse_rule("every red " + "not " * 63 + "is vertical").holds(TOWER) is False


def test_a_rule_must_be_text() -> None:
    with pytest.raises(ConditionError, match="rule must be a string"):
        parse_rule(3)  # type: ignore[arg-type]


DOC = Path(__file__).resolve().parent.parent / "docs" / "rules" / "towerbrix.md"


def test_the_documented_example_runs_and_the_documented_errors_are_the_real_ones() -> None:
    text = DOC.read_text(encoding="utf-8")
    for block in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M):
        exec(compile(block, DOC.name, "exec"), {})
    lines = re.findall(r"^rule '.*?': at .*$", text, re.M)
    assert len(lines) == 3
    for line in lines:
        rule = line[len("rule '") : line.index("': at ")]
        with pytest.raises(ConditionError) as error:
            parse_rule(rule)
        assert str(error.value) == line


def test_tower_of_builds_a_tower_once_for_the_same_bricks_in_a_row() -> None:
    """The solver's cards and a teammate's value of the others' hands read the same tower: built once, and never
    given for other bricks (or the same bricks in another order, whose bits would differ)."""
    first = Tower.of(TOWER)
    assert Tower.of(list(TOWER)) is first and first.ids == tuple(b.id for b in TOWER)
    turned = Tower.of(TOWER[::-1])
    assert turned is not first and turned.ids == tuple(b.id for b in TOWER[::-1])
    assert turned.touch == Tower(TOWER[::-1]).touch
    fewer = Tower.of(TOWER[:3])
    assert fewer.n == 3 and Tower.of(TOWER) is not first and Tower.of(TOWER).touch == first.touch


def test_tower_of_gives_each_thread_the_tower_of_its_own_bricks() -> None:
    """Tower.of's one-entry cache was one list shared by every thread: between a thread's check of the key and its
    read of the tower, another thread could put its own there (90 in 600,000 calls of two towers of 8 bricks at a
    switch interval of 1 µs), so the cards of a search in one thread were judged on another thread's tower."""

    names = ["Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2"]
    row = [Brick(i, "x", (0.0, 2.0 * k, 0.0, 4.0, 2.0 * k + 2, 1.0)) for k, i in enumerate(names)]
    towers = (row, [*row[:-1], Brick("G", "z", (10.0, 0.0, 0.0, 11.0, 1.0, 4.0))])  # the last brick differs
    wrong = [0, 0]

    def ask(k: int) -> None:
        ids = tuple(b.id for b in towers[k])
        for _ in range(150_000):  # equal bricks, not the same objects: the key's check runs Python code
            if Tower.of([Brick(b.id, b.axis, b.box) for b in towers[k]]).ids != ids:
                wrong[k] += 1

    race(ask, (0, 1))
    assert wrong == [0, 0]
