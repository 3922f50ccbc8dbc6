"""Resigning: a person's seat gives up a game played against others; the game ends there, every other side wins,
and the result is stored, kept over a restart, and written in the record ([Resigned], its Result, and a comment), so
that the record imported again is the same game over."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import create, error, receive_until, url, view_at

import kumiki
from kumiki.server import hub as hub_module
from kumiki.server.storage import Storage

ANN_BOB = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def over(message: dict) -> bool:
    return message["type"] == "view" and message["over"]


def test_a_resignation_ends_the_game_for_the_other_side_and_is_stored(serve: Callable[..., TestClient]) -> None:
    client = serve()
    game = create(client, ANN_BOB, seed=4)
    with (
        client.websocket_connect(url(game, 0)) as ann,
        client.websocket_connect(url(game, 1)) as bob,
        client.websocket_connect(url(game)) as spectator,
    ):
        start = receive_until(bob, view_at(0))
        assert start["may_resign"] is True and start["resigned"] is None
        assert receive_until(spectator, view_at(0))["may_resign"] is False
        move = start["legal"][0]
        bob.send_json({"type": "move", "ply": 0, "move": move})
        receive_until(ann, view_at(1))
        spectator.send_json({"type": "resign"})
        assert "spectators cannot resign" in receive_until(spectator, error("forbidden"))["message"]
        bob.send_json({"type": "resign"})  # not bob's turn: a resignation needs none
        for ws in (ann, bob, spectator):
            view = receive_until(ws, over)
            assert view["resigned"] == 1 and view["winners"] == [0] and view["ply"] == 1
            assert view["to_move"] is None and view["actors"] == [] and view["legal"] == []
            assert view["may_resign"] is False
        ann.send_json({"type": "move", "ply": 1, "move": "B 0,1"})
        assert receive_until(ann, error("illegal"))["message"] == "the game is over"
        ann.send_json({"type": "resign"})
        assert receive_until(ann, error("no_resign"))["message"] == "the game is over"
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "over" and summary["winners"] == [0] and summary["to_move"] is None
    record = client.get(f"/api/games/{game['id']}/record").text
    assert record.endswith(f"{move}\n# seat 1 (bob) resigned; winners: 0\n")
    assert '[Resigned "1"]' in record.splitlines() and '[Result "0"]' in record.splitlines()
    _game, state = kumiki.read_record(record)  # the moves as played, and over as the server has it
    assert [str(m) for m in state.history] == [move] and state.over and state.resigned == 1
    assert state.to_move is None and state.winners() == [0]
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["resigned"] == 1 and replay["winners"] == [0] and replay["over"] is True

    restarted = serve()  # another server on the same database loads the game afresh: still resigned
    with restarted.websocket_connect(url(game, 0)) as ann:
        view = receive_until(ann, view_at(1))
        assert view["over"] and view["resigned"] == 1 and view["winners"] == [0]
        ann.send_json({"type": "rematch"})  # a resigned game is over: play again
        assert receive_until(ann, lambda m: m["type"] == "rematch")["id"] != game["id"]


def resign_and_import(client: TestClient, game: dict[str, Any], seat: int, moves: int) -> tuple[str, dict[str, Any]]:
    """Play ``moves`` moves (each by the seat to move, its first legal move), resign ``seat``, export the record and
    import it: (the record, the imported game's id and summary)."""
    sockets = [client.websocket_connect(url(game, k)) for k in range(len(game["seats"]))]
    with contextlib.ExitStack() as stack:
        players = [stack.enter_context(ws) for ws in sockets]
        views = [receive_until(ws, view_at(0)) for ws in players]
        for ply in range(moves):
            mover = views[0]["to_move"]
            players[mover].send_json({"type": "move", "ply": ply, "move": views[mover]["legal"][0]})
            views = [receive_until(ws, view_at(ply + 1)) for ws in players]
        players[seat].send_json({"type": "resign"})
        receive_until(players[seat], over)
    record = client.get(f"/api/games/{game['id']}/record").text
    imported = client.post("/api/records", content=record)
    assert imported.status_code == 200, imported.text
    return record, imported.json()


@pytest.mark.parametrize(
    ("name", "options", "seat", "winners"),
    [
        ("kuzushi", {}, 1, [0]),
        ("kuzushi", {"players": 4, "teams": 2}, 2, [1, 3]),  # the resigning seat's team loses
        ("blokus3d", {"players": 3}, 0, [1, 2]),  # the others share the win
        ("kozo", {"players": 2}, 1, [0]),
    ],
)
def test_a_resigned_games_record_imports_as_that_game_over(
    client: TestClient, name: str, options: dict[str, Any], seat: int, winners: list[int]
) -> None:
    """Play, resign, export the record, import it: the imported game is over, with the same winners (every side but
    the resigning seat's, core.game.forfeit_winners), the same resignation, and the same record."""
    players = options.get("players", 2)
    seats = [{"kind": "human", "name": f"p{k}"} for k in range(players)]
    game = create(client, seats, game=name, options=options, seed=3)
    record, imported = resign_and_import(client, game, seat, moves=3)
    original = client.get(f"/api/games/{game['id']}").json()
    assert original["winners"] == winners
    summary = client.get(f"/api/games/{imported['id']}").json()
    assert summary["imported"] and summary["status"] == "over" and summary["to_move"] is None
    assert summary["winners"] == winners and summary["moves"] == 3
    with client.websocket_connect(f"/ws/games/{imported['id']}") as watcher:
        view = receive_until(watcher, view_at(3))
        assert view["over"] and view["resigned"] == seat and view["winners"] == winners
        assert view["to_move"] is None and view["actors"] == [] and view["may_resign"] is False
    replay = client.get(f"/api/games/{imported['id']}/replay").json()
    assert replay["resigned"] == seat and replay["winners"] == winners
    assert replay["moves"] == client.get(f"/api/games/{game['id']}/replay").json()["moves"]
    again = client.get(f"/api/games/{imported['id']}/record").text
    result = [line for line in record.splitlines() if line.startswith(("[Result", "[Resigned", "#"))]
    assert result == [f'[Resigned "{seat}"]', f'[Result "{" ".join(map(str, winners))}"]', result[-1]]
    assert [line for line in again.splitlines() if line.startswith(("[Result", "[Resigned", "#"))] == result
    assert again.split("\n\n", 1)[1] == record.split("\n\n", 1)[1]  # the same moves and closing comment


def test_a_record_that_says_a_seat_resigned_is_checked_on_import(client: TestClient) -> None:
    """[Resigned] must name a seat of a game that was still going, and a Result beside it must be its winners."""
    moves = "\nB 1,0\nB -1,0\n"
    for tags, words in (
        ('[Resigned "2"]', "the seat that resigned, 0…1"),
        ('[Resigned "1"]\n[Result "1"]', 'seat 1\'s resignation gives the result "0"'),
        ('[tiles "1"]\n[Resigned "0"]', "the moves end the game by its rules"),
    ):
        played = moves.rsplit("B -1,0", 1)[0] if "tiles" in tags else moves  # one tile each: over after B 1,0
        answer = client.post("/api/records", content=f'[Game "kuzushi"]\n{tags}\n{played}')
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text
    solo = '[Game "kozo"]\n[Players "1"]\n[Resigned "0"]\n'
    assert "no one to resign to" in client.post("/api/records", content=solo).json()["error"]


def test_in_a_team_game_the_resigning_seats_team_loses(client: TestClient) -> None:
    seats = [{"kind": "human", "name": name} for name in ("ann", "bob", "cy", "di")]
    game = create(client, seats, options={"players": 4, "teams": 2}, seed=2)
    with client.websocket_connect(url(game, 2)) as cy:
        assert receive_until(cy, view_at(0))["teams"] == [0, 1, 0, 1]
        cy.send_json({"type": "resign"})
        view = receive_until(cy, over)
        assert view["resigned"] == 2 and view["winners"] == [1, 3]


def test_a_computer_thinking_when_its_opponent_resigns_plays_nothing(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer is mid-thought when its opponent resigns: its move, when it comes, is not played."""
    thinking, go = threading.Event(), threading.Event()
    choose = hub_module.choose_move

    def slow(*args: Any) -> str:
        thinking.set()
        go.wait(10)
        return choose(*args)

    monkeypatch.setattr(hub_module, "choose_move", slow)  # agents think in a thread here (conftest's pool)
    client = serve()
    # Kuzushi's first move is seat 1's: the computer there thinks as soon as ann sits down
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}], seed=6)
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        assert thinking.wait(10)
        ann.send_json({"type": "resign"})
        assert receive_until(ann, over)["winners"] == [1]
        go.set()
        time.sleep(0.3)  # the computer's answer arrives now
        ann.send_json({"type": "sync"})
        assert receive_until(ann, lambda m: m["type"] == "view")["ply"] == 0
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0


def test_the_replay_names_the_winners_of_a_game_resigned_while_it_is_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob resigns between the replay's reads: the replay is of the game before or after it, never a mix."""
    game = create(client, ANN_BOB, seed=4)
    moves = Storage.moves

    def moves_then_resign(self: Storage, game_id: str) -> Any:
        found = moves(self, game_id)
        if self.resigned(game_id) is None:
            self.resign(game_id, 1, {"status": "over", "to_move": None, "winners": [0]})
        return found

    monkeypatch.setattr(Storage, "moves", moves_then_resign)
    first = client.get(f"/api/games/{game['id']}/replay").json()
    assert (first["resigned"], first["winners"]) in ((None, []), (1, [0]))
    again = client.get(f"/api/games/{game['id']}/replay").json()
    assert (again["resigned"], again["winners"]) == (1, [0])


def test_a_cooperative_game_has_no_resignation(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}], game="towerbrix", options={"players": 1, "mode": "solo"})
    with client.websocket_connect(url(game, 0)) as ann:
        assert receive_until(ann, view_at(0))["may_resign"] is False
        ann.send_json({"type": "resign"})
        assert "played together" in receive_until(ann, error("no_resign"))["message"]
        ann.send_json({"type": "sync"})
        assert not receive_until(ann, lambda m: m["type"] == "view")["over"]


