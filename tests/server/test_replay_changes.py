"""``GET /api/games/{id}/replay?changes=1``: each position as its change from the one before (what the replay page
asks for), which rebuilds exactly the ``states`` of the plain replay at a fraction of its size."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import random_game

import kumiki
from kumiki.server.app import compact_json, view_bytes, view_change


def rebuilt(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The positions from their changes, as the replay page rebuilds them (src/kumiki/web/src/pages/replay.ts)."""
    states: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    for change in changes:
        state = {**state, **change.get("set", {})}
        for field, items in change.get("append", {}).items():
            state[field] = state[field] + items
        for field in change.get("unset", []):
            del state[field]
        states.append(copy.deepcopy(state))
    return states


@pytest.mark.parametrize(
    ("game", "moves", "options"),
    [
        ("towerbrix", 400, {"players": 2, "rounds": 3}),
        ("kozo", 20, {}),
        ("blokus3d", 30, {}),
        ("kuzushi", 40, {"players": 2, "size": 5}),
    ],
)
def test_the_changes_rebuild_every_position_of_the_replay(
    client: TestClient, game: str, moves: int, options: dict[str, Any]
) -> None:
    state = random_game(game, moves, 5, **options)
    answer = client.post("/api/records", content=kumiki.write_record(state)).json()
    whole = client.get(f"/api/games/{answer['id']}/replay")
    small = client.get(f"/api/games/{answer['id']}/replay", params={"changes": "1"})
    full, changes = whole.json(), small.json()
    assert "states" not in changes and "changes" not in full
    assert {k: v for k, v in changes.items() if k != "changes"} == {k: v for k, v in full.items() if k != "states"}
    assert rebuilt(changes["changes"]) == full["states"] and len(full["states"]) == len(state.history) + 1
    assert full["states"][-1] == state.public_view()
    if game == "towerbrix":  # the evaluations, repeated in every position, are sent once
        assert len(state.evaluations) >= 3  # type: ignore[attr-defined]
        assert len(small.content) * 5 < len(whole.content)


def test_a_change_is_a_list_grown_a_field_set_or_gone() -> None:
    before = {"a": [1, 2], "b": "x", "c": {"d": 1}, "e": [], "f": 3}
    after = {"a": [1, 2, 3, [4]], "b": "x", "c": {"d": 2}, "e": [5], "g": [12]}
    change, fields = view_change({k: compact_json(v).encode() for k, v in before.items()}, after)
    assert json.loads(change) == {
        "set": {"c": {"d": 2}, "e": [5], "g": [12]},
        "append": {"a": [3, [4]]},
        "unset": ["f"],
    }
    assert rebuilt([{"set": before}, json.loads(change)])[-1] == after
    assert view_bytes(fields) == len(compact_json(after).encode()) and view_bytes({}) == len(b"{}")
    # a list whose items changed (not only grew) is set anew: [1, 2] to [1, 23] or to [1, 2]'s first item changed
    for other in ([1, 23], [0, 2, 3], [1]):
        change, _ = view_change({"a": b"[1,2]"}, {"a": other})
        assert json.loads(change) == {"set": {"a": other}}
    assert view_change({"a": b"[1,2]"}, {"a": [1, 2]})[0] == b"{}"


def test_the_changes_are_refused_as_too_large_where_the_positions_are(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The changes are small, but building them replays the game as the positions do (a long TowerBrix game's
    views take a core for seconds): refused by the bytes the positions would take, at the same move, and at once
    when asked for again in either form."""
    from kumiki.server import app

    state = random_game("towerbrix", 200, 6, players=2, rounds=2)
    sizes = [len(compact_json(view).encode()) for view in _views(state)]
    monkeypatch.setattr(app, "MAX_REPLAY_BYTES", sum(sizes[:120]), raising=False)
    game = client.post("/api/records", content=kumiki.write_record(state)).json()["id"]
    small = client.get(f"/api/games/{game}/replay", params={"changes": "true"})
    assert small.status_code == 413 and "by move 120" in small.json()["error"]
    whole = client.get(f"/api/games/{game}/replay")
    assert whole.status_code == 413 and whole.json() == small.json()


def _views(state: kumiki.State) -> list[dict[str, Any]]:
    step = kumiki.load_game(state.game.name, **state.game.options).new_state(seed=6)
    views = [step.public_view()]
    for move, seat in zip(state.history, state.movers, strict=True):  # type: ignore[attr-defined]
        step.play(move, player=seat)
        views.append(step.public_view())
    return views


def test_a_replay_is_sent_gzipped_to_a_client_that_asks(client: TestClient) -> None:
    state = random_game("towerbrix", 300, 7, players=2, rounds=2)
    game = client.post("/api/records", content=kumiki.write_record(state)).json()["id"]
    for params in ({}, {"changes": "1"}):
        packed = client.get(f"/api/games/{game}/replay", params=params, headers={"accept-encoding": "gzip"})
        plain = client.get(f"/api/games/{game}/replay", params=params, headers={"accept-encoding": "identity"})
        assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
        assert packed.json() == plain.json() and len(plain.content) == int(plain.headers["content-length"])
        assert int(packed.num_bytes_downloaded) * 4 < len(plain.content)
