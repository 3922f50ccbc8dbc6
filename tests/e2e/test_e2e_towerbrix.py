"""TowerBrix in the browser: a solo game made from the home page, a brick placed with the mouse and one with the keys,
the cards' ✓/✗ following the tower, and a thumbs-up that ends the build and shows the evaluation."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import Page, expect
from tests.helpers import one_seat_towerbrix, until

READY = "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.towerbrix"


def towerbrix(page: Page, name: str) -> Any:
    return page.evaluate(f"window.__kumiki.towerbrix.{name}")


def point(page: Page, x: float, y: float, z: float) -> tuple[float, float]:
    return tuple(page.evaluate(f"window.__kumiki.towerbrix.project({x}, {y}, {z})"))  # type: ignore[return-value]


def engine_view(server: Any, game_id: str) -> dict[str, Any]:
    """Seat 0's view as the engine has it, from the game's stored moves."""
    return server.state(game_id).view(0)  # type: ignore[no-any-return]


def assert_cards_match(page: Page, view: dict[str, Any]) -> None:
    """Each of the seat's cards is listed with the helper's mark: ✓ when it holds on the tower now, else ✗."""
    for card, holds in view["holds"].items():
        expect(page.get_by_test_id(f"holds-{card}")).to_have_text("✓" if holds else "✗")
    expect(page.get_by_test_id("my-cards").locator("li")).to_have_count(len(view["holds"]))


def test_a_solo_game_from_the_home_page_with_the_mouse_the_keys_and_a_thumbs_up(
    server: Any, pages: Any, assert_scene_drawn: Any
) -> None:
    page = pages()
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("towerbrix")
    page.get_by_test_id("opt-players").fill("1")
    page.get_by_test_id("opt-players").dispatch_event("change")
    page.get_by_test_id("opt-mode").select_option("solo")
    page.get_by_test_id("opt-difficulty").select_option("easy")
    expect(page.get_by_test_id("opt-deck").locator("option")).to_have_text(["green", "pink"])
    page.get_by_test_id("seat-0-name").fill("sol")
    page.get_by_test_id("create").click()
    page.get_by_test_id("play").click()
    until(page, READY)
    game_id = re.search(r"/game/([^?]+)", page.url)[1]  # type: ignore[index]
    assert_scene_drawn(page)
    expect(page.get_by_test_id("status")).to_have_text("Your turn.")
    expect(page.get_by_test_id("towerbrix-progress")).to_contain_text("Round 1 of 3 · attempt 1 · cards worth 10")
    expect(page.get_by_test_id("tray").locator("button")).to_have_count(8)  # the green deck: no gray brick
    assert_cards_match(page, engine_view(server, game_id))

    # the mouse: Y1 standing, the pointer on the table at 0.5,0.5: the ghost is centred there; a click places it
    page.get_by_test_id("brick-Y1").click()
    page.get_by_test_id("axis-z").click()
    page.mouse.move(*point(page, 0.5, 0.5, 0))
    assert towerbrix(page, "ghost") == "Y1 z 0,0"
    page.mouse.move(*point(page, 3.5, 1.5, 0))
    assert towerbrix(page, "ghost") == "Y1 z 3,1"
    page.mouse.click(*point(page, 0.5, 0.5, 0))
    until(page, "window.__kumiki.ply === 1")
    assert towerbrix(page, "bricks") == ["Y1"] and towerbrix(page, "selected") is None
    assert_cards_match(page, engine_view(server, game_id))

    # the keys: 3 picks P1, X lays it along x; it starts at a place beside the tower; → nudges it; Enter places it
    page.keyboard.press("3")
    page.keyboard.press("x")
    assert towerbrix(page, "selected") == "P1" and towerbrix(page, "axis") == "x"
    start = towerbrix(page, "ghost")
    page.keyboard.press("ArrowRight")
    ghost = towerbrix(page, "ghost")
    assert ghost != start and ghost.startswith("P1 x ")
    expect(page.get_by_test_id("ghost-info")).to_contain_text(ghost)
    page.keyboard.press("Enter")
    until(page, "window.__kumiki.ply === 2")
    assert page.evaluate("window.__kumiki.last") == ghost and towerbrix(page, "bricks") == ["Y1", "P1"]
    view = engine_view(server, game_id)
    assert [b["id"] for b in view["bricks"]] == ["Y1", "P1"]
    assert_cards_match(page, view)
    expect(page.get_by_test_id("towerbrix-edits")).to_contain_text("Edits this attempt: 2 · bricks on the table: 2")

    # thumbs up on two bricks of eight: the page says the tower cannot pass yet and asks for a second ok
    page.get_by_test_id("ok-button").click()
    expect(page.get_by_test_id("error")).to_contain_text("The tower cannot pass yet: the green deck uses all eight")
    assert page.evaluate("window.__kumiki.ply") == 2  # nothing sent
    # the second ok: alone at the table, the build ends and the tower (two bricks, not all eight) is judged
    page.get_by_test_id("ok-button").click()
    until(page, "window.__kumiki.ply === 3")
    expect(page.get_by_test_id("evaluation-banner")).to_contain_text("Not this time.")
    assert towerbrix(page, "showing")  # the judged tower stays in sight after the table is cleared
    evaluation = page.get_by_test_id("evaluation-0")
    for card in view["holds"]:
        expect(evaluation).to_contain_text(card)
    expect(evaluation).to_contain_text("unused: Y2 P2 R1 R2 B1 B2")
    expect(page.get_by_test_id("towerbrix-progress")).to_contain_text("attempt 2 · cards worth 8")
    page.get_by_test_id("evaluation-banner").click()
    assert not towerbrix(page, "showing") and towerbrix(page, "bricks") == []


def test_challenge_2_shows_its_clock_and_ends_the_build_when_it_runs_out(server: Any, pages: Any) -> None:
    options = {"players": 1, "mode": "challenge", "challenge": 2, "time_limit": 4}
    created = server.post("/api/games", {"game": "towerbrix", "seats": [{"kind": "human"}], "options": options})
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, READY)
    expect(page.get_by_test_id("towerbrix-clock")).to_have_count(0)  # the clock starts with the first edit
    page.get_by_test_id("brick-Y1").click()
    page.get_by_test_id("axis-z").click()
    page.mouse.click(*point(page, 0.5, 0.5, 0))
    until(page, "window.__kumiki.ply === 1")
    expect(page.get_by_test_id("towerbrix-clock")).to_contain_text(re.compile(r"⏱ 0:0[1-4] left to build"))
    until(page, "window.__kumiki.ply === 2")  # the server plays "time" when it runs out
    assert page.evaluate("window.__kumiki.last") == "time"
    expect(page.get_by_test_id("evaluation-0")).to_contain_text("the time ran out (4 s)")
    expect(page.get_by_test_id("towerbrix-clock")).to_have_count(0)


# Sends moves on a socket of the page's own seat (its invite's token), one at a time, each once the last is applied.
SEND_MOVES = """async (moves) => {
  const token = new URLSearchParams(location.search).get('token');
  const id = location.pathname.split('/').pop();
  const ws = new WebSocket(`ws://${location.host}/ws/games/${id}?token=${token}`);
  await new Promise((done) => {
    let sent = 0;
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type !== 'view') return;
      if (sent === moves.length) { ws.close(); done(); return; }
      if (msg.ply === sent) ws.send(JSON.stringify({ type: 'move', ply: msg.ply, move: moves[sent++] }));
    };
  });
}"""


def test_an_ok_while_your_own_cards_fail_asks_again(server: Any, pages: Any) -> None:
    """A finished tower (all eight bricks, connected) that none of the player's cards holds on: the first ok only
    warns (the player may be wrong on purpose: the second one is sent), as an ok on an unfinished tower does."""
    page, created = one_seat_towerbrix(server, pages, {"players": 1, "mode": "solo"}, 0, READY, "sol")
    row = [f"{brick} x 0,{y}" for y, brick in enumerate(["Y1", "Y2", "P1", "P2", "R1", "R2", "B1", "B2"])]
    page.evaluate(SEND_MOVES, row)  # a flat row of the eight bricks: finished, and seed 0's cards all fail on it
    until(page, "window.__kumiki.ply === 8")
    view = engine_view(server, created["id"])
    assert not any(view["holds"].values())
    assert_cards_match(page, view)
    page.get_by_test_id("ok-button").click()
    expect(page.get_by_test_id("error")).to_contain_text("Your cards do not all hold")
    expect(page.get_by_test_id("error")).to_contain_text("Press ok again to give your thumbs-up anyway")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__kumiki.ply") == 8  # nothing sent
    page.get_by_test_id("ok-button").click()  # meant: the build ends and the tower is judged
    until(page, "window.__kumiki.ply === 9")
    assert page.evaluate("window.__kumiki.last") == "ok"


def test_the_building_controls_go_once_the_game_is_over(server: Any, pages: Any) -> None:
    """One round of one attempt, ended by a thumbs-up: no bricks to pick, no axes, no ok or take-away after it."""
    options = {"players": 1, "mode": "solo", "rounds": 1, "attempts": 1}
    created = server.create("towerbrix", [{"kind": "human", "name": "sol"}], **options)
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, READY)
    controls = ["axis-z", "ok-button", "remove-button"]
    for control in controls:
        expect(page.get_by_test_id(control)).to_be_visible()
    page.get_by_test_id("ok-button").click()
    page.get_by_test_id("ok-button").click()  # the table is empty: the page asks again
    until(page, "window.__kumiki.over")
    for control in controls:
        expect(page.get_by_test_id(control)).to_be_hidden()
    expect(page.get_by_test_id("tray").locator("button:enabled")).to_have_count(0)


def _challenge(server: Any, pages: Any, challenge: int) -> tuple[Page, dict[str, Any]]:
    options = {"players": 1, "mode": "challenge", "challenge": challenge}
    return one_seat_towerbrix(server, pages, options, 3, READY)


def test_a_challenge_ends_met_or_not_met_and_draws_no_bonus_heights(server: Any, pages: Any) -> None:
    """A challenge scores 1 when met and 0 when not, which the result box read out as a score ("you scored 1"); it
    says "challenge 1 met" now, as the terminal does. The height guide's +1 and +3 marks are not drawn (no bonus
    counts in a challenge); after the end the cards box says why it holds no cards."""
    from kumiki.games.towerbrix.solver import solve_cards

    page, created = _challenge(server, pages, 1)
    assert towerbrix(page, "guideLabels()") == []  # no "+1: taller than …" beside the pole
    hand = engine_view(server, created["id"])["hands"][0]
    answer = solve_cards(hand, "green", challenge=1, seconds=20)
    assert answer.status == "solved", answer.status
    moves = [f"{b.id} {b.axis} {b.corner[0]:g},{b.corner[1]:g}" for b in answer.bricks] + ["ok"]
    page.evaluate(SEND_MOVES, moves)
    until(page, "window.__kumiki.over")
    expect(page.get_by_test_id("game-over")).to_contain_text("Game over — challenge 1 met.")
    expect(page.get_by_test_id("game-over")).not_to_contain_text("scored")
    expect(page.get_by_text("No cards: the game is over.")).to_be_visible()

    page, created = _challenge(server, pages, 4)
    state = server.state(created["id"])
    oks = 0
    while not state.over:  # an empty table judged at every attempt: the challenge is not met
        state.play("ok")
        oks += 1
    page.evaluate(SEND_MOVES, ["ok"] * oks)
    until(page, "window.__kumiki.over")
    expect(page.get_by_test_id("game-over")).to_contain_text("Game over — challenge 4 not met.")


def test_the_replay_does_not_say_you_are_watching(server: Any, pages: Any) -> None:
    """The replay page steps through a stored game: its sticky line said "You are watching." at every move."""
    created = server.create("towerbrix", [{"kind": "human", "name": "sol"}], players=1, mode="solo")
    page = pages()
    page.goto(f"{server.url}/replay/{created['id']}")
    expect(page.get_by_test_id("status")).to_contain_text("Move 0 of 0")
    until(page, "window.__kumiki.towerbrix !== undefined")
    expect(page.get_by_test_id("ghost-info")).to_have_text("")
