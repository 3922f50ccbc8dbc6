"""Play over the WebSocket: views per connection, every refusal (which changes nothing), agents, undo, reconnect."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

import kumiki
from kumiki.server.agents import make_pool
from kumiki.server.limits import Limits

EASY = {"kind": "agent", "level": "easy"}


def test_each_connection_gets_its_own_view_and_only_the_seat_to_move_its_legal_moves(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], seed=3)
    expected = kumiki.load_game("kuzushi", players=2).new_state(seed=3)
    with (
        client.websocket_connect(url(game, 1)) as bob,
        client.websocket_connect(url(game, 0)) as ann,
        client.websocket_connect(url(game)) as spectator,
    ):
        bobs, anns, watchers = (receive_until(ws, view_at(0)) for ws in (bob, ann, spectator))
        assert bobs["seat"] == 1 and bobs["to_move"] == 1
        assert bobs["legal"] == [str(m) for m in expected.legal_moves()]
        assert anns["seat"] == 0 and anns["legal"] == [] and watchers["seat"] is None and watchers["legal"] == []
        assert bobs["view"] == expected.view(1) and anns["view"] == expected.view(0)
        assert watchers["view"] == expected.public_view()
        move = bobs["legal"][0]
        bob.send_json({"type": "move", "ply": 0, "move": move})
        expected.play(move)
        for ws, seat in ((bob, 1), (ann, 0), (spectator, None)):
            view = receive_until(ws, view_at(1))
            assert view["last"] == move and view["history"] == [move] and view["to_move"] == 0
            assert view["scores"] == expected.scores()
            assert view["view"] == (expected.public_view() if seat is None else expected.view(seat))
            assert view["seats"][0]["connected"] and view["seats"][1]["connected"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 1


def _refused(ws: object, message: object, code: str) -> dict:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))  # type: ignore[attr-defined]
    answer = receive_until(ws, lambda m: m["type"] == "error")
    assert answer["code"] == code and answer["message"] and "\n" not in answer["message"]
    return answer


def test_every_refusal_is_a_clear_error_and_changes_nothing(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN], seed=5)
    with client.websocket_connect(url(game, 1)) as bob, client.websocket_connect(url(game, 0)) as ann:
        legal = receive_until(bob, view_at(0))["legal"]
        receive_until(ann, view_at(0))
        _refused(ann, {"type": "move", "ply": 0, "move": legal[0]}, "not_your_turn")
        assert receive_until(ann, lambda m: m["type"] == "view")["ply"] == 0  # a fresh view follows
        _refused(bob, {"type": "move", "ply": 3, "move": legal[0]}, "stale")
        _refused(bob, {"type": "move", "ply": 0, "move": "B 9,9"}, "illegal")
        _refused(bob, {"type": "move", "ply": 0, "move": "hello"}, "illegal")
        _refused(bob, {"type": "move", "ply": "0", "move": legal[0]}, "bad_message")
        _refused(bob, "{not json", "bad_message")
        assert "a message is a JSON object" in _refused(bob, "[1, 2]", "bad_message")["message"]
        long = _refused(bob, {"type": "move", "ply": 0, "move": "B 1,0" + "0" * 5_000}, "bad_message")
        assert "at most 2000 characters" in long["message"] and len(long["message"]) < 200  # not echoed back
        _refused(bob, {"type": "draw"}, "bad_message")  # no draw offers (a resignation is "resign")
        _refused(bob, {"type": "undo"}, "no_undo")
        _refused(bob, {"type": "move", "ply": 0, "move": "B 1,0" + " " * 20_000}, "too_large")
        bob.send_json({"type": "sync"})
        assert receive_until(bob, lambda m: m["type"] == "view")["ply"] == 0
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["moves"] == 0 and summary["to_move"] == 1


def test_a_spectator_cannot_move_and_a_wrong_token_is_refused(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(url(game)) as spectator:
        legal = receive_until(spectator, view_at(0))
        assert legal["legal"] == []
        _refused(spectator, {"type": "move", "ply": 0, "move": "B 1,0"}, "forbidden")
    with client.websocket_connect(f"/ws/games/{game['id']}?token=guess") as ws:
        assert ws.receive_json()["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    other = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/games/{game['id']}?token={other['seats'][1]['token']}") as ws:
        assert ws.receive_json()["code"] == "forbidden"  # a token opens its own game only
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json() == {"type": "error", "code": "not_found", "message": "no game 'nope'"}
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0


def test_messages_are_rate_limited_per_connection(serve: Callable[..., TestClient]) -> None:
    client = serve(limits=Limits(ws_rate=0.001, ws_burst=3))
    game = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(url(game, 1)) as ws:
        receive_until(ws, view_at(0))
        for _ in range(5):
            ws.send_json({"type": "sync"})
        kinds = [ws.receive_json() for _ in range(5)]
        assert [m["type"] for m in kinds] == ["view", "view", "view", "error", "error"]
        assert kinds[-1]["code"] == "rate_limited"


def test_connections_are_limited_per_address_and_freed_when_they_close(serve: Callable[..., TestClient]) -> None:
    limits = Limits(sockets_per_address=2)
    client = serve(limits=limits)
    game = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(url(game, 0)) as first, client.websocket_connect(url(game)) as second:
        receive_until(first, view_at(0))
        receive_until(second, view_at(0))
        with client.websocket_connect(url(game, 1)) as third:
            refused = third.receive_json()
            assert refused == {
                "type": "error",
                "code": "too_many_connections",
                "message": "at most 2 connections at once from one address",
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 4429
        first.send_json({"type": "sync"})  # the two open ones are served as before
        receive_until(first, view_at(0))
    with client.websocket_connect(url(game, 1)) as again:  # both closed: their places are free
        assert receive_until(again, view_at(0))["seat"] == 1
        assert limits.sockets == {"testclient": 1}  # the refused one was never counted, the closed ones given back


def _play_out(ws: object, seat: int, rng: random.Random) -> dict:
    """Play random legal moves for ``seat`` until the game is over; the final view."""
    while True:
        view = receive_until(ws, lambda m: m["type"] == "view" and (m["over"] or m["to_move"] == seat))
        if view["over"]:
            return view
        ws.send_json({"type": "move", "ply": view["ply"], "move": rng.choice(view["legal"])})  # type: ignore[attr-defined]


def test_a_human_plays_an_easy_computer_to_the_end_and_the_record_replays(client: TestClient) -> None:
    game = create(client, [EASY, HUMAN], seed=11)
    with client.websocket_connect(url(game, 1)) as ws:
        final = _play_out(ws, 1, random.Random(1))
    assert final["over"] and final["winners"] and final["to_move"] is None
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "over" and summary["winners"] == final["winners"]
    assert summary["moves"] == len(final["history"])
    _game, state = kumiki.read_record(client.get(f"/api/games/{game['id']}/record").text)
    assert [str(m) for m in state.history] == final["history"] and state.public_view() == final["view"]


def test_two_humans_play_blokus3d_moves_through_the_server(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN], game="blokus3d", seed=2)
    expected = kumiki.load_game("blokus3d", players=2).new_state(seed=2)
    sockets = {}
    with client.websocket_connect(url(game, 0)) as a, client.websocket_connect(url(game, 1)) as b:
        sockets = {0: a, 1: b}
        for ply in range(4):
            seat = expected.to_move
            view = receive_until(sockets[seat], lambda m, p=ply: m["type"] == "view" and m["ply"] == p)
            assert view["view"] == expected.view(seat) and view["legal"]
            move = view["legal"][len(view["legal"]) // 2]
            sockets[seat].send_json({"type": "move", "ply": ply, "move": move})
            expected.play(move)
        final = receive_until(a, view_at(4))
    assert final["history"] == [str(m) for m in expected.history]


def test_agents_think_in_a_real_worker_process(serve: Callable[..., TestClient]) -> None:
    client = serve(pool_factory=make_pool)
    game = create(client, [{"kind": "agent", "level": "medium"}, HUMAN], seed=4)
    with client.websocket_connect(url(game, 1)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        reply = receive_until(ws, view_at(2), limit=20)
    assert reply["to_move"] == 1 and len(reply["history"]) == 2


def test_undo_takes_back_the_human_move_and_the_agent_reply(client: TestClient) -> None:
    game = create(client, [EASY, {"kind": "human", "name": "solo"}], seed=9, undo=True)
    with client.websocket_connect(url(game, 1)) as ws:
        start = receive_until(ws, view_at(0))
        assert start["undo"] is True
        ws.send_json({"type": "move", "ply": 0, "move": start["legal"][0]})
        after = receive_until(ws, view_at(2))
        ws.send_json({"type": "move", "ply": 2, "move": after["legal"][0]})
        receive_until(ws, view_at(4))
        ws.send_json({"type": "undo"})
        back = receive_until(ws, view_at(2))
        assert back["history"] == after["history"] and back["view"] == after["view"] and back["to_move"] == 1
        ws.send_json({"type": "undo"})
        assert receive_until(ws, view_at(0))["view"] == start["view"]
        _refused(ws, {"type": "undo"}, "no_undo")
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0


def test_a_finished_game_is_not_taken_back(client: TestClient) -> None:
    game = create(client, [EASY, {"kind": "human", "name": "solo"}], seed=11, undo=True)
    with client.websocket_connect(url(game, 1)) as ws:
        final = _play_out(ws, 1, random.Random(1))
        refusal = _refused(ws, {"type": "undo"}, "no_undo")
        assert refusal["message"] == "the game is over: its result stands"
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "over" and summary["moves"] == len(final["history"])


def test_a_reconnecting_client_gets_the_same_position(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN], seed=6)
    with client.websocket_connect(url(game, 1)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][-1]})
        before = receive_until(ws, view_at(1))
    with client.websocket_connect(url(game, 1)) as ws:
        again = receive_until(ws, lambda m: m["type"] == "view")
        assert again["ply"] == 1 and again["view"] == before["view"] and again["history"] == before["history"]
        _refused(ws, {"type": "move", "ply": 0, "move": view["legal"][0]}, "stale")  # the old tab's move
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 1


def test_an_agent_that_moves_first_starts_at_once(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "agent", "agent": "random"}], seed=2)
    assert game["seats"][1] == {"seat": 1, "kind": "agent", "level": "random", "name": "random computer"}
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(1))
        assert view["to_move"] == 0 and view["legal"] and len(view["history"]) == 1
