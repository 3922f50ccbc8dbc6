"""How soon a restarted server answers, and how soon every game still going is back in memory.

At start the server rebuilds every unfinished game by replaying its stored moves, and a computer seat that was to
move starts thinking again. It used to do so before answering anything (the lobby waited for every game); now it
answers at once and brings the games back in the background, one at a time, off the event loop (``Hub.resume``).

Run: ``python -m bench.server_startup [--games 132] [--kozo 87] [--moves 30]``. It stores ``--games`` unfinished
two-player games (``--kozo`` of them Kozo, the rest Kuzushi and Blokus 3D, each up to ``--moves`` random legal moves;
every fourth against a computer that is to move) in a temporary SQLite file, then starts the server over it both
ways, each in a fresh process: "at start" (the walk before the server answers, as before) and "background" (now).
For each: seconds until the first lobby request (``GET /api/games``) is answered, until every stored game is back,
and the lobby request's time (median and max) while the games are still coming back. The computers' pool never
answers here: the figures are the server's own (the real pool thinks in other processes).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

HUMAN = {"kind": "human"}
AGENT = {"kind": "agent", "level": "easy"}


class NeverAnswers(Executor):
    """The computers' pool: a search asked for is never answered (the server's own work is timed)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


def build(db: str, games: int, kozo: int, moves: int) -> None:
    """The stored games: created as the lobby creates them, then random legal moves stored as a room stores them."""
    from kumiki.server.newgames import new_game
    from kumiki.server.rooms import rebuild, result_columns
    from kumiki.server.storage import Storage

    storage = Storage(db)
    rng = random.Random(1)
    others = ["kuzushi", "blokus3d"]
    for k in range(games):
        name = "kozo" if k < kozo else others[k % 2]
        agent = k % 4 == 0
        seats = [HUMAN, AGENT] if agent else [HUMAN, HUMAN]
        answer = new_game(storage, {"game": name, "seats": seats, "seed": k})
        row = storage.game(answer["id"])
        assert row is not None
        state = rebuild(row, [])
        plies = rng.randint(1, moves)
        if agent and plies % 2 == 0:
            plies += 1  # the person moves last: the computer is to move
        for ply in range(plies):
            legal = state.legal_moves()
            move = rng.choice(legal) if legal else None
            after = state.copy()
            if move is None or (after.play(move) or after.over):
                break  # the game goes on: a move that would end it is not played
            seat = state.to_move
            state.play(move)
            storage.add_move(row.id, ply, seat, str(move), result_columns(state))
    storage.close()


def old_walk(hub: Any) -> None:
    """The start-up before: every game replayed on the event loop before the server answered (``Hub.resume`` as it
    was), the agents then started."""
    from kumiki.server.rooms import Unreplayable

    for game_id in hub.storage.playing_ids():
        try:
            room = hub.room(game_id)
        except Unreplayable:
            continue
        if room is not None:
            room.start_agents()
            hub.release(room)


def measure(db: str, way: str) -> dict[str, Any]:
    """One start of the server over ``db`` (in this process): the figures as a dict."""
    from fastapi.testclient import TestClient

    from kumiki.server.app import create_app
    from kumiki.server.hub import Hub
    from kumiki.server.limits import Limits

    if way == "at-start":
        Hub.start_resume = old_walk  # type: ignore[method-assign]
        Hub.resuming = lambda self: False  # type: ignore[method-assign]
    began = time.perf_counter()
    client = TestClient(create_app(db, limits=Limits(http_burst=100_000), pool_factory=NeverAnswers))
    client.__enter__()
    try:
        assert client.get("/api/games").status_code == 200
        lobby = time.perf_counter() - began
        hub = client.app.state.hub  # type: ignore[attr-defined]
        meanwhile = []
        while hub.resuming():
            start = time.perf_counter()
            assert client.get("/api/games").status_code == 200
            meanwhile.append(time.perf_counter() - start)
            time.sleep(0.05)
        back = time.perf_counter() - began
        thinking = sum(1 for room in hub.rooms.values() if room.thinking())
        return {
            "lobby": lobby,
            "back": back,
            "meanwhile": meanwhile,
            "games": len(hub.storage.playing_ids()),
            "thinking": thinking,
        }
    finally:
        client.__exit__(None, None, None)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.server_startup", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=132, help="unfinished games stored (default 132)")
    parser.add_argument("--kozo", type=int, default=87, help="of which Kozo (default 87)")
    parser.add_argument("--moves", type=int, default=30, help="at most this many moves a game (default 30)")
    parser.add_argument("--measure", choices=["at-start", "background"], help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # one start, in this fresh process
        print(json.dumps(measure(args.db, args.measure)))
        return
    folder = tempfile.mkdtemp()
    db = f"sqlite:///{Path(folder) / 'startup.db'}"
    began = time.perf_counter()
    build(db, min(args.games, 2000), min(args.kozo, args.games), max(1, args.moves))
    print(f"  {args.games} unfinished games stored ({args.kozo} Kozo) in {time.perf_counter() - began:.1f} s")
    for way in ("at-start", "background"):
        command = [sys.executable, "-m", "bench.server_startup", "--measure", way, "--db", db]
        out = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()[-1])
        during = out["meanwhile"]
        lobby_meanwhile = (
            f"lobby meanwhile {1000 * statistics.median(during):.0f} ms median, {1000 * max(during):.0f} ms max "
            f"({len(during)} requests)"
            if during
            else "no request while games came back"
        )
        print(
            f"  {way:<10}  first lobby answer {out['lobby']:6.2f} s   every game back {out['back']:6.2f} s   "
            f"{lobby_meanwhile}; {out['games']} games going, {out['thinking']} computers thinking"
        )


if __name__ == "__main__":
    main()
