"""What the lobby shows a newcomer: each game's card and page in the catalog (presets that make real games), and the
open tables: a game listed with a free seat that anyone may take, once."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import create, receive_until, url, view_at

from kumiki import load_game
from kumiki.server.catalog import WEB_DEFAULTS, WEB_GAMES, catalog, check_web_options
from kumiki.server.lobby import ABOUT


@pytest.mark.parametrize("name", WEB_GAMES)
def test_every_game_has_a_card_a_summary_and_presets_that_make_real_games(name: str) -> None:
    entry = next(g for g in catalog()["games"] if g["name"] == name)
    about = entry["about"]
    assert about["title"] and about["tagline"] and about["minutes"] and len(about["description"]) > 40
    assert about["picture"] == f"/cards/{name}.png"
    assert about["summary"] and all(part["paragraphs"] for part in about["summary"])
    options = {o["name"] for o in entry["options"]}
    assert set(about["basic"]) <= options  # the options shown at once are the game's own
    assert len(about["presets"]) >= 2
    for preset in about["presets"]:
        assert set(preset["options"]) <= options, preset
        check_web_options(name, preset["options"])
        game = load_game(name, **{**WEB_DEFAULTS.get(name, {}), **preset["options"]})
        assert game.new_state(seed=1).legal_moves()  # a game one can start


def test_the_game_pages_are_served_and_every_game_has_a_card(client: TestClient) -> None:
    page = client.get("/play/kozo")
    assert page.status_code == 200 and "html" in page.headers["content-type"]
    assert set(ABOUT) == set(WEB_GAMES)


def test_an_open_seat_is_listed_until_someone_takes_it(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "ann"}, {"kind": "open"}]
    game = create(client, seats, options={"size": 3, "tiles": 4}, seed=2)
    assert game["seats"][1] == {"seat": 1, "kind": "open", "name": "open seat"}  # no token: nobody holds it yet
    tables = client.get("/api/tables").json()["tables"]
    assert [(t["id"], t["free"]) for t in tables] == [(game["id"], [1])]
    assert client.get("/api/tables?game=kozo").json()["tables"] == []
    assert client.get("/api/tables?game=kuzushi").json()["tables"][0]["id"] == game["id"]
    with client.websocket_connect(url(game, 0)) as ann:
        receive_until(ann, view_at(0))
        joined = client.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": "bob"})
        assert joined.status_code == 200, joined.text
        invite = joined.json()["invite"]
        assert invite.startswith(f"/game/{game['id']}?token=")
        # ann, already at the table, sees bob sit down
        seen = receive_until(ann, lambda m: m["type"] == "view" and m["seats"][1]["name"] == "bob")
        assert seen["seats"][1]["kind"] == "human"
        with client.websocket_connect(f"/ws/games/{game['id']}?token={invite.split('token=')[1]}") as bob:
            view = receive_until(bob, view_at(0))
            assert view["seat"] == 1 and view["legal"]  # bob's seat moves first in Kuzushi
    again = client.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": "cat"})
    assert again.status_code == 409 and "not open" in again.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []
    assert client.get(f"/api/games/{game['id']}").json()["seats"][1]["name"] == "bob"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"seat": 0, "name": "eve"}, 409, "not open"),  # a human seat already given
        ({"seat": 5, "name": "eve"}, 400, "seat number from 0 to 1"),
        ({"seat": "1", "name": "eve"}, 400, "seat number"),
        ({"seat": 1, "name": "x" * 41}, 400, "at most 40 characters"),
        ({"seat": 1, "nick": "eve"}, 400, '{"seat": k, "name": "your name"}'),
        ([1], 400, '{"seat": k, "name": "your name"}'),
    ],
)
def test_bad_joins_are_refused_in_one_line(client: TestClient, body: object, status: int, words: str) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, {"kind": "open"}])
    answer = client.post(f"/api/games/{game['id']}/join", json=body)
    assert answer.status_code == status and words in answer.json()["error"]
    assert "\n" not in answer.json()["error"]


def test_joining_a_missing_game_or_listing_an_unknown_game(client: TestClient) -> None:
    assert client.post("/api/games/nope/join", json={"seat": 1, "name": "eve"}).status_code == 404
    answer = client.get("/api/tables?game=chess")
    assert answer.status_code == 400 and "unknown game 'chess'" in answer.json()["error"]


def test_open_seats_count_as_people_for_undo(client: TestClient) -> None:
    answer = client.post(
        "/api/games",
        json={"game": "kuzushi", "seats": [{"kind": "human", "name": "ann"}, {"kind": "open"}], "undo": True},
    )
    assert answer.status_code == 400 and "at most one human seat" in answer.json()["error"]


def test_a_seed_the_creator_chose_in_a_game_with_chance_is_told_to_everyone(client: TestClient) -> None:
    """The seed of a TowerBrix or random-size Kozo game tells every hidden card and draw to come: a creator who chose
    it may know them, so the lobby's tables, the game's summary and every seat's view say so. A seed the server drew,
    or one in a game without chance (Kuzushi), tells nothing: not flagged."""
    open_seats = [{"kind": "human", "name": "ann"}, {"kind": "open"}]
    chosen = create(client, open_seats, game="towerbrix", seed=5)
    drawn = create(client, open_seats, game="towerbrix")
    no_chance = create(client, open_seats, seed=5)
    flags = {t["id"]: t["seed_chosen"] for t in client.get("/api/tables").json()["tables"]}
    assert flags == {chosen["id"]: True, drawn["id"]: False, no_chance["id"]: False}
    assert client.get(f"/api/games/{chosen['id']}").json()["seed_chosen"] is True
    listed = {g["id"]: g["seed_chosen"] for g in client.get("/api/games").json()["games"]}
    assert listed[chosen["id"]] is True and listed[drawn["id"]] is False
    with client.websocket_connect(url(chosen, 0)) as ann:
        assert receive_until(ann, view_at(0))["seed_chosen"] is True
    with client.websocket_connect(url(drawn, 0)) as ann:
        assert receive_until(ann, view_at(0))["seed_chosen"] is False


def test_a_database_made_before_chosen_seeds_were_kept_still_opens(tmp_path: Any) -> None:
    """A club's database from an earlier Kumiki has no chosen_seeds table: opening it adds the table, and the games
    stored before are listed, none flagged."""
    from sqlalchemy import create_engine, insert, inspect

    from kumiki.server.storage import Storage, chosen_seeds_table, games_table, metadata, seats_table

    path = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{path}")
    metadata.create_all(engine, tables=[t for t in metadata.sorted_tables if t is not chosen_seeds_table])
    with engine.begin() as conn:
        conn.execute(
            insert(games_table).values(
                id="g1",
                game="towerbrix",
                options={},
                seed=5,
                undo=False,
                imported=False,
                status="playing",
                to_move=0,
                moves=0,
                winners=[],
                scores=[0],
                created=1.0,
                updated=1.0,
            )
        )
        conn.execute(insert(seats_table).values(game_id="g1", seat=0, kind="human", name="ann"))
    assert "chosen_seeds" not in inspect(engine).get_table_names()
    engine.dispose()
    storage = Storage(f"sqlite:///{path}")
    try:
        assert [(row.id, row.summary()["seed_chosen"]) for row in storage.games()] == [("g1", False)]
        assert "chosen_seeds" in inspect(storage.engine).get_table_names()
    finally:
        storage.close()


def _old_schema(engine: Any) -> Any:
    """The tables as the code before 53-bit seeds made them (``games.seed`` a 32-bit INTEGER), made in ``engine``;
    their MetaData."""
    from sqlalchemy import Integer, MetaData

    from kumiki.server.storage import metadata

    old = MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(old)
    old.tables["games"].c.seed.type = Integer()
    old.create_all(engine)
    return old


def test_a_32_bit_seed_column_the_server_may_not_widen_keeps_31_bit_seeds_and_says_how(
    db_url: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    """A club's role that may read and write the tables but does not own them cannot ALTER them: the server started
    anyway (it stopped with "internal error: must be owner of table games"), keeps its seeds below 2**31 and tells the
    operator the one statement the owner must run."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite's INTEGER holds 64 bits: nothing to widen")
    import psycopg
    from sqlalchemy import create_engine

    from kumiki.server.errors import BadRequest
    from kumiki.server.newgames import new_game
    from kumiki.server.serve import check_database
    from kumiki.server.storage import Storage

    engine = create_engine(db_url)
    _old_schema(engine)
    engine.dispose()
    server = request.getfixturevalue("pg_server")
    name = db_url.rsplit("/", 1)[1]
    role = f"kumiki_player_{name}"
    with psycopg.connect(f"host=127.0.0.1 port={server.port} user=postgres dbname={name}", autocommit=True) as c:
        if c.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is None:
            c.execute(f"CREATE ROLE {role} LOGIN")
        c.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        c.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
    as_player = db_url.replace("postgres@", f"{role}@", 1)
    storage = Storage(as_player)
    try:
        assert storage.max_seed == 2**31 - 1
        assert storage.note is not None and "must be owner" in storage.note
        assert storage.note.endswith("ALTER TABLE games ALTER COLUMN seed TYPE BIGINT")
        seats = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bo"}]
        with pytest.raises(BadRequest, match="from 0 to 2147483647"):
            new_game(storage, {"game": "towerbrix", "seats": seats, "seed": 2**31})
        created = new_game(storage, {"game": "towerbrix", "seats": seats})
        row = storage.game(created["id"])
        assert row is not None and row.seed is not None and 0 <= row.seed < 2**31
    finally:
        storage.close()
    check_database(as_player)
    assert "kumiki serve: note: games.seed is 32-bit and could not be widened" in capsys.readouterr().err


