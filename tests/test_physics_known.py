"""Stand or fall: towers whose answers are known by hand, the tie rule, fault naming, and the JSON form's errors.

Margins are checked against the closed form (to 0.01°): a lone block slides at atan μ = atan 0.5, and a stack tips
over the edge of its support when the table's tilt moves its centre of mass (at height h above the support) past
the edge at distance d: tan(angle) = d / h.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from kumiki.physics import Body, Tower, TowerError, Verdict, analyse, body_from_cells, judge, tower_from_json
from kumiki.physics.samples import brick_stack, cubes, harmonic_stack, staircase

SLIDE = math.degrees(math.atan(0.5))  # 26.57°: friction μ = 0.5 lets go before a squat block tips


def deg(tan: float) -> float:
    return math.degrees(math.atan(tan))


def box(name: str, *boxes: tuple[float, float, float, float, float, float], density: float = 1.0) -> Body:
    return Body(name, tuple(boxes), density)


def stands(tower: Tower, margin: float | None = None) -> Verdict:
    verdict = judge(tower)
    assert verdict.stands, verdict
    assert not verdict.edge, verdict
    assert verdict.fault is None and verdict.moving == ()
    assert verdict.bodies == len(tower.bodies)
    if margin is not None:
        assert verdict.margin_deg == pytest.approx(margin, abs=0.01)
    assert verdict.margin_deg > 0
    return verdict


def falls(tower: Tower, edge: bool = False) -> Verdict:
    verdict = judge(tower)
    assert not verdict.stands, verdict
    assert verdict.edge is edge, verdict
    assert verdict.margin_deg == 0.0
    assert isinstance(verdict.fault, str) and verdict.fault
    assert verdict.moving, verdict
    assert set(verdict.moving) <= {body.name for body in tower.bodies}
    return verdict


# ------------------------------------------------------------------------------------------------ single blocks


def test_a_single_cube_stands_and_slides_at_atan_half() -> None:
    verdict = stands(cubes((0, 0, 0)), SLIDE)
    assert verdict.margin_deg == pytest.approx(26.5651, abs=1e-3)
    assert verdict.bodies == 1


def test_a_column_tips_at_atan_a_quarter() -> None:
    column = Tower((box("column", (0, 0, 0, 1, 1, 4)),))
    assert stands(column, deg(0.5 / 2)).margin_deg == pytest.approx(14.04, abs=0.01)


def test_four_stacked_cubes_tip_like_the_column() -> None:
    stands(cubes((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)), deg(0.25))


def test_a_flat_slab_slides_before_it_tips() -> None:
    stands(Tower((box("slab", (0, 0, 0, 4, 4, 1)),)), SLIDE)


# ------------------------------------------------------------------------------------------------ two cubes offset


@pytest.mark.parametrize("offset", [0.0, 0.1, 0.3, 0.45, 0.49, 0.4999])
def test_two_cubes_offset_less_than_half_stand(offset: float) -> None:
    # The top cube tips at atan((0.5 - d) / 0.5); the pair tips as one at atan((0.5 - d/2) / 1).
    expected = min(SLIDE, deg((0.5 - offset) / 0.5), deg(0.5 - offset / 2))
    stands(cubes((0, 0, 0), (offset, 0, 1)), expected)


def test_two_cubes_offset_exactly_half_are_a_knife_edge_that_falls() -> None:
    verdict = falls(cubes((0, 0, 0), (0.5, 0, 1)), edge=True)
    assert verdict.moving == ("c1",)
    assert verdict.fault == "c1 tips over the edge of c0 (balanced exactly on the edge)"


@pytest.mark.parametrize("offset", [0.5001, 0.51, 0.7, 0.99])
def test_two_cubes_offset_more_than_half_fall(offset: float) -> None:
    verdict = falls(cubes((0, 0, 0), (offset, 0, 1)))
    assert verdict.moving == ("c1",)
    assert verdict.fault == "c1 tips over the edge of c0"


@pytest.mark.parametrize("shift", [(0.5, 0), (-0.5, 0), (0, 0.5), (0, -0.5), (0.5, 0.5), (-0.5, 0.5)])
def test_the_knife_edge_in_every_direction(shift: tuple[float, float]) -> None:
    falls(cubes((0, 0, 0), (shift[0], shift[1], 1)), edge=True)


def test_tie_stands_makes_the_knife_edge_stand() -> None:
    verdict = judge(cubes((0, 0, 0), (0.5, 0, 1), tie="stands"))
    assert verdict.stands and verdict.edge
    assert verdict.margin_deg == 0.0
    assert verdict.fault is None and verdict.moving == ()


def test_tie_stands_does_not_save_a_clear_fall() -> None:
    verdict = judge(cubes((0, 0, 0), (0.6, 0, 1), tie="stands"))
    assert not verdict.stands and not verdict.edge


def test_tie_stands_changes_nothing_off_the_edge() -> None:
    a = judge(cubes((0, 0, 0), (0.3, 0, 1), tie="stands"))
    b = judge(cubes((0, 0, 0), (0.3, 0, 1)))
    assert a == b


# ------------------------------------------------------------------------------------------------ staircase, harmonic


def test_staircase_of_ten_stands_at_0_09() -> None:
    # The nine cubes above the first: centre 0.5 + 5·0.09 = 0.95, 0.05 inside its edge, 4.5 above it.
    stands(staircase(10, 0.09), deg(0.05 / 4.5))


def test_staircase_of_ten_is_a_knife_edge_at_a_tenth() -> None:
    verdict = falls(staircase(10, 0.1), edge=True)
    assert verdict.fault == "c1 tips over the edge of c0 (balanced exactly on the edge)"


def test_staircase_of_ten_falls_at_0_11_above_its_first_step() -> None:
    verdict = falls(staircase(10, 0.11))
    assert verdict.fault == "c1 tips over the edge of c0"
    assert verdict.moving == tuple(f"c{i}" for i in range(1, 10))


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_staircase_stands_iff_shift_at_most_one_over_n(n: int) -> None:
    stands(staircase(n, 0.95 / n))
    falls(staircase(n, 1 / n), edge=True)
    falls(staircase(n, 1.05 / n))


@pytest.mark.parametrize("n", [3, 5, 8])
def test_harmonic_stack(n: int) -> None:
    falls(harmonic_stack(n), edge=True)
    stands(harmonic_stack(n, 0.9))
    falls(harmonic_stack(n, 1.1))
    on_edge = judge(Tower(harmonic_stack(n).bodies, tie="stands"))
    assert on_edge.stands and on_edge.edge


def test_harmonic_stack_margin() -> None:
    # At ×0.9 the top cube overhangs by 0.45: 0.05 from the edge, its centre 0.5 above it. Lower down the cubes
    # above carry their centre the same 0.05·(k cubes) / k inside the edge but higher up, so the top is not worst.
    tower = harmonic_stack(5, 0.9)
    xs = [b.boxes[0][0] for b in tower.bodies]
    worst = SLIDE
    for k in range(1, 5):
        above = xs[k:]
        centre = sum(above) / len(above) + 0.5
        height = sum(i + 0.5 for i in range(k, 5)) / len(above) - k
        worst = min(worst, deg((xs[k - 1] + 1 - centre) / height))
    stands(tower, worst)


# ------------------------------------------------------------------------------------------------ bridges, cantilevers


def test_a_bar_bridging_two_columns_stands() -> None:
    tower = Tower((box("left", (0, 0, 0, 1, 1, 2)), box("right", (3, 0, 0, 4, 1, 2)), box("bar", (0, 0, 2, 4, 1, 3))))
    # It tips sideways as one piece: centre of mass (4·2.5 + 2·1 + 2·1) / 8 = 1.75 high, 0.5 from the side.
    stands(tower, deg(0.5 / 1.75))


def test_a_short_bar_bridging_two_columns_stands() -> None:
    tower = Tower(
        (box("left", (0, 0, 0, 1, 1, 2)), box("right", (3, 0, 0, 4, 1, 2)), box("bar", (0.5, 0, 2, 3.5, 1, 3)))
    )
    stands(tower, deg(0.5 / (11.5 / 7)))


def test_a_bar_on_one_column_falls() -> None:
    verdict = falls(Tower((box("left", (0, 0, 0, 1, 1, 2)), box("bar", (0, 0, 2, 4, 1, 3)))))
    assert verdict.moving == ("bar",)
    assert verdict.fault == "bar tips over the edge of left"


def cantilever(weight: float | None) -> Tower:
    bodies = [box("post", (0, 0, 0, 1, 1, 1)), box("arm", (0, 0, 1, 3, 1, 2))]
    if weight is not None:
        bodies.append(box("weight", (0, 0, 2, 1, 1, 3), density=weight))
    return Tower(tuple(bodies))


def test_a_cantilever_falls() -> None:
    # The arm's centre is at x = 1.5, beyond the post's edge at x = 1.
    verdict = falls(cantilever(None))
    assert verdict.moving == ("arm",)
    assert verdict.fault == "arm tips over the edge of post"


def test_a_light_counterweight_is_not_enough() -> None:
    # Arm (mass 3 at 1.5) and weight (mass 2 at 0.5): centre (4.5 + 1) / 5 = 1.1, beyond the edge.
    verdict = falls(cantilever(2.0))
    assert set(verdict.moving) == {"arm", "weight"}
    assert verdict.fault == "arm tips over the edge of post"


def test_a_counterweight_of_three_balances_it_exactly() -> None:
    falls(cantilever(3.0), edge=True)


def test_a_heavy_counterweight_holds_the_cantilever_up() -> None:
    # Arm and weight of mass 4: centre x (4.5 + 2) / 7 = 13/14, z (4.5 + 10) / 7 = 29/14 (15/14 above the post).
    stands(cantilever(4.0), deg((1 / 14) / (15 / 14)))


def test_a_counterweight_made_of_more_blocks_works_too() -> None:
    bodies = [box("post", (0, 0, 0, 1, 1, 1)), box("arm", (0, 0, 1, 3, 1, 2))]
    bodies += [box(f"w{k}", (0, 0, 2 + k, 1, 1, 3 + k)) for k in range(4)]
    stands(Tower(tuple(bodies)))


# ------------------------------------------------------------------------------------------------ ground regions


def test_a_body_over_the_edge_of_the_ground_region_falls() -> None:
    tower = Tower((box("c", (0.6, 0, 0, 1.6, 1, 1)),), ground=((0, 0, 1, 1),))
    verdict = falls(tower)
    assert verdict.moving == ("c",)
    assert verdict.fault == "c tips over the edge of the table"


def test_a_body_half_over_the_ground_region_is_a_knife_edge() -> None:
    verdict = falls(Tower((box("c", (0.5, 0, 0, 1.5, 1, 1)),), ground=((0, 0, 1, 1),)), edge=True)
    assert verdict.fault == "c tips over the edge of the table (balanced exactly on the edge)"


def test_a_body_mostly_on_the_ground_region_stands() -> None:
    # Centre at x = 0.9, 0.1 inside the region's edge, 0.5 high.
    stands(Tower((box("c", (0.4, 0, 0, 1.4, 1, 1)),), ground=((0, 0, 1, 1),)), deg(0.2))


def test_a_body_beside_the_ground_region_has_nothing_to_rest_on() -> None:
    verdict = falls(Tower((box("c", (2, 0, 0, 3, 1, 1)),), ground=((0, 0, 1, 1),)))
    assert verdict.fault == "c has nothing to rest on"


def test_a_body_on_two_ground_regions_rests_on_both() -> None:
    stands(Tower((box("c", (0, 0, 0, 1, 1, 1)),), ground=((0, 0, 0.2, 1), (0.8, 0, 1, 1))), SLIDE)


def test_no_ground_regions_means_nothing_carries_load() -> None:
    falls(Tower((box("c", (0, 0, 0, 1, 1, 1)),), ground=()))


def test_an_endless_table_is_the_default() -> None:
    stands(Tower((box("c", (-50, -50, 0, -49, -49, 1)),)), SLIDE)


# ------------------------------------------------------------------------------------------------ floating, contacts


def test_a_floating_body_falls_with_nothing_to_rest_on() -> None:
    verdict = falls(Tower((box("base", (0, 0, 0, 1, 1, 1)), box("cloud", (0, 0, 2, 1, 1, 3)))))
    assert verdict.moving == ("cloud",)
    assert verdict.fault == "cloud has nothing to rest on"


def test_a_lone_body_above_the_table_falls() -> None:
    verdict = falls(Tower((box("cloud", (0, 0, 1, 1, 1, 2)),)))
    assert verdict.fault == "cloud has nothing to rest on"


def test_side_contacts_are_frictionless_so_a_wedged_block_falls() -> None:
    tower = Tower((box("left", (0, 0, 0, 1, 1, 3)), box("right", (2, 0, 0, 3, 1, 3)), box("wedge", (1, 0, 1, 2, 1, 2))))
    verdict = falls(tower)
    assert verdict.moving == ("wedge",)
    assert verdict.fault == "wedge has nothing to rest on"


def test_neighbours_side_by_side_stand() -> None:
    stands(cubes((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)), SLIDE)


def test_a_block_on_two_line_contacts_is_a_knife_edge() -> None:
    # The block spans the gap between two cubes, touching each only along an edge.
    tower = Tower((box("a", (0, 0, 0, 1, 1, 1)), box("b", (2, 0, 0, 3, 1, 1)), box("top", (1, 0, 1, 2, 1, 2))))
    falls(tower, edge=True)
    assert judge(Tower(tower.bodies, tie="stands")).stands


def test_a_cube_on_a_line_contact_far_from_its_centre_falls_clearly() -> None:
    verdict = judge(cubes((0, 0, 0), (1, 0, 1), tie="stands"))
    assert not verdict.stands and not verdict.edge


def test_a_cube_on_a_corner_falls_clearly() -> None:
    verdict = judge(cubes((0, 0, 0), (1, 1, 1), tie="stands"))
    assert not verdict.stands and not verdict.edge
    assert "c1" in verdict.moving


def hook(density: float) -> Tower:
    """A hook (a column, an arm along its top and a tooth hanging from the arm's end) around a block that stands
    under the arm without touching it: the two touch only on their sides."""
    a = Body("hook", ((0, 0, 0, 1, 1, 3), (1, 0, 2, 3, 1, 3), (2, 0, 1, 3, 1, 2)))
    return Tower((a, box("block", (1, 0, 0, 2, 1, 1.9), density=density)))


def test_side_contacts_can_hold_a_hook_shut() -> None:
    # Alone the hook (volume 6, centre x = 4/3) tips over x = 1 with a moment of 2. Frictionless side forces F on
    # it (−x from the block at the column, up to z = 1.9; +x at the tooth, down to z = 1) form a couple of at most
    # 0.9·F; the same couple acts on the block, which holds it while its weight × 0.5 ≥ 2: density ≥ 2 / 0.95.
    assert not judge(Tower(hook(1.0).bodies[:1])).stands
    verdict = falls(hook(2.0))
    assert set(verdict.moving) == {"hook", "block"}
    assert verdict.fault == "hook tips over the edge of the table"
    falls(hook(2 / 0.95), edge=True)
    stands(hook(2.2))
    stands(hook(3.0))


@pytest.mark.parametrize("anvil", [1e6, 1e9, 1e12])
def test_a_heavy_body_far_away_does_not_hold_up_a_light_one(anvil: float) -> None:
    # The hook of density 2 falls whatever stands elsewhere on the table. The verdict's LP held every body to 10⁻⁹
    # of the whole tower's weight: next to an anvil 10⁹ times heavier that was all the hook and block weigh, and
    # they "stood" (edge false, margin 0); at 10⁸ they hung on a knife edge. Now each body to 10⁻⁹ of its own.
    far = box("anvil", (10, 0, 0, 11, 1, 1), density=anvil)
    for shortcuts in (True, False):
        verdict = judge(Tower((*hook(2.0).bodies, far)), shortcuts=shortcuts)
        assert (verdict.stands, verdict.edge) == (False, False), verdict
        assert set(verdict.moving) == {"hook", "block"}
        verdict = judge(Tower((*hook(3.0).bodies, far)), shortcuts=shortcuts)
        assert verdict.stands and not verdict.edge and verdict.margin_deg == pytest.approx(2.96, abs=0.01)
    # a feather cube hanging 0.9 off another, asked of the LP: it falls however light it is
    feather = Tower((box("base", (0, 0, 0, 1, 1, 1)), box("feather", (0.9, 0, 1, 1.9, 1, 2), density=1 / anvil)))
    verdict = judge(feather, shortcuts=False)
    assert (verdict.stands, verdict.edge, verdict.moving) == (False, False, ("feather",))


def test_a_body_too_light_to_scale_is_refused_not_an_internal_error() -> None:
    # Its share of the weight (10⁻³¹⁰) is below what a float holds as a normal number: analyse raised IndexError
    # (`kumiki stability`: "internal error", exit 1); now the one-line TowerError of a body too small to weigh.
    from kumiki.physics import TowerError, analyse

    for density in (1e-310, 5e-324):
        tower = {
            "bodies": [
                {"name": "base", "boxes": [[0, 0, 0, 1, 1, 1]]},
                {"name": "feather", "boxes": [[0.3, 0, 1, 1.3, 1, 2]], "density": density},
            ]
        }
        with pytest.raises(TowerError, match=r"^bodies\[1\] \(feather\) is too small or too light next to the rest"):
            analyse(tower)


def test_a_tower_spanning_more_than_the_largest_float_is_judged() -> None:
    # Every coordinate is a float, but the slab's width (2e308) is not: the tower's size overflowed to inf, no unit
    # was chosen, and the slab was refused as "too small or too light next to the rest"; now judged in units of a
    # power of two, like any tower (a slab stands on the table; a cube 1e-300 of its size is the one refused).
    from kumiki.physics import TowerError, analyse

    slab = {"name": "slab", "boxes": [[-1e308, -1e308, 0, 1e308, 1e308, 1e308]]}
    top = {"name": "top", "boxes": [[-1e308, -1e308, 1e308, 1e308, 1e308, 1.7e308]]}
    for bodies in ([slab], [slab, top]):
        verdict = analyse({"bodies": bodies})
        assert verdict.stands and not verdict.edge
        assert verdict.margin_deg == pytest.approx(math.degrees(math.atan(0.5)), abs=1e-6)
    overhang = {"name": "overhang", "boxes": [[0.5e308, -1e308, 1e308, 1.7e308, 1e308, 1.7e308]]}
    assert not analyse({"bodies": [slab, overhang]}).stands  # its centre beyond the slab's edge
    speck = {"name": "speck", "boxes": [[0, 0, 1e308, 1, 1, 1e308 + 1e292]]}
    with pytest.raises(TowerError, match=r"^bodies\[1\] \(speck\) is too small or too light next to the rest"):
        analyse({"bodies": [slab, speck]})


# ------------------------------------------------------------------------------------------------ continuous positions


def test_a_half_size_cube_at_x_2_3_on_a_unit_cube() -> None:
    base = box("base", (2, 0, 0, 3, 1, 1))
    stands(Tower((base, box("small", (2.3, 0, 1, 2.8, 0.5, 1.5)))), SLIDE)
    falls(Tower((base, box("small", (2.75, 0, 1, 3.25, 0.5, 1.5)))), edge=True)
    verdict = falls(Tower((base, box("small", (2.8, 0, 1, 3.3, 0.5, 1.5)))))
    assert verdict.fault == "small tips over the edge of base"


def test_a_half_size_cube_overhanging_a_little() -> None:
    # The small cube's centre is 0.2 inside the edge and 0.25 above the contact: alone it tips at atan(0.8). The
    # pair (mass 1.125) tips over the base's edge.
    tower = Tower((box("base", (0, 0, 0, 1, 1, 1)), box("small", (0.55, 0.25, 1, 1.05, 0.75, 1.5))))
    cx = (0.5 + 0.125 * 0.8) / 1.125
    cz = (0.5 + 0.125 * 1.25) / 1.125
    stands(tower, min(SLIDE, deg(0.2 / 0.25), deg((1 - cx) / cz)))


def test_densities_move_the_centre_of_mass() -> None:
    # A beam (mass 2, centre x = 1) on a post ending at x = 0.9 falls; lead (density 9, mass 4.5) on its left end
    # brings the centre to (2 + 4.5·0.25) / 6.5 = 0.48, over the post; on its right end the beam falls the other way.
    post = box("post", (0.2, 0, 0, 0.9, 1, 1))
    beam = box("beam", (0, 0, 1, 2, 1, 2))
    falls(Tower((post, beam)))
    stands(Tower((post, beam, box("lead", (0, 0, 2, 0.5, 1, 3), density=9))))
    verdict = falls(Tower((post, beam, box("lead", (1.5, 0, 2, 2, 1, 3), density=9))))
    assert verdict.fault == "beam tips over the edge of post"
    assert set(verdict.moving) == {"beam", "lead"}


def test_an_l_shaped_body_from_cells() -> None:
    # Cells (0,0,0), (0,0,1), (1,0,1): centre x 5/6, z 7/6; it tips over x = 1 at atan((1/6) / (7/6)).
    stands(Tower((body_from_cells("L", [(0, 0, 0), (0, 0, 1), (1, 0, 1)]),)), deg(1 / 7))
    verdict = falls(Tower((body_from_cells("L", [(0, 0, 0), (0, 0, 1), (1, 0, 1), (2, 0, 1)]),)))
    assert verdict.fault == "L tips over the edge of the table"


def test_a_t_balanced_on_one_cube() -> None:
    tower = Tower((body_from_cells("stem", [(1, 0, 0)]), body_from_cells("T", [(0, 0, 1), (1, 0, 1), (2, 0, 1)])))
    # The pair tips sideways (along y) as one: 0.5 to the side, centre of mass (0.5 + 3·1.5) / 4 = 1.25 high.
    stands(tower, deg(0.5 / 1.25))


# ------------------------------------------------------------------------------------------------ body_from_cells


def covered(body: Body, size: float = 1.0, origin: tuple[float, float, float] = (0, 0, 0)) -> list[tuple[int, ...]]:
    """The cells whose centres lie in the body's boxes, once per box that holds them."""
    found = []
    for x0, y0, z0, x1, y1, z1 in body.boxes:
        lo = [round((c - o) / size) for c, o in zip((x0, y0, z0), origin, strict=True)]
        hi = [round((c - o) / size) for c, o in zip((x1, y1, z1), origin, strict=True)]
        found += [(x, y, z) for x in range(lo[0], hi[0]) for y in range(lo[1], hi[1]) for z in range(lo[2], hi[2])]
    return sorted(found)


def test_body_from_cells_is_the_solid_of_its_cells() -> None:
    cells = [(0, 0, 0), (1, 0, 0), (1, 0, 0), (0, 1, 0)]
    body = body_from_cells("p", cells, density=2.0)
    assert body.name == "p"
    assert covered(body) == sorted(set(cells))  # each cell in exactly one box: duplicates count once
    assert body.volume == 3
    assert body.mass == 6
    assert body.centre == pytest.approx((5 / 6, 5 / 6, 0.5))


def test_body_from_cells_size_and_origin() -> None:
    body = body_from_cells("p", [(0, 0, 0), (0, 0, 1)], size=0.5, origin=(1.0, 2.0, 0.0))
    assert covered(body, 0.5, (1.0, 2.0, 0.0)) == [(0, 0, 0), (0, 0, 1)]
    assert body.volume == pytest.approx(0.25)
    assert body.centre == pytest.approx((1.25, 2.25, 0.5))
    assert min(b[0] for b in body.boxes) == 1.0 and max(b[5] for b in body.boxes) == 1.0


def test_body_from_cells_needs_a_cell() -> None:
    with pytest.raises(TowerError, match="no cells"):
        body_from_cells("empty", [])


def test_an_empty_tower_is_refused_in_one_line() -> None:
    # judge(Tower(())) raised statistics.StatisticsError "no median for empty data" (Kozo's state.tower() of an
    # empty base is such a tower); the JSON form was already refused ("'bodies' must be a non-empty list").
    for shortcuts in (True, False):
        with pytest.raises(TowerError, match=r"^a tower needs at least one body$"):
            judge(Tower(()), shortcuts=shortcuts)
    with pytest.raises(TowerError, match=r"^a tower needs at least one body$"):
        analyse(Tower(()))


def test_a_polycube_tower_from_cells() -> None:
    floor = body_from_cells("floor", [(x, y, 0) for x in range(3) for y in range(3)])
    column = body_from_cells("column", [(1, 1, 1), (1, 1, 2), (1, 1, 3)])
    # The column tips over its own base: 0.5 out, 1.5 up; the whole tower is squatter.
    stands(Tower((floor, column)), deg(0.5 / 1.5))


# ------------------------------------------------------------------------------------------------ errors


def test_overlapping_bodies_are_an_error() -> None:
    with pytest.raises(TowerError, match="bodies 'c0' and 'c1' overlap"):
        judge(cubes((0, 0, 0), (0.5, 0, 0.5)))
    with pytest.raises(ValueError, match="overlap"):
        judge(Tower((box("a", (0, 0, 0, 3, 3, 1)), box("b", (1, 1, 0.5, 2, 2, 1.5)))))


def test_a_body_below_the_table_is_an_error() -> None:
    with pytest.raises(TowerError, match="'sunk' reaches below the table"):
        judge(Tower((box("sunk", (0, 0, -0.5, 1, 1, 0.5)),)))


def test_touching_is_not_overlapping() -> None:
    stands(cubes((0, 0, 0), (1, 0, 0), (0, 0, 1)))


BAD_TOWERS = {
    "not an object": ([], "JSON object"),
    "missing bodies": ({}, "'bodies' must be a non-empty list"),
    "empty bodies": ({"bodies": []}, "'bodies' must be a non-empty list"),
    "body not an object": ({"bodies": [[0, 0, 0, 1, 1, 1]]}, "bodies[0] must be an object"),
    "no boxes": ({"bodies": [{"name": "a"}]}, "bodies[0] (a): 'boxes' must be a non-empty list"),
    "short box": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1]]}]}, "boxes[0] must be [x0, y0, z0, x1, y1, z1]"),
    "x0 = x1": ({"bodies": [{"boxes": [[1, 0, 0, 1, 1, 1]]}]}, "x0 < x1"),
    "x0 > x1": ({"bodies": [{"boxes": [[2, 0, 0, 1, 1, 1]]}]}, "x0 < x1"),
    "z0 > z1": ({"bodies": [{"boxes": [[0, 0, 2, 1, 1, 1]]}]}, "z0 < z1"),
    "text coordinate": ({"bodies": [{"boxes": [[0, 0, 0, "1", 1, 1]]}]}, "finite number"),
    "bool coordinate": ({"bodies": [{"boxes": [[0, 0, 0, True, 1, 1]]}]}, "finite number"),
    "infinite coordinate": ({"bodies": [{"boxes": [[0, 0, 0, math.inf, 1, 1]]}]}, "finite number"),
    "nan coordinate": ({"bodies": [{"boxes": [[0, 0, 0, math.nan, 1, 1]]}]}, "finite number"),
    "zero density": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]], "density": 0}]}, "density must be positive"),
    "negative density": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]], "density": -1}]}, "density must be positive"),
    "text density": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]], "density": "heavy"}]}, "density must be a finite"),
    "unknown field": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "gravity": 9.8}, "unknown field 'gravity'"),
    "unknown body field": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]], "colour": "red"}]}, "unknown field 'colour'"),
    "bad tie": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "tie": "wobbles"}, "'tie' must be \"falls\" or"),
    "duplicate names": (
        {"bodies": [{"name": "a", "boxes": [[0, 0, 0, 1, 1, 1]]}, {"name": "a", "boxes": [[0, 0, 1, 1, 1, 2]]}]},
        "two bodies are named 'a'",
    ),
    "empty name": ({"bodies": [{"name": "", "boxes": [[0, 0, 0, 1, 1, 1]]}]}, "name must be a non-empty text"),
    "ground not a list": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "ground": 3}, "'ground' must be a list"),
    "bad ground rect": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "ground": [[0, 0, 0, 1]]}, "x0 < x1"),
    "short ground rect": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "ground": [[0, 0, 1]]}, "ground[0] must be"),
}


