"""The margin's starting vertex (kumiki.physics.start): a non-singular basis whose forces are compressive at t = 0,
which the primal simplex finishes in far fewer pivots than the dual simplex needs from the slack basis, and which
never changes the margin.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench.physics_speed import cantilever_stack
from kumiki.physics import Body, Tower
from kumiki.physics.forces import Setup, Solver, points, prepare
from kumiki.physics.margin import MAX_TILT, MU, PYRAMID_SIDES, _TiltModel, plain_tilt_margin, tilt_margin
from kumiki.physics.samples import brick_stack, ring_tower


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


def _pivots(model: _TiltModel) -> int:
    """Simplex pivots of one uncapped solve, over every column-generation round."""
    total = 0
    run = model._run

    def counted() -> str:
        nonlocal total
        status = run()
        total += model.highs.getInfo().simplex_iteration_count
        return status

    model._run = counted  # type: ignore[method-assign]
    model.solve(MAX_TILT)
    return total


@pytest.mark.parametrize("seed", range(3))
def test_the_start_saves_most_pivots_of_the_first_direction(seed: int) -> None:
    setup = prepare(cantilever_stack(60, seed))
    started = _model(setup)
    cold = _model(setup)
    cold.restart = lambda: False  # type: ignore[method-assign]
    from_start, from_slack = _pivots(started), _pivots(cold)
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
