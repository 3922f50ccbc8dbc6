"""Render the lobby's game pictures: a real position of each game, drawn by the browser client itself.

    python scripts/lobby_pictures.py          (or: make pictures)

Plays a short game of each with Kumiki's agents, imports its record into a throwaway `kumiki serve`, opens the replay
in Chromium at the chosen move and saves the board as src/kumiki/web/public/cards/<game>.png (the client's build
copies them to dist/cards, served at /cards). Needs the built client, Chromium and Playwright (make test installs all
three). Run it again when a game's look changes; the pictures are committed, so nobody else needs a browser.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import kumiki
from kumiki import load_game, write_record
from kumiki.agents import agent_from_spec
from kumiki.core.game import State

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "kumiki" / "web" / "public" / "cards"
SIZE = {"width": 640, "height": 900}


def played(game: str, options: dict[str, object], agent: str, plies: int, seed: int = 3) -> State:
    """``plies`` moves (or the whole game) of ``agent`` in every seat."""
    state = load_game(game, **options).new_state(seed=seed)
    agents = [agent_from_spec(agent, seed=seed + i) for i in range(state.game.players)]
    while not state.over and len(state.history) < plies:
        state.play(agents[state.to_move or 0].choose(state))
    return state


def towerbrix_tower() -> tuple[State, int]:
    """A TowerBrix attempt built by the agents, shown just before it is evaluated (the table is cleared after)."""
    state = load_game("towerbrix", players=2, rounds=1).new_state(seed=5)
    agents = [agent_from_spec("towerbrix-teammate", seed=i) for i in range(2)]
    while not state.over and not state.to_json().get("evaluations"):
        state.play(agents[state.to_move or 0].choose(state))
    return state, len(state.history) - 1


def pick(game: str) -> tuple[State, int]:
    """The game to show and the move to show it at."""
    makers: dict[str, Callable[[], State]] = {
        "kuzushi": lambda: played("kuzushi", {"players": 3}, "greedy", 200),
        "blokus3d": lambda: played("blokus3d", {"players": 4, "structure": "C"}, "greedy", 26),
        "kozo": lambda: played("kozo", {"players": 2, "rounds": 1}, "kozo-greedy", 7),
    }
    if game == "towerbrix":
        return towerbrix_tower()
    state = makers[game]()
    return state, len(state.history)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served_in_chromium() -> Iterator[tuple[str, Any]]:
    """A throwaway `kumiki serve` (its own database in a temporary folder) and Chromium: (the server's URL, the
    browser). Exits in one line without Chromium or the built client."""
    chromium = shutil.which("chromium")
    dist = Path(kumiki.__file__).parent / "web" / "dist" / "index.html"
    if chromium is None or not dist.exists():
        sys.exit("needs Chromium and the built client (make test installs both)")
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "kumiki.cli", "serve", "--port", str(port), "--db", f"sqlite:///{folder}/k.db"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{url}/api/version", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium,
                    args=["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
                )
                yield url, browser
                browser.close()
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with served_in_chromium() as (url, browser):
        page = browser.new_page(viewport=SIZE)
        for game in ("kuzushi", "blokus3d", "kozo", "towerbrix"):
            state, ply = pick(game)
            request = urllib.request.Request(
                f"{url}/api/records", data=write_record(state).encode(), method="POST",
                headers={"Content-Type": "text/plain"},
            )  # fmt: skip
            with urllib.request.urlopen(request) as answer:
                replay = json.load(answer)["replay"]
            page.goto(url + replay)
            page.wait_for_selector('[data-testid="replay-slider"]')
            page.evaluate(f"() => {{ const s = document.querySelector('[data-testid=\"replay-slider\"]');"
                          f" s.value = '{ply}'; s.dispatchEvent(new Event('input')); }}")  # fmt: skip
            page.wait_for_timeout(1500)
            page.locator('[data-testid="board"]').first.screenshot(path=str(OUT / f"{game}.png"))
            print(f"{game}: move {ply} -> {OUT / f'{game}.png'}")


if __name__ == "__main__":
    main()
