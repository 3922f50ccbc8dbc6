"""The pages the help texts and the error messages point at are readable wherever Kumiki is installed: they say
``kumiki docs PAGE``, never a ``docs/…`` path (a wheel has no docs/ folder), every such PAGE is one ``kumiki docs``
prints, and a wheel's build carries the pages (setup.py's ``build_py`` copies them into ``kumiki/docs/``)."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from tests.helpers import CliRunner, cli_runner, plain_output

from kumiki import cli, guides

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "kumiki"
DOCS_PATH = re.compile(r"\bdocs/[\w./-]*\.md\b")
NAMED = re.compile(r"kumiki docs ([\w/.-]+[\w])")


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    plain_output(monkeypatch)
    monkeypatch.setenv("COLUMNS", "400")  # no help line wrapped inside a page's name


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    return cli_runner(capsys, monkeypatch)


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from command_paths(sub, (*path, name))


def messages() -> Iterator[tuple[str, str]]:
    """Every string in the package's code but its docstrings (a command's docstring is its help, read as such
    below): where each is, and the text."""
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    docstrings.add(id(first.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value


def test_no_help_screen_names_a_docs_path_and_every_page_it_names_is_printed(run: CliRunner) -> None:
    named = set()
    for path in command_paths(typer.main.get_command(cli.app)):
        code, out, _err = run(*path, "--help")
        assert code == 0, path
        assert not DOCS_PATH.search(out), (path, DOCS_PATH.findall(out))
        named |= set(NAMED.findall(out))
    assert {"physics", "towerbrix-solver", "server", "arena"} <= named
    for page in named:
        code, out, err = run("docs", page)
        assert code == 0, err
        assert out == guides.find(page).read_text(encoding="utf-8") and out.startswith("# ")


def test_no_message_names_a_docs_path_and_every_page_one_names_exists() -> None:
    found = list(messages())
    assert not [(where, text) for where, text in found if DOCS_PATH.search(text)]
    named = {page for _where, text in found for page in NAMED.findall(text)}
    assert {"physics", "rules/towerbrix"} <= named  # the knife-edge refusal, the interop adapters' masked move
    for page in named:
        assert guides.find(page).is_file()


def test_the_docs_command_lists_the_pages_and_takes_a_path_or_a_game(run: CliRunner) -> None:
    code, out, _err = run("docs")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines()]
    assert listed == list(guides.pages()) and "rules/kozo" in listed and "physics" in listed
    assert "Stand or fall" in out  # each page with its title
    for name in ("docs/physics.md", "physics.md", "physics"):
        assert guides.find(name) == guides.pages()["physics"]
    assert guides.find("kozo") == guides.pages()["rules/kozo"]
    code, out, err = run("docs", "nope")
    assert code == 2 and not out
    (line,) = err.splitlines()
    assert "no page 'nope'" in line and "rules/kozo" in line


def test_a_long_page_name_is_cut_short_in_the_refusal(run: CliRunner) -> None:
    """The name was quoted whole: a 3,000-character PAGE made a 3,000-character message (``shown`` cuts it)."""
    code, out, err = run("docs", "x" * 3000)
    assert code == 2 and not out
    (line,) = err.splitlines()
    assert "no page 'xxx" in line and "…" in line and "rules/kozo" in line and len(line) < 2000


def test_the_built_package_carries_the_pages_and_reads_them_without_the_source(tmp_path: Path) -> None:
    """setup.py's build_py (what a wheel is made of) copies the pages into kumiki/docs/; the built package then
    prints them with no docs/ folder or source tree around it."""
    tree = tmp_path / "tree"
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    # The Python package only (no client sources: setup.py builds no client outside a client source tree).
    shutil.copytree(SOURCE, tree / "src" / "kumiki", ignore=shutil.ignore_patterns("web", "__pycache__"))
    shutil.copytree(ROOT / "docs", tree / "docs")
    build = tmp_path / "lib"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
        cwd=tree,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    packaged = sorted(p.relative_to(build / "kumiki" / "docs").as_posix() for p in (build / "kumiki").rglob("*.md"))
    assert packaged == sorted(f"{name}.md" for name in guides.pages())
    shutil.rmtree(tree)  # no source tree left to fall back on
    env["PYTHONPATH"] = str(build)
    shown = subprocess.run(
        [sys.executable, "-m", "kumiki", "docs", "rules/towerbrix"], capture_output=True, text=True, env=env
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == (ROOT / "docs" / "rules" / "towerbrix.md").read_text(encoding="utf-8")


def test_without_the_pages_the_docs_command_says_so_in_one_line(
    run: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(guides, "PACKAGED", tmp_path / "kumiki" / "docs")
    monkeypatch.setattr(guides, "SOURCE", tmp_path / "docs")
    for args in (("docs",), ("docs", "physics")):
        code, out, err = run(*args)
        assert code == 2 and not out
        assert err == f"kumiki docs: {guides.MISSING}\n"


def test_on_a_terminal_a_page_is_laid_out_in_a_pager(monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped, a page is its Markdown as it is (the tests above); on a terminal, laid out (no '#' before a heading,
    tables drawn) and shown through the pager, so that a page of 500 lines does not scroll past."""
    from rich.console import Console

    shown: list[str] = []

    class Pager:
        def show(self, content: str) -> None:
            shown.append(content)

    console = Console(width=100, force_terminal=True, color_system=None)
    monkeypatch.setattr(cli, "_console", lambda: console)
    monkeypatch.setattr(console, "pager", lambda **_: console.__class__.pager(console, pager=Pager()))  # type: ignore[misc]
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    with pytest.raises(SystemExit) as ended:
        cli.main(["docs", "rules/kozo"])
    assert ended.value.code == 0
    (page,) = shown
    raw = guides.pages()["rules/kozo"].read_text(encoding="utf-8")
    heading = next(line for line in raw.splitlines() if line.startswith("# "))
    assert heading[2:] in page and heading not in page  # the heading laid out, without its '#'