@pytest.mark.parametrize("kind", sorted(BAD_TOWERS))
def test_malformed_towers_are_tower_errors(kind: str) -> None:
    data, message = BAD_TOWERS[kind]
    with pytest.raises(TowerError) as error:
        tower_from_json(data)
    assert message in str(error.value)
    assert isinstance(error.value, ValueError)
    if isinstance(data, dict):
        with pytest.raises(TowerError):
            analyse(data)


def test_the_json_form_is_read_with_its_defaults() -> None:
    tower = tower_from_json(
        {"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}, {"name": "top", "boxes": [[0, 0, 1, 1, 1, 2]]}]}
    )
    assert [b.name for b in tower.bodies] == ["body 0", "top"]
    assert [b.density for b in tower.bodies] == [1.0, 1.0]
    assert tower.ground is None and tower.tie == "falls"
    tower = tower_from_json(
        {"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]], "density": 2}], "ground": [[0, 0, 1, 1]], "tie": "stands"}
    )
    assert tower.ground == ((0.0, 0.0, 1.0, 1.0),)
    assert tower.tie == "stands"
    assert tower.bodies[0].mass == 2.0
    assert tower_from_json({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "ground": None}).ground is None


# ------------------------------------------------------------------------------------------------ the JSON verdict


def test_to_json_of_a_standing_tower() -> None:
    out = analyse({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 4]]}]}).to_json()
    assert out == {"stands": True, "edge": False, "margin_deg": 14.04, "bodies": 1}


