"""Every game on a phone: a 390×844 touch screen (no mouse, no keyboard). The page fits the width, a tap picks, a
first tap on the board shows where the piece would go and a second tap on the same place plays it, and the on-screen
buttons turn a polycube as the keys do."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import Page, expect
from tests.helpers import ANN_VS_COMPUTER, TABLES_3D, until

import kumiki

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Any:
    """A page in a phone's context: its viewport, touch, a mobile browser."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def fits_the_width(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page is {width} px wide on a {PHONE['width']} px screen"


def open_3d_game(
    server: Any, phone: Page, drawn: Any, game: str, ready: str, seats: Any = ANN_VS_COMPUTER, **options: Any
) -> None:
    """Open seat 0 of a new game on the phone, wait until ``ready`` holds, check the scene is drawn (``drawn``: the
    assert_scene_drawn fixture) and that the page fits the width."""
    created = server.create(game, seats, **options)
    phone.goto(server.url + created["seats"][0]["invite"])
    until(phone, f"window.__kumiki.frames > 5 && {ready}")
    drawn(phone)
    fits_the_width(phone)


def tap(page: Page, point: list[float]) -> None:
    page.touchscreen.tap(point[0], point[1])


def on_board(page: Page, game: str, x: float, y: float, z: float) -> list[float]:
    """Where a point of the 3D board is on the screen, the board scrolled into view first (on a phone the tray and
    buttons sit below it, and tapping them scrolls the page)."""
    page.get_by_test_id("board").scroll_into_view_if_needed()
    point: list[float] = page.evaluate(f"window.__kumiki.{game}.project({x}, {y}, {z})")
    assert 0 <= point[0] <= PHONE["width"] and 0 <= point[1] <= PHONE["height"], point
    return point


def test_a_game_made_on_a_phone_shows_its_invite_links_within_the_width(server: Any, phone: Page) -> None:
    """The links of a game just made (a seat's is some 90 characters long) wrap: the page stays as wide as the phone."""
    phone.goto(server.url + "/play/kuzushi")
    phone.get_by_test_id("seat-1-kind").select_option("human")
    phone.get_by_test_id("create").tap()
    expect(phone.get_by_test_id("invite-1")).to_be_visible()
    fits_the_width(phone)
    expect(phone.get_by_test_id("play")).to_be_visible()


def test_kuzushi_on_a_phone(server: Any, phone: Page) -> None:
    created = server.create("kuzushi", [{"kind": "agent", "level": "random"}, {"kind": "human", "name": "ann"}])
    phone.goto(server.url + created["seats"][1]["invite"])
    until(phone, "window.__kumiki.toMove === 1 && window.__kumiki.legal > 0")
    fits_the_width(phone)
    move = phone.evaluate("window.__kumiki.legalMoves[0]")
    x, y = move[2:].split(",")
    phone.get_by_test_id(f"cell-{x}-{y}").tap()
    until(phone, "window.__kumiki.ply >= 1")
    expect(phone.get_by_test_id("move-list").locator("li").first).to_have_text(move)


def test_blokus3d_on_a_phone(server: Any, phone: Page, assert_scene_drawn: Any) -> None:
    open_3d_game(server, phone, assert_scene_drawn, "blokus3d", "window.__kumiki.toMove === 0")
    phone.get_by_test_id("piece-I3").tap()
    shape = phone.evaluate("window.__kumiki.blokus.shape")
    phone.get_by_test_id("ghost-rotate-x").tap()  # the X key as a button
    assert phone.evaluate("window.__kumiki.blokus.shape") != shape
    phone.get_by_test_id("ghost-rotate-x").tap()
    before = phone.evaluate("window.__kumiki.blokus.ghost")  # shown at once, where the piece would go first
    board = on_board(phone, "blokus", 3.5, 6.5, 0)
    tap(phone, board)  # a tap elsewhere moves the ghost there; nothing is played yet
    until(phone, f"window.__kumiki.blokus.ghost !== {before!r}")
    ghost = phone.evaluate("window.__kumiki.blokus.ghost")
    assert phone.evaluate("window.__kumiki.ply") == 0 and ghost in phone.evaluate("window.__kumiki.legalMoves")
    expect(phone.get_by_test_id("ghost-info")).to_contain_text("tap it again to place")  # not "click or Enter"
    tap(phone, board)  # the second, on the same place, plays it
    until(phone, "window.__kumiki.ply >= 1")
    expect(phone.get_by_test_id("move-list").locator("li").first).to_have_text(ghost)


