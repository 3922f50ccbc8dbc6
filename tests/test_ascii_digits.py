"""Typed and recorded numbers are ASCII digits: ``\\d``, ``str.isdigit`` and ``int()`` also read other scripts' digits
("١" is 1, "٢" is 2) or raise on some ("²"), so text with them was read as a number or ended in a traceback."""

from __future__ import annotations

import pytest
from rich.text import Text

import kumiki
from kumiki.agents import agent_from_spec
from kumiki.arena.backends import _unreachable
from kumiki.core.options import ascii_digits, parse_value
from kumiki.games.towerbrix.conditions import ConditionError, parse_rule
from kumiki.terminal import blokus3d, kozo
from kumiki.terminal.play import build_seats


def test_only_ascii_digits_are_digits() -> None:
    assert ascii_digits("0123456789")
    assert not any(ascii_digits(text) for text in ("", "١", "²", "６", "1١", " 1", "-1"))


def test_a_typed_option_value_in_other_digits_stays_text() -> None:
    """``--option size=٦`` and ``mcts:iterations=١٠`` were read as 6 and 10."""
    assert parse_value("٦") == "٦" and parse_value("١.٥") == "١.٥" and parse_value("６") == "６"
    assert (parse_value("6"), parse_value("1.5"), parse_value("-2")) == (6, 1.5, -2)
    with pytest.raises(ValueError, match="option 'iterations' must be int"):
        agent_from_spec("mcts:iterations=١٠")


def test_a_seat_spec_in_other_digits_is_refused() -> None:
    """``--seat ١=random`` set seat 1."""
    with pytest.raises(ValueError, match="the seat must be a number from 0 to 1"):
        build_seats(2, ["١=random"])
    assert build_seats(2, ["1=random"])[1].agent is not None


@pytest.mark.parametrize(("module", "game"), [(blokus3d, "blokus3d"), (kozo, "kozo")])
def test_a_hint_count_in_other_digits_is_refused_in_one_line(module: object, game: str) -> None:
    """``hint ²`` passed isdigit() and int("²") raised; ``hint ٢`` asked for 2 hints."""
    state = kumiki.load_game(game).new_state(seed=1)
    for text in ("hint ²", "hint ٢"):
        answer = module.command(state, text)  # type: ignore[attr-defined]
        assert isinstance(answer, Text) and answer.plain.startswith("Write hint or hint N")


def test_a_brick_size_and_a_card_rule_in_other_digits_are_refused() -> None:
    with pytest.raises(ValueError, match="LONGxWIDExTHICK"):
        kumiki.load_game("towerbrix", brick="٢x1x1")
    with pytest.raises(ConditionError, match="unexpected character '٢'"):
        parse_rule("height >= ٢")


def test_a_ray_port_in_other_digits_is_left_to_ray() -> None:
    """``host:²`` raised int()'s ValueError instead of being judged as an address without a port."""
    assert _unreachable("127.0.0.1:²") is None
