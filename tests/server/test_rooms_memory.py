"""A room leaves memory once nobody uses it (no one connected, no agent thinking) and comes back from the database,
exactly as it was, when someone does: a club's server holds only its live games."""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

import kumiki

EASY = {"kind": "agent", "level": "easy"}


def _live(client: TestClient) -> dict:
    return client.app.state.hub.rooms  # type: ignore[attr-defined,no-any-return]


def _until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_a_room_leaves_memory_when_the_last_player_goes_and_comes_back_as_it_was(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN], seed=4)
    with client.websocket_connect(url(game, 1)) as bob, client.websocket_connect(url(game, 0)) as ann:
        move = receive_until(bob, view_at(0))["legal"][0]
        bob.send_json({"type": "move", "ply": 0, "move": move})
        receive_until(ann, view_at(1))
        assert game["id"] in _live(client)
    assert _until(lambda: game["id"] not in _live(client))
    with client.websocket_connect(url(game, 0)) as ann:
        view = receive_until(ann, view_at(1))
        assert view["history"] == [move] and view["to_move"] == 0
        assert game["id"] in _live(client)
        with client.websocket_connect(url(game)) as spectator:
            receive_until(spectator, view_at(1))
        assert game["id"] in _live(client)  # ann is still there
    assert _until(lambda: game["id"] not in _live(client))


def test_an_agent_game_nobody_watches_stays_only_while_the_agent_thinks(client: TestClient) -> None:
    first = kumiki.load_game("kuzushi", players=2).new_state(seed=6).to_move
    seats = [EASY, HUMAN] if first == 0 else [HUMAN, EASY]
    game = create(client, seats, seed=6)  # the agent moves first, and nobody connects
    assert _until(lambda: client.get(f"/api/games/{game['id']}").json()["moves"] == 1)
    assert _until(lambda: game["id"] not in _live(client))
    _game, state = kumiki.read_record(client.get(f"/api/games/{game['id']}/record").text)
    assert len(state.history) == 1
    assert game["id"] not in _live(client)  # reading the record does not keep it
    human = 1 - first
    with client.websocket_connect(url(game, human)) as ws:
        assert receive_until(ws, view_at(1))["to_move"] == human


def test_a_refused_token_does_not_keep_the_room(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN], seed=2)
    with client.websocket_connect(f"/ws/games/{game['id']}?token=wrong") as ws:
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "forbidden"
    assert _until(lambda: game["id"] not in _live(client))
