"""Play again: a game against the computer played to its end in the browser, then "Play again" opens a new game with
the same seats (the player keeps their seat, through their own new invite)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import play_kuzushi_to_the_end, until


def test_a_game_to_its_end_then_play_again(server: Any, pages: Any) -> None:
    seats = [{"kind": "agent", "level": "random"}, {"kind": "human", "name": "ann"}]
    created = server.create("kuzushi", seats, size=3, tiles=3)
    page = pages()
    page.goto(server.url + created["seats"][1]["invite"])
    until(page, "window.__kumiki.views > 0")
    play_kuzushi_to_the_end(page, seat=1)
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.get_by_test_id("rematch").click()
    page.wait_for_url(re.compile(r"/game/(?!" + re.escape(created["id"]) + r")[^?]+\?token="))
    until(page, "window.__kumiki.views > 0 && window.__kumiki.ply <= 1 && !window.__kumiki.over")
    assert page.evaluate("window.__kumiki.seat") == 1  # the same seat in the new game
    new_id = re.search(r"/game/([^?]+)", page.url)[1]  # type: ignore[index]
    assert [s["name"] for s in server.get(f"/api/games/{new_id}")["seats"]][1] == "ann"
