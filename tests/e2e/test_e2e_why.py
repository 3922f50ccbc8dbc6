""" "Why can't I place here?" in the browser: a Blokus 3D player points where the chosen piece cannot go and reads the
rule it breaks; any player asks about a move typed in the game's notation."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import until


def ann_against_the_computer(server: Any, pages: Any, game: str, hook: str) -> Any:
    """Seat 0 of a new 3D game against a random computer, its board drawn and ann to move."""
    created = server.create(game, [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, f"window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.{hook}")
    return page


def test_blokus3d_says_why_a_piece_cannot_go_where_you_point(server: Any, pages: Any) -> None:
    page = ann_against_the_computer(server, pages, "blokus3d", "blokus")
    page.get_by_test_id("piece-I3").click()
    page.mouse.move(*page.evaluate("window.__kumiki.blokus.project(0.5, 0.5, 0)"))  # outside structure A
    page.get_by_test_id("why-here").click()
    expect(page.get_by_test_id("why")).to_contain_text("Why not: I3 ")
    assert page.evaluate("window.__kumiki.ply") == 0  # asking plays nothing


def test_any_move_typed_in_is_explained(server: Any, pages: Any) -> None:
    created = server.create("kuzushi", [{"kind": "agent", "level": "random"}, {"kind": "human", "name": "bob"}])
    page = pages()
    page.goto(server.url + created["seats"][1]["invite"])
    until(page, "window.__kumiki.toMove === 1 && window.__kumiki.legal > 0")
    page.get_by_test_id("why-ask").click()  # nothing typed: the page says what to type, not nothing
    expect(page.get_by_test_id("why")).to_contain_text("Type a move first, as the move list writes them (e.g. B ")
    page.get_by_test_id("why-move").fill("B 3,3")
    page.get_by_test_id("why-ask").click()
    expect(page.get_by_test_id("why")).to_have_text("Why not: B 3,3: not next to any tile")
    legal = page.evaluate("window.__kumiki.legalMoves[0]")
    page.get_by_test_id("why-move").fill(legal)
    page.get_by_test_id("why-ask").click()
    expect(page.get_by_test_id("why")).to_have_text(f"{legal}: this move is legal now.")


# The room the "why" field's placeholder needs and the room the field gives it, in pixels.
PLACEHOLDER_ROOM = """() => {
  const input = document.querySelector('[data-testid=why-move]');
  const style = getComputedStyle(input);
  const probe = document.createElement('canvas').getContext('2d');
  probe.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  return [probe.measureText(input.placeholder).width,
          input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_why_fields_example_is_not_cut_off(server: Any, pages: Any, width: int) -> None:
    """The field's placeholder says what to type ("a move, e.g. as in the list"): it read "a move, e.g. as in the"
    on a phone and on a desktop, the field too narrow for it."""
    created = server.create("kuzushi", [{"kind": "agent", "level": "random"}, {"kind": "human", "name": "bob"}])
    page = pages(width, 844 if width < 500 else 800)
    page.goto(server.url + created["seats"][1]["invite"])
    until(page, "window.__kumiki.views > 0")
    expect(page.get_by_test_id("why-move")).to_be_visible()
    needed, room = page.evaluate(PLACEHOLDER_ROOM)
    assert needed <= room, f"the placeholder needs {needed:.0f} px, the field gives {room:.0f}"
    box = page.get_by_test_id("why-move").bounding_box()
    assert box is not None and box["x"] + box["width"] <= width  # and the field stays within the page


def test_kozo_says_why_a_piece_cannot_go_over_the_chimney(server: Any, pages: Any) -> None:
    page = ann_against_the_computer(server, pages, "kozo", "kozo")
    page.get_by_test_id("piece-I2").click()
    page.mouse.move(*page.evaluate("window.__kumiki.kozo.project(1.5, 1.5, 0)"))  # the chimney
    page.get_by_test_id("why-here").click()
    expect(page.get_by_test_id("why")).to_contain_text("chimney")
    assert page.evaluate("window.__kumiki.ply") == 0


def test_an_answer_that_names_seats_by_number_names_the_players_too(server: Any, pages: Any) -> None:
    """The server's answer names seats by number (its wording is kept): the page adds who sits there."""
    created = server.create("kuzushi", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.toMove === 1")  # player 1 moves first: not ann's turn
    page.get_by_test_id("why-move").fill("B 3,3")
    page.get_by_test_id("why-ask").click()
    expect(page.get_by_test_id("why")).to_have_text(
        "Why not: it is seat 1's turn, not yours (seat 0) — seat 1 is bob, seat 0 is you (ann)."
    )
