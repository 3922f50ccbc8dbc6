"""TowerBrix over the server: the catalog's options, teammate levels, a solo game and a team game (a human and a
computer teammate) played over the WebSocket to their first evaluation, and no seat ever seeing another's cards."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

import kumiki
from kumiki.server.agents import LEVELS, level_agent
from kumiki.server.catalog import WEB_DEFAULTS
from kumiki.server.limits import Limits


def test_the_catalog_offers_towerbrix_with_the_decks_and_without_the_fixed_geometry(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    towerbrix = next(g for g in catalog["games"] if g["name"] == "towerbrix")
    assert towerbrix["players"] == [1, 6]
    options = {o["name"]: o for o in towerbrix["options"]}
    assert options["deck"]["choices"] == ["green", "pink"]  # never a file on the server
    assert options["mode"]["choices"] == ["base", "intro", "solo", "challenge"]
    assert options["difficulty"]["choices"] == ["easy", "medium", "hard"]
    assert (options["challenge"]["min"], options["challenge"]["max"]) == (0, 14)
    assert not {"grid", "brick", "box_short", "box_long"} & set(options)
    assert options["time_limit"]["default"] == 150  # challenge 2's clock: the server runs it


def test_towerbrix_levels_are_teammates_with_growing_effort() -> None:
    levels = [level_agent("towerbrix", level) for level in ("easy", "medium", "hard")]
    assert {name for name, _ in levels} == {"towerbrix-teammate"}
    steps = [options["iterations"] for _, options in levels]
    assert steps == sorted(steps) and len(set(steps)) == 3
    for name, options in levels:  # the options are the agent's own (an unknown one would fail every move)
        assert kumiki.load_agent(name, **options).options["iterations"] in steps
    assert level_agent("towerbrix", "random") == LEVELS["random"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"deck": "/etc/hostname"}, "option 'deck': the web server offers green, pink"),
        ({"grid": 0.25}, "option 'grid' is fixed at 0.5"),
        ({"mode": "solo"}, "the solo game is for players=1"),
        ({"mode": "challenge"}, "needs a challenge from 1 to 14"),
        ({"mode": "challenge", "challenge": 15}, "option 'challenge'"),
        ({"difficulty": "nightmare"}, "option 'difficulty'"),
    ],
)
def test_bad_towerbrix_options_get_one_line(client: TestClient, options: dict[str, Any], words: str) -> None:
    response = client.post("/api/games", json={"game": "towerbrix", "seats": [HUMAN, HUMAN], "options": options})
    assert response.status_code == 400
    assert words in response.json()["error"] and "\n" not in response.json()["error"]


def test_a_solo_game_is_built_and_evaluated_over_the_websocket(client: TestClient) -> None:
    options = {"players": 1, "mode": "solo", "difficulty": "easy"}
    game = create(client, [{"kind": "human", "name": "sol"}], game="towerbrix", seed=5, options=options)
    state = kumiki.load_game("towerbrix", **WEB_DEFAULTS["towerbrix"], **options).new_state(seed=5)
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        assert view["view"] == state.view(0) and view["legal"] == [str(m) for m in state.legal_moves()]
        mine = view["view"]["hands"][0]
        assert mine and set(view["view"]["cards"]) == set(mine) and set(view["view"]["holds"]) == set(mine)
        for ply in range(3):  # the first placement listed, each time touching the tower
            move = next(m for m in view["legal"] if m != "ok" and not m.startswith("-"))
            ws.send_json({"type": "move", "ply": ply, "move": move})
            view = receive_until(ws, view_at(ply + 1))
            state.play(move)
            assert view["view"] == state.view(0) and len(view["view"]["bricks"]) == ply + 1
        with client.websocket_connect(url(game)) as spectator:  # the solo game is face up: spectators see the cards
            assert receive_until(spectator, view_at(3))["view"]["hands"] == [mine]
        ws.send_json({"type": "move", "ply": 3, "move": "ok"})
        view = receive_until(ws, view_at(4))
    evaluation = view["view"]["evaluations"][0]
    assert [c["id"] for c in evaluation["cards"]] == mine and not evaluation["success"]
    assert "unused" in evaluation["problems"][0] and len(evaluation["bricks"]) == 3
    assert view["view"]["bricks"] == [] and view["view"]["attempt"] == 2  # the table is cleared, new cards dealt


def _card_ids(message: dict[str, Any]) -> set[str]:
    """Every card id (G01…G50, P01…P55; a brick is P1) anywhere in a message."""
    words = json.dumps(message).replace('"', " ").split()
    return {w for w in words if len(w) == 3 and w[0] in "GP" and w[1:].isdigit()}


def test_a_human_and_a_computer_teammate_reach_an_evaluation_and_no_seat_sees_the_others_cards(
    client: TestClient,
) -> None:
    options = {"players": 2, "max_edits": 6, "difficulty": "easy"}
    seats = [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "easy"}]
    game = create(client, seats, game="towerbrix", seed=8, options=options)
    hands = kumiki.load_game("towerbrix", **options).new_state(seed=8).to_json()["hands"]
    assert hands[0] and hands[1]
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(url(game, 0)) as ws, client.websocket_connect(url(game)) as spectator:
        view = receive_until(ws, view_at(0))
        while not view["view"]["evaluations"]:
            seen.append(view)
            if view["to_move"] == 0:  # the human passes: the computer teammate builds (the convention's
                # worker: whoever made the last edit; a human who placed a brick and then agreed would end the build)
                ws.send_json({"type": "move", "ply": view["ply"], "move": "ok"})
            ply = view["ply"]
            view = receive_until(ws, lambda m, ply=ply: m["type"] == "view" and m["ply"] > ply)
        watched: list[dict[str, Any]] = []
        end = view["ply"]
        receive_until(spectator, lambda m: watched.append(m) is None and m["type"] == "view" and m["ply"] == end)
    teammate_edits = [m["last"] for m in seen if m["ply"] and m["ply"] % 2 == 0 and m["last"] != "ok"]
    assert teammate_edits, "the computer teammate placed no brick"
    for message in seen:  # before the evaluation: only seat 0's own cards, and only to seat 0
        assert message["view"]["hands"][1] is None and message["view"]["hand_sizes"] == [len(h) for h in hands]
        assert _card_ids(message) == set(hands[0]) and set(message["view"]["holds"]) == set(hands[0])
    for message in watched:  # a spectator sees no card at all until the evaluation reveals them
        if message["type"] == "view" and not message["view"]["evaluations"]:
            assert _card_ids(message) == set() and message["view"]["hands"] == [None, None]
    assert watched[-1]["view"]["evaluations"] == view["view"]["evaluations"]
    evaluation = view["view"]["evaluations"][0]
    assert {c["id"] for c in evaluation["cards"]} == set(hands[0]) | set(hands[1])  # revealed at the evaluation


CLOCKED = {"players": 1, "mode": "challenge", "challenge": 2, "time_limit": 1, "attempts": 2}


def test_challenge_2s_clock_runs_from_the_first_edit_and_ends_the_build(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "sol"}], game="towerbrix", seed=5, options=CLOCKED)
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        assert view["clock"] is None  # no clock until the build begins
        move = next(m for m in view["legal"] if m != "ok")
        ws.send_json({"type": "move", "ply": 0, "move": move})
        view = receive_until(ws, view_at(1))
        assert view["clock"]["seconds"] == 1 and 0 < view["clock"]["left"] <= 1
        view = receive_until(ws, view_at(2))  # the clock's move, a second later
    assert view["history"] == [move, "time"] and view["clock"] is None
    evaluation = view["view"]["evaluations"][0]
    assert not evaluation["success"] and evaluation["problems"][0] == "the time ran out (1 s)"
    assert view["view"]["attempt"] == 2
    assert client.get(f"/api/games/{game['id']}/replay").json()["moves"] == [move, "time"]
    # the game goes on, and its record (with the seed that tells every hand) waits for its end
    assert client.get(f"/api/games/{game['id']}/record").status_code == 409


def test_the_clock_runs_on_with_no_one_connected_and_an_undo_cannot_escape_it(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "sol"}], game="towerbrix", seed=5, options=CLOCKED, undo=True)
    edits = []
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        for ply in range(2):
            edits.append(next(m for m in view["legal"] if m != "ok" and not m.startswith("-")))
            ws.send_json({"type": "move", "ply": ply, "move": edits[-1]})
            view = receive_until(ws, view_at(ply + 1))
    assert game["id"] in client.app.state.hub.rooms  # type: ignore[attr-defined]  # kept while the clock runs
    deadline = time.monotonic() + 10
    while client.get(f"/api/games/{game['id']}").json()["moves"] < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 3  # the clock rang with no one there
    with client.websocket_connect(url(game, 0)) as ws:
        assert receive_until(ws, view_at(3))["history"] == [*edits, "time"]
        # Undo takes back the last edit and the clock's move after it; the build still began at ply 0, its time is
        # long gone, and the clock rings again at once.
        ws.send_json({"type": "undo"})
        assert receive_until(ws, view_at(1))["history"] == edits[:1]
        view = receive_until(ws, view_at(2))
    assert view["history"] == [edits[0], "time"]
    assert view["view"]["evaluations"][0]["problems"][0] == "the time ran out (1 s)"


@pytest.mark.parametrize("turns", ["cycle", "free"])
def test_an_imported_clock_move_is_nobodys_as_when_the_clock_played_it(client: TestClient, turns: str) -> None:
    """The clock's move (``time``) is stored with no seat when the server's clock plays it; the game's record books
    it to the seat that was to move (``time @1`` with free turns), and importing that record stored it as that
    seat's move, so the imported game showed a person playing the clock's move. Imported, it is nobody's too."""
    options = {**CLOCKED, "players": 2, "attempts": 1, "turns": turns}
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    game = create(client, seats, game="towerbrix", seed=5, options=options)
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": next(m for m in view["legal"] if m != "ok")})
        live = receive_until(ws, view_at(2))  # the clock's move: the build, and the game (one attempt), ends
    assert live["over"] and live["history"][1] == "time" and live["movers"] == [0, None]
    record = client.get(f"/api/games/{game['id']}/record").text
    imported = client.post("/api/records", content=record).json()
    replay = client.get(f"/api/games/{imported['id']}/replay").json()
    original = client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["moves"] == live["history"] and replay["movers"] == original["movers"] == [0, None]
    assert replay["states"] == original["states"] and replay["winners"] == original["winners"]
    with client.websocket_connect(f"/ws/games/{imported['id']}") as ws:
        view = receive_until(ws, view_at(2))
    assert view["movers"] == [0, None] and view["over"] and view["winners"] == live["winners"]
    assert client.get(f"/api/games/{imported['id']}/record").text.split("\n\n")[1] == record.split("\n\n")[1]