def test_to_json_of_a_falling_tower() -> None:
    data = {
        "bodies": [
            {"name": "post", "boxes": [[0, 0, 0, 1, 1, 1]]},
            {"name": "arm", "boxes": [[0, 0, 1, 3, 1, 2]]},
        ]
    }
    assert analyse(data).to_json() == {
        "stands": False,
        "edge": False,
        "margin_deg": 0.0,
        "bodies": 2,
        "fault": "arm tips over the edge of post",
        "moving": ["arm"],
    }


def test_to_json_of_a_knife_edge() -> None:
    data = {"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}, {"name": "top", "boxes": [[0.5, 0, 1, 1.5, 1, 2]]}]}
    out = analyse(data).to_json()
    assert out["stands"] is False and out["edge"] is True
    assert out["moving"] == ["top"]
    assert out["fault"] == "top tips over the edge of body 0 (balanced exactly on the edge)"
    assert analyse({**data, "tie": "stands"}).to_json() == {
        "stands": True,
        "edge": True,
        "margin_deg": 0.0,
        "bodies": 2,
    }


def test_the_contracts_example() -> None:
    # The cube's centre (x = 3) lies exactly above the bar's end: a knife edge, which falls by default.
    data = {
        "ground": [[0, 0, 3, 3]],
        "tie": "falls",
        "bodies": [
            {"name": "bar", "boxes": [[0, 0, 0, 3, 1, 1]], "density": 1.0},
            {"name": "cube", "boxes": [[2.5, 0, 1, 3.5, 1, 2]]},
        ],
    }
    verdict = analyse(data)
    assert (verdict.stands, verdict.edge, verdict.moving) == (False, True, ("cube",))


def test_judge_without_margin_or_explanation() -> None:
    verdict = judge(cubes((0, 0, 0)), margin=False)
    assert verdict.stands and verdict.margin_deg == 0.0
    verdict = judge(cubes((0, 0, 0), (0.7, 0, 1)), explain=False)
    assert not verdict.stands and verdict.fault is None and verdict.moving == ()
    assert analyse({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}]}, margin=False).margin_deg == 0.0


