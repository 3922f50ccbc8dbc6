"""The layers' one direction of dependency: a game's rules import no agent, no AI module, no adapter, server or
CLI (its AI lives beside it and is found by the agents through ``kumiki.agents.hooks``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kumiki

SRC = Path(__file__).resolve().parents[1] / "src" / "kumiki"
RULES = sorted(SRC.glob("games/*/rules.py"))
FORBIDDEN = ("kumiki.agents", "kumiki.arena", "kumiki.interop", "kumiki.server", "kumiki.terminal", "kumiki.cli")


def imported(path: Path, package: str | None = None) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function (relative imports resolved from ``package``,
    by default the package the file lies in)."""
    if package is None:
        package = ".".join(path.relative_to(SRC.parent).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def test_every_game_has_rules() -> None:
    """Every registered game's rules are checked below (the set was the four first games: a game added later, as
    docs/adding-a-game.md says, failed here)."""
    assert {p.parent.name for p in RULES} == set(kumiki.games())


@pytest.mark.parametrize("rules", RULES, ids=lambda p: p.parent.name)
def test_rules_import_no_agent_or_ai(rules: Path) -> None:
    game = rules.parent.name
    own_ai = (f"kumiki.games.{game}.ai", f"kumiki.games.{game}.agents", f"kumiki.games.{game}.solver")
    bad = sorted(
        name
        for name in imported(rules)
        if name.startswith(FORBIDDEN) or name.startswith(own_ai) or name.endswith((".ai", ".agents"))
    )
    assert bad == [], f"{rules.relative_to(SRC.parent)} imports {bad}"


def test_the_check_finds_an_ai_import(tmp_path: Path) -> None:
    sample = tmp_path / "rules.py"
    sample.write_text("def f():\n    from kumiki.games.kozo import ai\n    from . import agents\n")
    assert {"kumiki.games.kozo.ai", "kumiki.games.kozo.agents"} <= imported(sample, "kumiki.games.kozo")