def test_kozo_on_a_phone(server: Any, phone: Page, assert_scene_drawn: Any) -> None:
    open_3d_game(server, phone, assert_scene_drawn, "kozo", "window.__kumiki.toMove === 0 && window.__kumiki.kozo")
    phone.get_by_test_id("piece-L4").tap()
    corner = on_board(phone, "kozo", 2.5, 2.5, 0)
    tap(phone, corner)
    ghost = phone.evaluate("window.__kumiki.kozo.ghost")
    assert ghost.startswith("L4 ") and phone.evaluate("window.__kumiki.kozo.step") == "piece"
    tap(phone, corner)  # the same place again: the piece goes down, the balance cube comes next
    until(phone, "window.__kumiki.kozo.step === 'balance'")
    info = phone.get_by_test_id("ghost-info")  # the balance cube's hint names the buttons, not keys a phone lacks
    expect(info).to_contain_text("tap a spot")
    expect(info).to_contain_text("◀ ▶ choose), Place places, Back goes back.")
    expect(info).not_to_contain_text("Enter")
    phone.get_by_test_id("ghost-next-place").tap()  # another spot, by the button
    chosen = phone.evaluate("window.__kumiki.kozo.move")
    assert chosen.startswith(ghost + " + ")
    phone.get_by_test_id("kozo-place").tap()
    until(phone, "window.__kumiki.ply >= 1")
    expect(phone.get_by_test_id("move-list").locator("li").first).to_have_text(chosen)


def test_towerbrix_on_a_phone(server: Any, phone: Page, assert_scene_drawn: Any) -> None:
    ready = "window.__kumiki.legal > 0 && window.__kumiki.towerbrix"
    solo = [{"kind": "human", "name": "ann"}]
    open_3d_game(server, phone, assert_scene_drawn, "towerbrix", ready, solo, players=1, mode="solo")
    phone.get_by_test_id("brick-Y1").tap()
    phone.get_by_test_id("axis-z").tap()
    before = phone.evaluate("window.__kumiki.towerbrix.ghost")
    spot = on_board(phone, "towerbrix", 2.5, 2.5, 0)
    tap(phone, spot)  # the ghost goes there; nothing is played yet
    until(phone, f"window.__kumiki.towerbrix.ghost !== {before!r}")
    assert phone.evaluate("window.__kumiki.ply") == 0
    ghost = phone.evaluate("window.__kumiki.towerbrix.ghost")
    tap(phone, spot)  # the same place again: the brick goes down
    until(phone, "window.__kumiki.ply >= 1")
    expect(phone.get_by_test_id("move-list").locator("li").first).to_have_text(ghost)


def test_a_finger_that_turns_the_view_and_comes_back_places_nothing(
    server: Any, phone: Page, assert_scene_drawn: Any
) -> None:
    """A one-finger drag turns the view; one that ends where it began is still a drag, not the second tap that places
    the piece (the ghost followed the finger, so lifting it was "a tap on the ghost" and played it)."""
    open_3d_game(server, phone, assert_scene_drawn, "blokus3d", "window.__kumiki.toMove === 0")
    phone.get_by_test_id("piece-I3").tap()
    x, y = on_board(phone, "blokus", 3.5, 6.5, 0)
    cdp = phone.context.new_cdp_session(phone)

    def touch(kind: str, *points: tuple[float, float]) -> None:
        touches = [{"x": px, "y": py, "id": index} for index, (px, py) in enumerate(points)]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touches})

    view = phone.evaluate("window.__kumiki.blokus.project(5, 5, 0)")
    touch("touchStart", (x, y))
    for step in [*range(1, 8), *range(6, -1, -1)]:
        touch("touchMove", (x - 15 * step, y))
    touch("touchEnd")
    phone.wait_for_timeout(500)
    assert phone.evaluate("window.__kumiki.blokus.project(5, 5, 0)") != view  # the view turned
    assert phone.evaluate("window.__kumiki.ply") == 0
    tap(phone, [x, y])  # taps still play: the ghost is there, so this one places it
    until(phone, "window.__kumiki.ply >= 1")