def test_a_player_cannot_play_the_clocks_move(client: TestClient) -> None:
    """Only the clock says the time ran out: a seat that sent ``time`` ended the build at once (100 s left)."""
    options = {**CLOCKED, "players": 2, "attempts": 2, "turns": "free", "time_limit": 100}
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
    game = create(client, seats, game="towerbrix", seed=5, options=options)
    with client.websocket_connect(url(game, 0)) as ws:
        receive_until(ws, view_at(0))
        for ply in (0, 1):
            if ply:  # and once the clock runs
                ws.send_json({"type": "move", "ply": 0, "move": "Y1 z 0,0"})
                receive_until(ws, view_at(1))
            ws.send_json({"type": "move", "ply": ply, "move": "time"})
            error = receive_until(ws, lambda m: m["type"] == "error")
            assert error["code"] == "illegal" and "the clock plays it" in error["message"]
        ws.send_json({"type": "why", "move": "time"})
        why = receive_until(ws, lambda m: m["type"] == "why")
        assert not why["legal"] and "the clock plays it" in why["reason"]
    assert client.get(f"/api/games/{game['id']}/replay").json()["moves"] == ["Y1 z 0,0"]


def test_an_option_left_out_takes_the_catalogs_default(client: TestClient) -> None:
    """A tool that trusts /api/catalog's "default" gets that game: TowerBrix's free turns and voted waives."""
    listed = {
        o["name"]: o["default"]
        for g in client.get("/api/catalog").json()["games"]
        for o in g["options"]
        if g["name"] == "towerbrix"
    }
    game = create(client, [HUMAN, HUMAN], game="towerbrix", seed=2)
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["options"]["turns"] == listed["turns"] == "free"
    assert summary["options"]["waive"] == listed["waive"] == "vote"
    chosen = create(client, [HUMAN, HUMAN], game="towerbrix", seed=2, options={"turns": "cycle"})
    assert client.get(f"/api/games/{chosen['id']}").json()["options"]["turns"] == "cycle"


