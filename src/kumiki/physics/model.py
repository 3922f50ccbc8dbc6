"""Towers of rigid bodies: each a union of axis-aligned boxes with a density, on a table (or ground regions).

The JSON form is the contract's ("Stand or fall"); games build towers in Python with :func:`body_from_cells`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kumiki.core.options import shown

Box = tuple[float, float, float, float, float, float]
Rect = tuple[float, float, float, float]
TIES = ("falls", "stands")


class TowerError(ValueError):
    """A tower that cannot be judged: malformed input, overlapping bodies, a body below the table."""


@dataclass(frozen=True, slots=True)
class Body:
    """A rigid body: boxes ``(x0, y0, z0, x1, y1, z1)`` that must not overlap one another, of one density."""

    name: str
    boxes: tuple[Box, ...]
    density: float = 1.0

    @property
    def volume(self) -> float:
        return sum((b[3] - b[0]) * (b[4] - b[1]) * (b[5] - b[2]) for b in self.boxes)

    @property
    def mass(self) -> float:
        return self.density * self.volume

    @property
    def centre(self) -> tuple[float, float, float]:
        """The centre of mass (uniform density)."""
        total = self.volume
        sx = sy = sz = 0.0
        for x0, y0, z0, x1, y1, z1 in self.boxes:
            v = (x1 - x0) * (y1 - y0) * (z1 - z0)
            sx += v * (x0 + x1) / 2
            sy += v * (y0 + y1) / 2
            sz += v * (z0 + z1) / 2
        return (sx / total, sy / total, sz / total)


@dataclass(frozen=True, slots=True)
class Tower:
    """The bodies, the ground rectangles ``(x0, y0, x1, y1)`` at z = 0 that carry load (None: an endless table),
    and what a body balanced exactly on an edge does (``tie``: "falls" or "stands")."""

    bodies: tuple[Body, ...]
    ground: tuple[Rect, ...] | None = None
    tie: str = "falls"

    def scale(self) -> float:
        """The tower's size: the largest extent along any axis (tolerances are relative to it)."""
        lo, hi = self.bounds()
        return max(1e-300, *(h - low for low, h in zip(lo, hi, strict=True)))

    def bounds(self) -> tuple[list[float], list[float]]:
        """The lowest and highest coordinate along each axis over every box."""
        lo = [math.inf] * 3
        hi = [-math.inf] * 3
        for body in self.bodies:
            for box in body.boxes:
                for axis in range(3):
                    lo[axis] = min(lo[axis], box[axis])
                    hi[axis] = max(hi[axis], box[axis + 3])
        return lo, hi


