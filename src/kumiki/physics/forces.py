"""The equilibrium model shared by the verdict and the margin: a tower in normalized units, its force points, and
the columns of the linear program (one per force) in HiGHS's column-wise form.

Each body gives six rows, in this order: force along x, y, z, then moment about x, y, z (about its centre of mass).
Lengths are divided by the tower's size and masses by its total mass, so no answer depends on the units.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import highspy
import numpy as np

from kumiki.physics.contacts import IN_PLANE, Interface, find_interfaces, hull, interfaces_with, support_points
from kumiki.physics.model import Tower

TOLERANCE = 1e-9  # faces closer than this (relative to the tower's size) touch
ROWS = 6  # equations per body


def quiet_highs() -> highspy.Highs:
    """A HiGHS instance that never writes to stdout or stderr.

    highspy 1.16's ``Highs()`` prints its banner from the constructor, before any option can be set (its Python
    wrapper calls into HiGHS while output is still on). The compiled class underneath (``_Highs``, in every highspy
    since 1.7) prints nothing until it runs, so it is built bare and silenced first: the quiet comes from HiGHS's own
    output options, not from filtering text.
    """
    bare: type[highspy.Highs] = getattr(highspy, "_Highs", highspy.Highs)
    highs = bare()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("log_to_console", False)
    return highs


class Solver:
    """One reusable HiGHS instance (building one costs more than solving a small LP)."""

    def __init__(self) -> None:
        self.highs = quiet_highs()
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


_SOLVERS = threading.local()


def solver() -> Solver:
    """The calling thread's shared solver: one per thread, never one for the whole process. A HiGHS instance used by
    two threads at once crashes the interpreter (a segmentation fault, no traceback): the server replays stored games
    in a thread (its start-up walk, a game opened) while its event loop plays, undoes and checks moves of other
    games, and a Kozo tower is judged by an LP in each."""
    found: Solver | None = getattr(_SOLVERS, "solver", None)
    if found is None:
        found = _SOLVERS.solver = Solver()
    return found


@dataclass
class Setup:
    """A tower in normalized units: centres and masses per body, and its interfaces; and, for the certificates and
    for the next tower built on it, each body's centre and mass in the tower's own units and the bounding box."""

    tower: Tower
    scale: float
    centres: np.ndarray  # (bodies, 3)
    masses: list[float]
    interfaces: list[Interface]
    raw_centres: list[tuple[float, float, float]] = field(default_factory=list)
    raw_masses: list[float] = field(default_factory=list)
    bounds: tuple[list[float], list[float]] = field(default_factory=lambda: ([0.0] * 3, [0.0] * 3))
    paths: dict[float, Any] = field(default_factory=dict)  # per ε: the load path found (certificates.Path)
    inherited: tuple[dict[float, Any], float, int] | None = None  # the parent's paths, its scale, the body added


def prepare(tower: Tower, parent: Setup | None = None, added: int | None = None, separated: bool = False) -> Setup:
    """The tower in normalized units with its interfaces. Given the ``parent`` setup of the same tower without body
    ``added``, only that body's contacts are looked for (the same interfaces, in the same order).

    Faces touch within a tolerance relative to the tower's size; when the new body makes the tower larger, two old
    faces a hair apart might come to touch, which only a fresh search sees. So a larger tower is searched afresh,
    unless the caller vouches that its faces either touch or lie far apart (``separated``: Kozo's grid)."""
    if parent is not None and added is not None:
        body = tower.bodies[added]
        raw_centres = [*parent.raw_centres[:added], body.centre, *parent.raw_centres[added:]]
        raw_masses = [*parent.raw_masses[:added], body.mass, *parent.raw_masses[added:]]
        low, high = list(parent.bounds[0]), list(parent.bounds[1])
        for box in body.boxes:
            for axis in range(3):
                low[axis] = min(low[axis], box[axis])
                high[axis] = max(high[axis], box[axis + 3])
    else:
        raw_centres = [body.centre for body in tower.bodies]
        raw_masses = [body.mass for body in tower.bodies]
        low, high = tower.bounds()
    scale = max(1e-300, *(h - lo for lo, h in zip(low, high, strict=True)))  # as Tower.scale()
    if parent is not None and added is not None and (separated or scale == parent.scale):
        interfaces = interfaces_with(tower, parent.interfaces, added, TOLERANCE * scale)
    else:
        interfaces = find_interfaces(tower, TOLERANCE * scale)
    total = sum(raw_masses)
    centres = np.array(raw_centres, dtype=np.float64).reshape(-1, 3) / scale
    masses = [m / total for m in raw_masses]
    setup = Setup(tower, scale, centres, masses, interfaces, raw_centres, raw_masses, (low, high))
    if parent is not None and added is not None:
        setup.inherited = (parent.paths, parent.scale, added)
    return setup


@dataclass
class Points:
    """Every force point in normalized units: position, contact normal axis, and the bodies on either side."""

    position: np.ndarray  # (n, 3)
    axis: np.ndarray  # (n,)
    upper: np.ndarray  # (n,)
    lower: np.ndarray  # (n,), GROUND for the table

    def select(self, which: np.ndarray) -> Points:
        return Points(self.position[which], self.axis[which], self.upper[which], self.lower[which])


def points(setup: Setup, grow: float, area_only: bool = False) -> Points:
    """The force points of every interface (with ``area_only``, contacts along a line or at a point are left out)."""
    s = setup.scale
    rows: list[tuple[float, float, float, int, int, int]] = []
    for interface in setup.interfaces:
        axis = interface.axis
        u, v = IN_PLANE[axis]
        plane = interface.plane / s
        corners = support_points(interface, grow * s)
        if area_only:
            areas = [r for r in interface.rects if r[2] > r[0] and r[3] > r[1]]
            if not areas:
                continue
            if len(areas) < len(interface.rects):  # the hull of the areas alone: a line beside them is left out too
                corners = hull([c for u0, v0, u1, v1 in areas for c in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))])
        for a, b in corners:
            p = [0.0, 0.0, 0.0]
            p[axis] = plane
            p[u] = a / s
            p[v] = b / s
            rows.append((p[0], p[1], p[2], axis, interface.upper, interface.lower))
    data = np.array(rows, dtype=np.float64).reshape(-1, 6)
    ints = data[:, 3:].astype(np.int64)
    return Points(data[:, :3], ints[:, 0], ints[:, 1], ints[:, 2])