def test_the_blind_seat_of_challenge_10_is_not_sent_where_the_bricks_went(client: TestClient) -> None:
    """Its view has no bricks, and the moves it is sent say only that an edit was made (``seen_history``)."""
    options = {"players": 2, "mode": "challenge", "challenge": 10, "turns": "free"}
    game = create(client, [HUMAN, HUMAN], game="towerbrix", seed=2, options=options)
    with client.websocket_connect(url(game, 0)) as ann, client.websocket_connect(url(game, 1)) as blind:
        receive_until(ann, view_at(0))
        ann.send_json({"type": "move", "ply": 0, "move": "Y1 z 0,0"})
        seen = receive_until(blind, view_at(1))
        assert seen["view"]["blind"] == 1 and seen["view"]["bricks"] == []
        assert seen["history"] == ["edit"] and seen["last"] == "edit" and seen["movers"] == [0]
        assert "Y1" not in json.dumps({k: v for k, v in seen.items() if k != "legal"})
        assert receive_until(ann, view_at(1))["history"] == ["Y1 z 0,0"]  # the others see the table
    with client.websocket_connect(url(game)) as spectator:
        assert receive_until(spectator, view_at(1))["last"] == "Y1 z 0,0"


@pytest.mark.parametrize("restart", ["none", "after the undo", "after the new edit"])
def test_an_undone_first_edit_leaves_the_builds_clock_running_a_restart_included(
    serve: Callable[..., TestClient], restart: str
) -> None:
    """The clock a build's first edit started keeps running when that edit is taken back: the next first edit plays
    on against the same deadline. The live room remembered the start by its ply only, so after a restart (which
    reads the moves stored, the undone one gone) the build was timed from the new edit instead."""
    client = serve()
    options = {**CLOCKED, "time_limit": 60}  # nothing rings during the test
    game = create(client, [{"kind": "human", "name": "sol"}], game="towerbrix", seed=5, options=options, undo=True)

    def deadline(client: TestClient) -> float:
        room = client.app.state.hub.rooms[game["id"]]  # type: ignore[attr-defined]
        found = room.clock()
        assert found is not None
        return float(found[1])

    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        edits = [m for m in view["legal"] if m != "ok" and not m.startswith("-")][:2]
        ws.send_json({"type": "move", "ply": 0, "move": edits[0]})
        receive_until(ws, view_at(1))
        first = deadline(client)
        ws.send_json({"type": "undo"})
        assert receive_until(ws, view_at(0))["clock"] is None  # no first move: nothing to show a clock on
        time.sleep(0.3)  # the new edit comes later than the first
        if restart != "after the undo":
            ws.send_json({"type": "move", "ply": 0, "move": edits[1]})
            receive_until(ws, view_at(1))
            live = deadline(client)
    if restart != "none":
        client.__exit__(None, None, None)
        client = serve()
    with client.websocket_connect(url(game, 0)) as ws:
        if restart == "after the undo":
            receive_until(ws, view_at(0))
            ws.send_json({"type": "move", "ply": 0, "move": edits[1]})
        view = receive_until(ws, view_at(1))
        live = deadline(client) if restart == "after the undo" else live
        assert deadline(client) == live == first  # exactly, as stored
    assert view["history"] == edits[1:] and view["clock"]["left"] <= 60 - 0.3


