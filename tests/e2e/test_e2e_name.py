"""The home page remembers the name you last played under (in this browser), for the next game you make."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect


def test_the_name_persists_in_the_browser(server: Any, pages: Any) -> None:
    page = pages()
    page.goto(server.url + "/")
    expect(page.get_by_test_id("seat-0-name")).to_have_value("player 0")  # a new browser: no name yet
    page.get_by_test_id("seat-0-name").fill("zoe")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("play")).to_be_visible()
    page.goto(server.url + "/")
    expect(page.get_by_test_id("seat-0-name")).to_have_value("zoe")
