"""Collapse simulation for animation (the ``kumiki[sim]`` extra, MuJoCo). It never decides the verdict.

:func:`simulate` turns a :class:`~kumiki.physics.model.Tower` into a MuJoCo model, lets it run for a few seconds
and returns the bodies' poses at a fixed frame rate (:class:`Keyframes`, which the web client plays back).
:func:`falls_in_simulation` runs the same model and says whether anything moved; ``bench/physics_engine_check.py``
uses it to cross-check the judge.

The model. Each body is a free MuJoCo body made of its boxes (box geoms), its frame at its centre of mass with the
axes of the tower; mass and inertia come from density × volume (density 1 is 1000 kg/m³: only ratios matter). The
table is a plane at z = 0, or with ``tower.ground`` one static box under each ground rectangle and nothing
elsewhere (a body that falls off drops past). One tower unit is ``unit`` metres (2 cm by default, a game cube), so
the animation runs at the speed of real blocks.

The tuning follows what the literature recommends for stacking with MuJoCo (small step, implicit integration,
elliptic friction cones, stiff and hard contacts, no contact margin); every value can be overridden:

- ``timestep`` 0.5 ms with the ``implicitfast`` integrator, ``iterations``/``tolerance`` so the solver converges.
- ``cone="elliptic"`` with ``impratio`` 10 (friction constraints harder than normal ones, so less creeping slip).
- ``solref`` (0.002 s, damping ratio 1): a time constant of 4 steps, far below a cube's time scale
  sqrt(unit/g) ≈ 45 ms; ``solimp`` (0.999, 0.9999, 0.001): the constraint is nearly hard from the first
  micrometre. A stack of ten cubes sinks by 5e-5 of a cube in all.
- ``margin`` and ``gap`` 0: contacts act only where geoms touch.
- ``friction`` 1.0 on every contact, with torsional friction (``condim`` 4) of ``torsion`` × friction, ``torsion``
  0.2 of a block: the effective radius of a face contact, kept small (a uniformly pressed unit face has 0.38).
  Without it, a block resting face on face can slowly turn about the vertical (MuJoCo's box-box contacts between
  faces whose edges line up come and go between one and four points from step to step), a few tenths of a degree
  a second.

Friction and the judge. The judge's verdict is frictionless: it asks whether compressive normal forces alone can
hold every body, and tipping is what it tests. A tower it says stands stands with any friction (friction only adds
forces); the converse fails for a body that tips against a neighbour's side and is held there by friction where it
rests ("hooked"), which the judge calls a fall. A frictionless simulation is no use for the cross-check, though:
a standing tower is then only in neutral equilibrium sideways and drifts apart on numerical noise. The cross-check
(``bench/physics_engine_check.py``) therefore uses a small friction, 0.1, that stops the drift and holds none of
the hooked blocks met in random towers, and reports friction 1.0 (real blocks) beside it. Animations use 1.0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Any

from kumiki.physics.model import Box, Tower

TUNING: dict[str, Any] = {
    "unit": 0.02,  # metres per tower unit
    "timestep": 0.0005,
    "integrator": "implicitfast",
    "cone": "elliptic",
    "impratio": 10.0,
    "iterations": 100,
    "tolerance": 1e-10,
    "noslip_iterations": 0,
    "friction": 1.0,
    "torsion": 0.2,  # torsional friction radius, in tower units (× friction; 0: sliding friction only)
    "solref": (0.002, 1.0),
    "solimp": (0.999, 0.9999, 0.001, 0.5, 2.0),
    "ground_depth": 1.0,  # thickness of the ground boxes, in tower units
}

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]


@dataclass(frozen=True)
class Keyframes:
    """Poses of every body, ``fps`` frames a second, frame 0 at rest.

    ``frames[f][b]`` is body ``names[b]`` at time f / fps: the position of its centre of mass (tower units) and its
    rotation as a unit quaternion (w, x, y, z). A point ``p`` of the body at rest (tower coordinates) is, in that
    frame, at ``position + rotate(quaternion, p − centres[b])``.
    """

    fps: int
    names: tuple[str, ...]
    centres: tuple[tuple[float, float, float], ...]
    frames: tuple[tuple[Pose, ...], ...]

    @property
    def seconds(self) -> float:
        return (len(self.frames) - 1) / self.fps

    def to_json(self) -> dict[str, Any]:
        def r(values: tuple[float, ...]) -> list[float]:
            return [round(v, 5) for v in values]

        return {
            "fps": self.fps,
            "bodies": [{"name": n, "centre": r(c)} for n, c in zip(self.names, self.centres, strict=True)],
            "frames": [[{"position": r(p), "quaternion": r(q)} for p, q in frame] for frame in self.frames],
        }


def _mujoco() -> Any:
    try:
        import mujoco  # type: ignore[import-untyped]  # MuJoCo ships no type information (no py.typed)
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("the collapse simulation needs MuJoCo, an optional extra: pip install kumiki[sim]") from error
    return mujoco


def merge_boxes(boxes: tuple[Box, ...]) -> list[Box]:
    """Fewer boxes for the same solid: two boxes that share a whole face become one (a polycube's straight runs
    become one box each), which makes the collision detection cheaper."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(out):
            for j in range(i + 1, len(out)):
                b = out[j]
                for axis in range(3):
                    others = [k for k in range(3) if k != axis]
                    if all(a[k] == b[k] and a[k + 3] == b[k + 3] for k in others) and (
                        a[axis + 3] == b[axis] or b[axis + 3] == a[axis]
                    ):
                        lo = [min(a[k], b[k]) for k in range(3)]
                        hi = [max(a[k + 3], b[k + 3]) for k in range(3)]
                        out[i] = (lo[0], lo[1], lo[2], hi[0], hi[1], hi[2])
                        del out[j]
                        merged = True
                        break
                if merged:
                    break
            if merged:
                break
    return out


