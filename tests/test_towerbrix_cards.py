"""The condition cards: the two built-in decks as data, loading user decks, and one-line errors for bad cards."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kumiki.games.towerbrix.bricks import Brick, place
from kumiki.games.towerbrix.cards import Card, CardError, deck_bricks, load_deck
from kumiki.games.towerbrix.conditions import Tower


@pytest.mark.parametrize(("deck", "twos", "threes", "letter"), [("green", 28, 22, "G"), ("pink", 32, 23, "P")])
def test_the_built_in_decks_are_complete(deck: str, twos: int, threes: int, letter: str) -> None:
    cards = load_deck(deck)
    assert Counter(card.points for card in cards) == {2: twos, 3: threes}
    assert [card.id for card in cards] == [f"{letter}{k:02d}" for k in range(1, twos + threes + 1)]
    assert {card.deck for card in cards} == {deck}
    assert len({card.rule for card in cards}) == len(cards), "two cards with the same rule"
    assert len({card.text for card in cards}) == len(cards), "two cards with the same text"
    for card in cards:
        assert card.text[0].isupper() and card.text.endswith((".", ")")), card.id
    assert deck_bricks(deck) == deck


def test_green_cards_never_name_gray_and_pink_cards_do() -> None:
    assert not any("gray" in card.compiled.colours for card in load_deck("green"))
    assert sum("gray" in card.compiled.colours for card in load_deck("pink")) >= 15


def test_p44_the_single_red_brick_may_share_the_highest_top() -> None:
    """P44 speaks of the red brick ("... and it is the highest"): level with another brick at the top it is still one
    of the highest bricks (the rulebook: bricks of the same height "both count as the 'highest bricks'")."""
    from kumiki.games.towerbrix.moves import lowered

    p44 = next(card for card in load_deck("pink") if card.id == "P44")

    def holds(edits: list[str]) -> bool:
        return p44.holds(list(lowered(edits).values()))

    assert holds(["B1 x 0,0", "R1 x 0,0", "Y1 x 2,0", "G x 2,0", "P1 x 4,0"])  # red level with gray at the top
    assert holds(["B1 x 0,0", "R1 x 0,0", "P1 x 4,0"])  # red alone at the top
    assert not holds(["B1 x 0,0", "Y1 x 0,0", "R1 x 2,0", "P1 x 4,0"])  # red below the top
    assert not holds(["B1 x 0,0", "R1 x 0,0", "R2 x 2,0", "P1 x 4,0"])  # two red bricks


def test_card_json_and_holds() -> None:
    card = load_deck("green")[0]
    assert card.to_json() == {"id": "G01", "deck": "green", "points": 2, "text": card.text, "rule": card.rule}
    bricks: dict[str, Brick] = {}
    for brick_id, axis in (("P1", "x"), ("Y1", "x")):  # the yellow brick is lowered onto the purple one
        bricks[brick_id] = place(bricks, brick_id, axis, 0, 0)
    assert card.rule == "at least 1 yellow rests on purple"
    assert card.holds(bricks.values()) is card.check(Tower(bricks.values())) is True
    bricks["Y1"] = place({"P1": bricks["P1"]}, "Y1", "x", 0, 1)  # beside the purple brick, on the table
    assert card.holds(bricks.values()) is False


def test_a_card_is_built_from_its_rule_text() -> None:
    card = Card("X1", "mine", 3, "Some brick stands upright.", "at least 1 brick is vertical")
    assert card.compiled.text == "at least 1 brick is vertical"
    assert card == Card("X1", "mine", 3, "Some brick stands upright.", "at least 1 brick is vertical")


GOOD_CARD = (
    '[[cards]]\nid = "A1"\npoints = 2\ntext = "Both red bricks touch the table."\nrule = "every red touches table"\n'
)


def write(tmp_path: Path, body: str, header: str = 'deck = "mine"\nbricks = "green"\n') -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(header + body, encoding="utf-8")
    return path


def test_a_user_deck_loads_from_a_path(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD_CARD + GOOD_CARD.replace("A1", "A2").replace("every red", "no blue"))
    cards = load_deck(path)
    assert [(c.id, c.deck, c.points) for c in cards] == [("A1", "mine", 2), ("A2", "mine", 2)]
    assert deck_bricks(path) == "green"
    assert load_deck(str(path)) == cards


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (GOOD_CARD + GOOD_CARD, "card A1: duplicate id"),
        (GOOD_CARD.replace("points = 2", "points = 4"), "card A1: points must be 2 or 3, got 4"),
        (GOOD_CARD.replace("points = 2", 'points = "2"'), "card A1: points must be 2 or 3, got '2'"),
        (GOOD_CARD.replace("points = 2", "points = true"), "card A1: points must be 2 or 3"),
        (GOOD_CARD.replace("points = 2", "points = 2.0"), "card A1: points must be 2 or 3, got 2.0"),
        (GOOD_CARD.replace("every red", "not " * 5000 + "every red"), "card A1: rule 'not not"),
        (GOOD_CARD.replace("points = 2\n", ""), "card A1: missing 'points'"),
        (GOOD_CARD.replace("every red", "every reed"), "card A1: rule 'every reed touches table': at column 7"),
        (GOOD_CARD.replace("touches table", "touches"), "card A1: rule 'every red touches': at end of rule"),
        (GOOD_CARD.replace("every red", "every gray"), "card A1: rule names gray, but the gray brick is never used"),
        (GOOD_CARD.replace('text = "Both red bricks touch the table."', 'text = " "'), "card A1: 'text' must be"),
        (GOOD_CARD.replace('rule = "every red touches table"', "rule = 3"), "card A1: 'rule' must be a string"),
        (GOOD_CARD + 'colour = "red"\n', "card A1: unknown key 'colour'"),
        (GOOD_CARD + 'deck = "other"\n', "card A1: deck 'other' differs from the file's deck 'mine'"),
        (GOOD_CARD.replace('id = "A1"', 'id = "1 A"'), "card #1: 'id' must be a name"),
        (GOOD_CARD.replace('id = "A1"\n', ""), "card #1: 'id' must be a name"),
        ("", "no cards"),
        ("cards = [1]\n", "card #1: must be a table"),
        (GOOD_CARD + "points = 3\n", "not valid TOML"),
        # tomllib raises int()'s ValueError ("use sys.set_int_max_str_digits()") and a RecursionError for these
        (GOOD_CARD.replace("points = 2", "points = 1" + "0" * 5000), "not valid TOML (a number of over 4300 digits)"),
        (GOOD_CARD + "x = " + "[" * 3000 + "]" * 3000 + "\n", "not valid TOML (arrays or tables nested too deeply)"),
    ],
)
def test_a_malformed_card_names_the_file_the_card_and_the_fault(tmp_path: Path, body: str, message: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(CardError) as error:
        load_deck(path)
    text = str(error.value)
    assert text.startswith(f"{path}: ")
    assert message in text
    assert "\n" not in text


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('deck = "mine"\n', "'bricks' must be 'green' or 'pink'"),
        ('deck = "mine"\nbricks = "blue"\n', "'bricks' must be 'green' or 'pink'"),
        ("deck = 3\n", "'deck' must be a name"),
        ('deck = "mine"\nbricks = "green"\nsize = 3\n', "unknown key 'size'"),
    ],
)
def test_a_malformed_deck_header_is_rejected(tmp_path: Path, header: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        load_deck(write(tmp_path, GOOD_CARD, header))


def test_a_pink_user_deck_may_name_gray(tmp_path: Path) -> None:
    cards = load_deck(write(tmp_path, GOOD_CARD.replace("every red", "every gray"), 'deck = "pink"\n'))
    assert cards[0].rule == "every gray touches table"


def test_a_missing_deck_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(CardError, match=r"no such deck file \(built-in decks: green, pink\)"):
        load_deck(tmp_path / "nope.toml")
    with pytest.raises(CardError, match="no such deck file"):
        load_deck("purple")
