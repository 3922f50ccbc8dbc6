"""Physics speed: the stand-or-fall verdict and the tilt margin of random towers, contacts included.

Four fixed sets of towers, built once per run and kept in memory:

* 32-body Kozo-like towers standing: ``ring_tower(32, seed, standing=True)`` (polycubes on the 3×3 ring);
* 32-body towers falling: ``ring_tower(32, seed)``, the seeds whose tower falls;
* 150-body stacks standing on a 6×6 table, built here by :func:`cantilever_stack` (``brick_stack(150, seed,
  standing=True)`` takes half a minute a tower: one judge call per piece drawn);
* 150-body stacks falling: ``brick_stack(150, seed)``, the seeds whose tower falls;
* flat fields (:func:`field`): 20 × 10 unit cubes side by side on the table, 10 × 5 cubes two high, and the
  20 × 10 field with a slab bridging two cubes at every other row of its first two columns. Their margin is timed
  alone, beside the plain way's on the first field (once: it takes seconds).

The verdict is ``judge(t, margin=False, explain=False)``; the margin is ``judge(t, margin=True, explain=False)``
on the standing towers (a falling tower has no margin to find), timed in turn with the verdict of the same tower
(one, then the other, over and over), so the ratio compares two medians taken under the same load. On the
32-body towers the margin is also found the plain way (``plain_tilt_margin``: one LP on the whole friction pyramid
per direction, from scratch), beside Kumiki's (column generation, the tilt polygon, warm starts).

Run: ``python -m bench.physics_speed [--seconds 5]``.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Sequence

from kumiki.geometry.polycube import ROTATIONS, normalize, rotate
from kumiki.physics import Body, Tower, body_from_cells, judge
from kumiki.physics.contacts import hull
from kumiki.physics.forces import prepare
from kumiki.physics.margin import plain_tilt_margin, tilt_margin
from kumiki.physics.samples import _PIECES, brick_stack, ring_tower

TARGET_VERDICT_32_MS = 3.0
TARGET_VERDICT_150_MS = 20.0
TARGET_MARGIN_RATIO = 10.0
SMALL, LARGE = 32, 150
SMALL_TOWERS, LARGE_TOWERS = 10, 5
WIDTH = 6

_SHAPES = tuple(sorted({normalize(rotate(piece, turn)) for piece in _PIECES for turn in ROTATIONS}))


def _strictly_inside(point: tuple[float, float], corners: list[tuple[float, float]], gap: float = 1e-3) -> bool:
    """Whether ``point`` lies inside the counter-clockwise convex polygon ``corners``, at least ``gap`` from it."""
    if len(corners) < 3:
        return False
    px, py = point
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        if (bx - ax) * (py - ay) - (by - ay) * (px - ax) <= gap * length:
            return False
    return True


def cantilever_stack(n: int, seed: int, width: int = WIDTH) -> Tower:
    """n random polycubes dropped on a width × width table, each kept only if the tower stands by construction.

    A column is *solid* up to the height where it is filled without a gap from the table. A piece is kept when every
    cube it rests on tops a solid column and its centre of mass lies strictly inside the hull of those columns:
    its weight then goes straight down solid columns (each body in them gets equal and opposite forces on one
    vertical line), so what stood still stands, and the piece itself stands on vertical forces alone. Pieces may
    overhang (a cantilever leaves a gap below it); nothing is ever put on an overhanging cube.
    """
    rng = random.Random(seed)
    footprint = [(x, y) for x in range(width) for y in range(width)]
    height = dict.fromkeys(footprint, 0)  # the first empty cell above the top of the column
    solid = dict.fromkeys(footprint, 0)  # the first empty cell from the table up
    filled: set[tuple[int, int, int]] = set()
    bodies = []
    tries = 0
    while len(bodies) < n and tries < 1000 * n:
        tries += 1
        shape = rng.choice(_SHAPES)
        ox, oy = rng.choice(footprint)
        lowest: dict[tuple[int, int], int] = {}
        for x, y, z in shape:
            column = (x + ox, y + oy)
            lowest[column] = min(lowest.get(column, z), z)
        if any(column not in height for column in lowest):
            continue
        lift = max(height[column] - z for column, z in lowest.items())
        resting = [column for column, z in lowest.items() if z + lift == height[column]]
        if any(solid[column] != height[column] for column in resting):
            continue  # it would rest on an overhanging cube
        cells = [(x + ox, y + oy, z + lift) for x, y, z in shape]
        body = body_from_cells(f"p{len(bodies)}", cells)
        if len(resting) < len(lowest):
            corners = [(x + dx, y + dy) for x, y in resting for dx in (0, 1) for dy in (0, 1)]
            if not _strictly_inside(body.centre[:2], hull(corners)):
                continue
        filled.update(cells)
        for x, y, z in cells:
            height[(x, y)] = max(height[(x, y)], z + 1)
        for column in lowest:
            while (*column, solid[column]) in filled:
                solid[column] += 1
        bodies.append(body)
    return Tower(tuple(bodies))


def field(columns: int, rows: int, layers: int = 1, bridges: bool = False) -> Tower:
    """Unit cubes side by side, ``layers`` high; with ``bridges``, a 2 × 1 slab on the cubes (0, j) and (1, j) of
    every even row j (each resting on two bodies)."""
    bodies = [
        Body(f"c{i}_{j}_{k}", ((i, j, k, i + 1, j + 1, k + 1),))
        for i in range(columns)
        for j in range(rows)
        for k in range(layers)
    ]
    if bridges:
        bodies += [Body(f"s{j}", ((0, j, layers, 2, j + 1, layers + 0.5),)) for j in range(0, rows, 2)]
    return Tower(tuple(bodies))


FIELDS = (
    ("200-cube field", field(20, 10)),
    ("10 × 5 field two high", field(10, 5, 2)),
    ("200-cube field + 5 bridges", field(20, 10, bridges=True)),
)


def _collect(make, count: int, bodies: int, stands: bool) -> tuple[Tower, ...]:
    """The first ``count`` towers ``make(seed)`` for seeds 0, 1, … with ``bodies`` bodies that stand (or fall)."""
    towers: list[Tower] = []
    seed = 0
    while len(towers) < count and seed < 100 * count:
        tower = make(seed)
        seed += 1
        if len(tower.bodies) == bodies and judge(tower, margin=False, explain=False).stands == stands:
            towers.append(tower)
    if len(towers) < count:
        raise RuntimeError(f"only {len(towers)} of {count} towers of {bodies} bodies with stands={stands}")
    return tuple(towers)


@functools.cache
def towers(kind: str) -> tuple[Tower, ...]:
    """A fixed set of towers: ``kind`` is "ring standing", "ring falling", "stack standing" or "stack falling"."""
    if kind == "ring standing":
        return _collect(lambda s: ring_tower(SMALL, s, standing=True), SMALL_TOWERS, SMALL, True)
    if kind == "ring falling":
        return _collect(lambda s: ring_tower(SMALL, s), SMALL_TOWERS, SMALL, False)
    if kind == "stack standing":
        return _collect(lambda s: cantilever_stack(LARGE, s), LARGE_TOWERS, LARGE, True)
    if kind == "stack falling":
        return _collect(lambda s: brick_stack(LARGE, s, width=WIDTH), LARGE_TOWERS, LARGE, False)
    raise ValueError(f"unknown kind of tower {kind!r}")


def median_ms(group: Sequence[Tower], seconds: float) -> float:
    """The median time in ms of one verdict, over the towers in turn for about ``seconds`` (each once at least,
    unless a single round takes longer than ``seconds``; then at least one)."""
    judge(group[0], margin=False, explain=False)  # warm up: the solver is built on first use
    times: list[float] = []
    start = time.perf_counter()
    while True:
        for tower in group:
            began = time.perf_counter()
            judge(tower, margin=False, explain=False)
            times.append(time.perf_counter() - began)
            if time.perf_counter() - start >= seconds:
                return 1000.0 * statistics.median(times)


def interleaved_ms(group: Sequence[Tower], seconds: float) -> tuple[float, float]:
    """(verdict, verdict + margin) median times in ms, measured in turn on each tower (a verdict, then the same
    tower's margin), so that both medians see the same load: their ratio does not move with the machine as two
    figures measured a minute apart do."""
    judge(group[0], margin=True, explain=False)  # warm up
    plain: list[float] = []
    with_margin: list[float] = []
    start = time.perf_counter()
    while True:
        for tower in group:
            for margin, times in ((False, plain), (True, with_margin)):
                began = time.perf_counter()
                judge(tower, margin=margin, explain=False)
                times.append(time.perf_counter() - began)
            if time.perf_counter() - start >= seconds:
                return 1000.0 * statistics.median(plain), 1000.0 * statistics.median(with_margin)


def median_margin_ms(group: Sequence[Tower], seconds: float, plain: bool) -> float:
    """The median time in ms of the margin alone (contacts found beforehand), Kumiki's way or the plain way."""
    find = plain_tilt_margin if plain else tilt_margin
    setups = [prepare(tower) for tower in group]
    times: list[float] = []
    start = time.perf_counter()
    while True:
        for setup in setups:
            began = time.perf_counter()
            find(setup)
            times.append(time.perf_counter() - began)
            if time.perf_counter() - start >= seconds:
                return 1000.0 * statistics.median(times)


def run(seconds: float = 5.0) -> list[tuple[str, float, str]]:
    """Every figure as (what, value, comment)."""
    share = seconds / 2  # eight figures, in the time of about four
    rows = []
    verdict = {}
    for kind, bodies, target in (
        ("ring standing", SMALL, TARGET_VERDICT_32_MS),
        ("ring falling", SMALL, TARGET_VERDICT_32_MS),
        ("stack standing", LARGE, TARGET_VERDICT_150_MS),
        ("stack falling", LARGE, TARGET_VERDICT_150_MS),
    ):
        group = towers(kind)
        verdict[kind] = median_ms(group, share)
        shape, state = kind.split()
        what = f"physics verdict ms, {bodies}-body {shape}, {state}"
        rows.append((what, verdict[kind], f"median of {len(group)} towers, target ≤ {target:g}"))
    for kind, bodies in (("ring standing", SMALL), ("stack standing", LARGE)):
        group = towers(kind)
        alone, margin = interleaved_ms(group, share)
        ratio = margin / alone
        what = f"physics verdict + margin ms, {bodies}-body {kind.split()[0]}"
        comment = f"{ratio:.1f}× the verdict ({alone:.1f} ms, timed in turn), target ≤ {TARGET_MARGIN_RATIO:g}×"
        rows.append((what, margin, comment))
    group = towers("ring standing")
    fast = median_margin_ms(group, share / 2, plain=False)
    plain = median_margin_ms(group, share, plain=True)
    rows.append(
        (f"physics margin alone ms, {SMALL}-body ring", fast, "starting vertex + column generation + tilt polygon")
    )
    rows.append((f"physics margin the plain way ms, {SMALL}-body ring", plain, f"{plain / fast:.0f}× slower"))
    times = [median_margin_ms((tower,), share / 4, plain=False) for _, tower in FIELDS]
    for (name, _), fast in zip(FIELDS, times, strict=True):
        rows.append((f"physics margin alone ms, {name}", fast, "each group alone + the whole field's slide"))
    name, tower = FIELDS[0]
    plain = median_margin_ms((tower,), 0.0, plain=True)  # one run
    rows.append((f"physics margin the plain way ms, {name}", plain, f"{plain / times[0]:.0f}× slower (one run)"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.physics_speed", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall-clock budget per figure (default 5)")
    args = parser.parse_args()
    for what, value, comment in run(args.seconds):
        print(f"  {what:<52} {value:>12,.3f}   {comment}")


if __name__ == "__main__":
    main()