def test_a_one_edit_build_whose_clock_rang_rings_again_at_once_after_an_undo_and_a_restart(
    serve: Callable[..., TestClient],
) -> None:
    """Undo takes back the build's only edit and the clock's move after it; its time is gone, so a new first edit
    ends the build at once, after a restart as in the live game."""
    client = serve()
    game = create(client, [{"kind": "human", "name": "sol"}], game="towerbrix", seed=5, options=CLOCKED, undo=True)
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        edit = next(m for m in view["legal"] if m != "ok" and not m.startswith("-"))
        ws.send_json({"type": "move", "ply": 0, "move": edit})
        assert receive_until(ws, view_at(2))["history"] == [edit, "time"]  # a second later
        ws.send_json({"type": "undo"})
        assert receive_until(ws, view_at(0))["clock"] is None
    client.__exit__(None, None, None)
    client = serve()
    with client.websocket_connect(url(game, 0)) as ws:
        receive_until(ws, view_at(0))
        began = time.monotonic()
        ws.send_json({"type": "move", "ply": 0, "move": edit})
        view = receive_until(ws, view_at(2))
    assert view["history"] == [edit, "time"] and time.monotonic() - began < 0.9  # not a new second
    assert view["view"]["evaluations"][0]["problems"][0] == "the time ran out (1 s)"


