"""Kumiki's judge and compas_cra's RBE solver (the ``bench`` extra) give the same verdicts on the same towers."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("compas_cra")
pytest.importorskip("threadpoolctl")

from bench.physics_compas import rbe_judge, to_assembly
from kumiki.physics import Body, Tower, body_from_cells, judge
from kumiki.physics.samples import cubes, ring_tower, staircase


def bridge(span: float = 2.0, beam_x: float = 0.0) -> Tower:
    """Two unit pillars two high, ``span`` apart, and a beam across them from ``beam_x``."""
    return Tower(
        (
            Body("left", ((0.0, 0.0, 0.0, 1.0, 1.0, 2.0),)),
            Body("right", ((1.0 + span, 0.0, 0.0, 2.0 + span, 1.0, 2.0),)),
            Body("beam", ((beam_x, 0.0, 2.0, beam_x + 2.0 + span, 1.0, 3.0),)),
        )
    )


def polycubes() -> Tower:
    """Two L-shaped polycubes and a bar: the upper L hangs over the lower one's long arm."""
    return Tower(
        (
            body_from_cells("L", [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)]),
            body_from_cells("bar", [(0, 0, 1), (0, 1, 1)]),
            body_from_cells("hook", [(1, 0, 1), (2, 0, 1), (2, 0, 2), (3, 0, 2)]),
        )
    )


TOWERS = {
    "one cube": (cubes((0, 0, 0)), True),
    "standing pair": (cubes((0, 0, 0), (0.3, 0.2, 1)), True),
    "offset pair": (cubes((0, 0, 0), (0.7, 0, 1)), False),
    "staircase 4 × 0.2": (staircase(4, 0.2), True),
    "staircase 4 × 0.3": (staircase(4, 0.3), False),
    "bridge": (bridge(), True),
    "beam off one pillar": (bridge(beam_x=-2.5), False),
    "polycubes": (polycubes(), True),
}


@pytest.mark.parametrize("name", sorted(TOWERS))
def test_same_verdict(name: str) -> None:
    tower, stands = TOWERS[name]
    assert judge(tower, margin=False).stands is stands
    assert rbe_judge(tower).stands is stands


def test_knife_edge_stands_in_both_with_tie_stands() -> None:
    tower = dataclasses.replace(staircase(3, 1 / 3), tie="stands")
    verdict = judge(tower, margin=False)
    assert verdict.stands and verdict.edge
    assert rbe_judge(tower).stands


@pytest.mark.parametrize("seed", [0, 1])
def test_kozo_like_tower(seed: int) -> None:
    tower = ring_tower(12, seed)
    assert rbe_judge(tower).stands is judge(dataclasses.replace(tower, tie="stands"), margin=False).stands


def test_blocks_weigh_and_balance_like_the_bodies() -> None:
    tower = ring_tower(12, 3)
    assembly = to_assembly(tower)
    for i, body in enumerate(tower.bodies):
        block = assembly.node_block(i + 1)
        assert block.volume() == pytest.approx(body.volume)
        assert list(block.center()) == pytest.approx(list(body.centre))
