"""The collapse simulation (kumiki[sim], MuJoCo) and a small sample of the judge-versus-engine cross-check.

The full cross-check is ``python -m bench.physics_engine_check``; this runs a few towers of each kind.
"""

from __future__ import annotations

import json
import math
import sys

import pytest

pytest.importorskip("mujoco")

from bench.physics_engine_check import build, classify, simulate_case
from kumiki.physics import Body, Tower, judge
from kumiki.physics.samples import cubes, staircase
from kumiki.physics.simulate import Keyframes, falls_in_simulation, model_xml, simulate


def test_a_cube_on_the_table_stays() -> None:
    assert not falls_in_simulation(cubes((0, 0, 0)))


def test_a_cube_far_over_the_edge_of_another_falls() -> None:
    assert falls_in_simulation(cubes((0, 0, 0), (0.8, 0, 1)))


def test_a_cube_half_over_the_edge_stays() -> None:
    assert not falls_in_simulation(cubes((0, 0, 0), (0.3, 0, 1)))


@pytest.mark.parametrize(("shift", "falls"), [(0.05, False), (0.2, True)])
def test_staircase_of_ten_clearly_on_either_side_of_its_threshold(shift: float, falls: bool) -> None:
    # It stands iff shift ≤ 1/10: 0.05 and 0.2 are far from the threshold (a tower near it may fall slowly).
    tower = staircase(10, shift)
    assert judge(tower).stands is not falls
    assert falls_in_simulation(tower) is falls


def test_ground_regions_carry_what_rests_on_them_and_nothing_else() -> None:
    bar = Body("bar", ((0.0, 0.0, 0.0, 3.0, 1.0, 1.0),))
    pillars = ((0.0, 0.0, 1.0, 1.0), (2.0, 0.0, 3.0, 1.0))
    assert not falls_in_simulation(Tower((bar,), pillars))
    one = Tower((bar,), ((0.0, 0.0, 1.0, 1.0),))  # the bar's centre is beyond its only support
    assert falls_in_simulation(one)
    keyframes = simulate(one, seconds=1.0, fps=10)
    assert keyframes.frames[-1][0][0][2] < -1.0  # nothing under it: it drops past the table


def test_keyframes_have_one_pose_per_body_per_frame_and_serialise() -> None:
    tower = cubes((0, 0, 0), (0.8, 0, 1))
    keyframes = simulate(tower, seconds=1.0, fps=20)
    assert isinstance(keyframes, Keyframes)
    assert keyframes.fps == 20 and keyframes.names == ("c0", "c1")
    assert len(keyframes.frames) == 21 and math.isclose(keyframes.seconds, 1.0)
    assert all(len(frame) == 2 for frame in keyframes.frames)
    for frame in keyframes.frames:
        for position, quaternion in frame:
            assert len(position) == 3 and len(quaternion) == 4
            assert math.isclose(sum(q * q for q in quaternion), 1.0, rel_tol=1e-6)
    # Frame 0 is the tower at rest; by the end the top cube has fallen to the table.
    for (position, quaternion), centre in zip(keyframes.frames[0], keyframes.centres, strict=True):
        assert position == pytest.approx(centre, abs=1e-9) and quaternion == (1.0, 0.0, 0.0, 0.0)
    assert keyframes.frames[-1][0][0] == pytest.approx((0.5, 0.5, 0.5), abs=0.05)
    assert keyframes.frames[-1][1][0][2] < 1.0
    data = json.loads(json.dumps(keyframes.to_json()))
    assert data["fps"] == 20 and [b["name"] for b in data["bodies"]] == ["c0", "c1"]
    assert len(data["frames"]) == 21 and set(data["frames"][0][1]) == {"position", "quaternion"}


def test_tuning_overrides_are_checked_and_used() -> None:
    tower = cubes((0, 0, 0))
    assert 'timestep="0.001"' in model_xml(tower, timestep=0.001)
    assert 'friction="0.3 ' in model_xml(tower, friction=0.3)
    assert 'condim="3" friction="0.3 0 0"' in model_xml(tower, friction=0.3, torsion=0.0)
    with pytest.raises(TypeError, match="unknown tuning"):
        simulate(tower, seconds=0.1, stepsize=0.1)


def test_without_mujoco_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mujoco", None)
    with pytest.raises(ImportError, match=r"pip install kumiki\[sim\]"):
        simulate(cubes((0, 0, 0)), seconds=0.1)


def sample(count: int) -> list[int]:
    """``count`` towers the bench draws, of every size (every 37th), leaving out those near their threshold."""
    out: list[int] = []
    index = 0
    while len(out) < count:
        if not classify(index).near:
            out.append(index)
        index += 37
    return out


def test_judge_and_engine_agree_on_a_small_random_sample() -> None:
    cases = [simulate_case(classify(i), [0.1], 1.0) for i in sample(16)]
    assert {c.kind for c in cases} == {"ring", "brick"}
    assert {c.stands for c in cases} == {True, False}
    disagreements = [c.label for c in cases if c.stands == c.sim[0.1][0]]
    assert not disagreements


def test_friction_holds_a_block_hooked_against_a_side_that_the_frictionless_judge_lets_fall() -> None:
    # p1 rests on p0's top with its centre beyond p0's edge, but its lower cube hangs against p0's side: tipping
    # pushes it into that side, so friction at the top contact holds it. The judge's verdict has no friction.
    tower = build("ring", 3, 49, False)
    assert not judge(tower).stands
    assert falls_in_simulation(tower, friction=0.1)
    assert not falls_in_simulation(tower, friction=1.0)


def test_a_slab_on_an_edge_line_beside_its_area_contact_is_a_knife_edge() -> None:
    # The slab's centre (3, 2) is on the edge x = 3 of its area contact with the L; the rest of its bottom meets the
    # L only along the line y = 1 (edge on edge). The engine lets it tip; the judge calls it a knife edge (a15357d
    # called it a clear stand with a 26.6° margin: it offset the hull of the contact instead of each touching rect).
    tower = Tower((Body("L", ((2, 0, 0, 4, 1, 1), (3, 1, 0, 4, 3, 1))), Body("slab", ((2, 1, 1, 4, 3, 2),))))
    assert falls_in_simulation(tower)
    verdict = judge(tower)
    assert verdict.edge and not verdict.stands
