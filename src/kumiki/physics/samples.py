"""Sample towers with known answers, and random towers for benchmarks and cross-checks.

Random towers drop polycubes (the Blokus 3D pieces, in random proper rotations) onto a footprint until they rest:
``ring_tower`` on Kozo's 3×3 base without its centre, ``brick_stack`` bricks on a wider table. Whether such a
tower stands is not decided here; that is the judge's job.
"""

from __future__ import annotations

import random

from kumiki.geometry.polycube import ROTATIONS, normalize, rotate
from kumiki.physics.model import Body, Tower, body_from_cells

_PIECES = (
    ((0, 0, 0), (1, 0, 0)),
    ((0, 0, 0), (1, 0, 0), (2, 0, 0)),
    ((0, 0, 0), (1, 0, 0), (0, 1, 0)),
    ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)),
    ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)),
    ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
    ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
    ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
    ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)),
    ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)),
)


def cubes(*corners: tuple[float, float, float], tie: str = "falls") -> Tower:
    """Unit cubes with their minimum corners at ``corners``, named c0, c1, …"""
    return Tower(
        tuple(Body(f"c{i}", ((x, y, z, x + 1, y + 1, z + 1),)) for i, (x, y, z) in enumerate(corners)), tie=tie
    )


def staircase(n: int, shift: float) -> Tower:
    """n unit cubes, each shifted ``shift`` along x from the one below: it stands iff shift ≤ 1/n."""
    return cubes(*[(i * shift, 0.0, float(i)) for i in range(n)])


def harmonic_stack(n: int, factor: float = 1.0) -> Tower:
    """n unit cubes, the k-th from the top overhanging the one below by factor/(2k): balanced exactly at 1."""
    xs = [0.0]
    for i in range(1, n):
        xs.append(xs[-1] + factor / (2 * (n - i)))
    return cubes(*[(x, 0.0, float(i)) for i, x in enumerate(xs)])


def _drop(
    rng: random.Random,
    footprint: list[tuple[int, int]],
    n: int,
    pieces: tuple[tuple[tuple[int, int, int], ...], ...],
    standing: bool = False,
) -> Tower:
    allowed = set(footprint)
    height: dict[tuple[int, int], int] = dict.fromkeys(footprint, 0)
    filled: set[tuple[int, int, int]] = set()
    bodies: list[Body] = []
    tries = 0
    while len(bodies) < n and tries < 50 * n:
        tries += 1
        shape = normalize(rotate(rng.choice(pieces), rng.choice(ROTATIONS)))
        ox, oy = rng.choice(footprint)
        cells = [(x + ox, y + oy, z) for x, y, z in shape]
        if any((x, y) not in allowed for x, y, _ in cells):
            continue
        # Lower the piece until a cube would enter a filled cell or the table.
        lift = max(height[(x, y)] - z for x, y, z in cells)
        placed = [(x, y, z + lift) for x, y, z in cells]
        if any(c in filled for c in placed):
            continue
        body = body_from_cells(f"p{len(bodies)}", placed)
        if standing:
            from kumiki.physics.statics import judge

            if not judge(Tower((*bodies, body)), margin=False, explain=False).stands:
                continue
        filled.update(placed)
        for x, y, z in placed:
            height[(x, y)] = max(height[(x, y)], z + 1)
        bodies.append(body)
    return Tower(tuple(bodies))


RING = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]


def ring_tower(n: int, seed: int, standing: bool = False) -> Tower:
    """A Kozo-like tower: n random polycubes dropped on the 3×3 base around its empty centre (with ``standing``,
    a piece that would make the tower fall is drawn again)."""
    return _drop(random.Random(seed), RING, n, _PIECES, standing)


def brick_stack(n: int, seed: int, width: int = 6, standing: bool = False) -> Tower:
    """n random polycubes dropped onto a width × width table."""
    footprint = [(x, y) for x in range(width) for y in range(width)]
    return _drop(random.Random(seed), footprint, n, _PIECES, standing)
