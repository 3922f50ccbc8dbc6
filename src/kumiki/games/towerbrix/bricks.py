"""The nine TowerBrix bricks: cuboids on a half-unit grid, lowered straight down, judged by the physics engine.

Units are a standard brick's thickness (a standard brick is 2 x 1 x 1; the ``brick`` option's sides are in them
too). A brick's ``box`` is ``(x0, y0, z0, x1, y1, z1)``.
Coordinates are multiples of the grid (0.5 by default), exact in binary floats; comparisons still use ``TOL``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from kumiki.physics import Body, Tower, Verdict
from kumiki.physics import judge as _physics_judge

COLOURS: dict[str, str] = {"Y": "yellow", "P": "purple", "R": "red", "B": "blue", "G": "gray"}
BRICK_IDS: tuple[str, ...] = ("Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2", "G")
AXES = ("x", "y", "z")
TOL = 1e-9

Box = tuple[float, float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Brick:
    """A brick in the tower: its id, the axis its long side lies along, and the box it fills."""

    id: str
    axis: str
    box: Box

    @property
    def colour(self) -> str:
        return COLOURS[self.id[0]]

    @property
    def corner(self) -> tuple[float, float]:
        """The minimum corner on the table plane, as written in the notation."""
        return (self.box[0], self.box[1])

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "colour": self.colour, "axis": self.axis, "box": [_number(v) for v in self.box]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Brick:
        box = tuple(float(v) for v in data["box"])
        if len(box) != 6:
            raise ValueError(f"a brick's box has six numbers, got {len(box)}")
        return cls(str(data["id"]), str(data["axis"]), box)


def _number(value: float) -> float | int:
    """Whole numbers as ints, so the JSON reads ``[0, 0, 0, 1, 1, 2]``."""
    return int(value) if float(value).is_integer() else value


def brick_box(axis: str, x: float, y: float, z: float, size: tuple[float, float, float] = (2, 1, 1)) -> Box:
    """The box of a brick with the given long axis and minimum corner; ``size`` is (long, wide, thick)."""
    long, wide, thick = size
    if axis == "x":
        dx, dy, dz = long, wide, thick
    elif axis == "y":
        dx, dy, dz = wide, long, thick
    elif axis == "z":
        dx, dy, dz = wide, thick, long
    else:
        raise ValueError(f"axis must be one of x, y, z, got {axis!r}")
    return (x, y, z, _plus(x, dx), _plus(y, dy), _plus(z, dz))


_BINARY = 1024.0  # a multiple of 1/1024 (the 0.5 grid, whole or half sides) is exact in binary, and so is a sum of two


def _plus(a: float, b: float) -> float:
    """``a + b`` as the decimals they are written as: on a 0.2 grid, corner -1.4 plus side 2 is 0.6, where the
    floats' sum is 0.6000000000000001 (which ``to_json`` and the physics would show)."""
    if (a * _BINARY).is_integer() and (b * _BINARY).is_integer():
        return a + b
    return float(Decimal(repr(float(a))) + Decimal(repr(float(b))))


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


def footprints_overlap(a: Box, b: Box) -> bool:
    """The two boxes' shadows on the table overlap with area > 0."""
    return _overlap(a[0], a[3], b[0], b[3]) > TOL and _overlap(a[1], a[4], b[1], b[4]) > TOL


def place(
    bricks: Mapping[str, Brick],
    brick_id: str,
    axis: str,
    x: float,
    y: float,
    size: tuple[float, float, float] = (2, 1, 1),
) -> Brick:
    """The brick ``brick_id`` lowered straight down from above: it rests on the table or on the highest brick whose
    footprint overlaps its own (``brick_id``'s old position, if any, is ignored: moving a brick lifts it first)."""
    box = brick_box(axis, x, y, 0.0, size)
    z = 0.0
    for other in bricks.values():
        if other.id != brick_id and footprints_overlap(box, other.box):
            z = max(z, other.box[5])
    return Brick(brick_id, axis, brick_box(axis, x, y, z, size))


def touching(a: Brick, b: Brick) -> bool:
    """The two bricks share a face with area > 0 (faces in contact, overlap area > 0)."""
    p, q = a.box, b.box
    gaps = [_overlap(p[i], p[i + 3], q[i], q[i + 3]) for i in range(3)]
    for axis in range(3):
        others = [gaps[i] for i in range(3) if i != axis]
        if abs(gaps[axis]) <= TOL and all(g > TOL for g in others):
            return True
    return False


def rests_on(a: Brick, b: Brick) -> bool:
    """``a``'s bottom face lies on ``b``'s top face with area > 0."""
    return abs(a.box[2] - b.box[5]) <= TOL and footprints_overlap(a.box, b.box)


def on_table(a: Brick) -> bool:
    """The brick stands on the table (z0 == 0)."""
    return abs(a.box[2]) <= TOL


def connected(bricks: Iterable[Brick]) -> bool:
    """The touch graph is connected (an empty or one-brick tower is connected). The table does not connect bricks."""
    items = list(bricks)
    if len(items) <= 1:
        return True
    seen = {0}
    stack = [0]
    while stack:
        i = stack.pop()
        for j in range(len(items)):
            if j not in seen and touching(items[i], items[j]):
                seen.add(j)
                stack.append(j)
    return len(seen) == len(items)


def overlapping(bricks: Iterable[Brick]) -> tuple[str, str] | None:
    """The first pair of bricks whose interiors overlap, or None (placement by lowering never makes one)."""
    items = list(bricks)
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if all(_overlap(a.box[k], a.box[k + 3], b.box[k], b.box[k + 3]) > TOL for k in range(3)):
                return (a.id, b.id)
    return None


def tower(bricks: Iterable[Brick], density: Mapping[str, float] | None = None) -> Tower:
    """The physics model of the bricks: one rigid body each, on an endless table, a knife edge counts as falling."""
    density = density or {}
    bodies = tuple(Body(b.id, (b.box,), density.get(b.id, 1.0)) for b in bricks)
    return Tower(bodies, None, "falls")


def judge(bricks: Iterable[Brick], margin: bool = False, explain: bool = False) -> Verdict:
    """The physics judge on the bricks (tie "falls"); with ``margin`` also the tilt-table margin in degrees.
    An empty tower stands."""
    items = list(bricks)
    if not items:
        return Verdict(True, False, 90.0 if margin else 0.0, 0)
    return _physics_judge(tower(items), margin=margin, explain=explain)
