"""``kumiki prune``: a club's server lists the games nobody touched for days and deletes them only when told to,
with everything stored of them; the other games stay and still replay."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from tests.helpers import CliRunner, assert_one_line_error, cli_runner
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

from kumiki.server.storage import Storage, games_table, metadata

DAY = 86400.0


def _age(db_url: str, game_id: str, days: float) -> None:
    storage = Storage(db_url)
    with storage.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.id == game_id).values(updated=time.time() - days * DAY))
    storage.close()


def _rows(db_url: str, game_id: str) -> int:
    storage = Storage(db_url)
    with storage.engine.connect() as conn:
        count = sum(
            int(conn.execute(select(func.count()).where(table.c.game_id == game_id)).scalar_one())
            for table in metadata.sorted_tables
            if "game_id" in table.c
        )
        count += int(conn.execute(select(func.count()).where(games_table.c.id == game_id)).scalar_one())
    storage.close()
    return count


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    return cli_runner(capsys, monkeypatch)


def test_idle_games_are_listed_then_deleted_only_with_yes(
    serve: Callable[..., TestClient], db_url: str, run: CliRunner
) -> None:
    client = serve()
    old = create(client, [{"kind": "human", "name": "ann"}, HUMAN], seed=1)
    with client.websocket_connect(url(old, 1)) as ws:  # a move and a chat line: rows in other tables
        first = receive_until(ws, view_at(0))["legal"][0]
        ws.send_json({"type": "move", "ply": 0, "move": first})
        receive_until(ws, view_at(1))
        ws.send_json({"type": "chat", "text": "bye"})
        receive_until(ws, lambda m: m["type"] == "chat" and bool(m["entries"]))
    fresh = create(client, [HUMAN, HUMAN], seed=2)
    done = create(client, [{"kind": "agent", "level": "easy"}, {"kind": "agent", "level": "easy"}], seed=3)
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{done['id']}").json()["status"] != "over" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get(f"/api/games/{done['id']}").json()["status"] == "over"
    for game, days in ((old, 40), (done, 400)):
        _age(db_url, game["id"], days)
    before = _rows(db_url, old["id"])
    assert before >= 4  # the game, two seats, a move, a chat line

    code, out, err = run("prune", "--db", db_url, "--idle-days", "30")
    assert code == 0, err
    assert out.startswith("1 unfinished games unchanged since before") and old["id"] in out and "ann" in out
    assert done["id"] not in out and fresh["id"] not in out and "Nothing deleted" in out
    assert _rows(db_url, old["id"]) == before  # listed, not deleted

    code, out, err = run("prune", "--db", db_url, "--idle-days", "30", "--finished")
    assert code == 0 and old["id"] in out and done["id"] in out and "(1 unfinished, 1 finished)" in out

    code, out, err = run("prune", "--db", db_url, "--idle-days", "30", "--yes")
    assert code == 0 and "Deleted 1 games." in out
    assert _rows(db_url, old["id"]) == 0  # nothing of it left in any table
    assert client.get(f"/api/games/{old['id']}").status_code == 404
    for kept in (fresh, done):  # the others stay, and replay
        assert client.get(f"/api/games/{kept['id']}/record").status_code == 200
    code, out, _ = run("prune", "--db", db_url, "--idle-days", "30")
    assert code == 0 and out.startswith("No unfinished games unchanged since before")


@pytest.mark.parametrize(
    ("days", "words"), [("0", "--idle-days: at least 1"), ("nan", "--idle-days: at least 1"), ("-3", "at least 1")]
)
def test_a_prune_of_games_of_today_is_refused(days: str, words: str, tmp_path: Path, run: CliRunner) -> None:
    database = tmp_path / "kumiki.db"
    Storage(f"sqlite:///{database}").close()
    code, out, err = run("prune", "--db", f"sqlite:///{database}", "--idle-days", days)
    assert_one_line_error(code, err, "kumiki prune: ", words)
    assert out == ""


@pytest.mark.parametrize("days", ["inf", "1e18", "100000000", "36501"])
def test_a_prune_beyond_a_century_is_refused_in_one_line(days: str, tmp_path: Path, run: CliRunner) -> None:
    database = tmp_path / "kumiki.db"
    Storage(f"sqlite:///{database}").close()
    code, out, err = run("prune", "--db", f"sqlite:///{database}", "--idle-days", days, "--yes")
    assert_one_line_error(code, err, "kumiki prune: ", "--idle-days: at most 36500")
    assert out == ""


def test_a_missing_sqlite_file_is_refused_not_created(tmp_path: Path, run: CliRunner) -> None:
    missing = tmp_path / "typo.db"
    code, _out, err = run("prune", "--db", f"sqlite:///{missing}", "--idle-days", "30")
    assert_one_line_error(code, err, "kumiki prune: ", f"no database at {missing}")
    assert not missing.exists()


def test_a_prune_with_no_server_yet_leaves_no_data_folder_behind(
    tmp_path: Path, run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no server ever ran, the default database's folder was made (empty) on the way to "no database at"."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    code, _out, err = run("prune", "--idle-days", "30")
    assert_one_line_error(code, err, "kumiki prune: ", f"no database at {tmp_path / 'data' / 'kumiki' / 'kumiki.db'}")
    assert not (tmp_path / "data").exists()
