"""TowerBrix condition cards: loading a deck from its TOML file and validating every card.

A deck file has a top-level ``deck`` name, optionally ``bricks`` ("green": the eight coloured bricks, gray never;
"pink": all nine, at least one of each colour in use; default: the deck's own name, which must then be one of them),
and a ``[[cards]]`` table per card with ``id``, ``points`` (2 or 3), ``text`` (English) and ``rule`` (see
:mod:`kumiki.games.towerbrix.conditions`); a card may repeat ``deck``, which must then match.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from kumiki.core import tomltext
from kumiki.core.options import shown
from kumiki.games.towerbrix.conditions import ConditionError, Rule, Tower, parse_rule

DECKS = ("green", "pink")
BRICK_SETS = ("green", "pink")
POINTS = (2, 3)
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_CARD_KEYS = {"id", "deck", "points", "text", "rule"}
_FILE_KEYS = {"deck", "bricks", "cards", "title", "description"}


class CardError(ValueError):
    """A malformed deck or card; the message names the file, the card id and what is wrong."""


@dataclass(frozen=True)
class Card:
    """One condition card. ``rule`` is the text in the condition language; ``compiled`` its fast form."""

    id: str
    deck: str
    points: int
    text: str
    rule: str
    compiled: Rule = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.compiled is None:
            object.__setattr__(self, "compiled", parse_rule(self.rule))

    def holds(self, bricks: Iterable[Any]) -> bool:
        """Whether the card is met by the bricks in use (pass only the bricks in the tower)."""
        return self.compiled.holds(bricks)

    def check(self, tower: Tower) -> bool:
        """Whether the card is met by a precomputed :class:`Tower` (share one Tower across many cards)."""
        return self.compiled.evaluate(tower)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "deck": self.deck, "points": self.points, "text": self.text, "rule": self.rule}


def deck_path(name: str) -> Path:
    """The packaged file of a built-in deck."""
    return Path(str(resources.files("kumiki.games.towerbrix").joinpath("cards", f"{name}.toml")))


def is_deck_file(path: Path) -> bool:
    """Whether ``path`` names a readable file; False (not an OSError) for a name too long or with a NUL in it."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _read(name_or_path: str | Path) -> tuple[dict[str, Any], str]:
    text = str(name_or_path)
    path = deck_path(text) if text in DECKS else Path(text)
    source = path.name if text in DECKS else text
    if not is_deck_file(path):
        named = source if source.isprintable() and len(source) <= 80 else shown(source)
        raise CardError(f"{named}: no such deck file (built-in decks: {', '.join(DECKS)})")
    try:
        return tomltext.loads(path.read_text(encoding="utf-8")), source
    except (OSError, UnicodeDecodeError) as error:
        raise CardError(f"{source}: cannot read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise CardError(f"{source}: not valid TOML ({error})") from None


def load_deck(name_or_path: str | Path) -> list[Card]:
    """A built-in deck ("green", "pink") or a deck file; raises :class:`CardError` on anything malformed."""
    data, source = _read(name_or_path)
    return parse_deck(data, source)


def deck_bricks(name_or_path: str | Path) -> str:
    """Which bricks a deck is played with: "green" (the eight coloured bricks, all used) or "pink" (all nine, at
    least one of each colour used). The deck is validated in full."""
    return read_deck(name_or_path)[1]


def read_deck(name_or_path: str | Path) -> tuple[list[Card], str]:
    """A deck's cards and which bricks it is played with (see :func:`deck_bricks`), from one read of the file."""
    data, source = _read(name_or_path)
    return parse_deck(data, source), str(data.get("bricks", data["deck"]))


def parse_deck(data: dict[str, Any], source: str = "<deck>") -> list[Card]:
    """The cards of a parsed deck table; ``source`` names the file in errors."""
    extra = set(data) - _FILE_KEYS
    if extra:
        raise CardError(f"{source}: unknown key {sorted(extra)[0]!r} (allowed: {', '.join(sorted(_FILE_KEYS))})")
    deck = data.get("deck")
    if not isinstance(deck, str) or not _ID.fullmatch(deck):
        raise CardError(f"{source}: 'deck' must be a name of letters, digits, '_' or '-', got {deck!r}")
    bricks = data.get("bricks", deck if deck in BRICK_SETS else None)
    if bricks not in BRICK_SETS:
        raise CardError(f"{source}: 'bricks' must be 'green' or 'pink' (which bricks the deck is played with)")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise CardError(f"{source}: no cards (write one [[cards]] table per card)")
    cards: list[Card] = []
    seen: set[str] = set()
    for number, raw in enumerate(raw_cards, 1):
        card = _parse_card(raw, number, deck, bricks, source)
        if card.id in seen:
            raise CardError(f"{source}: card {card.id}: duplicate id")
        seen.add(card.id)
        cards.append(card)
    return cards


def _parse_card(raw: Any, number: int, deck: str, bricks: str, source: str) -> Card:
    if not isinstance(raw, dict):
        raise CardError(f"{source}: card #{number}: must be a table")
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not _ID.fullmatch(card_id):
        raise CardError(
            f"{source}: card #{number}: 'id' must be a name of letters, digits, '_' or '-', got {card_id!r}"
        )
    where = f"{source}: card {card_id}"
    extra = set(raw) - _CARD_KEYS
    if extra:
        raise CardError(f"{where}: unknown key {sorted(extra)[0]!r} (allowed: {', '.join(sorted(_CARD_KEYS))})")
    missing = [key for key in ("points", "text", "rule") if key not in raw]
    if missing:
        raise CardError(f"{where}: missing {missing[0]!r}")
    if raw.get("deck", deck) != deck:
        raise CardError(f"{where}: deck {raw['deck']!r} differs from the file's deck {deck!r}")
    points = raw["points"]
    if type(points) is not int or points not in POINTS:  # not true (== 1), not 2.0 (== 2, but written 2.0)
        raise CardError(f"{where}: points must be 2 or 3, got {points!r}")
    text = raw["text"]
    if not isinstance(text, str) or not text.strip():
        raise CardError(f"{where}: 'text' must be a non-empty string")
    rule_text = raw["rule"]
    if not isinstance(rule_text, str):
        raise CardError(f"{where}: 'rule' must be a string")
    try:
        rule = parse_rule(rule_text)
    except ConditionError as error:
        raise CardError(f"{where}: {error}") from None
    if bricks == "green" and "gray" in rule.colours:
        raise CardError(f"{where}: rule names gray, but the gray brick is never used with the {deck} deck")
    return Card(card_id, deck, points, text.strip(), rule_text, rule)
