"""The end of a game as the page tells it: the winning team in a game of teams, the team's score in TowerBrix
(not "You won! (19 – 19)"), and who won in the lobby's recent games by name, not by seat number."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright for Python is not installed (pip install 'kumiki[e2e]')")

from playwright.sync_api import expect
from tests.helpers import KOZO_FALLS, until

import kumiki


def _imported(server: Any, game: str, seed: int, **options: Any) -> tuple[dict[str, Any], Any]:
    """A game of random moves played to its end here, imported into the server: (the import's answer, the state)."""
    state = kumiki.load_game(game, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    text = kumiki.write_record(state, {f"Player{p}": f"p{p}" for p in range(state.game.players)})
    request = urllib.request.Request(server.url + "/api/records", text.encode(), {"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer), state


def test_a_game_of_teams_ends_with_the_winning_team_and_its_total(server: Any, pages: Any) -> None:
    imported, state = _imported(server, "kuzushi", 2, players=4, teams=2)
    totals = state.team_scores()
    winners = state.winners()
    assert len(winners) == 2 and totals[0] != totals[1]  # this seed: one team ahead
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    names = " & ".join(f"p{s}" for s in winners)
    expect(page.get_by_test_id("status")).to_have_text(f"Game over. Winner: team {names}.")
    for seat in range(4):
        team = state.teams()[seat]
        expect(page.get_by_test_id(f"team-{seat}")).to_have_text(f"{team + 1} ({totals[team]:g})")
    page.goto(server.url + "/")
    row = page.get_by_role("listitem").filter(has_text="kuzushi: p0 vs p1 vs p2 vs p3")
    expect(row.first).to_contain_text(f"won by {', '.join(f'p{s}' for s in winners)}")


def test_towerbrix_ends_with_the_teams_score_not_a_tied_match(server: Any, pages: Any) -> None:
    imported, state = _imported(server, "towerbrix", 2, players=2)
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    over = page.get_by_test_id("game-over")
    expect(over).to_contain_text(f"Game over — the team scored {state.scores()[0]:g}.")
    expect(over).not_to_contain_text("won")
    page.goto(server.url + "/")
    row = page.get_by_role("listitem").filter(has_text="towerbrix: p0 vs p1").first
    expect(row).to_contain_text(f"over, the team scored {state.scores()[0]:g} ")  # its score, whatever it is
    expect(row).not_to_contain_text("shared by everyone")


@pytest.mark.parametrize(("game", "seed"), [("kozo", 3), ("towerbrix", 2)])
def test_the_lobby_gives_a_solo_games_score_not_a_win(server: Any, pages: Any, game: str, seed: int) -> None:
    """One player has nobody to share a win with and no one to beat: the lobby's recent games give the score, as the
    game page does ("p0 scored 31"), not "won by p0" (Kozo) or "won by nobody" (TowerBrix)."""
    _imported_answer, state = _imported(server, game, seed, players=1)
    page = pages()
    page.goto(server.url + "/")
    row = page.get_by_role("listitem").filter(has_text=f"{game}: p0").first
    expect(row).to_contain_text(f"over, p0 scored {state.scores()[0]:g} ")
    expect(row).not_to_contain_text("won by")


def test_two_computers_of_one_level_are_named_apart(server: Any, pages: Any) -> None:
    """Two random computers at one table: the resign question, the result, the status and the lobby's recent games
    name each by its seat ("random computer (seat 1)"), not twice the same name."""
    seats = [
        {"kind": "human", "name": "ann"},
        {"kind": "agent", "level": "random"},
        {"kind": "agent", "level": "random"},
    ]
    created = server.create("kuzushi", seats, players=3)
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.toMove === 0 && window.__kumiki.legal > 0")
    both = "random computer (seat 1), random computer (seat 2)"
    expect(page.get_by_test_id("score-1")).to_contain_text("random computer (seat 1)")
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("resign-ask")).to_contain_text(f"Resign this game? {both} win.")
    page.get_by_test_id("resign-confirm").click()
    until(page, "window.__kumiki.over")
    expect(page.get_by_test_id("status")).to_have_text(f"Game over. Winners: {both}.")
    expect(page.get_by_test_id("game-over")).to_contain_text(f"A shared win: {both} (")
    page.goto(server.url + "/")
    row = page.get_by_role("listitem").filter(has_text=f"kuzushi: ann vs {both.replace(', ', ' vs ')}")
    expect(row.first).to_contain_text(f"won by {both}")


def test_two_of_three_teams_sharing_the_win_is_no_draw(server: Any, pages: Any) -> None:
    """Kuzushi, six players in three teams: the seat that resigns loses with its partner, and the other two teams share
    the win. The page said "A draw" (between the teams), as if the resigning team had not lost."""
    seats = [{"kind": "human", "name": "ann"}] + [{"kind": "agent", "level": "random"} for _ in range(5)]
    created = server.create("kuzushi", seats, players=6, teams=3)
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.toMove === 0 && window.__kumiki.legal > 0")
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    until(page, "window.__kumiki.over")
    bot = "random computer (seat {})".format
    teams = f"team {bot(1)} & {bot(4)}, team {bot(2)} & {bot(5)}"  # seat i plays for team i mod 3
    expect(page.get_by_test_id("status")).to_have_text(f"Game over. Winners: {teams}.")
    expect(page.get_by_test_id("game-over")).to_contain_text(f"A shared win: {teams} (")
    expect(page.get_by_test_id("game-over")).not_to_contain_text("draw")


def test_the_lobby_counts_a_game_of_one_move_as_one_move(server: Any, pages: Any) -> None:
    """Kuzushi's player 1 moves first: a game against the computer has one move when the person comes to play."""
    created = server.create("kuzushi", [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}])
    page = pages()
    page.goto(server.url + created["seats"][0]["invite"])
    until(page, "window.__kumiki.ply === 1 && window.__kumiki.toMove === 0")
    page.goto(server.url + "/")
    row = page.get_by_role("listitem").filter(has_text="kuzushi: ann vs random computer")
    expect(row.first).to_contain_text("playing, 1 move ")
    expect(row.first).not_to_contain_text("1 moves")


def test_a_tie_in_tiles_says_the_largest_group_decided(server: Any, pages: Any) -> None:
    """Kuzushi: "The most tiles on the table wins; a tie goes to the largest connected group." A win at 18 – 18 says
    why: the winner's largest group against the other's."""
    imported, state = _imported(server, "kuzushi", 11)  # this seed: 18 – 18, p1 wins on the largest group
    assert state.scores() == [18.0, 18.0] and state.winners() == [1]
    mine, theirs = state.island([1]), state.island([0])
    assert mine > theirs
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    expect(page.get_by_test_id("game-over")).to_have_text(
        f"Game over — won by p1 (18 – 18) — the grid is full; tied at 18 tiles, p1 has the largest group ({mine} tiles"
        f" to {theirs})."
    )


def test_teams_tied_on_their_own_groups_name_the_players_group(server: Any, pages: Any) -> None:
    """With ``team_island="own"`` a tie of teams goes to the team of the player with the largest group of their own
    tiles, and the page's reason gives those groups, not the teams' tiles joined (which would have named the losers)."""
    imported, state = _imported(server, "kuzushi", 44, players=4, teams=2, team_island="own")
    assert state.team_scores() == [32.0, 32.0] and state.winners() == [1, 3]  # this seed: joined, team 0 & 2 wins
    mine = max(state.island([1]), state.island([3]))
    theirs = max(state.island([0]), state.island([2]))
    assert mine > theirs and state.island([0, 2]) > state.island([1, 3])
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    expect(page.get_by_test_id("game-over")).to_contain_text(
        f"tied at 32 tiles, team p1 & p3 has the largest group ({mine} tiles to {theirs})."
    )


def test_the_replay_ends_with_the_result(server: Any, pages: Any) -> None:
    """Stepped to its last move, a finished game's replay says the result and why the game ended in the game page's
    words (a tie says what broke it); a co-operative game's result is the team's score, not a win."""
    imported, state = _imported(server, "kuzushi", 11)  # 18 – 18, p1 wins on the largest group
    mine, theirs = state.island([1]), state.island([0])
    moves = len(state.history)
    page = pages()
    page.goto(f"{server.url}/replay/{imported['id']}")
    status, over = page.get_by_test_id("status"), page.get_by_test_id("game-over")
    expect(status).to_contain_text(f"Move 0 of {moves}")
    expect(status).not_to_contain_text("Game over")
    expect(over).to_be_hidden()
    page.keyboard.press("End")
    expect(status).to_have_text(f"Move {moves} of {moves}: {state.history[-1]} — Game over. Winner: p1.")
    expect(over).to_have_text(
        f"Game over — won by p1 (18 – 18) — the grid is full; tied at 18 tiles, p1 has the largest group ({mine} tiles"
        f" to {theirs})."
    )
    page.keyboard.press("ArrowLeft")  # the game goes on there: no result
    expect(status).to_have_text(f"Move {moves - 1} of {moves}: {state.history[-2]}")
    expect(over).to_be_hidden()
    imported, state = _imported(server, "towerbrix", 2, players=2)
    page.goto(f"{server.url}/replay/{imported['id']}")
    expect(status).to_contain_text(f"Move 0 of {len(state.history)}")  # loaded: the keys step it
    page.keyboard.press("End")
    expect(status).to_contain_text("— Game over.")
    expect(over).to_contain_text(f"Game over — the team scored {state.scores()[0]:g}. {state.public_view()['verdict']}")
    expect(over).not_to_contain_text("won")


@pytest.mark.parametrize(
    ("game", "seed", "options"),
    [("kozo", 3, {"players": 1}), ("towerbrix", 2, {"players": 1}), ("kuzushi", 11, {}), ("blokus3d", 1, {})],
)
def test_the_replay_ends_as_the_game_page_did(
    server: Any, pages: Any, game: str, seed: int, options: dict[str, Any]
) -> None:
    """The replay's last position says what the game page says of the finished game, word for word: a solo game
    its score and why it ended (a solo Kozo game round by round), never "won by p0"."""
    imported, state = _imported(server, game, seed, **options)
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    over = page.get_by_test_id("game-over")
    expect(over).to_contain_text("Game over")
    said = over.inner_text()
    page.goto(f"{server.url}/replay/{imported['id']}")
    expect(page.get_by_test_id("status")).to_contain_text(f"Move 0 of {len(state.history)}")
    page.get_by_test_id("replay-last").click()
    expect(over).to_have_text(said)
    if state.game.players == 1:
        assert said.startswith(f"Game over — p0 scored {state.scores()[0]:g}.") and "won" not in said
        expect(page.get_by_test_id("status")).to_have_text(
            f"Move {len(state.history)} of {len(state.history)}: {state.history[-1]} — Game over."
        )
    if game == "kozo":
        assert "The sum of the 3 rounds" in said and "Round 3: " in said  # the reason, round by round


def test_a_finished_towerbrix_game_shows_the_last_tower_judged(server: Any, pages: Any) -> None:
    """The rules clear the table after each evaluation, so a finished game's table would be empty: the game page
    (and the replay at its last move) draw the last tower judged instead, labelled as such; a step back in the
    replay (the game going on) shows the table as it was."""
    imported, state = _imported(server, "towerbrix", 2, players=2)
    view = state.to_json()
    last = view["evaluations"][-1]
    judged = sorted(brick["id"] for brick in last["bricks"])
    assert view["bricks"] == [] and judged  # this seed: an empty table at the end, a tower in the last evaluation
    points = f"{last['points']} point{'' if last['points'] == 1 else 's'}"
    label = (
        f"Last tower judged: round {last['round']}, attempt {last['attempt']} — "
        f"{'success' if last['success'] else 'failed'}, {points}"
    )
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    until(page, "window.__kumiki.over && window.__kumiki.towerbrix")
    expect(page.get_by_test_id("last-tower")).to_have_text(label)
    assert sorted(page.evaluate("window.__kumiki.towerbrix.drawn")) == judged
    assert page.evaluate("window.__kumiki.towerbrix.judged")

    page.goto(f"{server.url}/replay/{imported['id']}")
    status = page.get_by_test_id("status")
    expect(status).to_contain_text(f"Move 0 of {len(state.history)}")
    page.keyboard.press("End")
    banner = page.get_by_test_id("evaluation-banner")
    expect(banner).to_be_visible()  # the evaluation just made, as during the game
    expect(page.get_by_test_id("last-tower")).to_be_hidden()
    banner.click()
    expect(banner).to_be_hidden()
    expect(page.get_by_test_id("last-tower")).to_have_text(label)
    assert sorted(page.evaluate("window.__kumiki.towerbrix.drawn")) == judged
    page.keyboard.press("ArrowLeft")  # before the last evaluation: the game goes on, the table as it was
    expect(page.get_by_test_id("last-tower")).to_be_hidden()
    before = kumiki.load_game("towerbrix", players=2).new_state(seed=2)
    for move in state.history[:-1]:
        before.play(move)
    on_table = sorted(brick["id"] for brick in before.to_json()["bricks"])
    until(page, "!window.__kumiki.towerbrix.judged")
    assert sorted(page.evaluate("window.__kumiki.towerbrix.drawn")) == on_table


def test_kozo_says_why_the_game_ended(server: Any, pages: Any) -> None:
    """Kozo's rulebook: "The game consists of three rounds ... After three rounds have been played, the player with
    the highest total score wins the game." The result says so: the rounds played, how the last one ended, and
    the totals (here ann topples round 1's tower and bob round 2's, at step 2: 2 – 2, a draw)."""
    record = KOZO_FALLS.replace('[rounds "2"]\n', '[rounds "2"]\n[Player0 "ann"]\n[Player1 "bob"]\n')
    _game, state = kumiki.read_record(record)
    assert state.over and state.scores() == [2.0, 2.0] and [f.player for f in state.falls] == [0, 1]
    request = urllib.request.Request(server.url + "/api/records", record.encode(), {"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        imported = json.load(answer)
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    expect(page.get_by_test_id("game-over")).to_have_text(
        "A draw (2 – 2) — after 2 rounds (the last ended when bob made the tower fall); the highest total wins: "
        "ann 2, bob 2."
    )


def test_the_replay_page_asks_for_the_changes_and_shows_every_evaluation(server: Any, pages: Any) -> None:
    """The replay page asks for each position as its change from the one before (TowerBrix's evaluations sent once,
    not in every position) and shows the positions as they were: no evaluation at the start, every one at the end,
    and as many as had been made a step back before the last one."""
    imported, state = _imported(server, "towerbrix", 2, players=2)
    evaluations = state.evaluations  # type: ignore[attr-defined]
    made = [int(e["moves"]) for e in evaluations]
    assert len(made) >= 2 and made[-1] == len(state.history)  # this seed: the last move is judged
    page = pages()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/replay" in request.url else None)
    page.goto(f"{server.url}/replay/{imported['id']}")
    status = page.get_by_test_id("status")
    expect(status).to_contain_text(f"Move 0 of {len(state.history)}")
    assert any(url.endswith(f"/api/games/{imported['id']}/replay?changes=1") for url in asked)
    expect(page.get_by_test_id("evaluation-0")).to_have_count(0)
    page.keyboard.press("End")
    expect(status).to_contain_text("— Game over.")
    expect(page.get_by_test_id(f"evaluation-{len(made) - 1}")).to_have_count(1)
    page.keyboard.press("ArrowLeft")  # before the last evaluation: the ones made before it
    expect(page.get_by_test_id(f"evaluation-{len(made) - 2}")).to_have_count(1)
    expect(page.get_by_test_id(f"evaluation-{len(made) - 1}")).to_have_count(0)
    page.keyboard.press("Home")
    expect(page.get_by_test_id("evaluation-0")).to_have_count(0)


def test_the_lobby_says_a_challenge_met_or_not_and_a_draw(server: Any, pages: Any) -> None:
    """A TowerBrix challenge scores a point a round met, no score to read: the lobby says whether the team met it, as
    the game page does; a game every side wins (Kozo's 2 – 2 here) is a draw, not a win "shared by everyone"."""
    imported, state = _imported(server, "towerbrix", 2, players=2, mode="challenge", challenge=1)
    assert state.round_success == [False]  # random moves: the tower fails
    record = KOZO_FALLS.replace('[rounds "2"]\n', '[rounds "2"]\n[Player0 "ann"]\n[Player1 "bob"]\n')
    _game, kozo = kumiki.read_record(record)
    assert kozo.winners() == [0, 1]
    request = urllib.request.Request(server.url + "/api/records", record.encode(), {"Content-Type": "text/plain"})
    urllib.request.urlopen(request, timeout=10).close()
    page = pages()
    page.goto(f"{server.url}/game/{imported['id']}")
    expect(page.get_by_test_id("game-over")).to_contain_text("Game over — challenge 1 not met.")
    page.goto(server.url + "/")
    expect(page.get_by_role("listitem").filter(has_text="towerbrix: p0 vs p1").first).to_contain_text(
        "over, challenge 1 not met "
    )
    expect(page.get_by_role("listitem").filter(has_text="kozo: ann vs bob").first).to_contain_text("over, a draw ")
