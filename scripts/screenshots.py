"""Screenshots for the README: the home page, a game page, a tutorial step and a phone view, in docs/images/.

    python scripts/screenshots.py          (or: make screenshots)

Starts a throwaway `kumiki serve`, opens its pages in Chromium and saves docs/images/{home,game,tutorial,phone}.png.
Needs the built client, Chromium and Playwright (make test installs all three). Run it again when the look changes;
the images are committed, so nobody else needs a browser.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from lobby_pictures import free_port  # the same folder

import kumiki

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images"
ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"]


def create(url: str, game: str, seats: list[dict[str, str]], options: dict[str, object]) -> str:
    """A new game on the server; the first human seat's invite link."""
    body = json.dumps({"game": game, "seats": seats, "options": options, "seed": 7}).encode()
    request = urllib.request.Request(
        f"{url}/api/games", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        made = json.load(answer)
    return str(next(seat["invite"] for seat in made["seats"] if seat.get("invite")))


def main() -> None:
    chromium = shutil.which("chromium")
    dist = Path(kumiki.__file__).parent / "web" / "dist" / "index.html"
    if chromium is None or not dist.exists():
        sys.exit("needs Chromium and the built client (make test installs both)")
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
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
                browser = p.chromium.launch(executable_path=chromium, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(url + "/")
                page.wait_for_selector('[data-testid="game-card-kuzushi"] img')
                page.wait_for_timeout(1000)
                page.screenshot(path=str(OUT / "home.png"))
                human = {"kind": "human", "name": "you"}
                computer = {"kind": "agent", "level": "medium"}
                page.goto(url + create(url, "blokus3d", [human, computer], {"players": 2}))
                page.wait_for_function("window.__kumiki && window.__kumiki.frames > 5")
                page.wait_for_timeout(1500)
                page.screenshot(path=str(OUT / "game.png"))
                page.goto(url + "/play/kuzushi")
                page.get_by_test_id("tutorial-start").click()
                page.wait_for_function("window.__kumiki && window.__kumiki.views > 0")
                page.wait_for_timeout(1000)
                page.screenshot(path=str(OUT / "tutorial.png"))
                phone = browser.new_page(
                    viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
                )
                phone.goto(url + create(url, "kozo", [human, computer], {"players": 2, "rounds": 1}))
                phone.wait_for_function("window.__kumiki && window.__kumiki.frames > 5")
                phone.wait_for_timeout(1500)
                phone.screenshot(path=str(OUT / "phone.png"))
                browser.close()
                for name in ("home", "game", "tutorial", "phone"):
                    print(OUT / f"{name}.png")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
