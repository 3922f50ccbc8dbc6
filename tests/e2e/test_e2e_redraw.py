"""The 3D boards draw when something may have changed, not at every display frame: an idle board drew 58 frames a
second and kept the 2-core test machine busy for one page (bench/web_idle.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from tests.helpers import play_as, until

TWO = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def frames(page: Any) -> int:
    return int(page.evaluate("window.__kumiki.frames"))


@pytest.mark.parametrize("game", ["kozo", "blokus3d", "towerbrix"])
def test_an_idle_board_rests_and_input_or_a_move_wakes_it(
    server: Any, pages: Any, game: str, assert_scene_drawn: Any
) -> None:
    created = server.create(game, TWO)
    ann, bob = pages(), pages()
    ann.goto(server.url + created["seats"][0]["invite"])
    bob.goto(server.url + created["seats"][1]["invite"])
    until(ann, "window.__kumiki.frames > 5 && window.__kumiki.legal > 0")
    assert_scene_drawn(ann)
    ann.wait_for_timeout(1500)  # past the first moment's drawing
    before = frames(ann)
    ann.wait_for_timeout(4000)
    assert frames(ann) - before <= 6  # about one a second (every frame: 240 at 60 Hz)

    box = ann.get_by_test_id("board").bounding_box()
    assert box is not None
    before = frames(ann)
    for step in range(20):  # the pointer wanders over the board for two seconds: every frame drawn
        ann.mouse.move(box["x"] + box["width"] * (0.3 + step / 50), box["y"] + box["height"] / 2)
        ann.wait_for_timeout(100)
    assert frames(ann) - before >= 12

    until(bob, "window.__kumiki.frames > 5")
    bob.wait_for_timeout(2500)  # bob's board rests too
    before = frames(bob)
    play_as(ann, created["seats"][0]["invite"], 0, ann.evaluate("window.__kumiki.legalMoves[0]"))
    until(bob, "window.__kumiki.ply === 1")
    bob.wait_for_timeout(1000)
    assert frames(bob) - before >= 4  # drawn at once after the server's message (at rest: one or two a second)