def _numbers(values: Any) -> str:
    return " ".join(f"{v:.10g}" for v in values)


def model_xml(tower: Tower, **tuning: Any) -> str:
    """The MuJoCo model (MJCF) of the tower, with :data:`TUNING` overridden by ``tuning``."""
    unknown = set(tuning) - set(TUNING)
    if unknown:
        raise TypeError(f"unknown tuning {sorted(unknown)[0]!r} (known: {', '.join(sorted(TUNING))})")
    t = {**TUNING, **tuning}
    u = float(t["unit"])
    mu = float(t["friction"])
    torsion = float(t["torsion"]) * u * mu
    condim = 4 if torsion > 0 else 3
    lines = [
        '<mujoco model="tower">',
        '  <compiler angle="radian" inertiafromgeom="true"/>',
        f'  <option timestep="{t["timestep"]:.10g}" integrator="{t["integrator"]}" cone="{t["cone"]}"'
        f' impratio="{t["impratio"]:.10g}" iterations="{int(t["iterations"])}" tolerance="{t["tolerance"]:.10g}"'
        f' noslip_iterations="{int(t["noslip_iterations"])}" gravity="0 0 -9.81"/>',
        "  <default>",
        f'    <geom condim="{condim}" friction="{mu:.10g} {torsion:.10g} 0" solref="{_numbers(t["solref"])}"'
        f' solimp="{_numbers(t["solimp"])}" margin="0" gap="0"/>',
        "  </default>",
        "  <worldbody>",
    ]
    if tower.ground is None:
        lines.append('    <geom name="table" type="plane" size="0 0 1"/>')
    else:
        depth = float(t["ground_depth"])
        for k, (x0, y0, x1, y1) in enumerate(tower.ground):
            centre = ((x0 + x1) / 2 * u, (y0 + y1) / 2 * u, -depth / 2 * u)
            half = ((x1 - x0) / 2 * u, (y1 - y0) / 2 * u, depth / 2 * u)
            lines.append(f'    <geom name="ground{k}" type="box" pos="{_numbers(centre)}" size="{_numbers(half)}"/>')
    for b, body in enumerate(tower.bodies):
        cx, cy, cz = body.centre
        lines.append(f'    <body name="b{b}" pos="{_numbers((cx * u, cy * u, cz * u))}">')
        lines.append("      <freejoint/>")
        for x0, y0, z0, x1, y1, z1 in merge_boxes(body.boxes):
            pos = (((x0 + x1) / 2 - cx) * u, ((y0 + y1) / 2 - cy) * u, ((z0 + z1) / 2 - cz) * u)
            half = ((x1 - x0) / 2 * u, (y1 - y0) / 2 * u, (z1 - z0) / 2 * u)
            lines.append(
                f'      <geom type="box" pos="{_numbers(pos)}" size="{_numbers(half)}"'
                f' density="{body.density * 1000:.10g}"/>'
            )
        lines.append("    </body>")
    lines += ["  </worldbody>", "</mujoco>"]
    return "\n".join(lines)


