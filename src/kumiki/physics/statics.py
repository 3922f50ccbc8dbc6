"""Stand or fall: a tower of rigid blocks stands if and only if compressive contact forces exist that hold every
block in equilibrium (Livesley 1978; Whiting, Ochsendorf and Durand 2009). That is a linear feasibility problem.

Unknowns are normal forces at the corners of each contact's convex hull (a compressive pressure over a face is
equivalent to such corner forces). Each body gives six equations: force and moment balance. Lengths are divided
by the tower's size and masses by its total mass, so the verdict cannot depend on the units.

Ties: on a unit grid a centre of mass often lies exactly above a support edge. Every contact is solved once shrunk
by ε and once grown by ε (ε = 1e-5 of the tower's size): standing either way or falling either way is a clear
verdict; standing only when grown is a knife edge (``edge``), decided by the tower's ``tie`` rule.

The margin is the tilt-table test: the steepest tilt of the table, in the worst of 16 directions, at which the tower
still stands with Coulomb friction μ on horizontal contacts (an 8-sided pyramid turned so that an edge points along
the tested direction, so a pure slide in that direction is exact) and frictionless side contacts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import highspy
import numpy as np

from kumiki.physics.contacts import GROUND, IN_PLANE, Interface, find_interfaces, support_points
from kumiki.physics.model import Tower

EPSILON = 1e-5  # the knife-edge band, relative to the tower's size
TOLERANCE = 1e-9  # faces closer than this (relative) touch
MU = 0.5
DIRECTIONS = 16
PYRAMID_SIDES = 8
MAX_TILT = 100.0  # tan of the steepest tilt tested (89.4°): frictionless side walls could hold any tilt
RAY_WITHOUT_PRESOLVE = 64  # above this many bodies, the fault is found by bisection instead of a Farkas ray


@dataclass(frozen=True)
class Verdict:
    """The judgement of a tower. ``moving`` names the bodies that would move and ``fault`` says where it gives way."""

    stands: bool
    edge: bool
    margin_deg: float
    bodies: int
    fault: str | None = None
    moving: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stands": self.stands,
            "edge": self.edge,
            "margin_deg": round(self.margin_deg, 2),
            "bodies": self.bodies,
        }
        if not self.stands:
            out["fault"] = self.fault
            out["moving"] = list(self.moving)
        return out


class _Solver:
    """One reusable HiGHS instance (building one costs more than solving a small LP)."""

    def __init__(self) -> None:
        self.highs = highspy.Highs()
        self.highs.setOptionValue("output_flag", False)
        self.highs.setOptionValue("primal_feasibility_tolerance", 1e-9)
        self.highs.setOptionValue("dual_feasibility_tolerance", 1e-9)

    def load(
        self,
        starts: np.ndarray,
        index: np.ndarray,
        value: np.ndarray,
        cost: np.ndarray,
        col_upper: np.ndarray,
        row_lower: np.ndarray,
        row_upper: np.ndarray,
    ) -> None:
        """Pass a model in column-wise sparse form (``starts`` has one entry more than there are columns)."""
        lp = highspy.HighsLp()
        n = len(starts) - 1
        lp.num_col_ = n
        lp.num_row_ = len(row_lower)
        lp.col_cost_ = cost
        lp.col_lower_ = np.zeros(n)
        lp.col_upper_ = col_upper
        lp.row_lower_ = row_lower
        lp.row_upper_ = row_upper
        matrix = lp.a_matrix_
        matrix.format_ = highspy.MatrixFormat.kColwise
        matrix.start_ = starts.astype(np.int32)
        matrix.index_ = index.astype(np.int32)
        matrix.value_ = value.astype(np.float64)
        matrix.num_col_ = n
        matrix.num_row_ = len(row_lower)
        self.highs.clearModel()
        self.highs.passModel(lp)

    def run(self) -> str:
        self.highs.run()
        status = self.highs.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            return "optimal"
        if status == highspy.HighsModelStatus.kInfeasible:
            return "infeasible"
        if status == highspy.HighsModelStatus.kUnbounded:
            return "unbounded"
        return self.highs.modelStatusToString(status)


_SOLVER: _Solver | None = None


def _solver() -> _Solver:
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = _Solver()
    return _SOLVER


@dataclass
class _Setup:
    """A tower in normalized units: centres and masses per body, and its interfaces."""

    tower: Tower
    scale: float
    centres: np.ndarray  # (bodies, 3)
    masses: list[float]
    interfaces: list[Interface]


def _prepare(tower: Tower) -> _Setup:
    scale = tower.scale()
    interfaces = find_interfaces(tower, TOLERANCE * scale)
    total = sum(body.mass for body in tower.bodies)
    centres = np.array([body.centre for body in tower.bodies], dtype=np.float64).reshape(-1, 3) / scale
    masses = [body.mass / total for body in tower.bodies]
    return _Setup(tower, scale, centres, masses, interfaces)


@dataclass
class _Points:
    """Every force point in normalized units: position, contact normal axis, and the bodies on either side."""

    position: np.ndarray  # (n, 3)
    axis: np.ndarray  # (n,)
    upper: np.ndarray  # (n,)
    lower: np.ndarray  # (n,), GROUND for the table


def _points(setup: _Setup, grow: float, area_only: bool = False) -> _Points:
    """The force points of every interface (with ``area_only``, contacts along a line or at a point are left out)."""
    s = setup.scale
    rows: list[tuple[float, float, float, int, int, int]] = []
    for interface in setup.interfaces:
        axis = interface.axis
        u, v = IN_PLANE[axis]
        plane = interface.plane / s
        if area_only and all(r[2] <= r[0] or r[3] <= r[1] for r in interface.rects):
            continue
        for a, b in support_points(interface, grow * s):
            p = [0.0, 0.0, 0.0]
            p[axis] = plane
            p[u] = a / s
            p[v] = b / s
            rows.append((p[0], p[1], p[2], axis, interface.upper, interface.lower))
    data = np.array(rows, dtype=np.float64).reshape(-1, 6)
    ints = data[:, 3:].astype(np.int64)
    return _Points(data[:, :3], ints[:, 0], ints[:, 1], ints[:, 2])


def _side_entries(setup: _Setup, pts: _Points, body: np.ndarray, sign: float) -> tuple[np.ndarray, np.ndarray]:
    """Rows and values (n, 3) of the normal force at each point on ``body`` (rows of bodies < 0 are junk)."""
    centres = setup.centres[np.maximum(body, 0)]
    r = pts.position - centres
    rx, ry, rz = r[:, 0], r[:, 1], r[:, 2]
    base = 6 * np.maximum(body, 0)
    axis = pts.axis
    ones = np.full(len(axis), sign)
    rows = np.where(
        (axis == 2)[:, None],
        np.stack([base + 2, base + 3, base + 4], axis=1),
        np.where(
            (axis == 0)[:, None],
            np.stack([base, base + 4, base + 5], axis=1),
            np.stack([base + 1, base + 3, base + 5], axis=1),
        ),
    )
    values = np.where(
        (axis == 2)[:, None],
        np.stack([ones, sign * ry, -sign * rx], axis=1),
        np.where(
            (axis == 0)[:, None],
            np.stack([ones, sign * rz, -sign * ry], axis=1),
            np.stack([ones, -sign * rz, sign * rx], axis=1),
        ),
    )
    return rows, values


def _normal_entries(setup: _Setup, pts: _Points) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Column-wise (rows, values, mask) of shape (n, 6): a normal force's entries on its upper and lower body."""
    up_rows, up_vals = _side_entries(setup, pts, pts.upper, 1.0)
    lo_rows, lo_vals = _side_entries(setup, pts, pts.lower, -1.0)
    rows = np.concatenate([up_rows, lo_rows], axis=1)
    vals = np.concatenate([up_vals, lo_vals], axis=1)
    mask = np.ones(rows.shape, dtype=bool)
    mask[:, 3:] = (pts.lower >= 0)[:, None]
    return rows, vals, mask


