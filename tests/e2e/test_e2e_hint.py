"""The Hint button in the browser: a solo TowerBrix player asks for a hint, sees "thinking…" then the edit and why,
with the brick it places picked on the board; a Kozo player against the computer asks with the H key."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import one_seat_towerbrix, until


def test_a_solo_towerbrix_player_clicks_hint_and_reads_the_edit_with_its_brick_picked(server: Any, pages: Any) -> None:
    ready = "window.__kumiki.frames > 5 && window.__kumiki.legal > 0"
    page, _ = one_seat_towerbrix(server, pages, {"players": 1, "mode": "solo"}, 0, ready, "sol")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-text")).to_contain_text("Hint: place ")
    text = page.get_by_test_id("hint-text").inner_text()
    brick = text.removeprefix("Hint: place ").split(" ")[0]
    expect(page.get_by_test_id(f"brick-{brick}")).to_have_class(re.compile(r"\bselected\b"))
    assert "bricks of a tower meeting your cards" in text
    assert page.evaluate("window.__kumiki.ply") == 0  # a hint plays nothing


def test_a_kozo_player_against_the_computer_asks_with_the_h_key(server: Any, pages: Any) -> None:
    created = server.create("kozo", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.kozo")
    page.keyboard.press("h")
    expect(page.get_by_test_id("hint-text")).to_contain_text("Hint: ")
    expect(page.get_by_test_id("hint-text")).to_contain_text("standing")
    assert page.evaluate("window.__kumiki.ply") == 0


def test_two_people_at_one_table_get_no_hint_button(server: Any, pages: Any) -> None:
    created = server.create("kozo", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0")
    expect(page.get_by_test_id("hint")).to_be_hidden()
