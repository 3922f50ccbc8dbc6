"""Is the fast tilt margin exact? Kumiki's margin beside the plain way on random towers.

Towers: Kozo-like ring towers and brick stacks of 2–14 bodies built to stand, every body given a random density
from 10⁻³ to 10³ (a tower that no longer stands with them is drawn again), judged with 3–16 directions, a pyramid
of 8, 12, 16 or 24 sides and μ from 0.1 to 1. The plain way (``plain_tilt_margin``) solves the whole pyramid in
every direction on a fresh HiGHS with its default settings and the unscaled model; Kumiki's (``tilt_margin``) uses
column generation, the tilt polygon and its own scaling. The script prints the largest difference and every tower
that differs by more than 10⁻⁵°, and exits with status 1 if any does.

    python -m bench.physics_margin_check [--towers 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from kumiki.physics import Body, Tower, judge
from kumiki.physics.forces import prepare
from kumiki.physics.margin import plain_tilt_margin, tilt_margin
from kumiki.physics.samples import brick_stack, ring_tower

AGREE_DEG = 1e-5


def draw(rng: random.Random) -> Tower:
    """A standing tower with random densities."""
    while True:
        n = rng.randint(2, 14)
        seed = rng.randrange(2**32)
        shape = ring_tower(n, seed, standing=True) if rng.random() < 0.5 else brick_stack(n, seed, 4, standing=True)
        bodies = tuple(Body(b.name, b.boxes, 10.0 ** rng.uniform(-3, 3)) for b in shape.bodies)
        tower = Tower(bodies, shape.ground, shape.tie)
        if judge(tower, margin=False, explain=False).stands:
            return tower


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.physics_margin_check", description=__doc__.splitlines()[0])
    parser.add_argument("--towers", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    began = time.perf_counter()
    worst = 0.0
    differ = 0
    for number in range(args.towers):
        tower = draw(rng)
        directions = rng.choice([3, 4, 6, 8, 12, 16, 16, 16])
        sides = rng.choice([8, 12, 16, 16, 24])
        mu = rng.choice([0.1, 0.3, 0.5, 0.5, 1.0])
        setup = prepare(tower)
        fast = tilt_margin(setup, mu, directions, sides)
        plain = plain_tilt_margin(setup, mu, directions, sides)
        worst = max(worst, abs(fast - plain))
        if abs(fast - plain) > AGREE_DEG:
            differ += 1
            print(
                f"  DIFFER tower {number}: {len(tower.bodies)} bodies, {directions} directions, {sides} sides, "
                f"μ {mu:g}: Kumiki {fast:.6f}°, plain {plain:.6f}°"
            )
    seconds = time.perf_counter() - began
    print(
        f"{args.towers} towers: {args.towers - differ} agree to {AGREE_DEG:g}°, largest difference {worst:.1e}°, "
        f"{seconds:.0f} s"
    )
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
