"""The guides and the rules pages (``docs/`` in Kumiki's source) wherever Kumiki is installed: what the help texts
and the error messages point at is read with ``kumiki docs PAGE`` (``kumiki docs physics``, ``kumiki docs
rules/kozo``), from a wheel as from a source tree.

A wheel carries the pages as ``kumiki/docs/`` (setup.py's ``build_py`` copies the files ``PATTERNS`` names); a source
tree (an editable install, ``PYTHONPATH=src``) reads them from ``docs/`` beside ``src/``.
"""

from __future__ import annotations

from pathlib import Path

from kumiki.core.options import shown

# The pages shipped, as globs under docs/ (setup.py copies the same ones): the guides and the games' rules pages.
PATTERNS = ("*.md", "rules/*.md")
PACKAGED = Path(__file__).resolve().parent / "docs"
SOURCE = Path(__file__).resolve().parents[2] / "docs"
MISSING = "this installation carries no guides: they are the docs/ folder of Kumiki's source"


def folder() -> Path | None:
    """Where the pages are: the package's copy, else the source tree's ``docs/``; None when neither is there."""
    if PACKAGED.is_dir():
        return PACKAGED
    if (SOURCE.parent / "mkdocs.yml").is_file() and SOURCE.is_dir():
        return SOURCE
    return None


def pages() -> dict[str, Path]:
    """Every page by its name (its path under ``docs/`` without ``.md``: ``physics``, ``rules/kozo``), sorted."""
    root = folder()
    if root is None:
        return {}
    found = {path.relative_to(root).with_suffix("").as_posix(): path for p in PATTERNS for path in root.glob(p)}
    return dict(sorted(found.items()))


def title(path: Path) -> str:
    """A page's title: its first ``# `` heading."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def find(name: str) -> Path:
    """The page ``name`` names: ``physics``, ``physics.md``, ``docs/physics.md``; a game's name is its rules page.
    ValueError naming the pages when there is none."""
    known = pages()
    if not known:
        raise ValueError(MISSING)
    key = name.strip().replace("\\", "/").removeprefix("./").removeprefix("docs/").removesuffix(".md")
    for candidate in (key, f"rules/{key}"):
        if candidate in known:
            return known[candidate]
    raise ValueError(f"no page {shown(name)} (pages: {', '.join(known)})")  # a long name cut short
