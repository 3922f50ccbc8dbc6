"""Kuzushi in the browser: against the computer to the end, reload mid-game, two players, a refused move."""

from __future__ import annotations

import re
from typing import Any

import pytest

import kumiki

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import Page, expect
from tests.helpers import until

HUMAN = {"kind": "human", "name": "ann"}
COMPUTER = {"kind": "agent", "level": "easy"}


def board(page: Page) -> list[tuple[str, str | None, str | None]]:
    """Every cell's id, kind and owner as drawn."""
    return page.eval_on_selector_all(
        "[data-testid^=cell-]",
        "cells => cells.map(c => [c.dataset.testid, c.dataset.kind, c.dataset.owner ?? null])",
    )


def tiles(page: Page) -> list[tuple[str, str | None, str | None]]:
    """The cells that hold a tile."""
    return [cell for cell in board(page) if cell[1] in ("city", "base", "flag")]


def wait_my_turn_or_over(page: Page) -> None:
    until(page, "window.__kumiki.over || window.__kumiki.toMove === window.__kumiki.seat")


def click_a_playable_cell(page: Page) -> None:
    ply = page.evaluate("window.__kumiki.ply")
    page.locator("[data-kind=playable]").first.click()
    until(page, f"window.__kumiki.ply > {ply}")


def test_play_against_the_computer_to_the_end_from_the_home_page(
    server: Any, pages: Any, new_game_on_home_page: Any
) -> None:
    page = pages()
    # seat 1 moves first (the CITY is seat 0's): the human moves first, the computer answers
    new_game_on_home_page(page, "kuzushi", [{"kind": "agent", "level": "random"}, HUMAN], tiles=8)
    expect(page.get_by_test_id("invite-1")).to_contain_text("/game/")
    page.get_by_test_id("play").click()
    expect(page).to_have_url(re.compile(r"/game/.+\?token="))
    until(page, "window.__kumiki.seat === 1 && window.__kumiki.views > 0")
    # Every page's footer names the release that serves it.
    expect(page.get_by_test_id("version")).to_have_text(kumiki.__version__)

    for _ in range(40):
        wait_my_turn_or_over(page)
        if page.evaluate("window.__kumiki.over"):
            break
        click_a_playable_cell(page)
    assert page.evaluate("window.__kumiki.over")

    game_id = page.url.split("/game/")[1].split("?")[0]
    summary = server.get(f"/api/games/{game_id}")
    assert summary["status"] == "over"
    over = page.get_by_test_id("game-over")
    expect(over).to_be_visible()
    # why it ended: with 8 tiles each, a supply runs out long before the 6×6 grid is full
    expect(over).to_contain_text("no tile left")  # then "." or, on a tie in tiles, what the tie-break found
    expect(over).to_have_text(re.compile(r"no tile left(\.|; tied at \d+ tiles\b.*\.)$"))
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Game over")
    names = {0: "random computer", 1: "ann"}
    for winner in summary["winners"]:
        expect(status).to_contain_text(names[winner])
    history = page.get_by_test_id("move-list").locator("li")
    expect(history).to_have_count(summary["moves"])
    # the scores on the page are the record's: replay the stored game to its end
    replay = server.get(f"/api/games/{game_id}/replay")
    final = replay["states"][-1]
    counts = [0, 0]
    for cell in final["cells"]:
        counts[cell["owner"]] += 1
    for seat in (0, 1):
        expect(page.get_by_test_id(f"score-{seat}").locator(".score")).to_have_text(str(counts[seat]))

    final_tiles = tiles(page)

    # the replay page steps through the same game
    page.goto(server.url + f"/replay/{game_id}")
    expect(page.get_by_test_id("status")).to_contain_text(f"Move 0 of {summary['moves']}")
    page.keyboard.press("End")
    expect(page.get_by_test_id("status")).to_contain_text(f"Move {summary['moves']} of {summary['moves']}")
    page.get_by_test_id("replay-prev").click()
    expect(page.get_by_test_id("status")).to_contain_text(f"Move {summary['moves'] - 1} of")

    # its .kmk record, imported on the home page, opens in the replay viewer
    record = server.text(f"/api/games/{game_id}/record")
    page.goto(server.url + "/")
    page.get_by_test_id("import-text").fill(record)
    page.get_by_test_id("import").click()
    expect(page).to_have_url(re.compile(r"/replay/"))
    expect(page.get_by_test_id("status")).to_contain_text(f"Move 0 of {summary['moves']}")
    page.keyboard.press("End")
    expect(page.get_by_test_id("status")).to_contain_text(f"Move {summary['moves']} of {summary['moves']}")
    assert tiles(page) == final_tiles

    # a bad record is refused with the server's one-line reason
    page.goto(server.url + "/")
    page.get_by_test_id("import-text").fill("not a record")
    page.get_by_test_id("import").click()
    expect(page.get_by_test_id("error")).not_to_be_empty()
    # and nothing at all asks for a record, not for a [Game] tag on line 1
    page.get_by_test_id("import-text").fill("  ")
    page.get_by_test_id("import").click()
    expect(page.get_by_test_id("error")).to_have_text("Paste a .kmk record above or choose its file first.")


