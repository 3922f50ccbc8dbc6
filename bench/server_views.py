"""The view message of a long game: what a WebSocket connection is sent at connect, after every move and in answer to
each ``{"type": "sync"}``, built on the event loop. A 20-round TowerBrix game of random moves (as
bench/server_replay.py's: its views carry every evaluation so far) is imported into a server on a fresh SQLite file,
whole (over) and cut short (going on: the seat to move gets its legal moves). For the spectator and each seat, the
median time of one view message built afresh (the room's cache emptied before each: the way every sync was answered
before the cache) and of one from the cache (every later sync and connection at the same position); both texts are
checked to be the same. Then what the transport spends on the same text: uvicorn's permessage-deflate, which a browser
asks for, compresses each message sent (zlib, a 32 KiB window, one compressor per connection).

``--sockets`` measures the same end to end: the server in its own process (uvicorn, as ``kumiki serve`` runs it, the
per-connection message rate raised), the whole game imported, two spectators sending syncs as fast as the answers
come, with and without permessage-deflate, with the views built afresh (the cache emptied before each) and cached:
the server's CPU time a sync and the syncs answered a second.

``--oks`` measures the longest views the server keeps instead: every move an ok, 100 attempts a round (rounds 20:
4,000 moves, 2,000 evaluations of an empty table, 0.8 MB a view).

Run: ``python -m bench.server_views [--rounds 20] [--seed 3] [--cut 1800] [--repeat 30] [--oks] [--sockets]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import kumiki
from bench.server_load import _cpu_seconds, _free_port, wait_until_serving
from kumiki import State

if TYPE_CHECKING:  # the server (the 'web' extra) is imported where it is measured
    from kumiki.server.rooms import Room


def random_game(rounds: int, seed: int) -> State:
    """A two-player TowerBrix game of ``rounds`` rounds, every move drawn at random (bench/server_replay.py's)."""
    state = kumiki.load_game("towerbrix", players=2, rounds=rounds).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.over:
        state.play(rng.choice(state.legal_moves()))
    return state


def oks_game(rounds: int) -> State:
    """The longest views the server keeps: a two-player TowerBrix game of ``rounds`` rounds of 100 attempts, every
    move an ok (an evaluation of an empty table every two moves: 0.8 MB a view at 4,000 moves)."""
    state = kumiki.load_game("towerbrix", players=2, rounds=rounds, attempts=100).new_state(seed=0)
    while not state.over:
        state.play("ok")
    return state


def first_moves(state: State, count: int) -> State:
    """The same game after its first ``count`` moves."""
    short = state.game.new_state(seed=state.seed)  # type: ignore[attr-defined]
    for move in state.history[:count]:
        short.play(move)
    return short


def median_ms(call: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return 1000.0 * statistics.median(times)


def measure(room: Room, seat: int | None, repeat: int) -> tuple[float, float, float, int]:
    """(afresh ms, cached ms, deflate ms, characters) of ``seat``'s view message in ``room``."""

    def afresh() -> str:
        room._position = None  # the cache forgotten: built as every sync was before it
        return room.view_message(seat)

    plain = afresh()
    assert room.view_message(seat) == plain, "the cached view message differs from the one built afresh"
    built = median_ms(afresh, repeat)
    room.view_message(seat)
    cached = median_ms(lambda: room.view_message(seat), 10 * repeat)
    data = plain.encode()
    compressor = zlib.compressobj(wbits=-15)  # websockets' permessage-deflate as uvicorn sets it up
    deflate = median_ms(lambda: compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH), repeat)
    return built, cached, deflate, len(plain)


def measured(
    whole: State, cut: int | None, repeat: int, seats: tuple[int | None, ...] = (None, 0, 1)
) -> list[tuple[str, float, float, float, int]]:
    """(case, afresh ms, cached ms, deflate ms, characters) for each case: the game ``whole`` over, and after its
    first ``cut`` moves (unless None); the spectator (None) and each of ``seats``."""
    from fastapi.testclient import TestClient

    from kumiki.server import create_app

    cases = [("over", whole)]
    if cut is not None:
        cut = min(cut, len(whole.history) - 1)
        cases.append((f"at move {cut:,}", first_moves(whole, cut)))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'views.db'}", pool_factory=lambda: ThreadPoolExecutor(1))
        with TestClient(app) as client:
            for case, state in cases:
                answer = client.post("/api/records", content=kumiki.write_record(state))
                assert answer.status_code == 200, answer.text
                room = app.state.hub.room(answer.json()["id"])
                for seat in seats:
                    who = "spectator" if seat is None else f"seat {seat}"
                    if seat is not None and seat in room.state.actors and not room.over:
                        who += " (to move)"
                    rows.append((f"{case}, {who}", *measure(room, seat, repeat)))
    return rows


def about(state: State, seconds: float, oks: bool) -> str:
    evaluations = len(state.evaluations)  # type: ignore[attr-defined]
    rounds = state.game.options["rounds"]
    moves = "oks, 100 attempts a round" if oks else "random moves"
    return (
        f"a {rounds}-round TowerBrix game of {moves}: {len(state.history):,} moves, {evaluations:,} evaluations "
        f"(played in {seconds:.1f} s)"
    )


