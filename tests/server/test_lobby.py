"""The lobby over HTTP: catalog, creating games, seats and tokens, listing, and every refusal."""

from __future__ import annotations

import importlib.util
from concurrent.futures import Executor, Future
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

import kumiki
from kumiki.server import app
from kumiki.server.catalog import WEB_DEFAULTS
from kumiki.server.limits import Limits
from kumiki.server.storage import Storage


def test_catalog_lists_the_web_games_their_options_and_levels(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    games = {g["name"]: g for g in catalog["games"]}
    assert sorted(games) == ["blokus3d", "kozo", "kuzushi", "towerbrix"]
    assert games["kuzushi"]["players"] == [2, 6]
    size = next(o for o in games["kuzushi"]["options"] if o["name"] == "size")
    assert size["type"] == "int" and size["default"] == 6 and size["min"] == 2 and size["help"]
    openspiel = ["openspiel"] if importlib.util.find_spec("pyspiel") else []  # offered where OpenSpiel is installed
    assert catalog["levels"] == ["easy", "medium", "hard", "random", *openspiel]
    for name, game in games.items():  # each game's own list: all of them, but OpenSpiel's in TowerBrix
        assert game["levels"] == (catalog["levels"] if name != "towerbrix" else ["easy", "medium", "hard", "random"])


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel's level needs the openspiel extra")
def test_openspiels_computer_is_not_offered_in_towerbrix_where_it_would_see_every_hand(client: TestClient) -> None:
    """OpenSpiel's MCTS searches clones of the full state: as a TowerBrix teammate it played with every hidden card
    in view. The lobby no longer offers it there, and a game asking for it is refused in one line."""
    seats = [HUMAN, {"kind": "agent", "level": "openspiel"}]
    answer = client.post("/api/games", json={"game": "towerbrix", "seats": seats})
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "seat 1: the 'openspiel' computer does not play towerbrix (it would see the hidden cards; levels: easy, "
        "medium, hard, random)"
    )
    assert client.post("/api/games", json={"game": "kozo", "seats": seats}).status_code == 200  # elsewhere it plays


def test_the_plain_greedy_computer_is_not_seated_in_towerbrix_where_it_would_read_the_hands(client: TestClient) -> None:
    """Greedy looks one move ahead at the score: in TowerBrix an ok that ends the round scores the round, which says
    whether every hidden card holds. Named directly through the API it took a TowerBrix seat; now refused in one
    line, and it still plays the other games."""
    seats = [HUMAN, {"kind": "agent", "agent": "greedy"}]
    answer = client.post("/api/games", json={"game": "towerbrix", "seats": seats})
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "seat 1: the 'greedy' computer does not play towerbrix (it would see the hidden cards; agents: random)"
    )
    assert client.post("/api/games", json={"game": "kozo", "seats": seats}).status_code == 200
    plain = [HUMAN, {"kind": "agent", "agent": "random"}]
    assert client.post("/api/games", json={"game": "towerbrix", "seats": plain}).status_code == 200


def test_the_towerbrix_form_shows_the_challenge_number_beside_the_mode(client: TestClient) -> None:
    """Choosing the mode "challenge" needs a number from 1 to 14; folded under "More options" it stayed 0 out of
    sight, and Create answered "mode 'challenge' needs a challenge from 1 to 14" about a field the form hid."""
    towerbrix = next(g for g in client.get("/api/catalog").json()["games"] if g["name"] == "towerbrix")
    basic = towerbrix["about"]["basic"]
    assert "mode" in basic and "challenge" in basic
    assert "challenge" in {option["name"] for option in towerbrix["options"]}


def test_a_game_gets_a_token_and_invite_per_human_seat_and_a_spectator_link(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "agent", "level": "medium"}], seed=7)
    ann, computer = game["seats"]
    assert ann["name"] == "ann" and len(ann["token"]) >= 30
    assert ann["invite"] == f"/game/{game['id']}?token={ann['token']}"
    assert computer == {"seat": 1, "kind": "agent", "level": "medium", "name": "medium computer"}
    assert game["spectate"] == f"/game/{game['id']}"
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "playing" and summary["moves"] == 0 and summary["to_move"] == 1
    assert summary["options"]["size"] == 6 and summary["winners"] == []
    assert "token" not in str(summary)  # tokens are never listed


