"""Fixtures for the server tests: every test runs against SQLite and against a real PostgreSQL the suite starts."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server tests need the 'web' extra")

from fastapi.testclient import TestClient
from tests.server import pg

from kumiki.server import create_app
from kumiki.server.limits import Limits
from kumiki.server.storage import metadata


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg.PostgresServer]:
    reason = pg.why_not()
    if reason is not None:
        pytest.skip(reason)
    server = pg.start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'kumiki.db'}"
    server: pg.PostgresServer = request.getfixturevalue("pg_server")
    import psycopg

    # One database per test worker; each test starts from no tables (dropping is faster than CREATE DATABASE).
    name = f"kumiki_{os.getpid()}"
    url = server.database(name)
    with psycopg.connect(f"host=127.0.0.1 port={server.port} user=postgres dbname={name}", autocommit=True) as c:
        c.execute(f"DROP TABLE IF EXISTS {', '.join(table.name for table in reversed(metadata.sorted_tables))}")
    return url


def thread_pool() -> ThreadPoolExecutor:
    """Agents think in a thread in most tests (no process start-up); one test uses the real process pool."""
    return ThreadPoolExecutor(max_workers=1)


@pytest.fixture
def serve(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """Start the app on the test database: ``serve(limits=..., pool_factory=...)``; every client is closed after."""
    clients: list[TestClient] = []

    def start(limits: Limits | None = None, pool_factory: Callable[[], Any] = thread_pool) -> TestClient:
        client = TestClient(create_app(db_url, limits=limits, pool_factory=pool_factory))
        client.__enter__()
        clients.append(client)
        return client

    yield start
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(serve: Callable[..., TestClient]) -> TestClient:
    return serve()
