"""The view messages a room sends are built once per position and seat and sent again from the room's cache (a long
TowerBrix game's view took the event loop 10-50 ms at every sync). What a connection receives is still, byte for
byte, the message built afresh: its own seat's view (never another seat's cards), and what changes without a move
(who is connected, a seat taken, the chat's length, a resignation, the clock's seconds left) as it is now."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

import kumiki
from kumiki.games.towerbrix.rules import TowerBrixState
from kumiki.server.limits import Limits
from kumiki.server.rooms import Room, record_ready

FAST = Limits(ws_rate=1000.0, ws_burst=1000.0)  # syncs in bursts: none refused


def plain_view(room: Room, seat: int | None) -> str:
    """The view message as Room.view_message built it before the cache, everything afresh (the reference)."""
    state = room.state
    actors = [] if room.over else state.actors
    legal = [str(m) for m in state.legal_moves(player=seat)] if seat is not None and seat in actors else []
    connected = {c.seat for c in room.connections}
    seats = [{**s.public(), "connected": s.kind == "agent" or s.seat in connected} for s in room.row.seats]
    history = [str(m) for m in state.history] if seat is None else state.seen_history(seat)
    return json.dumps(
        {
            "type": "view",
            "game": room.row.game,
            "id": room.row.id,
            "seat": seat,
            "ply": len(state.history),
            "to_move": None if room.over else state.to_move,
            "actors": actors,
            "movers": room.movers,
            "over": room.over,
            "resigned": room.resigned,
            "may_resign": room.may_resign(seat),
            "scores": state.scores(),
            "winners": room.winners(),
            "teams": state.teams(),
            "view": state.public_view() if seat is None else state.view(seat),
            "legal": legal,
            "history": history,
            "last": history[-1] if history else None,
            "seats": seats,
            "undo": room.row.undo,
            "imported": room.row.imported,
            "seed_chosen": room.row.seed_chosen,
            "record_ready": record_ready(room.over, room.row.imported, state.game.has_chance()),
            "clock": room.clock_json(),
            "silent": room.silent(),
            "hints": room.no_hints(seat) is None,
            "chat": len(room.chat),
        }
    )


def _room(client: TestClient, game: dict[str, Any]) -> Room:
    room: Room = client.app.state.hub.rooms[game["id"]]  # type: ignore[attr-defined]
    return room


def _card_ids(text: str) -> set[str]:
    """Every card id (G01…G50, P01…P55) anywhere in a message."""
    return set(re.findall(r"\b[GP]\d\d\b", text))


def _next_view(ws: Any) -> str:
    """The next message, which must be a view, as the text sent."""
    text: str = ws.receive_text()
    assert text.startswith('{"type": "view"'), text[:200]
    return text


def _sync(ws: Any) -> str:
    ws.send_json({"type": "sync"})
    return _next_view(ws)


@contextlib.contextmanager
def _counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How often TowerBrix builds a seat's view and a spectator's, while the block runs."""
    counts = {"view": 0, "public_view": 0}
    with monkeypatch.context() as patch:  # put back as they were when the block ends
        for name in counts:
            built = getattr(TowerBrixState, name)

            def counting(self: TowerBrixState, *args: Any, _name: str = name, _built: Any = built) -> Any:
                counts[_name] += 1
                return _built(self, *args)

            patch.setattr(TowerBrixState, name, counting)
        yield counts


TWO = {"players": 2, "difficulty": "easy"}  # the web's default turns: both seats build at once


