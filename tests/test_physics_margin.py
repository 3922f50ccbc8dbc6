"""The tilt margin's shortcuts are exact: on random towers it equals the plain way (one LP on the whole friction
pyramid per direction), every collapse line it uses holds for every direction, and the column generation brings
in the pyramid edges that friction needs.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kumiki.physics import Body, Tower, judge
from kumiki.physics import margin as margin_module
from kumiki.physics.forces import prepare
from kumiki.physics.margin import DIRECTIONS, plain_ray, plain_tilt_margin, tilt_margin
from kumiki.physics.samples import brick_stack, cubes, ring_tower, staircase

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SAME_DEG = 1e-5  # the shortcuts agree with the plain way to this (degrees); both come from LPs solved to 1e-9

seeds = st.integers(0, 2**32 - 1)
standing_towers = st.one_of(
    st.builds(ring_tower, st.integers(2, 12), seeds, st.just(True)),
    st.builds(brick_stack, st.integers(2, 12), seeds, st.integers(2, 4), st.just(True)),
)


def _standing(tower: Tower) -> bool:
    return judge(tower, margin=False, explain=False).stands


@SLOW
@given(standing_towers)
def test_the_margin_equals_the_plain_way(tower: Tower) -> None:
    if not _standing(tower):
        return
    setup = prepare(tower)
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


@SLOW
@given(standing_towers, st.sampled_from([4, 8, 12]), st.sampled_from([8, 12]))
def test_other_direction_and_pyramid_counts_equal_the_plain_way(tower: Tower, directions: int, sides: int) -> None:
    if not _standing(tower):
        return
    setup = prepare(tower)
    fast = tilt_margin(setup, directions=directions, sides=sides)
    assert fast == pytest.approx(plain_tilt_margin(setup, directions=directions, sides=sides), abs=SAME_DEG)


def _recorded_lines(monkeypatch: pytest.MonkeyPatch, tower: Tower) -> list[tuple[float, float, float]]:
    """The collapse lines the margin of ``tower`` reads from its LPs' duals."""
    lines: list[tuple[float, float, float]] = []
    mechanism = margin_module._TiltModel.mechanism

    def recording(self: margin_module._TiltModel, duals: object) -> tuple[float, float, float]:
        line = mechanism(self, duals)  # type: ignore[arg-type]
        lines.append(line)
        return line

    with monkeypatch.context() as patch:
        patch.setattr(margin_module._TiltModel, "mechanism", recording)
        tilt_margin(prepare(tower))
    return lines


def test_a_tower_that_tips_reads_collapse_lines_from_its_lps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A column of three cubes tips before it slides: its LPs run, and their duals give lines (the property test
    below checks every line it reads, so it must read some)."""
    assert _recorded_lines(monkeypatch, cubes((0, 0, 0), (0, 0, 1), (0, 0, 2)))


@settings(SLOW, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(tower=standing_towers)
def test_every_collapse_line_holds_in_every_direction(monkeypatch: pytest.MonkeyPatch, tower: Tower) -> None:
    """A line g·v ≤ β read from one direction's duals bounds the tilt the plain way finds in every direction, and
    so do the lines of the whole tower sliding on the table (which a tower of bodies each on one thing, settled
    with no LP, may be left with alone)."""
    if not _standing(tower):
        return
    lines = _recorded_lines(monkeypatch, tower)
    lines += margin_module._slide_lines(margin_module.MU, margin_module.PYRAMID_SIDES)
    setup = prepare(tower)
    for k in range(DIRECTIONS):
        angle = 2 * math.pi * k / DIRECTIONS
        reach = plain_ray(setup, angle)
        for gx, gy, beta in lines:
            assert reach * (gx * math.cos(angle) + gy * math.sin(angle)) <= beta + 1e-7 * max(1.0, abs(beta))


def _count_calls(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    calls: list[int] = []
    original = getattr(margin_module._TiltModel, name)

    def counting(self: margin_module._TiltModel, *args: object) -> object:
        calls.append(1)
        return original(self, *args)

    monkeypatch.setattr(margin_module._TiltModel, name, counting)
    return calls


def test_a_slide_brings_in_the_pyramid_edges_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lone cube slides before it tips: along 22.5° its friction needs an edge the first model leaves out. (The
    cube's own slide settles every direction with no LP at all, so that shortcut is turned off here.)"""
    joins = _count_calls(monkeypatch, "_join")
    monkeypatch.setattr(margin_module, "_chains", lambda setup, flat: None)
    assert tilt_margin(prepare(cubes((0, 0, 0)))) == pytest.approx(math.degrees(math.atan(0.5)), abs=1e-9)
    assert joins


