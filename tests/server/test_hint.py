"""The Hint button: a seat that may act asks for a move and hears it with its reason, only to its own connection,
in games against the computer, solo, or TowerBrix (played together; its hint reads only the seat's own view)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

import kumiki.server.hints
import kumiki.server.rooms
from kumiki import State

SOLO = {"players": 1, "mode": "solo"}
RANDOM = {"kind": "agent", "agent": "random"}


def ask(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "hint"})
    return receive_until(ws, lambda m: m["type"] in ("hint", "error"))


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("towerbrix", [HUMAN], SOLO),
        ("kozo", [HUMAN], {"players": 1}),
        ("kozo", [HUMAN, RANDOM], {}),
        ("blokus3d", [HUMAN, RANDOM], {}),
    ],
)
def test_a_seat_alone_against_the_computer_gets_a_legal_move_and_why(
    client: TestClient, game: str, seats: list[dict[str, Any]], options: dict[str, Any]
) -> None:
    created = create(client, seats, game=game, options=options, seed=3)
    with client.websocket_connect(url(created, 0)) as ws:
        view = receive_until(ws, view_at(0))
        assert view["hints"] is True
        answer = ask(ws)
        assert answer["type"] == "hint", answer
        assert answer["move"] in view["legal"] and answer["ply"] == 0
        text = str(answer["text"])
        assert text and "\n" not in text and ("ok" if answer["move"] == "ok" else "") in text
        assert text.startswith(answer["move"]) or answer["move"].lstrip("-") in text  # the move, then why
    assert client.get(f"/api/games/{created['id']}").json()["moves"] == 0  # a hint plays nothing


def test_hints_are_refused_between_people_to_spectators_and_out_of_turn(client: TestClient) -> None:
    two = create(client, [HUMAN, HUMAN], game="blokus3d")
    with client.websocket_connect(url(two, 0)) as ann, client.websocket_connect(url(two)) as watcher:
        assert receive_until(ann, view_at(0))["hints"] is False
        refused = ask(ann)
        assert (refused["type"], refused["code"], refused["about"]) == ("error", "no_hint", "hint")
        assert refused["message"] == "hints are for games against the computer"
        assert receive_until(watcher, view_at(0))["hints"] is False
        assert ask(watcher)["code"] == "forbidden"
    kuzushi = create(client, [HUMAN, RANDOM], game="kuzushi")
    with client.websocket_connect(url(kuzushi, 0)) as ann:
        assert receive_until(ann, lambda m: m["type"] == "view")["hints"] is False
        assert ask(ann)["message"] == "kuzushi has no hints"
    later = create(client, [RANDOM, HUMAN], game="kozo", seed=2)  # the computer moves first
    with client.websocket_connect(url(later, 1)) as bob:
        bob.send_json({"type": "hint"})
        first = receive_until(bob, lambda m: m["type"] in ("hint", "error") or m.get("ply") == 1)
        if first["type"] == "view":  # the computer moved before the hint was worked out: its answer follows
            first = receive_until(bob, lambda m: m["type"] in ("hint", "error"))
        if first["type"] == "error":  # asked before the computer's move: asked again once it has moved
            assert first["code"] == "not_your_turn"
            receive_until(bob, view_at(1))
        answer = ask(bob) if first["type"] != "hint" else first
        assert answer["type"] == "hint" and answer["ply"] == 1  # once it is the seat's turn


def test_towerbrix_played_together_gives_hints_that_never_read_the_others_cards(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = create(client, [HUMAN, HUMAN, HUMAN], game="towerbrix", options={"players": 3}, seed=5)
    with client.websocket_connect(url(created, 0)) as ann:
        view = receive_until(ann, view_at(0))
        assert view["hints"] is True and 0 in view["actors"]
        honest = ask(ann)
        assert honest["type"] == "hint", honest
        replay = kumiki.server.hints.replay

        def dealt(others_only: bool) -> Any:
            def rigged(*args: Any) -> State:
                state: Any = replay(*args)
                held = {c for hand in state.hands for c in hand}
                spare = iter(c.id for c in state.game.deck if c.id not in held)
                state.hands = [
                    list(h) if (q == 0) == others_only else [next(spare) for _ in h] for q, h in enumerate(state.hands)
                ]
                return state

            return rigged

        monkeypatch.setattr(kumiki.server.hints, "replay", dealt(others_only=True))
        assert ask(ann) == honest  # the others hold other cards: the same hint
        monkeypatch.setattr(kumiki.server.hints, "replay", dealt(others_only=False))
        assert ask(ann)["text"] != honest["text"]  # its own cards changed: another hint (the test can see a change)


def test_hints_are_rate_limited_per_seat(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kumiki.server.rooms, "HINT_RATE", 1e-6)  # nothing refills during the test
    created = create(client, [HUMAN], game="towerbrix", options=SOLO, seed=1)
    with client.websocket_connect(url(created, 0)) as ann:
        receive_until(ann, view_at(0))
        answers = [ask(ann) for _ in range(4)]
        assert [a["type"] for a in answers[:3]] == ["hint"] * 3  # three at once
        assert (answers[3]["type"], answers[3]["code"], answers[3]["about"]) == ("error", "rate_limited", "hint")


def test_a_hint_is_worked_out_in_the_agents_pool_not_on_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub: Any = client.app.state.hub  # type: ignore[attr-defined]
    created = create(client, [HUMAN], game="kozo", options={"players": 1}, seed=1)
    used: list[Any] = []
    pool = hub.pool()
    submit = pool.submit

    def counted(fn: Any, *args: Any) -> Any:
        used.append(fn)
        return submit(fn, *args)

    monkeypatch.setattr(pool, "submit", counted)
    with client.websocket_connect(url(created, 0)) as ann:
        receive_until(ann, view_at(0))
        assert ask(ann)["type"] == "hint"
    assert used == [kumiki.server.hints.hint_for]


def test_a_move_sent_while_a_hint_is_worked_out_is_played_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint was awaited in the connection's loop: a move (or an undo) sent meanwhile waited for the search."""
    import threading

    released = threading.Event()
    hint_for = kumiki.server.rooms.hint_for

    def slow(*args: Any) -> tuple[str | None, str]:
        released.wait(5.0)
        return hint_for(*args)

    monkeypatch.setattr(kumiki.server.rooms, "hint_for", slow)
    created = create(client, [HUMAN], game="kozo", options={"players": 1}, seed=1)
    with client.websocket_connect(url(created, 0)) as ann:
        view = receive_until(ann, view_at(0))
        ann.send_json({"type": "hint"})
        ann.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        first = receive_until(ann, lambda m: m["type"] == "hint" or m.get("ply") == 1)
        released.set()
        assert first["type"] == "view", first  # the move was played before the hint came back
        answer = receive_until(ann, lambda m: m["type"] in ("hint", "error"))
        assert answer["type"] == "hint" and answer["ply"] == 0  # the hint says which table it was for