def test_every_seat_and_spectator_gets_its_own_view_byte_for_byte_and_no_other_seats_cards(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two seats with hidden cards and two spectators, syncing in every order before and after moves: each gets the
    message built afresh for its own seat, so seat 0 sees only its cards, seat 1 only its, a spectator none. A cache
    keyed by the position alone (not the seat) would send whoever asked first's view to the rest."""
    client = serve(limits=FAST)
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    game = create(client, seats, "towerbrix", seed=8, options=TWO)
    hands = kumiki.load_game("towerbrix", **TWO, turns="free").new_state(seed=8).to_json()["hands"]
    assert hands[0] and hands[1] and not set(hands[0]) & set(hands[1])
    owns = {0: set(hands[0]), 1: set(hands[1]), None: set()}
    with contextlib.ExitStack() as stack:
        connections: list[tuple[int | None, Any]] = []
        for seat in (1, None, 0, None):  # a player's arrival is a view for everyone there, a spectator's its own
            ws = stack.enter_context(client.websocket_connect(url(game, seat)))
            connections.append((seat, ws))
            for _seat, each in connections if seat is not None else [(seat, ws)]:
                _next_view(each)
        room = _room(client, game)

        def check(seat: int | None, text: str) -> None:
            assert _card_ids(text) == owns[seat], f"seat {seat} was sent {_card_ids(text) ^ owns[seat]}"
            assert text == plain_view(room, seat)

        orders = [connections, connections[::-1], [connections[1], connections[0], connections[3], connections[2]]]
        for ply in range(4):
            with _counted(monkeypatch) as counts:  # at a position every view is built already (the broadcast's)
                synced = [(seat, _sync(ws)) for order in orders for seat, ws in order]
            assert counts == {"view": 0, "public_view": 0}
            for seat, text in synced:
                check(seat, text)
            mover = connections[2][1] if ply % 2 == 0 else connections[0][1]  # seat 0, then seat 1
            mine = json.loads(_sync(mover))
            move = next(m for m in mine["legal"] if m != "ok" and not m.startswith("-"))
            with _counted(monkeypatch) as counts:
                mover.send_json({"type": "move", "ply": ply, "move": move})
                sent = [(seat, _next_view(ws)) for seat, ws in connections]
            assert counts == {"view": 2, "public_view": 1}  # one view a seat, however many connections it has
            for seat, text in sent:
                assert json.loads(text)["ply"] == ply + 1
                check(seat, text)
            assert not json.loads(text)["view"]["evaluations"]  # no card revealed yet: the check above holds


def test_what_changes_without_a_move_is_sent_as_it_is_now(serve: Callable[..., TestClient]) -> None:
    """At one position: a seat taken, a player connecting and leaving, a chat line, a resignation. Each shows in the
    next sync, equal to the message built afresh (a resignation empties the legal moves the cache holds)."""
    client = serve(limits=FAST)
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "open"}], seed=4)
    with client.websocket_connect(url(game, 0)) as ann, client.websocket_connect(url(game)) as spectator:
        receive_until(spectator, view_at(0))
        room = _room(client, game)
        first = json.loads(_sync(spectator))
        assert first["seats"][1]["kind"] == "open"
        taken = client.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": "bob"}).json()
        receive_until(spectator, lambda m: m["type"] == "view" and m["seats"][1]["kind"] == "human")
        text = _sync(spectator)
        assert text == plain_view(room, None) and json.loads(text)["seats"][1]["name"] == "bob"
        with client.websocket_connect(f"/ws/games/{game['id']}?token={taken['token']}") as bob:
            receive_until(bob, view_at(0))
            receive_until(spectator, lambda m: m["type"] == "view" and m["seats"][1]["connected"])
            text = _sync(spectator)
            assert text == plain_view(room, None) and json.loads(text)["seats"][1]["connected"] is True
            receive_until(ann, lambda m: m["type"] == "view" and m["seats"][1]["connected"])
            to_move = ann if first["to_move"] == 0 else bob
            assert json.loads(_sync(to_move))["legal"]  # cached at this position with its legal moves
            ann.send_json({"type": "chat", "text": "hello"})
            receive_until(spectator, lambda m: m["type"] == "chat")
            text = _sync(spectator)
            assert text == plain_view(room, None) and json.loads(text)["chat"] == 1
            to_move.send_json({"type": "resign"})
            receive_until(to_move, lambda m: m["type"] == "view" and m["over"])
            text = _sync(to_move)
            seat = 0 if to_move is ann else 1
            assert text == plain_view(room, seat)
            view = json.loads(text)
            assert view["ply"] == 0 and view["over"] and view["legal"] == [] and view["resigned"] == seat
        receive_until(spectator, lambda m: m["type"] == "view" and not m["seats"][1]["connected"])
        text = _sync(spectator)
        assert text == plain_view(room, None) and json.loads(text)["seats"][1]["connected"] is False


def test_an_undo_shows_the_position_taken_back_to(client: TestClient) -> None:
    """An undo puts another State in the room's place: the next views are of it, not of the position undone."""
    game = create(client, [{"kind": "agent", "agent": "random"}, HUMAN], seed=9, undo=True)
    with client.websocket_connect(url(game, 1)) as ws:
        view = receive_until(ws, lambda m: m["type"] == "view" and m["to_move"] == 1)
        ply = view["ply"]
        first, second = view["legal"][:2]
        ws.send_json({"type": "move", "ply": ply, "move": first})
        receive_until(ws, view_at(ply + 2))  # and the computer's reply
        ws.send_json({"type": "undo"})
        receive_until(ws, view_at(ply))
        room = _room(client, game)
        text = _sync(ws)
        assert text == plain_view(room, 1) and json.loads(text)["legal"][:2] == [first, second]
        ws.send_json({"type": "move", "ply": ply, "move": second})
        receive_until(ws, view_at(ply + 2))
        text = _sync(ws)
        assert text == plain_view(room, 1) and json.loads(text)["history"][ply] == second


CLOCKED = {"players": 1, "mode": "challenge", "challenge": 2, "time_limit": 60}


def test_a_cached_view_tells_the_seconds_left_as_they_are_now(client: TestClient) -> None:
    """Challenge 2's clock: the seconds left are read at each message, not kept with the position."""
    game = create(client, [{"kind": "human", "name": "sol"}], game="towerbrix", seed=5, options=CLOCKED)
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": next(m for m in view["legal"] if m != "ok")})
        receive_until(ws, view_at(1))
        room = _room(client, game)
        left = []
        for _ in range(2):
            time.sleep(0.05)
            text = _sync(ws)
            left.append(json.loads(text)["clock"]["left"])
            reference = plain_view(room, 0)
            assert re.sub(r'"left": [0-9.]+', "", text) == re.sub(r'"left": [0-9.]+', "", reference)
        assert 59 < left[1] < left[0] <= 60
