"""Loading a stored game into memory (replaying its moves) happens off the event loop.

Setting up a Kozo game works out every placement of every piece: 25 ms for the standard pool, 40 ms for a custom pool
of 2,000 characters. Loaded on the event loop at every connection to a game not in memory and at every request for a
record, a few clients opening stored games in a loop (their ids are listed in the lobby) held every other game still:
four clients asking for one Kozo game's record over and over took other players' moves from 1.5 ms to 550 ms.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kumiki.server import hub as hub_module

from .helpers import HUMAN, create, receive_until, url, view_at

SLOW = 0.8  # seconds a game takes to load here


@pytest.fixture
def slow_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    real = hub_module.rebuild

    def slow(*args: Any) -> Any:
        time.sleep(SLOW)  # a costly game to set up (holds the GIL no more than a real one's work would)
        return real(*args)

    monkeypatch.setattr(hub_module, "rebuild", slow)


def _answered_meanwhile(client: TestClient, load: Any) -> float:
    """Seconds ``GET /api/version`` takes while ``load()`` runs in another thread (a game being loaded)."""
    started = threading.Event()

    def run() -> None:
        started.set()
        load()

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    time.sleep(0.2)  # the load is under way
    began = time.monotonic()
    assert client.get("/api/version").status_code == 200
    took = time.monotonic() - began
    worker.join()
    return took


def test_a_connection_to_a_stored_game_loads_it_off_the_event_loop(client: TestClient, slow_loading: None) -> None:
    game = create(client, [HUMAN, HUMAN], seed=3)
    client.app.state.hub.rooms.pop(game["id"], None)  # type: ignore[attr-defined]  # stored, not in memory

    def connect() -> None:
        with client.websocket_connect(url(game)) as ws:
            assert receive_until(ws, view_at(0))["id"] == game["id"]

    assert _answered_meanwhile(client, connect) < SLOW / 2


def test_a_record_of_a_stored_game_is_built_off_the_event_loop(client: TestClient, slow_loading: None) -> None:
    game = create(client, [HUMAN, HUMAN], seed=3)
    client.app.state.hub.rooms.pop(game["id"], None)  # type: ignore[attr-defined]

    def record() -> None:
        assert client.get(f"/api/games/{game['id']}/record").status_code == 200

    assert _answered_meanwhile(client, record) < SLOW / 2
    assert game["id"] not in client.app.state.hub.rooms  # type: ignore[attr-defined]  # let go again


def test_a_seat_taken_while_its_game_loads_opens_to_its_token(client: TestClient, slow_loading: None) -> None:
    game = create(client, [HUMAN, {"kind": "open"}], seed=3)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.rooms.pop(game["id"], None)
    joined: dict[str, Any] = {}

    def join() -> None:
        time.sleep(0.2)  # the spectator's connection is loading the game
        joined.update(client.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": "bob"}).json())

    taker = threading.Thread(target=join)
    taker.start()
    with client.websocket_connect(url(game)) as spectator:
        receive_until(spectator, view_at(0))
        taker.join()
        with client.websocket_connect(f"/ws/games/{game['id']}?token={joined['token']}") as ws:
            view = receive_until(ws, view_at(0))
            assert view["seat"] == 1 and view["seats"][1]["name"] == "bob"


def test_two_connections_at_once_load_a_game_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = create(client, [HUMAN, HUMAN], seed=3)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.rooms.pop(game["id"], None)
    real, calls = hub_module.rebuild, []

    def counted(*args: Any) -> Any:
        calls.append(1)
        time.sleep(0.3)
        return real(*args)

    monkeypatch.setattr(hub_module, "rebuild", counted)

    def connect(seat: int) -> None:
        with client.websocket_connect(url(game, seat)) as ws:
            receive_until(ws, view_at(0))
            time.sleep(0.4)

    workers = [threading.Thread(target=connect, args=(seat,)) for seat in (0, 1)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(calls) == 1


def test_a_room_let_go_by_one_who_waited_for_its_load_is_the_one_the_next_joins(
    client: TestClient, slow_loading: None
) -> None:
    game = create(client, [HUMAN, HUMAN], seed=3)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.rooms.pop(game["id"], None)

    def record() -> None:  # asks first: its request starts the load, and is done with the room first
        assert client.get(f"/api/games/{game['id']}/record").status_code == 200

    asking = threading.Thread(target=record)
    asking.start()
    time.sleep(0.2)
    with client.websocket_connect(url(game, 0)) as ws:  # waits for the same load
        receive_until(ws, view_at(0))
        asking.join()
        room = hub.rooms.get(game["id"])
        assert room is not None and len(room.connections) == 1  # not a room let go, which a second load would double
        with client.websocket_connect(url(game, 1)) as other:
            receive_until(other, view_at(0))
            assert hub.rooms[game["id"]] is room and len(room.connections) == 2


@pytest.fixture
def slow_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new game slow to set up, as a Kozo game is (25-40 ms; the first after a start 0.5 s, importing its modules)."""
    from kumiki.server import newgames

    real = newgames.load_game

    def slow(*args: Any, **options: Any) -> Any:
        time.sleep(SLOW)
        return real(*args, **options)

    monkeypatch.setattr(newgames, "load_game", slow)