def test_a_database_made_when_seeds_had_32_bits_is_widened_and_keeps_its_seeds(db_url: str) -> None:
    """A club's PostgreSQL database from an earlier Kumiki keeps seeds in a 32-bit column (INTEGER): opening it widens
    the column to BIGINT, the games stored before keep their seeds (an imported record's negative one among them), and
    a 53-bit seed is kept exactly. SQLite's INTEGER holds 64 bits already: the same database works there unchanged."""
    from sqlalchemy import BigInteger, create_engine, insert, inspect

    from kumiki.server.storage import GameRow, SeatRow, Storage

    def seed_type(engine: Any) -> Any:
        return next(c["type"] for c in inspect(engine).get_columns("games") if c["name"] == "seed")

    columns = {"game": "towerbrix", "options": {}, "undo": False, "status": "playing", "to_move": 0, "moves": 0}
    columns |= {"winners": [], "scores": [0], "created": 1.0, "updated": 1.0}
    engine = create_engine(db_url)
    old = _old_schema(engine)
    with engine.begin() as conn:
        conn.execute(insert(old.tables["games"]).values(id="g1", seed=5, imported=False, **columns))
        conn.execute(insert(old.tables["games"]).values(id="g2", seed=-(2**31), imported=True, **columns))
    postgresql = engine.dialect.name == "postgresql"
    assert not (postgresql and isinstance(seed_type(engine), BigInteger))
    engine.dispose()
    top = 2**53 - 1
    for _opening in range(2):  # and once more, widened already
        storage = Storage(db_url)
        try:
            if postgresql:
                assert isinstance(seed_type(storage.engine), BigInteger)
            if storage.game("g3") is None:
                seats = [SeatRow(0, "human", "ann")]
                storage.create_game(GameRow(id="g3", seed=top, imported=False, seats=seats, **columns))
            assert {row.id: row.seed for row in storage.games()} == {"g1": 5, "g2": -(2**31), "g3": top}
        finally:
            storage.close()


