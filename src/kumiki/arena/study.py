"""A study as data: the game, a grid of option sets, the agents by spec, the format, the number of seed blocks and
the root seed. ``load_study`` reads one from TOML and refuses a bad file with one line naming the key."""

from __future__ import annotations

import functools
import itertools
import json
import math
import tomllib
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from kumiki.agents import agent_from_spec
from kumiki.agents.base import other_game
from kumiki.core import tomltext
from kumiki.core.options import shown
from kumiki.core.registry import game_class, games, load_game

FORMATS = ("round-robin", "gauntlet", "self-play", "ladder", "sprt")
MAX_SEED = 2**63 - 1
MAX_GAMES = 10**7

# Whether checking a study builds its agents (each spec made into an agent, and asked which game it plays). Reading
# a results folder does not: its report, ratings and CSV need the agents' names only, and a folder copied from
# another machine (or a Ray cluster) may name an agent whose package is not installed here (``load_study``).
_BUILD_AGENTS: ContextVar[bool] = ContextVar("build_agents", default=True)


class StudyError(ValueError):
    """A study that cannot be run; the message is one line naming the key and the problem."""


@dataclass(frozen=True)
class Sprt:
    """The sequential test of format ``sprt``: H0 elo = ``elo0`` against H1 elo = ``elo1`` (the first agent's
    advantage over the second, Elo scale), errors ``alpha`` and ``beta``, at most ``max_games`` games."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 20000


@dataclass(frozen=True)
class Study:
    """Everything a study plays, as data (``load_study`` reads the same from TOML; see docs/arena.md).

    ``options`` maps each game option to a value or a list of values (the study runs every combination);
    ``agents`` maps a short name for the reports to an agent spec (``"mcts:iterations=1000"``, any registered
    agent, or ``"package.module:factory"``); ``games`` is the number of seed blocks per line-up and option set
    (a block plays the same seed with the agents rotated through every seat).
    """

    name: str
    game: str
    agents: Mapping[str, str]
    format: str = "round-robin"
    games: int = 10
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    focus: str | None = None
    sprt: Sprt | None = None
    permutations: bool = False
    move_limit_s: float | None = None
    trace: bool = False

    def __post_init__(self) -> None:
        check_study(self)

    @property
    def reproducible(self) -> bool:
        """False when a time limit per move can forfeit a game: then results depend on the machine."""
        return self.move_limit_s is None and not any("seconds=" in spec for spec in self.agents.values())

    @functools.cached_property
    def _deals(self) -> tuple[bool, ...] | None:
        """Whether each option set's game deals from its seed, worked out once (it loads every option set's game,
        and a report asks ``chance`` for each of its sections); None where the options do not load (the study is
        refused elsewhere)."""
        if not game_class(self.game).facts.chance:
            return tuple(False for _ in self.option_sets())
        try:
            return tuple(load_game(self.game, **options).has_chance() for options in self.option_sets())
        except ValueError:
            return None

    @property
    def chance(self) -> bool:
        """Whether the game deals from its seed (dice, cards): then the games played on one seed are alike, and
        a bootstrap draws them together (``stats.bootstrap_unit``). Asked of each option set (Kozo deals only with
        ``random_size``); a study whose options do not load counts as a game of chance when its game may be one:
        the cautious side."""
        if self._deals is None:
            return True
        return any(self._deals)

    @property
    def deals_everywhere(self) -> bool:
        """Whether every option set deals from its seed (``chance`` asks whether any does): a report may then say
        that two variants met the same deals, which is not so where one of them deals nothing (Kozo without
        ``random_size``)."""
        return self._deals is not None and bool(self._deals) and all(self._deals)

    @functools.cached_property
    def players_by_options(self) -> dict[str, int]:
        """Each option set's number of players, by ``option_key``: the seats a row of its games must have. Worked
        out once: the live table reads the games file every few seconds."""
        return {option_key(options): load_game(self.game, **options).players for options in self.option_sets()}

    def option_sets(self) -> list[dict[str, Any]]:
        """Every combination of the option values, in the order the options and their values are written."""
        names = list(self.options)
        values = [v if isinstance(v, list) else [v] for v in self.options.values()]
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]

    def to_toml(self) -> str:
        """The study as a TOML file that ``load_study`` reads back to an equal study."""
        lines = [f"name = {_toml(self.name)}", f"game = {_toml(self.game)}", f"format = {_toml(self.format)}"]
        if self.sprt is None or self.games != Study.games:  # an SPRT plays until it can tell: games is not used
            lines.append(f"games = {self.games}")
        lines.append(f"seed = {self.seed}")
        if self.focus is not None:
            lines.append(f"focus = {_toml(self.focus)}")
        if self.permutations:
            lines.append("permutations = true")
        if self.move_limit_s is not None:
            lines.append(f"move_limit_s = {_toml(self.move_limit_s)}")
        if self.trace:
            lines.append("trace = true")
        lines += ["", "[options]", *(f"{_key(k)} = {_toml(v)}" for k, v in self.options.items())]
        lines += ["", "[agents]", *(f"{_key(k)} = {_toml(v)}" for k, v in self.agents.items())]
        if self.sprt is not None:
            s = self.sprt
            lines += ["", "[sprt]", f"elo0 = {_toml(s.elo0)}", f"elo1 = {_toml(s.elo1)}"]
            lines += [f"alpha = {_toml(s.alpha)}", f"beta = {_toml(s.beta)}", f"max_games = {s.max_games}"]
        return "\n".join(lines) + "\n"


def option_key(options: Mapping[str, Any]) -> str:
    """An option set as text, the same whatever the order of its keys (a row's options are looked up by it)."""
    return json.dumps(options, sort_keys=True)


def differences(before: Study, after: Study, most: int = 4) -> list[str]:
    """What differs between two studies, each as short text naming the key as the study file does:
    ``games 3 → 4``, ``options.size 5 → 6``, ``agents.mcts (none) → "mcts"``; at most ``most`` of them, then how many
    more. The order of ``[options]`` and ``[agents]`` counts: it is the order of the games."""

    def flat(study: Study) -> dict[str, Any]:
        keys: dict[str, Any] = {f.name: getattr(study, f.name) for f in fields(study)}
        for table in ("options", "agents", "sprt"):
            del keys[table]
        keys.update({f"options.{k}": v for k, v in study.options.items()})
        keys.update({f"agents.{k}": v for k, v in study.agents.items()})
        if study.sprt is not None:
            keys.update({f"sprt.{f.name}": getattr(study.sprt, f.name) for f in fields(study.sprt)})
        return keys

    def value(found: dict[str, Any], key: str) -> str:
        return "(none)" if found.get(key) is None else _toml(found[key])

    old, new = flat(before), flat(after)
    changed = [
        f"{k} {value(old, k)} → {value(new, k)}" for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k)
    ]
    for table in ("options", "agents"):
        mine, theirs = list(getattr(before, table)), list(getattr(after, table))
        if mine != theirs and set(mine) == set(theirs):
            changed.append(f"the order of [{table}]")
    return changed[:most] + ([f"{len(changed) - most} more"] if len(changed) > most else [])