# ------------------------------------------------------------------------------------------------ known issues


def diagonal(shift: float) -> Tower:
    """A slab on two pillar tops of one body, [0, 1]² and [1, 2]², at one height: the hull of its contacts has a
    diagonal edge from (1, 0) to (2, 1), and the slab's centre (1.4 + shift, 0.4 − shift) is on it at shift 0."""
    pillars = Body("pillars", ((0, 0, 0, 1, 1, 2), (1, 1, 0, 2, 2, 2), (1, 0, 0, 2, 1, 1)))
    return Tower((pillars, box("slab", (0.8 + shift, -0.4 - shift, 2, 2 + shift, 1.2 - shift, 3))))


def test_off_a_diagonal_support_edge_is_clear() -> None:
    stands(diagonal(-1e-3))
    falls(diagonal(1e-3))


def test_a_cube_in_the_inner_corner_of_an_l_is_a_knife_edge() -> None:
    # The cube touches the L's top along two edges only; the hull of those lines is a triangle whose long side
    # runs under the cube's centre.
    corner = Tower((body_from_cells("L", [(0, 0, 0), (1, 0, 0), (0, 1, 0)]), body_from_cells("cube", [(1, 1, 1)])))
    falls(corner, edge=True)


@pytest.mark.parametrize("shift", [-1e-6, 0.0, 1e-6])
def test_a_knife_edge_on_a_diagonal_support_edge(shift: float) -> None:
    verdict = judge(diagonal(shift))
    assert (verdict.stands, verdict.edge) == (False, True)


