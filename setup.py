"""Builds the browser client into the package before setuptools collects it (the metadata is in pyproject.toml).

A wheel must carry ``kumiki/web/dist`` (the page and its hashed assets), so ``build_py`` runs ``npm ci`` and
``npm run build`` in ``src/kumiki/web`` when the bundle is missing or older than its sources; ``sdist`` does the
same and ships the bundle built, so installing from an sdist needs no Node. Editable installs leave the client to
``make``.

A wheel also carries the guides and the rules pages (``docs/*.md``, ``docs/rules/*.md``) as ``kumiki/docs/``: the help
texts and the error messages name them, and ``kumiki docs PAGE`` reads them (``kumiki.guides``; an editable install
reads ``docs/`` itself).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "src" / "kumiki" / "web"
# The pages a wheel carries, as globs under docs/: kumiki.guides.PATTERNS, which reads them, names the same.
DOCS = ("*.md", "rules/*.md")
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
        if not getattr(self, "editable_mode", False):
            self.copy_docs()

    def copy_docs(self) -> None:
        """The guides and rules pages into the built package, as ``kumiki/docs/`` (none outside a source tree)."""
        target = Path(self.build_lib) / "kumiki" / "docs"
        for pattern in DOCS:
            for page in sorted((ROOT / "docs").glob(pattern)):
                destination = target / page.relative_to(ROOT / "docs")
                self.mkpath(str(destination.parent))
                self.copy_file(str(page), str(destination))


class SdistWithClient(sdist):  # type: ignore[misc]  # setuptools' commands are untyped
    """``sdist`` that ships the built client, so that installing from it needs no Node."""

    def run(self) -> None:
        build_client()
        super().run()


setup(cmdclass={"build_py": BuildPyWithClient, "sdist": SdistWithClient})