def _key(name: str) -> str:
    return name if name.replace("-", "").replace("_", "").isalnum() and name.isascii() else _toml(name)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_toml_char(c) for c in value) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise StudyError(f"a study holds numbers, text, true/false and lists, not {shown(value)}")


def _toml_char(char: str) -> str:
    """One character as a TOML basic string holds it: a quote, a backslash and every control character (TOML
    refuses them raw, e.g. DEL or a carriage return in an agent's option) escaped, so the study.toml a run writes
    reads back."""
    if char in '"\\':
        return "\\" + char
    if char == "\t" or (ord(char) >= 0x20 and char != "\x7f"):
        return char
    return f"\\u{ord(char):04x}"


def _fail(key: str, problem: str) -> StudyError:
    return StudyError(f"{key}: {problem}")


def check_study(study: Study) -> None:
    """Every check a study must pass before a game is played (the one line names the key)."""
    if (
        not isinstance(study.name, str)
        or not study.name.strip()
        or "/" in study.name
        or study.name.startswith(".")
        or not study.name.isprintable()
    ):
        raise _fail("name", f"a name usable as a folder name (printable, no /), not {shown(study.name)}")
    if study.game not in games():
        raise _fail("game", f"unknown game {shown(study.game)} (games: {', '.join(games())})")
    if study.format not in FORMATS:
        raise _fail("format", f"one of {', '.join(FORMATS)}, not {shown(study.format)}")
    _whole("games", study.games, 1, MAX_GAMES)
    _whole("seed", study.seed, 0, MAX_SEED)
    for key in ("permutations", "trace"):
        if not isinstance(getattr(study, key), bool):
            raise _fail(key, f"true or false, not {shown(getattr(study, key))}")
    if study.move_limit_s is not None:
        limit = study.move_limit_s
        if isinstance(limit, bool) or not isinstance(limit, int | float) or not 0 < limit <= 86400:
            raise _fail("move_limit_s", f"seconds from 0 to 86400, not {shown(limit)}")
    if study.focus is not None and not isinstance(study.focus, str):  # a list or a table is no agent's name
        raise _fail("focus", f"the name of one agent of [agents], not {shown(study.focus)}")
    if not isinstance(study.agents, Mapping) or not study.agents:
        raise _fail("agents", 'at least one agent: [agents] name = "spec"')
    for name, spec in study.agents.items():
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise _fail("agents", f"an agent's name is printable text, not {shown(name)}")
        if not isinstance(spec, str):
            raise _fail(f"agents.{name}", f'an agent spec such as "mcts:iterations=1000", not {shown(spec)}')
        if not _BUILD_AGENTS.get():
            continue
        try:
            agent = agent_from_spec(spec)
        except ValueError as error:
            raise _fail(f"agents.{name}", str(error)) from None
        only = other_game(agent, study.game)
        if only is not None:  # every game would be a forfeit, read as an unfair game
            raise _fail(f"agents.{name}", f"{shown(spec)} plays {only} only, not {study.game}")
    if not isinstance(study.options, Mapping):
        raise _fail("options", "a table of game options")
    for key, value in study.options.items():
        if isinstance(value, list) and not value:
            raise _fail(f"options.{key}", "an empty list: give at least one value")
        if isinstance(value, list):
            twice = next((v for i, v in enumerate(value) if any(_same_value(v, w) for w in value[:i])), None)
            if twice is not None:  # it would play the same games twice and count them as one option set
                raise _fail(f"options.{key}", f"{shown(twice)} is listed twice")
        if isinstance(value, dict):
            raise _fail(f"options.{key}", "a value or a list of values, not a table")
    sets = study.option_sets()
    if len(sets) > 10_000:
        raise _fail("options", f"{len(sets)} combinations: at most 10,000")
    for options in sets:
        try:
            game = load_game(study.game, **options)
        except ValueError as error:
            raise _fail("options", f"{_describe(options)}: {error}") from None
        _check_format(study, game.players)