def test_nobody_to_resign_to_in_a_solo_game_or_at_a_table_with_an_open_seat(client: TestClient) -> None:
    """A solo Kozo ended with nobody winning, and a table still waiting for a player made the empty seat the
    winner: both refused, the game going on."""
    solo = create(client, [{"kind": "human", "name": "ann"}], game="kozo", options={"players": 1, "rounds": 1})
    waiting = create(client, [{"kind": "human", "name": "ann"}, {"kind": "open"}])
    for game, reason in ((solo, "a game of one side"), (waiting, "a seat is still open")):
        with client.websocket_connect(url(game, 0)) as ann:
            assert receive_until(ann, view_at(0))["may_resign"] is False
            ann.send_json({"type": "resign"})
            assert reason in receive_until(ann, error("no_resign"))["message"]
            ann.send_json({"type": "sync"})
            assert not receive_until(ann, lambda m: m["type"] == "view")["over"]


def test_a_resignation_is_shown_once_stored(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the resignation is being stored nobody sees the game over (a record of a game with chance would give
    its seed away), and a write the database refuses leaves the game going on."""
    storing, seen = threading.Event(), threading.Event()

    def refused(self: Storage, game_id: str, seat: int, result: dict[str, Any]) -> None:
        storing.set()
        seen.wait(10)
        raise RuntimeError("the database refused")

    monkeypatch.setattr(Storage, "resign", refused)
    game = create(client, ANN_BOB, game="kozo", options={"random_size": True}, seed=4)
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        with (
            pytest.raises(RuntimeError, match="the database refused"),  # the test client re-raises it
            client.websocket_connect(url(game, 1)) as bob,
        ):
            receive_until(bob, view_at(0))
            receive_until(ann, lambda m: m["type"] == "view" and m["seats"][1]["connected"])  # bob sat down
            bob.send_json({"type": "resign"})
            assert storing.wait(10)
            ann.send_json({"type": "sync"})
            during = receive_until(ann, lambda m: m["type"] == "view")
            record = client.get(f"/api/games/{game['id']}/record").status_code
            seen.set()
            bob.receive_json()
        assert not during["over"] and during["resigned"] is None and record == 409
        ann.send_json({"type": "sync"})
        assert not receive_until(ann, lambda m: m["type"] == "view")["over"]
