"""Screenshots for the README: the home page, a game page, a tutorial step and a phone view, in docs/images/.

    python scripts/screenshots.py          (or: make screenshots)

Starts a throwaway `kumiki serve`, opens its pages in Chromium and saves docs/images/{home,game,tutorial,phone}.png.
Needs the built client, Chromium and Playwright (make test installs all three). Run it again when the look changes;
the images are committed, so nobody else needs a browser.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from lobby_pictures import served_in_chromium  # the same folder

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images"


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
    OUT.mkdir(parents=True, exist_ok=True)
    with served_in_chromium() as (url, browser):
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
    for name in ("home", "game", "tutorial", "phone"):
        print(OUT / f"{name}.png")


if __name__ == "__main__":
    main()
