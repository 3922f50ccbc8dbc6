"""The margin's starting vertex (kumiki.physics.start): a non-singular basis whose forces are compressive at t = 0,
which the primal simplex finishes in far fewer pivots than the dual simplex needs from the slack basis, and which
never changes the margin.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import Calls

from bench.physics_speed import cantilever_stack
from kumiki.physics import Body, Tower
from kumiki.physics import margin as margin_module
from kumiki.physics import start as start_module
from kumiki.physics.forces import Setup, Solver, points, prepare, solver
from kumiki.physics.margin import MAX_TILT, MU, PYRAMID_SIDES, _TiltModel, plain_tilt_margin, tilt_margin
from kumiki.physics.samples import brick_stack, ring_tower
from kumiki.physics.start import supports, vertical_vertex


def _model(setup: Setup, angle: float = math.pi / 8) -> _TiltModel:
    return _TiltModel(setup, points(setup, 0.0, area_only=True), MU, PYRAMID_SIDES, angle, lp=Solver())


def _basis_and_rhs(model: _TiltModel) -> tuple[np.ndarray, np.ndarray, int]:
    """The start's basis matrix (its columns, then a unit column for each row whose logical stays basic), the
    right-hand side, and how many of the columns are forces."""
    found = model.start()
    assert found is not None
    columns, rows = found
    lp = model.highs.getLp()
    matrix = np.zeros((lp.num_row_, lp.num_col_))
    starts, index, value = (np.asarray(a) for a in (lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_))
    for c in range(lp.num_col_):
        matrix[index[starts[c] : starts[c + 1]], c] = value[starts[c] : starts[c + 1]]
    basis = np.hstack([matrix[:, columns], np.eye(lp.num_row_)[:, rows]])
    return basis, np.asarray(lp.row_lower_), len(columns)


@pytest.mark.parametrize("angle", [0.0, math.pi / 8, 5 * math.pi / 4])
@pytest.mark.parametrize(
    "tower",
    [cantilever_stack(40, 0), cantilever_stack(40, 1), brick_stack(12, 3, 4, standing=True)]
    + [ring_tower(10, seed, standing=True) for seed in range(4)],
)
def test_the_start_is_a_vertex_that_stands_upright(tower: Tower, angle: float) -> None:
    """For any direction: six columns for each body it covers, a square non-singular basis, and non-negative
    forces at t = 0."""
    setup = prepare(tower)
    basis, rhs, forces = _basis_and_rhs(_model(setup, angle))
    assert basis.shape[0] == basis.shape[1]
    assert forces % 6 == 0 and forces > 0
    assert np.linalg.matrix_rank(basis) == basis.shape[0]
    values = np.linalg.solve(basis, rhs)
    assert values[:forces].min() >= -1e-12 * np.abs(values).max()
    if forces == basis.shape[0]:  # every body covered: the start holds the tower up on its own
        assert np.abs(basis[:, :forces] @ values[:forces] - rhs).max() <= 1e-12


def test_the_bench_stacks_are_covered_whole() -> None:
    """On the layered stacks the bench times, every body passes its load to a triangle (no logical is left)."""
    for seed in range(3):
        for angle in (0.0, math.pi / 8, math.pi):
            model = _model(prepare(cantilever_stack(60, seed)), angle)
            found = model.start()
            assert found is not None
            assert found[1] == []
            assert len(found[0]) == 6 * 60


def _pivots(monkeypatch: pytest.MonkeyPatch, solve: Callable[[], object]) -> int:
    """Simplex pivots of every LP that ``solve()`` runs, over every column-generation round of every direction."""
    total = 0
    run = _TiltModel._run

    def counted(self: _TiltModel) -> str:
        nonlocal total
        status = run(self)
        total += self.highs.getInfo().simplex_iteration_count
        return status

    with monkeypatch.context() as patch:
        patch.setattr(_TiltModel, "_run", counted)
        solve()
    return total


@pytest.mark.parametrize("seed", range(3))
def test_the_start_saves_most_pivots_of_the_first_direction(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    setup = prepare(cantilever_stack(60, seed))
    started = _model(setup)
    cold = _model(setup)
    cold.restart = lambda: False  # type: ignore[method-assign]
    from_start = _pivots(monkeypatch, lambda: started.solve(MAX_TILT))
    from_slack = _pivots(monkeypatch, lambda: cold.solve(MAX_TILT))
    assert started.highs.getSolution().col_value[0] == pytest.approx(cold.highs.getSolution().col_value[0], rel=1e-7)
    assert from_start * 4 < from_slack


def test_a_body_without_a_triangle_keeps_its_logicals_and_the_margin() -> None:
    """A hook whose centre of mass lies beyond its foot, held shut by a heavy block on its sides (the known answer
    of 2.96°): no triangle under the hook takes its load, so its rows keep their logicals, and the margin is still
    the plain way's."""
    hook = Body("hook", ((0, 0, 0, 1, 1, 3), (1, 0, 2, 3, 1, 3), (2, 0, 1, 3, 1, 2)))
    block = Body("block", ((1, 0, 0, 2, 1, 1.9),), density=3.0)
    setup = prepare(Tower((hook, block)))
    found = _model(setup).start()
    assert found is not None
    assert found[1] == list(range(6))  # the hook's six rows
    assert len(found[0]) == 6  # the block's triangle
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=1e-5)
    assert round(tilt_margin(setup), 2) == 2.96


