"""Play again: once a game is over, a seat asks for a rematch; a new game with the same game, options and seats is
made once, and every connection is told where to go (each seat its own new invite, spectators the address)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from tests.server.helpers import create, error, receive_until, url, view_at

from kumiki.server.agents import NOT_OFFERED
from kumiki.server.limits import Limits
from kumiki.server.storage import rematches_table

SMALL = {"size": 2, "tiles": 2}


def test_a_rematch_after_the_end_keeps_the_seats_and_gives_each_its_invite(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    game = create(client, seats, options=SMALL, seed=1)
    with (
        client.websocket_connect(url(game, 0)) as ann,
        client.websocket_connect(url(game, 1)) as bob,
        client.websocket_connect(url(game)) as spectator,
    ):
        view = receive_until(ann, view_at(0))
        ann.send_json({"type": "rematch"})
        assert "once the game is over" in receive_until(ann, error("not_over"))["message"]
        sockets = {0: ann, 1: bob}
        while not view["over"]:
            mover = view["to_move"]
            sockets[mover].send_json({"type": "move", "ply": view["ply"], "move": view_legal(client, game, mover)})
            view = receive_until(ann, lambda m, p=view["ply"]: m["type"] == "view" and m["ply"] == p + 1)
        spectator.send_json({"type": "rematch"})
        assert "spectators cannot" in receive_until(spectator, error("forbidden"))["message"]
        bob.send_json({"type": "rematch"})
        to_bob = receive_until(bob, lambda m: m["type"] == "rematch")
        to_ann = receive_until(ann, lambda m: m["type"] == "rematch")
        to_watcher = receive_until(spectator, lambda m: m["type"] == "rematch")
        assert to_bob["id"] == to_ann["id"] == to_watcher["id"] != game["id"]
        assert to_ann["invite"] != to_bob["invite"] and "token=" in to_ann["invite"]
        assert to_watcher["invite"] == f"/game/{to_ann['id']}"
        ann.send_json({"type": "rematch"})  # asked again: the same new game
        assert receive_until(ann, lambda m: m["type"] == "rematch")["id"] == to_ann["id"]
    fresh = client.get(f"/api/games/{to_ann['id']}").json()
    old = client.get(f"/api/games/{game['id']}").json()
    assert fresh["options"] == old["options"] and fresh["status"] == "playing" and fresh["moves"] == 0
    assert [s["name"] for s in fresh["seats"]] == ["ann", "bob"]
    token = to_bob["invite"].split("token=")[1]
    with client.websocket_connect(f"/ws/games/{to_ann['id']}?token={token}") as ws:
        assert receive_until(ws, view_at(0))["seat"] == 1  # bob's new link opens bob's seat


def view_legal(client: TestClient, game: dict[str, object], seat: int) -> str:
    """The first legal move of ``seat`` (read from its own connection's view)."""
    with client.websocket_connect(url(game, seat)) as ws:  # type: ignore[arg-type]
        view = receive_until(ws, lambda m: m["type"] == "view")
        return str(view["legal"][0])


def resign_and_rematch(ws: Any) -> dict[str, Any]:
    """Resign the game open on ``ws`` and ask for its rematch: the ``rematch`` message that answers."""
    ws.send_json({"type": "resign"})
    receive_until(ws, lambda m: m["type"] == "view" and m["over"])
    ws.send_json({"type": "rematch"})
    return receive_until(ws, lambda m: m["type"] == "rematch")


def test_rematches_count_against_the_addresss_new_games(serve: Callable[..., TestClient]) -> None:
    """A rematch forgotten (a room let go forgot it, a restarted server did): reconnecting and asking again
    made a new game each time, as fast as a client could ask (50 in under a second), past the limit on
    ``POST /api/games``."""
    client = serve(limits=Limits(http_rate=0.001, http_burst=2))
    game = create(client, [{"kind": "human"}, {"kind": "human"}], options=SMALL, seed=1)  # the first new game
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        first = resign_and_rematch(ann)["id"]  # the second
    assert game["id"] not in client.app.state.hub.rooms  # type: ignore[attr-defined]
    client.app.state.hub.rematches.clear()  # type: ignore[attr-defined]  # forgotten, as a restart forgets it,
    with client.app.state.hub.storage.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(delete(rematches_table))  # and not stored (one made before rematches were stored)
    with client.websocket_connect(url(game, 0)) as ann:
        ann.send_json({"type": "rematch"})  # a third, at once: refused as POST /api/games would be
        refused = receive_until(ann, lambda m: m["type"] in ("error", "rematch"))
        assert refused["type"] == "error" and refused["code"] == "refused" and "too many" in refused["message"]
    listed = [g["id"] for g in client.get("/api/games").json()["games"]]
    assert sorted(listed) == sorted([game["id"], first])
    answer = client.post("/api/games", json={"game": "kuzushi", "seats": [{"kind": "human"}] * 2})
    assert answer.status_code == 429


def test_a_friend_back_after_the_room_was_let_go_joins_the_same_rematch(client: TestClient) -> None:
    """Ann asked for the rematch and went to it; bob, away then (a reload, a tab closed), comes back to the finished
    game: nobody was connected meanwhile, so its room was let go. He is told where the rematch is at once, and asking
    for it gives the same game (the room loaded again had forgotten it: bob's "Play again" made a second new game,
    and the friends waited in two different games)."""
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], options=SMALL, seed=1)
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        to_ann = resign_and_rematch(ann)
    assert game["id"] not in client.app.state.hub.rooms  # type: ignore[attr-defined]
    with client.websocket_connect(url(game, 1)) as bob:
        told = arrival(bob)  # without asking
        assert told is not None and told["id"] == to_ann["id"]
        assert "token=" in told["invite"] and told["invite"] != to_ann["invite"]
        kept = client.app.state.hub.rematches[game["id"]]  # type: ignore[attr-defined]
        assert told["invite"] == {s["seat"]: s.get("invite") for s in kept["seats"]}[1]  # bob's own seat's, not ann's
        bob.send_json({"type": "rematch"})
        assert receive_until(bob, lambda m: m["type"] == "rematch")["id"] == to_ann["id"]
    with client.websocket_connect(url(game)) as spectator:  # a spectator is told the new game's address
        assert (arrival(spectator) or {}).get("invite") == f"/game/{to_ann['id']}"
    listed = [g["id"] for g in client.get("/api/games").json()["games"]]
    assert sorted(listed) == sorted([game["id"], to_ann["id"]])  # one rematch, not two


