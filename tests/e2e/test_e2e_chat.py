"""Talking at the table in two browsers: a chat line and a signal arrive live, markup is shown as text, a spectator
reads but cannot talk, and challenge 3 (Trade Secret) switches the text box off, leaving the signals."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import until


def test_chat_and_signals_arrive_live_and_markup_stays_text(server: Any, pages: Any) -> None:
    created = server.create("kuzushi", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    ann, bob, watcher = pages(), pages(), pages()
    ann.goto(server.url + created["seats"][0]["invite"])
    bob.goto(server.url + created["seats"][1]["invite"])
    watcher.goto(server.url + f"/game/{created['id']}")
    until(ann, "window.__kumiki.views > 0")
    until(bob, "window.__kumiki.views > 0")
    ann.get_by_test_id("chat-input").fill("hello <b>bob</b>, you start")
    ann.get_by_test_id("chat-input").press("Enter")
    expect(bob.get_by_test_id("chat-0")).to_have_text("ann: hello <b>bob</b>, you start")
    assert bob.get_by_test_id("chat-list").locator("li b").count() == 1  # only the name is bold: no markup ran
    bob.get_by_test_id("signal-yes").click()
    expect(ann.get_by_test_id("chat-1")).to_contain_text("bob: 👍")
    expect(watcher.get_by_test_id("chat-1")).to_contain_text("👍")
    assert watcher.get_by_test_id("chat-input").count() == 0  # a spectator reads the table, but cannot talk
    replay = server.get(f"/api/games/{created['id']}/replay")
    assert [e["text"] for e in replay["chat"]] == ["hello <b>bob</b>, you start", "yes"]
    watcher.goto(server.url + f"/replay/{created['id']}")  # the replay's talk reads as the game page's did
    expect(watcher.get_by_test_id("chat-0")).to_have_text("ann: hello <b>bob</b>, you start")
    expect(watcher.get_by_test_id("chat-1")).to_have_text("bob: 👍")


def test_challenge_3_allows_gestures_only(server: Any, pages: Any) -> None:
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    created = server.create("towerbrix", seats, players=2, mode="challenge", challenge=3)
    ann = pages()
    ann.goto(server.url + created["seats"][0]["invite"])
    until(ann, "window.__kumiki.views > 0")
    expect(ann.get_by_test_id("chat-note")).to_contain_text("Trade Secret")
    expect(ann.get_by_test_id("chat-input")).to_be_disabled()
    ann.get_by_test_id("signal-look").click()
    expect(ann.get_by_test_id("chat-0")).to_contain_text("ann: 👀 look here")


def towerbrix_pair_with_a_brick(server: Any, pages: Any, challenge: int) -> tuple[Any, Any]:
    """Two browsers at a free-turn TowerBrix challenge, ann and bob; ann has put Y1 standing at the corner 0,0."""
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    created = server.create("towerbrix", seats, players=2, mode="challenge", challenge=challenge, turns="free")
    ann, bob = pages(), pages()
    ann.goto(server.url + created["seats"][0]["invite"])
    bob.goto(server.url + created["seats"][1]["invite"])
    until(ann, "window.__kumiki.frames > 5 && window.__kumiki.legal > 0 && window.__kumiki.towerbrix")
    until(bob, "window.__kumiki.frames > 5 && window.__kumiki.towerbrix")
    ann.get_by_test_id("brick-Y1").click()
    ann.get_by_test_id("axis-z").click()
    ann.mouse.click(*ann.evaluate("window.__kumiki.towerbrix.project(0.5, 0.5, 0)"))
    return ann, bob


def test_look_here_points_at_a_brick_for_everyone(server: Any, pages: Any) -> None:
    ann, bob = towerbrix_pair_with_a_brick(server, pages, challenge=3)
    until(bob, "window.__kumiki.towerbrix.bricks.includes('Y1')")
    # ann points at the brick she placed and signals "look here": bob sees the marker over it, and the chat says so
    ann.mouse.move(*ann.evaluate("window.__kumiki.towerbrix.project(0.5, 0.5, 1.5)"))
    ann.get_by_test_id("signal-look").click()
    expect(bob.get_by_test_id("chat-0")).to_contain_text("ann: 👀 look here (Y1)")
    until(bob, "window.__kumiki.towerbrix.pointed.includes('Y1')")
    # then at the bare table: a point of the half grid
    ann.mouse.move(*ann.evaluate("window.__kumiki.towerbrix.project(4, -2, 0)"))
    ann.get_by_test_id("signal-look").click()
    expect(bob.get_by_test_id("chat-1")).to_contain_text("look here (4,-2)")
    until(bob, "window.__kumiki.towerbrix.pointed.includes('4,-2')")
    until(bob, "!window.__kumiki.towerbrix.pointed.includes('Y1')")  # the marker goes after a few seconds


@pytest.mark.parametrize(
    ("game", "spot", "at"),
    [("kuzushi", None, "1,0"), ("blokus3d", (4.5, 3.5, 0), "4,3"), ("kozo", (2.5, 0.5, 0), "2,0")],
)
def test_look_here_on_every_board(server: Any, pages: Any, game: str, spot: Any, at: str) -> None:
    created = server.create(game, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    ann, bob = pages(), pages()
    ann.goto(server.url + created["seats"][0]["invite"])
    bob.goto(server.url + created["seats"][1]["invite"])
    until(ann, "window.__kumiki.views > 0")
    until(bob, "window.__kumiki.views > 0")
    if spot is None:  # the flat Kuzushi grid: the cell under the mouse
        ann.get_by_test_id("cell-1-0").hover()
    else:
        hook = "blokus" if game == "blokus3d" else game
        until(ann, f"window.__kumiki.frames > 5 && window.__kumiki.{hook} !== undefined")
        ann.mouse.move(*ann.evaluate(f"window.__kumiki.{hook}.project({spot[0]}, {spot[1]}, {spot[2]})"))
    ann.get_by_test_id("signal-look").click()
    expect(bob.get_by_test_id("chat-0")).to_contain_text(f"look here ({at})")
    until(bob, f"(window.__kumiki.pointed || []).includes('{at}')")
    if game == "kuzushi":
        expect(bob.get_by_test_id(f"pointed-{at.replace(',', '-')}")).to_be_visible()


def test_challenge_10_the_blind_seat_reads_what_the_others_describe(server: Any, pages: Any) -> None:
    ann, bob = towerbrix_pair_with_a_brick(server, pages, challenge=10)  # bob, the last seat, is blind
    until(ann, "window.__kumiki.towerbrix.bricks.includes('Y1')")
    until(bob, "window.__kumiki.ply >= 1")
    assert bob.evaluate("window.__kumiki.towerbrix.bricks") == []  # the blind seat sees no tower
    expect(bob.get_by_test_id("towerbrix-round")).to_contain_text("you do not see the tower")
    # nor how many bricks it has (it read "bricks on the table: 0" under a tower of one)
    expect(bob.get_by_test_id("towerbrix-edits")).to_have_text(
        "Edits this attempt: 1 · bricks on the table: unseen (blind luck)"
    )
    expect(ann.get_by_test_id("towerbrix-edits")).to_have_text("Edits this attempt: 1 · bricks on the table: 1")
    ann.get_by_test_id("chat-input").fill("a yellow brick stands at the corner")
    ann.get_by_test_id("chat-input").press("Enter")
    expect(bob.get_by_test_id("chat-0")).to_have_text("ann: a yellow brick stands at the corner")


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        ([{"kind": "human", "name": "ann"}], {"players": 1}),
        ([{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}], {}),
    ],
    ids=["solo", "against-a-computer"],
)
def test_a_game_of_one_person_has_no_table_talk(
    server: Any, pages: Any, seats: list[dict[str, str]], options: dict[str, int]
) -> None:
    """A one-player game, or one person against computers, has nobody to talk to (a spectator may read the table but
    not talk, a computer reads nothing): no chat panel, for the player or a spectator; a game of two people has it."""
    solo = server.create("kozo", seats, **options)
    ann, watcher = pages(), pages()
    ann.goto(server.url + solo["seats"][0]["invite"])
    watcher.goto(server.url + f"/game/{solo['id']}")
    for page in (ann, watcher):
        until(page, "window.__kumiki.views > 0")
        expect(page.get_by_test_id("chat")).to_be_hidden()
        expect(page.get_by_text("Table talk")).to_be_hidden()
    pair = server.create("kozo", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    ann.goto(server.url + pair["seats"][0]["invite"])
    until(ann, "window.__kumiki.views > 0")
    expect(ann.get_by_test_id("chat")).to_be_visible()
    expect(ann.get_by_test_id("chat-input")).to_be_visible()
