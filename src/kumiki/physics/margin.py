"""The tilt margin: the steepest tilt of the table, in the worst of 16 directions, at which the tower still stands,
with Coulomb friction on its horizontal contacts and frictionless side contacts (the tilt-table test).

The model: a point of a horizontal contact carries a force in the friction pyramid, a non-negative combination of
its edges, each the unit normal plus μ times a unit tangent. The pyramid has an edge along every tested direction,
so a slide along any of them meets the full Coulomb limit. A point of a side contact carries a normal force only;
contacts along a line or at a point are left out (they matter only on a knife edge, which the verdict settles).
One more column is the tilt t = tan(angle), loading every body with m·t along the direction tested; the linear
program maximises t.

Three exact shortcuts make this cost a handful of LPs rather than sixteen (docs/physics.md, "Speed"):

* Column generation. The model starts with 4 of the pyramid's edges at each point. After each solve the duals
  price every edge left out (its reduced cost), and the edges that would raise t join; a direction ends only when
  none would, so its answer is the optimum of the whole pyramid.
* The tilt polygon. The loads the tower can carry form a convex polygon in the (tx, ty) plane. Each solved
  direction gives a point of it (its forces) and, from its duals, a line the polygon never crosses (a collapse
  mechanism). A direction whose ray meets the chord between its solved neighbours beyond the smallest tilt found
  cannot be the worst and needs no LP; nor does one whose ray is pinned between that chord and a known line.
* Each direction's LP starts from a vertex at t = 0 built from the tower's shape (:mod:`kumiki.physics.start`),
  which the primal simplex finishes in a few hundred pivots, and t is capped at the smallest tilt found so far.

And before any of them, for a field of blocks side by side (where every block sliding at once took the primal
simplex thousands of pivots a direction): the whole tower's slide on the table bounds each direction from above,
and each group of bodies joined by horizontal contacts, taken alone, from below; a direction where they meet needs
no LP on the whole tower (:func:`_sliding`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import highspy
import numpy as np

from kumiki.physics.contacts import hull
from kumiki.physics.forces import ROWS, Points, Setup, Solver, body_rhs, csc, normal_entries, points, solver
from kumiki.physics.start import Supports, supports, vertical_vertex

MU = 0.5
DIRECTIONS = 16
PYRAMID_SIDES = 16
MAX_TILT = 100.0  # tan of the steepest tilt tested (89.4°): frictionless side walls could hold any tilt
FIRST_EDGES = 4  # pyramid edges per point in the first model
PRICE_TOLERANCE = 1e-9  # an edge joins when it would raise t by more than this (relative to the duals)
SAME = 1e-7  # two bounds on a tilt this close (relative) are equal
ROUNDS = 50  # column-generation rounds before every edge joins at once
DEFAULT_SCALING = 2  # HiGHS's simplex_scale_strategy when it is not ours to set
DEFAULT_STRATEGY = 1  # HiGHS's simplex_strategy (the dual simplex) when it is not ours to set
PRIMAL = 4  # simplex_strategy: the primal simplex, from the starting vertex


@dataclass
class _Pool:
    """Every pyramid edge of every horizontal contact point as a column: ``rows`` and ``values`` (n, 12), point-major
    (the edges of point i are columns i·sides … i·sides + sides − 1); entries on the table go to row ``junk``."""

    rows: np.ndarray
    values: np.ndarray
    junk: int

    def prices(self, duals: np.ndarray) -> np.ndarray:
        """aᵀy for every column: positive where adding the column would raise t."""
        y = np.append(duals, 0.0)
        prices: np.ndarray = np.einsum("ij,ij->i", self.values, y[self.rows])
        return prices

    def columns(self, which: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows, values = self.rows[which], self.values[which]
        return csc(rows, values, rows != self.junk)


def _pyramid_pool(setup: Setup, pts: Points, mu: float, sides: int) -> _Pool:
    bodies = len(setup.masses)
    junk = ROWS * bodies
    shape = (len(pts.axis), sides)
    angles = 2 * math.pi * np.arange(sides) / sides
    c, s = np.cos(angles)[None, :], np.sin(angles)[None, :]
    rows: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for body, sign in ((pts.upper, 1.0), (pts.lower, -1.0)):
        r = pts.position - setup.centres[np.maximum(body, 0)]
        rx, ry, rz = r[:, 0:1], r[:, 1:2], r[:, 2:3]
        fx, fy = sign * mu * c, sign * mu * s
        fz = np.full(shape, sign)
        values += [
            np.broadcast_to(fx, shape),
            np.broadcast_to(fy, shape),
            fz,
            ry * fz - rz * fy,
            rz * fx - rx * fz,
            rx * fy - ry * fx,
        ]
        base = np.where(body >= 0, ROWS * body, junk)[:, None]
        for k in range(ROWS):
            rows.append(np.broadcast_to(np.where(base == junk, junk, base + k), shape))
    return _Pool(
        np.stack(rows, axis=2).reshape(-1, 2 * ROWS),
        np.stack(values, axis=2).reshape(-1, 2 * ROWS),
        junk,
    )


class _TiltModel:
    """The margin LP for one tower, kept in one solver between directions. Column 0 is the tilt.

    Each body's six rows are divided by its mass and each force column multiplied by the lighter mass of the two
    bodies it joins (``scale``), so a chip beside a boulder gives rows and forces of the same size, and the solver's
    tolerances mean the same for both: HiGHS's own scaling can then stay off, which takes 2–3× fewer iterations on
    this model. The duals handed out are those of the unscaled rows.
    """

    def __init__(
        self,
        setup: Setup,
        pts: Points,
        mu: float,
        sides: int,
        angle: float,
        first_edges: int = FIRST_EDGES,
        lp: Solver | None = None,
        scale: bool = True,
    ) -> None:
        if first_edges < 2:
            raise ValueError(f"first_edges must be at least 2 (to hold a force straight up), not {first_edges}")
        if sides % first_edges:
            first_edges = sides  # evenly spaced first edges only
        flat, side = pts.select(pts.axis == 2), pts.select(pts.axis != 2)
        self.masses = np.asarray(setup.masses)
        self.rhs = body_rhs(setup)
        self.row_scale = np.repeat(1.0 / self.masses if scale else np.ones(len(self.masses)), ROWS)
        self.load = self.masses * self.row_scale[::ROWS]  # the tilt column's weight on each body's scaled rows
        self.pool = _pyramid_pool(setup, flat, mu, sides)
        self.pool_scale = np.repeat(self._force_scale(flat, scale), sides)
        count = len(self.pool.rows)
        self.joined = (np.arange(count) % sides) % (sides // first_edges) == 0
        bodies = len(self.masses)
        t_rows = np.stack([ROWS * np.arange(bodies), ROWS * np.arange(bodies) + 1], axis=1).reshape(-1)
        t_values = np.stack([self.load * math.cos(angle), self.load * math.sin(angle)], axis=1).reshape(-1)
        keep = np.abs(t_values) > 1e-15 * self.load.repeat(2)
        s_starts, s_index, s_value = csc(*normal_entries(setup, side))
        s_value = s_value * np.repeat(self._force_scale(side, scale), np.diff(s_starts)) * self.row_scale[s_index]
        p_starts, p_index, p_value = self._pool_columns(np.nonzero(self.joined)[0])
        t_count = int(keep.sum())
        starts = np.concatenate([[0], t_count + s_starts, t_count + s_starts[-1] + p_starts[1:]])
        index = np.concatenate([t_rows[keep], s_index, p_index])
        value = np.concatenate([t_values[keep], s_value, p_value])
        columns = len(starts) - 1
        cost = np.zeros(columns)
        cost[0] = -1.0
        upper = np.full(columns, np.inf)
        upper[0] = MAX_TILT
        self.solver = solver() if lp is None else lp
        rhs = self.rhs * self.row_scale
        self.solver.load(starts, index, value, cost, upper, rhs, rhs)
        self.highs = self.solver.highs
        self.angle = angle
        self.setup, self.flat, self.sides = setup, flat, sides
        self.column = np.full(count, -1, dtype=np.int64)  # each pool column's column in HiGHS (-1: not joined)
        self.column[self.joined] = np.arange(len(s_starts), columns)  # after the tilt and the side contacts
        self.supports: Supports | None = None  # for the starting vertex, found on first use (plain_ray needs none)
        self.solved = False  # whether a direction has been solved (its basis is HiGHS's)
        quarter = np.arange(len(flat.axis))[:, None] * sides + np.arange(0, sides, max(1, sides // 4))
        self.startable = sides % 4 == 0 and bool(self.joined[quarter].all())

    def start(self) -> tuple[list[int], list[int]] | None:
        """The vertex at t = 0 built for the current direction (:mod:`kumiki.physics.start`): the model's columns
        it makes basic, and the rows whose logicals stay basic (bodies it leaves out); None if the first edges lack
        the pairs along x and y it uses, or it covers no body."""
        if not self.startable:
            return None
        if self.supports is None:
            self.supports = supports(self.setup, self.flat)
        direction = (math.cos(self.angle), math.sin(self.angle))
        pool = np.asarray(vertical_vertex(self.setup, self.supports, self.sides, direction), dtype=np.int64)
        if not len(pool):
            return None
        covered = np.zeros(len(self.masses), dtype=bool)
        covered[self.flat.upper[pool // self.sides]] = True
        rows = np.nonzero(np.repeat(~covered, ROWS))[0]
        return self.column[pool].tolist(), rows.tolist()

    def restart(self) -> bool:
        """Make :meth:`start` the basis the next solve starts from; False if there is none, or if it leaves bodies
        out (not a vertex: the primal simplex would mend them first) and a solved direction's basis is there to
        go on from instead (from such starts the later directions took 250–660 pivots each where the last basis
        takes 10–60: on 852 standing random towers of 2–60 bodies the margin took up to 3.9× the time it took
        before the start, 97 of them over 1.5×; with this rule up to 1.7×, 2 over 1.5×)."""
        found = self.start()
        if found is None or (found[1] and self.solved):
            return False
        columns, rows = found
        lower, basic = highspy.HighsBasisStatus.kLower, highspy.HighsBasisStatus.kBasic
        col_status = [lower] * self.highs.getNumCol()
        for c in columns:
            col_status[c] = basic
        row_status = [lower] * self.highs.getNumRow()
        for r in rows:
            row_status[r] = basic
        basis = highspy.HighsBasis()
        basis.col_status = col_status
        basis.row_status = row_status
        basis.valid = True
        return bool(self.highs.setBasis(basis) == highspy.HighsStatus.kOk)

    def _force_scale(self, pts: Points, scale: bool) -> np.ndarray:
        """Per force point: the lighter mass of the two bodies it joins (1 without scaling)."""
        if not scale:
            return np.ones(len(pts.axis))
        upper = self.masses[pts.upper]
        lower = np.where(pts.lower >= 0, self.masses[np.maximum(pts.lower, 0)], np.inf)
        lighter: np.ndarray = np.minimum(upper, lower)
        return lighter

    def _pool_columns(self, which: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pool columns as the model holds them: scaled by their force scale and by their rows' scale."""
        starts, index, value = self.pool.columns(which)
        return starts, index, value * np.repeat(self.pool_scale[which], np.diff(starts)) * self.row_scale[index]

    def turn(self, angle: float) -> None:
        """Load the bodies along ``angle`` instead."""
        cos_a, sin_a = (0.0 if abs(x) < 1e-15 else x for x in (math.cos(angle), math.sin(angle)))
        for b, load in enumerate(self.load.tolist()):
            self.highs.changeCoeff(ROWS * b, 0, load * cos_a)
            self.highs.changeCoeff(ROWS * b + 1, 0, load * sin_a)
        self.angle = angle

    def solve(self, cap: float) -> tuple[float, np.ndarray] | None:
        """The largest tilt up to ``cap`` and the (unscaled) duals that prove it, or None if even t = 0 is
        infeasible. Below the cap the answer is the optimum of the whole pyramid; at the cap it is only a tilt the
        tower is known to stand (no line is read from it, so the edges left out are not priced).

        Each direction starts from a vertex at t = 0 built for it (:mod:`kumiki.physics.start`) with the primal
        simplex, which then only raises t (measured on the bench's 150-body stacks: 27–135 pivots for the first
        direction, where the dual simplex from the slack basis takes 1,600–2,800; 400–925 for a whole margin
        against 3,000–4,900 from the last direction's basis); the edges that join later are priced in from the
        basis reached. Without such a vertex, the dual simplex from the last basis."""
        highs = self.highs
        highs.changeColBounds(0, 0.0, cap)
        highs.setOptionValue("presolve", "off")  # it finds nothing to remove here, and would lose the basis
        highs.setOptionValue("simplex_scale_strategy", 0)  # the rows are scaled already
        try:  # the solver is shared with the verdict: its options go back whatever happens from here
            if self.restart():
                highs.setOptionValue("simplex_strategy", PRIMAL)
            for round_ in range(ROUNDS + 1):
                if self._run() == "infeasible":
                    if self.joined.all():
                        return None
                    new = np.nonzero(~self.joined)[0]  # the first edges may be too few to hold it upright
                else:
                    solution = highs.getSolution()
                    tilt = float(solution.col_value[0])
                    scaled = np.asarray(solution.row_dual)
                    duals = scaled * self.row_scale
                    if tilt >= cap * (1.0 - SAME):
                        return tilt, duals
                    prices = self.pool.prices(duals) * self.pool_scale  # the reduced costs HiGHS would see
                    prices[self.joined] = 0.0
                    tolerance = PRICE_TOLERANCE * max(1.0, float(np.abs(scaled).max(initial=0.0)))
                    new = np.nonzero(prices > tolerance)[0]
                    if not len(new):
                        return tilt, duals
                    if round_ >= ROUNDS - 1:
                        new = np.nonzero(~self.joined)[0]  # a slow convergence: let every edge in
                self._join(new)
        finally:
            self.solved = True
            highs.setOptionValue("presolve", "choose")
            highs.setOptionValue("simplex_scale_strategy", DEFAULT_SCALING)
            highs.setOptionValue("simplex_strategy", DEFAULT_STRATEGY)
        raise RuntimeError("the margin's column generation did not converge")  # unreachable: all edges joined

    def _run(self) -> str:
        """Solve from the current basis; if HiGHS cannot tell (numerical trouble), again from scratch with its own
        scaling and presolve. Anything but optimal or infeasible then is an error, never a guess."""
        status = self.solver.run()
        if status in ("optimal", "infeasible"):
            return status
        highs = self.highs
        highs.clearSolver()
        highs.setOptionValue("presolve", "choose")
        highs.setOptionValue("simplex_scale_strategy", DEFAULT_SCALING)
        try:
            status = self.solver.run()
        finally:
            highs.setOptionValue("presolve", "off")
            highs.setOptionValue("simplex_scale_strategy", 0)
        if status not in ("optimal", "infeasible"):
            raise RuntimeError(f"the tilt margin's linear program failed: HiGHS says {status!r}")
        return status

    def _join(self, new: np.ndarray) -> None:
        starts, index, value = self._pool_columns(new)
        count = len(new)
        self.column[new] = self.highs.getNumCol() + np.arange(count)  # HiGHS puts them after every column it has
        self.highs.addCols(
            count,
            np.zeros(count),
            np.zeros(count),
            np.full(count, np.inf),
            len(index),
            starts[:-1].astype(np.int32),
            index.astype(np.int32),
            value.astype(np.float64),
        )
        self.joined[new] = True

    def mechanism(self, duals: np.ndarray) -> tuple[float, float, float]:
        """The line g·v ≤ β that no load v the tower can carry crosses, from optimal duals y of a direction whose
        tilt stayed below its cap: every column has aᵀy ≤ 0, so for forces f ≥ 0 with A f + v_x b_x + v_y b_y = c,
        v·(b_x, b_y)ᵀy = cᵀy − (A f)ᵀy ≥ cᵀy; hence g = −(b_xᵀy, b_yᵀy) and β = −cᵀy."""
        gx = -float(self.masses @ duals[0::ROWS])
        gy = -float(self.masses @ duals[1::ROWS])
        return gx, gy, -float(self.rhs @ duals)