def test_a_polycube_knife_edge_is_the_same_whichever_way_round() -> None:
    # Found by the properties: three polycubes, an exact knife edge (p2 on p0) in every quarter turn.
    tower = brick_stack(3, 11, 3)
    for _ in range(4):
        verdict = judge(tower)
        assert (verdict.stands, verdict.edge) == (False, True)
        tower = Tower(
            tuple(
                Body(b.name, tuple((-y1, x0, z0, -y0, x1, z1) for x0, y0, z0, x1, y1, z1 in b.boxes))
                for b in tower.bodies
            )
        )


def test_a_cube_on_a_corner_is_the_fault_not_the_cubes_below() -> None:
    # The LP's Farkas ray named c1 on c0, which holds; the mechanism tried first (c2 alone tips) is the real fault.
    verdict = judge(cubes((0, 0, 0), (0, 0, 1), (1, 1, 2)))
    assert verdict.moving == ("c2",)
    assert verdict.fault == "c2 tips over the edge of c1"


@pytest.mark.xfail(reason="the mechanism found first is the highest that tips (c4 on c3), not the lowest failing")
def test_an_overloaded_harmonic_stack_gives_way_at_the_bottom() -> None:
    assert judge(harmonic_stack(5, 1.1)).fault == "c1 tips over the edge of c0"


