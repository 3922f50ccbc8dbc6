"""Games made on the server: from the lobby's new-game request (``POST /api/games``, a rematch) or imported from a
``.kmk`` record (``POST /api/records``), each checked field by field with a one-line refusal; and a game's summary
as the API lists it."""

from __future__ import annotations

import contextlib
import functools
import json
import secrets
import threading
import time
from typing import Any

from kumiki import RecordError, load_game, read_record
from kumiki.core.errors import quoted
from kumiki.core.game import forfeit_winners
from kumiki.core.options import shown
from kumiki.core.records import is_option_tag, parse_record
from kumiki.core.registry import game_class
from kumiki.core.text import printable, printable_only
from kumiki.server.agents import LEVEL_NAMES, LEVELS, NOT_OFFERED, PLAIN_AGENTS, levels_of
from kumiki.server.catalog import WEB_DEFAULTS, WEB_GAMES, WEB_OPTIONS, check_web_options
from kumiki.server.errors import BadRequest
from kumiki.server.rooms import (
    MAX_PLIES,
    by_the_clock,
    one_line,
    record_ready,
    result_columns,
)
from kumiki.server.storage import GameRow, SeatRow, Storage, hash_token

MAX_NAME = 40
# Characters of an option's text (Kozo's pieces: the standard pool is 445 as JSON; some forty pentacubes fit). Loading a
# game works out every placement of every piece, and each view lists the legal moves, on the event loop: a pool of
# 64 KiB held every game still for half a second at each load and a fifth at each move, an imported megabyte for five.
MAX_OPTION_TEXT = 2000
OPEN_SEAT = "open seat"
# The seeds of the server's games (its own draw and a creator's choice) go up to ``storage.max_seed``: 53 bits
# (Number.MAX_SAFE_INTEGER, so a browser reads every seed exactly). The seed of a game with chance tells every hidden
# card and draw to come, and the 2**31 seeds of before could all be tried offline (some 18 core-hours) to find the deal
# that gives a player's own hand.
MIN_RECORD_SEED = -(2**31)  # an imported record's seed may also be negative (down to what a 32-bit column held)
MAX_COMPUTER_GAMES = 2  # games with no human seat going at once: they must not slow the computers people play
COMPUTER_GAME_IDLE_S = 600  # ... counting those that moved in the last ten minutes (a stuck one frees its place)
# Held from counting the computer games to storing one more: new games are made in the default thread pool, several at
# once, and eight asked for at once each counted the games before any was stored (six made, past MAX_COMPUTER_GAMES).
_COMPUTER_GAMES_LOCK = threading.Lock()


def check_option_text(option: str, value: str) -> None:
    """Refuse an option's text longer than the web server loads (``MAX_OPTION_TEXT``), before the game is loaded."""
    if len(value) > MAX_OPTION_TEXT:
        raise BadRequest(
            f"option {quoted(option)}: a text of at most {MAX_OPTION_TEXT} characters on the web server, "
            f"not {len(value)}"
        )


def seat_name(name: Any, index: int) -> str:
    """A player's name as given (printable, at most MAX_NAME characters), or "player N" when left out or empty (a
    name of another type, ``false`` or ``0`` included, is refused: it is no name left out)."""
    if name is None or name == "":
        return f"player {index + 1}"
    if not isinstance(name, str) or len(name) > MAX_NAME or not printable(name):
        raise BadRequest(f"seat {index}: a name is printable text of at most {MAX_NAME} characters")
    return name.strip() or f"player {index + 1}"


def _not_offered(index: int, computer: str, game: str, kinds: str, offered: list[str]) -> BadRequest:
    """A seat's computer that ``game`` does not offer, as it would see the hidden cards; ``offered``: the ``kinds``
    (agents, levels) it does."""
    return BadRequest(
        f"seat {index}: the {quoted(computer)} computer does not play {game} (it would see the hidden cards; "
        f"{kinds}: {', '.join(offered)})"
    )


