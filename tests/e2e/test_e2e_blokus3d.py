"""Blokus 3D in the browser: the scene draws, a piece placed with the mouse, another with the keys."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import Page, expect
from tests.helpers import assert_controls_go_at_the_end, until


def ghost(page: Page) -> str | None:
    return page.evaluate("window.__kumiki.blokus.ghost")


def test_place_pieces_with_the_mouse_and_with_the_keys(server: Any, pages: Any, assert_scene_drawn: Any) -> None:
    created = server.create("blokus3d", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "easy"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0")
    assert_scene_drawn(page)
    expect(page.get_by_test_id("status")).to_have_text("Your turn.")

    # the mouse: pick I3 from the tray, point at the middle of the structure, click
    page.get_by_test_id("piece-I3").click()
    assert page.evaluate("window.__kumiki.blokus.selected") == "I3"
    x, y = page.evaluate("window.__kumiki.blokus.project(5, 5, 0)")
    page.mouse.move(x, y)
    until(page, "window.__kumiki.blokus.ghost !== null")
    first = ghost(page)
    assert first is not None and first.startswith("I3 ")
    # the ghost follows the pointer: another corner of the structure, another legal place
    corner = page.evaluate("window.__kumiki.blokus.project(3.5, 6.5, 0)")
    page.mouse.move(*corner)
    until(page, f"window.__kumiki.blokus.ghost !== {first!r}")
    assert ghost(page) in set(page.evaluate("window.__kumiki.legalMoves"))
    page.mouse.move(x, y)
    until(page, f"window.__kumiki.blokus.ghost === {first!r}")
    # rotating about x gives another orientation; the ghost still only ever shows a legal move
    shape = page.evaluate("window.__kumiki.blokus.shape")
    page.keyboard.press("x")
    assert page.evaluate("window.__kumiki.blokus.shape") != shape
    page.mouse.move(x + 3, y + 3)
    page.mouse.move(x, y)
    placed = ghost(page)
    assert placed is not None and placed != first
    legal = set(page.evaluate("window.__kumiki.legalMoves"))
    assert placed in legal
    page.mouse.click(x, y)
    until(page, "window.__kumiki.ply >= 1")
    expect(page.get_by_test_id("move-list").locator("li").first).to_have_text(placed)

    # the computer answers; then the keys alone: 1 picks I2, O turns it, arrows move it, Enter places it
    until(page, "window.__kumiki.ply === 2 && window.__kumiki.toMove === 0")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("1")
    assert page.evaluate("window.__kumiki.blokus.selected") == "I2"
    page.keyboard.press("o")
    page.keyboard.press("ArrowRight")
    chosen = ghost(page)
    assert chosen is not None and chosen.startswith("I2 ")
    page.keyboard.press("Enter")
    until(page, "window.__kumiki.ply >= 3")
    expect(page.get_by_test_id("move-list").locator("li").nth(2)).to_have_text(chosen)
    # both colours' pieces and the turn order show
    expect(page.get_by_test_id("score-0")).to_be_visible()
    expect(page.get_by_test_id("score-1")).to_be_visible()
    expect(page.get_by_test_id("top-view")).to_be_visible()

    # the replay page draws the same game and steps to its end
    until(page, "window.__kumiki.toMove === 0")
    moves = server.get(f"/api/games/{created['id']}")["moves"]
    page.goto(server.url + f"/replay/{created['id']}")
    expect(page.get_by_test_id("status")).to_contain_text(f"Move 0 of {moves}")
    page.keyboard.press("End")
    expect(page.get_by_test_id("status")).to_contain_text(f"Move {moves} of {moves}")
    expect(page.get_by_test_id("colour-score-0")).to_be_visible()


def test_the_result_says_why_the_game_ended(server: Any, pages: Any) -> None:
    """At the end the result names the winner, the scores and why it ended, as Kuzushi's does."""
    random = {"kind": "agent", "level": "random"}
    created = server.create("blokus3d", [random, random])
    page = pages()
    page.goto(server.url + f"/game/{created['id']}")
    until(page, "window.__kumiki.over")
    expect(page.get_by_test_id("game-over")).to_contain_text("no colour can place another piece.")


