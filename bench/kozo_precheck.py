"""What Kozo's exact pre-check costs and saves, beside the judge with and without its cache.

600 placements (20 on each of 30 random standing towers): the pre-check's time per placement and how many it
decides; ``standing_after`` (both steps judged) with an empty cache and again with the cache filled; and the judge
alone on the placements the pre-check decides. Run: ``python -m bench.kozo_precheck``.
"""

from __future__ import annotations

import random
import time

import kumiki
from kumiki.games.kozo.ai import move_falls, standing_after


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


def _seconds(pairs: list, clear: bool) -> float:
    """The time of ``standing_after`` on every (state, move) pair, the verdict cache emptied first if ``clear``."""
    if clear:
        for state, _ in pairs:
            state.game.verdicts.clear()
    began = time.perf_counter()
    for state, move in pairs:
        standing_after(state, move)
    return time.perf_counter() - began


def main() -> None:
    states = random_towers(30, seed=5)
    rng = random.Random(1)
    pairs = [(s, m) for s in states for m in rng.sample(s.legal_moves(), min(20, len(s.legal_moves())))]
    n = len(pairs)
    a = time.perf_counter()
    decided = [(s, m) for s, m in pairs if move_falls(s, m)]
    precheck = time.perf_counter() - a
    empty = _seconds(pairs, clear=True)
    cached = _seconds(pairs, clear=False)
    decided_empty = _seconds(decided, clear=True)
    print(f"kozo pre-check: {precheck / n * 1e3:.3f} ms a placement, decides {len(decided)}/{n}")
    print(f"  standing_after, empty cache {empty / n * 1e3:.3f} ms; cached {cached / n * 1e3:.3f} ms")
    print(f"  standing_after on the decided ones, empty cache {decided_empty / max(1, len(decided)) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