def _seat_rows(seats: Any, game: str) -> list[dict[str, Any]]:
    if not isinstance(seats, list) or not seats:
        raise BadRequest('"seats" must be a non-empty list of {"kind": "human"|"agent"|"open", ...}')
    out = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise BadRequest(f"seat {index}: must be an object")
        kind = seat.get("kind")
        agent, level = seat.get("agent"), seat.get("level", "easy")
        if kind == "agent" and not isinstance(agent, (str, type(None))):
            raise BadRequest(f"seat {index}: an agent is a name (text)")
        if kind == "agent" and agent is None and not isinstance(level, str):
            raise BadRequest(f"seat {index}: a level is a name (text)")
        if kind == "human":
            out.append({"kind": "human", "name": seat_name(seat.get("name"), index)})
        elif kind == "open":
            out.append({"kind": "open", "name": OPEN_SEAT})
        elif kind == "agent" and agent is not None:
            if agent not in PLAIN_AGENTS:
                raise BadRequest(f"seat {index}: unknown agent {quoted(agent)} (agents: {', '.join(PLAIN_AGENTS)})")
            if agent in NOT_OFFERED.get(game, frozenset()):  # greedy's look-ahead scores the round: every hand's cards
                plain = [name for name in PLAIN_AGENTS if name not in NOT_OFFERED[game]]
                raise _not_offered(index, agent, game, "agents", plain)
            out.append({"kind": "agent", "level": agent, "name": f"{agent} computer"})
        elif kind == "agent":
            offered = levels_of(game)
            if level in LEVELS and level not in offered:
                raise _not_offered(index, level, game, "levels", offered)
            if level not in LEVELS:
                raise BadRequest(f"seat {index}: unknown level {quoted(level)} (levels: {', '.join(offered)})")
            out.append({"kind": "agent", "level": level, "name": LEVEL_NAMES[level]})
        else:
            raise BadRequest(f'seat {index}: "kind" must be "human", "agent" or "open", not {shown(kind)}')
    return out