def run(repeat: int = 30) -> list[tuple[str, float, str]]:
    """``make bench``'s rows: a spectator's sync on the whole 20-round game, built afresh and from the cache."""
    whole = random_game(20, 3)
    _case, built, cached, _deflate, size = measured(whole, None, repeat, seats=(None,))[0]
    game = f"TowerBrix, 20 rounds, {len(whole.history):,} moves: {size:,} characters"
    return [
        ("server: a spectator's sync, view built afresh, ms", built, f"{game} (the way before the cache)"),
        ("server: a spectator's sync, view from the cache, ms", cached, f"{built / cached:,.0f}x less"),
    ]


def serve(port: int, db: str, afresh: bool) -> None:
    """The server process: ``kumiki serve``'s app, each connection's message rate raised (so the syncs are answered,
    not refused); with ``afresh``, every view message is built as before the cache (the cache emptied first)."""
    import uvicorn

    from kumiki.server import create_app
    from kumiki.server.limits import Limits
    from kumiki.server.rooms import Room

    if afresh:
        cached = Room.view_message

        def view_message(room: Room, seat: int | None) -> str:
            room._position = None
            return cached(room, seat)

        Room.view_message = view_message  # type: ignore[method-assign]
    limits = Limits(ws_rate=1e6, ws_burst=1e6, http_rate=1000.0, http_burst=1000.0)
    uvicorn.run(create_app(db, limits=limits), host="127.0.0.1", port=port, log_level="warning")


async def over_sockets(record: str, afresh: bool, syncs: int = 150, clients: int = 2) -> list[tuple[str, float, float]]:
    """(compression, server CPU ms a sync, syncs answered a second) with each client's permessage-deflate on and
    off, ``clients`` spectators sending ``syncs`` syncs each, one at a time."""
    import httpx
    from websockets.asyncio.client import connect

    port = _free_port()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'views.db'}"
        command = [sys.executable, "-m", "bench.server_views", "--serve", str(port), "--db", db]
        server = subprocess.Popen([*command, *(["--afresh"] if afresh else [])])
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                await wait_until_serving(http, 300)
                game = (await http.post("/api/records", content=record)).json()["id"]
            for compression in ("deflate", None):

                async def spectator(count: int, compression: str | None = compression) -> None:
                    uri = f"ws://127.0.0.1:{port}/ws/games/{game}"
                    async with connect(uri, max_size=None, compression=compression) as ws:
                        await ws.recv()
                        for _ in range(count):
                            await ws.send('{"type": "sync"}')
                            answer = await ws.recv()
                            assert str(answer).startswith('{"type": "view"'), str(answer)[:200]

                await spectator(5)  # the room loaded and its views built
                cpu, began = _cpu_seconds(server.pid), time.perf_counter()
                await asyncio.gather(*(spectator(syncs) for _ in range(clients)))
                seconds, cpu = time.perf_counter() - began, _cpu_seconds(server.pid) - cpu
                rows.append((compression or "none", 1000.0 * cpu / (clients * syncs), clients * syncs / seconds))
        finally:
            server.terminate()
            server.wait(10)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.server_views", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--cut", type=int, default=1800, help="moves of the game going on (default 1800)")
    parser.add_argument("--repeat", type=int, default=30, help="calls timed per figure (the cache: ten times more)")
    parser.add_argument("--oks", action="store_true", help="every move an ok, 100 attempts a round (0.8 MB views)")
    parser.add_argument("--sockets", action="store_true", help="also end to end, the server in its own process")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--db", default="", help=argparse.SUPPRESS)
    parser.add_argument("--afresh", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.db, args.afresh)
        return
    began = time.perf_counter()
    whole = oks_game(args.rounds) if args.oks else random_game(args.rounds, args.seed)
    print(about(whole, time.perf_counter() - began, args.oks))
    rows = measured(whole, args.cut, args.repeat)
    columns = f"{'afresh ms':>10} {'cached ms':>10} {'':>7} {'characters':>11} {'deflate ms':>11}"
    print(f"  {'one view message, median':<34} {columns}")
    for case, built, cached, deflate, size in rows:
        print(f"  {case:<34} {built:>10.2f} {cached:>10.3f} {built / cached:>6.0f}x {size:>11,} {deflate:>11.2f}")
    print("  (deflate: what the transport's permessage-deflate then spends on the message, if the client asks for it)")
    if not args.sockets:
        return
    record = kumiki.write_record(whole)
    print("  over WebSockets, the whole game, 2 spectators syncing (server process; CPU a sync, syncs a second):")
    figures = {afresh: asyncio.run(over_sockets(record, afresh)) for afresh in (True, False)}
    for (compression, built_ms, built_rate), (_same, cached_ms, cached_rate) in zip(
        figures[True], figures[False], strict=True
    ):
        print(
            f"    permessage-deflate {compression:<8} afresh {built_ms:6.2f} ms, {built_rate:5.0f}/s   "
            f"cached {cached_ms:6.2f} ms, {cached_rate:5.0f}/s"
        )


if __name__ == "__main__":
    main()