def side_entries(setup: Setup, pts: Points, body: np.ndarray, sign: float) -> tuple[np.ndarray, np.ndarray]:
    """Rows and values (n, 3) of the normal force at each point on ``body`` (rows of bodies < 0 are junk)."""
    centres = setup.centres[np.maximum(body, 0)]
    r = pts.position - centres
    rx, ry, rz = r[:, 0], r[:, 1], r[:, 2]
    base = ROWS * np.maximum(body, 0)
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


def normal_entries(setup: Setup, pts: Points) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Column-wise (rows, values, mask) of shape (n, 6): a normal force's entries on its upper and lower body."""
    up_rows, up_vals = side_entries(setup, pts, pts.upper, 1.0)
    lo_rows, lo_vals = side_entries(setup, pts, pts.lower, -1.0)
    rows = np.concatenate([up_rows, lo_rows], axis=1)
    vals = np.concatenate([up_vals, lo_vals], axis=1)
    mask = np.ones(rows.shape, dtype=bool)
    mask[:, 3:] = (pts.lower >= 0)[:, None]
    return rows, vals, mask


def csc(rows: np.ndarray, vals: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Column starts, row indices and values of the columns given row by row, keeping the entries in ``mask``."""
    counts = mask.sum(axis=1)
    starts = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return starts, rows[mask], vals[mask]


def body_rhs(setup: Setup) -> np.ndarray:
    """The right-hand side: each body's weight on its vertical force row, nothing elsewhere."""
    rhs = np.zeros(ROWS * len(setup.masses))
    rhs[2::ROWS] = setup.masses
    return rhs
