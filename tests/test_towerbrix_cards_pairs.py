"""No two cards of a deck contradict each other: every pair of cards of both decks is met by one valid tower among
the pair witnesses (tests/data/towerbrix_pairs.json, written by ``python -m bench.towerbrix_deals --pairs --write``),
each re-checked here by the judge and the cards themselves."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from kumiki.games.towerbrix.bricks import Brick, connected, judge
from kumiki.games.towerbrix.cards import load_deck
from kumiki.games.towerbrix.solver import meets_deck

PAIRS = json.loads((Path(__file__).parent / "data" / "towerbrix_pairs.json").read_text(encoding="utf-8"))
REWRITE = "python -m bench.towerbrix_deals --pairs --write tests/data/towerbrix_pairs.json"


@pytest.mark.parametrize("deck", ["green", "pink"])
def test_every_pair_of_cards_is_met_by_one_tower(deck: str) -> None:
    cards = load_deck(deck)
    changed = [c.id for c in cards if PAIRS["rules"].get(f"{deck}/{c.id}") != c.rule]
    assert not changed, f"cards {changed} changed since the pair witnesses were written: run {REWRITE}"
    met: list[set[str]] = []
    for tower in PAIRS["towers"][deck]:
        bricks = [Brick.from_json(b) for b in tower]
        assert meets_deck(bricks, deck) and connected(bricks) and judge(bricks).stands
        met.append({card.id for card in cards if card.holds(bricks)})
    unmet = [(a.id, b.id) for a, b in itertools.combinations(cards, 2) if not any({a.id, b.id} <= ids for ids in met)]
    assert not unmet, f"no witness tower for {unmet[:5]}"


def test_the_old_negation_pairs_are_gone() -> None:
    """The clashes that made deals contradictory (issue: "decks deal contradictory hands") stay out of the decks."""
    green = {card.rule for card in load_deck("green")}
    assert not {"every vertical brick touches table", "at least 1 vertical brick not touches table"} <= green
    assert "vertical bricks = 0" not in green and "height <= 4" not in green
    pink = {card.rule for card in load_deck("pink")}
    assert not {"every gray touches table", "no gray touches table"} <= pink
    assert "vertical bricks = 0" not in pink and not {"bricks >= 8", "bricks <= 6"} <= pink