def test_a_large_tower_names_the_block_that_falls() -> None:
    # Bisecting prefixes (the LP's way above 64 bodies) is misled by the counterweight; the mechanism is not.
    # A cantilever held by a stack of 62 light blocks over its post, and one cube overhanging 0.7 at the top: only
    # the top cube falls, but the prefix [post, arm] already falls (its counterweight comes later).
    bodies = [box("post", (0, 0, 0, 1, 1, 1)), box("arm", (0, 0, 1, 3, 1, 2))]
    bodies += [box(f"w{k}", (0, 0, 2 + k, 1, 1, 3 + k), density=4 / 62) for k in range(62)]
    assert judge(Tower(tuple(bodies)), margin=False).stands
    bodies.append(box("top", (0.7, 0, 64, 1.7, 1, 65)))
    verdict = judge(Tower(tuple(bodies)), margin=False)
    assert not verdict.stands
    assert verdict.moving == ("top",)
    assert verdict.fault == "top tips over the edge of w61"


def test_overlapping_boxes_of_one_body_are_rejected_or_counted_once() -> None:
    arm = [[0, 0, 1, 3, 1, 2]] + [[0, 0, 1, 1, 1, 2]] * 4  # the union is the arm alone, which falls
    data = {"bodies": [{"name": "post", "boxes": [[0, 0, 0, 1, 1, 1]]}, {"name": "arm", "boxes": arm}]}
    try:
        verdict = analyse(data)
    except TowerError:
        return
    assert not verdict.stands


def test_a_huge_integer_is_a_tower_error() -> None:
    with pytest.raises(TowerError):
        tower_from_json({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 10**400]]}]})


def test_analyse_of_a_json_list_is_a_tower_error() -> None:
    with pytest.raises(TowerError):
        analyse([])  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ the docs' table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "physics.md"

