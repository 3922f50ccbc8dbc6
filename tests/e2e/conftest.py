"""Browser tests: a real `kumiki serve` on a free port with a throwaway SQLite file, driven by Debian's Chromium.

They skip (with the reason) only when Chromium, Playwright or the built client (src/kumiki/web/dist) is missing;
`make test` installs and builds all three. A failing test leaves screenshots of its pages in test-results/e2e/.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import stop

import kumiki

CHROMIUM = shutil.which("chromium")
DIST = Path(kumiki.__file__).parent / "web" / "dist" / "index.html"
ARGS = [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    # no look-ups of outside hosts; the EXCLUDEs keep loopback working
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-results" / "e2e"


def _missing() -> str | None:
    try:
        import playwright  # noqa: F401
        import pytest_playwright  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install 'kumiki[e2e]')"
    if CHROMIUM is None:
        return "Chromium is not installed (apt-get install chromium; make test does it)"
    if not DIST.exists():
        return "the web client is not built (cd src/kumiki/web && npm ci && npm run build; make test does it)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    if reason:
        for item in items:
            if "tests/e2e" in str(item.path).replace("\\", "/"):
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_configure(config: pytest.Config) -> None:
    """Playwright's ``expect`` waits 10 s, not its 5 s: under ``make test`` two test workers, Chromium drawing with
    software WebGL and the servers share 2 cores, and a page once took longer than 5 s to connect (the actions'
    and waits' own limit is 15 s, ``pages``)."""
    try:
        from playwright.sync_api import expect
    except ImportError:  # the tests skip (``_missing``)
        return
    expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A running `kumiki serve` and a few lobby calls for setting games up quickly."""

    def __init__(self, url: str, db: str = "") -> None:
        self.url = url
        self.db = db

    def state(self, game_id: str) -> Any:
        """The engine's State of a game as the server stores it, read from the test's own database (the server
        gives no record of a game going that has hidden cards: its seed would tell them)."""
        from kumiki.server.rooms import rebuild
        from kumiki.server.storage import Storage

        storage = Storage(self.db)
        try:
            row = storage.game(game_id)
            assert row is not None, f"no game {game_id}"
            return rebuild(row, storage.moves(game_id))
        finally:
            storage.close()

    def post(self, path: str, data: Any) -> Any:
        request = urllib.request.Request(
            self.url + path, json.dumps(data).encode(), {"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.load(answer)

    def text(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return answer.read().decode()

    def create(self, game: str, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
        return self.post("/api/games", {"game": game, "options": options, "seats": seats})


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if _missing():
        pytest.skip(_missing() or "")
    folder = tmp_path_factory.mktemp("kumiki-serve")
    port = _free_port()
    db = f"sqlite:///{folder}/e2e.db"
    command = [sys.executable, "-m", "kumiki.cli", "serve", "--port", str(port), "--db", db]
    log = open(folder / "serve.log", "w")  # noqa: SIM115 - closed after the process
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if process.poll() is not None:
                pytest.fail(f"kumiki serve exited: {(folder / 'serve.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(url + "/api/catalog", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("kumiki serve did not answer within 10 s")
        yield Server(url, db)
    finally:
        stop(process)
        log.close()


@pytest.fixture
def new_game_on_home_page(server: Server) -> Callable[..., None]:
    """`new_game_on_home_page(page, game, seats, **options)` fills the home page's form and creates the game, which
    then shows its invitations: the game, its options typed into their fields, each seat as for `Server.create`."""

    def create(page: Any, game: str, seats: list[dict[str, str]], **options: Any) -> None:
        page.goto(server.url + "/")
        page.get_by_test_id("game-select").select_option(game)
        for name, value in options.items():
            field = page.get_by_test_id(f"opt-{name}")
            if not field.is_visible():  # an advanced option, folded under "More options"
                page.get_by_test_id("more-options").locator("summary").click()
            field.fill(str(value))
        for index, seat in enumerate(seats):
            page.get_by_test_id(f"seat-{index}-kind").select_option(seat["kind"])
            if seat["kind"] == "human":
                page.get_by_test_id(f"seat-{index}-name").fill(seat["name"])
            else:
                page.get_by_test_id(f"seat-{index}-level").select_option(seat["level"])
        page.get_by_test_id("create").click()

    return create


# The number of colours on the board's canvas, read from a 64×64 copy (the canvas keeps its drawing buffer for this).
CANVAS_COLOURS = """() => {
  const canvas = document.querySelector('canvas[data-testid=board]');
  const probe = document.createElement('canvas');
  probe.width = 64; probe.height = 64;
  const g = probe.getContext('2d');
  g.drawImage(canvas, 0, 0, 64, 64);
  const data = g.getImageData(0, 0, 64, 64).data;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) colours.add(data[i] >> 4 << 8 | data[i + 1] >> 4 << 4 | data[i + 2] >> 4);
  return colours.size;
}"""


@pytest.fixture
def assert_scene_drawn() -> Callable[[Any], None]:
    """`assert_scene_drawn(page)` fails if the 3D board's WebGL canvas is blank (one or two colours: no scene drawn)."""

    def check(page: Any) -> None:
        assert page.evaluate(CANVAS_COLOURS) > 3, "the WebGL scene drew nothing"

    return check


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def pages(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """`pages()` opens a page in a fresh browser context (a separate player); screenshots all of them on failure."""
    contexts: list[Any] = []
    opened: list[Any] = []

    def open_page(width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        opened.append(page)
        return page

    yield open_page
    if request.node.stash.get(_FAILED, False):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for index, page in enumerate(opened):
            path = ARTIFACTS / f"{request.node.name}-{index}.png"
            try:
                page.screenshot(path=str(path), full_page=True)
                sys.stderr.write(f"screenshot saved: {path}\n")
            except Exception as error:  # a screenshot must never hide the real failure
                sys.stderr.write(f"no screenshot of page {index}: {error}\n")
    for context in contexts:
        context.close()
