"""Kozo in the browser: a game made from the home page, a move with the mouse and one with the keys, and a fall."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import Page, expect
from tests.helpers import KOZO_FALLS, assert_controls_go_at_the_end, play_as, until

import kumiki

KEYS = "1234567890-="


def kozo(page: Page, name: str) -> Any:
    return page.evaluate(f"window.__kumiki.kozo.{name}")


def point(page: Page, x: float, y: float, z: float) -> tuple[float, float]:
    return tuple(page.evaluate(f"window.__kumiki.kozo.project({x}, {y}, {z})"))  # type: ignore[return-value]


def quarter_turn_about_x(shape: str) -> str:
    """A shape key (cells from their minimum corner, sorted) turned a quarter turn about x: (x, y, z) -> (x, -z, y)."""
    cells = [tuple(int(v) for v in c.split(",")) for c in shape.split()]
    turned = [(x, -z, y) for x, y, z in cells]
    low = [min(c[i] for c in turned) for i in range(3)]
    return " ".join(",".join(str(c[i] - low[i]) for i in range(3)) for c in sorted(turned))


def placements(page: Page) -> set[str]:
    return {move.split(" + ")[0] for move in page.evaluate("window.__kumiki.legalMoves")}


def test_a_game_from_the_home_page_moves_with_the_mouse_and_with_the_keys(
    server: Any, pages: Any, new_game_on_home_page: Any, assert_scene_drawn: Any
) -> None:
    page = pages()
    new_game_on_home_page(page, "kozo", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page.get_by_test_id("play").click()
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.kozo")
    assert_scene_drawn(page)
    expect(page.get_by_test_id("status")).to_have_text("Your turn.")
    expect(page.get_by_test_id("kozo-round")).to_contain_text("Round 1 of 3")
    expect(page.get_by_test_id("tray").locator("button")).to_have_count(12)

    # the mouse: pick L4, point at two corners of the base: the ghost follows, and only ever shows a legal placement
    page.get_by_test_id("piece-L4").click()
    assert kozo(page, "selected") == "L4" and kozo(page, "step") == "piece"
    page.mouse.move(*point(page, 0.5, 0.5, 0))
    first = kozo(page, "ghost")
    assert first.startswith("L4 ") and first in placements(page)
    page.mouse.move(*point(page, 2.5, 2.5, 0))
    until(page, f"window.__kumiki.kozo.ghost !== {first!r}")
    ghost = kozo(page, "ghost")
    assert ghost in placements(page)
    # a click puts the piece there; then the balance cube: point at one of its spots and click
    page.mouse.click(*point(page, 2.5, 2.5, 0))
    assert kozo(page, "step") == "balance" and kozo(page, "ghost") == ghost
    spots = kozo(page, "spots")
    assert spots and all(spot.startswith(ghost + " + ") for spot in spots)
    x, y, z = (int(v) for v in spots[-1].split(" + ")[1].split(","))
    page.mouse.move(*point(page, x + 0.5, y + 0.5, z + 0.28))
    assert kozo(page, "move") == spots[-1]
    page.mouse.click(*point(page, x + 0.5, y + 0.5, z + 0.28))
    until(page, "window.__kumiki.ply >= 1")
    expect(page.get_by_test_id("move-list").locator("li").first).to_have_text(spots[-1])

    # the computer answers; then the keys alone: a number picks a piece, X turns it, O finds an orientation that
    # fits, the arrows move it, Enter puts it down, an arrow and Enter place the balance cube
    until(page, "window.__kumiki.ply >= 2 && window.__kumiki.toMove === 0")
    page.locator("body").click(position={"x": 5, "y": 5})
    ply = page.evaluate("window.__kumiki.ply")  # 3 when the computer toppled the tower and opened the next round
    pool = kozo(page, "pool")
    piece = next(p for p in pool if any(m.startswith(p + " ") for m in placements(page)))
    page.keyboard.press(KEYS[pool.index(piece)])
    assert kozo(page, "selected") == piece and not kozo(page, "falling")
    shape = kozo(page, "shape")
    page.keyboard.press("x")
    assert kozo(page, "shape") == quarter_turn_about_x(shape)
    page.keyboard.press("o")
    page.keyboard.press("ArrowRight")
    chosen = kozo(page, "ghost")
    assert chosen is not None and chosen.startswith(piece + " ") and chosen in placements(page)
    page.keyboard.press("Enter")
    assert kozo(page, "step") == "balance"
    page.keyboard.press("ArrowRight")
    move = kozo(page, "move")
    assert move is not None and move.startswith(chosen + " + ")
    page.keyboard.press("Enter")
    until(page, f"window.__kumiki.ply > {ply}")
    expect(page.get_by_test_id("move-list").locator("li").nth(ply)).to_have_text(move)
    expect(page.get_by_test_id("kozo-points")).to_be_visible()
    summary = server.get(f"/api/games/{page.url.split('/game/')[1].split('?')[0]}")
    assert summary["moves"] > ply


def test_a_fall_is_shown_with_the_judges_explanation(server: Any, pages: Any) -> None:
    _game, state = kumiki.read_record(KOZO_FALLS)
    assert [f.explanation for f in state.falls] == [
        "I3 #3 tips over the edge of L4 #1",
        "P4 #1 tips over the edge of the table",
    ]
    named = KOZO_FALLS.replace('[rounds "2"]', '[rounds "2"]\n[Player0 "ann"]\n[Player1 "bob"]')
    request = urllib.request.Request(server.url + "/api/records", named.encode(), {"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        imported = json.load(answer)
    page = pages()
    page.goto(server.url + imported["replay"])
    expect(page.get_by_test_id("status")).to_contain_text("Move 0 of 6")
    expect(page.get_by_test_id("ghost-info")).to_have_text("")  # a replay, not "You are watching." a game going on
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("fall-banner")).to_be_hidden()
    page.keyboard.press("ArrowRight")  # move 3: the I3 topples the tower, which is cleared for round 2
    banner = page.get_by_test_id("fall-banner")
    expect(banner).to_contain_text("I3 #3 tips over the edge of L4 #1")
    expect(banner).to_contain_text("loses 4 points of round 1")
    assert kozo(page, "falling")
    banner.click()
    expect(banner).to_be_hidden()
    expect(page.get_by_test_id("kozo-falls")).to_contain_text("Round 1: ann made the tower fall")  # the record's names
    page.keyboard.press("End")  # the last move topples the tower at step 2; the game ends and the tower stays
    expect(banner).to_contain_text("P4 #1 tips over the edge of the table")
    expect(page.get_by_test_id("kozo-round")).to_contain_text("Game over after 2 rounds")
    expect(page.get_by_test_id("kozo-points").locator("tr")).to_have_count(3)


def test_after_a_fall_the_round_is_over_then_the_next_round_starts_on_an_empty_base(server: Any, pages: Any) -> None:
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    created = server.create("kozo", seats, rounds=2)
    invites = [seat["invite"] for seat in created["seats"]]
    ann, bob = pages(), pages()
    for page, invite in ((ann, invites[0]), (bob, invites[1])):
        page.goto(server.url + invite)
        until(page, "window.__kumiki.views > 0 && window.__kumiki.kozo")
    moves = [line for line in KOZO_FALLS.splitlines() if "+" in line]
    for ply, move in enumerate(moves[:3]):  # ann's I3 at move 3 topples the tower: round 2 begins, bob to move
        play_as(bob, invites[ply % 2], ply, move)
    for page, toppler in ((ann, "ann (you)"), (bob, "ann")):
        until(page, "window.__kumiki.ply === 3 && window.__kumiki.kozo.falling")
        banner = page.get_by_test_id("fall-banner")
        expect(banner).to_contain_text(f"Round 1 is over: the tower fell! {toppler} made it fall placing I3")
        expect(banner).to_contain_text("Round 2 starts on an empty base")
        # the panel tells the same story as the tower drawn (the one that fell): not yet round 2's turn
        expect(page.get_by_test_id("kozo-round")).to_have_text(
            f"Round 1 of 2 is over: {toppler} made the tower fall.Round 2 starts on an empty base."
        )
        assert kozo(page, "drawn") == 3
        board = page.get_by_test_id("board").bounding_box()
        assert board is not None
        for corner in ((x, y, 4) for x in (0, 3) for y in (0, 3)):  # the top of the fallen tower: framed, not cut off
            left, top = point(page, *corner)
            assert board["x"] < left < board["x"] + board["width"] and board["y"] < top, (corner, board)
    ann.get_by_test_id("fall-banner").click()  # ann goes on: round 2's empty base, bob to move
    expect(ann.get_by_test_id("fall-banner")).to_be_hidden()
    expect(ann.get_by_test_id("kozo-round")).to_contain_text("Round 2 of 2")
    expect(ann.get_by_test_id("kozo-new-round")).to_have_text("A new tower: round 1 ended when ann (you) made it fall.")
    expect(ann.get_by_test_id("kozo-turn")).to_have_text("1 bob to move")
    assert kozo(ann, "drawn") == 0
    # bob answers while his page still shows the fall (as a computer answers at once): the fall stays coherent
    state = kumiki.load_game("kozo", players=2, rounds=2).new_state()
    for move in moves[:3]:
        state.play(move)
    reply = str(state.legal_moves()[0])
    play_as(ann, invites[1], 3, reply)
    until(bob, "window.__kumiki.ply === 4")
    assert kozo(bob, "falling") and kozo(bob, "drawn") == 3
    expect(bob.get_by_test_id("kozo-round")).to_contain_text("Round 1 of 2 is over")
    bob.get_by_test_id("fall-banner").click()
    expect(bob.get_by_test_id("kozo-new-round")).to_have_text("A new tower: round 1 ended when ann made it fall.")
    assert kozo(bob, "drawn") == 1 and kozo(ann, "drawn") == 1


def test_the_move_controls_go_once_the_game_is_over(server: Any, pages: Any) -> None:
    """After the end (here ann resigns) nothing more can be placed: no Place, Back, turning or "Why not here?"."""
    created = server.create("kozo", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.toMove === 0 && window.__kumiki.legal > 0 && window.__kumiki.kozo")
    controls = ["kozo-place", "kozo-back", "ghost-rotate-x", "why-here"]
    assert_controls_go_at_the_end(page, controls)


def test_picking_a_piece_answers_the_hint_to_pick_one(server: Any, pages: Any) -> None:
    """A click on "Why not here?" or on the board without a piece says to pick one; picking one clears that line, so it
    does not stand beside the answer about the piece picked (as in Blokus 3D)."""
    created = server.create("kozo", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.frames > 5 && window.__kumiki.toMove === 0 && window.__kumiki.kozo")
    page.get_by_test_id("why-here").click()
    expect(page.get_by_test_id("error")).to_contain_text("Pick a piece")
    page.get_by_test_id("piece-I4").click()
    expect(page.get_by_test_id("error")).to_have_text("")
    page.mouse.move(*point(page, 1.5, 1.5, 0))  # the chimney
    page.get_by_test_id("why-here").click()
    expect(page.get_by_test_id("why")).to_contain_text("chimney")
    expect(page.get_by_test_id("error")).to_have_text("")