KNOWN: dict[str, Callable[[], Tower]] = {
    "a unit cube": lambda: cubes((0, 0, 0)),
    "a 1×1×4 column": lambda: Tower((box("column", (0, 0, 0, 1, 1, 4)),)),
    "four stacked cubes": lambda: cubes((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)),
    "two cubes, the top one shifted 0.3": lambda: cubes((0, 0, 0), (0.3, 0, 1)),
    "two cubes, shifted 0.5": lambda: cubes((0, 0, 0), (0.5, 0, 1)),
    'two cubes, shifted 0.5, `tie: "stands"`': lambda: cubes((0, 0, 0), (0.5, 0, 1), tie="stands"),
    "two cubes, shifted 0.6": lambda: cubes((0, 0, 0), (0.6, 0, 1)),
    "staircase of 10, each shifted 0.09": lambda: staircase(10, 0.09),
    "staircase of 10, each shifted 0.10": lambda: staircase(10, 0.1),
    "staircase of 10, each shifted 0.11": lambda: staircase(10, 0.11),
    "harmonic stack of 5 ×0.9": lambda: harmonic_stack(5, 0.9),
    "harmonic stack of 5 (exact)": lambda: harmonic_stack(5),
    "harmonic stack of 5 ×1.1": lambda: harmonic_stack(5, 1.1),
    "bar 0..4 bridging columns at 0..1 and 3..4 (height 2)": lambda: Tower(
        (box("left", (0, 0, 0, 1, 1, 2)), box("right", (3, 0, 0, 4, 1, 2)), box("bar", (0, 0, 2, 4, 1, 3)))
    ),
    "cantilever: arm 0..3 on a post 0..1": lambda: cantilever(None),
    "cantilever with a counterweight of density 3 over the post": lambda: cantilever(3.0),
    "cantilever with a counterweight of density 4 over the post": lambda: cantilever(4.0),
    "cube at x 0.4..1.4 on ground region x 0..1": lambda: Tower(
        (box("c", (0.4, 0, 0, 1.4, 1, 1)),), ground=((0, 0, 1, 1),)
    ),
    "cube at x 0.6..1.6 on ground region x 0..1": lambda: Tower(
        (box("c", (0.6, 0, 0, 1.6, 1, 1)),), ground=((0, 0, 1, 1),)
    ),
    "a hook around a block of density 2, touching on their sides only": lambda: hook(2.0),
    "a hook around a block of density 3, touching on their sides only": lambda: hook(3.0),
    "a cube floating one unit above another": lambda: cubes((0, 0, 0), (0, 0, 2)),
    "half-size cube at x 2.3..2.8 on a unit cube at 2..3": lambda: Tower(
        (box("base", (2, 0, 0, 3, 1, 1)), box("small", (2.3, 0, 1, 2.8, 0.5, 1.5)))
    ),
    "block spanning a gap, touching two cubes along edges only": lambda: Tower(
        (box("a", (0, 0, 0, 1, 1, 1)), box("b", (2, 0, 0, 3, 1, 1)), box("top", (1, 0, 1, 2, 1, 2)))
    ),
}


def known_answers_table() -> str:
    """The table of known answers in docs/physics.md, as the engine gives it."""
    lines = ["| tower | stands | edge | margin | fault | moving |", "|---|---|---|---|---|---|"]
    yes = {True: "yes", False: "no"}
    for label, build in KNOWN.items():
        v = judge(build())
        cells = [label, yes[v.stands], yes[v.edge], f"{v.margin_deg:.2f}°", v.fault or "", ", ".join(v.moving)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def test_the_docs_table_of_known_answers_is_the_engines() -> None:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"<!-- known answers -->\n(.*?)<!-- /known answers -->", text, re.S)
    assert match is not None, "docs/physics.md has no <!-- known answers --> table"
    assert match[1] == known_answers_table(), "regenerate with: python tests/test_physics_known.py"


def test_the_docs_python_examples_run() -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M)
    assert blocks
    namespace: dict[str, object] = {}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"physics.md (python block {number})", "exec"), namespace)


def test_the_docs_json_examples_are_what_the_engine_says() -> None:
    text = DOCS.read_text(encoding="utf-8")
    pairs = re.findall(r"<!-- tower -->\n```json\n(.*?)```\n.*?<!-- verdict -->\n```json\n(.*?)```", text, re.S)
    assert pairs
    for tower, verdict in pairs:
        assert analyse(json.loads(tower)).to_json() == json.loads(verdict)


if __name__ == "__main__":
    print(known_answers_table(), end="")


def test_a_worst_direction_between_the_sixteen_reads_at_most_two_percent_high() -> None:
    # A slab on two legs set diagonally tips first across the footprint's edge of normal (3, -2), at -33.7°: between
    # the tested directions -22.5° and -45°. The 16 directions read the tilt along -22.5° (11.2° off), within
    # 1 / cos 11.25° of the true worst, as docs/physics.md says: tan 18.40° against tan 18.07°.
    import math

    from kumiki.physics import analyse

    slab = {"bodies": [{"name": "leg", "boxes": [[0, 0, 0, 1, 1, 2], [2, 3, 0, 3, 4, 2], [0, 0, 2, 3, 4, 3]]}]}
    true = 2.5 / math.sqrt(13) / 2.125  # the centre of mass (1.5, 2, 2.125) to the hull's edge, over its height
    read = math.tan(math.radians(analyse(slab).margin_deg))
    assert true < read <= true / math.cos(math.radians(11.25))
    assert read == pytest.approx(true / math.cos(math.atan2(2, 3) - math.radians(22.5)), rel=1e-6)


# ------------------------------------------------------------------------------------------------ an LP unsure


@pytest.mark.parametrize("tower_stands", [True, False])
def test_a_verdict_the_lp_could_not_tell_is_solved_again_not_read_as_falling(
    monkeypatch: pytest.MonkeyPatch, tower_stands: bool
) -> None:
    """Anything but "optimal" read as "falls": a HiGHS that could not tell (numerical trouble, a limit reached) made
    a standing tower fall. It solves again from scratch; still undecided is an error, never a verdict."""
    from kumiki.physics.forces import Solver

    overhang = 0.25 if tower_stands else 0.75
    tower = Tower((box("a", (0, 0, 0, 1, 1, 1)), box("b", (overhang, 0, 1, overhang + 1, 1, 2))))
    real_run = Solver.run
    unsure = {"left": 1}

    def run_once_unsure(self: Solver) -> str:
        real = real_run(self)
        if unsure["left"]:
            unsure["left"] -= 1
            return "Unknown"
        return real

    monkeypatch.setattr(Solver, "run", run_once_unsure)
    verdict = judge(tower, shortcuts=False)
    assert verdict.stands is tower_stands and unsure["left"] == 0
    unsure["left"] = 10**6  # never sure
    with pytest.raises(RuntimeError, match="stand-or-fall linear program failed: HiGHS says 'Unknown'"):
        judge(tower, shortcuts=False)


def test_a_tower_whose_grown_model_the_simplex_cannot_tell_falls() -> None:
    """Six bodies of a property test on which HiGHS's simplex answers "Unknown" for the grown contacts, twice; the
    interior-point method proves the model infeasible: it falls clearly (no knife edge), and the judge says so
    instead of reading "Unknown" as a fall by luck, or failing."""
    tower = Tower(
        (
            box("p0", (0, 0, 0, 2, 1, 2)),
            box("p1", (0, 0, 2, 1, 2, 3), (0, 1, 1, 1, 2, 2), (0, 1, 3, 1, 2, 4)),
            box("p2", (1, 2, 0, 2, 3, 4)),
            box("p3", (0, 1, 4, 1, 3, 5), (0, 2, 5, 1, 3, 7)),
            box("p4", (2, 1, 0, 3, 2, 2)),
            box("p5", (1, 0, 2, 2, 1, 5)),
        )
    )
    for shortcuts in (False, True):
        verdict = judge(tower, shortcuts=shortcuts)
        assert (verdict.stands, verdict.edge) == (False, False) and verdict.moving