def arrival(ws: Any) -> dict[str, Any] | None:
    """The ``rematch`` message a connection is sent as it arrives, before the view a sync asks for next; None."""
    receive_until(ws, lambda m: m["type"] == "view")
    ws.send_json({"type": "sync"})
    message = receive_until(ws, lambda m: m["type"] in ("view", "rematch"))
    return message if message["type"] == "rematch" else None


def test_a_restart_keeps_the_rematch_and_sends_each_seat_to_its_own_seat(db_url: str) -> None:
    """The rematch was kept only in the server's memory: after a restart, bob back at the finished game was not told
    where ann had gone, and his "Play again" made a second new game, so the friends waited in two. It is stored with
    the game; the new game's own links were never stored (only their hashes), so a seat is sent there with its own
    link to the finished game, which opens the same seat in its rematch (and in the next one's, a game later)."""
    from kumiki.server import create_app

    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}, {"kind": "agent", "level": "easy"}]
    with TestClient(create_app(db_url)) as first:
        game = create(first, seats, options={"size": 3, "tiles": 2}, seed=1)
        with first.websocket_connect(url(game, 0)) as ann:
            receive_until(ann, lambda m: m["type"] == "view")
            to_ann = resign_and_rematch(ann)
    with TestClient(create_app(db_url)) as again:  # the server restarted
        with again.websocket_connect(url(game, 1)) as bob:
            told = arrival(bob)  # told at once where the rematch is, without asking
            assert told is not None and told["id"] == to_ann["id"]
            bob.send_json({"type": "rematch"})
            assert receive_until(bob, lambda m: m["type"] == "rematch")["id"] == to_ann["id"]
        assert sorted(g["id"] for g in again.get("/api/games").json()["games"]) == sorted([game["id"], to_ann["id"]])
        assert told["invite"] == f"/game/{to_ann['id']}?token={game['seats'][1]['token']}"
        with again.websocket_connect(told["invite"].replace("/game/", "/ws/games/")) as bob:
            view = receive_until(bob, view_at(0))
            assert view["seat"] == 1  # bob's seat, not a spectator's
            bob.send_json({"type": "resign"})
            receive_until(bob, lambda m: m["type"] == "view" and m["over"])
            bob.send_json({"type": "rematch"})  # the next rematch, from the rematch
            third = receive_until(bob, lambda m: m["type"] == "rematch")["id"]
        with again.websocket_connect(url(game)) as spectator:  # a spectator of the first is sent to watch
            assert (arrival(spectator) or {}).get("invite") == f"/game/{to_ann['id']}"
    with TestClient(create_app(db_url)) as later:  # and restarted again: bob's first link still follows him
        with later.websocket_connect(f"/ws/games/{to_ann['id']}?token={game['seats'][1]['token']}") as bob:
            told = arrival(bob)
            assert told is not None and told["id"] == third
        with later.websocket_connect(told["invite"].replace("/game/", "/ws/games/")) as bob:
            assert receive_until(bob, lambda m: m["type"] == "view")["seat"] == 1
        wrong = game["seats"][0]["token"]  # ann's link opens ann's seat, never bob's
        with later.websocket_connect(f"/ws/games/{third}?token={wrong}") as ann:
            assert receive_until(ann, lambda m: m["type"] == "view")["seat"] == 0


