"""MkDocs hooks for Kumiki's site (``mkdocs.yml`` names this file; it is not a page).

* The README is the home page and the CHANGELOG a page, read from the repository root, so the site and GitHub
  show the same text.
* Links between Markdown files are written for the repository (``docs/rules/kozo.md`` in the README,
  ``../src/kumiki/core/game.py`` in a guide): they are rewritten to the site's pages; a link to a repository file
  that is no page becomes its path in code; a link to nothing stays, and strict mode fails on it.
* Every public name the API pages document must have a docstring: a missing one is a warning, which ``--strict``
  turns into a failed build.
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

log = logging.getLogger("mkdocs.hooks.kumiki")
ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FROM_ROOT = {"README.md": "index.md", "CHANGELOG.md": "changelog.md"}  # site page <- repository file
LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(([^)\s]+)\)")
IMAGE = re.compile(r"!\[([^\]\n]*)\]\(([^)\s]+)\)")
IDENTIFIER = re.compile(r"^::: ([\w.]+)\s*$((?:\n {4}.*)*)", re.MULTILINE)
MEMBERS = re.compile(r"members:\s*\[([^\]]*)\]")
_documented: dict[str, list[str] | None] = {}


def on_files(files: Files, config: Any) -> Files:
    """Add the README (as the home page) and the CHANGELOG from the repository root."""
    for source, page in FROM_ROOT.items():
        files.append(File.generated(config, page, abs_src_path=str(ROOT / source)))
    return files


def repository_path(page_uri: str) -> str:
    """Where a page's Markdown lives in the repository."""
    reverse = {page: source for source, page in FROM_ROOT.items()}
    return reverse.get(page_uri, f"docs/{page_uri}")


def site_link(page_uri: str, target: str) -> str | None:
    """The link ``target`` (as written in the repository file of ``page_uri``) as a link of the site; None when it
    names a repository file that is no page."""
    path, hash_mark, anchor = target.partition("#")
    here = posixpath.dirname(repository_path(page_uri))
    wanted = posixpath.normpath(posixpath.join(here, path))
    if wanted in FROM_ROOT:
        page = FROM_ROOT[wanted]
    elif wanted.startswith("docs/") and wanted.endswith(".md"):
        page = wanted[len("docs/") :]
    elif (ROOT / wanted).exists():
        return None
    else:
        return target  # a link to nothing: left for MkDocs to report
    relative = posixpath.relpath(page, posixpath.dirname(page_uri) or ".")
    return relative + hash_mark + anchor


def rewrite_links(markdown: str, page_uri: str) -> str:
    """Every relative link of a page, as the site needs it (see the module's docstring)."""

    def one(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if target.startswith(("#", "http://", "https://", "mailto:")):
            return match.group(0)
        link = site_link(page_uri, target)
        if link is None:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(repository_path(page_uri)), target))
            return text if text.strip("`") == path else f"{text} (`{path}` in the repository)"
        return f"[{text}]({link})"

    def picture(match: re.Match[str]) -> str:
        """An image of the docs folder shown by a page from the repository root (the README's screenshots)."""
        text, target = match.group(1), match.group(2)
        wanted = posixpath.normpath(posixpath.join(posixpath.dirname(repository_path(page_uri)), target))
        if target.startswith(("http://", "https://")) or not wanted.startswith("docs/"):
            return match.group(0)
        relative = posixpath.relpath(wanted[len("docs/") :], posixpath.dirname(page_uri) or ".")
        return f"![{text}]({relative})"

    return IMAGE.sub(picture, LINK.sub(one, markdown))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Rewrite the links and note which public names the page documents."""
    for match in IDENTIFIER.finditer(markdown):
        members = MEMBERS.search(match.group(2))
        _documented[match.group(1)] = [m.strip() for m in members.group(1).split(",")] if members else None
    return rewrite_links(markdown, page.file.src_uri)


def missing_docstrings(documented: dict[str, list[str] | None], search: list[str]) -> list[str]:
    """The documented public names (and their public members) that have no docstring."""
    import griffe

    loader = griffe.GriffeLoader(search_paths=search)
    missing: list[str] = []
    for identifier, members in sorted(documented.items()):
        package = identifier.split(".")[0]
        root = loader.modules_collection[package] if package in loader.modules_collection else loader.load(package)
        obj = root[identifier[len(package) + 1 :]] if identifier != package else root
        missing += _undocumented(obj, members)
    return missing


def _undocumented(obj: Any, members: list[str] | None) -> list[str]:
    target = obj.final_target if obj.is_alias else obj
    found = [] if target.docstring else [obj.path]
    if target.is_module:
        names = members if members is not None else [n for n in target.members if not n.startswith("_")]
        for name in names:
            member = target.members[name]
            if members is None and (member.is_alias or member.is_attribute or member.is_module):
                continue  # imported from elsewhere (documented there), a constant, or a module of its own
            found += _undocumented(member, None)
    elif target.is_class:
        for name, member in target.members.items():
            if name.startswith("_") or member.is_alias or member.is_attribute:
                continue
            if not (member.final_target if member.is_alias else member).docstring:
                found.append(f"{target.path}.{name}")
    return found


def on_post_build(config: Any) -> None:
    """Warn (strict mode: fail) for every documented public name without a docstring."""
    for path in missing_docstrings(_documented, [str(ROOT / "src")]):
        log.warning("the public name %s has no docstring", path)
