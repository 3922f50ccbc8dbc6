"""The documentation site builds in strict mode, offline, and strict mode catches what it is there to catch."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("mkdocs", reason="the docs site needs the 'docs' extra")
pytest.importorskip("mkdocstrings")

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict"]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kumiki_docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _copy_of_the_docs(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    copy.mkdir()
    for name in ("mkdocs.yml", "README.md", "CHANGELOG.md", "requirements.lock", "Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "docs", copy / "docs")
    (copy / "src").symlink_to(ROOT / "src")
    return copy


def _build(where: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MKDOCS, "--site-dir", str(site)], cwd=where, env=ENV, capture_output=True, text=True)


def test_the_site_builds_strict_with_every_page_and_the_api(tmp_path: Path) -> None:
    done = _build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "Kumiki" in home and 'href="rules/kuzushi.html' in home  # the README, its links made the site's
    for page in ("rules/kuzushi", "rules/blokus3d", "rules/kozo", "rules/towerbrix", "changelog", "api/kumiki"):
        assert (site / f"{page}.html").is_file(), page
    api = (site / "api" / "kumiki.html").read_text(encoding="utf-8")
    assert "load_game" in api and "read_record" in api and "legal_moves" in api
    options = (site / "api" / "options.html").read_text(encoding="utf-8")
    assert "resolve_options" in options
    # Offline: no web fonts, no CDN, and the search index is in the site.
    assert "fonts.googleapis" not in home and "cdn.jsdelivr" not in home
    assert (site / "search" / "search_index.js").is_file() or (site / "search" / "search_index.json").is_file()


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    repo = _copy_of_the_docs(tmp_path)
    page = repo / "docs" / "agents.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [the missing page](rules/nowhere.md).\n")
    done = _build(repo, tmp_path / "site")
    assert done.returncode != 0
    assert "nowhere.md" in done.stderr


def test_a_link_to_a_repository_file_becomes_its_path_and_a_link_to_nothing_stays() -> None:
    hooks = _hooks()
    text = "[the lock](requirements.lock), [Kozo](docs/rules/kozo.md#ai), [log](CHANGELOG.md), [x](nope.md)"
    out = hooks.rewrite_links(text, "index.md")
    assert "the lock (`requirements.lock` in the repository)" in out
    assert "[Kozo](rules/kozo.md#ai)" in out and "[log](changelog.md)" in out and "[x](nope.md)" in out
    guide = hooks.rewrite_links("[the protocol](../src/kumiki/core/game.py) [up](../changelog-none.md)", "guide.md")
    assert "`src/kumiki/core/game.py` in the repository" in guide and "(../changelog-none.md)" in guide


def test_a_public_name_without_a_docstring_is_reported(tmp_path: Path) -> None:
    package = tmp_path / "toypkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        '"""A toy."""\n\n'
        'def documented() -> None:\n    """Here."""\n\n'
        "def bare() -> None:\n    pass\n\n"
        "def _private() -> None:\n    pass\n\n"
        'class Thing:\n    """A thing."""\n\n    def method(self) -> None:\n        pass\n'
    )
    missing = _hooks().missing_docstrings({"toypkg": None}, [str(tmp_path)])
    assert missing == ["toypkg.bare", "toypkg.Thing.method"]
    assert _hooks().missing_docstrings({"toypkg.documented": None}, [str(tmp_path)]) == []