def body_from_cells(
    name: str,
    cells: Iterable[tuple[int, int, int]],
    density: float = 1.0,
    size: float = 1.0,
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> Body:
    """A body made of unit cubes (a polycube), each of edge ``size``, cell ``(0, 0, 0)`` at ``origin``.

    The cubes are merged into as few boxes as a simple sweep finds (runs along x, then equal runs side by side
    along y, then stacked along z): the same solid, fewer faces to compare.
    """
    ox, oy, oz = origin
    boxes = tuple(
        (ox + x0 * size, oy + y0 * size, oz + z0 * size, ox + x1 * size, oy + y1 * size, oz + z1 * size)
        for x0, y0, z0, x1, y1, z1 in merge_cells(cells)
    )
    if not boxes:
        raise TowerError(f"body {shown(name)} has no cells")
    return Body(name, boxes, density)


def merge_cells(cells: Iterable[tuple[int, int, int]]) -> list[tuple[int, int, int, int, int, int]]:
    """Integer boxes ``(x0, y0, z0, x1, y1, z1)`` that exactly tile the given unit cells."""
    cells = sorted(set(cells))
    runs: dict[tuple[int, int, int, int], int] = {}  # (x0, x1, y, z) runs along x
    cell_set = set(cells)
    for x, y, z in cells:
        if (x - 1, y, z) in cell_set:
            continue
        end = x + 1
        while (end, y, z) in cell_set:
            end += 1
        runs[(x, end, y, z)] = 1
    slabs: dict[tuple[int, int, int, int, int], int] = {}  # (x0, x1, y0, y1, z)
    for x0, x1, y, z in sorted(runs, key=lambda r: (r[3], r[0], r[1], r[2])):
        if (x0, x1, y - 1, z) in runs:
            continue
        end = y + 1
        while (x0, x1, end, z) in runs:
            end += 1
        slabs[(x0, x1, y, end, z)] = 1
    boxes = []
    for x0, x1, y0, y1, z in sorted(slabs, key=lambda b: (b[0], b[1], b[2], b[3], b[4])):
        if (x0, x1, y0, y1, z - 1) in slabs:
            continue
        end = z + 1
        while (x0, x1, y0, y1, end) in slabs:
            end += 1
        boxes.append((x0, y0, z, x1, y1, end))
    return boxes


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TowerError(f"{where} must be a finite number, not {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise TowerError(f"{where} is too large a number") from None
    if not math.isfinite(number):
        raise TowerError(f"{where} must be a finite number, not {shown(value)}")
    return number


def _box(value: Any, where: str) -> Box:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 6:
        raise TowerError(f"{where} must be [x0, y0, z0, x1, y1, z1]")
    x0, y0, z0, x1, y1, z1 = (_number(v, where) for v in value)
    if not (x0 < x1 and y0 < y1 and z0 < z1):
        raise TowerError(f"{where} must have x0 < x1, y0 < y1 and z0 < z1")
    return (x0, y0, z0, x1, y1, z1)


def _rect(value: Any, where: str) -> Rect:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 4:
        raise TowerError(f"{where} must be [x0, y0, x1, y1]")
    x0, y0, x1, y1 = (_number(v, where) for v in value)
    if not (x0 < x1 and y0 < y1):
        raise TowerError(f"{where} must have x0 < x1 and y0 < y1")
    return (x0, y0, x1, y1)


def tower_from_json(data: Any) -> Tower:
    """Read the contract's JSON form; TowerError names the field at fault."""
    if not isinstance(data, dict):
        raise TowerError("a tower is a JSON object with 'bodies' (and optionally 'ground' and 'tie')")
    unknown = set(data) - {"bodies", "ground", "tie"}
    if unknown:
        # key=shown: a dict built in Python may mix keys of other types, which sorted() alone cannot order
        raise TowerError(f"unknown field {shown(sorted(unknown, key=shown)[0])} (fields: bodies, ground, tie)")
    raw_bodies = data.get("bodies")
    if not isinstance(raw_bodies, list) or not raw_bodies:
        raise TowerError("'bodies' must be a non-empty list")
    bodies = []
    names: set[str] = set()
    for i, raw in enumerate(raw_bodies):
        if not isinstance(raw, dict):
            raise TowerError(f"bodies[{i}] must be an object with 'boxes'")
        name = raw.get("name", f"body {i}")
        if not isinstance(name, str) or not name:
            raise TowerError(f"bodies[{i}].name must be a non-empty text")
        if name in names:
            raise TowerError(f"two bodies are named {shown(name)}")
        names.add(name)
        at = f"bodies[{i}] ({name if len(name) <= 40 else shown(name)})"  # a long name cut short
        extra = set(raw) - {"name", "boxes", "density"}
        if extra:
            raise TowerError(f"{at}: unknown field {shown(sorted(extra, key=shown)[0])} (fields: name, boxes, density)")
        boxes = raw.get("boxes")
        if not isinstance(boxes, list) or not boxes:
            raise TowerError(f"{at}: 'boxes' must be a non-empty list")
        density = _number(raw.get("density", 1.0), f"{at}.density")
        if density <= 0:
            raise TowerError(f"{at}.density must be positive")
        bodies.append(Body(name, tuple(_box(b, f"{at}.boxes[{k}]") for k, b in enumerate(boxes)), density))
    ground_raw = data.get("ground")
    ground = None
    if ground_raw is not None:
        if not isinstance(ground_raw, list):
            raise TowerError("'ground' must be a list of [x0, y0, x1, y1] or null")
        ground = tuple(_rect(r, f"ground[{k}]") for k, r in enumerate(ground_raw))
    tie = data.get("tie", "falls")
    if tie not in TIES:
        raise TowerError(f'\'tie\' must be "falls" or "stands", not {shown(tie)}')
    return Tower(tuple(bodies), ground, tie)


FAR = 2.0**30  # lengths and densities from 1 / FAR to FAR are judged as given
LIGHTEST = 1e-300  # the lightest share of the tower's weight a body may have


def in_judged_units(tower: Tower) -> Tower:
    """``tower`` as :func:`~kumiki.physics.statics.analyse` judges it: its lengths (and its densities) brought near 1
    by a power of two when its size (its densest body) is far from 1, where a box's volume, a centre's moment would
    else overflow or underflow before the judge divides by the tower's size and weight. The verdict does not depend
    on the units; a power of two changes no ratio of lengths or densities (``math.ldexp`` is exact). TowerError for a
    body too small to weigh anything next to the rest. A tower far from the origin is also moved next to it
    (:func:`_near_origin`), so that where it stands cannot change the verdict either."""
    tower = _near_origin(_near_unit(tower))
    masses = [body.mass for body in tower.bodies]
    for i, (body, mass) in enumerate(zip(tower.bodies, masses, strict=True)):
        if not 0 < mass < math.inf:  # a box's volume below (or above) what a float holds, next to the rest
            raise TowerError(f"bodies[{i}] ({body.name}) is too small or too light next to the rest of the tower")
    total = math.fsum(masses)
    for i, (body, mass) in enumerate(zip(tower.bodies, masses, strict=True)):
        # a body whose share of the weight is below that: the judge divides each body's equations by its share,
        # which must stay a normal float (a density of 1e-310 beside a unit cube's 1 made an internal error)
        if not mass / total >= LIGHTEST:
            raise TowerError(f"bodies[{i}] ({body.name}) is too small or too light next to the rest of the tower")
    return tower


def _near_unit(tower: Tower) -> Tower:
    """``tower`` in units a power of two apart, if its size or densest body is beyond ``FAR`` or below 1 / FAR."""
    size = tower.scale()
    density = max(body.density for body in tower.bodies)
    lengths = 0 if 1 / FAR <= size <= FAR else -math.frexp(size)[1]
    if size == math.inf:  # a span beyond the largest float (a box from -1e308 to 1e308), though every coordinate
        low, high = tower.bounds()  # is one: halved once more than its largest, each span is below 2
        lengths = -math.frexp(max(abs(c) for c in (*low, *high)))[1] - 1
    weights = 0 if 1 / FAR <= density <= FAR else -math.frexp(density)[1]
    if not lengths and not weights:
        return tower

    def scaled(values: Sequence[float]) -> Any:
        return tuple(math.ldexp(v, lengths) for v in values)

    bodies = tuple(
        Body(body.name, tuple(scaled(box) for box in body.boxes), math.ldexp(body.density, weights))
        for body in tower.bodies
    )
    ground = None if tower.ground is None else tuple(scaled(rect) for rect in tower.ground)
    return Tower(bodies, ground, tower.tie)


def _near_origin(tower: Tower) -> Tower:
    """``tower`` moved along x and y next to the origin, if it lies at least twice its size away from it.

    The judge works in coordinates divided by the tower's size: 2⁴⁰ units from the origin, a tower a few units
    across kept only about 10⁻⁵ of its size in each coordinate, the width of the knife-edge band, and a cube
    shifted exactly half its width on another read as standing clearly. The shift is one of the tower's own
    coordinates (its lowest, or its highest on the negative side), and every coordinate c of a box lies within the
    tower's size of it, so c − shift is exact (Sterbenz: the two are within a factor of two of each other): the
    moved tower is the same tower to the last bit, and a horizontal move changes neither the table nor gravity.
    Ground rectangles move with it (their corners within the tower's span exactly, those beyond stay beyond).
    """
    low, high = tower.bounds()
    size = tower.scale()
    shift = [0.0, 0.0]
    for axis in (0, 1):
        if low[axis] >= 2 * size:
            shift[axis] = low[axis]
        elif high[axis] <= -2 * size:
            shift[axis] = high[axis]
    dx, dy = shift
    if not dx and not dy:
        return tower
    bodies = tuple(
        Body(
            body.name,
            tuple((x0 - dx, y0 - dy, z0, x1 - dx, y1 - dy, z1) for x0, y0, z0, x1, y1, z1 in body.boxes),
            body.density,
        )
        for body in tower.bodies
    )
    ground = None
    if tower.ground is not None:
        ground = tuple((x0 - dx, y0 - dy, x1 - dx, y1 - dy) for x0, y0, x1, y1 in tower.ground)
    return Tower(bodies, ground, tower.tie)
