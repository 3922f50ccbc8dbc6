"""Resigning in the browser: a player gives a game up with "Resign" and a confirmation; both players see who
resigned and who won; a co-operative game (TowerBrix) offers no resignation."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import until


def test_a_player_resigns_after_confirming_and_both_see_the_result(server: Any, pages: Any) -> None:
    created = server.create("blokus3d", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    ann, bob = pages(), pages()
    ann.goto(server.url + created["seats"][0]["invite"])
    bob.goto(server.url + created["seats"][1]["invite"])
    for page in (ann, bob):
        until(page, "window.__kumiki.views > 0")
        expect(page.get_by_test_id("resign")).to_be_visible()  # whoever's turn it is
    bob.get_by_test_id("resign").click()
    expect(bob.get_by_test_id("resign-ask")).to_contain_text("Resign this game? ann wins.")
    bob.get_by_test_id("resign-cancel").click()  # changed their mind: nothing happens
    expect(bob.get_by_test_id("resign-ask")).to_be_hidden()
    expect(bob.get_by_test_id("resign")).to_be_visible()
    assert not bob.evaluate("window.__kumiki.over")
    bob.get_by_test_id("resign").click()
    bob.get_by_test_id("resign-confirm").click()
    until(ann, "window.__kumiki.over")
    score = r"\(-?\d+ – -?\d+\)"  # Blokus 3D's scores: -11 each for the pieces left
    expect(ann.get_by_test_id("game-over")).to_have_text(re.compile(rf"You won! {score} — bob resigned\."))
    lost = re.compile(rf"Game over — won by ann {score} — you resigned\.")
    expect(bob.get_by_test_id("game-over")).to_have_text(lost)
    for page in (ann, bob):
        expect(page.get_by_test_id("resign")).to_be_hidden()
        expect(page.get_by_test_id("rematch")).to_be_visible()
    assert server.get(f"/api/games/{created['id']}")["winners"] == [0]
    assert server.text(f"/api/games/{created['id']}/record").endswith("# seat 1 (bob) resigned; winners: 0\n")


def test_towerbrix_has_no_resign_button(server: Any, pages: Any) -> None:
    created = server.create("towerbrix", [{"kind": "human", "name": "ann"}], players=1, mode="solo")
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.views > 0 && window.__kumiki.legal > 0")
    expect(page.get_by_test_id("resign")).to_be_hidden()
