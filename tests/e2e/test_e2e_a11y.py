"""For a screen reader and a keyboard: the page's title names the game it shows, and every button and the focusable
3D board have a name in words (a symbol such as ↻, ◀ or ⟲ alone says nothing read aloud)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import ANN_VS_COMPUTER, TABLES_3D, until


def test_the_title_names_the_game_and_the_replay(server: Any, pages: Any) -> None:
    page = pages()
    created = server.create("blokus3d", ANN_VS_COMPUTER)
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.views > 0")
    expect(page).to_have_title("Blokus 3D — Kumiki")  # the catalog's title, as the game's own page has
    page.goto(server.url + created["spectate"])
    expect(page).to_have_title("Blokus 3D — Kumiki")
    page.goto(f"{server.url}/replay/{created['id']}")
    expect(page.get_by_test_id("replay-slider")).to_be_visible()
    expect(page).to_have_title("Replay: Blokus 3D — Kumiki")
    expect(page.locator("h2").first).to_have_text("Replay of Blokus 3D")  # the game's title, not "of blokus3d"


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    TABLES_3D,
)
def test_buttons_and_the_board_have_names(server: Any, pages: Any, game: str, seats: Any, options: Any) -> None:
    page = pages()
    created = server.create(game, seats, **options)
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.legal > 0")
    tree = page.locator("main").aria_snapshot()
    names = re.findall(r'button "([^"]*)"', tree)
    assert len(names) > 5, tree
    unnamed = [name for name in names if not re.search(r"[A-Za-z]{2}|[A-Z]\d", name)]  # "I2" and "Y1" are names
    assert unnamed == [], unnamed
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("role", "application")
    expect(board).to_have_accessible_name(re.compile("3D board"))


def test_the_replay_buttons_have_names_in_words(server: Any, pages: Any) -> None:
    page = pages()
    created = server.create("blokus3d", ANN_VS_COMPUTER)
    page.goto(f"{server.url}/replay/{created['id']}")
    expect(page.get_by_test_id("replay-slider")).to_be_visible()
    names = re.findall(r'button "([^"]*)"', page.locator("aside").aria_snapshot())
    assert len(names) == 4, names
    assert [name for name in names if not re.search(r"[A-Za-z]{2}", name)] == [], names  # not "⏮", "◀", "▶", "⏭"
    expect(page.get_by_test_id("replay-next")).to_have_accessible_name("next move")


def test_enter_on_a_focused_button_presses_that_button_not_the_games_key(server: Any, pages: Any) -> None:
    """A keyboard player who tabs to a button and presses Enter gets that button: Enter on "Top view" or "ok" with a
    piece chosen placed the piece instead (the game's Enter key), so those buttons could not be pressed so."""
    page = pages()
    created = server.create("blokus3d", ANN_VS_COMPUTER)
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.legal > 0 && window.__kumiki.blokus")
    page.keyboard.press("1")  # a piece chosen: its ghost stands at a legal place, which Enter alone would take
    until(page, "window.__kumiki.blokus.ghost !== null")
    page.get_by_test_id("top-button").focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(1000)
    assert page.evaluate("window.__kumiki.ply") == 0  # no piece placed
    page.get_by_test_id("board").focus()  # on the board Enter still places the piece
    page.keyboard.press("Enter")
    until(page, "window.__kumiki.ply >= 1")

    page = pages()
    created = server.create("towerbrix", [{"kind": "human", "name": "ann"}], players=1, mode="solo")
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.legal > 0 && window.__kumiki.towerbrix")
    page.get_by_test_id("brick-Y1").focus()
    page.keyboard.press("Enter")  # a brick in the tray: Enter picks it
    assert page.evaluate("window.__kumiki.towerbrix.selected") == "Y1"
    page.get_by_test_id("ok-button").focus()
    page.keyboard.press("Enter")  # the thumbs-up, on an empty table: the page asks again, no brick is placed
    expect(page.get_by_test_id("error")).to_contain_text("The tower cannot pass yet")
    assert page.evaluate("window.__kumiki.ply") == 0


def test_a_browser_shortcut_with_ctrl_alt_or_meta_is_not_taken_for_the_games_key(server: Any, pages: Any) -> None:
    """Ctrl+= and Ctrl+- zoom the page and Ctrl+K, Ctrl+Z, Alt+← are the browser's: in Kozo they picked the pieces
    on the keys = and -, and in TowerBrix Ctrl+K raised the player's thumb (and each blocked the browser's own use)."""
    page = pages()
    created = server.create("kozo", ANN_VS_COMPUTER)
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.legal > 0 && window.__kumiki.kozo")
    for key in ["Control+Equal", "Control+Minus", "Control+1", "Meta+2", "Alt+3"]:
        page.keyboard.press(key)
        assert page.evaluate("window.__kumiki.kozo.selected") is None, key
    page.keyboard.press("1")  # the key alone still picks the piece
    assert page.evaluate("window.__kumiki.kozo.selected") is not None

    page = pages()
    created = server.create("towerbrix", [{"kind": "human", "name": "ann"}], players=1, mode="solo")
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.legal > 0 && window.__kumiki.towerbrix")
    axis = page.evaluate("window.__kumiki.towerbrix.axis")
    for key in ["Control+k", "Control+z", "Control+y", "Control+1", "Alt+ArrowLeft"]:
        page.keyboard.press(key)
    page.wait_for_timeout(500)
    assert page.evaluate("window.__kumiki.towerbrix.axis") == axis
    assert page.evaluate("window.__kumiki.towerbrix.selected") is None
    expect(page.get_by_test_id("error")).to_have_text("")  # no thumbs-up asked again
    page.keyboard.press("z")
    assert page.evaluate("window.__kumiki.towerbrix.axis") == "z"


# The contrast of each seat swatch's number on its colour (WCAG's ratio of relative luminances).
SWATCH_CONTRASTS = """() => [...document.querySelectorAll('.swatch')].map((e) => {
  const lum = (s) => {
    const [r, g, b] = s.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(e);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)];
  return [e.textContent, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
})"""


def test_the_seat_numbers_on_their_colours_are_readable(server: Any, pages: Any) -> None:
    """The seat swatches (the number on the seat's colour, in the score table and the games' panels) read at least
    4.5:1, as WCAG asks of small text: white on orange read 2.3:1, on green 3.4:1."""
    seats = [{"kind": "human", "name": "ann"}, *[{"kind": "agent", "level": "random"}] * 5]
    for game, count in (("kuzushi", 6), ("towerbrix", 6), ("blokus3d", 2)):
        page = pages()
        created = server.create(game, seats[:count], players=count)
        page.goto(server.url + created["seats"][0]["invite"])
        until(page, "window.__kumiki.views > 0")
        contrasts = page.evaluate(SWATCH_CONTRASTS)
        assert len(contrasts) >= count, contrasts
        assert [(text, round(ratio, 2)) for text, ratio in contrasts if ratio < 4.5] == [], game
