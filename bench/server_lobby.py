"""The lobby's game list with ``record_ready`` and ``teams``: whether a game going on has chance, and the side each
seat plays for, are asked of its options, once per option set (``server.newgames._facts``, cached), not by building
every listed game.

Run: ``python -m bench.server_lobby [--games 200]``: ``GET /api/games?limit=N`` over N Kozo games going, median of 5,
cached, with the cache emptied before each request, and with one game built per row (the way before the cache).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

import kumiki.server.app as app
import kumiki.server.newgames as newgames
from kumiki.server.limits import Limits


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.server_lobby", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="Kozo games going, all listed (at most 200)")
    games = min(200, parser.parse_args().games)
    folder = tempfile.mkdtemp()
    server = app.create_app(
        f"sqlite:///{folder}/lobby.db", limits=Limits(http_burst=10_000), pool_factory=lambda: ThreadPoolExecutor(1)
    )
    with TestClient(server) as client:
        for seed in range(games):
            body = {"game": "kozo", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed}
            assert client.post("/api/games", json=body).status_code == 200

        def median_ms(clear: bool) -> float:
            times = []
            for _ in range(5):
                if clear:
                    newgames._facts.cache_clear()
                began = time.perf_counter()
                listed = client.get(f"/api/games?limit={games}").json()["games"]
                times.append(time.perf_counter() - began)
                assert len(listed) == games
            return 1000.0 * statistics.median(times)

        cached, emptied = median_ms(False), median_ms(True)
        kept = newgames._facts
        newgames._facts = kept.__wrapped__  # type: ignore[assignment]
        try:
            per_row = median_ms(False)
        finally:
            newgames._facts = kept
    print(f"  lobby list ms, {games} Kozo games going, cached          {cached:10.1f}")
    print(f"  lobby list ms, cache emptied before each request      {emptied:10.1f}")
    print(
        f"  lobby list ms, one game built per row (no cache)      {per_row:10.1f}   {per_row / cached:.0f}× the cached"
    )


if __name__ == "__main__":
    main()
