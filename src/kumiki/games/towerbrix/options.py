"""TowerBrix's options as data (every decision is explained in docs/rules/towerbrix.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kumiki.core.options import Option, shown
from kumiki.games.towerbrix.cards import DECKS, is_deck_file
from kumiki.games.towerbrix.modes import BASE_TOTALS, CHALLENGE_TOTALS

MODES = ("base", "intro", "solo", "challenge")
DIFFICULTIES = ("easy", "medium", "hard")
MAX_BRICK_SIDE = 100.0  # in brick thicknesses; beyond it (and at inf, which "1e999" would give) nothing is a brick
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)x([0-9]+(?:\.[0-9]+)?)x([0-9]+(?:\.[0-9]+)?)")  # \d: any script's


def parse_brick_size(text: str) -> tuple[float, float, float]:
    """``"2x1x1"`` -> (long, wide, thick); ValueError for anything else."""
    match = _SIZE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"brick size must be written LONGxWIDExTHICK such as '2x1x1', got {shown(text)}")
    size = (float(match[1]), float(match[2]), float(match[3]))
    if not all(0 < side <= MAX_BRICK_SIDE for side in size):
        raise ValueError(f"brick size {shown(text)}: every side must be > 0 and at most {MAX_BRICK_SIDE:g}")
    return size


def _check_brick(value: Any, resolved: Mapping[str, Any]) -> str | None:
    try:
        parse_brick_size(value)
    except ValueError as error:
        return str(error)
    return None


def _check_mode(value: Any, resolved: Mapping[str, Any]) -> str | None:
    if value == "solo" and resolved["players"] != 1:
        return "the solo game is for players=1"
    return None


def _check_challenge(value: Any, resolved: Mapping[str, Any]) -> str | None:
    if resolved["mode"] == "challenge" and value == 0:
        return "mode 'challenge' needs a challenge from 1 to 14"
    if resolved["mode"] != "challenge" and value != 0:
        return "a challenge is played with mode='challenge'"
    if value == 10 and resolved["players"] < 2:
        return "challenge 10 (blind luck) needs at least 2 players"
    return None


def _check_deck(value: Any, resolved: Mapping[str, Any]) -> str | None:
    if resolved["mode"] == "intro" and value != "green":
        return "the intro variant is played with the green deck"
    if value not in DECKS and not is_deck_file(Path(value)):
        return f"no such deck file {shown(value)} (built-in decks: {', '.join(DECKS)})"
    return None


def _check_grid(value: Any, resolved: Mapping[str, Any]) -> str | None:
    steps = 1 / value
    if abs(steps - round(steps)) > 1e-9:
        return f"the grid must divide 1 (e.g. 0.25, 0.5, 1), not {shown(value)}"
    return None


def _check_box(value: Any, resolved: Mapping[str, Any]) -> str | None:
    if value < resolved["box_short"]:
        return f"the box's long side ({value:g}) is shorter than its short side ({resolved['box_short']:g})"
    return None


TOWERBRIX_OPTIONS = (
    Option("players", int, 2, "number of players (1: solo)", 1, 6),
    Option(
        "mode", str, "base", "base game, intro variant, solo game, or a challenge", choices=MODES, check=_check_mode
    ),
    Option(
        "challenge", int, 0, "the challenge played in mode 'challenge' (1-14; 0: none)", 0, 14, check=_check_challenge
    ),
    Option("deck", str, "green", "'green', 'pink' or the path of a deck file", check=_check_deck),
    Option(
        "difficulty",
        str,
        "medium",
        "the cards' points a round: "
        + ", ".join(f"{name} {points}" for name, points in BASE_TOTALS.items())
        + " (challenges: "
        + ", ".join(map(str, CHALLENGE_TOTALS.values()))
        + ")",
        choices=DIFFICULTIES,
    ),
    Option(
        "total",
        int,
        None,
        "an exact total of card points per round (overrides difficulty; at most every card's points: 122 with the "
        "green deck, 133 with the pink)",
        2,
        200,
        nullable=True,
    ),
    Option("rounds", int, lambda r: 1 if r["mode"] == "challenge" else 3, "rounds in a game", 1, 20),
    Option("attempts", int, 3, "attempts per round; a round still failed after them scores 0 (0: no limit)", 0, 100),
    Option("retry_drop", int, 2, "a failed round is replayed with this many points fewer (base game, solo)", 1, 10),
    Option(
        "turns",
        str,
        "cycle",
        "'free': during the build every seat may act at any time, as the rulebook plays (the web app's default); "
        "'cycle': one edit or ok each, in seat order (for studies and the terminal)",
        choices=("cycle", "free"),
    ),
    Option(
        "waive",
        str,
        "auto",
        "challenges 9 and 13: 'vote' — the team picks the card to waive during the build, face down (the rulebook); "
        "'auto' — whichever one card fails is waived (the best pick, for studies)",
        choices=("auto", "vote"),
    ),
    Option("max_edits", int, 40, "edits per attempt; at the limit the build ends and the tower is evaluated", 1, 10000),
    Option("helper", bool, True, "view(p) tells p whether each of their cards holds now (the thumbs-up helper)"),
    Option(
        "box_short",
        float,
        6.0,
        "the box's short side, in units of a standard brick's thickness (height bonus +1)",
        0.5,
        100.0,
    ),
    Option(
        "box_long",
        float,
        9.0,
        "the box's long side, in units of a standard brick's thickness (height bonus +3)",
        0.5,
        100.0,
        check=_check_box,
    ),
    Option(
        "grid",
        float,
        0.5,
        "the grid of brick corners, in units of a standard brick's thickness",
        0.125,
        1.0,
        check=_check_grid,
    ),
    Option(
        "brick",
        str,
        "2x1x1",
        "the brick's sides LONGxWIDExTHICK, in units of a standard brick's thickness",
        check=_check_brick,
    ),
    Option(
        "shake_deg",
        float,
        3.0,
        "challenge 5: the tower 'collapses when the table is hit' if its margin is below",
        0.0,
        90.0,
    ),
    Option(
        "pull_deg", float, 6.0, "challenge 12: the tower 'survives the paper pull' if its margin is at least", 0.0, 90.0
    ),
    Option(
        "time_limit",
        float,
        150.0,
        "challenge 2: seconds for a build, from its first move",
        1.0,
        3600.0,
    ),
)
