"""How hard is each TowerBrix card? The fraction of random valid standing towers that meet it.

A 3-point card must be harder than a 2-point card; this script measures it on seeded random towers (connected,
standing by the physics judge, deck rules: green = the eight coloured bricks; pink = at least one of each colour).

    .venv/bin/python -m bench.towerbrix_cards [--deck green|pink] [--towers 2000] [--seed 1] [--cards]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from kumiki.games.towerbrix.bricks import BRICK_IDS, Brick, connected, judge, place, touching
from kumiki.games.towerbrix.cards import Card, load_deck
from kumiki.games.towerbrix.conditions import Tower

GREEN_IDS = tuple(i for i in BRICK_IDS if i != "G")


def deck_brick_ids(rng: random.Random, deck: str) -> list[str]:
    """The bricks a random tower of the deck uses: green all eight coloured ones; pink one of each colour plus a
    random subset of the other four."""
    if deck == "green":
        return list(GREEN_IDS)
    ids = ["G"] + [rng.choice((c + "1", c + "2")) for c in "YPRB"]
    ids += [i for i in BRICK_IDS if i not in ids and rng.random() < 0.6]
    return ids


def random_tower(rng: random.Random, ids: Sequence[str], tries: int = 40) -> list[Brick] | None:
    """Drop the bricks one by one, in random order, each at a random spot touching what stands already and keeping
    the partial tower standing; None when some brick found no such spot."""
    order = list(ids)
    rng.shuffle(order)
    bricks: dict[str, Brick] = {}
    for brick_id in order:
        for _ in range(tries):
            axis = rng.choice(("x", "y", "z"))
            if bricks:
                anchor = rng.choice(list(bricks.values())).box
                reach = 2 if rng.random() < 0.5 else 1  # half the time beside the anchor, half the time on top of it
                x = rng.randrange(int((anchor[0] - reach) * 2), int((anchor[3] + reach - 2) * 2) + 1) / 2
                y = rng.randrange(int((anchor[1] - reach) * 2), int((anchor[4] + reach - 2) * 2) + 1) / 2
            else:
                x = y = 0.0
            brick = place(bricks, brick_id, axis, x, y)
            if bricks and not any(touching(brick, other) for other in bricks.values()):
                continue
            trial = [*bricks.values(), brick]
            if judge(trial).stands:
                bricks[brick_id] = brick
                break
        else:
            return None
    out = list(bricks.values())
    return out if connected(out) else None


def random_towers(deck: str, count: int, seed: int) -> list[list[Brick]]:
    rng = random.Random(seed)
    towers: list[list[Brick]] = []
    while len(towers) < count:
        tower = random_tower(rng, deck_brick_ids(rng, deck))
        if tower is not None:
            towers.append(tower)
    return towers


def fractions(cards: Sequence[Card], towers: Sequence[Sequence[Brick]]) -> dict[str, float]:
    """Per card, the fraction of the towers that meet it (one shared :class:`Tower` per tower)."""
    hits = dict.fromkeys((c.id for c in cards), 0)
    for bricks in towers:
        shared = Tower(bricks)
        for card in cards:
            if card.check(shared):
                hits[card.id] += 1
    return {key: value / len(towers) for key, value in hits.items()}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.towerbrix_cards", description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="green")
    parser.add_argument("--towers", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cards", action="store_true", help="print every card's figure")
    args = parser.parse_args()
    cards = load_deck(args.deck)
    start = time.perf_counter()
    towers = random_towers(args.deck, args.towers, args.seed)
    built = time.perf_counter() - start
    start = time.perf_counter()
    share = fractions(cards, towers)
    checked = time.perf_counter() - start
    print(
        f"{args.deck}: {len(towers)} random valid towers (seed {args.seed}) in {built:.1f} s; "
        f"{len(cards) * len(towers)} card checks in {checked:.2f} s "
        f"({len(cards) * len(towers) / checked:,.0f} checks/s)"
    )
    for points in (2, 3):
        values = [share[c.id] for c in cards if c.points == points]
        print(
            f"  {points}-point cards: {len(values)}, met by mean {statistics.mean(values):.3f}, "
            f"median {statistics.median(values):.3f}, min {min(values):.3f}, max {max(values):.3f}"
        )
    two = [share[c.id] for c in cards if c.points == 2]
    three = [share[c.id] for c in cards if c.points == 3]
    print(f"  easiest 3-point card {max(three):.3f} vs hardest 2-point card {min(two):.3f}")
    if args.cards:
        for card in sorted(cards, key=lambda c: -share[c.id]):
            print(f"  {card.id:>4} {card.points}  {share[card.id]:.3f}  {card.rule}")


if __name__ == "__main__":
    main()