def _chord(k: int, reach: dict[int, float], angles: list[float]) -> float:
    """A tilt the tower is known to stand along direction k: where its ray meets the chord between the nearest
    directions solved on either side (both loads stand, so by convexity every load between them does)."""
    if k in reach:
        return reach[k]
    n = len(angles)
    before = next(((k - i) % n for i in range(1, n // 2) if (k - i) % n in reach), None)
    after = next(((k + i) % n for i in range(1, n // 2) if (k + i) % n in reach), None)
    if before is None or after is None:
        return 0.0
    ax, ay = reach[before] * math.cos(angles[before]), reach[before] * math.sin(angles[before])
    bx, by = reach[after] * math.cos(angles[after]), reach[after] * math.sin(angles[after])
    dx, dy = math.cos(angles[k]), math.sin(angles[k])
    across = dx * (by - ay) - dy * (bx - ax)
    if across <= 0.0:
        return 0.0
    return max(0.0, (ax * by - ay * bx) / across)


def _bound(k: int, lines: list[tuple[float, float, float]], angles: list[float]) -> float:
    """The steepest tilt along direction k that no known collapse mechanism rules out."""
    dx, dy = math.cos(angles[k]), math.sin(angles[k])
    bound = MAX_TILT
    for gx, gy, beta in lines:
        towards = gx * dx + gy * dy
        if towards > 1e-12:
            bound = min(bound, beta / towards)
    return bound


def _slide_lines(mu: float, sides: int) -> list[tuple[float, float, float]]:
    """The whole tower sliding on the table, one line g·v ≤ β per side of the friction polygon: summing every
    body's rows, the forces between bodies cancel, so the table carries the whole load (the tilt t·M·d across, the
    weight M up) within its pyramids, whose sum is the same pyramid: t·d lies in −μ·P, P the polygon of the unit
    edge directions. Its side between edges e and e + 1 has the outward normal n at 2π(e + ½)/sides and lies at
    cos(π/sides) from 0, so −n·v ≤ μ·cos(π/sides). Along any direction these bound the tilt by the radius of −μ·P
    there (μ along a pyramid edge), a bound no tower can pass."""
    beta = mu * math.cos(math.pi / sides)
    normals = [2 * math.pi * (e + 0.5) / sides for e in range(sides)]
    return [(-math.cos(a), -math.sin(a), beta) for a in normals]


@dataclass
class _Chains:
    """A tower in which every body rests on one thing only (one body or the table) over one plane: per body, its
    area-contact points' hull (counter-clockwise) and the centre and height above that plane of the
    body with everything resting on it, directly or not."""

    hulls: list[list[tuple[float, float]]]
    centres: list[tuple[float, float]]
    heights: list[float]


def _chains(setup: Setup, flat: Points) -> _Chains | None:
    """The tower as :class:`_Chains`, or None if a body rests on two things, on points at two heights, on fewer
    than three points not on a line, or in a ring (a body resting on itself through others)."""
    bodies = len(setup.masses)
    if not bodies:
        return None
    below: list[int | None] = [None] * bodies
    plane: list[float | None] = [None] * bodies
    corners: list[list[tuple[float, float]]] = [[] for _ in range(bodies)]
    for (x, y, z), upper, lower in zip(flat.position.tolist(), flat.upper.tolist(), flat.lower.tolist(), strict=True):
        if below[upper] is None:
            below[upper], plane[upper] = lower, z
        elif below[upper] != lower or plane[upper] != z:
            return None
        corners[upper].append((x, y))
    if any(b is None for b in below):
        return None
    order: list[int] = []  # bottom up: a body after the one it rests on
    state = [0] * bodies  # 0 unseen, 1 on the path, 2 placed
    for start in range(bodies):
        path = []
        b: int = start
        while b >= 0 and state[b] == 0:
            state[b] = 1
            path.append(b)
            b = below[b]  # type: ignore[assignment]
        if b >= 0 and state[b] == 1:
            return None  # a ring
        for p in reversed(path):
            state[p] = 2
            order.append(p)
    mass = list(setup.masses)
    moment = [[m * float(c) for c in centre] for m, centre in zip(setup.masses, setup.centres, strict=True)]
    for b in reversed(order):  # top down: each body passes its load's sums to the one under it
        c = below[b]
        if c is not None and c >= 0:
            mass[c] += mass[b]
            moment[c] = [u + v for u, v in zip(moment[c], moment[b], strict=True)]
    hulls, centres, heights = [], [], []
    for b in range(bodies):
        shape = hull(corners[b])
        if len(shape) < 3 or mass[b] <= 0.0:
            return None
        cx, cy, cz = (v / mass[b] for v in moment[b])
        hulls.append(shape)
        centres.append((cx, cy))
        heights.append(cz - plane[b])  # type: ignore[operator]
    return _Chains(hulls, centres, heights)


def _chain_tilt(chains: _Chains, angle: float, cap: float) -> float:
    """A tilt up to ``cap`` along ``angle`` at which the tower stands with every force parallel to the tilted
    load (side contacts idle): each body with all that rests on it is held where the line of its load meets its
    plane, at c + t·h·d, which must stay inside the hull of its points; 0 if even t = 0 fails there. The forces
    lie in the pyramids when t·d lies in −μ·P, which a ``cap`` from :func:`_slide_lines` ensures."""
    dx, dy = math.cos(angle), math.sin(angle)
    tilt = cap
    for shape, (px, py), height in zip(chains.hulls, chains.centres, chains.heights, strict=True):
        n = len(shape)
        for e in range(n):
            (ux, uy), (vx, vy) = shape[e], shape[(e + 1) % n]
            inside = (vx - ux) * (py - uy) - (vy - uy) * (px - ux)  # ≥ 0: on the inner side of this edge
            if inside < 0.0:
                return 0.0
            towards = (vy - uy) * dx - (vx - ux) * dy  # > 0: the line's point moves towards this edge
            if towards * tilt * height > inside:
                if height <= 0.0:
                    return 0.0
                tilt = inside / (towards * height)
    return tilt


def _parts(setup: Setup, pts: Points) -> list[np.ndarray]:
    """The bodies in groups joined by horizontal contacts (side contacts do not join them), each sorted."""
    parent = list(range(len(setup.masses)))

    def root(b: int) -> int:
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        return b

    flat = pts.axis == 2
    for upper, lower in zip(pts.upper[flat].tolist(), pts.lower[flat].tolist(), strict=True):
        if lower >= 0:
            parent[root(upper)] = root(lower)
    roots = np.array([root(b) for b in range(len(parent))], dtype=np.int64)
    order = np.argsort(roots, kind="stable")
    cuts = np.nonzero(np.diff(roots[order]))[0] + 1
    return np.split(order, cuts)


def _part(setup: Setup, pts: Points, bodies: np.ndarray) -> tuple[Setup, Points, tuple[object, ...]]:
    """The model of a group of bodies alone: their own contacts with each other and the table, the side contacts
    with other bodies left out (a restriction of the tower's model: what stands in it stands in the tower's); and
    a key equal for two groups that are the same up to a shift (their LPs are then the same)."""
    local = np.full(len(setup.masses), -1, dtype=np.int64)
    local[bodies] = np.arange(len(bodies))
    upper = local[pts.upper]
    lower = np.where(pts.lower >= 0, local[np.maximum(pts.lower, 0)], -1)
    keep = (upper >= 0) & ((pts.lower < 0) | (lower >= 0))
    masses = [setup.masses[b] for b in bodies.tolist()]
    centres = setup.centres[bodies]
    part = Setup(setup.tower, setup.scale, centres, masses, [])
    sub = Points(pts.position[keep], pts.axis[keep], upper[keep], np.where(pts.lower[keep] >= 0, lower[keep], -1))
    origin = centres[0]
    grain = 1e-12

    def rounded(values: np.ndarray) -> tuple[int, ...]:
        return tuple(np.rint(values / grain).astype(np.int64).ravel().tolist())

    total = sum(masses)
    key = (
        rounded(centres - origin),
        rounded(np.array(masses) / total),
        rounded(sub.position - origin),
        tuple(sub.axis.tolist()),
        tuple(sub.upper.tolist()),
        tuple(sub.lower.tolist()),
    )
    return part, sub, key


def _sliding(
    setup: Setup, pts: Points, angles: list[float], highs: list[float], mu: float, sides: int
) -> dict[int, float]:
    """The directions in which the tower is found to stand up to the bound ``highs`` (the whole tower sliding):
    those settled, with the tilt found. Each group of bodies joined by horizontal contacts is taken alone (the side
    contacts between groups idle), so what holds it up is a load the tower's model carries too, a lower bound;
    where every group reaches the bound, that is the tilt. A group of bodies each on one thing is settled by its
    load's lines (:func:`_chain_tilt`), any other by its own LP, once for groups that are the same up to a shift.
    Only tried on a tower whose groups each hold at most a quarter of its bodies (a field of blocks side by side,
    not a stack); the groups by LP smallest first, each direction given up at the first group that falls short."""
    flat = pts.select(pts.axis == 2)
    chains = _chains(setup, flat)
    open_ = set(range(len(angles)))
    lows = dict.fromkeys(open_, math.inf)

    def lower(k: int, low: float) -> None:
        if highs[k] - low > SAME * highs[k]:
            open_.discard(k)
        lows[k] = min(lows[k], low)

    if chains is not None:  # the usual case of a field: no LP at all
        for k in sorted(open_):
            lower(k, _chain_tilt(chains, angles[k], highs[k]))
        return {k: lows[k] for k in open_}
    groups = _parts(setup, pts)
    if len(groups) < 2 or max(len(bodies) for bodies in groups) * 4 > len(setup.masses):
        return {}
    distinct: dict[tuple[object, ...], tuple[Setup, Points]] = {}
    for bodies in groups:
        part, sub, key = _part(setup, pts, bodies)
        distinct.setdefault(key, (part, sub))
    solved: list[tuple[Setup, Points]] = []
    for part, sub in distinct.values():
        part_chains = _chains(part, sub.select(sub.axis == 2))
        if part_chains is None:
            solved.append((part, sub))
            continue
        for k in sorted(open_):
            lower(k, _chain_tilt(part_chains, angles[k], highs[k]))
    for part, sub in sorted(solved, key=lambda found: len(found[0].masses)):
        if not open_:
            break
        model: _TiltModel | None = None
        for k in sorted(open_):
            if model is None:
                model = _TiltModel(part, sub, mu, sides, angles[k])
            elif model.angle != angles[k]:
                model.turn(angles[k])
            found = model.solve(highs[k])
            lower(k, 0.0 if found is None else max(0.0, found[0]))
    return {k: lows[k] for k in open_}


def tilt_margin(setup: Setup, mu: float = MU, directions: int = DIRECTIONS, sides: int = PYRAMID_SIDES) -> float:
    """The largest tilt (degrees) of the table, in the worst of ``directions`` directions, at which it stands."""
    pts = points(setup, 0.0, area_only=True)
    angles = [2 * math.pi * k / directions for k in range(directions)]
    reach: dict[int, float] = {}  # tilts known to stand, by direction
    lines = _slide_lines(mu, sides)  # collapse mechanisms: g·v ≤ β for every load v that stands
    worst = MAX_TILT
    highs = [_bound(k, lines, angles) for k in range(directions)]
    for k, low in _sliding(setup, pts, angles, highs, mu, sides).items():
        reach[k] = low
        worst = min(worst, low)
    if len(reach) == directions:
        return math.degrees(math.atan(worst))
    model = _TiltModel(setup, pts, mu, sides, angles[1 % directions])

    def settled(k: int) -> bool:
        """Whether direction k needs no LP: it cannot be the worst, or its tilt is pinned between bounds."""
        nonlocal worst
        low = _chord(k, reach, angles)
        if low >= worst * (1.0 - SAME):
            return True
        high = _bound(k, lines, angles)
        if high - low <= SAME * high:
            worst = min(worst, low)
            reach[k] = low
            return True
        return False

    # Every other direction first, going round; each of the rest then lies between two solved ones and is often
    # settled by them. Those that are not are solved nearest first (the fewest pivots when a direction has to start
    # from the last basis, with no starting vertex).
    first = [k for k in range(directions) if k % 2] or [0]
    rest = [k for k in range(directions) if k not in first]
    while first or rest:
        if first:
            k = first.pop(0)
            if settled(k):
                continue
        else:
            rest = [k for k in rest if not settled(k)]
            if not rest:
                break
            k = min(rest, key=lambda j: abs(math.remainder(angles[j] - model.angle, 2 * math.pi)))
            rest.remove(k)
        if model.angle != angles[k]:
            model.turn(angles[k])
        cap = worst
        solved = model.solve(cap)
        if solved is None:
            return 0.0
        tilt, duals = solved
        tilt = max(0.0, tilt)
        if tilt < cap * (1.0 - SAME):
            lines.append(model.mechanism(duals))
        worst = min(worst, tilt)
        reach[k] = tilt
        if worst <= 0.0:
            return 0.0
    return math.degrees(math.atan(worst))


def plain_ray(
    setup: Setup, angle: float, mu: float = MU, sides: int = PYRAMID_SIDES, pts: Points | None = None
) -> float:
    """The largest tilt tan along ``angle`` the plain way, as an independent check: the whole pyramid, unscaled
    rows, a fresh HiGHS with its default settings, solved from scratch (0 if even an upright table is too much).
    ``pts`` are the tower's area-contact points, if already found."""
    lp = Solver()
    if pts is None:
        pts = points(setup, 0.0, area_only=True)
    _TiltModel(setup, pts, mu, sides, angle, sides, lp=lp, scale=False)
    status = lp.run()
    if status == "infeasible":
        return 0.0
    if status != "optimal":
        raise RuntimeError(f"the plain tilt LP failed: HiGHS says {status!r}")
    return max(0.0, float(lp.highs.getSolution().col_value[0]))


def plain_tilt_margin(setup: Setup, mu: float = MU, directions: int = DIRECTIONS, sides: int = PYRAMID_SIDES) -> float:
    """The margin the plain way, for tests and benchmarks: one LP on the whole pyramid per direction."""
    pts = points(setup, 0.0, area_only=True)
    worst = min(plain_ray(setup, 2 * math.pi * k / directions, mu, sides, pts) for k in range(directions))
    return math.degrees(math.atan(worst))