def test_a_seed_the_server_draws_is_not_given_out_while_it_tells_hidden_cards(client: TestClient) -> None:
    """A TowerBrix game's seed tells every seat's cards and every deal to come (the record is refused until the end
    for that reason): the creation answer must not hand the server's draw to the creator, who sits at the table."""
    towerbrix = create(client, [HUMAN, HUMAN], game="towerbrix")
    assert towerbrix["seed"] is None
    kozo = create(client, [HUMAN, HUMAN], game="kozo", options={"random_size": True})
    assert kozo["seed"] is None
    assert isinstance(create(client, [HUMAN, HUMAN])["seed"], int)  # no chance in Kuzushi: nothing to hide
    assert create(client, [HUMAN, HUMAN], game="towerbrix", seed=5)["seed"] == 5  # the creator's own seed


def test_the_server_draws_its_seed_among_2_to_the_53(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TowerBrix player sees their own cards: among 2**31 seeds they could try every one offline (some 18 core-hours)
    to find the deal that gives their hand, and so learn everyone's. The server draws among 2**53 (the most a browser's
    JSON number keeps exactly), and keeps the highest as it is."""
    bounds: list[int] = []

    def highest(bound: int) -> int:
        bounds.append(bound)
        return bound - 1

    monkeypatch.setattr(app.secrets, "randbelow", highest)
    game = create(client, [HUMAN, HUMAN])  # Kuzushi: no chance, so the answer and the record give the drawn seed
    assert bounds == [2**53] and game["seed"] == 2**53 - 1
    assert f'[Seed "{2**53 - 1}"]' in client.get(f"/api/games/{game['id']}/record").text


def test_a_chosen_seed_of_53_bits_is_kept_exactly_and_deals_from_every_bit(client: TestClient, db_url: str) -> None:
    top = 2**53 - 1
    game = create(client, [HUMAN, HUMAN], game="towerbrix", seed=top)
    assert game["seed"] == top
    storage = Storage(db_url)
    try:
        stored = storage.game(game["id"])
        assert stored is not None and stored.seed == top
    finally:
        storage.close()
    towerbrix = kumiki.load_game("towerbrix", players=2, **WEB_DEFAULTS["towerbrix"])
    hands = towerbrix.new_state(seed=top).to_json()["hands"]
    with client.websocket_connect(url(game, 0)) as ann:
        assert receive_until(ann, view_at(0))["view"]["hands"][0] == hands[0]
    assert hands != towerbrix.new_state(seed=top % 2**32).to_json()["hands"]  # the seed's high bits deal too


def test_the_players_option_follows_the_seats(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN, HUMAN])
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["options"]["players"] == 3 and summary["options"]["size"] == 7 and len(summary["seats"]) == 3


def test_a_summary_gives_the_side_each_seat_plays_for(client: TestClient) -> None:
    """``teams``: one side for TowerBrix's team and for a solo game (the lobby gives their end as a score, not a win
    "shared by everyone"), Kuzushi's teams as its rules number them, else every seat its own side."""
    games = {
        "towerbrix": create(client, [HUMAN, HUMAN], game="towerbrix"),
        "solo": create(client, [HUMAN], game="kozo"),
        "teams": create(client, [HUMAN] * 4, options={"teams": 2}),
        "blokus3d": create(client, [HUMAN, HUMAN], game="blokus3d"),
    }
    teams = {"towerbrix": [0, 0], "solo": [0], "teams": [0, 1, 0, 1], "blokus3d": [0, 1]}
    for name, game in games.items():
        assert client.get(f"/api/games/{game['id']}").json()["teams"] == teams[name], name
    listed = {g["id"]: g["teams"] for g in client.get("/api/games?limit=10").json()["games"]}
    assert {name: listed[game["id"]] for name, game in games.items()} == teams


