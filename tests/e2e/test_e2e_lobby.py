"""The lobby as a newcomer meets it: home -> a game's card -> its page (how to play, presets) -> a game against the
computer played to its end -> play again; and an open table another player finds in the lobby and sits down at."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import play_kuzushi_to_the_end, until


def test_a_newcomer_goes_from_a_card_through_the_tutorial_to_a_game_and_plays_again(server: Any, pages: Any) -> None:
    page = pages()
    page.goto(server.url + "/")
    for name in ("kuzushi", "blokus3d", "kozo", "towerbrix"):
        card = page.get_by_test_id(f"game-card-{name}")
        expect(card).to_be_visible()
        width = card.locator("img").evaluate(  # the picture loads (waited for: a loaded machine is slow)
            "img => img.complete ? img.naturalWidth : new Promise(done => {"
            " img.addEventListener('load', () => done(img.naturalWidth));"
            " img.addEventListener('error', () => done(0)); })"
        )
        assert width > 100
    page.get_by_test_id("game-card-kuzushi").click()
    page.wait_for_url(re.compile(r"/play/kuzushi$"))
    expect(page.get_by_test_id("about-title")).to_have_text("Kuzushi")
    expect(page.get_by_test_id("rules-summary")).to_contain_text("place a BASE")
    expect(page.get_by_test_id("game-select")).to_be_hidden()  # this page makes Kuzushi
    expect(page.get_by_test_id("opt-tiles")).to_be_hidden()  # advanced options are folded away
    # learn to play first: the guided game's first step, then back to the game's page for a real game
    page.get_by_test_id("tutorial-start").click()
    page.wait_for_url(re.compile(r"tutorial=1"))
    until(page, "window.__kumiki.toMove === 1 && window.__kumiki.legal > 0")
    first = page.evaluate("window.__kumiki.legalMoves.find(m => m.startsWith('B'))")
    page.get_by_test_id(f"cell-{first[2:].replace(',', '-')}").click()
    expect(page.get_by_test_id("tutorial")).to_have_attribute("data-step", "2")
    page.get_by_test_id("tutorial-done").click()
    page.wait_for_url(re.compile(r"/play/kuzushi$"))
    page.get_by_test_id("preset-quick").click()
    assert page.get_by_test_id("opt-size").input_value() == "5"
    assert page.get_by_test_id("opt-tiles").input_value() == "10"
    page.get_by_test_id("seat-0-name").fill("newcomer")
    page.get_by_test_id("seat-1-kind").select_option("agent")
    # each level says how much stronger the ladder study measured it than the one below
    expect(page.get_by_test_id("seat-1-level").locator("option[value=hard]")).to_contain_text("Elo above medium")
    page.get_by_test_id("seat-1-level").select_option("random")
    page.get_by_test_id("create").click()
    page.get_by_test_id("play").click()
    page.wait_for_url(re.compile(r"/game/[^?]+\?token="))
    until(page, "window.__kumiki.views > 0")
    game_id = re.search(r"/game/([^?]+)", page.url)[1]  # type: ignore[index]
    assert server.get(f"/api/games/{game_id}")["options"]["tiles"] == 10
    play_kuzushi_to_the_end(page, seat=0)
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.get_by_test_id("rematch").click()
    page.wait_for_url(re.compile(r"/game/(?!" + re.escape(game_id) + r")[^?]+\?token="))
    until(page, "window.__kumiki.views > 0 && !window.__kumiki.over")
    assert page.evaluate("window.__kumiki.seat") == 0


def test_an_open_table_is_found_in_the_lobby_and_taken(server: Any, pages: Any) -> None:
    ann = pages()
    ann.goto(server.url + "/play/kuzushi")
    ann.get_by_test_id("seat-0-name").fill("ann")
    ann.get_by_test_id("seat-1-kind").select_option("open")
    ann.get_by_test_id("create").click()
    expect(ann.get_by_test_id("created")).to_contain_text("Open tables")
    ann.get_by_test_id("play").click()
    until(ann, "window.__kumiki.views > 0")
    game_id = re.search(r"/game/([^?]+)", ann.url)[1]  # type: ignore[index]
    expect(ann.get_by_test_id("score-1")).to_contain_text("waiting for a player")
    # player 1 moves first: the status says how the game goes on, not "Waiting for open seat."
    expect(ann.get_by_test_id("status")).to_have_text(
        "Waiting for someone to take seat 1 (the lobby lists this table under Open tables)."
    )

    bob = pages()
    bob.goto(server.url + "/")
    expect(bob.get_by_test_id(f"table-{game_id}")).to_contain_text("ann")
    expect(bob.get_by_test_id(f"table-{game_id}").locator("b")).to_have_text("Kuzushi")  # the title, not "kuzushi"
    bob.get_by_test_id("join-name").fill("bob")
    bob.get_by_test_id(f"join-{game_id}-1").click()
    bob.wait_for_url(re.compile(rf"/game/{re.escape(game_id)}\?token="))
    until(bob, "window.__kumiki.views > 0")
    assert bob.evaluate("window.__kumiki.seat") == 1
    expect(ann.get_by_test_id("score-1")).to_contain_text("bob")  # ann sees bob sit down
    expect(ann.get_by_test_id("status")).to_have_text("Waiting for bob.")
    bob.goto(server.url + "/")
    expect(bob.get_by_test_id("open-tables")).not_to_contain_text(game_id)
    expect(bob.get_by_test_id(f"table-{game_id}")).to_have_count(0)
    game = bob.get_by_test_id("recent").locator(f"a[href='/game/{game_id}']")
    expect(game).to_have_text("Kuzushi: ann vs bob")  # the recent games name it by its title too


def test_a_table_whose_creator_chose_the_seed_says_so_in_the_lobby_and_at_the_table(server: Any, pages: Any) -> None:
    """A TowerBrix seed tells every hidden card: whoever takes a seat at a table made with a chosen seed is told."""
    seats = [{"kind": "human", "name": "ann"}, {"kind": "open"}]
    body = {"game": "towerbrix", "seats": seats, "seed": 5}
    game = httpx.post(server.url + "/api/games", json=body).json()
    bob = pages()
    bob.goto(server.url + "/")
    expect(bob.get_by_test_id(f"seed-chosen-{game['id']}")).to_contain_text("chose the seed")
    bob.get_by_test_id(f"join-{game['id']}-1").click()
    bob.wait_for_url(re.compile(rf"/game/{re.escape(game['id'])}\?token="))
    until(bob, "window.__kumiki.views > 0")
    expect(bob.get_by_test_id("seed-chosen")).to_be_visible()
    drawn = httpx.post(server.url + "/api/games", json={**body, "seed": None}).json()
    bob.goto(server.url + drawn["seats"][0]["invite"])
    until(bob, "window.__kumiki.views > 0")
    expect(bob.get_by_test_id("seed-chosen")).to_be_hidden()


def test_a_name_typed_right_after_the_number_of_players_is_kept(server: Any, pages: Any) -> None:
    """Typing the number of players, then clicking into a seat's name: the players field's change, fired as it lost
    focus, drew the seats again, replacing the field clicked into, and the name typed went nowhere (the game was
    made with "player 0")."""
    page = pages()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("kuzushi")
    page.get_by_test_id("opt-players").fill("3")
    page.get_by_test_id("seat-0-name").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("ann")
    expect(page.get_by_test_id("seat-2-kind")).to_be_visible()
    page.get_by_test_id("seat-1-kind").select_option("human")
    page.get_by_test_id("seat-1-name").fill("bob")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("invite-1")).to_contain_text("/game/")
    game = page.get_by_test_id("invite-0").get_attribute("href").split("/game/")[1].split("?")[0]  # type: ignore[union-attr]
    assert [s["name"] for s in server.get(f"/api/games/{game}")["seats"]][:2] == ["ann", "bob"]


def test_the_card_points_per_round_follow_the_deck_on_the_form(server: Any, pages: Any) -> None:
    """TowerBrix's "Card points per round" went up to 200 on the form whatever the deck, and the server then refused
    130 with the green deck (at most 122, every card's points). The field's bounds follow the deck, as the catalog
    says the engine takes them: the form is not sent with a total the engine would refuse."""
    page = pages()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("towerbrix")
    total, deck = page.get_by_test_id("opt-total"), page.get_by_test_id("opt-deck")
    if not total.is_visible():
        page.get_by_test_id("more-options").locator("summary").click()
    deck.select_option("green")
    total.fill("130")
    assert total.get_attribute("max") == "122"
    assert total.evaluate("field => field.validity.valid") is False
    before = len(server.get("/api/games?limit=200")["games"])
    page.get_by_test_id("create").click()
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("invite-0")).to_have_count(0)
    assert len(server.get("/api/games?limit=200")["games"]) == before  # not sent: nothing refused, nothing made
    deck.select_option("pink")
    assert total.get_attribute("max") == "133" and total.evaluate("field => field.validity.valid") is True
    total.fill("132")  # more than green's cards, and pink's cannot make it exactly (133 less one point)
    assert total.evaluate("field => field.validity.valid") is False
    total.fill("133")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("invite-0")).to_contain_text("/game/")
    game = page.get_by_test_id("invite-0").get_attribute("href").split("/game/")[1].split("?")[0]  # type: ignore[union-attr]
    assert server.get(f"/api/games/{game}")["options"]["total"] == 133