@pytest.mark.parametrize(
    "tower", [cantilever_stack(16, 0), ring_tower(10, 1, standing=True), brick_stack(8, 2, 4, standing=True)]
)
def test_the_start_after_edges_joined_is_still_the_vertex(tower: Tower) -> None:
    """With little friction the first direction's column generation adds edges, which HiGHS puts after the first
    ones: the next direction's start must still name the pool columns it chose (a vertex that stands upright), not
    their places in the pool's order."""
    setup = prepare(tower)
    model = _TiltModel(setup, points(setup, 0.0, area_only=True), 0.05, PYRAMID_SIDES, math.pi / 8, lp=Solver())
    joined = int(model.joined.sum())
    model.solve(MAX_TILT)
    assert model.joined.sum() > joined  # edges joined after the first ones
    for angle in (math.pi / 8, 3 * math.pi / 8, 9 * math.pi / 8):
        model.turn(angle)
        basis, rhs, forces = _basis_and_rhs(model)
        assert np.linalg.matrix_rank(basis) == basis.shape[0]
        values = np.linalg.solve(basis, rhs)
        assert values[:forces].min() >= -1e-12 * np.abs(values).max()


def _options(lp: Solver) -> list[object]:
    return [lp.highs.getOptionValue(name) for name in ("presolve", "simplex_scale_strategy", "simplex_strategy")]


def test_the_shared_solver_gets_its_options_back_even_when_the_start_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdict shares the margin's solver: if building the start raises, the solver's options are still HiGHS's
    own afterwards, as after a margin that ends well."""
    shared = Solver()
    before = _options(shared)
    setup = prepare(brick_stack(6, 1, 4, standing=True))
    model = _TiltModel(setup, points(setup, 0.0, area_only=True), MU, PYRAMID_SIDES, 0.0, lp=shared)
    model.solve(MAX_TILT)
    assert _options(shared) == before

    def broken(*_: object) -> list[int]:
        raise ZeroDivisionError("a start that fails")

    monkeypatch.setattr(margin_module, "vertical_vertex", broken)
    model = _TiltModel(setup, points(setup, 0.0, area_only=True), MU, PYRAMID_SIDES, 0.0, lp=shared)
    with pytest.raises(ZeroDivisionError):
        model.solve(MAX_TILT)
    assert _options(shared) == before


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.builds(ring_tower, st.integers(2, 10), st.integers(0, 2**32 - 1), st.just(True)),
        st.builds(brick_stack, st.integers(2, 10), st.integers(0, 2**32 - 1), st.integers(2, 4), st.just(True)),
    ),
    st.sampled_from([0.05, 0.1, 2.0]),
    st.sampled_from([1, 2, 3, 5]),
    st.sampled_from([4, 6, 8, 20]),
)
def test_far_from_the_defaults_the_margin_is_the_plain_way_and_the_options_come_back(
    tower: Tower, mu: float, directions: int, sides: int
) -> None:
    """Little or much friction (edges join in the first direction, then the later starts), one to five directions,
    pyramids of 4 to 20 sides (6: no start): the plain way's margin, and the shared solver as HiGHS made it."""
    setup = prepare(tower)
    before = _options(solver())
    fast = tilt_margin(setup, mu, directions, sides)
    assert _options(solver()) == before
    assert fast == pytest.approx(plain_tilt_margin(setup, mu, directions, sides), abs=1e-5)


def _disc_on_the_table(radius: int) -> Tower:
    """A disc of boxes (its contact with the table has about 2·radius hull corners) with a heavy block near its rim,
    so the combined load lies off centre and, in most directions, in no triangle on the edge where it leaves."""
    boxes = []
    for j in range(-radius, radius):
        half = math.floor(math.sqrt(radius**2 - (j + 0.5) ** 2))
        boxes.append((float(-half), float(j), 0.0, float(half), float(j + 1), 1.0))
    rim = 0.8 * radius
    return Tower((Body("disc", tuple(boxes)), Body("weight", ((rim - 1, -0.5, 1, rim, 0.5, 2),), radius**2)))


def test_a_round_contact_of_many_corners_costs_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The most central triangle is not sought among all n³/6 triangles of a large hull (a disc on 104 hull
    corners took 34,000 triangles a direction, the margin 17x the time it takes without the start)."""
    setup = prepare(_disc_on_the_table(160))
    flat = points(setup, 0.0, area_only=True)
    found = supports(setup, flat.select(flat.axis == 2))
    corners = max(len(c) for c in found.corners)
    assert corners > 100
    tried = Calls(start_module._shares)
    monkeypatch.setattr(start_module, "_shares", tried)
    for k in range(16):
        angle = 2 * math.pi * k / 16
        assert vertical_vertex(setup, found, PYRAMID_SIDES, (math.cos(angle), math.sin(angle)))
    assert tried.calls <= 16 * 32 * corners
    monkeypatch.undo()
    assert tilt_margin(setup) == pytest.approx(plain_tilt_margin(setup), abs=1e-5)


def test_a_start_that_leaves_bodies_out_is_not_taken_once_a_basis_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """On this stack each direction's start leaves a body or two out: the later directions go on from the last
    basis, and the whole margin takes no more pivots than with no start at all (from each start: 1,023 against
    552)."""
    setup = prepare(brick_stack(20, 5, 4, standing=True))
    model = _model(setup)
    found = model.start()
    assert found is not None and found[1]  # bodies left out
    started = _pivots(monkeypatch, lambda: tilt_margin(setup))
    monkeypatch.setattr(_TiltModel, "restart", lambda self: False)
    assert started <= _pivots(monkeypatch, lambda: tilt_margin(setup))