def test_the_solver_goes_back_to_its_own_choice_when_stopped_as_it_turns_to_the_interior_point_method(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process's one HiGHS is shared by every later verdict. An exception landing just as ``decided`` set the
    interior-point method (the arena's alarm stopping a move over its limit, a worker's search stopped on undo) came
    before the ``try`` that sets it back: every later model of that worker was solved by the interior-point method."""
    from kumiki.physics import forces, statics
    from kumiki.physics.forces import Solver

    class Stopped(BaseException):
        pass

    lp = forces.solver()
    real = lp.highs

    class Stopping:  # the shared HiGHS, stopped right after it is told to use the interior-point method
        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

        def setOptionValue(self, name: str, value: object) -> object:
            status = real.setOptionValue(name, value)
            if value == "ipm":
                raise Stopped
            return status

    monkeypatch.setattr(Solver, "run", lambda self: "Unknown")
    monkeypatch.setattr(lp, "highs", Stopping())
    try:
        with pytest.raises(Stopped):
            statics.decided(lp)
        assert real.getOptionValue("solver")[1] == "choose"
    finally:
        real.setOptionValue("solver", "choose")  # the shared solver as the next tests need it


@pytest.mark.parametrize("split", [False, True])
def test_a_cube_between_two_columns_has_nothing_to_rest_on_however_they_are_cut(split: bool) -> None:
    """Found by an independent check: a column of two cubes (two boxes) has a face between them, and its edge, level
    with the bottom of a cube set against the column's side, read as a line contact under that cube; grown by ε, two
    such columns held up a cube with nothing under it (a knife edge, standing with ``tie: "stands"``) while the same
    columns as one box each let it fall. The side of a column is flat: the cube has nothing to rest on either way."""
    from kumiki.physics.forces import prepare

    def column(name: str, x: float) -> Body:
        boxes = ((x, 0, 0, x + 1, 1, 1), (x, 0, 1, x + 1, 1, 2)) if split else ((x, 0, 0, x + 1, 1, 2),)
        return Body(name, boxes)

    cube = Body("cube", ((1, 0, 1, 2, 1, 2),))
    tower = Tower((column("a", 0), cube, column("b", 2)), tie="stands")
    for verdict in (judge(tower), judge(tower, shortcuts=False)):
        assert (verdict.stands, verdict.edge) == (False, False)
        assert verdict.moving == ("cube",)
    # The contacts found when the cube is added to the two columns are those found afresh: none under the cube.
    grown = prepare(tower, prepare(Tower((column("a", 0), column("b", 2)), tie="stands")), 1)
    touching = sorted((i.lower, i.upper, i.axis) for i in grown.interfaces)
    assert touching == [(-1, 0, 2), (-1, 2, 2), (0, 1, 0), (1, 2, 0)]
    assert [(i.lower, i.upper, i.axis, i.rects) for i in grown.interfaces] == [
        (i.lower, i.upper, i.axis, i.rects) for i in prepare(tower).interfaces
    ]


def test_the_margin_leaves_out_a_line_contact_beside_an_area_of_the_same_contact() -> None:
    """Found by an independent check: the tilt margin left out contacts made only of lines and points, but a line in
    the same contact as an area (a cube on one ground rectangle, touching a second one along its edge) widened the
    area's hull: the cube read 26.57° (it slides) instead of tipping over the first rectangle's edge at atan 0.2."""
    cube = {"name": "c", "boxes": [[0, 0, 0, 1, 1, 1]]}
    alone = analyse({"ground": [[0, 0, 0.6, 1]], "bodies": [cube]})
    beside = analyse({"ground": [[0, 0, 0.6, 1], [1, 0, 2, 1]], "bodies": [cube]})
    assert beside.stands and not beside.edge
    assert beside.margin_deg == pytest.approx(math.degrees(math.atan(0.1 / 0.5)), abs=1e-6)
    assert beside.margin_deg == pytest.approx(alone.margin_deg, abs=1e-9)


def test_the_contacts_of_two_bodies_of_many_boxes_along_edges_cost_no_scan_of_their_boxes_each() -> None:
    """Found by a review: whether a line or point contact lies on a face between two boxes of one body was asked of
    every box of both bodies, for each such contact, so two checkerboards of unit cubes (800 boxes each, one on the
    other, touching along 7,040 edges and corners) took a second to find their contacts (0.05 s before the rule;
    20 times longer at twice the width). Each body's boxes are now looked at a few times, not once per contact."""
    from collections.abc import Iterator

    from kumiki.physics.contacts import find_interfaces, interfaces_with

    looked = [0]

    class Boxes(tuple[tuple[float, ...], ...]):
        def __iter__(self) -> Iterator[tuple[float, ...]]:
            for box in super().__iter__():
                looked[0] += 1
                yield box

    n = 40
    cells = [(x, y) for x in range(n) for y in range(n)]
    black = Boxes((x, y, 0.0, x + 1.0, y + 1.0, 1.0) for x, y in cells if (x + y) % 2 == 0)
    white = Boxes((x, y, 1.0, x + 1.0, y + 1.0, 2.0) for x, y in cells if (x + y) % 2 == 1)
    tower = Tower((Body("black", black), Body("white", white)))
    found = find_interfaces(tower, 1e-9 * n)
    assert sum(len(i.rects) for i in found) == 7040  # every edge and corner where the two boards meet
    assert looked[0] <= 20 * (len(black) + len(white))
    looked[0] = 0
    lone = find_interfaces(Tower((Body("black", black),)), 1e-9 * n)
    grown = interfaces_with(tower, lone, 1, 1e-9 * n)
    assert [(i.lower, i.upper, i.axis, sorted(i.rects)) for i in grown] == [
        (i.lower, i.upper, i.axis, sorted(i.rects)) for i in found
    ]
    assert looked[0] <= 20 * (len(black) + len(white))
