"""``python -m build`` (``setup.py``) rebuilds the browser client from the same inputs as the Makefile's client rule:
a wheel built straight from a tree whose bundle is older than any of them (a lobby picture in ``public/`` too) must
not ship the old bundle."""

from __future__ import annotations

import os
import re
import runpy
import shutil
from pathlib import Path

import pytest
import setuptools

ROOT = Path(__file__).resolve().parent.parent


def _setup_py(folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """setup.py's names, read from a copy in ``folder``, without running setuptools."""
    shutil.copy2(ROOT / "setup.py", folder / "setup.py")
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: None)
    return runpy.run_path(str(folder / "setup.py"))


def test_a_picture_in_public_newer_than_the_bundle_makes_it_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = tmp_path / "src" / "kumiki" / "web"
    for name in ("index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "src/main.ts"):
        (web / name).parent.mkdir(parents=True, exist_ok=True)
        (web / name).write_text("x", encoding="utf-8")
        os.utime(web / name, (1_000, 1_000))
    picture = web / "public" / "cards" / "kozo.png"
    picture.parent.mkdir(parents=True)
    picture.write_bytes(b"\x89PNG")
    os.utime(picture, (2_000, 2_000))
    names = _setup_py(tmp_path, monkeypatch)
    newest = names["_newest_source"]
    assert callable(newest)
    assert newest() == 2_000


def test_setup_py_and_the_makefile_name_the_same_client_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    rule = re.search(r"^CLIENT_SOURCES :=(.*?[^\\])$", makefile, re.M | re.S)
    assert rule is not None
    in_makefile = set(re.findall(r"\$\(WEB\)/([\w.\-]+)", rule[1]))
    source = (ROOT / "setup.py").read_text(encoding="utf-8")
    listed = re.search(r"^SOURCES = \(([^)]*)\)", source, re.M)
    assert listed is not None
    in_setup = set(re.findall(r'"([^"]+)"', listed[1]))
    assert in_setup == in_makefile