def test_games_are_listed_newest_first(client: TestClient) -> None:
    first = create(client, [HUMAN, HUMAN])
    second = create(client, [HUMAN, HUMAN], game="blokus3d")
    listed = client.get("/api/games?limit=5").json()["games"]
    assert [g["id"] for g in listed[:2]] == [second["id"], first["id"]]
    assert client.get("/api/games?limit=1").json()["games"][0]["id"] == second["id"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [HUMAN, HUMAN]}, "unknown game 'chess'"),
        ({"game": "towerbrix", "seats": [HUMAN, HUMAN], "options": {"deck": "/etc/hostname"}}, "option 'deck'"),
        ({"game": "kuzushi", "seats": [HUMAN, HUMAN], "options": {"size": 99}}, "option 'size'"),
        ({"game": "kuzushi", "seats": [HUMAN, HUMAN], "options": {"colour": 1}}, "unknown option 'colour'"),
        ({"game": "kuzushi", "seats": [HUMAN, HUMAN], "options": {"players": 3}}, "has 3 players, but 2 seats"),
        ({"game": "kuzushi", "seats": [HUMAN, {"kind": "agent", "level": "genius"}]}, "unknown level 'genius'"),
        ({"game": "kuzushi", "seats": [HUMAN, {"kind": "robot"}]}, '"kind" must be'),
        ({"game": "kuzushi", "seats": []}, '"seats" must be'),
        ({"game": "kuzushi", "seats": [HUMAN]}, "kuzushi takes 2–6 seats, not 1"),  # it said "option 'players'"
        ({"game": "blokus3d", "seats": [HUMAN] * 5}, "blokus3d takes 2–4 seats, not 5"),
        ({"game": "kuzushi", "seats": [HUMAN, HUMAN], "undo": True}, "at most one human seat"),
        ({"game": "kuzushi", "seats": [HUMAN, HUMAN], "seed": -1}, '"seed" must be'),
        (
            {"game": "kuzushi", "seats": [HUMAN, HUMAN], "seed": 2**53},
            '"seed" must be a whole number from 0 to 9007199254740991',
        ),
        ({"game": "kuzushi", "seats": [HUMAN, HUMAN], "hack": 1}, "unknown field 'hack'"),
        ({"game": "kuzushi", "seats": [{"kind": "human", "name": "x" * 41}, HUMAN]}, "at most 40 characters"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_lobby_requests_get_one_clear_line_and_create_nothing(client: TestClient, body: object, words: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert words in response.json()["error"] and "\n" not in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_bad_json_too_large_unknown_game_and_unknown_endpoint(client: TestClient) -> None:
    bad = client.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and bad.json() == {"error": "the request body is not valid JSON"}
    huge = client.post("/api/games", content=b" " * 70_000, headers={"content-type": "application/json"})
    assert huge.status_code == 413 and "too large" in huge.json()["error"]
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/nope").json() == {"error": "no game 'nope'"}
    assert client.get("/api/games/nope/record").status_code == 404
    assert client.get("/api/nothing").status_code == 404


def test_creating_games_is_rate_limited_per_address(serve: object) -> None:
    client = serve(limits=Limits(http_rate=0.001, http_burst=2))  # type: ignore[operator]
    answers = [client.post("/api/games", json={"game": "kuzushi", "seats": [HUMAN, HUMAN]}) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert int(answers[-1].headers["retry-after"]) >= 1  # how long to wait, as RFC 9110 has it


def test_pages_are_served_without_a_built_client(client: TestClient) -> None:
    for path in ("/", "/game/abc", "/replay/abc", "/play/kuzushi"):
        response = client.get(path)
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e999"])
def test_an_option_that_is_not_a_finite_number_is_refused(client: TestClient, number: bytes) -> None:
    body = b'{"game": "towerbrix", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"shake_deg": %s}}'
    response = client.post("/api/games", content=body % number, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("option 'shake_deg' must be float from 0 to 90, not ")
    assert client.get("/api/games").json()["games"] == []


def test_the_web_offers_only_the_built_in_structures(client: TestClient) -> None:
    body = {"game": "blokus3d", "seats": [HUMAN, HUMAN], "options": {"structure": "/etc/passwd.toml"}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400 and "the web server offers" in response.json()["error"]
    catalog = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    structure = next(o for o in catalog["blokus3d"]["options"] if o["name"] == "structure")
    assert "A" in structure["choices"] and all("/" not in c for c in structure["choices"])


def test_the_help_of_a_narrowed_option_offers_only_what_the_web_takes(client: TestClient) -> None:
    """The engine's help names a .toml path (Blokus 3D's structure) and a deck file (TowerBrix): the form, which
    offers only the built-in ones, does not."""
    catalog = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    helps = {(game, o["name"]): o["help"] for game, g in catalog.items() for o in g["options"]}
    assert helps[("blokus3d", "structure")] == "the structure to build: A (tower), B (L-wall), C (steps), D (pyramid)"
    assert helps[("towerbrix", "deck")] == "the card deck: green or pink (see the rules)"
    assert not [key for key, text in helps.items() if "path" in text or ".toml" in text or " file" in text]


def test_every_option_has_a_label_a_newcomer_reads(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    for game in catalog["games"]:
        for option in game["options"]:
            assert option["label"] and "_" not in option["label"], (game["name"], option["name"])
    kuzushi = {o["name"]: o for o in next(g for g in catalog["games"] if g["name"] == "kuzushi")["options"]}
    assert kuzushi["city_counts_as_base"]["label"] == "The centre city counts as a base"


def test_every_refusal_is_one_line_in_the_apis_shape(client: TestClient) -> None:
    """A query parameter of the wrong type, or a path no route serves: {"error": one line}, never FastAPI's own."""
    for path, status in (("/api/games?limit=abc", 400), ("/favicon.ico", 404), ("/assets/nothing.js", 404)):
        response = client.get(path)
        assert response.status_code == status, path
        assert set(response.json()) == {"error"} and "\n" not in response.json()["error"], path
    assert "limit" in client.get("/api/games?limit=abc").json()["error"]
    for bad in ("-5", "0"):  # was clamped to 1 without a word
        refused = client.get(f"/api/games?limit={bad}")
        assert refused.status_code == 400 and refused.json()["error"].startswith("limit: ")
        assert repr(bad) in refused.json()["error"]
    assert client.get("/api/games?limit=100000").status_code == 200  # the documented "at most 200"


class _NeverThinks(Executor):
    """An agents' pool whose computers never answer: their games stay going."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


def test_at_most_two_games_of_computers_alone_go_at_once(serve: Any) -> None:
    """Games with no human seat share the agents' workers with everyone's: a third waits until one ends."""
    client = serve(pool_factory=_NeverThinks)
    robots = [{"kind": "agent", "agent": "random"}, {"kind": "agent", "agent": "random"}]
    created = [client.post("/api/games", json={"game": "kuzushi", "seats": robots}) for _ in range(3)]
    assert [c.status_code for c in created] == [200, 200, 429]
    assert "at most 2 games of computers alone" in created[2].json()["error"]
    assert created[2].headers["retry-after"] == "30"
    with_a_human = client.post("/api/games", json={"game": "kuzushi", "seats": [HUMAN, robots[0]]})
    assert with_a_human.status_code == 200  # people's games are never refused for it


def test_the_lobby_bench_runs_with_and_without_the_chance_cache(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bench.server_lobby`` empties and bypasses the cache of ``_facts`` (``_has_chance`` before): it reached it on
    ``server.app``, which lost it when the lobby's listing moved to ``server.newgames``, and stopped with an
    AttributeError."""
    import sys

    from bench import server_lobby

    monkeypatch.setattr(sys, "argv", ["server_lobby", "--games", "2"])
    server_lobby.main()
    out = capsys.readouterr().out
    assert "cached" in out and "cache emptied" in out and "no cache" in out