def test_towerbrix_height_labels_fit_the_phones_board(server: Any, phone: Page, assert_scene_drawn: Any) -> None:
    ready = "window.__kumiki.legal > 0 && window.__kumiki.towerbrix"
    solo = [{"kind": "human", "name": "ann"}]
    open_3d_game(server, phone, assert_scene_drawn, "towerbrix", ready, solo, players=1, mode="solo")
    board = phone.get_by_test_id("board").bounding_box()
    assert board is not None
    spans = phone.evaluate("window.__kumiki.towerbrix.guideLabels()")
    assert len(spans) == 2  # +1 and +3, beside the pole
    for left, right in spans:
        assert board["x"] <= left < right <= board["x"] + board["width"], (spans, board)


# Each button of a game's tray, scrolled to the bottom of the screen (as far as the page scrolls): those something
# else covers there (at their middle or just above their bottom edge).
COVERED_TRAY_BUTTONS = """() => [...document.querySelectorAll('[data-testid=tray] button')].filter((b) => {
  window.scrollBy(0, b.getBoundingClientRect().bottom - window.innerHeight + 2);
  const r = b.getBoundingClientRect();
  const x = r.left + r.width / 2;
  return [r.top + r.height / 2, r.bottom - 4].some((y) => !b.contains(document.elementFromPoint(x, y)));
}).map((b) => b.textContent)"""


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    TABLES_3D,
)
def test_the_sticky_hint_never_covers_the_tray(server: Any, phone: Page, game: str, seats: Any, options: Any) -> None:
    created = server.create(game, seats, **options)
    phone.goto(server.url + created["seats"][0]["invite"])
    until(phone, "window.__kumiki.legal > 0")
    expect(phone.get_by_test_id("ghost-info")).to_be_visible()
    assert phone.evaluate(COVERED_TRAY_BUTTONS) == []


