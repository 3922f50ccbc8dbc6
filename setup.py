"""Builds the browser client into the package before setuptools collects it (the metadata is in pyproject.toml).

A wheel must carry ``kumiki/web/dist`` (the page and its hashed assets), so ``build_py`` runs ``npm ci`` and
``npm run build`` in ``src/kumiki/web`` when the bundle is missing or older than its sources; ``sdist`` does the
same and ships the bundle built, so installing from an sdist needs no Node. Editable installs leave the client to
``make``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

WEB = Path(__file__).resolve().parent / "src" / "kumiki" / "web"
BUNDLE = WEB / "dist" / "index.html"
# Everything the bundle is made from, as the Makefile's CLIENT_SOURCES: public/ too (Vite copies it into dist/).
SOURCES = ("index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "src", "public")


def _newest_source() -> float:
    stamps = [0.0]
    for name in SOURCES:
        path = WEB / name
        files = path.rglob("*") if path.is_dir() else [path]
        stamps += [f.stat().st_mtime for f in files if f.is_file()]
    return max(stamps)


def build_client() -> None:
    """Build the bundle if it is missing or stale; fail with one clear line when that needs Node and there is none."""
    if not (WEB / "package.json").is_file():  # not a source tree (nothing to build from)
        return
    if BUNDLE.is_file() and BUNDLE.stat().st_mtime >= _newest_source():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("building Kumiki's browser client needs Node 20 and npm on the PATH")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB, check=True)
    subprocess.run([npm, "run", "build"], cwd=WEB, check=True)
    BUNDLE.touch()


class BuildPyWithClient(build_py):  # type: ignore[misc]  # setuptools' commands are untyped
    """``build_py`` that builds the browser client first."""

    def run(self) -> None:
        if not getattr(self, "editable_mode", False):
            build_client()
        super().run()


class SdistWithClient(sdist):  # type: ignore[misc]  # setuptools' commands are untyped
    """``sdist`` that ships the built client, so that installing from it needs no Node."""

    def run(self) -> None:
        build_client()
        super().run()


setup(cmdclass={"build_py": BuildPyWithClient, "sdist": SdistWithClient})
