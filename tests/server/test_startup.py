"""A restarted server answers at once: the games still going are brought back in the background.

At start the server replayed every unfinished game before it answered anything (20 s for 132 games, 87 of them
Kozo, on the 2-core machine), so a club with years of abandoned games waited for its lobby. Now the lobby, a game
page and a record answer while the stored games are replayed off the event loop, one at a time; a computer seat
that was to move plays again without anyone connecting, and the games whose computer is to move come back first.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kumiki.server import hub as hub_module

from .helpers import HUMAN, create, receive_until, resumed, url, view_at
from .test_recovery import Stuck

EASY = {"kind": "agent", "level": "easy"}
SLOW = 0.6  # seconds each stored game takes to replay here


def _stored_games(serve: Callable[..., TestClient]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Four games of two people at ply 1 and one against the computer whose computer is to move (its first search
    never answered: the server stopped meanwhile), on a database the server then stopped."""
    first = serve(pool_factory=Stuck)
    people = [create(first, [HUMAN, HUMAN], seed=8) for _ in range(4)]
    versus = create(first, [EASY, HUMAN], seed=8)  # seat 1 moves first
    for game in [*people, versus]:
        with first.websocket_connect(url(game, 1)) as ws:
            view = receive_until(ws, view_at(0))
            ws.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
            receive_until(ws, view_at(1))
    first.__exit__(None, None, None)
    return people, versus


def test_a_restarted_server_answers_while_its_stored_games_are_brought_back(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    people, versus = _stored_games(serve)
    replayed: list[str] = []
    real = hub_module.rebuild

    def slow(row: Any, moves: Any) -> Any:
        time.sleep(SLOW)  # a costly game to replay
        replayed.append(row.id)
        return real(row, moves)

    monkeypatch.setattr(hub_module, "rebuild", slow)
    second = serve()  # returns once the server has started: before, once all five games were replayed (3 s here)
    hub = second.app.state.hub  # type: ignore[attr-defined]
    lobby = second.get("/api/games")
    assert lobby.status_code == 200 and len(lobby.json()["games"]) == 5
    assert len(replayed) < 5 and hub.resuming()  # answered while the stored games were still being brought back
    assert second.get(f"/game/{people[3]['id']}").status_code == 200  # a game's page
    assert second.get(f"/api/games/{people[3]['id']}").json()["moves"] == 1
    record = second.get(f"/api/games/{people[3]['id']}/record")  # loaded at once for its asker (or waited for)
    assert record.status_code == 200 and "kumiki web game" in record.text
    assert replayed[0] == versus["id"]  # the game whose computer is to move came back first
    resumed(second)
    assert sorted(set(replayed)) == sorted(g["id"] for g in [*people, versus])


def test_a_computer_that_was_to_move_plays_after_a_restart_with_nobody_connected(
    serve: Callable[..., TestClient],
) -> None:
    _people, versus = _stored_games(serve)
    second = serve()
    deadline = time.monotonic() + 60
    while second.get(f"/api/games/{versus['id']}").json()["moves"] < 2:  # nobody connects: it thinks and plays
        assert time.monotonic() < deadline, "the computer did not move after the restart"
        time.sleep(0.05)
    with second.websocket_connect(url(versus, 1)) as ws:
        view = receive_until(ws, lambda m: m["type"] == "view")
        assert view["ply"] == 2 and view["movers"] == [1, 0] and view["to_move"] == 1


def test_a_game_opened_while_the_games_are_brought_back_is_loaded_once(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player reconnecting during the start-up's walk gets the game the walk loads (or loads it for the walk): one
    room, one replay, and the move played there is the one stored."""
    people, _versus = _stored_games(serve)
    counts: dict[str, int] = {}
    lock = threading.Lock()
    real = hub_module.rebuild

    def counted(row: Any, moves: Any) -> Any:
        time.sleep(SLOW / 2)
        with lock:
            counts[row.id] = counts.get(row.id, 0) + 1
        return real(row, moves)

    monkeypatch.setattr(hub_module, "rebuild", counted)
    second = serve()
    game = people[0]
    with second.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(1))
        ws.send_json({"type": "move", "ply": 1, "move": view["legal"][0]})
        played = receive_until(ws, view_at(2))
        resumed(second)
        assert counts[game["id"]] == 1  # in memory while its player is connected: the walk found it there
    assert second.get(f"/api/games/{game['id']}").json()["moves"] == 2
    assert played["history"][:1] == view["history"]


def test_a_game_whose_replay_fails_unexpectedly_does_not_stop_the_others_coming_back(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Any error replaying one stored game (here a RuntimeError, as Kozo's verdict now raises for a linear program
    HiGHS cannot decide) ended the background walk: every game after it stayed unloaded, its computer never moving
    again, with nothing said but "Task exception was never retrieved". It is logged and the walk goes on."""
    people, versus = _stored_games(serve)
    replayed: list[str] = []
    real = hub_module.rebuild

    def failing(row: Any, moves: Any) -> Any:
        replayed.append(row.id)
        if row.id == versus["id"]:  # the first the walk brings back
            raise RuntimeError("the stand-or-fall linear program failed: HiGHS says 'Unknown'")
        return real(row, moves)

    monkeypatch.setattr(hub_module, "rebuild", failing)
    second = serve()
    resumed(second)
    hub = second.app.state.hub  # type: ignore[attr-defined]
    assert hub.resume_task.exception() is None
    assert sorted(set(replayed)) == sorted(g["id"] for g in [*people, versus])
    assert f"game {versus['id']} could not be brought back" in caplog.text