def test_players_taking_the_last_seat_at_once_leave_one_player_there_stored_and_live(client: TestClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    game = create(client, [{"kind": "human"}, {"kind": "open"}])
    with client.websocket_connect(url(game)) as spectator:  # the room is live while they race for the seat
        spectator.receive_json()
        with ThreadPoolExecutor(max_workers=4) as pool:
            answers = list(
                pool.map(
                    lambda k: client.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": f"p{k}"}), range(4)
                )
            )
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
        winner = next(a.json() for a in answers if a.status_code == 200)
        seen = receive_until(spectator, lambda m: m["type"] == "view" and m["seats"][1]["kind"] == "human")
        assert seen["seats"][1]["name"] == winner["name"]
    assert client.get(f"/api/games/{game['id']}").json()["seats"][1]["name"] == winner["name"]
    with client.websocket_connect(f"/ws/games/{game['id']}?token={winner['token']}") as player:
        assert player.receive_json()["seat"] == 1


def test_the_lobby_says_the_rules_that_options_on_the_form_change() -> None:
    """The lobby gave the green deck's brick rule only (the form offers pink), did not say that a player with two
    colours in Blokus 3D scores the better one, and said Kuzushi's flags are resolved after a BASE is placed (a
    flipped FLAG resolves them too)."""
    words = {name: str(about.public(name)) for name, about in ABOUT.items()}
    assert "with the pink deck, at least one brick of each of the five colours, gray included" in words["towerbrix"]
    assert load_game("towerbrix", deck="pink").usable[-1] == "G"  # the gray brick may be used with pink
    assert "each player plays two colours and scores the better one" in words["blokus3d"]
    state = load_game("blokus3d", colours_per_player=2).new_state()
    for _ in range(6):
        state.play(state.legal_moves()[0])
    colours = state.colour_scores()
    assert state.scores() == [max(colours[0], colours[2]), max(colours[1], colours[3])]
    assert "After a BASE is placed or flipped, each of the four cells" in words["kuzushi"]
    kuzushi = load_game("kuzushi").new_state()
    for move in ("B 0,-1", "B -1,-2", "B -1,-1", "B 2,-1", "B -1,1"):  # the rules page's worked example
        kuzushi.play(move)
    kuzushi.play("B 1,1")
    kuzushi.play("B 3,0")
    kuzushi.play("B 1,-2")
    assert kuzushi.cell(0, 2) is None
    kuzushi.play("F -1,2")  # a flip: the empty cells beside it get player 1's flags
    assert kuzushi.cell(0, 2) == ("flag", 1) and kuzushi.cell(-2, 2) == ("flag", 1)