def _whole(key: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(key, f"a whole number from {low} to {high:,}, not {shown(value)}")


def _describe(options: Mapping[str, Any]) -> str:
    """An option set for a one-line message: each value as written, cut short (a value of 5,000 characters made a
    message of 5,000), and as ``shown`` gives it when it is not one printable line or not text."""
    return ", ".join(f"{_brief(k)}={_brief(v)}" for k, v in options.items()) or "the default options"


def _brief(value: Any) -> str:
    if isinstance(value, str) and value.isprintable():
        return value if len(value) <= 40 else value[:39] + "…"
    return shown(value)


def _check_format(study: Study, players: int) -> None:
    names = list(study.agents)
    if study.format == "gauntlet":
        if study.focus is None:
            raise _fail(
                "focus", f"missing; a gauntlet needs the agent that meets every other, one of {', '.join(names)}"
            )
        if study.focus not in study.agents:
            raise _fail("focus", f"the gauntlet's agent, one of {', '.join(names)}, not {shown(study.focus)}")
        if len(names) < 2:
            raise _fail("agents", "a gauntlet needs the focus agent and at least one other")
    elif study.focus is not None:
        raise _fail("focus", f"only a gauntlet has a focus agent (format is {study.format})")
    if study.format in ("round-robin", "ladder") and len(names) < 2:
        raise _fail("agents", f"a {study.format} needs at least two agents")
    if study.format == "sprt":
        if len(names) != 2:
            raise _fail("agents", f"an SPRT compares exactly two agents, not {len(names)}")
        if players != 2:
            raise _fail("options", f"an SPRT plays two-player games (game pairs with seats swapped), not {players}")
    if study.sprt is not None and not isinstance(study.sprt, Sprt):  # a dict as in the TOML file, say
        raise _fail("sprt", f"an arena.Sprt(elo0=..., elo1=..., ...), not {shown(study.sprt)}")
    if study.format == "sprt" or study.sprt is not None:
        # Another format ignores an [sprt] table (CONTRACT.md's example study has one beside "round-robin"), but
        # its values are still checked, so that a mistake in it shows the day the format is switched to sprt.
        sprt = study.sprt or Sprt()
        for key in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(sprt, key)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise _fail(f"sprt.{key}", f"a number, not {shown(value)}")
        if not sprt.elo0 < sprt.elo1:
            raise _fail("sprt.elo1", f"must be above elo0 ({sprt.elo0:g}), not {sprt.elo1:g}")
        for key in ("alpha", "beta"):
            if not 0 < getattr(sprt, key) < 0.5:
                raise _fail(f"sprt.{key}", f"an error rate above 0 and below 0.5, not {getattr(sprt, key)!r}")
        _whole("sprt.max_games", sprt.max_games, 2, MAX_GAMES)
    if study.permutations and players > 4:
        raise _fail("permutations", f"all seat orders are played up to 4 players, not {players}")


KEYS = {
    "name",
    "game",
    "format",
    "games",
    "seed",
    "focus",
    "permutations",
    "move_limit_s",
    "trace",
    "options",
    "agents",
    "sprt",
}
SPRT_KEYS = {"elo0", "elo1", "alpha", "beta", "max_games"}


def study_from_dict(data: Mapping[str, Any]) -> Study:
    """A study from the tables of a study file (unknown keys are refused, naming them)."""
    for key in data:
        if key not in KEYS:
            raise _fail(key, f"unknown key (keys: {', '.join(sorted(KEYS))})")
    for key in ("name", "game", "agents"):
        if key not in data:
            raise _fail(key, "missing")
    for key in ("options", "agents", "sprt"):
        if key in data and not isinstance(data[key], dict):
            raise _fail(key, f"a table [{key}], not {shown(data[key])}")
    try:
        return _study(data)
    except StudyError as error:
        raise StudyError(f"{error}{_misplaced(data)}") from None


def _misplaced(data: Mapping[str, Any]) -> str:
    """A hint when a table holds a key of the study itself: in TOML a key written below ``[agents]`` (``seed = 3``
    added at the end of the file) belongs to that table, and the error would name ``agents.seed``, not the slip."""
    for table in ("options", "agents", "sprt"):
        found = next((key for key in data.get(table, {}) if key in KEYS), None)
        if found is not None:
            return f" ({table}.{found}: a key of the study itself? write it above the first [table])"
    return ""


def _study(data: Mapping[str, Any]) -> Study:
    sprt = None
    if "sprt" in data:
        for key in data["sprt"]:
            if key not in SPRT_KEYS:
                raise _fail(f"sprt.{key}", f"unknown key (keys: {', '.join(sorted(SPRT_KEYS))})")
        sprt = Sprt(**data["sprt"])
    return Study(
        name=data["name"],
        game=data["game"],
        agents=dict(data["agents"]),
        format=data.get("format", "round-robin"),
        games=data.get("games", 10),
        seed=data.get("seed", 0),
        options=dict(data.get("options", {})),
        focus=data.get("focus"),
        sprt=sprt,
        permutations=data.get("permutations", False),
        move_limit_s=data.get("move_limit_s"),
        trace=data.get("trace", False),
    )


def _same_value(a: Any, b: Any) -> bool:
    """Two option values that are the same option (1 and 1.0 are; True and 1 are not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


MAX_STUDY_BYTES = 2**20


def load_study(path: str | Path, *, build_agents: bool = True) -> Study:
    """Read a study file (TOML); :class:`StudyError` with one line (file, key, problem) for anything wrong.

    ``build_agents=False`` checks each agent spec is text but does not build the agent: for reading a results
    folder, whose games need only the agents' names (its agents' packages need not be installed to report them).
    """
    token = _BUILD_AGENTS.set(build_agents)
    try:
        return _load_study(Path(path))
    finally:
        _BUILD_AGENTS.reset(token)


def _load_study(path: Path) -> Study:
    try:
        with path.open("rb") as stream:  # at most MAX_STUDY_BYTES: /dev/zero is no study and must not fill memory
            raw = stream.read(MAX_STUDY_BYTES + 1)
        if len(raw) > MAX_STUDY_BYTES:
            raise StudyError(f"{path}: larger than {MAX_STUDY_BYTES // 2**20} MiB: no study file is so large")
        text = raw.decode("utf-8-sig")  # a byte-order mark (Windows Notepad) is no key
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise StudyError(f"{path}: cannot read the study ({reason})") from None
    try:
        data = tomltext.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StudyError(f"{path}: not valid TOML ({error})") from None
    try:
        return study_from_dict(data)
    except StudyError as error:
        raise StudyError(f"{path}: {error}") from None
