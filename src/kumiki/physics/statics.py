"""Stand or fall: a tower of rigid blocks stands if and only if compressive contact forces exist that hold every
block in equilibrium (Livesley 1978; Whiting, Ochsendorf and Durand 2009). That is a linear feasibility problem.

Unknowns are normal forces at the corners of each contact's convex hull (a compressive pressure over a face is
equivalent to such corner forces). Each body gives six equations: force and moment balance. Lengths are divided
by the tower's size and masses by its total mass, so the verdict cannot depend on the units.

Ties: on a unit grid a centre of mass often lies exactly above a support edge. Every contact is solved once shrunk
by ε and once grown by ε (ε = 1e-5 of the tower's size): standing either way or falling either way is a clear
verdict; standing only when grown is a knife edge (``edge``), decided by the tower's ``tie`` rule.

The margin, the tilt-table test, is in :mod:`kumiki.physics.margin`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import highspy
import numpy as np

from kumiki.physics.certificates import load_path, mechanism
from kumiki.physics.contacts import GROUND
from kumiki.physics.forces import (
    ROWS,
    TOLERANCE,
    Setup,
    Solver,
    body_rhs,
    csc,
    normal_entries,
    points,
    prepare,
    solver,
)
from kumiki.physics.margin import tilt_margin
from kumiki.physics.model import Tower, TowerError

__all__ = ["EPSILON", "TOLERANCE", "Verdict", "analyse", "judge"]

EPSILON = 1e-5  # the knife-edge band, relative to the tower's size
INFEASIBLE_OR_UNBOUNDED = "Primal infeasible or unbounded"  # HiGHS's words for kUnboundedOrInfeasible
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
        """The verdict as the contract's JSON object (``kumiki stability --json`` prints it)."""
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


def _row_scale(setup: Setup) -> np.ndarray:
    """Each body's six rows are divided by its mass, so that HiGHS's feasibility tolerance (10⁻⁹) is a share of
    that body's own weight, not of the tower's: unscaled, a block of 10⁻⁹ of the total mass (a hook beside an
    anvil far away) could hang in the air within the tolerance, and read as standing."""
    return np.repeat(1.0 / np.asarray(setup.masses, dtype=np.float64), ROWS)


def _feasible(setup: Setup, grow: float) -> bool:
    """Whether compressive normal forces hold every body with the contacts grown by ``grow`` (shrunk if < 0).

    Rows are scaled by :func:`_row_scale` and each force by the lighter mass of the two bodies it joins (as the
    margin's model is), so light and heavy bodies are held to the same relative precision."""
    pts = points(setup, grow)
    rows, values, mask = normal_entries(setup, pts)
    masses = np.asarray(setup.masses, dtype=np.float64)
    lower = np.where(pts.lower >= 0, masses[np.maximum(pts.lower, 0)], np.inf)
    lighter = np.minimum(masses[pts.upper], lower)
    row_scale = _row_scale(setup)
    starts, index, value = csc(rows, values * lighter[:, None] * row_scale[rows], mask)
    n = len(starts) - 1
    rhs = body_rhs(setup) * row_scale
    lp = solver()
    lp.load(starts, index, value, np.zeros(n), np.full(n, highspy.kHighsInf), rhs, rhs)
    return decided(lp)


def decided(lp: Solver) -> bool:
    """Solve the loaded feasibility model: True if forces exist (optimal), False if none do (infeasible).

    A body with no contact at all leaves a model without columns, which HiGHS calls "Empty": forces exist only if
    nothing needs holding. When the simplex cannot tell (numerical trouble: 1 of the 13,598 LPs of the certificates
    test's 10,000 Kozo towers, and 1 of 400 of the property tests' towers; both infeasible, proved by the
    interior-point method), it solves again from scratch, then by the interior-point method; still undecided is an
    error, never a verdict: the tie rule is for towers on a knife edge, not for a solver that could not tell."""
    status = lp.run()
    highs = lp.highs
    if status not in ("optimal", "infeasible", "Empty", INFEASIBLE_OR_UNBOUNDED):
        highs.clearSolver()
        status = lp.run()
    if status not in ("optimal", "infeasible", "Empty", INFEASIBLE_OR_UNBOUNDED):
        try:  # set inside: an exception landing just after it (a stopped move) must not leave the shared solver so
            highs.setOptionValue("solver", "ipm")
            highs.clearSolver()
            status = lp.run()
        finally:
            highs.setOptionValue("solver", "choose")
    if status == INFEASIBLE_OR_UNBOUNDED:  # the objective is 0, so nothing is unbounded: infeasible
        return False
    if status == "Empty":
        model = highs.getLp()
        lower, upper = np.asarray(model.row_lower_), np.asarray(model.row_upper_)
        return bool(np.all((lower <= 0) & (upper >= 0)))
    if status not in ("optimal", "infeasible"):
        raise RuntimeError(f"the stand-or-fall linear program failed: HiGHS says {status!r}")
    return status == "optimal"


