"""Export a game as a .kmk record, import a record to watch, and the replay endpoint."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import create, random_game, receive_until, url, view_at

import kumiki
from kumiki.server.limits import Limits


def _recorded_game(moves: int, seed: int = 4) -> kumiki.State:
    return random_game("kuzushi", moves, seed, players=2, size=5)


def test_export_writes_the_stored_moves_as_a_record(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], seed=12)
    with client.websocket_connect(url(game, 1)) as bob, client.websocket_connect(url(game, 0)) as ann:
        first = receive_until(bob, view_at(0))["legal"][0]
        bob.send_json({"type": "move", "ply": 0, "move": first})
        second = receive_until(ann, view_at(1))["legal"][0]
        ann.send_json({"type": "move", "ply": 1, "move": second})
        receive_until(bob, view_at(2))
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.headers["content-type"].startswith("text/plain")
    assert '[Player0 "ann"]' in response.text and '[Seed "12"]' in response.text
    _game, state = kumiki.read_record(response.text)
    assert [str(m) for m in state.history] == [first, second]


def test_an_imported_record_replays_state_by_state(client: TestClient) -> None:
    finished = _recorded_game(200)
    assert finished.over
    text = kumiki.write_record(finished, {"Player0": "ann", "Player1": "bob"})
    answer = client.post("/api/records", content=text, headers={"content-type": "text/plain"}).json()
    assert answer["replay"] == f"/replay/{answer['id']}"
    summary = client.get(f"/api/games/{answer['id']}").json()
    assert summary["imported"] and summary["status"] == "over" and summary["winners"] == finished.winners()
    assert [s["name"] for s in summary["seats"]] == ["ann", "bob"]
    assert all(s["kind"] == "record" for s in summary["seats"])
    replay = client.get(f"/api/games/{answer['id']}/replay").json()
    assert replay["moves"] == [str(m) for m in finished.history]
    assert len(replay["states"]) == len(finished.history) + 1
    step = kumiki.load_game("kuzushi", players=2, size=5).new_state(seed=4)
    assert replay["states"][0] == step.public_view()
    for k, move in enumerate(finished.history[:5], start=1):
        step.play(move)
        assert replay["states"][k] == step.public_view()
    assert replay["states"][-1] == finished.public_view()
    assert replay["over"] is True and replay["teams"] == finished.teams()  # what the page's result is worded from
    assert client.get(f"/api/games/{answer['id']}/record").text.splitlines()[-1] == str(finished.history[-1])


@pytest.mark.parametrize("seed", [2**53 - 1, 3_000_000_000, -(2**31), -5])
def test_a_record_with_a_large_or_an_old_negative_seed_is_imported_and_replays_from_it(
    client: TestClient, seed: int
) -> None:
    """A game the server dealt from a 53-bit seed comes back as a record with that seed; records with the negative
    seeds a 32-bit column kept still import. Either replays from its own seed."""
    state = kumiki.load_game("towerbrix", players=2).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(3):
        state.play(rng.choice(state.legal_moves()))
    answer = client.post("/api/records", content=kumiki.write_record(state)).json()
    assert f'[Seed "{seed}"]' in client.get(f"/api/games/{answer['id']}/record").text
    replay = client.get(f"/api/games/{answer['id']}/replay").json()
    assert replay["states"][0] == kumiki.load_game("towerbrix", players=2).new_state(seed=seed).public_view()
    assert replay["states"][-1] == state.public_view()


def test_nobody_can_move_in_an_imported_game(client: TestClient) -> None:
    unfinished = _recorded_game(3)
    answer = client.post("/api/records", content=kumiki.write_record(unfinished)).json()
    with client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
        view = receive_until(ws, view_at(3))
        assert view["imported"] and view["legal"] == []
        ws.send_json({"type": "move", "ply": 3, "move": "B 1,0"})
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "forbidden"
    assert client.get(f"/api/games/{answer['id']}").json()["moves"] == 3


def test_a_bad_record_is_refused_with_its_line(client: TestClient) -> None:
    bad = '[Game "kuzushi"]\n[Players "2"]\n\nB 1,0\nB 99,99\n'
    response = client.post("/api/records", content=bad)
    assert response.status_code == 400 and response.json()["error"].startswith("line 5: illegal move")
    assert client.post("/api/records", content='[Game "chess"]\n').json()["error"].startswith("line 1: unknown game")
    towerbrix = kumiki.write_record(kumiki.load_game("towerbrix").new_state(seed=1))
    file_deck = towerbrix.replace('[deck "green"]', '[deck "/etc/hostname"]')  # the server never reads its files
    assert "option 'deck'" in client.post("/api/records", content=file_deck).json()["error"]
    assert client.post("/api/records", content=b"\xff\xfe").json() == {"error": "a record is UTF-8 text"}
    assert client.post("/api/records", content=b"#" * 1_100_000).status_code == 413
    assert client.get("/api/games").json()["games"] == []


def test_an_imported_record_keeps_only_the_printable_characters_of_a_name(client: TestClient) -> None:
    """A NUL byte in a player tag is no 500 on PostgreSQL (which refuses NUL in text), nor a stored control code."""
    text = '[Game "kuzushi"]\n[Player0 "al\x00ice\x07"]\n[Player1 "\x01\x02"]\n\nB 1,0\n'
    answer = client.post("/api/records", content=text.encode(), headers={"content-type": "text/plain"})
    assert answer.status_code == 200, answer.text
    summary = client.get(f"/api/games/{answer.json()['id']}").json()
    assert [s["name"] for s in summary["seats"]] == ["alice", "player 2"]


def test_a_computer_seat_is_named_once_in_the_record(client: TestClient) -> None:
    game = create(client, [{"kind": "agent", "level": "easy"}, {"kind": "agent", "agent": "greedy"}], seed=2)
    text = client.get(f"/api/games/{game['id']}/record").text
    assert '[Player0 "easy computer"]' in text and '[Player1 "greedy computer"]' in text  # not "… (easy)"


def test_an_imported_record_gives_back_its_own_event_and_date(client: TestClient) -> None:
    """The server writes an imported game's record again: the Event and Date it came with are kept, not replaced
    by the server's own Event (a record imported without them gets the server's)."""
    finished = _recorded_game(200)
    text = kumiki.write_record(finished, {"Event": 'Club "night" 12', "Date": "2026.11.27", "Player0": "ann"})
    answer = client.post("/api/records", content=text).json()
    exported = client.get(f"/api/games/{answer['id']}/record").text
    assert '[Event "Club \\"night\\" 12"]' in exported and '[Date "2026.11.27"]' in exported
    assert "kumiki web game" not in exported
    _game, state = kumiki.read_record(exported)
    assert state.to_json() == finished.to_json()
    bare = client.post("/api/records", content=kumiki.write_record(finished)).json()
    assert f'[Event "kumiki web game {bare["id"]}"]' in client.get(f"/api/games/{bare['id']}/record").text


def test_names_and_chat_take_emoji_sequences_but_no_direction_overrides(client: TestClient) -> None:
    """A name of an emoji joined by U+200D (a family, a technologist) or a subdivision flag was refused as "not
    printable"; a right-to-left override, which makes a name read backwards, stays refused."""
    coder, scotland = "👩\u200d💻 ann", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f bob"
    game = create(client, [{"kind": "human", "name": coder}, {"kind": "human", "name": scotland}], seed=3)
    assert [s["name"] for s in game["seats"]] == [coder, scotland]
    refused = client.post("/api/games", json={"game": "kuzushi", "seats": [{"kind": "human", "name": "\u202eann"}]})
    assert refused.status_code == 400 and "printable" in refused.json()["error"]
    record = client.get(f"/api/games/{game['id']}/record").text
    assert f'[Player0 "{coder}"]' in record
    assert kumiki.read_record(record)[1].game.players == 2  # the record reads
    imported = client.post("/api/records", content=record.encode(), headers={"content-type": "text/plain"})
    assert [s["name"] for s in client.get(f"/api/games/{imported.json()['id']}").json()["seats"]] == [coder, scotland]
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        ann.send_json({"type": "chat", "text": "👨\u200d👩\u200d👧 hi"})
        line = receive_until(ann, lambda m: m["type"] == "chat" and bool(m["entries"]))["entries"][0]
        assert line["text"] == "👨\u200d👩\u200d👧 hi"
        ann.send_json({"type": "chat", "text": "\u202eih"})
        assert "printable" in receive_until(ann, lambda m: m["type"] == "error")["message"]


