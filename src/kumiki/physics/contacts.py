"""Contacts between the bodies of a tower: which faces touch, found through a spatial hash (never all pairs).

Two bodies touch where a face of a box of one lies in the plane of a face of a box of the other, facing it, and
the two faces overlap. The overlap is kept even when it has no area (cubes meeting along an edge): such line and
point contacts matter only for knife-edge cases, which the judge settles by growing every contact a little.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import pairwise
from statistics import median

from kumiki.core.options import shown
from kumiki.physics.model import Tower, TowerError

GROUND = -1
# For a contact whose normal is along ``axis``, the two in-plane axes (u, v).
IN_PLANE = {0: (1, 2), 1: (0, 2), 2: (0, 1)}


@dataclass(slots=True)
class Interface:
    """Where body ``upper`` (on the + side of the plane) meets ``lower`` (on the − side, or the ground).

    ``axis`` is the normal (2: a horizontal face, 0 or 1: a side face), ``plane`` its coordinate, and ``rects`` the
    touching areas as ``(u0, v0, u1, v1)`` in the plane's own axes (see ``IN_PLANE``); a rect may be a line.
    """

    lower: int
    upper: int
    axis: int
    plane: float
    rects: list[tuple[float, float, float, float]] = field(default_factory=list)
    _outline: tuple[list[tuple[float, float]], float, float, bool, bool] | None = None
    _points: dict[float, list[tuple[float, float, float]]] = field(default_factory=dict)

    def points(self, grow: float) -> list[tuple[float, float, float]]:
        """The force points in 3D, the touching rects grown by ``grow`` (see :func:`support_points`); kept per
        ``grow``, and shared by the same contact in the next tower."""
        found = self._points.get(grow)
        if found is None:
            u, v = IN_PLANE[self.axis]
            found = []
            for a, b in support_points(self, grow):
                p = [0.0, 0.0, 0.0]
                p[self.axis] = self.plane
                p[u] = a
                p[v] = b
                found.append((p[0], p[1], p[2]))
            self._points[grow] = found
        return found

    def outline(self) -> tuple[list[tuple[float, float]], float, float, bool, bool]:
        """The hull of the touching rects (computed once): corners, the centre of its bounding box, and whether
        it is flat along u or along v (a line contact)."""
        if self._outline is None:
            corners = [c for u0, v0, u1, v1 in self.rects for c in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))]
            points = list(dict.fromkeys(corners)) if len(self.rects) == 1 else hull(corners)
            us = [p[0] for p in points]
            vs = [p[1] for p in points]
            cu, cv = (min(us) + max(us)) / 2, (min(vs) + max(vs)) / 2
            self._outline = (points, cu, cv, max(us) - min(us) <= 0.0, max(vs) - min(vs) <= 0.0)
        return self._outline


def find_interfaces(tower: Tower, tol: float) -> list[Interface]:
    """Every interface of the tower, in a deterministic order. Raises TowerError for overlaps or boxes below z=0.

    Faces are indexed by their plane and by the grid cells they cover in it, so a face is only compared with the
    faces facing it at the same coordinate and nearby.
    """
    boxes: list[tuple[int, tuple[float, ...]]] = []
    for b, body in enumerate(tower.bodies):
        for part in body.boxes:
            if part[2] < -tol:
                raise TowerError(f"{shown(body.name)} reaches below the table (z = {part[2]:g})")
            boxes.append((b, part))
    extents = [max(box[3] - box[0], box[4] - box[1], box[5] - box[2]) for _, box in boxes]
    # The median box size, but never so small that the largest box covers more than 32 cells along an axis.
    cell = max(median(extents), max(extents) / 32.0)
    _check_overlaps(tower, boxes, cell, tol)
    quantum = max(tol * 100.0, 1e-300)
    floor = math.floor
    found: dict[tuple[int, int, int, float], Interface] = {}
    index: FaceIndex = {}
    for axis in (2, 0, 1):
        u, v = IN_PLANE[axis]
        # Faces on the - side of their box (bottoms, west and south faces), by plane and in-plane cell.
        faces: dict[tuple[int, int, int], list[int]] = {}
        for k, (_, box) in enumerate(boxes):
            plane = round(box[axis] / quantum)
            for i in range(floor(box[u] / cell), max(floor(box[u] / cell), math.ceil(box[u + 3] / cell) - 1) + 1):
                for j in range(floor(box[v] / cell), max(floor(box[v] / cell), math.ceil(box[v + 3] / cell) - 1) + 1):
                    faces.setdefault((plane, i, j), []).append(k)
        for b1, box1 in boxes:
            top = box1[axis + 3]
            exact = top / quantum
            plane = round(exact)
            planes = (plane,) if abs(exact - plane) < 0.25 else (plane, plane - 1 if exact < plane else plane + 1)
            i0, i1 = floor((box1[u] - tol) / cell), floor((box1[u + 3] + tol) / cell)
            j0, j1 = floor((box1[v] - tol) / cell), floor((box1[v + 3] + tol) / cell)
            met: set[int] = set()
            for p in planes:
                for i in range(i0, i1 + 1):
                    for j in range(j0, j1 + 1):
                        for k2 in faces.get((p, i, j), ()):
                            if k2 in met:
                                continue
                            met.add(k2)
                            b2, box2 = boxes[k2]
                            if b1 == b2 or abs(box2[axis] - top) > tol:
                                continue
                            ou0, ov0 = max(box1[u], box2[u]), max(box1[v], box2[v])
                            ou1, ov1 = min(box1[u + 3], box2[u + 3]), min(box1[v + 3], box2[v + 3])
                            if ou1 - ou0 < -tol or ov1 - ov0 < -tol:
                                continue
                            rect = (ou0, ov0, max(ou1, ou0), max(ov1, ov0))
                            rects = _touching(tower, b1, b2, axis, top, rect, tol, index)
                            if not rects:
                                continue
                            key = (b1, b2, axis, round(top / quantum) * quantum)
                            interface = found.get(key)
                            if interface is None:
                                interface = found[key] = Interface(b1, b2, axis, top)
                            interface.rects += rects
    for b, box in boxes:
        if box[2] <= tol:
            _ground_contact(b, box, tower, found)
    return [found[key] for key in sorted(found)]


def interfaces_with(tower: Tower, parent: list[Interface], body: int, tol: float) -> list[Interface]:
    """The interfaces of ``tower`` given those of the same tower without ``body`` (``parent``, numbered without it):
    what :func:`find_interfaces` finds, in its order, comparing only the new body's boxes with the others'.
    Raises TowerError if the new body overlaps another or reaches below the table."""
    merged = [
        i
        if i.lower < body and i.upper < body
        else Interface(
            i.lower + (i.lower >= body), i.upper + (i.upper >= body), i.axis, i.plane, i.rects, i._outline, i._points
        )
        for i in parent
    ]  # GROUND (-1) is below every body
    mine = tower.bodies[body].boxes
    for box in mine:
        if box[2] < -tol:
            raise TowerError(f"{shown(tower.bodies[body].name)} reaches below the table (z = {box[2]:g})")
    lo = [min(box[a] for box in mine) - tol for a in range(3)]
    hi = [max(box[a + 3] for box in mine) + tol for a in range(3)]
    others = [
        (b, box)
        for b, other in enumerate(tower.bodies)
        if b != body
        for box in other.boxes
        if box[0] <= hi[0]
        and box[3] >= lo[0]
        and box[1] <= hi[1]
        and box[4] >= lo[1]
        and box[2] <= hi[2]
        and box[5] >= lo[2]
    ]  # the boxes near the new body's bounding box
    new: dict[tuple[int, int, int, float], Interface] = {}
    index: FaceIndex = {}
    for box in mine:
        for b, other in others:
            gaps = [max(box[a], other[a]) - min(box[a + 3], other[a + 3]) for a in range(3)]
            if max(gaps) > tol:
                continue  # apart along some axis: neither touching nor overlapping
            if all(g < -tol for g in gaps):
                names = sorted((tower.bodies[body].name, tower.bodies[b].name))
                raise TowerError(f"bodies {names[0]!r} and {names[1]!r} overlap")
            for axis in (2, 0, 1):
                u, v = IN_PLANE[axis]
                for lower, low_box, upper, up_box in ((body, box, b, other), (b, other, body, box)):
                    top = low_box[axis + 3]
                    if abs(up_box[axis] - top) > tol:
                        continue
                    ou0, ov0 = max(low_box[u], up_box[u]), max(low_box[v], up_box[v])
                    ou1, ov1 = min(low_box[u + 3], up_box[u + 3]), min(low_box[v + 3], up_box[v + 3])
                    if ou1 - ou0 < -tol or ov1 - ov0 < -tol:
                        continue
                    rect = (ou0, ov0, max(ou1, ou0), max(ov1, ov0))
                    rects = _touching(tower, lower, upper, axis, top, rect, tol, index)
                    if not rects:
                        continue
                    key = (lower, upper, axis, round(top / max(tol * 100.0, 1e-300)))
                    interface = new.get(key)
                    if interface is None:
                        interface = new[key] = Interface(lower, upper, axis, top)
                    interface.rects += rects
    ground: dict[tuple[int, int, int, float], Interface] = {}
    for box in mine:
        if box[2] <= tol:
            _ground_contact(body, box, tower, ground)
    merged += [*new.values(), *ground.values()]
    return sorted(merged, key=lambda i: (i.lower, i.upper, i.axis, i.plane))


# Per (body, side of its boxes, 0-5), the boxes by their face's plane on that side (rounded to 100 tolerances).
FaceIndex = dict[tuple[int, int], dict[int, list[tuple[float, ...]]]]


def _faces_in(
    tower: Tower, body: int, side: int, plane: float, tol: float, index: FaceIndex
) -> list[tuple[float, ...]]:
    """The boxes of ``body`` whose face on ``side`` (0-2: the − side along that axis, 3-5: the + side) lies in
    ``plane``; each body's boxes are indexed once per side, so a contact never scans all of a body's boxes."""
    quantum = max(tol * 100.0, 1e-300)
    by_plane = index.get((body, side))
    if by_plane is None:
        by_plane = index[body, side] = {}
        for box in tower.bodies[body].boxes:
            by_plane.setdefault(round(box[side] / quantum), []).append(box)
    key = round(plane / quantum)  # a face within tol of the plane is at most one step of the rounding away
    return [box for k in (key - 1, key, key + 1) for box in by_plane.get(k, ()) if abs(box[side] - plane) <= tol]


def _touching(
    tower: Tower,
    lower: int,
    upper: int,
    axis: int,
    plane: float,
    rect: tuple[float, float, float, float],
    tol: float,
    index: FaceIndex,
) -> list[tuple[float, float, float, float]]:
    """The parts of ``rect`` (where a top face of a box of ``lower`` meets a bottom face of a box of ``upper``) that
    lie on the surface of both bodies. A touching area always does; a line or a point may lie on a face between two
    boxes of one body instead (the edge of a 2-cube column against the side of a cube level with its middle), where
    that body has matter on both sides of the plane: no contact there, or a body beside a column would hang from it.
    """
    u0, v0, u1, v1 = rect
    if u1 - u0 > tol and v1 - v0 > tol:
        return [rect]
    u, v = IN_PLANE[axis]
    covers = [
        (box[u], box[v], box[u + 3], box[v + 3])
        for body, side in ((lower, axis), (upper, axis + 3))
        for box in _faces_in(tower, body, side, plane, tol, index)
    ]  # the lower body's boxes just above the plane, the upper body's just below it

    def covered(a: float, b: float) -> bool:
        return any(c0 - tol <= a <= c1 + tol and d0 - tol <= b <= d1 + tol for c0, d0, c1, d1 in covers)

    if not covers:
        return [rect]
    along = 0 if u1 - u0 > tol else 1 if v1 - v0 > tol else -1
    if along < 0:  # a point
        return [] if covered((u0 + u1) / 2, (v0 + v1) / 2) else [rect]
    lo, hi = rect[along], rect[along + 2]
    cuts = sorted({lo, hi, *(c[k] for c in covers for k in (along, along + 2) if lo < c[k] < hi)})
    kept: list[tuple[float, float, float, float]] = []
    for a, b in pairwise(cuts):
        mid = (a + b) / 2
        if covered(mid, (v0 + v1) / 2) if along == 0 else covered((u0 + u1) / 2, mid):
            continue
        if kept and kept[-1][along + 2] == a:
            a = kept.pop()[along]
        kept.append((a, v0, b, v1) if along == 0 else (u0, a, u1, b))
    return kept


def _check_overlaps(tower: Tower, boxes: list[tuple[int, tuple[float, ...]]], cell: float, tol: float) -> None:
    """Raise TowerError if two bodies share volume. Boxes go into the grid cells they cover (half-open), so boxes
    on a unit grid land in one cell each and only boxes sharing a cell are compared."""
    floor, ceil = math.floor, math.ceil
    grid: dict[tuple[int, int, int], list[int]] = {}
    for k, (_, box) in enumerate(boxes):
        ranges = [
            range(
                floor((box[a] + tol) / cell), max(floor((box[a] + tol) / cell), ceil((box[a + 3] - tol) / cell) - 1) + 1
            )
            for a in range(3)
        ]
        for i in ranges[0]:
            for j in ranges[1]:
                for m in ranges[2]:
                    grid.setdefault((i, j, m), []).append(k)
    for members in grid.values():
        if len(members) < 2:
            continue
        for p, k1 in enumerate(members):
            b1, box1 = boxes[k1]
            for k2 in members[p + 1 :]:
                b2, box2 = boxes[k2]
                if all(min(box1[a + 3], box2[a + 3]) - max(box1[a], box2[a]) > tol for a in range(3)):
                    if b1 == b2:
                        raise TowerError(
                            f"body {shown(tower.bodies[b1].name)} has boxes that overlap (its volume would count twice)"
                        )
                    names = sorted((tower.bodies[b1].name, tower.bodies[b2].name))
                    raise TowerError(f"bodies {names[0]!r} and {names[1]!r} overlap")


def _ground_contact(
    b: int, box: tuple[float, ...], tower: Tower, found: dict[tuple[int, int, int, float], Interface]
) -> None:
    regions = tower.ground if tower.ground is not None else ((box[0], box[1], box[3], box[4]),)
    for gx0, gy0, gx1, gy1 in regions:
        x0, y0 = max(box[0], gx0), max(box[1], gy0)
        x1, y1 = min(box[3], gx1), min(box[4], gy1)
        if x1 < x0 or y1 < y0:
            continue
        key = (GROUND, b, 2, 0.0)
        interface = found.get(key)
        if interface is None:
            interface = found[key] = Interface(GROUND, b, 2, 0.0)
        interface.rects.append((x0, y0, x1, y1))


def hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull's corners (Andrew's monotone chain), counter-clockwise; collinear points dropped."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def support_points(interface: Interface, grow: float) -> list[tuple[float, float]]:
    """The corners where forces act: the hull of the touching rects, each rect grown by ``grow`` along both axes
    (shrunk if < 0; a rect shrunk to nothing is dropped, so a line contact counts only when grown)."""
    if grow == 0.0:
        return interface.outline()[0]
    corners: list[tuple[float, float]] = []
    for u0, v0, u1, v1 in interface.rects:
        a0, b0, a1, b1 = u0 - grow, v0 - grow, u1 + grow, v1 + grow
        if a1 <= a0 or b1 <= b0:
            continue
        corners += [(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
    if len(interface.rects) == 1:
        return corners
    return hull(corners)
