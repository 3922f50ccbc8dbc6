"""What an open 3D board costs the browser while nobody touches it: drawn only when something may have changed, against
drawn at every display frame as before.

A board drawn at every frame kept the 2-core test machine's cores busy for one idle page in headless Chromium (software
WebGL), which starved the other pages and the server in the browser tests and spends a laptop's or a phone's battery.
Now the stage draws for a moment after input, a server message or a fetch's answer, while an animation runs, and once
a second besides (src/kumiki/web/src/redraw.ts). The plain way is the same page with the test hook
``window.__kumiki.drawEveryFrame`` set.

Run: ``python -m bench.web_idle [--pages 1] [--seconds 10]``. It needs the 'e2e' extra, Debian's Chromium and the
built client (``make test`` installs all three). It starts ``kumiki serve`` on a throwaway SQLite file, opens
``--pages`` Kozo and Blokus 3D game pages (alternately) at 1280×800, lets them settle, then measures the CPU time of
every Chromium process over ``--seconds`` and the frames each page drew, both ways.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.e2e.conftest import ARGS, CHROMIUM, Server, _free_port
from tests.helpers import stop

TWO = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def chromium_seconds() -> float:
    """CPU seconds (user + system) spent so far by every running Chromium process."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if b"chrom" not in Path(f"/proc/{entry}/cmdline").read_bytes():
                continue
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def serve(folder: str) -> tuple[subprocess.Popen[bytes], Server]:
    """A `kumiki serve` on a free port (as the browser tests start it): the process and its client, once it answers."""
    port = _free_port()
    db = f"sqlite:///{folder}/idle.db"
    command = [sys.executable, "-m", "kumiki.cli", "serve", "--port", str(port), "--db", db]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Server(f"http://127.0.0.1:{port}", db)
    for _ in range(300):
        try:
            with urllib.request.urlopen(server.url + "/api/games", timeout=1):
                return process, server
        except OSError:
            time.sleep(0.1)
    stop(process)
    raise SystemExit("the server did not start")


def measure(pages: list[Any], seconds: float) -> tuple[float, float]:
    """Chromium's CPU over ``seconds`` (percent of one core) and the mean frames drawn a second by one page."""
    frames = [page.evaluate("window.__kumiki.frames") for page in pages]
    cpu, start = chromium_seconds(), time.perf_counter()
    time.sleep(seconds)
    cpu, elapsed = chromium_seconds() - cpu, time.perf_counter() - start
    drawn = sum(page.evaluate("window.__kumiki.frames") - before for page, before in zip(pages, frames, strict=True))
    return 100 * cpu / elapsed, drawn / len(pages) / elapsed


def run(count: int = 1, seconds: float = 10.0) -> list[tuple[str, float, str]]:
    """The figures, as (what, value, comment) rows."""
    from playwright.sync_api import sync_playwright

    if CHROMIUM is None:
        raise ImportError("Chromium is not installed (apt-get install chromium; make test does it)")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        process, server = serve(folder)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pages = []
            for index in range(count):
                page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                created = server.create(("kozo", "blokus3d")[index % 2], TWO)
                page.goto(server.url + created["seats"][0]["invite"])
                page.wait_for_function("() => window.__kumiki !== undefined && window.__kumiki.frames > 5")
                pages.append(page)
            time.sleep(2)  # past the first moment's drawing
            idle_cpu, idle_fps = measure(pages, seconds)
            for page in pages:
                page.evaluate("window.__kumiki.drawEveryFrame = true")
            every_cpu, every_fps = measure(pages, seconds)
        finally:
            browser.close()
            stop(process)
    boards = f"{count} idle board{'s' if count > 1 else ''}"
    return [
        (f"{boards}: Chromium CPU, % of one core", idle_cpu, f"drawn at every frame: {every_cpu:.0f} %"),
        ("  frames drawn a second (one page)", idle_fps, f"drawn at every frame: {every_fps:.0f}"),
        ("  CPU saved (every frame / on demand)", every_cpu / max(idle_cpu, 0.1), "×"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.web_idle", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1, help="game pages open at once (default 1)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds measured each way (default 10)")
    args = parser.parse_args()
    if args.pages < 1 or args.seconds <= 0:
        raise SystemExit("--pages must be at least 1 and --seconds above 0")
    try:
        rows = run(args.pages, args.seconds)
    except ImportError as error:
        raise SystemExit(f"not measured: {error}") from None
    for what, value, comment in rows:
        print(f"  {what:<44} {value:>8.1f}   {comment}")


if __name__ == "__main__":
    main()