def test_a_finished_games_record_is_built_once(serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each request for a record replayed the stored game and wrote its record again (a long TowerBrix or Kozo game:
    a core for a while each time), as often as a client asked, with no limit. A game that can no longer change is
    built once; a game still going is built anew (it may have moved) and counted against the address's limit."""
    from kumiki.server import app as server_app

    client = serve(limits=Limits(http_rate=0.001, http_burst=3))
    built: list[int] = []
    real = server_app.write_record

    def counted(*args: Any) -> str:
        built.append(1)
        return real(*args)

    monkeypatch.setattr(server_app, "write_record", counted)
    finished = _recorded_game(200)
    imported = client.post("/api/records", content=kumiki.write_record(finished)).json()["id"]  # 1 of the 3
    texts = {client.get(f"/api/games/{imported}/record").text for _ in range(20)}
    assert len(texts) == 1 and next(iter(texts)).splitlines()[-1] == str(finished.history[-1])
    assert len(built) == 1  # built once (2 of the 3), then given as built
    going = create(client, [{"kind": "human"}, {"kind": "human"}])  # 3 of 3: a record built anew is one too many
    assert client.get(f"/api/games/{going['id']}/record").status_code == 429
    assert client.get(f"/api/games/{imported}/record").status_code == 200  # from the cache: not counted


def test_the_record_cache_keeps_one_version_a_game_and_the_newest_within_its_size() -> None:
    from kumiki.server.app import RecordCache

    cache = RecordCache(10)
    cache.put(("a", "over", 3), "aaaa")
    cache.put(("b", "over", 5), "bbbb")
    assert cache.get(("a", "over", 3)) == "aaaa"  # and "a" is now the most recently used
    assert cache.get(("a", "playing", 2)) is None  # another version of the game misses
    cache.put(("a", "over", 4), "AAAAA")  # a newer version replaces the older
    assert cache.get(("a", "over", 3)) is None and cache.size == 9
    cache.put(("c", "over", 1), "cc")  # over the size: the least recently used ("b") goes
    assert cache.get(("b", "over", 5)) is None and cache.get(("c", "over", 1)) == "cc"
    assert cache.size == 7 and cache.get(("a", "over", 4)) == "AAAAA"
    cache.put(("d", "over", 1), "x" * 11)  # larger than the whole cache: not kept
    assert cache.get(("d", "over", 1)) is None and cache.size == 7