def test_a_database_from_before_rematches_were_stored_gains_their_table(db_url: str) -> None:
    """A club's database made before has no ``rematches`` table: opening it adds the table (as chosen_seeds was
    added), its games are kept, and a rematch asked there is stored."""
    from sqlalchemy import inspect

    from kumiki.server import create_app
    from kumiki.server.storage import Storage

    with TestClient(create_app(db_url)) as first:
        game = create(first, [{"kind": "human"}, {"kind": "human"}], options=SMALL, seed=1)
    storage = Storage(db_url)
    rematches_table.drop(storage.engine)  # as the database was before
    assert "rematches" not in inspect(storage.engine).get_table_names()
    storage.close()
    with TestClient(create_app(db_url)) as again:
        assert again.get(f"/api/games/{game['id']}").json()["status"] == "playing"
        with again.websocket_connect(url(game, 0)) as ann:
            receive_until(ann, view_at(0))
            fresh = resign_and_rematch(ann)["id"]
        assert again.app.state.hub.storage.rematch(game["id"]) == fresh  # type: ignore[attr-defined]


def test_a_pruned_rematch_is_no_longer_offered(client: TestClient) -> None:
    """Deleting a rematch (``kumiki prune``) deletes its stored link too (PostgreSQL refuses to delete a game a link
    still names), and the finished game offers a new rematch; deleting the finished game keeps its rematch."""
    game = create(client, [{"kind": "human"}, {"kind": "human"}], options=SMALL, seed=1)
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        fresh = resign_and_rematch(ann)["id"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.storage.delete_games([fresh]) == 1
    hub.rematches.clear()  # (as a restart would)
    assert hub.storage.rematch(game["id"]) is None
    with client.websocket_connect(url(game, 0)) as ann:
        ann.send_json({"type": "rematch"})
        second = receive_until(ann, lambda m: m["type"] == "rematch")["id"]
    assert second != fresh and hub.storage.delete_games([game["id"]]) == 1
    assert client.get(f"/api/games/{second}").json()["status"] == "playing"


def test_a_rematch_of_a_computer_no_longer_offered_there_seats_the_medium_level(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A TowerBrix game made with the greedy computer before it was refused there (it would read the hidden cards):
    its rematch asked for greedy again, was refused, and "play again" failed. The seat now comes back as the medium
    level; the other seats as they were."""
    with monkeypatch.context() as before:
        before.setitem(NOT_OFFERED, "towerbrix", frozenset({"openspiel"}))  # the server as it was
        seats = [{"kind": "human", "name": "ann"}, {"kind": "agent", "agent": "greedy"}]
        short = {"players": 2, "rounds": 1, "attempts": 1, "max_edits": 2, "turns": "cycle"}
        game = create(client, seats, game="towerbrix", options=short, seed=2)
    with client.websocket_connect(url(game, 0)) as ann:
        view = receive_until(ann, lambda m: m["type"] == "view")
        while not view["over"]:  # a game played together has no resignation: two edits end it
            if view["to_move"] == 0:
                ann.send_json({"type": "move", "ply": view["ply"], "move": view["legal"][0]})
            view = receive_until(ann, lambda m, p=view["ply"]: m["type"] == "view" and m["ply"] > p)
        ann.send_json({"type": "rematch"})
        again = receive_until(ann, lambda m: m["type"] in ("rematch", "error"))
        assert again["type"] == "rematch", again
    fresh = client.get(f"/api/games/{again['id']}").json()
    assert [(s["kind"], s["name"]) for s in fresh["seats"]] == [("human", "ann"), ("agent", "medium computer")]
