"""How often friction would hold a Kozo tower that the frictionless verdict calls a fall (docs/rules/kozo.md,
decision u; docs/physics.md, "No friction in the verdict").

40 random games (seeds 0-39, the default 2 players and 3 rounds, moves drawn uniformly by ``random.Random(seed)``).
At every position, every distinct placement of a legal move whose polycube falls at step 1 is counted, and so is
every fall at step 1 of the moves played; a fall "would hold with friction" when its tower, with friction μ = 0.5
on the horizontal contacts (the tilt model of docs/physics.md), has a tilt margin above 0. About a minute of CPU.
Run: ``python -m bench.kozo_leaning``.
"""

from __future__ import annotations

import random

import kumiki
from kumiki.games.kozo.rules import BASE_REGION, KozoState
from kumiki.physics import statics
from kumiki.physics.forces import prepare
from kumiki.physics.margin import tilt_margin
from kumiki.physics.model import Tower, body_from_cells

GAMES = 40
MU = 0.5


def tower_with(state: KozoState, cells: tuple[tuple[int, int, int], ...]) -> Tower:
    """The tower the judge sees at step 1 of a move with these cells."""
    return Tower((*state.bodies, body_from_cells("new", cells), *state.balance_bodies), BASE_REGION, "falls")


def held(tower: Tower) -> bool:
    """Whether friction μ = MU on the horizontal contacts holds ``tower`` (its tilt margin is above 0)."""
    return tilt_margin(prepare(tower), mu=MU) > 0.0


def count(games: int = GAMES, every_placement: bool = True) -> dict[str, int]:
    """Falls at step 1 and those friction would hold: of every placement tried, and of the moves played."""
    out = {"positions": 0, "placements falling": 0, "placements held": 0, "played falling": 0, "played held": 0}
    for seed in range(games):
        state = kumiki.load_game("kozo").new_state(seed=seed)
        assert isinstance(state, KozoState)
        rng = random.Random(seed)
        while not state.over:
            out["positions"] += 1
            moves = state.legal_moves()
            if every_placement:
                for cells in dict.fromkeys(m.cells for m in moves):  # one verdict a placement: step 1 is the polycube
                    tower = tower_with(state, cells)
                    if not statics.judge(tower, margin=False, explain=False).stands:
                        out["placements falling"] += 1
                        out["placements held"] += held(tower)
            move = rng.choice(moves)
            tower = tower_with(state, move.cells)
            falls = len(state.falls)
            state.play(move)
            if len(state.falls) > falls and state.falls[-1].step == 1:
                out["played falling"] += 1
                out["played held"] += held(tower)
    return out


def main() -> None:
    figures = count()
    print(f"{GAMES} random Kozo games (seeds 0-{GAMES - 1}), {figures['positions']} positions:")
    print(
        f"  placements that fall at step 1: {figures['placements falling']:,}, "
        f"held by friction mu = {MU}: {figures['placements held']:,}"
    )
    print(
        f"  moves played that fell at step 1: {figures['played falling']:,}, "
        f"held by friction mu = {MU}: {figures['played held']:,}"
    )


if __name__ == "__main__":
    main()
