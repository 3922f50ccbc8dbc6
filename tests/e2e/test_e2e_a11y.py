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
