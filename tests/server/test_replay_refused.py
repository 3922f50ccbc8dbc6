"""A replay refused as too large is refused at once when asked for again.

Building a replay up to its budget (128 MiB of positions) takes a core for seconds: 12 s for a 12 kB record of 4,000
TowerBrix oks, refused at move 1,200. Nothing was kept of the refusal, so every request for that game (a reload, a
client asking in a loop) built it again: two clients kept both cores busy for as long as they liked.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import kumiki
from kumiki.server import app
from kumiki.server.agents import positions


def test_a_replay_refused_as_too_large_is_not_built_again(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    state = kumiki.load_game("towerbrix", players=2, rounds=1, attempts=30).new_state(seed=1)
    while not state.over:
        state.play("ok")
    sizes = [len(app.compact_json(s.public_view())) for s in positions("towerbrix", state.game.options, 1, [])]
    monkeypatch.setattr(app, "MAX_REPLAY_BYTES", sizes[0] * 3, raising=False)
    built: list[int] = []
    real = app.positions

    def counted(*args: Any) -> Any:
        built.append(1)
        return real(*args)

    monkeypatch.setattr(app, "positions", counted)
    oks = client.post("/api/records", content=kumiki.write_record(state)).json()["id"]
    first = client.get(f"/api/games/{oks}/replay")
    assert first.status_code == 413 and "too large" in first.json()["error"]
    again = client.get(f"/api/games/{oks}/replay")
    assert again.status_code == 413 and again.json() == first.json()
    assert len(built) == 1  # refused at once the second time
