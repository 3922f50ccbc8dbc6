"""A starting vertex for the margin's LP, built from the tower's shape: from it the primal simplex needs a few hundred
pivots where the dual simplex from the slack basis needs thousands (docs/physics.md, "How the margin is found").

At t = 0 the tower stands on vertical forces. Passing each body's load, top down, to three corners of the hull of
the points under it whose triangle holds the load's line gives a vertex of the LP: at each corner a pair of
opposite pyramid edges carries half the corner's share (their friction cancels). The normals at three corners not
on one line hold the vertical force and the two tipping moments; the friction of the pairs along x at two corners
of different y and of the pair along y at the third holds the two horizontal forces and the torsion: the body's six
columns are independent, and taking the bodies top down makes the basis block-triangular, hence non-singular. The
tilt is non-basic at 0, so the vertex is feasible whatever the direction tested, and the primal simplex only raises
the tilt; it pivots whenever a share reaches 0, so the triangle is the one that the load's line, moving along the
direction tested, leaves last. A body with no such triangle (its load outside the points under it, a ring of
bodies resting on each other) keeps its rows' logicals basic: the simplex mends those first. The start changes
the pivots taken, never the answer: that is the LP's optimum all the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from kumiki.physics.contacts import hull
from kumiki.physics.forces import Points, Setup

SAME_Y = 1e-9  # corners closer than this along y (normalized units) cannot hold the torsion with pairs along x
CENTRAL = 24  # a hull of up to this many corners is searched whole for its most central triangle (n³/6 of them)
Corner = tuple[float, float, int]  # x, y, and the force point at it


@dataclass
class Supports:
    """What the start needs of a tower, whatever the direction: the bodies top down (a body after every body
    resting on it; bodies in a ring of bodies resting on each other, and all under them, are left out), per body
    the corners of the hull of the points under it (counter-clockwise), and per point the body under it."""

    order: list[int]
    corners: list[list[Corner]]
    lower: list[int]


def supports(setup: Setup, flat: Points) -> Supports:
    bodies = len(setup.masses)
    under: list[list[int]] = [[] for _ in range(bodies)]
    for i, upper in enumerate(flat.upper.tolist()):
        under[upper].append(i)
    lower = flat.lower.tolist()
    xs, ys = flat.position[:, 0].tolist(), flat.position[:, 1].tolist()
    corners = []
    for points in under:
        at = {(xs[i], ys[i]): i for i in points}
        corners.append([(x, y, at[(x, y)]) for x, y in hull(list(at))])
    below = [{lower[i] for i in under[b] if lower[i] >= 0} for b in range(bodies)]
    waiting = [0] * bodies
    for b in range(bodies):
        for c in below[b]:
            waiting[c] += 1
    ready = [b for b in range(bodies) if waiting[b] == 0]
    order = []
    while ready:
        b = ready.pop()
        order.append(b)
        for c in below[b]:
            waiting[c] -= 1
            if waiting[c] == 0:
                ready.append(c)
    return Supports(order, corners, lower)


def vertical_vertex(setup: Setup, found: Supports, sides: int, direction: tuple[float, float]) -> list[int]:
    """The pool columns (point · sides + edge, as the margin numbers its pyramid edges, edge e along 2πe/sides) of
    the starting vertex for a tilt along the unit vector ``direction``: six for each body whose load passes to a
    triangle, none for the others. ``sides`` must be a multiple of 4 (edges along ±x and ±y)."""
    loads = [[m, m * float(c[0]), m * float(c[1])] for m, c in zip(setup.masses, setup.centres, strict=True)]
    x_pair, y_pair = (0, sides // 2), (sides // 4, 3 * sides // 4)
    columns: list[int] = []
    for b in found.order:
        weight, mx, my = loads[b]
        corners = found.corners[b]
        if weight <= 0.0 or len(corners) < 3:
            continue
        chosen = _last_left(corners, mx / weight, my / weight, direction) or _central(corners, mx / weight, my / weight)
        if chosen is None:
            continue
        for (x, y, i), share in chosen:
            c = found.lower[i]
            if share > 0.0 and c >= 0:
                load = loads[c]
                load[0] += weight * share
                load[1] += weight * share * x
                load[2] += weight * share * y
        (p, q, r) = (corner for corner, _ in chosen)
        if abs(p[1] - q[1]) <= SAME_Y:  # pairs along x at two corners of different y (not all three: a line)
            p, r = r, p
        px, qx, ry = p[2] * sides, q[2] * sides, r[2] * sides
        columns += [px + x_pair[0], px + x_pair[1], qx + x_pair[0], qx + x_pair[1], ry + y_pair[0], ry + y_pair[1]]
    return columns


Shares = list[tuple[Corner, float]]


def _shares(a: Corner, b: Corner, c: Corner, px: float, py: float) -> Shares | None:
    """The barycentric shares of (px, py) in the counter-clockwise triangle a, b, c; None if it lies outside."""
    det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
    if det <= 0.0:
        return None
    wb = ((px - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (py - a[1])) / det
    wc = ((b[0] - a[0]) * (py - a[1]) - (px - a[0]) * (b[1] - a[1])) / det
    wa = 1.0 - wb - wc
    if min(wa, wb, wc) < -1e-15:
        return None
    return [(a, max(wa, 0.0)), (b, max(wb, 0.0)), (c, max(wc, 0.0))]


def _last_left(corners: list[Corner], px: float, py: float, direction: tuple[float, float]) -> Shares | None:
    """A triangle holding (px, py) whose side is the hull's edge where the point, moving along ``direction``,
    leaves the hull (no triangle keeps it longer), its third corner the one that gives the largest smallest share;
    None if no triangle on that edge holds it."""
    dx, dy = direction
    n = len(corners)
    exit_edge, nearest = -1, 0.0
    for e in range(n):
        (ux, uy, _), (vx, vy, _) = corners[e], corners[(e + 1) % n]
        towards = (vx - ux) * dy - (vy - uy) * dx  # < 0: the point moves towards this edge
        if towards < 0.0:
            distance = ((vx - ux) * (py - uy) - (vy - uy) * (px - ux)) / -towards
            if exit_edge < 0 or distance < nearest:
                exit_edge, nearest = e, distance
    if exit_edge < 0:
        return None
    u, v = corners[exit_edge], corners[(exit_edge + 1) % n]
    best: Shares | None = None
    for k in range(2, n):
        shares = _shares(u, v, corners[(exit_edge + k) % n], px, py)
        if shares is not None and (best is None or min(s for _, s in shares) > min(s for _, s in best)):
            best = shares
    return best


def _central(corners: list[Corner], px: float, py: float) -> Shares | None:
    """Of the triangles of hull corners that hold (px, py), the one whose smallest share is the largest; None if
    none holds it. A hull of more than ``CENTRAL`` corners (a body on a round contact) is searched only along the
    fans of ``CENTRAL`` of its corners (each fan covers the hull): linear time in its corners, not cubic."""
    n = len(corners)
    if n <= CENTRAL:
        triangles: Iterable[tuple[int, int, int]] = combinations(range(n), 3)
    else:
        step = -(-n // CENTRAL)
        triangles = ((i, (i + j) % n, (i + j + 1) % n) for i in range(0, n, step) for j in range(1, n - 1))
    best: Shares | None = None
    for i, j, k in triangles:
        shares = _shares(corners[i], corners[j], corners[k], px, py)
        if shares is not None and (best is None or min(s for _, s in shares) > min(s for _, s in best)):
            best = shares
    return best
