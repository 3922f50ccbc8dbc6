"""The replay of a long game: a 20-round TowerBrix game of random moves (every position repeats the evaluations so
far, so a replay grows with the square of the moves), imported into a server on a fresh SQLite file, then
``GET /api/games/{id}/replay`` three times, then three times as the replay page asks for it (``?changes=1``: each
position as its change from the one before): its size (and gzipped) and how long each takes (one process, the server
in-process; the second and third come from the replays kept, if it fits their 64 MiB).
Then, on a real server (uvicorn on a free local port), ``--slow-readers`` clients ask for it and read nothing: how
much the server's memory grows while they wait (each kept a copy of the whole body before replays were sent in
pieces of one shared body).

Run: ``python -m bench.server_replay [--rounds 20] [--seed 3] [--slow-readers 4]``.
"""

from __future__ import annotations

import argparse
import gzip
import random
import socket
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import kumiki


def long_game(rounds: int, seed: int) -> str:
    """The record of a two-player TowerBrix game of ``rounds`` rounds, every move drawn at random."""
    state = kumiki.load_game("towerbrix", players=2, rounds=rounds).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    began = time.perf_counter()
    for _ in range(100):
        state.public_view()
    view_ms = (time.perf_counter() - began) * 10  # 100 views: ms each
    evaluations = len(state.evaluations)  # type: ignore[attr-defined]
    moves = len(state.history)
    print(f"a {rounds}-round game: {moves} moves, {evaluations} evaluations, public_view() at the end {view_ms:.2f} ms")
    return kumiki.write_record(state)


def resident_mib() -> float:
    """This process's resident memory (Linux), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def slow_readers(db: str, game_id: str, readers: int) -> None:
    """Serve ``db`` with uvicorn here, let ``readers`` sockets ask for the replay and read nothing; print the growth."""
    import uvicorn

    from kumiki.server import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    before = resident_mib()
    sockets = []
    for _ in range(readers):
        client = socket.create_connection(("127.0.0.1", port))
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.sendall(f"GET /api/games/{game_id}/replay HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        sockets.append(client)
    # until the memory settles: the replays built (3 s each on this machine, two at a time) and as much sent as the
    # readers' sockets take
    last, still, began = resident_mib(), 0, time.monotonic()
    while still < 4 and time.monotonic() - began < 90:
        time.sleep(1)
        now = resident_mib()
        still = still + 1 if abs(now - last) < 2 else 0
        last = now
    grown = last - before
    print(f"  {readers} clients that read nothing: the server grew by {grown:,.0f} MiB")
    for client in sockets:
        client.close()
    server.should_exit = True
    thread.join(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.server_replay", description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--slow-readers", type=int, default=4, help="clients that ask and read nothing (0: none)")
    args = parser.parse_args()
    from fastapi.testclient import TestClient

    from kumiki.server import create_app

    record = long_game(args.rounds, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'replay.db'}", pool_factory=lambda: ThreadPoolExecutor(1))
        with TestClient(app) as client:
            game_id = client.post("/api/records", content=record).json()["id"]
            for form, params in (("positions", {}), ("changes", {"changes": "1"})):
                for _ in range(3):
                    began = time.perf_counter()
                    answer = client.get(f"/api/games/{game_id}/replay", params=params)
                    seconds = time.perf_counter() - began
                    packed = len(gzip.compress(answer.content, 6))
                    print(
                        f"  replay ({form}): status {answer.status_code}, {len(answer.content):,} bytes "
                        f"({packed:,} gzipped), {seconds:.2f} s"
                    )
        if args.slow_readers:
            slow_readers(f"sqlite:///{Path(folder) / 'replay.db'}", game_id, args.slow_readers)


if __name__ == "__main__":
    main()
