"""Exact certificates that settle most towers without the LP (docs/physics.md, "Certificates").

The LP asks whether compressive contact forces exist that hold every body. Either answer can often be *shown*:

* **A load path** proves "stands": pass each body's load (its weight and what rests on it) down to the contacts
  under it, top first, as non-negative vertical forces at their corner points whose resultant is the load. Side
  contacts carry nothing (zero is a compressive force too). Every equation is checked on the forces built, so a
  path found is a solution of the LP; one not found proves nothing and the LP decides.
* **A mechanism** proves "falls": a set of bodies that can turn as one about a horizontal axis, every contact with
  the rest opening or sliding (frictionless), while its centre of mass goes down. By virtual work no compressive
  forces can hold it (it is a Farkas certificate of the LP's infeasibility), and it names what falls and where:
  the bodies of the set, tipping over the axis. The sets tried, in a fixed order: each body with everything
  resting on it (transitively), the highest body first; then each body alone.

Both work on the judge's own contact points (contacts shrunk or grown by ε), so their answers are the LP's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kumiki.physics.contacts import GROUND, Interface, hull
from kumiki.physics.forces import Setup

Point3 = tuple[float, float, float]
Contact = tuple[Interface, list[Point3]]

RESIDUAL = 1e-12  # a built load path may miss an equation by this much (relative to the tower's weight)
ON_AXIS = 1e-12  # a contact point moving this little (relative to the axis) lies on the axis
DROP = 1e-9  # the centre of mass must go down at least this much (relative), or the mechanism proves nothing
ROUNDS = 8  # active-set rounds of the load spreading before the fan triangulation takes over


def contacts(setup: Setup, grow: float) -> list[Contact]:
    """Each interface with its force points in the tower's units (contacts grown by ``grow`` of the tower's size,
    shrunk if negative): the points the LP puts its forces on."""
    amount = grow * setup.scale
    return [(interface, interface.points(amount)) for interface in setup.interfaces]


# ----------------------------------------------------------------------------------------------- load path


@dataclass
class Path:
    """A load path found: the order the bodies were passed in, and per body the shares it sent down to each
    contact point on another body (x, y, that body, share)."""

    order: list[int]
    pushed: list[list[tuple[float, float, int, float]]]


def load_path(setup: Setup, grow: float) -> bool:
    """True if vertical compressive forces at the contact points (``grow`` as in :func:`contacts`) hold every body:
    built top down and checked. False means only that no such path was found.

    A setup prepared from its parent's (one body added on top) starts from the parent's path: only the bodies whose
    load the new body changes are passed again."""
    path = None
    if setup.inherited is not None:
        paths, scale, added = setup.inherited
        parent = paths.get(grow)
        if parent is not None and scale == setup.scale:
            path = _extend_path(setup, grow, parent, added)
    if path is None:
        path = _full_path(setup, grow)
    if path is None:
        return False
    setup.paths[grow] = path
    return True


def _supports(setup: Setup, grow: float) -> tuple[list[list[tuple[float, float, int]]], list[set[int]]]:
    """Per body the contact points under it (x, y, the body or table below), and the bodies resting on each body
    with some area (a line contact alone may carry nothing: it orders nothing)."""
    count = len(setup.raw_masses)
    under: list[list[tuple[float, float, int]]] = [[] for _ in range(count)]
    resting: list[set[int]] = [set() for _ in range(count)]
    for interface, found in contacts(setup, grow):
        if interface.axis != 2 or not found:
            continue
        upper, lower = interface.upper, interface.lower
        under[upper] += [(x, y, lower) for x, y, _ in found]
        if lower != GROUND and any(u1 > u0 and v1 > v0 for u0, v0, u1, v1 in interface.rects):
            resting[lower].add(upper)
    return under, resting


def _full_path(setup: Setup, grow: float) -> Path | None:
    """Every body passed, each as soon as all that rest on it have been."""
    count = len(setup.raw_masses)
    under, resting = _supports(setup, grow)
    waiting = [len(r) for r in resting]
    below: list[set[int]] = [set() for _ in range(count)]
    for lower, uppers in enumerate(resting):
        for upper in uppers:
            below[upper].add(lower)
    ready = [b for b in range(count) if waiting[b] == 0]
    loads = [[m, m * c[0], m * c[1]] for m, c in zip(setup.raw_masses, setup.raw_centres, strict=True)]
    done = [False] * count
    order: list[int] = []
    pushed: list[list[tuple[float, float, int, float]]] = [[] for _ in range(count)]
    while ready:
        b = ready.pop()
        sent = _pass(b, loads, under[b], done)
        if sent is None:
            return None
        pushed[b] = sent
        order.append(b)
        for lower in below[b]:
            waiting[lower] -= 1
            if waiting[lower] == 0:
                ready.append(lower)
    return Path(order, pushed) if len(order) == count else None  # else a ring of bodies: left to the LP


def _extend_path(setup: Setup, grow: float, parent: Path, added: int) -> Path | None:
    """The parent's path with body ``added`` passed first: a body keeps its shares unless its load changed (it
    is below a body passed again). None if something rests on the added body or a body cannot pass."""
    count = len(setup.raw_masses)
    under, resting = _supports(setup, grow)
    if resting[added]:
        return None  # not on top: the parent's order does not hold
    pushed: list[list[tuple[float, float, int, float]]] = [[] for _ in range(count)]
    for old, sent in enumerate(parent.pushed):
        if any(lower >= added for _, _, lower, _ in sent):
            sent = [(x, y, lower + (lower >= added), share) for x, y, lower, share in sent]
        pushed[old + (old >= added)] = sent
    order = [added, *(b + (b >= added) for b in parent.order)]
    loads = [[m, m * c[0], m * c[1]] for m, c in zip(setup.raw_masses, setup.raw_centres, strict=True)]
    done = [False] * count
    changed = {added}
    for b in order:
        if b in changed:
            passed = _pass(b, loads, under[b], done)
            if passed is None:
                return None
            changed.update(lower for _, _, lower, _ in pushed[b])
            changed.update(lower for _, _, lower, _ in passed)
            pushed[b] = passed
        else:
            for x, y, lower, share in pushed[b]:
                load = loads[lower]
                load[0] += share
                load[1] += share * x
                load[2] += share * y
        done[b] = True
    return Path(order, pushed)


def _pass(
    b: int, loads: list[list[float]], under: list[tuple[float, float, int]], done: list[bool]
) -> list[tuple[float, float, int, float]] | None:
    """Spread body ``b``'s load over the points under it (not those on a body already passed: a line contact may
    lead to one), add the shares to the loads below, and return them; None if no spread is found."""
    weight, mx, my = loads[b]
    points = [p for p in under if p[2] == GROUND or not done[p[2]]]
    shares = spread(weight, mx / weight, my / weight, points)
    if shares is None:
        return None
    sent = []
    for share, (x, y, lower) in zip(shares, points, strict=True):
        if share > 0.0 and lower != GROUND:
            load = loads[lower]
            load[0] += share
            load[1] += share * x
            load[2] += share * y
            sent.append((x, y, lower, share))
    done[b] = True
    return sent


def spread(weight: float, px: float, py: float, points: list[tuple[float, float, int]]) -> list[float] | None:
    """Non-negative shares of ``weight`` at ``points`` whose resultant acts at (px, py), or None if none is found.

    The least-squares shares first (the most even spread, on the points still in play: a point given a negative
    share leaves and the rest are solved again), else a triangle of the points' hull around (px, py).
    """
    if not points:
        return None
    xs = [p[0] - px for p in points]
    ys = [p[1] - py for p in points]
    active = list(range(len(points)))
    for _ in range(ROUNDS):
        shares = _least_squares(weight, [xs[i] for i in active], [ys[i] for i in active])
        if shares is None:
            break
        if min(shares) >= 0.0:
            full = [0.0] * len(points)
            for i, share in zip(active, shares, strict=True):
                full[i] = share
            if _balanced(weight, full, xs, ys):
                return full
            break
        active = [i for i, share in zip(active, shares, strict=True) if share > 0.0]
        if not active:
            break
    fan = _triangle(weight, xs, ys)
    return fan if fan is not None and _balanced(weight, fan, xs, ys) else None


def _least_squares(weight: float, xs: list[float], ys: list[float]) -> list[float] | None:
    """The shares of least squares with sum ``weight`` and no moment about the origin (λᵢ = a + b·xᵢ + c·yᵢ)."""
    n = float(len(xs))
    sx, sy = sum(xs), sum(ys)
    sxx = sum(x * x for x in xs)
    syy = sum(y * y for y in ys)
    sxy = sum(x * y for x, y in zip(xs, ys, strict=True))
    # Cramer's rule on [[n, sx, sy], [sx, sxx, sxy], [sy, sxy, syy]] · (a, b, c) = (weight, 0, 0).
    det = n * (sxx * syy - sxy * sxy) - sx * (sx * syy - sxy * sy) + sy * (sx * sxy - sxx * sy)
    if abs(det) <= 1e-18 * max(1.0, n * sxx * syy):
        return None
    a = weight * (sxx * syy - sxy * sxy) / det
    b = -weight * (sx * syy - sxy * sy) / det
    c = weight * (sx * sxy - sxx * sy) / det
    return [a + b * x + c * y for x, y in zip(xs, ys, strict=True)]


def _triangle(weight: float, xs: list[float], ys: list[float]) -> list[float] | None:
    """Shares on at most three points of the hull whose triangle (or segment, or point) holds the origin."""
    index = {(x, y): i for i, (x, y) in enumerate(zip(xs, ys, strict=True))}
    corners = hull(list(index))
    full = [0.0] * len(xs)
    if len(corners) == 1:
        full[index[corners[0]]] = weight
        return full
    if len(corners) == 2:
        (ax, ay), (bx, by) = corners
        length = (bx - ax) ** 2 + (by - ay) ** 2
        t = -(ax * (bx - ax) + ay * (by - ay)) / length
        if not 0.0 <= t <= 1.0:
            return None
        full[index[corners[0]]] = weight * (1.0 - t)
        full[index[corners[1]]] = weight * t
        return full
    ax, ay = corners[0]
    for k in range(1, len(corners) - 1):
        bx, by = corners[k]
        cx, cy = corners[k + 1]
        det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
        if det <= 0.0:
            continue
        wb = ((-ax) * (cy - ay) - (cx - ax) * (-ay)) / det
        wc = ((bx - ax) * (-ay) - (-ax) * (by - ay)) / det
        wa = 1.0 - wb - wc
        if min(wa, wb, wc) >= -1e-15:
            full[index[corners[0]]] = weight * max(wa, 0.0)
            full[index[corners[k]]] = weight * max(wb, 0.0)
            full[index[corners[k + 1]]] = weight * max(wc, 0.0)
            return full
    return None


def _balanced(weight: float, shares: list[float], xs: list[float], ys: list[float]) -> bool:
    """The check that makes a load path a proof: shares ≥ 0 that sum to the weight with no moment left."""
    if min(shares) < 0.0:
        return False
    tolerance = RESIDUAL * max(weight, 1e-300)
    return (
        abs(sum(shares) - weight) <= tolerance
        and abs(sum(s * x for s, x in zip(shares, xs, strict=True))) <= tolerance
        and abs(sum(s * y for s, y in zip(shares, ys, strict=True))) <= tolerance
    )


# ----------------------------------------------------------------------------------------------- mechanisms


def mechanism(setup: Setup, grow: float, containing: int | None = None) -> list[int] | None:
    """The first set of bodies (in the order of the module's docstring) that can tip as one while its centre
    of mass goes down, contacts grown by ``grow``; None if none of those sets can.

    ``containing`` tries only the sets with that body, in a fraction of the time: when the tower without it stands
    and adding it does not change the tower's size, the same answer (any set without it would prove that tower falls
    too); when the size changes, ε·size changes with it, and the answer may differ — still a proof, or None.
    """
    found = contacts(setup, grow)
    count = len(setup.masses)
    resting: list[list[int]] = [[] for _ in range(count)]
    for interface, points in found:
        if interface.axis == 2 and interface.lower != GROUND and points:
            resting[interface.lower].append(interface.upper)
    tried: set[frozenset[int]] = set()
    for body in _top_down(setup):
        group = {body}
        stack = [body]
        while stack:
            for upper in resting[stack.pop()]:
                if upper not in group:
                    group.add(upper)
                    stack.append(upper)
        key = frozenset(group)
        if key in tried or (containing is not None and containing not in group):
            continue
        tried.add(key)
        if _tips(setup, group, found):
            return sorted(group)
    for body in _top_down(setup):
        key = frozenset((body,))
        if key not in tried and (containing is None or body == containing):
            tried.add(key)
            if _tips(setup, {body}, found):
                return [body]
    return None


def _top_down(setup: Setup) -> list[int]:
    """The bodies from the highest bottom to the lowest (ties by index)."""
    bodies = setup.tower.bodies
    return sorted(range(len(bodies)), key=lambda b: (-min(box[2] for box in bodies[b].boxes), b))


def _tips(setup: Setup, group: set[int], found: list[Contact]) -> bool:
    """Whether ``group`` can turn as one about a horizontal axis with its centre of mass going down, every contact
    with the other bodies and the table opening or sliding."""
    mass = cx = cy = 0.0
    for b in group:
        m = setup.raw_masses[b]
        mass += m
        x, y, _ = setup.raw_centres[b]
        cx += m * x
        cy += m * y
    cx /= mass
    cy /= mass
    bearing: list[Point3] = []  # points where the group rests on the rest: they must not go down
    carried: list[Point3] = []  # points where the rest rests on the group: they must not go up
    sides: list[tuple[int, float, list[Point3]]] = []  # side contacts: axis, +1 if the group is on the + side
    for interface, points in found:
        upper = interface.upper in group
        if upper == (interface.lower in group) or not points:
            continue
        if interface.axis == 2:
            (bearing if upper else carried).extend(points)
        else:
            sides.append((interface.axis, 1.0 if upper else -1.0, points))
    if not bearing:
        return True  # nothing under it: it drops straight down (side contacts slide, what it carries comes along)
    by_xy = {(p[0], p[1]) for p in bearing}
    corners = hull(list(by_xy))
    axes: list[tuple[float, float, float, float]] = []  # a point (x, y) of the axis and its direction (dx, dy)
    if len(corners) >= 2:
        for i, (ax, ay) in enumerate(corners):
            bx, by = corners[(i + 1) % len(corners)]
            axes.append((ax, ay, bx - ax, by - ay))
            if len(corners) == 2:
                axes.append((bx, by, ax - bx, ay - by))
    for x, y in corners:
        axes.append((x, y, y - cy, cx - x))  # through one corner, square to the centre's direction
    return any(_turns(axis, cx, cy, bearing, carried, sides, setup.scale) for axis in axes)


def _turns(
    axis: tuple[float, float, float, float],
    cx: float,
    cy: float,
    bearing: list[Point3],
    carried: list[Point3],
    sides: list[tuple[int, float, list[Point3]]],
    scale: float,
) -> bool:
    """Turning about a horizontal axis through (x, y) along (dx, dy), at a height still to choose: the centre goes
    down, no point of the group presses into what holds it or what it carries, and some height of the axis lets
    every side contact open or slide (a point's vertical speed does not depend on the height, its sideways speed
    does, linearly)."""
    ax, ay, dx, dy = axis
    size = math.hypot(dx, dy) * scale  # the thresholds are relative to the axis and to the tower's size
    if size == 0.0:
        return False
    if dx * (cy - ay) - dy * (cx - ax) >= -DROP * size:
        return False  # the centre of mass would not go down
    slack = ON_AXIS * size
    for px, py, _ in bearing:
        if dx * (py - ay) - dy * (px - ax) < -slack:
            return False
    for px, py, _ in carried:
        if dx * (py - ay) - dy * (px - ax) > slack:
            return False
    low, high = -math.inf, math.inf  # the heights of the axis that every side contact allows
    for normal, sign, points in sides:
        k = sign * (dy if normal == 0 else -dx)  # a point's speed along the normal is k·(z − height)
        if abs(k) <= ON_AXIS * math.hypot(dx, dy):  # (k is a length, like dx and dy; slack is a length squared)
            continue
        for _, _, pz in points:
            if k > 0.0:
                high = min(high, pz + slack / k)
            else:
                low = max(low, pz + slack / k)
    return low <= high