def test_a_new_game_is_set_up_and_loaded_off_the_event_loop(
    client: TestClient, slow_loading: None, slow_setup: None
) -> None:
    """The lobby's new game was set up, stored and loaded into its room on the event loop: at a club's evening
    each new Kozo game held every other game still for its set-up, twice, and the first after a start for 0.5 s."""
    made: dict[str, Any] = {}

    def make() -> None:
        made.update(create(client, [HUMAN, HUMAN], seed=3))

    assert _answered_meanwhile(client, make) < SLOW / 2
    with client.websocket_connect(url(made, 0)) as ws:  # the game is there, as made
        assert receive_until(ws, view_at(0))["id"] == made["id"]


def test_a_rematch_is_loaded_off_the_event_loop(client: TestClient, slow_loading: None) -> None:
    game = create(client, [HUMAN, HUMAN], seed=3)
    with client.websocket_connect(url(game, 0)) as ws:
        receive_until(ws, view_at(0))
        ws.send_json({"type": "resign"})
        receive_until(ws, lambda m: m["type"] == "view" and m["over"])
        answer: dict[str, Any] = {}

        def rematch() -> None:
            ws.send_json({"type": "rematch"})
            answer.update(receive_until(ws, lambda m: m["type"] == "rematch"))

        assert _answered_meanwhile(client, rematch) < SLOW / 2
        assert answer["id"] != game["id"]


def test_a_record_is_imported_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """``POST /api/records`` replayed the whole record (up to 5,000 moves) on the event loop: every other game
    waited for it."""
    import kumiki
    from kumiki.server import newgames

    real = newgames.read_record

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(SLOW)
        return real(*args, **kwargs)

    monkeypatch.setattr(newgames, "read_record", slow)
    state = kumiki.load_game("kuzushi").new_state(seed=1)
    while not state.over:
        state.play(state.legal_moves()[0])
    answer: dict[str, Any] = {}

    def post() -> None:
        answer.update(client.post("/api/records", content=kumiki.write_record(state)).json())

    assert _answered_meanwhile(client, post) < SLOW / 2
    assert "id" in answer, answer


@pytest.mark.parametrize(
    "ask",
    ["get record", "get game", "get replay", "get chat", "get games", "get tables", "post join"],
)
def test_a_slow_database_read_holds_no_other_request(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, ask: str
) -> None:
    """The record, a game's summary, its replay and chat, the lobby's lists and a join read the database on the event
    loop: one slow query (a disk busy with a checkpoint, a PostgreSQL far away) held every game still meanwhile."""
    game = create(client, [HUMAN, {"kind": "open"}], seed=3)
    storage = client.app.state.hub.storage  # type: ignore[attr-defined]
    for method in ("game", "games", "open_tables", "chat"):
        real = getattr(storage, method)

        def slow(*args: Any, real: Any = real) -> Any:
            time.sleep(SLOW)  # a slow query (holds the GIL no more than one waiting for the database would)
            return real(*args)

        monkeypatch.setattr(storage, method, slow)
    verb, what = ask.split()
    path = {"games": "/api/games", "tables": "/api/tables", "game": f"/api/games/{game['id']}"}.get(
        what, f"/api/games/{game['id']}/{what}"
    )

    def request() -> None:
        if verb == "post":
            response = client.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": "bob"})
        else:
            response = client.get(path)
        assert response.status_code in (200, 409), response.text  # (a record of a game going on may be held back)

    assert _answered_meanwhile(client, request) < SLOW / 2
