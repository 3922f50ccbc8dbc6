"""Talking at the table: chat lines and signals, live to every connection, stored with the game (so they survive a
restart and show in replays), length- and rate-limited, and challenge 3 (Trade Secret) refusing free text."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, error, receive_until, url, view_at


def chat_with(predicate: Any) -> Any:
    return lambda m: m["type"] == "chat" and predicate(m)


def test_a_chat_line_and_a_signal_reach_everyone_and_are_kept(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    with client.websocket_connect(url(game, 0)) as ann, client.websocket_connect(url(game, 1)) as bob:
        first = receive_until(ann, view_at(0))
        assert first["chat"] == 0 and first["silent"] is False
        receive_until(bob, view_at(0))
        ann.send_json({"type": "chat", "text": "  <b>hello</b>   bob  "})
        line = receive_until(bob, chat_with(lambda m: bool(m["entries"])))["entries"][0]
        assert (line["seat"], line["kind"], line["text"]) == (0, "text", "<b>hello</b> bob")  # kept as text: the
        # client shows it with textContent, never as HTML
        bob.send_json({"type": "signal", "signal": "look", "at": "1,0"})
        signal = receive_until(ann, chat_with(lambda m: m["entries"][-1]["kind"] == "signal"))["entries"][-1]
        assert (signal["seat"], signal["text"], signal["at"]) == (1, "look", "1,0")
    with client.websocket_connect(url(game)) as spectator:  # a newcomer learns how much was said, and reads it
        assert receive_until(spectator, view_at(0))["chat"] == 2
        history = client.get(f"/api/games/{game['id']}/chat").json()
        assert [e["text"] for e in history] == ["<b>hello</b> bob", "look"]
        spectator.send_json({"type": "chat", "text": "hi"})
        assert "spectators cannot talk" in receive_until(spectator, error("forbidden"))["message"]
    assert [e["index"] for e in client.get(f"/api/games/{game['id']}/chat").json()] == [0, 1]


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "chat", "text": ""}, "a chat message is"),
        ({"type": "chat", "text": 5}, "a chat message is"),
        ({"type": "chat", "text": "x" * 201}, "at most 200 characters"),
        ({"type": "chat", "text": "bell\\u0007"}, "printable"),
        ({"type": "signal", "signal": "shout"}, "a signal is one of yes, no, wait, look"),
        ({"type": "signal", "signal": "look", "at": "<script>"}, "points at a brick or a cell"),
    ],
)
def test_bad_chat_is_refused_in_one_line(client: TestClient, message: dict[str, Any], words: str) -> None:
    game = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(url(game, 0)) as ws:
        receive_until(ws, view_at(0))
        if message.get("text") == "bell\\u0007":
            message = {**message, "text": "bell\u0007"}
        ws.send_json(message)
        refusal = receive_until(ws, error("bad_message"))
        assert words in refusal["message"] and "\n" not in refusal["message"]
    assert client.get(f"/api/games/{game['id']}/chat").json() == []


def test_chat_is_rate_limited_per_seat(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(url(game, 0)) as ws:
        receive_until(ws, view_at(0))
        for k in range(6):
            ws.send_json({"type": "chat", "text": f"line {k}"})
        assert "slow down" in receive_until(ws, error("rate_limited"))["message"]
    assert len(client.get(f"/api/games/{game['id']}/chat").json()) == 5


def test_a_seat_that_reconnects_does_not_get_its_chat_allowance_back(client: TestClient) -> None:
    """The allowance was made afresh with the room: a player alone at the table who reconnected (the room leaves
    memory with its last connection) said 5 lines each time, and filled the table's 2,000 lines in 17 s, silencing
    everyone for the rest of the game. The allowance now starts where the stored chat's times leave it."""
    game = create(client, [HUMAN, HUMAN])
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for attempt in range(3):
        with client.websocket_connect(url(game, 0)) as ws:
            receive_until(ws, view_at(0))
            ws.send_json({"type": "chat", "text": f"again {attempt}"})
            answer = receive_until(ws, lambda m: m["type"] == "error" or chat_with(lambda c: True)(m))
            if attempt == 0:
                for k in range(4):
                    ws.send_json({"type": "chat", "text": f"line {k}"})
                    receive_until(ws, chat_with(lambda m, k=k: m["entries"][0]["text"] == f"line {k}"))
            else:
                assert answer["type"] == "error" and answer["code"] == "rate_limited", answer
        deadline = time.monotonic() + 10
        while game["id"] in hub.rooms and time.monotonic() < deadline:  # the room leaves memory
            time.sleep(0.01)
        assert game["id"] not in hub.rooms
    assert len(client.get(f"/api/games/{game['id']}/chat").json()) == 5
    with client.websocket_connect(url(game, 1)) as ws:  # another seat has its own allowance
        receive_until(ws, view_at(0))
        ws.send_json({"type": "chat", "text": "hello"})
        receive_until(ws, chat_with(lambda m: m["entries"][0]["text"] == "hello"))


def test_challenge_3_allows_gestures_only(client: TestClient) -> None:
    options = {"players": 2, "mode": "challenge", "challenge": 3}
    game = create(client, [HUMAN, HUMAN], game="towerbrix", seed=1, options=options)
    with client.websocket_connect(url(game, 0)) as ws:
        assert receive_until(ws, view_at(0))["silent"] is True
        ws.send_json({"type": "chat", "text": "put the red one on top"})
        assert "Trade Secret" in receive_until(ws, error("silence"))["message"]
        ws.send_json({"type": "signal", "signal": "yes"})
        assert receive_until(ws, chat_with(lambda m: bool(m["entries"])))["entries"][0]["text"] == "yes"
