"""The package as a user gets it: ``python -m build`` gives an sdist and a wheel that carries the built browser client
(and none of its sources or node_modules), and the wheel installed in a fresh venv outside the repository serves the
page, its assets and a game. Without the ``web`` extra, ``kumiki serve`` says how to get it in one line.

The fresh venv installs the locked versions (the lock, less its hashes, as pip constraints): what is tested is what
``make test`` pinned, not whatever the index holds today.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if getattr(importlib.util.find_spec("build"), "origin", None) is None:  # (a build/ folder is no package)
    pytest.skip("building the wheel needs the 'dev' extra (build)", allow_module_level=True)
pytest.importorskip("websockets", reason="playing a move through the served wheel needs the 'web' extra")
from tests.helpers import stop
from websockets.sync.client import connect

import kumiki

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
CLIENT_SOURCES = (".ts", ".tsx", "tsconfig.json", "package.json", "package-lock.json", "vite.config.ts")

pytestmark = [
    pytest.mark.skipif(shutil.which("npm") is None, reason="building the wheel builds the client: needs npm"),
    pytest.mark.xdist_group("wheel"),  # one worker builds once (make test runs pytest with --dist loadgroup)
]


def _run(command: list[str | Path], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=env, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, command))}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build`` (the sdist, then the wheel from the sdist) on a copy of the source tree as git sees it:
    no built client, no node_modules, as in a fresh clone. So the build must build the client itself, and two
    builds (one per test worker) never share a folder."""
    source = tmp_path_factory.mktemp("source")
    listed = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():  # (a file deleted but not yet committed is listed, and skipped)
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    assert not (source / "src/kumiki/web/dist").exists()
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source], cwd=source)
    return out


@pytest.fixture(scope="module")
def wheel(built: Path) -> Path:
    (found,) = built.glob("kumiki-*-py3-none-any.whl")
    return found


def test_the_wheel_carries_the_built_client_and_no_client_sources(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        index = archive.read("kumiki/web/dist/index.html").decode()
    assert "kumiki/web/dist/index.html" in names
    assets = [n for n in names if n.startswith("kumiki/web/dist/assets/")]
    assert any(n.endswith(".js") for n in assets) and any(n.endswith(".css") for n in assets)
    assert all(re.search(r"-[A-Za-z0-9_-]{8}\.(js|css)$", n) for n in assets), assets  # hashed file names
    assert not [n for n in names if "node_modules" in n]
    assert not [n for n in names if n.endswith(CLIENT_SOURCES)]
    # The page's script is one of the assets shipped beside it.
    for src in re.findall(r'(?:src|href)="/(assets/[^"]+)"', index):
        assert f"kumiki/web/dist/{src}" in names
    # The package data the games read at run time.
    for data in (
        "games/blokus3d/structures.toml",
        "games/towerbrix/cards/green.toml",
        "games/towerbrix/cards/pink.toml",
    ):
        assert f"kumiki/{data}" in names
    assert "kumiki/py.typed" in names
    # The guides and rules pages the help texts and messages name (kumiki docs PAGE reads them).
    for page in ("physics", "arena", "server", "towerbrix-solver", "rules/kozo", "rules/towerbrix"):
        assert f"kumiki/docs/{page}.md" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)  # MIT: the notice goes with every copy


def test_the_sdist_builds_the_wheel_without_node_and_has_no_node_modules(
    built: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    (sdist,) = built.glob("kumiki-*.tar.gz")
    unpacked = tmp_path_factory.mktemp("sdist")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        archive.extractall(unpacked, filter="tar")
    assert not [n for n in names if "node_modules" in n]
    assert any(n.endswith("src/kumiki/web/dist/index.html") for n in names)  # so installing it needs no npm
    assert any(n.endswith("src/kumiki/web/src/main.ts") for n in names)  # and the client can be rebuilt
    assert any(n.endswith("/requirements.lock") for n in names)
    assert any(n.endswith("/LICENSE") for n in names)
    assert any(n.endswith("src/kumiki/web/public/cards/kozo.png") for n in names)  # what the client build copies
    assert not [n for n in names if "/tests/" in n]  # the suite needs the whole repository: not shipped in part
    # what README.md and the help texts point at: the guides, the rules pages, the studies and the examples
    for shipped in ("docs/arena.md", "docs/rules/kozo.md", "studies/kuzushi-levels.toml", "examples/"):
        assert any(f"/{shipped}" in n for n in names), shipped
    # The wheel builds from the sdist with no npm on the PATH, and carries the same client.
    (tree,) = unpacked.iterdir()
    out = tmp_path_factory.mktemp("from-sdist")
    build = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(tree)]
    done = subprocess.run(build, capture_output=True, text=True, env={"PATH": "", "HOME": str(out)})
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert "kumiki/web/dist/index.html" in archive.namelist()