def test_solved_neighbours_settle_the_directions_between_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1×1×4 column tips about an edge of its foot: the rays on either side of an axis meet the same edge of the
    tilt polygon, so about half the directions need no LP."""
    solves = _count_calls(monkeypatch, "solve")
    column = cubes((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3))
    assert tilt_margin(prepare(column)) == pytest.approx(math.degrees(math.atan(0.5 / 2)), abs=1e-9)
    assert len(solves) <= DIRECTIONS // 2


@pytest.mark.parametrize("shift", [0.0, 0.05, 0.09])
def test_a_staircase_matches_the_plain_way(shift: float) -> None:
    setup = prepare(staircase(10, shift))
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


def test_a_tower_that_cannot_stand_upright_on_its_area_contacts_has_no_margin() -> None:
    """Two cubes meeting along an edge only: the margin model leaves line contacts out, so nothing holds the top."""
    setup = prepare(cubes((0, 0, 0), (1, 0, 1)))
    assert tilt_margin(setup) == 0.0
    assert plain_tilt_margin(setup) == 0.0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_kozo_sized_tower_matches_the_plain_way(seed: int) -> None:
    tower = ring_tower(32, seed, standing=True)
    setup = prepare(tower)
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


def test_a_chip_beside_a_boulder_slides_like_any_block() -> None:
    """Bodies whose masses differ by 10⁶: each body's rows are scaled by its mass, so the LP stays well posed."""
    boulder = Body("boulder", ((-1.5, 0.75, 0, 0.25, 2.5, 1.25),), 1.0)
    chip = Body("chip", ((2, 0.5, 0, 3, 1.75, 0.5),), 1e-5)
    tower = Tower((boulder, chip))
    assert judge(tower).margin_deg == pytest.approx(math.degrees(math.atan(0.5)), abs=1e-6)
    setup = prepare(tower)
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


def test_a_block_held_only_by_diagonal_friction_brings_in_the_whole_pyramid() -> None:
    """A block on a small square post, between two walls that it leans on: upright it needs friction along a
    diagonal, which the first four edges cannot give; the model then takes every edge rather than answer 0."""
    c = 0.5 - 0.3
    tower = Tower(
        (
            Body("post", ((-1, -1, 0, c, c, 1),)),
            Body("wall1", ((1, -1, 0, 2, 1, 2),)),
            Body("wall2", ((-1, 1, 0, 1, 2, 2),)),
            Body("block", ((0, 0, 1, 1, 1, 2),)),
        )
    )
    setup = prepare(tower)
    assert plain_tilt_margin(setup) > 1.0
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


def test_the_first_model_must_hold_a_force_straight_up() -> None:
    setup = prepare(cubes((0, 0, 0)))
    pts = margin_module.points(setup, 0.0, area_only=True)
    with pytest.raises(ValueError, match="at least 2"):
        margin_module._TiltModel(setup, pts, 0.5, 16, 0.0, first_edges=1)


@SLOW
@given(standing_towers, st.lists(st.floats(-3, 3), min_size=12, max_size=12))
def test_bodies_of_very_different_densities_equal_the_plain_way(tower: Tower, exponents: list[float]) -> None:
    """Densities from 10⁻³ to 10³: the plain way (unscaled rows, HiGHS's own scaling) and Kumiki's agree."""
    bodies = tuple(Body(b.name, b.boxes, 10.0**e) for b, e in zip(tower.bodies, exponents * 2, strict=False))
    heavy = Tower(bodies, tower.ground, tower.tie)
    if not _standing(heavy):
        return
    setup = prepare(heavy)
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


