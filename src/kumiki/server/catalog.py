"""What the browser's new-game form offers: the games, their options as data (narrowed, relabelled and bounded for
the web), and the agent levels (``GET /api/catalog``; docs/server.md)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kumiki import load_game
from kumiki.agents.levels import level_note
from kumiki.core.options import shown
from kumiki.core.registry import game_class
from kumiki.games.blokus3d.structures import BUILTIN_STRUCTURES
from kumiki.server.agents import LEVELS, levels_of
from kumiki.server.errors import BadRequest
from kumiki.server.lobby import ABOUT

WEB_GAMES = ("kuzushi", "blokus3d", "kozo", "towerbrix")  # the games the browser client can show
# Options the web server narrows (to these values) or fixes (None: only the default), per game. TowerBrix: a deck may
# name a file, and no player may make the server read its files; the client draws, and the agents plan with, the
# standard bricks, grid and box.
WEB_OPTIONS: dict[str, dict[str, tuple[Any, ...] | None]] = {
    # A Blokus 3D structure may name a .toml file too: the web offers the built-in ones only.
    "blokus3d": {"structure": BUILTIN_STRUCTURES},
    "towerbrix": {
        "deck": ("green", "pink"),
        "grid": None,
        "brick": None,
        "box_short": None,
        "box_long": None,
        "turns": ("free", "cycle"),
    },
}
# The help of an option the web narrows (WEB_OPTIONS): the engine's own names what the web refuses (a .toml path, a deck
# file), which the form would offer a newcomer.
WEB_HELP: dict[tuple[str, str], str] = {
    ("blokus3d", "structure"): "the structure to build: A (tower), B (L-wall), C (steps), D (pyramid)",
    ("towerbrix", "deck"): "the card deck: green or pink (see the rules)",
    ("kuzushi", "majority"): "most: the one player with the most bases next to a cell; more_than_half: only one with "
    "more than half of them (see the rules)",
    ("kuzushi", "team_island"): "teams tied on tiles: joined: the largest group of the team's tiles together; own: the "
    "largest group of one player's own tiles",
}
# The names a newcomer reads on the form, per option (the engine's names stay the API's); an option not listed shows
# its name with spaces.
WEB_LABELS: dict[str, str] = {
    "players": "Players",
    "size": "Grid size",
    "tiles": "Tiles per player",
    "teams": "Teams",
    "city_counts_as_base": "The centre city counts as a base",
    "majority": "A flag goes to",
    "team_island": "Teams tied: the largest group",
    "structure": "Structure to build",
    "colours_per_player": "Colours per player",
    "rounds": "Rounds",
    "random_size": "Draw the piece size each turn",
    "size_draw": "How the size is drawn",
    "no_fit": "When no piece of the size drawn fits",
    "opener": "Who opens a round",
    "tiebreak": "Tie-break",
    "pieces": "Pieces",
    "mode": "Mode",
    "challenge": "Challenge",
    "deck": "Card deck",
    "difficulty": "Difficulty",
    "total": "Card points per round (exact)",
    "attempts": "Attempts per round",
    "retry_drop": "Points fewer after a failed attempt",
    "turns": "Turns",
    "waive": "Challenges 9 and 13: the card to waive",
    "max_edits": "Edits per attempt",
    "helper": "Show whether my cards hold",
    "shake_deg": "Challenge 5: shake margin (°)",
    "pull_deg": "Challenge 12: pull margin (°)",
    "time_limit": "Challenge 2: seconds per build",
}


def option_label(name: str) -> str:
    """The form's label of an option: ``WEB_LABELS``, else its name with spaces ("max_edits" -> "Max edits")."""
    return WEB_LABELS.get(name) or name.replace("_", " ").capitalize()


