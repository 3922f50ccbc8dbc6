"""``kumiki serve`` refuses a bad database with one line and exit status 2, before listening."""

from __future__ import annotations

import socket

import pytest

from kumiki.cli import main


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense", "is not a database URL"),
        ("sqlite:////nonexistent/folder/kumiki.db", "cannot open the database"),
        ("mysql://user@host/club", "the server stores games in SQLite or PostgreSQL"),
    ],
)
def test_a_bad_database_is_one_line_and_status_2(url: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", str(_free_port()), "--db", url])  # a free port: the address is checked first
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("kumiki serve: ") and words in err and err.count("\n") == 1


def test_a_taken_port_is_one_line_and_status_2(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as stop:
            main(["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/k.db"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"kumiki serve: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert not (tmp_path / "k.db").exists()  # type: ignore[operator]  # refused before the database is made


@pytest.mark.parametrize(
    "url", ["sqlite:///", "sqlite://", "sqlite:///:memory:", "sqlite:///file:k?mode=memory&uri=true"]
)
def test_an_in_memory_database_is_refused(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In memory, each of the server's threads had its own empty database: the first move failed with a traceback
    and dropped the player's connection, and a restart would have lost every game."""

    def served(*_args: object, **_kwargs: object) -> None:
        raise AssertionError(f"the server ran on {url}")

    monkeypatch.setattr("kumiki.server.serve.uvicorn.run", served)
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", str(_free_port()), "--db", url])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("kumiki serve: ") and "in-memory SQLite database" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://club:pa55word@127.0.0.1:{port}/kumiki",  # nothing listens there: "cannot open the database"
        "mysql://club:pa55word@127.0.0.1:{port}/kumiki",
    ],
)
def test_a_refused_database_line_hides_its_password(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The line that starts the server shows ``club:***@``; the line that refuses the database showed the password,
    into a terminal's scrollback or a service's journal."""
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", str(_free_port()), "--db", url.format(port=_free_port())])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("kumiki serve: ") and err.count("\n") == 1
    assert "pa55word" not in err and "club:***@127.0.0.1:" in err


def test_the_start_line_names_an_address_a_browser_can_open() -> None:
    """``--host 0.0.0.0`` printed ``http://0.0.0.0:8000/``, which no browser opens; an IPv6 address lacked the
    brackets a URL needs."""
    from kumiki.server.serve import shown_address

    assert shown_address("127.0.0.1", 8000) == "http://localhost:8000/"
    every = shown_address("0.0.0.0", 8080)
    assert f"http://{socket.gethostname()}:8080/" in every and "http://localhost:8080/" in every
    assert "0.0.0.0" not in every and "0.0.0.0" not in shown_address("::", 8080)
    assert shown_address("192.168.1.5", 80) == "http://192.168.1.5:80/"
    assert shown_address("fe80::1", 8000) == "http://[fe80::1]:8000/"


def test_a_read_only_database_is_one_line_and_status_2(
    tmp_path: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that stores nothing (a SQLite file opened or mounted read-only, a backup restored without write
    permission) started the server: it listed the games, then refused every new game and every move with 503 "try
    again in a moment", and the log gave each refusal as four lines with the SQL. Now refused at start, in one line."""
    from kumiki.server.storage import Storage

    path = f"{tmp_path}/k.db"
    Storage(f"sqlite:///{path}").close()  # a real database with its tables

    def served(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the server ran on a read-only database")

    monkeypatch.setattr("kumiki.server.serve.uvicorn.run", served)
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", str(_free_port()), "--db", f"sqlite:///file:{path}?mode=ro&uri=true"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("kumiki serve: cannot write the database ") and err.count("\n") == 1
    assert "readonly" in err


def test_a_read_only_postgresql_database_is_refused_in_one_line(pg_server: object) -> None:
    """A PostgreSQL whose transactions are read-only (a standby, ``default_transaction_read_only``) is refused at start,
    as a read-only SQLite file is; the same database made writable again starts."""
    import psycopg

    from kumiki.server.serve import check_database

    port = pg_server.port  # type: ignore[attr-defined]
    name = "kumiki_read_only"
    url = pg_server.database(name)  # type: ignore[attr-defined]
    check_database(url)  # makes the tables
    with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", autocommit=True) as c:
        c.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    try:
        with pytest.raises(ValueError, match=r"^cannot write the database .*read-only transaction$"):
            check_database(url)
    finally:
        with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f"ALTER DATABASE {name} RESET default_transaction_read_only")
    assert check_database(url) == url


def test_the_write_probe_waits_for_a_lock_on_the_games_table_5_s_at_most(pg_server: object) -> None:
    """The start's write probe took no lock timeout: a lock held on ``games`` elsewhere (an ALTER, a VACUUM FULL)
    made the server wait without a word; it now waits 5 s, as the seed column's widening does, and starts."""
    import threading
    import time

    import psycopg

    from kumiki.server.serve import check_database

    port = pg_server.port  # type: ignore[attr-defined]
    name = "kumiki_locked"
    url = pg_server.database(name)  # type: ignore[attr-defined]
    check_database(url)  # makes the tables
    answers: list[str] = []
    with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname={name}") as holder:
        holder.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")  # held until this transaction ends
        began = time.monotonic()
        start = threading.Thread(target=lambda: answers.append(check_database(url)), daemon=True)
        start.start()
        start.join(30)
        waited = time.monotonic() - began
        started = not start.is_alive()
    start.join(30)  # the lock is let go: a probe still waiting ends now
    assert started, "the start waited for the lock on games without end"
    assert answers == [url] and 4 < waited < 30