def test_the_hints_of_many_games_take_one_worker_at_a_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """One client's many solo games asking for hints filled the agents' pool: every computer opponent waited."""
    import threading

    released = threading.Event()
    hint_for = kumiki.server.rooms.hint_for
    started: list[int] = []

    def slow(*args: Any) -> tuple[str | None, str]:
        released.wait(5.0)
        return hint_for(*args)

    hub: Any = client.app.state.hub  # type: ignore[attr-defined]
    pool = hub.pool()
    submit = pool.submit

    def counted(fn: Any, *args: Any) -> Any:
        if fn is slow:
            started.append(len(started))
        return submit(fn, *args)

    monkeypatch.setattr(kumiki.server.rooms, "hint_for", slow)
    monkeypatch.setattr(pool, "submit", counted)
    games = [create(client, [HUMAN], game="kozo", options={"players": 1}, seed=s) for s in (1, 2, 3)]
    with client.websocket_connect(url(games[0], 0)) as a, client.websocket_connect(url(games[1], 0)) as b:
        with client.websocket_connect(url(games[2], 0)) as c:
            for ws in (a, b, c):
                receive_until(ws, view_at(0))
                ws.send_json({"type": "hint"})
            c.send_json({"type": "sync"})
            receive_until(c, view_at(0))  # the three asked and waiting
            assert len(started) == 1  # one in the pool, the others wait outside it
        c_closed = len(started)
        released.set()
        assert receive_until(a, lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        assert receive_until(b, lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
    assert c_closed == 1 and len(started) == 2  # the hint of a connection closed meanwhile is never worked out