class _Run:
    """A MuJoCo model of a tower, stepped frame by frame."""

    def __init__(self, tower: Tower, fps: int, tuning: dict[str, Any]) -> None:
        mujoco = _mujoco()
        self.mujoco = mujoco
        self.unit = float(tuning.get("unit", TUNING["unit"]))
        self.model = mujoco.MjModel.from_xml_string(model_xml(tower, **tuning))
        self.data = mujoco.MjData(self.model)
        self.count = len(tower.bodies)
        self.steps = max(1, round(1.0 / (fps * self.model.opt.timestep)))
        mujoco.mj_forward(self.model, self.data)

    def advance(self) -> None:
        self.mujoco.mj_step(self.model, self.data, nstep=self.steps)

    def poses(self) -> tuple[Pose, ...]:
        q = self.data.qpos
        u = self.unit
        out = []
        for b in range(self.count):
            x, y, z, qw, qx, qy, qz = (float(v) for v in q[7 * b : 7 * b + 7])
            out.append(((x / u, y / u, z / u), (qw, qx, qy, qz)))
        return tuple(out)


def simulate(tower: Tower, seconds: float = 3.0, fps: int = 30, **tuning: Any) -> Keyframes:
    """Simulate the tower for ``seconds`` and return the bodies' poses ``fps`` times a second (frame 0 at rest).

    ``tuning`` overrides :data:`TUNING` (``timestep``, ``friction``, ``solref``, ``unit``, …). Needs MuJoCo
    (``pip install kumiki[sim]``). This is for animation: whether the tower stands is the judge's to say.
    """
    if seconds < 0 or fps <= 0:
        raise ValueError("seconds must be ≥ 0 and fps > 0")
    run = _Run(tower, fps, tuning)
    frames = [run.poses()]
    for _ in range(round(seconds * fps)):
        run.advance()
        frames.append(run.poses())
    return Keyframes(fps, tuple(b.name for b in tower.bodies), tuple(b.centre for b in tower.bodies), tuple(frames))


def block_size(tower: Tower) -> float:
    """The typical block's size: the median over boxes of their largest edge (1 on a unit grid)."""
    return median(max(b[3] - b[0], b[4] - b[1], b[5] - b[2]) for body in tower.bodies for b in body.boxes)


def displacement(start: tuple[Pose, ...], now: tuple[Pose, ...]) -> tuple[float, float]:
    """The largest translation (tower units) and rotation (degrees) of any body between two frames."""
    moved = turned = 0.0
    for (p0, q0), (p1, q1) in zip(start, now, strict=True):
        moved = max(moved, math.dist(p0, p1))
        dot = abs(sum(a * b for a, b in zip(q0, q1, strict=True)))
        turned = max(turned, math.degrees(2 * math.acos(min(1.0, dot))))
    return moved, turned


def falls_in_simulation(
    tower: Tower,
    seconds: float = 2.0,
    threshold: float = 0.25,
    degrees: float = 10.0,
    **tuning: Any,
) -> bool:
    """Whether any body moves in ``seconds`` of simulation: translates more than ``threshold`` blocks (see
    :func:`block_size`) or turns more than ``degrees``. It stops as soon as one does."""
    return motion(tower, seconds, threshold, degrees, **tuning)[0]


def motion(
    tower: Tower, seconds: float = 2.0, threshold: float = 0.25, degrees: float = 10.0, **tuning: Any
) -> tuple[bool, float, float, float]:
    """(fell, largest translation in blocks, largest rotation in degrees, simulated seconds), checked 100 times a
    simulated second and stopped early once a body passes ``threshold`` blocks or ``degrees``."""
    size = block_size(tower)
    checks = 100
    run = _Run(tower, checks, tuning)
    start = run.poses()
    moved = turned = 0.0
    frames = round(seconds * checks)
    for frame in range(1, frames + 1):
        run.advance()
        m, d = displacement(start, run.poses())
        moved, turned = max(moved, m / size), max(turned, d)
        if moved > threshold or turned > degrees:
            return True, moved, turned, frame / checks
    return False, moved, turned, frames / checks
