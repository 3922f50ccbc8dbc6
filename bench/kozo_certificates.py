"""How often the judge's certificates settle a Kozo tower without an LP, and what a verdict costs with and without
them (docs/physics.md, "Certificates").

2,000 towers as ``play()`` judges them (a random legal move's polycube on a random standing tower, then its balance
cube where the polycube stands): how many each way settles (a load path: stands; a mechanism: falls; both: a knife
edge), how many still need the LP, and the median time of a fresh verdict, certificates on and off.
Run: ``python -m bench.kozo_certificates``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

import kumiki
from kumiki.games.kozo.pieces import BALANCE_EDGE
from kumiki.games.kozo.rules import BASE_REGION
from kumiki.physics import statics
from kumiki.physics.model import Body, Tower, body_from_cells


def random_towers(count: int, seed: int = 0) -> list[kumiki.State]:
    """Standing towers of every height from random play (the judge refereeing), ``count`` of them (the tests use
    them too)."""
    game = kumiki.load_game("kozo", players=2, rounds=1)
    rng = random.Random(seed)
    out: list[kumiki.State] = []
    while len(out) < count:
        state = game.new_state(seed=rng.randrange(1000))
        while not state.over and len(out) < count:
            falls = len(state.falls)
            state.play(rng.choice(state.legal_moves()))
            if len(state.falls) > falls or state.over:
                break
            out.append(state.copy())
    return out


def judged_towers(count: int, seed: int = 0) -> list[Tower]:
    """Towers after a random move's polycube, and after its balance cube too, on random standing towers."""
    rng = random.Random(seed)
    half = BALANCE_EDGE / 2
    out: list[Tower] = []
    for state in random_towers(count // 2 + 1, seed):
        move = rng.choice(state.legal_moves())
        bodies = (*state.bodies, body_from_cells("new", move.cells))  # type: ignore[attr-defined]
        cubes = state.balance_bodies  # type: ignore[attr-defined]
        out.append(Tower((*bodies, *cubes), BASE_REGION, "falls"))
        x, y, z = move.balance
        box = (x + 0.5 - half, y + 0.5 - half, z, x + 0.5 + half, y + 0.5 + half, z + BALANCE_EDGE)
        out.append(Tower((*bodies, *cubes, Body("cube", (box,))), BASE_REGION, "falls"))
    return out[:count]


def main() -> None:
    towers = judged_towers(2_000, seed=5)
    ways: Counter[str] = Counter()
    real = statics._feasible
    calls = 0

    def counted(*args: object) -> bool:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    fast: list[float] = []
    plain: list[float] = []
    statics._feasible = counted
    try:
        for tower in towers:
            before = calls
            began = time.process_time()
            verdict = statics.judge(tower, margin=False)
            fast.append(time.process_time() - began)
            kind = "stands" if verdict.stands else "falls on a knife edge" if verdict.edge else "falls"
            ways[f"{kind}, {'the LP' if calls > before else 'a certificate'}"] += 1
            began = time.process_time()
            statics.judge(tower, margin=False, shortcuts=False)
            plain.append(time.process_time() - began)
    finally:
        statics._feasible = real
    print(f"kozo towers judged: {len(towers)}")
    for way, count in sorted(ways.items()):
        print(f"  {way:<38} {count:>6}  {count / len(towers):6.1%}")
    ms_fast, ms_plain = 1e3 * statistics.median(fast), 1e3 * statistics.median(plain)
    print(f"  a verdict, median CPU time: {ms_fast:.3f} ms with the certificates, {ms_plain:.3f} ms the plain LP's way")
    print("  (contacts found afresh both ways; play() finds only the new piece's, from the tower before)")


if __name__ == "__main__":
    main()