def _csc(rows: np.ndarray, vals: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    counts = mask.sum(axis=1)
    starts = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return starts, rows[mask], vals[mask]


def _body_rhs(setup: _Setup) -> np.ndarray:
    rhs = np.zeros(6 * len(setup.masses))
    rhs[2::6] = setup.masses
    return rhs


def _feasible(setup: _Setup, grow: float) -> bool:
    """Whether compressive normal forces hold every body with the contacts grown by ``grow`` (shrunk if < 0)."""
    pts = _points(setup, grow)
    starts, index, value = _csc(*_normal_entries(setup, pts))
    n = len(starts) - 1
    rhs = _body_rhs(setup)
    solver = _solver()
    solver.load(starts, index, value, np.zeros(n), np.full(n, highspy.kHighsInf), rhs, rhs)
    return solver.run() == "optimal"


def _moving_bodies(setup: _Setup) -> list[int]:
    """The bodies that would move: those whose rows carry the infeasibility certificate (Farkas dual ray).

    Presolve may prove infeasibility without a ray; then the last model is solved again without it.
    """
    resting = {i.upper for i in setup.interfaces if i.axis == 2}
    floating = [b for b in range(len(setup.masses)) if b not in resting]
    if floating:
        return floating
    if len(setup.masses) > RAY_WITHOUT_PRESOLVE:
        return _first_failing_body(setup)  # HiGHS may re-solve without presolve to find a ray: too slow here
    highs = _solver().highs
    _status, has_ray, ray = highs.getDualRay()
    if not has_ray:
        highs.setOptionValue("presolve", "off")
        try:
            highs.clearSolver()  # else HiGHS may keep the presolved answer and skip the solve that gives a ray
            highs.run()
            _status, has_ray, ray = highs.getDualRay()
        finally:
            highs.setOptionValue("presolve", "choose")
    ray = np.asarray(ray, dtype=float) if has_ray else np.zeros(0)
    size = float(np.max(np.abs(ray))) if ray.size else 0.0
    if size <= 0:
        return _first_failing_body(setup)  # no certificate to read: find the body by bisection
    per_body = np.abs(ray).reshape(-1, 6).max(axis=1)
    return [b for b, value in enumerate(per_body) if value > 1e-6 * size]


def _first_failing_body(setup: _Setup) -> list[int]:
    """For a large tower: the body whose addition, bottom up, makes the tower fall.

    Bodies are ordered by their lowest point; a bisection finds the shortest such prefix that cannot stand, in a
    handful of presolved solves, and names its last body.
    """
    tower = setup.tower
    order = sorted(range(len(tower.bodies)), key=lambda b: (min(box[2] for box in tower.bodies[b].boxes), b))
    low, high = 1, len(order)  # the prefix of length `high` falls
    while low < high:
        middle = (low + high) // 2
        part = Tower(tuple(tower.bodies[b] for b in order[:middle]), tower.ground, tower.tie)
        if _feasible(_prepare(part), -EPSILON):
            low = middle + 1
        else:
            high = middle
    return [order[high - 1]]


def _fault(setup: _Setup, moving: list[int]) -> str:
    bodies = setup.tower.bodies
    if not moving:
        return "the tower cannot stand"
    still = set(range(len(bodies))) - set(moving)
    supports = [
        i for i in setup.interfaces if i.axis == 2 and i.upper in moving and (i.lower == GROUND or i.lower in still)
    ]
    if supports:
        lowest = min(supports, key=lambda i: (i.plane, i.upper))
        under = "the table" if lowest.lower == GROUND else bodies[lowest.lower].name
        return f"{bodies[lowest.upper].name} tips over the edge of {under}"
    lowest_body = min(moving, key=lambda b: (min(box[2] for box in bodies[b].boxes), b))
    return f"{bodies[lowest_body].name} has nothing to rest on"


def judge(tower: Tower, margin: bool = True, explain: bool = True) -> Verdict:
    """Stand or fall, whether it hangs on a knife edge, the tilt margin in degrees (if ``margin``), and for a
    falling tower which bodies would move and where it gives way (if ``explain``; it costs one more solve)."""
    setup = _prepare(tower)
    count = len(tower.bodies)
    if _feasible(setup, -EPSILON):
        tilt = tilt_margin(setup) if margin else 0.0
        return Verdict(True, False, tilt, count)
    edge = _feasible(setup, EPSILON)
    if edge and tower.tie == "stands":
        return Verdict(True, True, 0.0, count)
    if not explain:
        return Verdict(False, edge, 0.0, count)
    if edge:
        _feasible(setup, -EPSILON)  # the certificate of the knife edge comes from the shrunk model
    moving = _moving_bodies(setup)
    names = tuple(tower.bodies[b].name for b in moving)
    fault = _fault(setup, moving) + (" (balanced exactly on the edge)" if edge else "")
    return Verdict(False, edge, 0.0, count, fault, names)


def tilt_margin(setup: _Setup, mu: float = MU, directions: int = DIRECTIONS, sides: int = PYRAMID_SIDES) -> float:
    """The largest tilt (degrees) of the table, in the worst of ``directions`` directions, at which it stands.

    A point of a horizontal contact carries a force in the friction pyramid: a non-negative combination of its
    ``sides`` edges, each the unit normal plus μ times a unit tangent. The pyramid is turned so that one edge points
    along the tilt direction tested, so a slide along it meets the full Coulomb limit; the directions that share a
    pyramid share one model. A point of a side contact carries a normal force only; contacts along a line or at a
    point are left out (they matter only on a knife edge, which the verdict settles). One more column is the tilt
    t = tan(angle), which loads every body with m·t along the tilt direction; the LP maximises t, direction after
    direction, changing only t's coefficients so that each solve starts from the last basis.
    """
    pts = _points(setup, 0.0, area_only=True)
    turns = max(1, directions // sides) if directions % sides == 0 else directions
    per_turn = directions // turns
    worst = MAX_TILT
    basis = None
    for turn in range(turns):
        # Go round from the direction next to where the last model stopped, and start from its basis: the models
        # differ only by the turn of their pyramids, so the last basis is a good first guess.
        tested = [2 * math.pi * (turn + turns * ((k - turn) % per_turn)) / directions for k in range(per_turn)]
        edges = [tested[0] + 2 * math.pi * j / sides for j in range(sides)]
        tilt, basis = _max_tilt(setup, pts, mu, edges, tested, worst, basis)
        worst = min(worst, tilt)
        if worst <= 0.0:
            return 0.0
    return math.degrees(math.atan(worst))


def _max_tilt(
    setup: _Setup,
    pts: _Points,
    mu: float,
    edges: list[float],
    tested: list[float],
    bound: float,
    basis: Any = None,
) -> tuple[float, Any]:
    """The smallest, over the ``tested`` directions, of the largest tilt tan the tower stands, with friction pyramid
    edges at the angles ``edges``."""
    bodies = len(setup.masses)
    side = np.nonzero(pts.axis != 2)[0]
    flat = np.nonzero(pts.axis == 2)[0]
    rows, vals, mask = _normal_entries(setup, pts)
    s_starts, s_index, s_value = _csc(rows[side], vals[side], mask[side])
    h = len(flat)
    shape = (h, len(edges))
    c = np.cos(np.asarray(edges))[None, :]
    sn = np.sin(np.asarray(edges))[None, :]
    e_rows = []
    e_vals = []
    e_mask = []
    for body, sign in ((pts.upper[flat], 1.0), (pts.lower[flat], -1.0)):
        r = pts.position[flat] - setup.centres[np.maximum(body, 0)]
        rx, ry, rz = r[:, 0:1], r[:, 1:2], r[:, 2:3]
        base = (6 * np.maximum(body, 0))[:, None]
        fx, fy = sign * mu * c, sign * mu * sn
        fz = np.full(shape, sign)
        e_rows += [np.broadcast_to(base + k, shape) for k in range(6)]
        e_vals += [
            np.broadcast_to(fx, shape),
            np.broadcast_to(fy, shape),
            fz,
            ry * fz - rz * fy,
            rz * fx - rx * fz,
            rx * fy - ry * fx,
        ]
        e_mask += [np.broadcast_to((body >= 0)[:, None], shape)] * 6
    f_starts, f_index, f_value = _csc(
        np.stack(e_rows, axis=2).reshape(h * len(edges), -1),
        np.stack(e_vals, axis=2).reshape(h * len(edges), -1),
        np.stack(e_mask, axis=2).reshape(h * len(edges), -1),
    )
    t_index = np.stack([6 * np.arange(bodies), 6 * np.arange(bodies) + 1], axis=1).reshape(-1)
    offset = s_starts[-1]
    starts = np.concatenate([s_starts[:-1], offset + f_starts, [offset + f_starts[-1] + len(t_index)]])
    index = np.concatenate([s_index, f_index, t_index])
    value = np.concatenate([s_value, f_value, np.zeros(len(t_index))])
    columns = len(starts) - 1
    tilt = columns - 1
    rhs = _body_rhs(setup)
    cost = np.zeros(columns)
    cost[tilt] = -1.0
    bounds = np.full(columns, highspy.kHighsInf)
    bounds[tilt] = bound
    solver = _solver()
    solver.load(starts, index, value, cost, bounds, rhs, rhs)
    highs = solver.highs
    worst = bound
    highs.setOptionValue("presolve", "off")  # keep each solve's basis for the next direction
    try:
        for number, angle in enumerate(tested):
            cos_a, sin_a = math.cos(angle), math.sin(angle)
            for b, m in enumerate(setup.masses):
                highs.changeCoeff(6 * b, tilt, m * cos_a)
                highs.changeCoeff(6 * b + 1, tilt, m * sin_a)
            if number == 0:
                if basis is not None:
                    highs.setBasis(basis)
                else:  # a cold start: presolve pays off once
                    highs.setOptionValue("presolve", "choose")
            elif number == 1:
                highs.setOptionValue("presolve", "off")
            if solver.run() != "optimal":
                return 0.0, None
            worst = min(worst, max(0.0, highs.getSolution().col_value[tilt]))
            # Only the smallest tilt matters: cap t there, so a later direction that reaches the cap stops early.
            highs.changeColBounds(tilt, 0.0, worst)
        return worst, highs.getBasis()
    finally:
        highs.setOptionValue("presolve", "choose")


def analyse(tower: Tower | dict[str, Any], margin: bool = True, explain: bool = True) -> Verdict:
    """Judge a tower given as a :class:`Tower` or in the contract's JSON form."""
    from kumiki.physics.model import tower_from_json

    if not isinstance(tower, Tower):
        tower = tower_from_json(tower)  # TowerError for anything that is not the contract's JSON object
    return judge(tower, margin, explain)