def _moving_bodies(setup: Setup) -> list[int]:
    """The bodies that would move: those whose rows carry the infeasibility certificate (Farkas dual ray).

    Presolve may prove infeasibility without a ray; then the last model is solved again without it.
    """
    resting = {i.upper for i in setup.interfaces if i.axis == 2}
    floating = [b for b in range(len(setup.masses)) if b not in resting]
    if floating:
        return floating
    if len(setup.masses) > RAY_WITHOUT_PRESOLVE:
        return _first_failing_body(setup)  # HiGHS may re-solve without presolve to find a ray: too slow here
    highs = solver().highs
    # [attr-defined]: highspy's type stubs leave out getDualRay, which the compiled class has (highspy ≥ 1.10).
    _status, has_ray, ray = highs.getDualRay()  # type: ignore[attr-defined]
    if not has_ray:
        highs.setOptionValue("presolve", "off")
        try:
            highs.clearSolver()  # else HiGHS may keep the presolved answer and skip the solve that gives a ray
            highs.run()
            _status, has_ray, ray = highs.getDualRay()  # type: ignore[attr-defined]  # (see above)
        finally:
            highs.setOptionValue("presolve", "choose")
    ray = np.asarray(ray, dtype=float) * _row_scale(setup) if has_ray else np.zeros(0)  # the unscaled rows' ray
    size = float(np.max(np.abs(ray))) if ray.size else 0.0
    if size <= 0:
        return _first_failing_body(setup)  # no certificate to read: find the body by bisection
    per_body = np.abs(ray).reshape(-1, 6).max(axis=1)
    return [b for b, value in enumerate(per_body) if value > 1e-6 * size]


def _first_failing_body(setup: Setup) -> list[int]:
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
        if _feasible(prepare(part), -EPSILON):
            low = middle + 1
        else:
            high = middle
    return [order[high - 1]]


def _fault(setup: Setup, moving: list[int]) -> str:
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


def judge(
    tower: Tower,
    margin: bool = True,
    explain: bool = True,
    *,
    setup: Setup | None = None,
    added: int | None = None,
    shortcuts: bool = True,
) -> Verdict:
    """Stand or fall, whether it hangs on a knife edge, the tilt margin in degrees (if ``margin``), and for a
    falling tower which bodies would move and where it gives way (if ``explain``).

    The certificates (:mod:`kumiki.physics.certificates`) settle most towers without an LP; ``shortcuts=False``
    asks the LP every time (the reference they are tested against). ``setup`` passes a tower already prepared
    (:func:`~kumiki.physics.forces.prepare`, perhaps from its parent's); ``added`` names a body without which the
    tower stands clearly (one just placed), which narrows the search for what falls to sets holding it.
    """
    if not tower.bodies:
        raise TowerError("a tower needs at least one body")
    setup = setup if setup is not None else prepare(tower)
    count = len(tower.bodies)
    shrunk_mechanism: list[int] | None = None
    if shortcuts:
        if load_path(setup, -EPSILON):
            return Verdict(True, False, tilt_margin(setup) if margin else 0.0, count)
        moving = mechanism(setup, EPSILON, added)
        if moving is not None:
            return _falls(setup, moving, False, explain)
        shrunk_mechanism = mechanism(setup, -EPSILON, added)
        if shrunk_mechanism is not None and load_path(setup, EPSILON):
            if tower.tie == "stands":
                return Verdict(True, True, 0.0, count)
            return _falls(setup, shrunk_mechanism, True, explain)
    if _feasible(setup, -EPSILON):
        tilt = tilt_margin(setup) if margin else 0.0
        return Verdict(True, False, tilt, count)
    edge = _feasible(setup, EPSILON)
    if edge and tower.tie == "stands":
        return Verdict(True, True, 0.0, count)
    if not explain:
        return Verdict(False, edge, 0.0, count)
    if edge and shrunk_mechanism is not None:
        return _falls(setup, shrunk_mechanism, True, explain)
    if edge:
        _feasible(setup, -EPSILON)  # the certificate of the knife edge comes from the shrunk model
    return _falls(setup, _moving_bodies(setup), edge, explain)


def _falls(setup: Setup, moving: list[int], edge: bool, explain: bool) -> Verdict:
    """The verdict of a falling tower: what moves and where it gives way (if ``explain``)."""
    bodies = setup.tower.bodies
    if not explain:
        return Verdict(False, edge, 0.0, len(bodies))
    names = tuple(bodies[b].name for b in moving)
    fault = _fault(setup, moving) + (" (balanced exactly on the edge)" if edge else "")
    return Verdict(False, edge, 0.0, len(bodies), fault, names)


def analyse(tower: Tower | dict[str, Any], margin: bool = True, explain: bool = True) -> Verdict:
    """Judge a tower given as a :class:`Tower` or in the contract's JSON form, in any units
    (:func:`~kumiki.physics.model.in_judged_units`)."""
    from kumiki.physics.model import in_judged_units, tower_from_json

    if not isinstance(tower, Tower):
        tower = tower_from_json(tower)  # TowerError for anything that is not the contract's JSON object
    if not tower.bodies:
        raise TowerError("a tower needs at least one body")
    tower = in_judged_units(tower)
    setup = prepare(tower)
    verdict = judge(tower, margin, explain, setup=setup)
    if verdict.edge:
        _refuse_too_fine(setup)
    return verdict


def _refuse_too_fine(setup: Setup) -> None:
    """TowerError when a knife edge may be only a face too narrow for the band: a face narrower than 2 ε of the
    tower's size vanishes when the contacts are shrunk by ε, so a body resting on it reads as balanced on an edge
    wherever its centre lies (a plank 10⁵ times as long as it is wide, lying on the table, "fell" so)."""
    from kumiki.physics.model import TowerError

    bodies, scale = setup.tower.bodies, setup.scale
    for interface in setup.interfaces:
        for u0, v0, u1, v1 in interface.rects:
            width = min(u1 - u0, v1 - v0)
            if TOLERANCE * scale < width < 2 * EPSILON * scale:
                lower = "the table" if interface.lower == GROUND else bodies[interface.lower].name
                raise TowerError(
                    f"{bodies[interface.upper].name} touches {lower} over a face {width / scale:.1e} of the tower's "
                    f"size wide, below the judge's knife-edge band (2 × {EPSILON:g}): too fine to tell a knife edge "
                    'from a face (kumiki docs physics, "Knife edges and the tie rule")'
                )
