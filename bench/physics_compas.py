"""Kumiki's judge beside compas_cra's RBE solver on the same towers: the same verdicts, and how much faster.

compas_cra (Kao et al. 2022; the ``bench`` extra: ``pip install -e '.[bench]'``) judges an assembly of blocks with
the rigid-block-equilibrium (RBE) model of Whiting et al.: it minimises the squared contact
forces, tension allowed at a penalty (weight 10⁶ against 1), on the corners of every face-to-face interface; it
solves that quadratic program with IPOPT, compiled into the package. A tower stands when the optimum needs no
tension. How the comparison is set up:

* The towers are the speed figures' own, standing and falling: 32-body Kozo-like towers (``ring_tower``), and
  with ``--bodies 150`` the 150-body stacks.
* A Kumiki body, a union of cubes, becomes one compas block: a closed mesh of its outer faces, each planar region
  cut into rectangles (compas_cra's interface search needs convex faces). Its volume and centre of mass (compas
  computes both from the mesh) equal the body's. The table is a fixed support block under the tower.
* Friction: Kumiki's verdict uses normal forces only (frictionless contacts), so RBE runs with μ = 0; ``--mu``
  sets another (compas_cra's default is 0.84).
* Knife edges: RBE accepts a force exactly on an edge, so Kumiki judges the same towers with ``tie="stands"``.
* RBE verdict: stands iff IPOPT solves it and the largest tension is at most 10⁻⁴ of the tower's weight (standing
  towers' optima carry ~10⁻⁶ of it at most, falling towers' ≥ 10⁻²; the run prints the extremes it saw).
* Times: Kumiki's ``judge(t, margin=False, explain=False)``, contacts included, against compas_cra's
  ``assembly_interfaces_numpy`` (the contacts) plus ``rbe_solve``; building the meshes is not counted. The
  interface search compares each block with its ``nmax`` nearest blocks: its default, 10, misses contacts on
  these towers, so nmax is the number of blocks. Both run on one thread (threadpoolctl), like every bench figure.

Run: ``python -m bench.physics_compas [--towers 6] [--bodies 32] [--mu 0]``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bench.physics_speed import LARGE, LARGE_TOWERS, SMALL, SMALL_TOWERS, _collect, towers
from kumiki.physics import Tower, judge
from kumiki.physics.contacts import IN_PLANE
from kumiki.physics.samples import ring_tower

TARGET_RATIO = 10.0
TENSION = 1e-4  # the largest tension, relative to the tower's weight, of a tower RBE says stands
COMMAND = "python -m bench.physics_compas"


def unavailable() -> str | None:
    """Why the comparison cannot run here, or None if it can."""
    try:
        import compas_cra  # noqa: F401
        import threadpoolctl  # noqa: F401
        from compas_cra._native import IPOPT_VERSION  # noqa: F401
    except ImportError as error:
        return f"compas_cra is not installed ({error}); pip install -e '.[bench]'"
    return None


class _Sink:
    """compas_cra prints as it works (matrix shapes, every block's density): thrown away, cheaply."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _rectangles(cells: set[tuple[int, int]]) -> Iterator[tuple[int, int, int, int]]:
    """Grid cells (i, j) merged greedily into rectangles (i0, j0, i1, j1), inclusive."""
    while cells:
        i, j = min(cells)
        j1 = j
        while (i, j1 + 1) in cells:
            j1 += 1
        i1 = i
        while all((i1 + 1, jj) in cells for jj in range(j, j1 + 1)):
            i1 += 1
        for ii in range(i, i1 + 1):
            for jj in range(j, j1 + 1):
                cells.discard((ii, jj))
        yield i, j, i1, j1


def _covered(rects: list[tuple[float, float, float, float]], u: float, v: float) -> bool:
    return any(r[0] < u < r[2] and r[1] < v < r[3] for r in rects)


def block_faces(
    boxes: Sequence[Sequence[float]],
) -> tuple[list[list[float]], list[list[int]]]:
    """The closed surface of a union of non-overlapping boxes: vertices and faces (rectangles, outward normals).

    Each box face lies in a plane; where faces of two boxes of the body meet back to back they are inside and
    dropped. What is left of each plane is cut into rectangles on the grid of its coordinates.
    """
    regions: dict[tuple[int, int, float], list[tuple[float, float, float, float]]] = defaultdict(list)
    for box in boxes:
        for axis in range(3):
            u, v = IN_PLANE[axis]
            rect = (box[u], box[v], box[u + 3], box[v + 3])
            regions[(axis, 0, box[axis])].append(rect)  # the face on the - side
            regions[(axis, 1, box[axis + 3])].append(rect)  # the face on the + side
    vertices: list[list[float]] = []
    faces: list[list[int]] = []
    index: dict[tuple[float, float, float], int] = {}
    for (axis, side, plane), rects in regions.items():
        inside = regions.get((axis, 1 - side, plane), [])
        us = sorted({r[0] for r in rects + inside} | {r[2] for r in rects + inside})
        vs = sorted({r[1] for r in rects + inside} | {r[3] for r in rects + inside})
        cells = {
            (i, j)
            for i in range(len(us) - 1)
            for j in range(len(vs) - 1)
            if _covered(rects, (us[i] + us[i + 1]) / 2, (vs[j] + vs[j + 1]) / 2)
            and not _covered(inside, (us[i] + us[i + 1]) / 2, (vs[j] + vs[j + 1]) / 2)
        }
        u, v = IN_PLANE[axis]
        # (u, v, normal) is right-handed for axes 0 and 2, left-handed for 1: counter-clockwise seen from outside.
        counter_clockwise = (side == 1) == (axis != 1)
        for i0, j0, i1, j1 in _rectangles(cells):
            a0, b0, a1, b1 = us[i0], vs[j0], us[i1 + 1], vs[j1 + 1]
            cycle = [(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
            if not counter_clockwise:
                cycle.reverse()
            face = []
            for a, b in cycle:
                point = [0.0, 0.0, 0.0]
                point[axis], point[u], point[v] = plane, a, b
                key = (point[0], point[1], point[2])
                if key not in index:
                    index[key] = len(vertices)
                    vertices.append(point)
                face.append(index[key])
            faces.append(face)
    return vertices, faces


def to_assembly(tower: Tower) -> Any:
    """A compas_cra assembly: node 0 the table (a fixed slab under the tower), node i + 1 the body i."""
    from compas_assembly.datastructures import Block
    from compas_cra.datastructures import CRA_Assembly

    assembly = CRA_Assembly()
    boxes = [box for body in tower.bodies for box in body.boxes]
    lo = [min(box[a] for box in boxes) - 1.0 for a in range(2)]
    hi = [max(box[a + 3] for box in boxes) + 1.0 for a in range(2)]
    slab = (lo[0], lo[1], -1.0, hi[0], hi[1], 0.0)
    assembly.add_block(Block.from_vertices_and_faces(*block_faces([slab])), node=0)
    assembly.set_boundary_conditions([0])
    for i, body in enumerate(tower.bodies):
        block = Block.from_vertices_and_faces(*block_faces(body.boxes))
        block.attributes["density"] = body.density
        assembly.add_block(block, node=i + 1)
    return assembly


@dataclass(frozen=True)
class RBE:
    """compas_cra's judgement of a tower."""

    stands: bool
    tension: float  # the largest tension at the optimum, relative to the tower's weight (inf if IPOPT failed)
    contacts_s: float  # assembly_interfaces_numpy
    solve_s: float  # rbe_solve
    interfaces: int  # pairs of blocks in contact
    status: str

    @property
    def total_s(self) -> float:
        return self.contacts_s + self.solve_s


def rbe_judge(tower: Tower, mu: float = 0.0) -> RBE:
    """Build the assembly (not timed), then find its interfaces and solve RBE (timed)."""
    import compas_cra._native  # noqa: F401  (IPOPT and its BLAS, loaded before the limit below)
    from compas_cra.algorithms import assembly_interfaces_numpy
    from compas_cra.equilibrium import rbe_solve
    from threadpoolctl import threadpool_limits

    assembly = to_assembly(tower)
    blocks = assembly.number_of_nodes()
    area = 1e-6 * tower.scale() ** 2
    status = "solved"
    # One BLAS thread (the libraries are loaded by now: threadpoolctl limits only those), no printing.
    with threadpool_limits(limits=1), contextlib.redirect_stdout(_Sink()):  # type: ignore[type-var]
        began = time.perf_counter()
        assembly_interfaces_numpy(assembly, nmax=blocks, amin=area)
        found = time.perf_counter()
        try:
            rbe_solve(assembly, mu=mu, density=1.0)
        except ValueError as error:  # IPOPT did not solve it: nothing holds some block
            status = str(error)
        solved = time.perf_counter()
    tension = float("inf")
    if status == "solved":
        tension = 0.0
        for edge in assembly.edges():
            for interface in assembly.graph.edge_attribute(edge, "interfaces"):
                for force in interface.forces:
                    tension = max(tension, force["c_nn"])
        tension /= sum(body.mass for body in tower.bodies)
    return RBE(tension <= TENSION, tension, found - began, solved - found, assembly.number_of_edges(), status)


def kumiki_seconds(tower: Tower, repeats: int = 5) -> float:
    """The median time of Kumiki's verdict (contacts included) over ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        judge(tower, margin=False, explain=False)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


@dataclass(frozen=True)
class Row:
    name: str
    kumiki: bool
    edge: bool
    kumiki_s: float
    rbe: RBE


def the_towers(count: int, bodies: int) -> list[tuple[str, Tower]]:
    """``count`` towers of ``bodies`` bodies, standing and falling in turn: the speed figures' own towers for 32
    bodies (Kozo-like) and 150 (stacks on a 6×6 table), else Kozo-like ones."""
    halves = ((count + 1) // 2, count // 2)
    if bodies == SMALL and max(halves) <= SMALL_TOWERS:
        standing, falling = towers("ring standing"), towers("ring falling")
    elif bodies == LARGE and max(halves) <= LARGE_TOWERS:
        standing, falling = towers("stack standing"), towers("stack falling")
    else:
        standing = _collect(lambda s: ring_tower(bodies, s, standing=True), halves[0], bodies, True)
        falling = _collect(lambda s: ring_tower(bodies, s), halves[1], bodies, False)
    named = []
    for i in range(halves[0]):
        named.append((f"{bodies} bodies, standing #{i}", standing[i]))
        if i < halves[1]:
            named.append((f"{bodies} bodies, falling #{i}", falling[i]))
    return named


def compare(named: Sequence[tuple[str, Tower]], mu: float = 0.0, seconds: float | None = None) -> list[Row]:
    """Both judges on every tower (until ``seconds`` have passed, if given; two towers at least)."""
    rows = []
    start = time.perf_counter()
    judge(named[0][1], margin=False, explain=False)  # warm up: the solver is built on first use
    rbe_judge(named[0][1], mu)  # warm up: imports, the IPOPT library
    for name, tower in named:
        tower = dataclasses.replace(tower, tie="stands")
        verdict = judge(tower, margin=False, explain=False)
        rows.append(Row(name, verdict.stands, verdict.edge, kumiki_seconds(tower), rbe_judge(tower, mu)))
        if seconds is not None and len(rows) >= 2 and time.perf_counter() - start >= seconds:
            break
    return rows


@dataclass(frozen=True)
class Summary:
    towers: int
    agree: int
    kumiki_ms: float
    rbe_ms: float
    rbe_solve_ms: float

    @property
    def ratio(self) -> float:
        return self.rbe_ms / self.kumiki_ms

    @property
    def solve_ratio(self) -> float:
        return self.rbe_solve_ms / self.kumiki_ms


def summarise(rows: Sequence[Row]) -> Summary:
    return Summary(
        len(rows),
        sum(row.kumiki == row.rbe.stands for row in rows),
        1000 * statistics.median(row.kumiki_s for row in rows),
        1000 * statistics.median(row.rbe.total_s for row in rows),
        1000 * statistics.median(row.rbe.solve_s for row in rows),
    )


def run(seconds: float = 5.0) -> list[tuple[str, float, str]]:
    """The headline figures for ``python -m bench`` (none, with the reason printed, without compas_cra)."""
    reason = unavailable()
    if reason is not None:
        print(f"  (physics vs compas_cra skipped: {reason})")
        return []
    rows = compare(the_towers(4, SMALL), seconds=seconds)
    s = summarise(rows)
    same = f"same verdict on {s.agree}/{s.towers} towers; Kumiki {s.kumiki_ms:.1f} ms"
    return [
        (f"physics vs compas_cra RBE ms, {SMALL}-body ring", s.rbe_ms, f"{same}; {COMMAND}"),
        ("physics vs compas_cra RBE: Kumiki faster by ×", s.ratio, f"target ≥ {TARGET_RATIO:g}×"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n")[0])
    parser.add_argument("--towers", type=int, default=6, help="towers, half standing and half falling (default 6)")
    parser.add_argument("--bodies", type=int, default=32, help="bodies per tower (default 32)")
    parser.add_argument("--mu", type=float, default=0.0, help="RBE friction coefficient (default 0: frictionless)")
    args = parser.parse_args()
    reason = unavailable()
    if reason is not None:
        sys.exit(reason)
    from compas_cra import __version__
    from compas_cra._native import IPOPT_VERSION

    print(f"Kumiki judge vs compas_cra {__version__} RBE (IPOPT {IPOPT_VERSION}), μ = {args.mu:g}, one thread")
    rows = compare(the_towers(args.towers, args.bodies), mu=args.mu)
    print(f"  {'tower':<36} {'kumiki':>7} {'RBE':>7} {'tension':>9} {'contacts':>8} {'kumiki ms':>10} {'RBE ms':>9}")
    for row in rows:
        kumiki = ("stands" if row.kumiki else "falls") + ("*" if row.edge else "")
        rbe = "stands" if row.rbe.stands else "falls"
        print(
            f"  {row.name:<36} {kumiki:>7} {rbe:>7} {row.rbe.tension:>9.1e} {row.rbe.interfaces:>8}"
            f" {1000 * row.kumiki_s:>10.2f} {1000 * row.rbe.total_s:>9.0f}"
        )
    s = summarise(rows)
    standing = [row.rbe.tension for row in rows if row.kumiki]
    falling = [row.rbe.tension for row in rows if not row.kumiki]
    edges = " (* on a knife edge: Kumiki judged with tie=stands)" if any(row.edge for row in rows) else ""
    print(f"  Same verdict on {s.agree} of {s.towers} towers.{edges}")
    if standing and falling:
        print(f"  RBE tension / weight: at most {max(standing):.1e} standing, at least {min(falling):.1e} falling.")
    print(
        f"  Median per tower: Kumiki {s.kumiki_ms:.2f} ms; compas_cra {s.rbe_ms:.0f} ms"
        f" ({s.rbe_ms - s.rbe_solve_ms:.0f} ms interfaces + {s.rbe_solve_ms:.0f} ms RBE solve)."
    )
    print(f"  Kumiki faster by ×{s.ratio:.0f} (×{s.solve_ratio:.0f} against the RBE solve alone).")
    print(f"  Reproduce: {COMMAND} --towers {args.towers} --bodies {args.bodies} --mu {args.mu:g}")


if __name__ == "__main__":
    main()
