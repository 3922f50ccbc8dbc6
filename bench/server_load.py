"""The web server under load: 200 WebSocket clients in 100 two-player Kuzushi games on loopback.

Every client plays random legal moves for its seat. The figure is the time from sending a move to receiving the
view that shows it (the next view), over every move of every game; the target is a 99th percentile ≤ 100 ms.
After the run, every game's stored record is read back and replayed: it must give exactly the moves and the
position the clients saw (no move lost or duplicated).

    python -m bench.server_load [--games 100] [--seconds 180] [--db URL]

Each client pauses a random think time before its move (``--think``, mean 0.25 s: players look before they
move); ``--think 0`` makes every client answer at once, which measures the server saturated (the latency is then
mostly queueing behind the other 99 games' moves).

The server runs as its own process (as ``kumiki serve`` does, with the per-address game-creation limit raised
so one address may open 100 games at once); the clients share this process. Bounded: at most ``--games`` games
and ``--seconds`` of play.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

TARGET_P99_MS = 100.0


def serve(port: int, db: str) -> None:
    """The server process: the app of ``kumiki serve`` with the creation limit raised for one address."""
    import uvicorn

    from kumiki.server import create_app
    from kumiki.server.limits import Limits

    limits = Limits(http_rate=1000.0, http_burst=10_000.0)
    uvicorn.run(create_app(db, limits=limits), host="127.0.0.1", port=port, log_level="warning")


@dataclass
class Client:
    """One seat's connection: what it saw and how long each of its moves took to come back."""

    game: str
    seat: int
    token: str
    latencies: list[float] = field(default_factory=list)
    last: dict[str, Any] | None = None
    refused: int = 0


async def play(client: Client, port: int, rng: random.Random, start: Start, think: float) -> None:
    from websockets.asyncio.client import connect

    uri = f"ws://127.0.0.1:{port}/ws/games/{client.game}?token={client.token}"
    async with connect(uri, max_size=None) as ws:
        await start.arrive()  # every client connects before anyone moves: the figure is moves, not handshakes
        deadline = start.deadline
        sent_at: float | None = None
        sent_ply = -1
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                return  # --seconds ran out with this game unfinished: counted as such, not an error
            message = json.loads(raw)
            if message["type"] == "error":
                client.refused += 1
                continue
            if message["type"] != "view":
                continue
            if sent_at is not None and message["ply"] == sent_ply + 1:
                client.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            client.last = message
            if message["over"]:
                return
            if message["to_move"] == client.seat and message["legal"] and sent_at is None:
                if think > 0:
                    await asyncio.sleep(rng.uniform(0, 2 * think))  # a player looks before moving
                sent_ply = message["ply"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "ply": sent_ply, "move": rng.choice(message["legal"])}))


class Start:
    """A barrier: the clocks start once every client has connected."""

    def __init__(self, clients: int, seconds: float) -> None:
        self.waiting = clients
        self.seconds = seconds
        self.deadline = 0.0
        self.go = asyncio.Event()

    async def arrive(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.deadline = time.monotonic() + self.seconds
            self.go.set()
        await self.go.wait()


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc (0 where there is none)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


async def wait_until_serving(http: Any, tries: int) -> None:
    """Until the server just started answers its catalog on ``http`` (an ``httpx.AsyncClient``), ``tries`` tenths of
    a second at most."""
    import httpx

    for _ in range(tries):
        try:
            (await http.get("/api/catalog")).raise_for_status()
            return
        except httpx.HTTPError:
            await asyncio.sleep(0.1)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def run(games: int, seconds: float, db: str, seed: int, think: float) -> dict[str, Any]:
    import httpx

    from kumiki import read_record

    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "bench.server_load", "--serve", str(port), "--db", db])
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            await wait_until_serving(http, 200)
            clients: list[Client] = []
            for k in range(games):
                body = {"game": "kuzushi", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed + k}
                answer = (await http.post("/api/games", json=body)).json()
                clients += [Client(answer["id"], s["seat"], s["token"]) for s in answer["seats"]]
            rng = random.Random(seed)
            start = Start(len(clients), seconds)
            cpu_before = _cpu_seconds(server.pid)
            began = time.monotonic()
            await asyncio.gather(*(play(c, port, random.Random(rng.random()), start, think) for c in clients))
            elapsed = time.monotonic() - began
            server_cpu = _cpu_seconds(server.pid) - cpu_before
            # Every stored record must replay to exactly what the clients saw (an unfinished game: extend it).
            mismatches = 0
            finished = 0
            for k in range(0, len(clients), 2):
                pair = clients[k : k + 2]
                record = (await http.get(f"/api/games/{pair[0].game}/record")).text
                _game, state = read_record(record)
                moves = [str(m) for m in state.history]
                for c in pair:
                    seen = c.last or {}
                    if state.over:
                        mismatches += seen.get("history") != moves or seen.get("view") != state.view(c.seat)
                    else:  # stopped by --seconds: a move sent at the deadline may land after the client stopped
                        mismatches += seen.get("history") != moves[: len(seen.get("history", []))]
                finished += state.over
    finally:
        server.terminate()
        server.wait(10)
    latencies = sorted(x for c in clients for x in c.latencies)
    return {
        "games": games,
        "clients": len(clients),
        "finished": finished,
        "moves": len(latencies),
        "seconds": elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "max_ms": 1000 * latencies[-1],
        "server_cpu": server_cpu,
        "mismatches": mismatches,
        "refused": sum(c.refused for c in clients),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.server_load", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="two-player games played at once (default 100)")
    parser.add_argument("--seconds", type=float, default=180.0, help="the longest the games may run (default 180)")
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file in a temporary folder)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=0.25,
        help="mean pause in seconds before each move, drawn uniformly from 0 to twice this (default 0.25; "
        "0: every client answers at once, which measures the server saturated rather than a club playing)",
    )
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.db)
        return
    games = max(1, min(args.games, 500))
    with tempfile.TemporaryDirectory(prefix="kumiki-load-") as folder:
        db = args.db or f"sqlite:///{os.path.join(folder, 'load.db')}"
        figures = asyncio.run(run(games, min(args.seconds, 900.0), db, args.seed, max(0.0, args.think)))
    verdict = "ok" if figures["p99_ms"] <= TARGET_P99_MS else "OVER TARGET"
    print(
        f"server load: {figures['clients']} WebSocket clients, {figures['games']} two-player Kuzushi games, "
        f"think time 0–{2 * args.think:g} s"
    )
    print(f"  finished games            {figures['finished']} / {figures['games']} in {figures['seconds']:.1f} s")
    print(f"  moves timed               {figures['moves']}")
    per_move = 1000 * figures["server_cpu"] / max(1, figures["moves"])
    print(f"  server CPU                {figures['server_cpu']:.2f} s ({per_move:.2f} ms a move)")
    print(
        f"  send move -> next view    p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
        f"max {figures['max_ms']:.1f} ms (target p99 ≤ {TARGET_P99_MS:g} ms: {verdict})"
    )
    print(
        f"  records replayed          {figures['mismatches']} differ from what the clients saw; "
        f"{figures['refused']} moves refused"
    )
    if figures["mismatches"] or figures["finished"] < figures["games"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
