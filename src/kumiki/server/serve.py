"""``kumiki serve``: check the database, print the address, run the app under uvicorn in this one process."""

from __future__ import annotations

import socket
import sys

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from kumiki.server.app import create_app
from kumiki.server.limits import MAX_MESSAGE, SOCKETS_PER_ADDRESS, Limits
from kumiki.server.storage import Storage, default_url, driver_reason, normalise_url


def check_database(url: str) -> str:
    """The database URL, reachable and with its tables; ValueError says in one line what is wrong (its password
    hidden, as on the line that starts the server: the line goes to a terminal, a log, a journal)."""
    shown = repr(_hide_password(url))
    scheme = url.partition(":")[0].partition("+")[0].lower()
    if "://" in url and scheme not in ("sqlite", "postgresql", "postgres"):
        raise ValueError(
            f"--db {shown}: the server stores games in SQLite or PostgreSQL (sqlite:///… or postgresql://…)"
        )
    try:
        if _in_memory(url):
            raise ValueError(
                f"--db {shown} is an in-memory SQLite database: it keeps no game over a restart, and the server's "
                "threads would each see an empty one of their own; name a file, e.g. sqlite:///kumiki.db"
            )
        storage = Storage(url)
    except (ArgumentError, NoSuchModuleError):
        raise ValueError(
            f"--db {shown} is not a database URL (e.g. sqlite:///kumiki.db or postgresql+psycopg://…)"
        ) from None
    except DBAPIError as error:  # unreachable, refused, or a role that may not make a missing table
        raise ValueError(f"cannot open the database {shown}: {driver_reason(error)}") from None
    refused = storage.refuses_writes()
    storage.close()
    if refused is not None:  # it would list the games, then refuse every new game and move ("try again")
        raise ValueError(f"cannot write the database {shown}: {refused}")
    if storage.note:
        sys.stderr.write(f"kumiki serve: note: {storage.note}\n")
    return storage.url


def _in_memory(url: str) -> bool:
    """Whether ``url`` names an in-memory SQLite database (``sqlite://``, ``sqlite:///``, ``:memory:``,
    ``mode=memory``): each connection gets its own, so moves stored by the database thread went nowhere."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return False
    return parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory"


def check_address(host: str, port: int) -> None:
    """ValueError in one line if nothing can listen on ``host:port`` (taken, or not this machine's address)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _name, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def shown_address(host: str, port: int) -> str:
    """The address to open, as the start line shows it: ``0.0.0.0`` is no address a browser can open, so on every
    interface the line names this machine (what the club's other machines type) and localhost (this one); an IPv6
    address goes in brackets, as a URL needs."""
    if host in ("127.0.0.1", "::1", "localhost"):
        return f"http://localhost:{port}/"
    if host in ("0.0.0.0", "::", ""):
        return f"http://{socket.gethostname()}:{port}/ on every interface (on this machine: http://localhost:{port}/)"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    agent_pace: float = 1.5,
    connections_per_address: int = SOCKETS_PER_ADDRESS,
) -> None:
    """Run the server until interrupted."""
    check_address(host, port)  # first: a server that cannot listen creates no database file
    url = check_database(normalise_url(db) if db else default_url())
    sys.stdout.write(f"Kumiki serves {shown_address(host, port)}  (database: {_hide_password(url)}; Ctrl-C stops it)\n")
    sys.stdout.flush()
    app = create_app(url, limits=Limits(agent_pace=agent_pace, sockets_per_address=connections_per_address))
    uvicorn.run(app, host=host, port=port, ws_max_size=4 * MAX_MESSAGE, log_level="warning")


def _hide_password(url: str) -> str:
    if "://" in url and "@" in url:
        scheme, _, rest = url.partition("://")
        credentials, _, place = rest.rpartition("@")
        user = credentials.partition(":")[0]
        return f"{scheme}://{user}:***@{place}" if ":" in credentials else url
    return url
