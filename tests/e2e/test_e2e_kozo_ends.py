"""How a Kozo game ends, as the page says it (docs/rules/kozo.md, "Rounds and the end of the game"): every polycube
placed, no polycube that can be placed (none at all, or none of the size drawn in the variant), and a solo game's
score with what it was made of, round by round. Small pools of our own (the option ``pieces``) reach each end in a
few moves."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import Page, expect
from tests.helpers import kozo_1845_ended, play_as, until

import kumiki

I2 = [[0, 0, 0], [1, 0, 0]]
I3 = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
L4 = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]]
T4 = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]]
CUBE8 = [[x, y, z] for x in range(2) for y in range(2) for z in range(2)]  # a 2×2×2 block: it fits nowhere on the ring
ANN_AND_BOB = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
PHONE = {"width": 390, "height": 844}


def opened(server: Any, pages: Any, invite: str, **size: int) -> Page:
    page: Page = pages(**size)
    page.goto(server.url + invite)
    until(page, "window.__kumiki.views > 0 && window.__kumiki.kozo")
    return page


def test_every_polycube_placed_ends_the_round_and_the_page_says_so(server: Any, pages: Any) -> None:
    """The pool of docs/rules/kozo.md's example (two dominoes and a T), one round: the third move places the last
    polycube, the game is over, and ann (6 – 2) is told she won and why."""
    pool = json.dumps({"D1": I2, "D2": [[0, 0, 0], [0, 0, 1]], "T": T4})
    created = server.create("kozo", ANN_AND_BOB, rounds=1, pieces=pool)
    invites = [seat["invite"] for seat in created["seats"]]
    ann = opened(server, pages, invites[0])
    moves = ("D1 0,0,0 1,0,0 + 0,0,1", "D2 2,0,0 2,1,0 + 2,1,1", "T 0,2,0 1,2,0 2,2,0 1,2,1 + 1,2,2")
    for ply, move in enumerate(moves):
        play_as(ann, invites[ply % 2], ply, move)
    until(ann, "window.__kumiki.over")
    expect(ann.get_by_test_id("game-over")).to_have_text(
        "You won! (6 – 2) — after 1 round (it ended with every polycube placed); the highest total wins: ann 6, bob 2."
    )
    expect(ann.get_by_test_id("status")).to_have_text("Game over. Winner: ann.")


@pytest.mark.parametrize("width", [1280, PHONE["width"]])
def test_a_pool_that_fits_nowhere_ends_the_game_at_once_and_the_page_says_why(
    server: Any, pages: Any, width: int
) -> None:
    """Decision (i): no polycube of the pool fits the empty ring, so each round ends before anyone moves, without a
    fall: nobody loses points, and the draw is explained (on a desktop and on a phone's width)."""
    created = server.create("kozo", ANN_AND_BOB, rounds=2, pieces=json.dumps({"C": CUBE8}))
    page = opened(server, pages, created["seats"][1]["invite"], width=width, height=PHONE["height"])
    until(page, "window.__kumiki.over")
    over = page.get_by_test_id("game-over")
    expect(over).to_have_text(
        "A draw (0 – 0) — after 2 rounds (the last ended when none of the polycubes left could be placed); "
        "the highest total wins: ann 0, bob 0."
    )
    assert over.evaluate("e => e.getBoundingClientRect().right") <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


def test_the_variant_ends_the_round_when_no_polycube_of_the_size_drawn_fits(server: Any, pages: Any) -> None:
    """The random-size variant (tile draw, seed 1845): after ten moves a 4 is drawn with I3, A4 and B4 left, neither
    A4 nor B4 fits, and the one round ends there (docs/rules/kozo.md, decision o)."""
    state = kozo_1845_ended()
    assert not state.falls and state.to_json()["ends"][0]["size"] == 4
    record = kumiki.write_record(state, {"Player0": "ann", "Player1": "bob"})
    request = urllib.request.Request(server.url + "/api/records", record.encode(), {"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        imported = json.load(answer)
    page = opened(server, pages, f"/game/{imported['id']}")
    a, b = (f"{s:g}" for s in state.scores())
    expect(page.get_by_test_id("game-over")).to_contain_text(
        "after 1 round (it ended when the tile drawn was 4 and no polycube of that size could be placed); "
        f"the highest total wins: ann {a}, bob {b}."
    )


@pytest.mark.parametrize("width", [1280, PHONE["width"]])
def test_a_solo_game_ends_with_its_score_round_by_round(server: Any, pages: Any, width: int) -> None:
    """Solo, two rounds of a pool of three: in round 1 the third polycube topples the tower (its 6 points are lost),
    round 2 places every polycube (9 points). The end says the score, how each round ended and what it scored."""
    pool = json.dumps({"D": I2, "L": L4, "I": I3})
    created = server.create("kozo", [{"kind": "human", "name": "ann"}], players=1, rounds=2, pieces=pool)
    invite = created["seats"][0]["invite"]
    page = opened(server, pages, invite, width=width, height=PHONE["height"])
    moves = (
        "D 2,1,0 2,2,0 + 2,2,1",
        "L 0,0,0 0,0,1 0,0,2 1,0,2 + 1,0,3",
        "I 0,0,3 0,1,3 0,2,3 + 0,2,4",  # falls: it tips over the edge of the L
        "I 0,2,0 1,2,0 2,2,0 + 1,2,1",
        "L 0,0,0 0,1,0 1,0,0 2,0,0 + 1,0,1",
        "D 2,1,0 2,1,1 + 2,1,2",
    )
    # alone at the table, the pool is nobody else's: the tray does not call it shared
    expect(page.get_by_test_id("tray").locator(".small")).to_have_text("Your pieces (the round's pool):")
    expect(page.get_by_test_id("why-move")).to_be_visible()
    for ply, move in enumerate(moves):
        play_as(page, invite, ply, move)
    until(page, "window.__kumiki.over")
    # nothing is asked about a finished game: the "Why can't I play…" form goes with the other move controls
    expect(page.get_by_test_id("why-move")).to_be_hidden()
    # the end came while round 1's fall was still shown (moves come fast): the board says the game is over at once,
    # not "Round 2 starts on an empty base (click to go on)"
    assert not page.get_by_test_id("fall-banner").is_visible()
    assert page.get_by_test_id("kozo-round").inner_text().startswith("Game over after 2 rounds.")
    over = page.get_by_test_id("game-over")
    expect(over).to_have_text(
        "Game over — you scored 9. The sum of your 2 rounds:\n"
        "Round 1: 0 points — 3 polycubes placed, a tower 4 cubes high, then the third, I, made the tower fall: "
        "I #3 tips over the edge of L #2. The round's 6 points were lost.\n"
        "Round 2: 9 points — every polycube placed (3), a tower 2 cubes high.\n"
        "The best round scored 9."
    )
    assert over.evaluate("e => e.getBoundingClientRect().right") <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


@pytest.mark.parametrize(
    ("rounds", "falls", "rule"),
    [
        (3, 3, "none of them moved in the last round: the first seat of them"),
        (1, 1, "the later last move in the last round"),
    ],
)
def test_the_later_turn_tie_break_says_when_no_tied_player_moved_in_the_last_round(
    server: Any, pages: Any, rounds: int, falls: int, rule: str
) -> None:
    """docs/rules/kozo.md, decision m: tied players who all sat the last round out leave the lowest-numbered winning;
    the page said "the later last move in the last round" when none of them had moved in it."""
    game = kumiki.load_game("kozo", players=3, rounds=rounds, tiebreak="later_turn")
    state = game.new_state()
    topples = "Z4 2,0,0 2,0,1 2,1,1 2,1,2 + 2,1,3"  # standing on one cube, its centre over the cube's edge: it falls
    for move in ("I3 0,2,0 1,2,0 2,2,0 + 2,2,1", "V3 0,0,0 0,1,0 1,0,0 + 0,0,1", *[topples] * falls):
        state.play(move)
    assert state.over and state.scores() == [3.0, 3.0, 0.0]
    record = kumiki.write_record(state, {"Player0": "ann", "Player1": "bob", "Player2": "cy"})
    request = urllib.request.Request(server.url + "/api/records", record.encode(), {"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        imported = json.load(answer)
    page = opened(server, pages, f"/game/{imported['id']}")
    winner = "ann" if state.winners() == [0] else "bob"
    expect(page.get_by_test_id("game-over")).to_contain_text(
        f"ann and bob tied at 3: {winner} wins the tie-break ({rule})"
    )