@pytest.mark.parametrize("game", ["blokus3d", "kozo"])
def test_an_empty_sticky_hint_covers_nothing(server: Any, phone: Page, game: str) -> None:
    """The sticky hint has nothing to say to a player who waits for the other's move (Blokus 3D) or once the game is
    over: it is not shown then, so no blank bar hides the bottom of the screen (Blokus 3D's turn order under it)."""
    created = server.create(game, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    phone.goto(server.url + created["seats"][1]["invite"])
    until(phone, "window.__kumiki.views > 0 && window.__kumiki.toMove === 0")  # ann moves first
    hint = phone.get_by_test_id("ghost-info")
    if game == "blokus3d":
        expect(hint).to_have_text("")
        expect(hint).to_be_hidden()
    phone.get_by_test_id("resign").tap()
    phone.get_by_test_id("resign-confirm").tap()
    until(phone, "window.__kumiki.over")
    expect(hint).to_have_text("")
    expect(hint).to_be_hidden()


@pytest.mark.parametrize(
    ("game", "seats", "options", "ask", "refusal"),
    [
        ("blokus3d", ANN_VS_COMPUTER, {}, "why-here", "Pick a piece, point at the board"),
        ("kozo", ANN_VS_COMPUTER, {}, "why-here", "Pick a piece, point at a column"),
        ("towerbrix", [{"kind": "human", "name": "ann"}], {"players": 1, "mode": "solo"}, "ok-button", "cannot pass"),
    ],
)
def test_whose_turn_and_a_refusal_show_just_under_the_board(
    server: Any, phone: Page, pages: Any, game: str, seats: Any, options: Any, ask: str, refusal: str
) -> None:
    """On a phone the panel with the status comes after the whole tray, far below the board: a line right under the
    board repeats whose turn it is and the last refusal. A wide screen has the panel beside the board: no such line."""
    created = server.create(game, seats, **options)
    phone.goto(server.url + created["seats"][0]["invite"])
    until(phone, "window.__kumiki.legal > 0")
    line = phone.get_by_test_id("turn-line")
    expect(line).to_have_text("Your turn.")
    phone.get_by_test_id(ask).tap()  # a question the page answers with a hint in the error line
    expect(phone.get_by_test_id("error")).to_contain_text(refusal)
    expect(line).to_contain_text(refusal)
    phone.get_by_test_id("board").scroll_into_view_if_needed()
    board, shown = phone.get_by_test_id("board").bounding_box(), line.bounding_box()
    assert board is not None and shown is not None
    assert board["y"] + board["height"] - 1 <= shown["y"] <= board["y"] + board["height"] + 40, (board, shown)
    assert shown["y"] + shown["height"] <= PHONE["height"], shown  # in sight with the board
    fits_the_width(phone)
    wide = pages()  # 1280×800: the status beside the board as before
    wide.goto(server.url + created["seats"][0]["invite"])
    until(wide, "window.__kumiki.legal > 0")
    expect(wide.get_by_test_id("status")).to_be_visible()
    expect(wide.get_by_test_id("turn-line")).to_be_hidden()


def _finished_solo_kozo(server: Any) -> str:
    """A solo Kozo game of random moves played to its end, imported: its id."""
    state = kumiki.load_game("kozo", players=1).new_state(seed=3)
    rng = random.Random(3)
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    record = kumiki.write_record(state, {"Player0": "ann"})
    request = urllib.request.Request(server.url + "/api/records", record.encode(), {"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(json.load(answer)["id"])


def test_the_result_comes_into_view_at_the_end(server: Any, phone: Page, pages: Any) -> None:
    """On a phone the result box sits below the board and its tray: when the game ends (here bob resigns while ann
    looks at the board), when a finished game opens, and at the replay's end, it is brought into view, without a
    scroll by hand. On a desktop, where it shows beside the board, the page does not move."""
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    created = server.create("kozo", seats)
    phone.goto(server.url + created["seats"][0]["invite"])
    until(phone, "window.__kumiki.views > 0 && window.__kumiki.kozo")
    bob = pages()
    bob.goto(server.url + created["seats"][1]["invite"])
    bob.get_by_test_id("resign").click()
    bob.get_by_test_id("resign-confirm").click()
    until(phone, "window.__kumiki.over")
    over = phone.get_by_test_id("game-over")
    expect(over).to_have_text("You won! (0 – 0) — bob resigned.")
    expect(over).to_be_in_viewport(ratio=1)
    # and the button under it, the next thing a player taps (it was left just below the screen's edge)
    expect(phone.get_by_test_id("rematch")).to_be_in_viewport(ratio=1)
    assert phone.evaluate("window.scrollY") > 0  # it was below the screen: the page scrolled to it

    finished = _finished_solo_kozo(server)
    phone.goto(f"{server.url}/game/{finished}")
    until(phone, "window.__kumiki.over")
    expect(over).to_contain_text("Game over — ann scored")
    expect(over).to_be_in_viewport(ratio=1)

    phone.goto(f"{server.url}/replay/{finished}")  # the replay's last position: its result under the buttons
    last = phone.get_by_test_id("replay-last")
    last.tap()
    expect(over).to_contain_text("Game over — ann scored")
    expect(over).to_be_in_viewport(ratio=1)
    expect(last).to_be_in_viewport()  # the buttons did not jump away from the finger

    desk = pages()
    desk.goto(f"{server.url}/game/{finished}")
    expect(desk.get_by_test_id("game-over")).to_contain_text("Game over — ann scored")  # the finished game is shown
    expect(desk.get_by_test_id("game-over")).to_be_in_viewport(ratio=1)
    desk.wait_for_timeout(1200)  # past both looks at where the result is
    assert desk.evaluate("window.scrollY") == 0  # beside the board already: nothing moved


def test_towerbrix_hint_on_a_phone_names_no_keys(server: Any, phone: Page, assert_scene_drawn: Any) -> None:
    """A phone has no arrow keys and no Delete key: the hint under a brick's ghost says what a finger does instead
    (tap elsewhere to move it, the Take away button), as the Blokus 3D and Kozo hints say "tap it again"."""
    ready = "window.__kumiki.legal > 0 && window.__kumiki.towerbrix"
    solo = [{"kind": "human", "name": "ann"}]
    open_3d_game(server, phone, assert_scene_drawn, "towerbrix", ready, solo, players=1, mode="solo")
    hint = phone.get_by_test_id("ghost-info")
    phone.get_by_test_id("brick-Y1").tap()
    before = phone.evaluate("window.__kumiki.towerbrix.ghost")
    spot = on_board(phone, "towerbrix", 2.5, 2.5, 0)
    tap(phone, spot)
    until(phone, f"window.__kumiki.towerbrix.ghost !== {before!r}")
    expect(hint).to_contain_text("Tap it again to place it; tap elsewhere to move it.")
    expect(hint).not_to_contain_text("arrows")
    tap(phone, spot)
    until(phone, "window.__kumiki.ply >= 1")
    phone.get_by_test_id("brick-Y1").tap()  # the brick in the tower, picked again: it may be moved or taken away
    expect(hint).to_contain_text("Take away removes it.")
    expect(hint).not_to_contain_text("Delete")
    expect(phone.get_by_test_id("remove-button")).to_be_enabled()


# The visible controls a finger taps (buttons, selects, text fields, a folded section's title) smaller than 40 px.
SMALL_CONTROLS = """() => [...document.querySelectorAll('button, select, summary, input:not([type=checkbox])')]
  .map((e) => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.height && (r.height < 40 || r.width < 40))
  .map(([e, r]) => `${e.getAttribute('data-testid') || e.tagName} "${e.textContent.trim()}" ${r.width}x${r.height}`)"""


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("kuzushi", ANN_VS_COMPUTER, {}), *TABLES_3D],
)
def test_every_control_is_big_enough_for_a_finger(
    server: Any, phone: Page, pages: Any, game: str, seats: Any, options: Any
) -> None:
    """A phone's controls are at least 40 px each way (Blokus 3D's pieces were 34 px, 3 px apart: a finger hit the
    next piece); the game's own page with its form too. A desktop with a mouse keeps its smaller buttons."""
    created = server.create(game, seats, **options)
    phone.goto(server.url + created["seats"][0]["invite"])
    until(phone, "window.__kumiki.legal > 0")
    assert phone.evaluate(SMALL_CONTROLS) == []
    phone.goto(f"{server.url}/play/{game}")
    expect(phone.get_by_test_id("create")).to_be_visible()
    assert phone.evaluate(SMALL_CONTROLS) == []
    fits_the_width(phone)
    desk = pages()
    desk.goto(server.url + created["seats"][0]["invite"])
    until(desk, "window.__kumiki.legal > 0")
    button = desk.get_by_test_id("why-ask").bounding_box()
    assert button is not None and button["height"] < 40, button


@pytest.mark.parametrize("game", ["towerbrix", "kozo"])
def test_a_computer_level_s_measured_note_reads_whole_on_a_phone(server: Any, phone: Page, game: str) -> None:
    """A level's note ("hard: a team of four wins about 72% of rounds", "about 181 Elo above medium") is longer than
    a phone's level select shows: closed, it read "easy: a team of four wins about 4", the rate cut off. The chosen
    level's note is written out in full under the select, within the width; each option still carries its note."""
    notes = next(g for g in server.get("/api/catalog")["games"] if g["name"] == game)["level_notes"]
    phone.goto(server.url + "/")
    phone.get_by_test_id("game-select").select_option(game)
    phone.get_by_test_id("seat-1-kind").select_option("agent")
    note = phone.get_by_test_id("seat-1-level-note")
    for level in ("easy", "medium", "hard"):
        phone.get_by_test_id("seat-1-level").select_option(level)
        if level in notes:
            expect(phone.get_by_test_id("seat-1-level").locator(f"option[value={level}]")).to_have_text(
                f"{level}: {notes[level]}"
            )
            expect(note).to_have_text(notes[level])
            box = note.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        else:
            expect(note).to_be_hidden()
        fits_the_width(phone)
    phone.get_by_test_id("seat-1-kind").select_option("human")  # a person's seat has no level, nor its note
    expect(note).to_be_hidden()