def test_two_colours_each_the_status_names_the_colour_to_place_and_the_moves_wear_it(server: Any, pages: Any) -> None:
    """Two colours each (ann plays 0 and 2): the status says which of her colours she places now, and the move list
    marks each move in the colour of the piece played (ann's second piece is green, colour 2, not her seat's blue)."""
    seats = [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}]
    created = server.create("blokus3d", seats, players=2, colours_per_player=2)
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.legal > 0")
    expect(page.get_by_test_id("status")).to_have_text("Your turn: place colour 0 (blue).")
    for ply in (0, 2):
        until(page, f"window.__kumiki.ply === {ply} && window.__kumiki.toMove === 0 && window.__kumiki.legal > 0")
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("1")  # the first piece of the colour to place, where its ghost starts; Enter places it
        until(page, "window.__kumiki.blokus.ghost !== null")
        page.keyboard.press("Enter")
        until(page, f"window.__kumiki.ply >= {ply + 1}")
        if ply == 0:
            until(page, "window.__kumiki.ply === 2 && window.__kumiki.toMove === 0")
            expect(page.get_by_test_id("status")).to_have_text("Your turn: place colour 2 (green).")
    moves = page.get_by_test_id("move-list").locator("li")
    expect(moves.nth(0)).to_have_css("border-left-color", "rgb(0, 114, 178)")  # colour 0: blue
    expect(moves.nth(1)).to_have_css("border-left-color", "rgb(230, 159, 0)")  # colour 1: orange
    expect(moves.nth(2)).to_have_css("border-left-color", "rgb(0, 158, 115)")  # colour 2: green, ann's second
    # the scores say a player scores the better colour (the engine's rule), not the two colours' sum
    expect(page.get_by_test_id("better-colour")).to_have_text(
        "A player scores the better of their colours (player 0: 0 or 2; player 1: 1 or 3)."
    )


def test_the_move_controls_go_once_the_game_is_over(server: Any, pages: Any) -> None:
    """After the end (here ann resigns) nothing more can be placed: no turning, placing or "Why not here?"."""
    created = server.create("blokus3d", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.toMove === 0 && window.__kumiki.legal > 0")
    controls = ["ghost-rotate-x", "why-here"]
    assert_controls_go_at_the_end(page, controls)


@pytest.mark.parametrize("game", ["blokus3d", "kozo"])
def test_a_key_out_of_turn_or_from_a_spectator_says_why_nothing_happens(server: Any, pages: Any, game: str) -> None:
    """A piece's key or a click on the board from a seat not to move did nothing in Blokus 3D, with no word, and
    in Kozo said "<piece> has no legal place now" (a spectator's key too): each now says why, as the other boards
    do, and nothing is sent."""
    created = server.create(game, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    bob, watcher = pages(), pages()
    bob.goto(server.url + created["seats"][1]["invite"])
    watcher.goto(server.url + created["spectate"])
    until(bob, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0")
    until(watcher, "window.__kumiki.frames > 5 && window.__kumiki.views > 0")
    bob.keyboard.press("1")
    expect(bob.get_by_test_id("error")).to_have_text("It is not your turn: wait for the other player's move.")
    bob.get_by_test_id("error").evaluate("e => e.textContent = ''")
    box = bob.get_by_test_id("board-area").bounding_box()
    bob.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(bob.get_by_test_id("error")).to_have_text("It is not your turn: wait for the other player's move.")
    watcher.keyboard.press("1")
    expect(watcher.get_by_test_id("error")).to_have_text("You are watching.")
    assert server.get(f"/api/games/{created['id']}")["moves"] == 0


def test_an_orbit_drag_that_comes_back_where_it_began_places_nothing(server: Any, pages: Any) -> None:
    """Turning the view by dragging left and back again ends a few pixels from where the button went down: a drag,
    not a click (it placed the piece under the pointer)."""
    created = server.create("blokus3d", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0")
    page.get_by_test_id("piece-I3").click()
    x, y = page.evaluate("window.__kumiki.blokus.project(5, 5, 0)")
    page.mouse.move(x, y)
    until(page, "window.__kumiki.blokus.ghost !== null")
    page.mouse.down()
    for step in [*range(1, 11), *range(9, -1, -1)]:
        page.mouse.move(x + 20 * step, y)
    page.mouse.up()
    page.wait_for_timeout(500)
    assert page.evaluate("window.__kumiki.ply") == 0
    page.mouse.click(x, y)  # a click still places
    until(page, "window.__kumiki.ply >= 1")