def _field(columns: int, rows: int, layers: int = 1) -> Tower:
    """Unit cubes side by side on the table, ``layers`` high, each resting on the one under it only."""
    return cubes(*[(float(i), float(j), float(k)) for i in range(columns) for j in range(rows) for k in range(layers)])


@pytest.mark.parametrize("layers", [1, 2])
def test_a_field_of_cubes_slides_with_no_lp(monkeypatch: pytest.MonkeyPatch, layers: int) -> None:
    """Cubes side by side, each on one thing: every one of them slides at tan = μ before it tips, and the whole
    field cannot slide beyond μ either, so every direction is settled with no LP (it took the primal simplex about
    10,000 pivots a direction on a 20 × 10 field: 23 s)."""
    solves = _count_calls(monkeypatch, "solve")
    setup = prepare(_field(6, 4, layers))
    assert tilt_margin(setup) == pytest.approx(math.degrees(math.atan(0.5)), abs=1e-9)
    assert not solves
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


def test_a_field_with_a_bridge_solves_only_the_bridge(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slab resting on two cubes of the field: only those three bodies (the same wherever they are) get an LP."""
    sizes: list[int] = []
    original = margin_module._TiltModel.solve

    def solve(self: margin_module._TiltModel, cap: float) -> object:
        sizes.append(len(self.masses))
        return original(self, cap)

    monkeypatch.setattr(margin_module._TiltModel, "solve", solve)
    field = _field(6, 4)
    bridges = tuple(Body(f"bridge{j}", ((0, j, 1, 2, j + 1, 1.5),)) for j in range(0, 4, 2))
    setup = prepare(Tower(field.bodies + bridges))
    assert tilt_margin(setup) == pytest.approx(math.degrees(math.atan(0.5)), abs=1e-9)
    assert sizes and set(sizes) == {3} and len(sizes) <= DIRECTIONS
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=SAME_DEG)


@st.composite
def fields(draw: st.DrawFn) -> Tower:
    """A field of unit cubes with, on each, nothing, a cube, or a narrower block (shifted, up to three high), a few
    slabs bridging two cubes, random densities: some slide, some tip, some lean on their neighbours."""
    columns, rows = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    density = st.floats(0.1, 10.0)
    bodies: list[Body] = []
    free: set[tuple[int, int]] = set()
    for i in range(columns):
        for j in range(rows):
            bodies.append(Body(f"c{i}_{j}", ((i, j, 0, i + 1, j + 1, 1),), draw(density)))
            top = draw(st.sampled_from(["none", "cube", "block"]))
            if top == "cube":
                bodies.append(Body(f"u{i}_{j}", ((i, j, 1, i + 1, j + 1, 2),), draw(density)))
            elif top == "block":
                for k in range(draw(st.integers(1, 3))):
                    dx, dy = draw(st.sampled_from([0.0, 0.25, 0.5])), draw(st.sampled_from([0.0, 0.25, 0.5]))
                    box = (i + dx, j + dy, 1 + 0.8 * k, i + dx + 0.5, j + dy + 0.5, 1.8 + 0.8 * k)
                    bodies.append(Body(f"b{i}_{j}_{k}", (box,), draw(density)))
            else:
                free.add((i, j))
    for i, j in sorted(free):
        if (i + 1, j) in free and (i, j) in free and draw(st.booleans()):
            free -= {(i, j), (i + 1, j)}
            bodies.append(Body(f"s{i}_{j}", ((i, j, 1, i + 2, j + 1, 1.25),), draw(density)))
    return Tower(tuple(bodies))


@SLOW
@given(fields(), st.sampled_from([0.1, 0.5, 1.0]), st.sampled_from([4, 8, 16]), st.sampled_from([8, 12, 16]))
def test_a_field_equals_the_plain_way(tower: Tower, mu: float, directions: int, sides: int) -> None:
    """The groups taken alone bound the tilt from below, the whole field's slide from above: where they meet is
    the margin, which must be the plain way's."""
    if not _standing(tower):
        return
    setup = prepare(tower)
    fast = tilt_margin(setup, mu, directions, sides)
    assert fast == pytest.approx(plain_tilt_margin(setup, mu, directions, sides), abs=SAME_DEG)