# Where the web server's default differs from the engine's (the catalog's "default", the form's start, and what a
# game created without the option gets): TowerBrix as the rulebook plays it, everyone building at once (the engine
# keeps seat order by default, for studies and older records).
WEB_DEFAULTS: dict[str, dict[str, Any]] = {
    "towerbrix": {"turns": "free", "waive": "vote"},
    "kozo": {"size_draw": "tile"},  # the reading; the engine keeps "size" for the games stored before it
}


def towerbrix_totals(deck: str) -> dict[str, Any]:
    """TowerBrix's ``total`` with this deck, as the engine bounds it (``TowerBrix.total_bounds``)."""
    game: Any = load_game("towerbrix", deck=deck)
    most, refused = game.total_bounds()
    return {"max": most, "except": refused}


# Options whose bounds follow another option's value (the catalog's ``bounds_by``): the form checks them as that value
# changes, so a player never meets a refusal the form could have prevented (its ``max`` alone let 200 through).
WEB_BOUNDS: dict[tuple[str, str], tuple[str, Callable[[str], dict[str, Any]]]] = {
    ("towerbrix", "total"): ("deck", towerbrix_totals),
}


@functools.cache
def catalog() -> dict[str, Any]:
    """The games the client supports, their player counts and options as data, and the agent levels."""
    listing = []
    for name in WEB_GAMES:
        cls = game_class(name)
        defaults = {**cls().options, **WEB_DEFAULTS.get(name, {})}
        options = []
        narrowed = WEB_OPTIONS.get(name, {})
        for option in cls.option_spec:
            if option.name in narrowed and narrowed[option.name] is None:
                continue
            entry: dict[str, Any] = {
                "name": option.name,
                "type": option.type.__name__,
                "default": defaults.get(option.name),
                "label": option_label(option.name),
                "help": WEB_HELP.get((name, option.name), option.doc),
            }
            if callable(option.default):
                entry["depends"] = True  # the default follows other options (e.g. the number of players)
            if option.choices is not None or narrowed.get(option.name):
                entry["choices"] = list(narrowed.get(option.name) or option.choices or ())
            if option.minimum is not None:
                entry["min"] = option.minimum
            if option.maximum is not None:
                entry["max"] = option.maximum
            if option.nullable:
                entry["nullable"] = True
            if (name, option.name) in WEB_BOUNDS:
                other, bounds = WEB_BOUNDS[name, option.name]
                values = narrowed.get(other) or ()
                by_value = {str(v): bounds(str(v)) for v in values}
                entry["bounds_by"] = {"option": other, "values": by_value}
                entry["max"] = max((b["max"] for b in by_value.values()), default=entry.get("max"))  # any of them
            options.append(entry)
        entry = {"name": name, "players": [cls.facts.min_players, cls.facts.max_players], "options": options}
        notes = {level: note for level in LEVELS if (note := level_note(name, level))}
        if notes:
            entry["level_notes"] = notes  # "about 240 Elo above medium", from the ladder studies
        entry["levels"] = levels_of(name)  # the lobby's levels this game offers (not OpenSpiel's in TowerBrix)
        if name in ABOUT:
            entry["about"] = ABOUT[name].public(name)
        listing.append(entry)
    return {"games": listing, "levels": list(LEVELS)}


def check_web_options(name: str, options: dict[str, Any]) -> None:
    """Refuse an option value the web server does not offer (``WEB_OPTIONS``); called before the game is loaded."""
    narrowed = WEB_OPTIONS.get(name, {})
    if not narrowed:
        return
    defaults = {o.name: o.default for o in game_class(name).option_spec}
    for option, allowed in narrowed.items():
        if option not in options:
            continue
        value = options[option]
        if allowed is None and value != defaults[option]:
            raise BadRequest(f"option {option!r} is fixed at {defaults[option]!r} on the web server")
        if allowed is not None and (not isinstance(value, (str, int, float)) or value not in allowed):
            offered = ", ".join(map(str, allowed))
            raise BadRequest(f"option {option!r}: the web server offers {offered}, not {shown(value)}")
