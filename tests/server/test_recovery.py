"""After a restart, even after ``kill -9``, every game resumes exactly where it was, agents included."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, receive_until, resumed, url, view_at
from websockets.sync.client import connect

EASY = {"kind": "agent", "level": "easy"}


class Stuck(Executor):
    """An agent pool that never answers: the server goes down while an agent is thinking."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


def test_a_restarted_server_rebuilds_every_game_and_its_agents_resume(serve: Callable[..., TestClient]) -> None:
    first = serve(pool_factory=Stuck)
    two_humans = create(first, [HUMAN, HUMAN], seed=8)
    versus = create(first, [EASY, HUMAN], seed=8)
    with first.websocket_connect(url(two_humans, 1)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][1]})
        seen = receive_until(ws, view_at(1))
    with first.websocket_connect(url(versus, 1)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][2]})
        receive_until(ws, view_at(1))  # the agent is now thinking, forever
    first.__exit__(None, None, None)

    second = serve()
    with second.websocket_connect(url(two_humans, 0)) as ws:
        again = receive_until(ws, lambda m: m["type"] == "view")
        assert again["ply"] == 1 and again["history"] == seen["history"] and again["view"] == seen["view"]
    with second.websocket_connect(url(versus, 1)) as ws:
        resumed = receive_until(ws, view_at(2))  # the agent thought again after the restart and moved
        assert resumed["to_move"] == 1 and resumed["history"][0] == view["legal"][2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(db: str, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "kumiki.cli", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: kill -9 takes the agent workers with it
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1).raise_for_status()
            return process
        except httpx.HTTPError:
            if process.poll() is not None:
                raise AssertionError(process.stderr.read().decode() if process.stderr else "serve ended") from None
            time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("kumiki serve did not start")


def _kill9(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _next_view(ws: Any, ply: int) -> dict[str, Any]:
    for _ in range(100):
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "view" and message["ply"] >= ply:
            return message
    raise AssertionError("no view")


@pytest.mark.slow
def test_kill_9_loses_no_committed_move(db_url: str) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _start(db_url, port)
    try:
        answer = httpx.post(f"{base}/api/games", json={"game": "kuzushi", "seats": [EASY, HUMAN], "seed": 1}).json()
        ws_url = f"ws://127.0.0.1:{port}{url(answer, 1)}"
        with connect(ws_url) as ws:
            view = _next_view(ws, 0)
            for _ in range(2):
                ws.send(json.dumps({"type": "move", "ply": view["ply"], "move": view["legal"][0]}))
                view = _next_view(ws, view["ply"] + 2)
            ws.send(json.dumps({"type": "move", "ply": view["ply"], "move": view["legal"][0]}))
            committed = _next_view(ws, view["ply"] + 1)  # broadcast, so committed; the agent may be thinking
        _kill9(server)
        server = _start(db_url, port)
        with connect(ws_url) as ws:
            after = _next_view(ws, committed["ply"])
            assert after["history"][: committed["ply"]] == committed["history"]
            if after["to_move"] != 1:
                after = _next_view(ws, committed["ply"] + 1)  # the agent resumes thinking
            assert after["to_move"] == 1 and after["history"][: committed["ply"]] == committed["history"]
        record = httpx.get(f"{base}/api/games/{answer['id']}/record").text
        assert record.rstrip("\n").splitlines()[-len(after["history"]) :] == after["history"]
    finally:
        _kill9(server)


def test_a_stopped_hub_leaves_no_agent_process_behind(tmp_path: Any) -> None:
    """SIGTERM (systemd, docker stop) closes the hub while an agent thinks: its worker is stopped, not orphaned."""
    import asyncio
    import threading

    from kumiki.server.agents import make_pool
    from kumiki.server.hub import Hub
    from kumiki.server.storage import Storage

    hub = Hub(Storage(f"sqlite:///{tmp_path}/hub.db"), lambda: make_pool(1))
    future = hub.pool().submit(time.sleep, 120)  # an agent thinking for a long time
    deadline = time.monotonic() + 60
    while not future.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    processes = list(hub._pool._processes.values())  # type: ignore[union-attr]
    assert processes and all(p.is_alive() for p in processes)
    closer = threading.Thread(target=lambda: asyncio.run(hub.close()))  # its own thread: its own event loop
    closer.start()
    closer.join(timeout=60)
    assert not closer.is_alive() and not any(p.is_alive() for p in processes)


def test_a_broken_pool_is_replaced_once_however_many_rooms_saw_it_break(tmp_path: Any) -> None:
    """Every room thinking in a pool whose worker died sees it break; the second must not throw away the fresh pool
    the first one is already retrying in."""
    from concurrent.futures import ThreadPoolExecutor

    from kumiki.server.hub import Hub
    from kumiki.server.storage import Storage

    hub = Hub(Storage(f"sqlite:///{tmp_path}/hub.db"), lambda: ThreadPoolExecutor(1))
    broken = hub.pool()
    hub.reset_pool(broken)  # the first room to see it
    fresh = hub.pool()
    assert fresh is not broken
    retry = fresh.submit(time.sleep, 0.2)
    hub.reset_pool(broken)  # a second room, late
    assert hub.pool() is fresh and retry.result(timeout=10) is None
    fresh.shutdown()


def test_a_game_that_no_longer_replays_does_not_keep_the_server_from_starting(
    serve: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    """A game stored under other rules (its moves now illegal) is logged and left as stored; the server starts and
    every other game goes on (one such game stopped the server at start-up)."""
    from sqlalchemy import update

    from kumiki.server.storage import moves_table

    first = serve(pool_factory=Stuck)
    broken = create(first, [HUMAN, HUMAN], seed=8)
    fine = create(first, [HUMAN, HUMAN], seed=8)
    for game in (broken, fine):
        with first.websocket_connect(url(game, 1)) as ws:
            view = receive_until(ws, view_at(0))
            ws.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
            receive_until(ws, view_at(1))
    storage = first.app.state.hub.storage  # type: ignore[attr-defined]
    with storage.engine.begin() as conn:  # as if stored by rules that allowed it
        conn.execute(update(moves_table).where(moves_table.c.game_id == broken["id"]).values(move="B 99,99"))
    first.__exit__(None, None, None)

    second = serve()
    resumed(second)  # brought back in the background
    assert "does not replay with these rules" in caplog.text
    with second.websocket_connect(url(fine, 0)) as ws:
        assert receive_until(ws, lambda m: m["type"] == "view")["ply"] == 1
    assert second.get(f"/api/games/{broken['id']}").json()["status"] == "playing"  # the stored summary
    answer = second.get(f"/api/games/{broken['id']}/record")  # a replay: one line saying why not
    assert answer.status_code == 409
    assert answer.json() == {
        "error": f"game {broken['id']} does not replay with these rules: B 99,99: outside the 6×6 grid"
    }


def test_a_database_away_for_a_move_loses_no_move_and_the_game_still_replays(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL restarting refuses the write of a move and the read after it: the server read the stored moves
    back to undo the move in memory, failed, and kept it there; the next move was stored a ply too far, and the game
    no longer replayed after a restart. Now the move is undone from memory, the player gets one line (``unavailable``)
    instead of a dropped connection, and every later move is stored at its ply; the HTTP API answers 503, not 500."""
    from sqlalchemy.exc import OperationalError

    from kumiki.server.storage import Storage

    client = serve()
    game = create(client, [HUMAN, HUMAN], seed=3)
    away = OperationalError("INSERT", {}, Exception("server closed the connection unexpectedly"))
    stored_add, stored_moves, stored_game = Storage.add_move, Storage.moves, Storage.game

    def down(*_args: Any, **_kwargs: Any) -> Any:
        raise away

    with client.websocket_connect(url(game, 0)) as ann, client.websocket_connect(url(game, 1)) as bob:
        view = receive_until(bob, view_at(0))
        bob.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        view = receive_until(ann, view_at(1))
        monkeypatch.setattr(Storage, "add_move", down)
        monkeypatch.setattr(Storage, "moves", down)
        monkeypatch.setattr(Storage, "game", down)
        ann.send_json({"type": "move", "ply": 1, "move": view["legal"][0]})
        refused = receive_until(ann, lambda m: m["type"] == "error")
        assert refused["code"] == "unavailable" and "nothing changed" in refused["message"]
        assert "\n" not in refused["message"] and "INSERT" not in refused["message"]
        assert receive_until(ann, lambda m: m["type"] == "view")["ply"] == 1
        answer = client.get(f"/api/games/{game['id']}")
        assert answer.status_code == 503 and answer.json()["error"] == refused["message"]
        monkeypatch.setattr(Storage, "add_move", stored_add)
        monkeypatch.setattr(Storage, "moves", stored_moves)
        monkeypatch.setattr(Storage, "game", stored_game)
        ann.send_json({"type": "sync"})
        view = receive_until(ann, lambda m: m["type"] == "view")
        assert view["ply"] == 1 and view["seat"] in view["actors"]
        ann.send_json({"type": "move", "ply": 1, "move": view["legal"][0]})
        played = receive_until(ann, view_at(2))
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 2
    client.__exit__(None, None, None)
    again = serve()  # the stored moves replay: no gap at ply 1
    with again.websocket_connect(url(game, 0)) as ws:
        assert receive_until(ws, lambda m: m["type"] == "view")["history"] == played["history"]
    assert again.get(f"/api/games/{game['id']}/record").status_code == 200


def test_a_database_refusal_is_one_line_in_the_log(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A full disk or a PostgreSQL away: the log gave each refusal as three or four lines, with the statement and its
    parameters (the players' names); an operator's journal now reads one line each, the driver's reason."""
    import logging

    from sqlalchemy.exc import OperationalError

    from kumiki.server.storage import Storage

    client = serve()
    game = create(client, [HUMAN, HUMAN], seed=3)
    full = OperationalError("INSERT INTO moves", {"name": "ann"}, Exception("database or disk is full\nsecond line"))

    def down(*_args: Any, **_kwargs: Any) -> Any:
        raise full

    caplog.set_level(logging.ERROR, logger="kumiki.server")
    with client.websocket_connect(url(game, 1)) as bob:
        view = receive_until(bob, view_at(0))
        monkeypatch.setattr(Storage, "add_move", down)
        monkeypatch.setattr(Storage, "create_game", down)
        bob.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        assert receive_until(bob, lambda m: m["type"] == "error")["code"] == "unavailable"
    assert client.post("/api/games", json={"game": "kuzushi", "seats": [HUMAN, HUMAN]}).status_code == 503
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2, lines
    for line in lines:
        assert line.endswith("database or disk is full)") or line.endswith("database or disk is full"), line
        assert "\n" not in line and "INSERT" not in line and "ann" not in line
