"""TowerBrix decks: how often is a dealt round satisfiable at all, and which cards contradict each other?

The rulebook calls contradictory deals extremely rare. This bench checks our decks against that:

* **deals** (default): for seeded rounds dealt exactly as the game deals them (green medium and pink hard, four
  players, base game: ``kumiki.load_game("towerbrix", players=4, mode="base", deck=..., difficulty=...)
  .new_state(seed=s)``), the solver gets every card of the deal face up and a few seconds; the share it solves is
  the figure (targets: green ≥ 95 % of 50 deals, pink ≥ 85 % of 20). With ``--cores`` each unsolved deal is shrunk
  to a smallest set of its cards the solver still cannot meet (drop a card, solve again, keep it dropped if the rest
  is still unmet), which names the clash.
* **pairs** (``--pairs``): the solver on every pair of cards of a deck with a short limit; a pair answered ``none``
  or ``unknown`` is retried with a longer one, and the pairs still unmet are listed. Such a pair is almost always a
  contradiction (at best a very hard one), so it should not be in one deck. A pair already met by a tower found for
  an earlier pair is not solved again. ``--write PATH`` (both decks, no pair unmet) keeps those towers: every pair of
  cards of a deck is met by one of them, which ``tests/test_towerbrix_cards_pairs.py`` re-checks.

Every tower the solver returns is checked again here (deck rule, connected, standing, every card). ``none`` speaks
about the solver's refutation space (docs/towerbrix-solver.md), so an unsolved deal is very likely, not provably,
contradictory. One process, one core; the answers depend a little on the machine's load (the solver's limits are
wall-clock time).

    .venv/bin/python -m bench.towerbrix_deals [--green 50] [--pink 20] [--seconds 5] [--pink-seconds 10] [--cores]
        [--green-file DRAFT.toml] [--pink-file DRAFT.toml]
    .venv/bin/python -m bench.towerbrix_deals --pairs [--deck green|pink] [--short 0.3] [--long 4]
    .venv/bin/python -m bench.towerbrix_deals --pairs --write tests/data/towerbrix_pairs.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Sequence
from pathlib import Path

import kumiki
from kumiki.games.towerbrix.bricks import Brick, connected, judge
from kumiki.games.towerbrix.cards import Card, load_deck
from kumiki.games.towerbrix.conditions import Tower
from kumiki.games.towerbrix.solver import Solution, build_order, meets_deck, solve

TARGETS = {"green": 0.95, "pink": 0.85}
DIFFICULTY = {"green": "medium", "pink": "hard"}


def deal(deck: str, seed: int, players: int = 4, path: str | None = None) -> list[Card]:
    """The cards of the first round of a seeded base game (the deck's difficulty, ``players`` players); ``path``:
    a draft deck file played with the ``deck``'s bricks instead of the built-in deck."""
    game = kumiki.load_game("towerbrix", players=players, mode="base", deck=path or deck, difficulty=DIFFICULTY[deck])
    state = game.new_state(seed=seed)
    return [game.cards[card] for hand in state.hands for card in hand]


def checked_solve(cards: Sequence[Card], deck: str, seconds: float, seed: int = 1) -> Solution:
    """The solver's answer; a tower it returns is verified independently of it."""
    answer = solve(list(cards), deck, seconds=seconds, seed=seed)
    if answer.status == "solved":
        bricks = answer.bricks
        assert meets_deck(bricks, deck) and connected(bricks) and judge(bricks).stands, [c.id for c in cards]
        assert all(card.holds(bricks) for card in cards), [c.id for c in cards]
    return answer


def core(cards: Sequence[Card], deck: str, seconds: float) -> list[Card]:
    """A set of the cards, minimal by deletion, that the solver still cannot meet in ``seconds``."""
    kept = list(cards)
    for card in list(cards):
        trial = [c for c in kept if c is not card]
        if trial and checked_solve(trial, deck, seconds).status != "solved":
            kept = trial
    return kept


def measure_deals(deck: str, count: int, seconds: float, cores: bool, path: str | None = None) -> float:
    """Solve ``count`` seeded deals face up; print each and the share solved."""
    solved = 0
    began = time.monotonic()
    for seed in range(count):
        cards = deal(deck, seed, path=path)
        answer = checked_solve(cards, deck, seconds)
        solved += answer.status == "solved"
        points = sum(c.points for c in cards)
        ids = ",".join(c.id for c in cards)
        print(
            f"  {deck} deal {seed:>3}: {answer.status:<8} {answer.seconds:5.2f} s  "
            f"{len(cards)} cards, {points} points  {ids}",
            flush=True,
        )
        if cores and answer.status != "solved":
            clash = core(cards, deck, seconds)
            for card in clash:
                print(f"      {card.id} ({card.points}) {card.text}  [{card.rule}]", flush=True)
    share = solved / count
    verdict = "ok" if share >= TARGETS[deck] else "BELOW TARGET"
    print(
        f"{deck} {DIFFICULTY[deck]}, 4 players: the solver met {solved}/{count} whole deals face up = {share:.0%} "
        f"({seconds:g} s each; target {TARGETS[deck]:.0%}: {verdict}); {time.monotonic() - began:.0f} s"
    )
    return share


def unmet_pairs(
    deck: str, short: float, long: float, path: str | None = None
) -> tuple[list[tuple[Card, Card, str]], list[list[Brick]]]:
    """Every pair of cards of ``deck`` that the solver cannot meet together (with its answer on the long retry),
    and a few towers that together meet every other pair.

    A pair already met by a tower found for an earlier pair is not solved again: that tower proves it."""
    cards = load_deck(path or deck)
    pairs = list(itertools.combinations(cards, 2))
    towers: list[list[Brick]] = []
    met: list[set[str]] = []  # the cards each tower meets
    unmet = []
    began = time.monotonic()
    solved = retried = 0
    for a, b in pairs:
        if any(a.id in ids and b.id in ids for ids in met):
            continue
        solved += 1
        answer = checked_solve((a, b), deck, short)
        if answer.status != "solved":
            retried += 1
            answer = checked_solve((a, b), deck, long, seed=2)
        if answer.status == "solved":
            towers.append(answer.bricks)
            shared = Tower(answer.bricks)
            met.append({card.id for card in cards if card.check(shared)})
        else:
            unmet.append((a, b, answer.status))
            print(f"  {a.id} + {b.id}: {answer.status}  {a.text} / {b.text}", flush=True)
    print(
        f"{deck}: {len(pairs)} pairs, {solved} solved ({retried} retried for {long:g} s), {len(unmet)} unmet; "
        f"{len(towers)} towers meet all the others; {time.monotonic() - began:.0f} s",
        flush=True,
    )
    return unmet, towers


def write_pairs(path: str, towers: dict[str, list[list[Brick]]]) -> None:
    """The pair witnesses (tests/data/towerbrix_pairs.json): for each deck, towers among which every pair of its
    cards is met by one, and the rules they were found for (the test re-checks both and says when to rewrite)."""
    data = {
        "rules": {f"{deck}/{card.id}": card.rule for deck in towers for card in load_deck(deck)},
        "towers": {deck: [[b.to_json() for b in build_order(t)] for t in found] for deck, found in towers.items()},
    }
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=0, sort_keys=True)
        out.write("\n")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.towerbrix_deals", description=__doc__.splitlines()[0])
    parser.add_argument("--green", type=int, default=50, help="green medium deals (default 50)")
    parser.add_argument("--pink", type=int, default=20, help="pink hard deals (default 20)")
    parser.add_argument("--seconds", type=float, default=5.0, help="solver time per green deal (default 5)")
    parser.add_argument("--pink-seconds", type=float, default=10.0, help="solver time per pink deal (default 10)")
    parser.add_argument("--cores", action="store_true", help="shrink each unsolved deal to the cards that clash")
    parser.add_argument("--pairs", action="store_true", help="list the pairs of cards that cannot be met together")
    parser.add_argument("--deck", choices=("green", "pink", "both"), default="both", help="with --pairs")
    parser.add_argument("--short", type=float, default=0.3, help="with --pairs: first solver limit (default 0.3 s)")
    parser.add_argument("--long", type=float, default=4.0, help="with --pairs: the retry's limit (default 4 s)")
    parser.add_argument("--write", metavar="PATH", help="with --pairs (both decks): write the pair witnesses to PATH")
    parser.add_argument("--green-file", help="a draft deck file to measure instead of the green deck")
    parser.add_argument("--pink-file", help="a draft deck file to measure instead of the pink deck")
    args = parser.parse_args()
    files = {"green": args.green_file, "pink": args.pink_file}
    if args.write and (not args.pairs or args.deck != "both" or args.green_file or args.pink_file):
        parser.error("--write goes with --pairs on both built-in decks (no --deck, no draft files)")
    for name in (args.green_file, args.pink_file):
        if name and not Path(name).is_file():
            parser.error(f"no such deck file: {name}")
    if args.pairs:
        found = {}
        for deck in ("green", "pink") if args.deck == "both" else (args.deck,):
            unmet, found[deck] = unmet_pairs(deck, args.short, args.long, files[deck])
            if unmet and args.write:
                raise SystemExit(f"{deck}: {len(unmet)} pairs unmet; no witness file written")
        if args.write:
            write_pairs(args.write, found)
        return
    if args.green:
        measure_deals("green", args.green, args.seconds, args.cores, files["green"])
    if args.pink:
        measure_deals("pink", args.pink, args.pink_seconds, args.cores, files["pink"])


if __name__ == "__main__":
    main()