def test_each_players_tiles_left_show_under_the_board(server: Any, pages: Any) -> None:
    """A supply that runs out ends the game (a BASE takes a tile and each of its FLAGS one more): every seat's
    tiles left show under the board and follow the moves, as the cards in front of each player do at the table."""
    created = server.create("kuzushi", [COMPUTER, HUMAN], tiles=8)
    page = pages()
    page.goto(server.url + created["seats"][1]["invite"])
    until(page, "window.__kumiki.views > 0 && window.__kumiki.toMove === 1")
    expect(page.get_by_test_id("tiles-left")).to_contain_text("Tiles left")
    for seat in (0, 1):
        expect(page.get_by_test_id(f"tiles-left-{seat}")).to_have_text(f"{seat} 8")
    click_a_playable_cell(page)
    wait_my_turn_or_over(page)
    left = server.state(created["id"]).tiles_left()
    assert left[0] < 8 and left[1] < 8
    for seat in (0, 1):
        expect(page.get_by_test_id(f"tiles-left-{seat}")).to_have_text(f"{seat} {left[seat]}")


def test_reload_mid_game_shows_the_same_position(server: Any, pages: Any) -> None:
    created = server.post("/api/games", {"game": "kuzushi", "seats": [COMPUTER, HUMAN], "undo": True})
    page = pages()
    page.goto(server.url + created["seats"][1]["invite"])
    for _ in range(3):
        wait_my_turn_or_over(page)
        click_a_playable_cell(page)
    wait_my_turn_or_over(page)
    before = board(page)
    moves = page.get_by_test_id("move-list").inner_text()
    ply = page.evaluate("window.__kumiki.ply")
    # the token stays in the address, so a reload keeps the seat
    page.reload()
    until(page, f"window.__kumiki.views > 0 && window.__kumiki.ply === {ply} && window.__kumiki.seat === 1")
    assert board(page) == before
    assert page.get_by_test_id("move-list").inner_text() == moves
    expect(page.get_by_test_id("status")).to_have_text("Your turn.")

    # U takes back my last move and the computer's reply
    expect(page.get_by_test_id("undo")).to_be_visible()
    page.keyboard.press("u")
    until(page, f"window.__kumiki.ply === {ply - 2}")
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(ply - 2)