def test_a_clock_that_fails_logs_it_and_lets_its_room_go(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The clock task's error path returned without releasing the room: a game nobody watched stayed in memory."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    stored = hub.storage.add_move

    def refuse_the_clock(game_id: str, ply: int, seat: int | None, move: str, result: dict[str, Any]) -> float:
        if move == "time":
            raise RuntimeError("the disk is full")
        return float(stored(game_id, ply, seat, move, result))

    monkeypatch.setattr(hub.storage, "add_move", refuse_the_clock)
    game = create(client, [{"kind": "human", "name": "sol"}], game="towerbrix", seed=5, options=CLOCKED)
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": next(m for m in view["legal"] if m != "ok")})
        receive_until(ws, view_at(1))
    deadline = time.monotonic() + 10
    while game["id"] in hub.rooms and time.monotonic() < deadline:
        time.sleep(0.05)
    assert game["id"] not in hub.rooms  # let go once the clock failed: no one is connected
    assert any(r.getMessage() == f"the clock of game {game['id']} failed" for r in caplog.records)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 1  # nothing stored


def test_the_catalog_bounds_the_card_points_per_round_by_the_deck_as_the_engine_does(
    serve: Callable[..., TestClient],
) -> None:
    """The form let "Card points per round" go up to 200 whatever the deck; the engine refuses more than every card's
    points (122 green, 133 pink) and a total the deck's 2- and 3-point cards cannot make. The catalog says, per deck,
    what the engine takes, so the form can check it before a player meets the refusal."""
    client = serve(limits=Limits(http_burst=1000))
    catalog = client.get("/api/catalog").json()
    towerbrix = next(g for g in catalog["games"] if g["name"] == "towerbrix")
    total = next(o for o in towerbrix["options"] if o["name"] == "total")
    assert total["bounds_by"]["option"] == "deck"
    assert set(total["bounds_by"]["values"]) == {"green", "pink"}
    for deck, bounds in total["bounds_by"]["values"].items():
        edges = {total["min"], *bounds["except"], *range(bounds["max"] - 2, bounds["max"] + 2), total["max"] + 1}
        for points in sorted(edges):
            offered = points <= bounds["max"] and points not in bounds["except"]
            body = {"game": "towerbrix", "options": {"deck": deck, "total": points}, "seats": [{"kind": "human"}] * 2}
            answer = client.post("/api/games", json=body)
            assert (answer.status_code == 200) == offered, (deck, points, answer.text)
