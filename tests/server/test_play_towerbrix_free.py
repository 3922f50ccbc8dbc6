"""TowerBrix with free turns over the server (the rulebook's table: everyone builds at once): any seat edits at any
moment, the server applies edits in the order they come and refuses one that no longer applies, every seat sees the
same tower, cards stay secret, and the record names who played each move."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import create, error, receive_until, url, view_at

import kumiki
from kumiki.server.limits import Limits

FREE = {"players": 3, "turns": "free", "difficulty": "easy", "max_edits": 20}


def test_the_web_form_starts_from_free_turns(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    towerbrix = next(g for g in catalog["games"] if g["name"] == "towerbrix")
    turns = next(o for o in towerbrix["options"] if o["name"] == "turns")
    assert turns["default"] == "free" and turns["choices"] == ["free", "cycle"]


def test_two_humans_edit_at_once_in_the_servers_order_and_a_late_edit_is_refused(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}, {"kind": "human", "name": "cy"}]
    game = create(client, seats, game="towerbrix", seed=3, options=FREE)
    hands = kumiki.load_game("towerbrix", **FREE).new_state(seed=3).to_json()["hands"]
    with (
        client.websocket_connect(url(game, 0)) as ann,
        client.websocket_connect(url(game, 1)) as bob,
        client.websocket_connect(url(game, 2)) as cy,
    ):
        first = receive_until(ann, view_at(0))
        receive_until(bob, view_at(0))
        receive_until(cy, view_at(0))
        assert first["actors"] == [0, 1, 2] and first["to_move"] == 0
        # bob acts before ann, whose turn a cycle would have given
        bob.send_json({"type": "move", "ply": 0, "move": "Y1 z 0,0"})
        views = [receive_until(ws, view_at(1)) for ws in (ann, bob, cy)]
        assert {json.dumps(v["view"]["bricks"]) for v in views} == {json.dumps(views[0]["view"]["bricks"])}
        assert views[0]["movers"] == [1] and views[1]["legal"] and views[0]["legal"]
        # ann and cy both send an edit seen at ply 1: both touch the tower, so both apply, in the order they came
        ann.send_json({"type": "move", "ply": 1, "move": "P1 z 1,0"})
        receive_until(ann, view_at(2))
        cy.send_json({"type": "move", "ply": 1, "move": "R1 z 0,1"})
        views = [receive_until(ws, view_at(3)) for ws in (ann, bob, cy)]
        assert views[0]["movers"] == [1, 0, 2]
        assert {json.dumps(v["view"]["bricks"]) for v in views} == {json.dumps(views[0]["view"]["bricks"])}
        # bob takes R1 away; cy's removal of R1, sent from the same ply, no longer applies: refused in one line
        bob.send_json({"type": "move", "ply": 3, "move": "-R1"})
        seen_by_bob = receive_until(bob, view_at(4))
        cy.send_json({"type": "move", "ply": 3, "move": "-R1"})
        refusal = receive_until(cy, error("illegal"))
        assert "R1 is not in the tower" in refusal["message"] and "1 edits meanwhile" in refusal["message"]
        views = [receive_until(ann, view_at(4)), seen_by_bob, receive_until(cy, view_at(4))]
        for seat, view in enumerate(views):  # the same tower everywhere, and only one's own cards
            assert [b["id"] for b in view["view"]["bricks"]] == ["Y1", "P1"]
            assert view["view"]["hands"][seat] == hands[seat]
            assert all(hand is None for k, hand in enumerate(view["view"]["hands"]) if k != seat)
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["moves"] == ["Y1 z 0,0", "P1 z 1,0", "R1 z 0,1", "-R1"] and replay["movers"] == [1, 0, 2, 1]
    assert [b["id"] for b in replay["states"][-1]["bricks"]] == ["Y1", "P1"]


def test_a_computer_teammate_builds_alongside_the_people(serve: Any) -> None:
    client = serve(limits=Limits(agent_pace=5.0))  # the person's first move comes well within the computer's pace
    seats = [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}, {"kind": "human", "name": "cy"}]
    game = create(client, seats, game="towerbrix", seed=4, options=FREE)
    with client.websocket_connect(url(game, 0)) as ann:
        view = receive_until(ann, view_at(0))
        ann.send_json({"type": "move", "ply": 0, "move": "Y1 z 0,0"})  # to_move passes to seat 1, the computer
        view: dict[str, Any] = receive_until(ann, view_at(2))
    assert view["movers"][:2] == [0, 1] and view["to_move"] == 2


def test_an_imported_free_turn_record_keeps_who_played_each_move(client: TestClient) -> None:
    state = kumiki.load_game("towerbrix", **FREE).new_state(seed=6)
    for move, seat in (("Y1 z 0,0", 2), ("ok", 1), ("P1 z 1,0", 2), ("ok", 0)):
        state.play(move, player=seat)
    answer = client.post("/api/records", content=kumiki.write_record(state)).json()
    replay = client.get(f"/api/games/{answer['id']}/replay").json()
    assert replay["movers"] == [2, 1, 2, 0]
    assert replay["states"][-1] == state.public_view()


def test_a_computer_teammate_edits_at_a_human_pace(serve: Any) -> None:
    client = serve(limits=Limits(agent_pace=0.8))
    seats = [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "random"}, {"kind": "human", "name": "cy"}]
    game = create(client, seats, game="towerbrix", seed=4, options=FREE)
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        ann.send_json({"type": "move", "ply": 0, "move": "Y1 z 0,0"})
        receive_until(ann, view_at(2))
    storage = client.app.state.hub.storage  # type: ignore[attr-defined]
    human, computer = storage.move_time(game["id"], 0), storage.move_time(game["id"], 1)
    assert human is not None and computer is not None
    assert computer - human >= 0.75  # not at once: the table had time to see ann's brick


def test_a_person_pressing_ok_again_does_not_keep_the_computers_from_building(serve: Any) -> None:
    """A person waiting for the computer teammates pressed ok about once a second: each ok was stored (341 of 346
    moves in 400 s of a browser game), put off the computers' pace and threw away the move they were thinking of,
    so they placed 4 bricks in that time. An ok from a seat whose thumb is up is refused and stores nothing."""
    client = serve(limits=Limits(agent_pace=0.8))
    seats = [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "easy"}, {"kind": "agent", "level": "easy"}]
    game = create(client, seats, game="towerbrix", seed=4, options=FREE)
    with client.websocket_connect(url(game, 0)) as ann:
        view = receive_until(ann, view_at(0))
        for brick in ("Y1 z 0,0", "Y2 z 1,0"):
            ann.send_json({"type": "move", "ply": view["ply"], "move": brick})
            view = receive_until(ann, lambda m, placed=brick: m["type"] == "view" and placed in m["history"])
        ann.send_json({"type": "move", "ply": view["ply"], "move": "ok"})
        view = receive_until(ann, lambda m: m["type"] == "view" and m["history"][-1:] == ["ok"])
        said = view["ply"]
        began = time.monotonic()
        refusals = 0
        while time.monotonic() - began < 8 and view["ply"] == said:
            ann.send_json({"type": "move", "ply": view["ply"], "move": "ok"})  # thumb still up: waiting for them
            refused = receive_until(ann, lambda m: m["type"] in ("error", "view"))
            if refused["type"] == "view" or refused["code"] == "stale":  # a computer's edit came first: they build
                assert "ok" not in refused.get("history", [])[said:], refused["history"]  # not a stored ok again
                break
            assert refused["code"] == "illegal" and "thumb is already up" in refused["message"], refused
            refusals += 1
            view = receive_until(ann, lambda m: m["type"] == "view")
            time.sleep(0.3)
    assert refusals >= 1
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert len(replay["moves"]) > said  # a computer built meanwhile
    assert [m for k, m in enumerate(replay["moves"]) if replay["movers"][k] == 0] == ["Y1 z 0,0", "Y2 z 1,0", "ok"]


def test_turn_based_games_keep_no_pace(serve: Any) -> None:
    client = serve(limits=Limits(agent_pace=5.0))
    game = create(client, [{"kind": "agent", "level": "random"}, {"kind": "human", "name": "bob"}], seed=3)
    with client.websocket_connect(url(game, 1)) as bob:
        view = receive_until(bob, view_at(0))
        began = time.monotonic()
        bob.send_json({"type": "move", "ply": 0, "move": view["legal"][0]})
        receive_until(bob, view_at(2))
        assert time.monotonic() - began < 4.0  # the computer answers at once: the pace is for building together


def _free_game(serve: Any, seats: list[dict[str, Any]], seed: int = 5) -> tuple[TestClient, dict[str, Any]]:
    client = serve(limits=Limits(agent_pace=0.05))
    options = {"players": len(seats), "turns": "free", "difficulty": "easy"}
    return client, create(client, seats, game="towerbrix", seed=seed, options=options)


EASY_MATE = {"kind": "agent", "level": "easy"}


def _stays(ws: Any, ply: int) -> None:
    """Nothing is played for a while (twelve paces: an agent repeating its ok would have filled the history)."""
    time.sleep(0.6)
    ws.send_json({"type": "sync"})
    assert receive_until(ws, lambda m: m["type"] == "view")["ply"] == ply


def test_a_computer_teammate_builds_on_its_own_and_then_waits(serve: Any) -> None:
    """Everyone builds at once: the computer in seat 0 (the first tower's builder: most cards, the lowest seat on a
    tie) builds without waiting for the person to act first, and once it has said ok it waits for the table."""
    client, game = _free_game(serve, [EASY_MATE, {"kind": "human", "name": "ann"}])
    with client.websocket_connect(url(game, 1)) as ann:
        done = receive_until(ann, lambda m: m["type"] == "view" and m["history"][-1:] == ["ok"], limit=400)
        assert set(done["movers"]) == {0} and len(done["view"]["bricks"]) == 8  # the whole first tower, alone
        _stays(ann, done["ply"])
        ann.send_json({"type": "move", "ply": done["ply"], "move": "ok"})  # both thumbs up: the tower is judged
        after = receive_until(ann, lambda m: m["type"] == "view" and m["ply"] > done["ply"] + 1, limit=400)
        assert after["movers"][done["ply"]] == 1 and after["view"]["evaluations"]


def test_a_computer_teammate_leaves_a_persons_work_in_progress_alone(serve: Any) -> None:
    """The person in seat 0 builds the first tower; a pause of theirs is no pass: the computer neither takes the
    work over nor puts a thumb up on the unfinished tower (its "I wait" is no move), however often it is asked."""
    client, game = _free_game(serve, [{"kind": "human", "name": "ann"}, EASY_MATE])
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        ann.send_json({"type": "move", "ply": 0, "move": "Y1 z 0,0"})
        receive_until(ann, view_at(1))
        _stays(ann, 1)


def test_two_computer_teammates_wait_for_the_builder_and_take_over_when_it_passes(serve: Any) -> None:
    """Neither computer plays anything while the person who builds first (seat 0) has not begun (no oks traded,
    no thumb up on an empty table); once the person passes with an ok, a computer builds the tower."""
    client, game = _free_game(serve, [{"kind": "human", "name": "ann"}, EASY_MATE, EASY_MATE])
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        _stays(ann, 0)
        ann.send_json({"type": "move", "ply": 0, "move": "ok"})  # "you build": ann's thumb up on the empty table
        built = receive_until(ann, lambda m: m["type"] == "view" and len(m["view"]["bricks"]) == 8, limit=600)
        assert built["movers"][0] == 0 and set(built["movers"][1:]) <= {1, 2}
        assert "ok" not in built["history"][1:]  # nobody's thumb went up on the unfinished tower


def test_computers_wait_for_their_people_to_sit_down(serve: Any) -> None:
    """A free-turn game nobody has opened is not built (and its clock not started) by its computers alone."""
    client, game = _free_game(serve, [EASY_MATE, {"kind": "human", "name": "ann"}])
    time.sleep(0.5)
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0


def test_the_random_computer_plays_the_same_move_in_the_same_position() -> None:
    """Its seed comes from the game's seed, the ply and the seat: a test whose computer is "random" (the one above:
    an unseeded "ok" there would have waited for ever, about one run in a few hundred) plays alike every time."""
    from kumiki.server.agents import choose_move

    args = ("towerbrix", {"players": 3, "turns": "free"}, 4, ["Y1 z 0,0"], "random", [0])
    moves = {choose_move(*args, seat=1) for _ in range(5)}
    assert len(moves) == 1
    others = {
        choose_move("towerbrix", {"players": 3, "turns": "free"}, seed, ["Y1 z 0,0"], "random", [0], 1)
        for seed in range(8)
    }
    assert len(others) > 1  # another game's seed, another move


def test_two_computers_that_only_wait_beside_people_who_all_said_ok_end_the_build(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person has said ok on a tower that cannot pass and both computers answer ok too: neither ok was the last
    thumb (the other computer's was down), so each was an "I wait" and the game stood still for ever (the random
    level does so on a table of all eight bricks that stands apart: a few removals and ok are all it can play).
    Nobody else may change the table: their oks are played and the tower is judged as it stands."""
    from kumiki.server import hub as hub_module

    monkeypatch.setattr(hub_module, "choose_move", lambda *args: "ok")  # a computer that never builds
    client, game = _free_game(serve, [{"kind": "human", "name": "ann"}, EASY_MATE, EASY_MATE])
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        ann.send_json({"type": "move", "ply": 0, "move": "Y1 z 0,0"})
        receive_until(ann, view_at(1))
        _stays(ann, 1)  # ann still builds: the computers' oks wait for her
        ann.send_json({"type": "move", "ply": 1, "move": "ok"})
        judged = receive_until(ann, view_at(2))
        deadline = time.monotonic() + 5  # asked for, not waited on: a game that stands still sends nothing more
        while not judged["view"]["evaluations"] and time.monotonic() < deadline:
            time.sleep(0.1)
            ann.send_json({"type": "sync"})
            judged = receive_until(ann, lambda m: m["type"] == "view")
    assert judged["history"][:4] == ["Y1 z 0,0", "ok", "ok", "ok"] and sorted(judged["movers"][2:4]) == [1, 2]
    assert not judged["view"]["evaluations"][0]["success"]
