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


def test_a_friend_who_reloads_after_the_rematch_joins_the_same_one(server: Any, pages: Any) -> None:
    """Ann and bob finish; ann plays again and goes; bob reloads the finished game (nobody was connected a moment,
    so the server let its room go). His page offers the link to ann's rematch, without a second "Play again" beside
    it: the page had forgotten the rematch, and its "Play again" made another new game, so the friends each waited
    in their own. (Before the reload too, the button came back beside the link at the next view.)"""
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    created = server.create("kuzushi", seats, size=3, tiles=3)
    ann, bob = pages(), pages()
    ann.goto(server.url + created["seats"][0]["invite"])
    bob.goto(server.url + created["seats"][1]["invite"])
    until(ann, "window.__kumiki.views > 0")
    until(bob, "window.__kumiki.views > 0")
    for _ in range(40):  # each plays a legal move in turn, in the page
        if ann.evaluate("window.__kumiki.over"):
            break
        seat = ann.evaluate("window.__kumiki.toMove")
        page = (ann, bob)[seat]
        until(page, f"window.__kumiki.toMove === {seat} && window.__kumiki.legal > 0")
        x, y = re.fullmatch(r"[BF] (-?\d+),(-?\d+)", page.evaluate("window.__kumiki.legalMoves[0]")).groups()  # type: ignore[union-attr]
        ply = page.evaluate("window.__kumiki.ply")
        page.get_by_test_id(f"cell-{x}-{y}").click()
        until(ann, f"window.__kumiki.ply > {ply}")
    until(bob, "window.__kumiki.over")
    ann.get_by_test_id("rematch").click()
    ann.wait_for_url(re.compile(r"/game/(?!" + re.escape(created["id"]) + r")[^?]+\?token="))
    rematch = re.search(r"/game/([^?]+)", ann.url)[1]  # type: ignore[index]
    expect(bob.get_by_test_id("rematch-link")).to_be_visible()
    expect(bob.get_by_test_id("rematch")).to_be_hidden()  # ann leaving changed the view: no second way
    bob.reload()
    until(bob, "window.__kumiki.views > 0 && window.__kumiki.over")
    expect(bob.get_by_test_id("rematch-link")).to_be_visible()
    expect(bob.get_by_test_id("rematch")).to_be_hidden()
    bob.get_by_test_id("rematch-link").click()
    bob.wait_for_url(re.compile(r"/game/" + re.escape(rematch) + r"\?token="))
    until(bob, "window.__kumiki.views > 0 && window.__kumiki.seat === 1")
    expect(ann.get_by_test_id("score-1")).not_to_contain_text("away")  # both sit at the same new table
