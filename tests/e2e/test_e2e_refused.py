"""A page the server refuses for good (a link whose token opens no seat) says why and does not knock again."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect


def test_a_wrong_token_is_said_once_and_not_retried(server: Any, pages: Any) -> None:
    human = {"kind": "human", "name": "ann"}
    game = server.create("kuzushi", [human, human])
    page = pages()
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(f"{server.url}/game/{game['id']}?token=not-a-seat")
    expect(page.get_by_test_id("status")).to_have_text(
        "Disconnected: this link's token does not open any seat of this game."
    )
    page.wait_for_timeout(1500)  # the old page knocked again every 250 ms
    assert len(sockets) == 1
    expect(page.get_by_test_id("error")).to_have_text("")  # not a "move refused"
