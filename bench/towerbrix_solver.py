"""TowerBrix solver: seeded card sets, solved or refuted within the time limit.

* green medium: totals 13-19 drawn from the green deck; target ≥ 95 % solved or refuted within 10 s each, median ≤ 1 s;
* pink hard: totals 20-22 drawn from the pink deck; target ≥ 80 % within 30 s each.

A set is drawn like the base game draws a round: cards from the shuffled 2- and 3-point stacks until the total is met
(a set that cannot meet the total exactly is redrawn). One process, one core.

Run: ``python -m bench.towerbrix_solver [--quick] [--green N] [--pink N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from kumiki.games.towerbrix.bricks import connected, judge
from kumiki.games.towerbrix.cards import Card, load_deck
from kumiki.games.towerbrix.solver import meets_deck, solve


def draw(deck: Sequence[Card], total: int, rng: random.Random) -> list[Card]:
    """Cards whose points add up to ``total``, drawn at random from ``deck``."""
    while True:
        pool = list(deck)
        rng.shuffle(pool)
        chosen: list[Card] = []
        points = 0
        for card in pool:
            if points + card.points <= total and total - points - card.points != 1:
                chosen.append(card)
                points += card.points
            if points == total:
                return chosen


def measure(deck_name: str, totals: tuple[int, int], sets: int, seconds: float, seed: int) -> list[tuple[str, float]]:
    deck = load_deck(deck_name)
    rng = random.Random(seed)
    results = []
    for k in range(sets):
        cards = draw(deck, rng.randint(*totals), rng)
        answer = solve(cards, deck_name, seconds=seconds, seed=k)
        if answer.status == "solved":  # checked independently of the solver
            bricks = answer.bricks
            assert meets_deck(bricks, deck_name) and connected(bricks) and judge(bricks).stands
            assert all(card.holds(bricks) for card in cards), [c.id for c in cards]
        results.append((answer.status, answer.seconds))
        ids = ",".join(c.id for c in cards)
        print(
            f"  {deck_name} {k:>3} {answer.status:<8} {answer.seconds:6.2f} s  bonus {answer.bonus}  {ids}", flush=True
        )
    return results


def report(title: str, results: list[tuple[str, float]], seconds: float, target: float) -> None:
    done = [t for status, t in results if status in ("solved", "none") and t <= seconds]
    share = len(done) / len(results)
    counts = {s: sum(1 for r, _ in results if r == s) for s in ("solved", "none", "unknown")}
    median = statistics.median(t for _, t in results)
    verdict = "ok" if share >= target else "BELOW TARGET"
    print(
        f"{title}: {share:.0%} solved or refuted within {seconds:g} s (target {target:.0%}: {verdict}); "
        f"solved {counts['solved']}, none {counts['none']}, unknown {counts['unknown']}; median {median:.2f} s"
    )


def witnesses(path: str, seconds: float = 20.0) -> None:
    """Write, for every card of both decks, a tower meeting it alone (tests/data/towerbrix_witnesses.json); the test
    that every card is satisfiable re-verifies these with the judge and Card.holds, and solves live any it lacks."""
    import json

    data: dict[str, list[dict[str, object]]] = {}
    for deck_name in ("green", "pink"):
        for card in load_deck(deck_name):
            answer = solve([card], deck_name, seconds=seconds, seed=1)
            print(f"  {deck_name} {card.id} {answer.status} {answer.seconds:.2f} s", flush=True)
            if answer.status == "solved":
                data[f"{deck_name}/{card.id}"] = [b.to_json() for b in answer.bricks]
    with open(path, "w", encoding="utf-8") as out:
        json.dump({"rules": _rules(), "towers": data}, out, indent=0, sort_keys=True)
        out.write("\n")


def _rules() -> dict[str, str]:
    return {f"{d}/{c.id}": c.rule for d in ("green", "pink") for c in load_deck(d)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.towerbrix_solver", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run: 10 green sets and 4 pink sets")
    parser.add_argument("--green", type=int, default=40, help="green medium sets (default 40)")
    parser.add_argument("--pink", type=int, default=15, help="pink hard sets (default 15)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--witnesses", metavar="PATH", help="write a witness tower for every card to PATH and stop")
    args = parser.parse_args()
    if args.witnesses:
        witnesses(args.witnesses)
        return
    green, pink = (10, 4) if args.quick else (args.green, args.pink)
    began = time.monotonic()
    results = {}
    if green:
        results["green"] = measure("green", (13, 19), green, 10.0, args.seed)
    if pink:
        results["pink"] = measure("pink", (20, 22), pink, 30.0, args.seed)
    if "green" in results:
        report("green medium", results["green"], 10.0, 0.95)
    if "pink" in results:
        report("pink hard", results["pink"], 30.0, 0.80)
    print(f"wall clock {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