def _constraints(folder: Path) -> Path:
    """The lock as pip constraints: the exact versions, without the hashes (a local wheel has none to check)."""
    pins = re.findall(r"^([A-Za-z0-9_.\-]+==[^\s\\;]+)", LOCK.read_text(encoding="utf-8"), re.M)
    assert pins
    path = folder / "constraints.txt"
    path.write_text("\n".join(pins) + "\n", encoding="utf-8")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.headers.get("Content-Type", ""), answer.read()


def _post(url: str, data: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(data).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv, outside the repository, with the wheel installed and no extra."""
    folder = tmp_path_factory.mktemp("fresh")
    assert not folder.resolve().is_relative_to(ROOT)
    _run([sys.executable, "-m", "venv", folder / "venv"], cwd=folder)
    python = folder / "venv" / "bin" / "python"
    _run([python, "-m", "pip", "install", "--quiet", "-c", _constraints(folder), wheel], cwd=folder)
    yield folder


def test_without_the_web_extra_serve_says_how_to_install_it(venv: Path) -> None:
    kumiki_command = venv / "venv" / "bin" / "kumiki"
    result = subprocess.run([kumiki_command, "serve", "--port", str(_free_port())], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "pip install 'kumiki[web]'" in result.stderr
    assert "Traceback" not in result.stderr
    # The installed package knows its version from its metadata, the same one the repository's has.
    version = _run([kumiki_command, "--version"]).stdout.strip()
    assert version == f"kumiki {kumiki.__version__}"
    # The pages the help texts name, read from the installed package (no docs/ folder beside it).
    page = _run([kumiki_command, "docs", "physics"], cwd=venv).stdout
    assert page == (ROOT / "docs" / "physics.md").read_text(encoding="utf-8")


def test_the_installed_wheel_serves_the_page_its_assets_and_a_game(venv: Path, wheel: Path) -> None:
    python = venv / "venv" / "bin" / "python"
    _run([python, "-m", "pip", "install", "--quiet", "-c", venv / "constraints.txt", f"{wheel}[web]"], cwd=venv)
    # Nothing of the repository is importable from there: the package is the installed one.
    where = _run([python, "-c", "import kumiki; print(kumiki.__file__)"], cwd=venv).stdout.strip()
    assert Path(where).resolve().is_relative_to((venv / "venv").resolve())

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = (venv / "serve.log").open("w")
    command = [venv / "venv" / "bin" / "kumiki", "serve", "--port", str(port), "--db", f"sqlite:///{venv}/k.db"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | {"HOME": str(venv)}
    server = subprocess.Popen(command, cwd=venv, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, (venv / "serve.log").read_text()[-2000:]
            try:
                status, kind, body = _get(base + "/")
                break
            except OSError:
                assert time.monotonic() < deadline, "kumiki serve did not answer within 30 s"
                time.sleep(0.1)
        assert status == 200 and kind.startswith("text/html")
        page = body.decode()
        assert 'data-testid="footer"' in page
        script = re.search(r'src="(/assets/[^"]+\.js)"', page)
        assert script is not None, page
        status, kind, body = _get(base + script[1])
        assert status == 200 and "javascript" in kind and len(body) > 10_000
        assert _get(base + "/api/version")[2] == json.dumps({"version": kumiki.__version__}).replace(" ", "").encode()

        # One move, played through the API as the browser plays it.
        created = _post(base + "/api/games", {"game": "kuzushi", "seats": [{"kind": "human"}, {"kind": "human"}]})
        token = created["seats"][1]["token"]  # player 1 moves first in Kuzushi
        with connect(f"ws://127.0.0.1:{port}/ws/games/{created['id']}?token={token}", open_timeout=10) as ws:
            view = json.loads(ws.recv(timeout=10))
            assert view["type"] == "view" and view["ply"] == 0 and "B 1,0" in view["legal"]
            ws.send(json.dumps({"type": "move", "ply": 0, "move": "B 1,0"}))
            while view["ply"] == 0:
                view = json.loads(ws.recv(timeout=10))
                assert view["type"] == "view", view
        assert view["history"] == ["B 1,0"]
        summary = json.loads(_get(f"{base}/api/games/{created['id']}")[2])
        assert summary["moves"] == 1
        record = _get(f"{base}/api/games/{created['id']}/record")[2].decode()
        assert record.splitlines()[0] == '[Game "kuzushi"]' and record.rstrip().endswith("B 1,0")
    finally:
        stop(server)
        log.close()
