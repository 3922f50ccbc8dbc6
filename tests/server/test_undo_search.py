"""An undo while a computer seat thinks: the search under way is let go, its move is never played, and the search
for the new position starts at once.

Before, the room's task was cancelled (so the old move was not played) but the worker went on with the old search to
its end (up to 3 s for a hard move), and with both workers busy the new search queued behind it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kumiki.server import hub as hub_module
from kumiki.server.agents import choose_move, make_pool

from .helpers import HUMAN, create, receive_until, url, view_at
from .slow_agent import LONG, first_search_slow

EASY = {"kind": "agent", "level": "easy"}


class Held(Executor):
    """A pool of one busy worker whose searches answer when the test says (``answer``); it records the jobs it was
    asked to stop, as ``AgentPool`` does."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], tuple[Any, ...]]] = []
        self.stopped: list[int] = []

    def submit_job(self, fn: Callable[..., Any], /, *args: Any) -> tuple[int, Future[Any]]:
        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()  # a worker has it: it can no longer be taken out of the queue
        self.jobs.append((future, args))
        return len(self.jobs), future

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.submit_job(fn, *args)[1]

    def stop_job(self, job: int) -> None:
        self.stopped.append(job)

    def answer(self, job: int) -> str:
        future, args = self.jobs[job - 1]
        text = choose_move(*args)
        future.set_result(text)
        return text


def _wait(until: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 30
    while not until():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_an_undo_stops_the_search_under_way_and_never_plays_its_move(serve: Callable[..., TestClient]) -> None:
    pool = Held()
    client = serve(pool_factory=lambda: pool)
    game = create(client, [EASY, HUMAN], seed=8, undo=True)  # seat 1 moves first
    with client.websocket_connect(url(game, 1)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        receive_until(ws, view_at(1))
        _wait(lambda: len(pool.jobs) == 1)  # the computer thinks about legal[0]
        ws.send_json({"type": "undo"})
        receive_until(ws, view_at(0))
        assert pool.stopped == [1]  # its search is stopped in its worker, not left to run to its end
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][1]})
        receive_until(ws, view_at(1))
        _wait(lambda: len(pool.jobs) == 2)  # the new search is asked for at once, the old one still unanswered
        stale = pool.answer(1)  # the old search answers late: its move is for a position taken back
        ws.send_json({"type": "sync"})
        assert receive_until(ws, lambda m: m["type"] == "view")["ply"] == 1
        reply = pool.answer(2)
        played = receive_until(ws, view_at(2))
    assert played["history"] == [view["legal"][1], reply] and played["movers"] == [1, 0]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 2
    record = client.get(f"/api/games/{game['id']}/record").text.rstrip("\n").splitlines()
    assert record[-2:] == [view["legal"][1], reply] and (stale == reply or stale not in record[-2:])


def test_a_state_put_back_at_the_same_ply_is_a_new_position_for_a_late_answer(
    serve: Callable[..., TestClient],
) -> None:
    """Even were a search's task not cancelled, an answer for a State taken back is not played at the same ply of
    the State put in its place (undo, then another move: the same ply again)."""
    pool = Held()
    client = serve(pool_factory=lambda: pool)
    game = create(client, [EASY, HUMAN], seed=8, undo=True)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(url(game, 1)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        receive_until(ws, view_at(1))
        _wait(lambda: len(pool.jobs) == 1)
        room = hub.rooms[game["id"]]
        task = room.agent_task
        room.agent_task = None  # the undo does not find it: only the check when it answers guards the game
        ws.send_json({"type": "undo"})
        receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][1]})
        receive_until(ws, view_at(1))
        _wait(lambda: len(pool.jobs) == 2)
        pool.answer(1)  # for the position after legal[0], now at the same ply after legal[1]
        _wait(lambda: len(pool.jobs) == 3)  # not played: that task looked again, and asks about this position
        reply = pool.answer(2)
        played = receive_until(ws, view_at(2))
        pool.answer(3)  # too late as well: the person is to move
        _wait(task.done)
        ws.send_json({"type": "sync"})
        assert receive_until(ws, lambda m: m["type"] == "view")["ply"] == 2
    assert played["history"] == [view["legal"][1], reply]


def test_an_undo_frees_the_worker_of_a_real_pool_at_once(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One worker process, whose first search would take two minutes: the undo stops it there, and the search for
    the position after the move played again gets the worker at once."""
    started = tmp_path / "started"
    monkeypatch.setenv("KUMIKI_TEST_STARTED", str(started))  # read by the worker, spawned after this
    monkeypatch.setattr(hub_module, "choose_move", first_search_slow)
    client = serve(pool_factory=lambda: make_pool(1))
    game = create(client, [EASY, HUMAN], seed=8, undo=True)
    with client.websocket_connect(url(game, 1)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        receive_until(ws, view_at(1))
        _wait(started.exists)  # the worker is in the long search
        began = time.monotonic()
        ws.send_json({"type": "undo"})
        receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": view["legal"][1]})
        played = receive_until(ws, view_at(2))  # before: after the old search's two minutes
        took = time.monotonic() - began
    assert played["history"][0] == view["legal"][1] and played["movers"] == [1, 0]
    assert took < LONG / 2


def test_a_hint_whose_page_closes_is_stopped_in_its_worker(serve: Callable[..., TestClient]) -> None:
    """A hint is worked out as a job of the agents' pool: a page closed while it is worked out lets its worker go at
    once (before, it ran to its end, up to a few seconds, holding a worker the computers' moves waited for)."""
    pool = Held()
    client = serve(pool_factory=lambda: pool)
    game = create(client, [HUMAN], game="kozo", options={"players": 1}, seed=1)
    with client.websocket_connect(url(game, 0)) as ws:
        receive_until(ws, view_at(0))
        ws.send_json({"type": "hint"})
        _wait(lambda: len(pool.jobs) == 1)  # the hint is being worked out
    _wait(lambda: pool.stopped == [1])  # the page went: its hint's job is stopped
