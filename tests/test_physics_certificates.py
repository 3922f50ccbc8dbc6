"""The judge's certificates against the plain LP: a load path is a solution, a mechanism proves a fall, and the
judge with them gives the LP's verdict on every one of more than 10,000 random Kozo towers (docs/physics.md)."""

from __future__ import annotations

import random

from tests.helpers import Calls

from bench.kozo_certificates import random_towers
from kumiki.games.kozo.pieces import BALANCE_EDGE
from kumiki.games.kozo.rules import BASE_REGION
from kumiki.physics import statics
from kumiki.physics.certificates import load_path, mechanism
from kumiki.physics.forces import prepare
from kumiki.physics.model import Body, Tower, body_from_cells
from kumiki.physics.statics import EPSILON, _feasible, judge

TOWERS = 10_000


def kozo_towers(count: int, seed: int) -> list[tuple[Tower, Tower, int]]:
    """Towers as Kozo's play() judges them, with the tower before (which stands) and the index of the body added:
    after a random legal move's polycube (step 1), and after its balance cube too where the polycube stands."""
    rng = random.Random(seed)
    half = BALANCE_EDGE / 2
    out: list[tuple[Tower, Tower, int]] = []
    states = random_towers(count // 25 + 1, seed=seed)
    while len(out) < count:
        for state in states:
            before = Tower((*state.bodies, *state.balance_bodies), BASE_REGION, "falls")  # type: ignore[attr-defined]
            move = rng.choice(state.legal_moves())
            body = body_from_cells(f"{move.piece} #new", move.cells)
            bodies = state.bodies  # type: ignore[attr-defined]
            cubes = state.balance_bodies  # type: ignore[attr-defined]
            one = Tower((*bodies, body, *cubes), BASE_REGION, "falls")
            out.append((before, one, len(bodies)))
            x, y, z = move.balance
            box = (x + 0.5 - half, y + 0.5 - half, z, x + 0.5 + half, y + 0.5 + half, z + BALANCE_EDGE)
            cube = Body("cube #new", (box,))
            out.append((one, Tower((*bodies, body, *cubes, cube), BASE_REGION, "falls"), len(one.bodies)))
            if len(out) >= count:
                break
    return out


def test_the_judge_with_certificates_is_the_plain_lp_on_10000_towers() -> None:
    towers = kozo_towers(TOWERS, seed=11)
    solved = 0
    real = statics._feasible
    counted = Calls(real)
    for before, tower, added in towers:
        plain = judge(tower, margin=False, explain=False, shortcuts=False)
        statics._feasible = counted
        try:
            calls = counted.calls
            fast = (
                judge(tower, margin=False, explain=True, added=added)
                if judge(before, margin=False, explain=False).stands
                else judge(tower, margin=False, explain=True)
            )
            solved += counted.calls > calls
        finally:
            statics._feasible = real
        assert (fast.stands, fast.edge) == (plain.stands, plain.edge), [b.boxes for b in tower.bodies]
        if not fast.stands:
            assert fast.moving and fast.fault, "a fall names what moves and where"
    assert len(towers) >= 10_000
    assert solved <= 0.15 * len(towers), f"the certificates settle too few towers: {solved} needed the LP"


def test_each_certificate_is_a_proof_the_lp_confirms() -> None:
    shown = {"stands": 0, "falls": 0, "shrunk falls": 0}
    for _, tower, _ in kozo_towers(1_500, seed=12):
        setup = prepare(tower)
        if load_path(setup, -EPSILON):
            shown["stands"] += 1
            assert _feasible(setup, -EPSILON)
        if mechanism(setup, EPSILON) is not None:
            shown["falls"] += 1
            assert not _feasible(setup, EPSILON)
        if mechanism(setup, -EPSILON) is not None:
            shown["shrunk falls"] += 1
            assert not _feasible(setup, -EPSILON)
    assert min(shown.values()) >= 100, shown


def test_contacts_found_from_the_parent_are_those_found_afresh() -> None:
    for before, tower, added in kozo_towers(1_000, seed=13):
        parent = prepare(before)
        grown = prepare(tower, parent, added)
        fresh = prepare(tower)
        assert [(i.lower, i.upper, i.axis, i.plane, sorted(i.rects)) for i in grown.interfaces] == [
            (i.lower, i.upper, i.axis, i.plane, sorted(i.rects)) for i in fresh.interfaces
        ]


def test_a_mechanism_searched_around_the_added_body_is_the_full_search() -> None:
    # `added` only narrows the search when the tower before stands: the answer must not change while the tower keeps
    # its size (ε is relative to it).
    for before, tower, added in kozo_towers(1_000, seed=14):
        if not judge(before, margin=False, explain=False).stands or before.scale() != tower.scale():
            continue
        setup = prepare(tower)
        for grow in (EPSILON, -EPSILON):
            assert mechanism(setup, grow, added) == mechanism(setup, grow)


def test_a_tower_held_by_side_contacts_stands_at_any_size() -> None:
    # The side contacts' slack is a length like the axis (found by a review: at 1e11 it ignored every side contact).
    for f in (1.0, 1e-6, 1e6, 1e11):
        wall = Body("wall", ((0, 0, 0, f, f, 3 * f),), 100.0)
        hook = Body("hook", ((f, 0, 0, 2 * f, f, 3 * f), (-f, 0, 3 * f, 9 * f, f, 4 * f), (-f, 0, 2 * f, 0, f, 3 * f)))
        tower = Tower((wall, hook))
        fast = judge(tower, margin=False)
        plain = judge(tower, margin=False, shortcuts=False)
        assert (fast.stands, fast.edge) == (plain.stands, plain.edge), f


def test_a_larger_tower_finds_the_faces_a_hair_apart_afresh() -> None:
    # C is 5e-9 below B: apart at the size of A, C, B (tolerance 1e-9 of 3.5), touching once N makes it 30 high.
    a = Body("A", ((0, 0, 0, 1, 1, 1),))
    c = Body("C", ((1.5, 0, 0, 2.5, 1, 1 - 5e-9),))
    b = Body("B", ((-1, 0, 1, 2.5, 1, 2),))
    n = Body("N", ((2, 0, 2, 2.5, 1, 30),))
    parent = prepare(Tower((a, c, b)))
    judge(Tower((a, c, b)), margin=False, setup=parent)
    tower = Tower((a, c, b, n))
    grown = prepare(tower, parent, 3)
    fresh = prepare(tower)
    found = [(i.lower, i.upper, i.axis) for i in grown.interfaces]
    assert found == [(i.lower, i.upper, i.axis) for i in fresh.interfaces]
    fast = judge(tower, margin=False, setup=grown, added=3)
    assert fast.stands == judge(tower, margin=False, shortcuts=False).stands
