"""Learn to play: from a game's page a newcomer starts a guided game against the computer; each step moves on when
they have done what it says (a move, a refused move explained), and the last leads to a real game."""

from __future__ import annotations

import re
import urllib.request
from typing import Any

import pytest

import kumiki

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import Page, expect
from tests.helpers import until


def start(page: Page, server: Any, game: str) -> None:
    page.goto(server.url + f"/play/{game}")
    page.get_by_test_id("tutorial-start").click()
    page.wait_for_url(re.compile(r"/game/[^?]+\?token=.*tutorial=1"))
    until(page, "window.__kumiki.views > 0")
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "1")


def ask_why(page: Page, move: str) -> None:
    page.get_by_test_id("why-move").fill(move)
    page.get_by_test_id("why-ask").click()
    expect(page.get_by_test_id("why")).to_contain_text("Why not:")


def test_the_kuzushi_tutorial_from_the_card_to_a_real_game(server: Any, pages: Any) -> None:
    page = pages()
    page.goto(server.url + "/")
    page.get_by_test_id("game-card-kuzushi").click()
    start(page, server, "kuzushi")
    tutorial = page.get_by_test_id("tutorial")
    expect(page.get_by_test_id("tutorial-step")).to_contain_text("Place a BASE next to the CITY")
    until(page, "window.__kumiki.toMove === 1 && window.__kumiki.legal > 0")
    move = page.evaluate("window.__kumiki.legalMoves.find(m => m.startsWith('B'))")
    x, y = move[2:].split(",")
    page.get_by_test_id(f"cell-{x}-{y}").click()
    expect(tutorial).to_have_attribute("data-step", "2")
    ask_why(page, "B 3,3")
    expect(tutorial).to_have_attribute("data-step", "3")
    for _ in range(2):
        until(page, "window.__kumiki.over || (window.__kumiki.toMove === 1 && window.__kumiki.legal > 0)")
        assert not page.evaluate("window.__kumiki.over"), "the tutorial's game ended before step 3 could be done"
        move = page.evaluate("window.__kumiki.legalMoves[0]")
        x, y = re.fullmatch(r"[BF] (-?\d+),(-?\d+)", move).groups()  # type: ignore[union-attr]
        ply = page.evaluate("window.__kumiki.ply")
        page.get_by_test_id(f"cell-{x}-{y}").click()
        until(page, f"window.__kumiki.ply > {ply}")
    expect(tutorial).to_have_attribute("data-step", "4")
    expect(page.get_by_test_id("tutorial-step")).to_contain_text("The score is your tiles")
    page.get_by_test_id("tutorial-done").click()
    page.wait_for_url(re.compile(r"/play/kuzushi$"))
    expect(page.get_by_test_id("new-game")).to_be_visible()


def test_the_blokus3d_tutorial_moves_on_with_a_piece_and_a_why(server: Any, pages: Any) -> None:
    page = pages()
    start(page, server, "blokus3d")
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0")
    page.get_by_test_id("piece-I3").click()
    page.mouse.click(*page.evaluate("window.__kumiki.blokus.project(5, 5, 0)"))
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "2")
    until(page, "window.__kumiki.toMove === 0")
    page.get_by_test_id("piece-I2").click()
    page.mouse.move(*page.evaluate("window.__kumiki.blokus.project(0.5, 0.5, 0)"))
    page.get_by_test_id("why-here").click()
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "3")


def test_the_kozo_tutorial_explains_the_chimney(server: Any, pages: Any) -> None:
    page = pages()
    start(page, server, "kozo")
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.kozo")
    page.get_by_test_id("tutorial-next").click()  # a step may be skipped
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "2")
    ask_why(page, "I2 1,1,0 1,2,0 + 1,2,1")
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "3")


def test_the_towerbrix_tutorial_explains_the_gray_brick(server: Any, pages: Any) -> None:
    page = pages()
    start(page, server, "towerbrix")
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.legal > 0 && window.__kumiki.towerbrix")
    # one click of the mouse puts the brick down (a second one, as the step once said, only got "Pick a brick first")
    expect(page.get_by_test_id("tutorial-step")).to_contain_text("click the table to put it down (on a phone: tap,")
    page.get_by_test_id("brick-Y1").click()
    page.get_by_test_id("axis-z").click()
    page.mouse.click(*page.evaluate("window.__kumiki.towerbrix.project(0.5, 0.5, 0)"))
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "2")
    expect(page.get_by_test_id("error")).to_have_text("")
    ask_why(page, "G z 0,0")
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "3")


def test_the_kozo_tutorial_goes_on_after_the_tower_falls_on_the_first_move(server: Any, pages: Any) -> None:
    """A newcomer's first piece (or the random computer's reply) often topples the tower: the tutorial's game must
    go on to a new round, or step 3 ("Play another turn") could never be done (with one round the game was over)."""
    state = kumiki.load_game("kozo").new_state()
    toppling = set()
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        if after.falls:
            toppling.add(str(move).split(" + ")[0])
    page = pages()
    start(page, server, "kozo")
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.kozo")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("1234567890-="[page.evaluate("window.__kumiki.kozo.pool").index("L4")])
    for _ in range(200):  # the next place, then the next orientation, until the ghost is a placement that topples
        if page.evaluate("window.__kumiki.kozo.ghost") in toppling:
            break
        page.keyboard.press("ArrowRight")
        if page.evaluate("window.__kumiki.kozo.ghost") in toppling:
            break
        page.keyboard.press("o")
    assert page.evaluate("window.__kumiki.kozo.ghost") in toppling
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # the balance cube on its first spot: the tower has fallen already
    until(page, "window.__kumiki.ply >= 1")
    banner = page.get_by_test_id("fall-banner")
    expect(banner).to_contain_text("tower fell!")
    if "you made it fall" not in banner.inner_text():
        # the computer opened round 2 and toppled it at once, and its banner came first: the game's record shows
        # the newcomer's fall in round 1
        game_id = re.search(r"/game/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        with urllib.request.urlopen(f"{server.url}/api/games/{game_id}/record") as answer:
            _, replayed = kumiki.read_record(answer.read().decode())
        first = replayed.falls[0]  # type: ignore[attr-defined]
        assert (first.round, first.player, first.move.split()[0]) == (0, 0, "L4"), first
        expect(banner).to_contain_text("random computer made it fall")
    else:
        expect(banner).to_contain_text("tower fell! you made it fall placing L4")
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "2")
    # the next round: the computer opens it, then it is the newcomer's turn again
    until(page, "window.__kumiki.over || (window.__kumiki.toMove === 0 && window.__kumiki.ply >= 2)")
    assert not page.evaluate("window.__kumiki.over"), "the tutorial's game ended on the newcomer's first move"
