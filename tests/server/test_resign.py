"""Resigning: a person's seat gives up a game played against others; the game ends there, every other side wins,
and the result is stored, kept over a restart, and noted in the record (no rule ended the game: no Result tag)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient
from tests.server.helpers import create, error, receive_until, url, view_at

import kumiki

ANN_BOB = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def over(message: dict) -> bool:
    return message["type"] == "view" and message["over"]


def test_a_resignation_ends_the_game_for_the_other_side_and_is_stored(serve: Callable[..., TestClient]) -> None:
    client = serve()
    game = create(client, ANN_BOB, seed=4)
    with (
        client.websocket_connect(url(game, 0)) as ann,
        client.websocket_connect(url(game, 1)) as bob,
        client.websocket_connect(url(game)) as spectator,
    ):
        start = receive_until(bob, view_at(0))
        assert start["may_resign"] is True and start["resigned"] is None
        assert receive_until(spectator, view_at(0))["may_resign"] is False
        move = start["legal"][0]
        bob.send_json({"type": "move", "ply": 0, "move": move})
        receive_until(ann, view_at(1))
        spectator.send_json({"type": "resign"})
        assert "spectators cannot resign" in receive_until(spectator, error("forbidden"))["message"]
        bob.send_json({"type": "resign"})  # not bob's turn: a resignation needs none
        for ws in (ann, bob, spectator):
            view = receive_until(ws, over)
            assert view["resigned"] == 1 and view["winners"] == [0] and view["ply"] == 1
            assert view["to_move"] is None and view["actors"] == [] and view["legal"] == []
            assert view["may_resign"] is False
        ann.send_json({"type": "move", "ply": 1, "move": "B 0,1"})
        assert receive_until(ann, error("illegal"))["message"] == "the game is over"
        ann.send_json({"type": "resign"})
        assert receive_until(ann, error("no_resign"))["message"] == "the game is over"
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "over" and summary["winners"] == [0] and summary["to_move"] is None
    record = client.get(f"/api/games/{game['id']}/record").text
    assert record.endswith(f"{move}\n# seat 1 (bob) resigned; winners: 0\n")
    _game, state = kumiki.read_record(record)  # the moves read back as played; the note is a comment
    assert [str(m) for m in state.history] == [move] and not state.over
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["resigned"] == 1 and replay["winners"] == [0]

    restarted = serve()  # another server on the same database loads the game afresh: still resigned
    with restarted.websocket_connect(url(game, 0)) as ann:
        view = receive_until(ann, view_at(1))
        assert view["over"] and view["resigned"] == 1 and view["winners"] == [0]
        ann.send_json({"type": "rematch"})  # a resigned game is over: play again
        assert receive_until(ann, lambda m: m["type"] == "rematch")["id"] != game["id"]


def test_in_a_team_game_the_resigning_seats_team_loses(client: TestClient) -> None:
    seats = [{"kind": "human", "name": name} for name in ("ann", "bob", "cy", "di")]
    game = create(client, seats, options={"players": 4, "teams": 2}, seed=2)
    with client.websocket_connect(url(game, 2)) as cy:
        assert receive_until(cy, view_at(0))["teams"] == [0, 1, 0, 1]
        cy.send_json({"type": "resign"})
        view = receive_until(cy, over)
        assert view["resigned"] == 2 and view["winners"] == [1, 3]


def test_a_computer_stops_once_its_opponent_resigned(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}], seed=6)
    with client.websocket_connect(url(game, 0)) as ann:
        view = receive_until(ann, lambda m: m["type"] == "view" and m["to_move"] == 0)
        ann.send_json({"type": "resign"})
        assert receive_until(ann, over)["winners"] == [1]
        ann.send_json({"type": "sync"})
        assert receive_until(ann, lambda m: m["type"] == "view")["ply"] == view["ply"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == view["ply"]


def test_a_cooperative_game_has_no_resignation(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}], game="towerbrix", options={"players": 1, "mode": "solo"})
    with client.websocket_connect(url(game, 0)) as ann:
        assert receive_until(ann, view_at(0))["may_resign"] is False
        ann.send_json({"type": "resign"})
        assert "played together" in receive_until(ann, error("no_resign"))["message"]
        ann.send_json({"type": "sync"})
        assert not receive_until(ann, lambda m: m["type"] == "view")["over"]