def test_the_spectator_link_watches_even_in_a_players_own_browser(server: Any, pages: Any) -> None:
    """The browser remembers bob's seat, yet the game's spectator link opens a view that cannot move (it used to
    put bob back in his seat); the page offers his own link instead."""
    created = server.create("kuzushi", [HUMAN, {"kind": "human", "name": "bob"}])
    page = pages()
    page.goto(server.url + created["seats"][1]["invite"])
    until(page, "window.__kumiki.views > 0 && window.__kumiki.seat === 1 && window.__kumiki.legal > 0")
    expect(page.get_by_test_id("take-seat")).to_be_hidden()
    page.goto(server.url + created["spectate"])  # the same browser: its storage holds bob's token
    until(page, "window.__kumiki.views > 0")
    assert page.evaluate("[window.__kumiki.seat, window.__kumiki.legal]") == [None, 0]
    expect(page.get_by_test_id("status")).to_have_text("Waiting for bob.")
    expect(page).to_have_url(server.url + created["spectate"])  # no token put back into the address
    page.get_by_test_id("cell-1-0").click()  # bob's legal first move: nothing is sent from a spectator's board
    page.wait_for_timeout(500)
    assert server.get(f"/api/games/{created['id']}")["moves"] == 0
    expect(page.get_by_test_id("cell-1-0")).not_to_have_attribute("data-kind", "base")
    # bob plays with his own link, which the spectator page offers him
    expect(page.get_by_test_id("take-seat")).to_be_visible()
    page.get_by_test_id("take-seat-link").click()
    page.wait_for_url(re.compile(r"\?token="))
    until(page, "window.__kumiki.views > 0 && window.__kumiki.seat === 1")
    expect(page.get_by_test_id("status")).to_have_text("Your turn.")
    # another browser, which never had a seat, is offered none
    watcher = pages()
    watcher.goto(server.url + created["spectate"])
    until(watcher, "window.__kumiki.views > 0")
    assert watcher.evaluate("window.__kumiki.seat") is None
    expect(watcher.get_by_test_id("take-seat")).to_be_hidden()


def test_two_players_in_two_browsers_and_a_refused_move(server: Any, pages: Any) -> None:
    created = server.create("kuzushi", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    ann, bob = pages(), pages(width=820, height=1180)  # a laptop and a tablet
    ann.goto(server.url + created["seats"][0]["invite"])
    bob.goto(server.url + created["seats"][1]["invite"])
    # player 1 moves first: the CITY is player 0's
    expect(bob.get_by_test_id("status")).to_have_text("Your turn.")
    expect(bob.get_by_test_id("undo")).to_be_hidden()
    expect(ann.get_by_test_id("status")).to_contain_text("Waiting for bob")

    # ann clicks out of turn: refused with a clear message, nothing changes
    ann.get_by_test_id("cell-1-0").click()
    expect(ann.get_by_test_id("error")).to_contain_text("Move refused")
    assert ann.evaluate("window.__kumiki.ply") == 0

    # bob clicks a cell that is not playable: refused too
    bob.get_by_test_id("cell-3-3").click()
    expect(bob.get_by_test_id("error")).to_contain_text("Move refused")

    bob.get_by_test_id("cell-1-0").click()
    until(ann, "window.__kumiki.ply === 1")
    expect(ann.get_by_test_id("cell-1-0")).to_have_attribute("data-kind", "base")
    expect(ann.get_by_test_id("cell-1-0")).to_have_attribute("data-owner", "1")
    expect(ann.get_by_test_id("last-move")).to_have_count(1)
    expect(ann.get_by_test_id("status")).to_have_text("Your turn.")

    # ann plays with the keyboard: the cursor is where she last clicked (1,0); two steps west and Enter
    ann.keyboard.press("ArrowLeft")
    ann.keyboard.press("ArrowLeft")
    ann.keyboard.press("Enter")
    until(bob, "window.__kumiki.ply === 2")
    expect(bob.get_by_test_id("cell--1-0")).to_have_attribute("data-kind", "base")
    expect(bob.get_by_test_id("cell--1-0")).to_have_attribute("data-owner", "0")
    expect(bob.get_by_test_id("move-list").locator("li")).to_have_text(["B 1,0", "B -1,0"])

    # bob clicks his own FLAG: it flips into a BASE
    expect(bob.get_by_test_id("cell-2-0")).to_have_attribute("data-kind", "flag")
    bob.get_by_test_id("cell-2-0").click()
    until(ann, "window.__kumiki.ply === 3")
    expect(ann.get_by_test_id("cell-2-0")).to_have_attribute("data-kind", "base")
    expect(ann.get_by_test_id("move-list").locator("li").last).to_have_text("F 2,0")

    # a spectator sees the same position and cannot move
    watcher = pages()
    watcher.goto(server.url + created["spectate"])
    until(watcher, "window.__kumiki.ply === 3")
    # the same tiles (only the seat to move sees its playable cells)
    assert tiles(watcher) == tiles(bob)
    assert watcher.evaluate("window.__kumiki.seat") is None
