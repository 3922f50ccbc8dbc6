"""Small helpers shared by the server tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

import kumiki

HUMAN = {"kind": "human"}


def create(client: TestClient, seats: list[dict[str, Any]], game: str = "kuzushi", **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "seats": seats, **fields})
    assert response.status_code == 200, response.text
    return response.json()


def url(game: dict[str, Any], seat: int | None = None) -> str:
    if seat is None:
        return f"/ws/games/{game['id']}"
    return f"/ws/games/{game['id']}?token={game['seats'][seat]['token']}"


def receive_until(ws: Any, done: Callable[[dict[str, Any]], bool], limit: int = 200) -> dict[str, Any]:
    """Read messages until one satisfies ``done`` (a bounded number, so a bug fails instead of hanging)."""
    for _ in range(limit):
        message = ws.receive_json()
        if done(message):
            return message
    raise AssertionError(f"no matching message in {limit}")


def view_at(ply: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "view" and m["ply"] == ply


def error(code: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "error" and m["code"] == code


def resumed(client: TestClient, seconds: float = 60.0) -> None:
    """Wait until the server has brought back every stored game it found at start (it does so in the background)."""
    import time

    hub = client.app.state.hub  # type: ignore[attr-defined]
    deadline = time.monotonic() + seconds
    while hub.resuming():
        assert time.monotonic() < deadline, "the stored games were not all brought back"
        time.sleep(0.01)


def random_game(game: str, moves: int, seed: int, **options: Any) -> kumiki.State:
    """``game`` (with ``options``) from ``seed``, played for ``moves`` moves, or to its end, each a random legal move
    drawn by a generator seeded with ``seed``: a record to import."""
    state = kumiki.load_game(game, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.over:
            break
        state.play(rng.choice(state.legal_moves()))
    return state
