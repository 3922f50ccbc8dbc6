"""A throwaway PostgreSQL server for the tests (RECIPES.md): initdb into a temporary folder, start, stop, remove."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass


def server_binaries() -> str | None:
    """The folder with initdb and postgres (Debian keeps them out of PATH), or None when not installed."""
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    for folder in reversed(folders):
        if os.path.exists(f"{folder}/initdb") and os.path.exists(f"{folder}/postgres"):
            return folder
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def why_not() -> str | None:
    """Why no test server can run here, or None if one can."""
    if server_binaries() is None:
        return "PostgreSQL is not installed (make test installs it with apt-get: apt-get install -y postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PostgresServer:
    base: str
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def database_url(self, name: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def database(self, name: str) -> str:
        """The URL of database ``name``, made if this server has none of that name yet."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            if c.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                c.execute(f"CREATE DATABASE {name}")
        return self.database_url(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.base, ignore_errors=True)


def start(attempts: int = 3) -> PostgresServer:
    """A fresh server on a free loopback port, fsync off (throwaway data).

    A busy machine can lose the race for the port between choosing and binding it, so a failed start is tried again on
    a new port; the error names the server's own last words (its log) when every attempt fails.
    """
    bindir = server_binaries()
    assert bindir is not None
    base = tempfile.mkdtemp(prefix="pgtest-")
    as_pg: dict[str, object] = {}
    if os.geteuid() == 0:  # initdb refuses root: run as the postgres user
        pw = pwd.getpwnam("postgres")
        os.chown(base, pw.pw_uid, pw.pw_gid)
        as_pg = {"user": "postgres", "group": "postgres", "extra_groups": []}
    subprocess.run(
        [f"{bindir}/initdb", "-D", f"{base}/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
         "--locale=C.UTF-8", "--no-sync"],
        check=True, cwd=base, capture_output=True, **as_pg,
    )  # fmt: skip
    log = ""
    for _ in range(attempts):
        port = _free_port()
        with open(f"{base}/server.log", "wb") as out:
            process = subprocess.Popen(
                [f"{bindir}/postgres", "-D", f"{base}/data", "-k", base, "-h", "127.0.0.1", "-p", str(port),
                 "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                 "-c", "shared_buffers=32MB"],
                cwd=base, stdout=out, stderr=subprocess.STDOUT, **as_pg,
            )  # fmt: skip
        server = PostgresServer(base, port, process)
        if _wait_ready(bindir, server, seconds=60):
            return server
        if process.poll() is None:
            process.kill()
        process.wait()
        with open(f"{base}/server.log", errors="replace") as out:
            log = " | ".join(out.read().strip().splitlines()[-3:])
    shutil.rmtree(base, ignore_errors=True)
    raise RuntimeError(f"the test PostgreSQL server did not start after {attempts} attempts: {log}")


def _wait_ready(bindir: str, server: PostgresServer, seconds: float) -> bool:
    """True once the server accepts connections; False if it stopped or the time ran out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready = subprocess.run(
            [f"{bindir}/pg_isready", "-h", "127.0.0.1", "-p", str(server.port)], capture_output=True, check=False
        )
        if ready.returncode == 0:
            return True
        if server.process.poll() is not None:
            return False
        time.sleep(0.1)
    return False
