"""The bricks: boxes, lowering, contact, connection and the physics judge."""

import pytest

from kumiki.games.towerbrix.bricks import (
    BRICK_IDS,
    COLOURS,
    Brick,
    brick_box,
    connected,
    judge,
    on_table,
    place,
    rests_on,
    touching,
)


def build(*edits: tuple[str, str, float, float]) -> dict[str, Brick]:
    bricks: dict[str, Brick] = {}
    for brick_id, axis, x, y in edits:
        bricks[brick_id] = place(bricks, brick_id, axis, x, y)
    return bricks


def test_ids_and_colours():
    assert BRICK_IDS == ("Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2", "G")
    assert {COLOURS[b[0]] for b in BRICK_IDS} == {"yellow", "purple", "red", "blue", "gray"}
    assert Brick("G", "x", (0, 0, 0, 2, 1, 1)).colour == "gray"


@pytest.mark.parametrize(
    ("axis", "box"),
    [("x", (0.5, 1, 0, 2.5, 2, 1)), ("y", (0.5, 1, 0, 1.5, 3, 1)), ("z", (0.5, 1, 0, 1.5, 2, 2))],
)
def test_brick_box_by_axis(axis, box):
    assert brick_box(axis, 0.5, 1, 0) == box


def test_brick_box_other_proportions_and_bad_axis():
    assert brick_box("z", 0, 0, 0, size=(3, 1, 0.5)) == (0, 0, 0, 1, 0.5, 3)
    with pytest.raises(ValueError, match="axis"):
        brick_box("w", 0, 0, 0)


def test_to_json_is_the_contract_form():
    brick = place({}, "Y1", "z", 0, 0)
    assert brick.to_json() == {"id": "Y1", "colour": "yellow", "axis": "z", "box": [0, 0, 0, 1, 1, 2]}
    assert place({}, "R2", "x", 0.5, 1).to_json()["box"] == [0.5, 1, 0, 2.5, 2, 1]
    assert Brick.from_json(brick.to_json()) == brick


def test_lowering_rests_on_the_highest_brick_below():
    bricks = build(("Y1", "z", 0, 0), ("Y2", "x", 2, 0))
    top = place(bricks, "R1", "x", 0, 0)  # over Y1 (top 2) and Y2 (top 1): rests on Y1
    assert top.box[2] == 2
    assert rests_on(top, bricks["Y1"]) and not rests_on(top, bricks["Y2"])


def test_lowering_ignores_edge_contact_only():
    bricks = build(("Y1", "x", 0, 0))
    beside = place(bricks, "Y2", "x", 2, 0)  # shares only an edge of the footprint: falls to the table
    assert beside.box[2] == 0 and on_table(beside)
    corner = place(bricks, "P1", "x", 2, 1)
    assert corner.box[2] == 0


def test_moving_a_brick_ignores_its_old_position():
    bricks = build(("Y1", "x", 0, 0))
    moved = place(bricks, "Y1", "x", 0.5, 0)
    assert moved.box[2] == 0


def test_touching_needs_face_area():
    bricks = build(("Y1", "x", 0, 0), ("Y2", "x", 2, 0), ("P1", "x", 2, 1), ("R1", "x", 0, 0))
    assert touching(bricks["Y1"], bricks["Y2"])  # side faces, area 1
    assert touching(bricks["Y1"], bricks["R1"])  # R1 lies on Y1
    assert not touching(bricks["Y1"], bricks["P1"])  # only an edge
    assert touching(bricks["Y2"], bricks["P1"])


def test_connected():
    assert connected([])
    assert connected([place({}, "Y1", "x", 0, 0)])
    assert connected(build(("Y1", "x", 0, 0), ("Y2", "x", 2, 0)).values())
    assert not connected(build(("Y1", "x", 0, 0), ("Y2", "x", 3, 0)).values())
    assert not connected(build(("Y1", "x", 0, 0), ("Y2", "x", 2, 1)).values())  # corner to corner


def test_judge_stands_and_falls():
    assert judge([]).stands
    stack = build(("Y1", "z", 0, 0), ("Y2", "x", 0, 0))  # Y2 on Y1, centre at x=1, over Y1's edge at x=1
    assert not judge(stack.values()).stands  # knife edge: tie "falls"
    centred = build(("Y1", "z", 0.5, 0), ("Y2", "x", 0, 0))
    verdict = judge(centred.values(), margin=True)
    assert verdict.stands and verdict.margin_deg > 0
    overhang = build(("Y1", "z", 0, 0), ("Y2", "x", 0.5, 0))  # centre at 1.5, beyond Y1
    assert not judge(overhang.values()).stands


def test_bridge_stands():
    bricks = build(("Y1", "z", 0, 0), ("Y2", "z", 2, 0), ("R1", "x", 0.5, 0))
    assert bricks["R1"].box[2] == 2
    assert judge(bricks.values()).stands and connected(bricks.values())
