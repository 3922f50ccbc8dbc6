"""The replay of a long game: a 20-round TowerBrix game of random moves (every position repeats the evaluations so
far, so a replay grows with the square of the moves), imported into a server on a fresh SQLite file, then
``GET /api/games/{id}/replay`` three times: its size and how long each takes (one process, the server in-process).

Run: ``python -m bench.server_replay [--rounds 20] [--seed 3]``.
"""

from __future__ import annotations

import argparse
import random
import tempfile
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
    print(f"a {rounds}-round game: {len(state.history)} moves, {len(state.evaluations)} evaluations")  # type: ignore[attr-defined]
    return kumiki.write_record(state)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.server_replay", description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    from fastapi.testclient import TestClient

    from kumiki.server import create_app

    record = long_game(args.rounds, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'replay.db'}", pool_factory=lambda: ThreadPoolExecutor(1))
        with TestClient(app) as client:
            game_id = client.post("/api/records", content=record).json()["id"]
            for _ in range(3):
                began = time.perf_counter()
                answer = client.get(f"/api/games/{game_id}/replay")
                seconds = time.perf_counter() - began
                print(f"  replay: status {answer.status_code}, {len(answer.content):,} bytes, {seconds:.2f} s")


if __name__ == "__main__":
    main()