def new_game(storage: Storage, body: Any, rematch_of: str | None = None) -> dict[str, Any]:
    """Create a game from a lobby request; returns the seats with their tokens and invite links. ``rematch_of``: the
    finished game whose rematch it is (the link is stored with it)."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    unknown = set(body) - {"game", "options", "seats", "seed", "undo"}
    if unknown:
        raise BadRequest(f"unknown field {quoted(sorted(unknown)[0])} (fields: game, options, seats, seed, undo)")
    name = body.get("game")
    if not isinstance(name, str) or name not in WEB_GAMES:
        raise BadRequest(f"unknown game {shown(name)} (games: {', '.join(WEB_GAMES)})")
    options = body.get("options")
    options = {} if options is None else options  # left out or null: the defaults; [], "" or false are refused
    if not isinstance(options, dict):
        raise BadRequest('"options" must be an object of option values')
    for option, value in options.items():
        if isinstance(value, str) and not value.isprintable():
            raise BadRequest(f"option {quoted(option)}: one line of printable text (a record keeps it on one line)")
        if isinstance(value, str):
            check_option_text(option, value)  # before the game is loaded
    seats = _seat_rows(body.get("seats"), name)
    options = {**WEB_DEFAULTS.get(name, {}), **options}  # an option left out takes the catalog's default
    if "players" not in options and any(o.name == "players" for o in game_class(name).option_spec):
        facts = game_class(name).facts
        if not facts.min_players <= len(seats) <= facts.max_players:  # the seats give the number of players
            raise BadRequest(
                f"{name} takes {facts.min_players}–{facts.max_players} seats, not {len(seats)} "
                '(one entry in "seats" for each player)'
            )
        options["players"] = len(seats)
    check_web_options(name, options)
    try:
        game = load_game(name, **options)
    except ValueError as error:
        raise BadRequest(one_line(error)) from None
    if len(seats) != game.players:
        raise BadRequest(f"{name} with these options has {game.players} players, but {len(seats)} seats were given")
    seed = body.get("seed")
    drawn = seed is None  # the server's own draw: a secret while the game's chance is to come (see below)
    if seed is None:
        seed = secrets.randbelow(storage.max_seed + 1)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= storage.max_seed:
        raise BadRequest(f'"seed" must be a whole number from 0 to {storage.max_seed}')
    undo = body.get("undo", False)
    if not isinstance(undo, bool):
        raise BadRequest('"undo" must be true or false')
    humans = sum(s["kind"] in ("human", "open") for s in seats)
    if undo and humans > 1:
        raise BadRequest("undo is allowed only in a game with at most one human seat")
    if not humans:
        _check_computer_games(storage)  # before the game is set up; again (under the lock) before it is stored
    game_id = secrets.token_urlsafe(9)
    state = game.new_state(seed=seed)
    now = time.time()
    tokens: dict[int, str] = {}
    rows = []
    for index, seat in enumerate(seats):
        token_hash = None
        if seat["kind"] == "human":
            tokens[index] = secrets.token_urlsafe(24)
            token_hash = hash_token(tokens[index])
        rows.append(SeatRow(index, seat["kind"], seat["name"], seat.get("level"), token_hash))
    row = GameRow(
        id=game_id,
        game=name,
        options=game.options,
        seed=seed,
        undo=undo,
        imported=False,
        created=now,
        updated=now,
        seats=rows,
        seed_chosen=not drawn and game.has_chance(),  # the creator may know the deal: the others are told
        **result_columns(state),
    )
    with _COMPUTER_GAMES_LOCK if not humans else contextlib.nullcontext():
        if not humans:
            _check_computer_games(storage)
        storage.create_game(row, rematch_of=rematch_of)
    answer_seats = []
    for seat_row in rows:
        entry = seat_row.public()
        if seat_row.seat in tokens:
            entry["token"] = tokens[seat_row.seat]
            entry["invite"] = f"/game/{game_id}?token={tokens[seat_row.seat]}"
        answer_seats.append(entry)
    # A seed the server drew is given only where it tells nothing to come: in a game with chance (TowerBrix's deals,
    # Kozo's random sizes) it tells every hidden card and every draw, and the creator usually sits at the table; the
    # record gives it once the game ends (record_ready). A seed the creator chose is theirs already.
    shown_seed = None if drawn and game.has_chance() else seed
    return {"id": game_id, "seats": answer_seats, "spectate": f"/game/{game_id}", "seed": shown_seed}


def _check_computer_games(storage: Storage) -> None:
    """Refuse one more game of computers alone where MAX_COMPUTER_GAMES of them are going."""
    if storage.computer_games(time.time() - COMPUTER_GAME_IDLE_S) >= MAX_COMPUTER_GAMES:
        raise BadRequest(
            f"the server plays at most {MAX_COMPUTER_GAMES} games of computers alone at once (they share the "
            "computer players' workers with everyone's games): wait for one to end",
            429,
            {"Retry-After": "30"},
        )


def import_record(storage: Storage, text: str) -> dict[str, Any]:
    """Store a ``.kmk`` record as a game to watch: no human seats, nobody moves in it. A record whose
    ``[Resigned]`` tag names a seat is stored resigned by that seat, as the game it came from was: over, with every
    other side its winners."""
    try:
        parsed = parse_record(text)
        if len(parsed.moves) > MAX_PLIES:  # before any replay: a megabyte of "ok" lines is 170,000 moves
            raise BadRequest(f"the record has {len(parsed.moves)} moves; the server keeps games of at most {MAX_PLIES}")
        tags = parsed.tags
        for tag, value in tags.items():  # an option's tag (not a player's name: that is cut to MAX_NAME)
            if is_option_tag(tag):
                check_option_text(tag, value)
        name = tags.get("Game", "")
        narrowed = WEB_OPTIONS.get(name, {})
        check_web_options(name, {k: v for k, v in tags.items() if narrowed.get(k)})  # before a deck file is read
        game, final = read_record(text)
        resigned = final.resigned  # read_record has checked the [Resigned] tag and ended the game there
    except RecordError as error:
        raise BadRequest(one_line(error)) from None
    if game.name not in WEB_GAMES:
        raise BadRequest(f"the web client cannot show {game.name!r} yet (games: {', '.join(WEB_GAMES)})")
    check_web_options(game.name, game.options)
    if final.seed is not None and not MIN_RECORD_SEED <= final.seed <= storage.max_seed:
        raise BadRequest(
            f"the server keeps seeds from {MIN_RECORD_SEED} to {storage.max_seed}; this record's is "
            f"{quoted(str(final.seed))}"
        )
    played_by = final.move_seats()  # the record's own seats where every seat may act at once
    replay = game.new_state(seed=final.seed)
    moves: list[tuple[int | None, str]] = []
    for ply, move in enumerate(final.history):
        seat = replay.to_move if played_by is None else played_by[ply]
        if by_the_clock(replay, move, seat):
            seat = None  # the clock's move is nobody's: stored with no seat, as when the server's clock plays it
        moves.append((seat, str(move)))
        replay.play(move, player=seat)
    now = time.time()
    names = [record_name(tags.get(f"Player{k}"), k) for k in range(game.players)]
    seats = [SeatRow(k, "record", name) for k, name in enumerate(names)]
    game_id = secrets.token_urlsafe(9)
    row = GameRow(
        id=game_id,
        game=game.name,
        options=game.options,
        seed=final.seed,
        undo=False,
        imported=True,
        created=now,
        updated=now,
        seats=seats,
        **result_columns(final),
    )
    if resigned is not None:  # as Room.resign stores it: over, nobody to move, every other side the winners
        row.status, row.to_move, row.winners = "over", None, forfeit_winners(final, resigned)
    kept = {name: text for name in KEPT_TAGS if (text := _tag_text(tags.get(name, "")))}
    storage.create_game(row, moves, resigned, kept)
    return {"id": game_id, "replay": f"/replay/{game_id}"}


def listed(row: GameRow) -> dict[str, Any]:
    """A game's summary as the API lists it, with ``record_ready``: whether its record is given now (see
    ``rooms.record_ready``; a game whose stored options no longer load gives none), and ``teams``: the side each
    seat plays for (``State.teams()``: one side for TowerBrix's team and for a solo game, whose end the lobby gives
    as a score, not a win; every seat its own side for options that no longer load)."""
    over, imported = row.status == "over", row.imported
    facts = _facts(row.game, json.dumps(row.options, sort_keys=True))
    # (options that no longer load count as chance: no record; and every seat its own side)
    chance = not (over or imported) and (facts is None or facts[0])
    sides = facts[1] if facts is not None else None
    teams = list(sides) if sides is not None and len(sides) == len(row.seats) else [s.seat for s in row.seats]
    return {**row.summary(), "record_ready": record_ready(over, imported, chance), "teams": teams}


@functools.lru_cache(maxsize=1024)
def _facts(game: str, options: str) -> tuple[bool, tuple[int, ...] | None] | None:
    """Whether ``game`` with these options (as JSON) draws from its seed, and the side each seat plays for (the
    rules number them from the options alone, not the seed; None if no state starts); None if they no longer
    load. Cached, one load for both: a lobby listing asks it of every game, and loading a Kozo game costs
    milliseconds."""
    try:
        loaded = load_game(game, **json.loads(options))
        chance = loaded.has_chance()
    except (ValueError, TypeError):
        return None
    try:
        return chance, tuple(loaded.new_state(seed=0).teams())
    except (ValueError, TypeError):
        return chance, None


KEPT_TAGS = ("Event", "Date")  # an imported record's own, given back in its record (the server writes the rest)


def _tag_text(value: str) -> str:
    """A record's tag as stored: its printable characters only (PostgreSQL refuses NUL in text)."""
    return printable_only(value).strip()


def record_name(tag: str | None, seat: int) -> str:
    """A record's player tag as a seat's name: only its printable characters (no control character reaches the
    database or a page: PostgreSQL refuses NUL in text), at most MAX_NAME of them; "player N" when none is left."""
    name = _tag_text(tag or "")[:MAX_NAME].strip()
    return name or f"player {seat + 1}"
