""" "Why can't I place here?": a seat asks about a move and hears the rule it breaks, in the engine's words, without
anything being played or stored."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.helpers import create, error, receive_until, url, view_at


def ask(ws: object, move: object) -> dict[str, object]:
    ws.send_json({"type": "why", "move": move})  # type: ignore[attr-defined]
    return receive_until(ws, lambda m: m["type"] in ("why", "error"))


def test_a_seat_hears_why_a_move_is_refused_and_nothing_is_played(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], seed=1)
    with client.websocket_connect(url(game, 1)) as bob, client.websocket_connect(url(game, 0)) as ann:
        view = receive_until(bob, view_at(0))
        far = ask(bob, "B 3,3")
        assert far == {"type": "why", "move": "B 3,3", "legal": False, "reason": "B 3,3: not next to any tile"}
        assert ask(bob, "F 1,0")["reason"] == "F 1,0: no flag of yours there"
        nonsense = ask(bob, "hello")
        assert nonsense["legal"] is False and "'hello': not a Kuzushi move" in str(nonsense["reason"])
        legal = ask(bob, view["legal"][0])
        assert legal["legal"] is True and "is a legal move now" in str(legal["reason"])
        assert ask(ann, "B 1,0")["reason"] == "it is seat 1's turn, not yours (seat 0)"
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0  # asking plays nothing


def test_spectators_and_bad_questions_get_one_line(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    with client.websocket_connect(url(game)) as watcher, client.websocket_connect(url(game, 1)) as bob:
        receive_until(watcher, view_at(0))
        assert "spectators" in str(ask(watcher, "B 1,0")["message"])
        for bad in (None, 3, "", "x" * 301):
            answer = ask(bob, bad)
            assert answer["type"] == "error" and answer["code"] == "bad_message", answer
        bob.send_json({"type": "nope"})
        assert '"why"' in receive_until(bob, error("bad_message"))["message"]


def test_blokus3d_names_the_rule_a_placement_breaks(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], game="blokus3d", seed=1)
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        answer = ask(ann, "I2 0,0,0 1,0,0")  # outside structure A's outline
        assert answer["legal"] is False and str(answer["reason"]).startswith("I2 0,0,0 1,0,0:")
        assert answer["reason"] != "" and "\n" not in str(answer["reason"])


def test_questions_are_rate_limited_per_seat(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    with client.websocket_connect(url(game, 1)) as bob:
        receive_until(bob, view_at(0))
        answers = [ask(bob, "B 3,3") for _ in range(7)]
        assert [a["type"] for a in answers[:5]] == ["why"] * 5  # five at once
        assert answers[-1]["type"] == "error" and answers[-1]["code"] == "rate_limited"


def test_a_move_with_an_endless_number_is_one_line(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "ann"}]
    game = create(client, seats, game="towerbrix", options={"players": 1, "mode": "solo"})
    huge = "Y1 z " + "9" * 2400 + ",0"
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        ann.send_json({"type": "move", "ply": 0, "move": huge})
        refused = receive_until(ann, error("bad_message"))  # longer than any move: refused before the engine
        assert "at most 2000 characters" in refused["message"] and "\n" not in refused["message"]
        ann.send_json({"type": "move", "ply": 0, "move": "Y1 z " + "9" * 400 + ",0"})
        refused = receive_until(ann, error("illegal"))  # a number too large for any table: the engine's one line
        assert "too large" in refused["message"] and "\n" not in refused["message"]
        big = ask(ann, "Y1 z " + "9" * 280 + ",0")  # finite, but far off any table
        assert big["legal"] is False and "\n" not in str(big["reason"])
