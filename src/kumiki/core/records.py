"""Game records (``.kmk``): PGN-like tag lines, a blank line, then one move per line in the game's notation.

Every problem is a :class:`RecordError` naming the line, so the CLI can print one line and exit 2.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kumiki.core.errors import MAX_DIGITS, MoveSyntaxError, RecordError, quoted
from kumiki.core.game import Game, State, forfeit_winners
from kumiki.core.options import OptionValue, ascii_digits, format_value, shown, whole
from kumiki.core.registry import game_class, load_game

FROM_THE_GAME = ("Game", "Players", "Seed")  # written from the state itself
INFORMATIONAL = ("Result", "Event", "Date", "Generator")  # a writer may give these (and Player0 … PlayerN)
# The seat that resigned after the last move: no rule ended the game, so the moves alone cannot say it is over.
RESIGNED = "Resigned"
RECORD_DEFAULT_SEED = 0  # the seed of a record of a game with chance that names none (read_record)
RESERVED = (*FROM_THE_GAME, *INFORMATIONAL, RESIGNED)
_PLAYER_TAG = re.compile(r"Player[0-9]+")  # ASCII digits: \d is any script's
# Possessive (*+, ++): a value of millions of characters is read in one pass; backtracking kept a state per character
# (20 MB of tag value took 3 GB).
_TAG = re.compile(r'\[\s*([A-Za-z_][A-Za-z0-9_]*)\s+"((?:[^"\\]++|\\.)*+)"\s*\]')
_MOVE_NUMBER = re.compile(r"[0-9]+\s*\.+\s*")
_UNFINISHED = ("", "*")
_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?=[eE]))(?:[eE][+-]?[0-9]+)?")


def _split_seat(text: str) -> tuple[str, str | None]:
    """A move line's move and the seat that played it (simultaneous play: ``"Y1 z 0,0 @2"`` gives ``("Y1 z 0,0",
    "2")``), or ``(text, None)`` without one. Split at the last ``@``, not by a regular expression: one that looks
    for the spaces before it tried every place in a long run of spaces (80,000 took 13 s, a megabyte hours)."""
    head, at, digits = text.rpartition("@")
    move = head.rstrip()
    if not at or not ascii_digits(digits) or len(move) == len(head):  # no "@", no seat number, no space before "@"
        return text, None
    return move, digits


def is_option_tag(name: str) -> bool:
    """Whether a record's tag names a ``load_game`` option (not a reserved tag, not ``Player0`` … ``PlayerN``)."""
    return name not in RESERVED and not _PLAYER_TAG.fullmatch(name)


def tag_value(text: str) -> OptionValue:
    """A tag's value as CONTRACT.md reads it: an int, a float, ``true`` or ``false``, else the text itself (so a
    text option named ``none`` or ``True`` comes back as that text, as it was written)."""
    value = text.strip()
    if value in ("true", "false"):
        return value == "true"
    try:
        if _INT.fullmatch(value):
            return int(value)
        if _FLOAT.fullmatch(value):
            return float(value)
    except ValueError:  # more digits than int() reads: text, which the option then refuses in one line
        pass
    return text


@dataclass
class Record:
    """A parsed record before replay: its tags (with line numbers) and its moves (with line numbers)."""

    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    moves: list[tuple[int, str]] = field(default_factory=list)


def parse_record(text: str) -> Record:
    """Split a record into tags and move lines, without replaying it."""
    record = Record()
    in_moves = False
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write first
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # Windows' and old Macs' line ends
    for number, raw in enumerate(text.split("\n"), start=1):  # a line feed ends a line, nothing else
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if in_moves:
                raise RecordError(f"line {number}: a tag after the moves began: {quoted(line)}", number)
            match = _TAG.fullmatch(line)
            if match is None:
                raise RecordError(f'line {number}: not a tag line (expected [Name "value"]): {quoted(line)}', number)
            name, value = match[1], match[2].replace('\\"', '"').replace("\\\\", "\\")
            if name in record.tags:
                raise RecordError(f"line {number}: the tag [{name}] is given twice", number)
            record.tags[name] = value
            record.tag_lines[name] = number
            continue
        in_moves = True
        move = _MOVE_NUMBER.sub("", line, count=1) if _MOVE_NUMBER.match(line) else line
        if move:
            record.moves.append((number, move))
    return record


def _game_from_tags(record: Record) -> tuple[Game, int | None]:
    tags, lines = record.tags, record.tag_lines
    if "Game" not in tags:
        if not tags and len(record.moves) == 1 and record.moves[0][1].lower().endswith(".kmk"):  # a file's name
            name = record.moves[0][1]
            raise RecordError(
                f"line 1: the record has no [Game] tag ({quoted(name, 40)} looks like a file's name: "
                "read_record takes the record's text, e.g. read_record(Path(name).read_text()))",
                1,
            )
        raise RecordError("line 1: the record has no [Game] tag", 1)
    options: dict[str, Any] = {}
    option_lines: dict[str, int] = {}
    if "Players" in tags:
        players = tag_value(tags["Players"])
        if not isinstance(players, int) or isinstance(players, bool):
            line = lines["Players"]
            raise RecordError(
                f"line {line}: bad tag value [Players {quoted(tags['Players'], 20)}]: not a whole number", line
            )
        options["players"] = players
        option_lines["players"] = lines["Players"]
    seed: int | None = None
    if "Seed" in tags:
        value = tag_value(tags["Seed"])
        if not isinstance(value, int) or isinstance(value, bool):
            line = lines["Seed"]
            raise RecordError(f"line {line}: bad tag value [Seed {quoted(tags['Seed'], 20)}]: not a whole number", line)
        seed = value
    try:
        text_options = {o.name for o in game_class(tags["Game"]).option_spec if o.type is str}
    except ValueError:
        text_options = set()  # an unknown game: load_game below says so, with the line
    for name, value in tags.items():
        if not is_option_tag(name):
            continue
        if name == "players" and "Players" in tags:
            line = lines[name]
            raise RecordError(f"line {line}: [players] repeats [Players]: give the number of players once", line)
        # A text option keeps its text, even one that reads as a number or true/false (a structure named "5").
        options[name] = value if name in text_options else tag_value(value)
        option_lines[name] = lines[name]
    try:
        game = load_game(tags["Game"], **options)
    except ValueError as error:
        message = str(error)
        if message.startswith("unknown game"):
            line = lines["Game"]
            raise RecordError(f"line {line}: {message}", line) from None
        # The option as messages quote it (``shown``: a long name is cut short, so look for its quoted start).
        line = next((option_lines[n] for n in option_lines if shown(n) in message), lines["Game"])
        raise RecordError(f"line {line}: bad tag value: {message}", line) from None
    return game, seed


def _resigner(value: object, state: State) -> tuple[int | None, str | None]:
    """The seat a ``Resigned`` tag's value names (None if it names no seat of this game) and why that seat cannot
    have resigned this position (None if it can): a game its rules ended, or one of a single side (a co-operative
    game, a solo game), where a resignation would leave nobody to win. The reader and the writer word the errors."""
    seat = whole(tag_value(value) if isinstance(value, str) else value)
    if seat is None or not 0 <= seat < state.game.players:
        return None, None
    if state.resigned is not None:  # a state read from a resigned record (State.resign): only that seat gave it up
        return seat, None if seat == state.resigned else f"seat {state.resigned} resigned it"
    if state.over:
        return seat, "the moves end the game by its rules: nobody resigned it"
    if not forfeit_winners(state, seat):
        return seat, "a game of one side has no one to resign to"
    return seat, None


def resigned_seat(record: Record, state: State) -> int | None:
    """The seat the record's ``[Resigned]`` tag says gave the game up after its last move (``state`` is the position
    after the moves), or None when it has no such tag. The game then ended there, and every seat not on that seat's
    side won (``core.game.forfeit_winners``): a resignation (the web server's Resign) is no rule, so only this tag
    lets a record that is read back say so. RecordError names the tag's line when it cannot be."""
    if RESIGNED not in record.tags:
        return None
    text, line = record.tags[RESIGNED].strip(), record.tag_lines[RESIGNED]
    seat, why = _resigner(text, state)
    if seat is None:
        last = state.game.players - 1
        raise RecordError(
            f"line {line}: bad tag value [{RESIGNED} {quoted(text, 20)}]: the seat that resigned, 0…{last}", line
        )
    if why is not None:
        raise RecordError(f'line {line}: [{RESIGNED} "{seat}"]: {why}', line)
    return seat


def _claimed_winners(text: str) -> list[int]:
    """A ``Result`` tag's winners, sorted; ValueError unless they are whole numbers in ASCII digits (int() alone
    reads "١" as 1)."""
    parts = text.split()
    if not all(_INT.fullmatch(part) for part in parts):
        raise ValueError(text)
    return sorted(int(part) for part in parts)


def _result_seats(text: str, players: int) -> list[int] | None:
    """A ``Result`` tag's winners, sorted, or None unless they are distinct seats of the game."""
    try:
        claimed = _claimed_winners(text)
    except ValueError:
        return None
    distinct = len(set(claimed)) == len(claimed)
    return claimed if distinct and all(0 <= seat < players for seat in claimed) else None


def _check_result(record: Record, state: State, resigned: int | None) -> None:
    if "Result" not in record.tags:
        return
    text = record.tags["Result"].strip()
    line = record.tag_lines["Result"]
    if text in _UNFINISHED:
        if resigned is not None:
            raise RecordError(f'line {line}: [Result "{text}"] says the game goes on, but [{RESIGNED}] ends it', line)
        if state.over:
            actual = " ".join(map(str, state.winners()))
            raise RecordError(
                f'line {line}: [Result "{text}"] says the game goes on, but the moves end it (result "{actual}")', line
            )
        return
    claimed = _result_seats(text, state.game.players)
    if claimed is None:
        raise RecordError(
            f"line {line}: bad tag value [Result {quoted(text, 20)}]: winners' indexes separated by spaces "
            f"(seats 0…{state.game.players - 1}), or *",
            line,
        )
    if not state.over and resigned is None:
        # CONTRACT.md's own example record gives [Result "1"] after three moves of a game that goes on: a result
        # decided off the board (adjudicated, abandoned, agreed) is the record's word, not the rules'. The position
        # stays as the moves leave it; only a result the rules did reach must agree with the tag (below).
        return
    winners = state.winners() if resigned is None else forfeit_winners(state, resigned)
    if claimed != sorted(winners):
        actual = " ".join(map(str, winners))
        given_by = "the moves give" if resigned is None else f"seat {resigned}'s resignation gives"
        raise RecordError(f'line {line}: bad tag value [Result "{text}"]: {given_by} the result "{actual}"', line)


def read_record(text: str) -> tuple[Game, State]:
    """Replay a record: ``(game, state)`` after its last move, over and resigned when a ``[Resigned]`` tag says a
    seat gave the game up there (``State.resign``). Raises RecordError naming the line at fault."""
    if not isinstance(text, str):
        raise RecordError("a record is text")
    record = parse_record(text)
    game, seed = _game_from_tags(record)
    for name, line in record.tag_lines.items():  # Player0 … PlayerN name the game's seats, as the writer refuses
        index = name[6:]
        if _PLAYER_TAG.fullmatch(name) and (len(index) > MAX_DIGITS or int(index) >= game.players):
            raise RecordError(f"line {line}: [{name[:18]}] names no seat (players 0…{game.players - 1})", line)
    if seed is None and game.has_chance():
        # CONTRACT.md requires only [Game]; without [Seed], new_state would draw a seed of its own and every reading
        # would deal other cards (draw other sizes). Seed 0 makes such a record one game, the same at every reading.
        seed = RECORD_DEFAULT_SEED
    state = game.new_state(seed=seed)
    for line, text in record.moves:
        move_text, digits = _split_seat(text)
        seat = int(digits) if digits is not None and len(digits) <= MAX_DIGITS else None
        if digits is not None and (seat is None or seat >= game.players):
            raise RecordError(f"line {line}: @{digits[:12]}: no such seat (players 0…{game.players - 1})", line, text)
        try:
            move = game.parse_move(move_text)
        except MoveSyntaxError as error:
            raise RecordError(f"line {line}: unparsable move: {error}", line, move_text) from None
        except ValueError as error:  # e.g. a TowerBrix corner off the grid: the notation reads, the move is illegal
            raise RecordError(f"line {line}: illegal move: {error}", line, move_text) from None
        try:
            if seat is None:
                state.play(move)  # a game written before simultaneous play may not take a player
            else:
                state.play(move, player=seat)
        except ValueError as error:  # IllegalMove, or any other refusal: always with its line
            raise RecordError(f"line {line}: illegal move: {error}", line, move_text) from None
    resigned = resigned_seat(record, state)
    _check_result(record, state, resigned)
    if resigned is not None:  # the game ended there: the state says so, as the server stores a resigned game
        state.resign(resigned)
    return game, state


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # what str.splitlines() splits at


def _quote(value: str) -> str:
    if any(mark in value for mark in _LINE_BREAKS):  # a record holds one tag a line
        raise ValueError(f"a tag value cannot hold a line break: {quoted(value)}")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _resigned_tag(state: State, extra: dict[str, Any]) -> int | None:
    """The seat a writer's ``Resigned`` tag names (written back as its number), or None; ValueError when it names
    no seat or the position cannot have been resigned (see ``_resigner``). A resigned state (``State.resign``)
    writes its seat without being told, so that writing then reading gives the same game."""
    if RESIGNED not in extra:
        if state.resigned is not None:
            extra[RESIGNED] = state.resigned
        return state.resigned
    value = extra[RESIGNED]
    seat, why = _resigner(value, state)
    if seat is None:
        raise ValueError(f"tag {RESIGNED!r}: the seat that resigned, 0…{state.game.players - 1}, not {value!r}")
    if why is not None:
        raise ValueError(f"tag {RESIGNED!r}: {why}")
    extra[RESIGNED] = seat
    return seat


def _off_board_result(given: str, players: int) -> str:
    """A writer's Result for a game the moves leave unfinished, as read_record reads it back (sorted seats);
    ValueError unless it is distinct seats of the game."""
    claimed = _result_seats(given, players)
    if claimed is None:
        raise ValueError(
            f"tag 'Result': the winners' indexes separated by spaces (seats 0…{players - 1}), or *, not {given!r}"
        )
    return " ".join(map(str, claimed))


def write_record(state: State, tags: Mapping[str, Any] | None = None) -> str:
    """The record of ``state``'s game so far; ``tags`` adds or overrides informational tags (Event, Player0 …).

    A ``Generator`` tag (the program that wrote the record) is written only when given: CONTRACT.md reserves
    Game, Players, Seed, Result, Event, Date and Player0 … PlayerN, and a reader built on it alone takes any other tag
    for an option of the game, so a record written without being asked carries none. ``Resigned`` (a seat) says that
    seat gave the game up after the last move: the record's ``Result`` is then every seat not on its side
    (``core.game.forfeit_winners``)."""
    if not isinstance(state, State):  # a caller's slip, said as the API says every other bad argument
        raise ValueError(f"write_record writes a game's State, not a {type(state).__name__}")
    if tags is not None and not isinstance(tags, Mapping):
        raise ValueError(
            f"tags: a mapping of tag name to value, such as {{'Event': 'club night'}}, not a {type(tags).__name__}"
        )
    game = state.game
    lines = [f'[Game "{game.name}"]', f'[Players "{game.players}"]']
    if state.seed is not None:
        lines.append(f'[Seed "{state.seed}"]')
    quiet = {o.name: o.default for o in game.option_spec if o.quiet_default and not callable(o.default)}
    for name, value in game.options.items():
        if name != "players" and value is not None and not (name in quiet and value == quiet[name]):
            lines.append(f'[{name} "{_quote(format_value(value))}"]')
    extra = dict(tags or {})
    for name in (*FROM_THE_GAME, *game.options):
        if name in extra:
            raise ValueError(f"tag {name!r} is written from the game itself and cannot be given")
    for name in extra:  # any other tag would be read back as an option the game does not have
        if name not in (*INFORMATIONAL, RESIGNED) and not (
            isinstance(name, str) and _PLAYER_TAG.fullmatch(name) and int(name[6:]) < game.players
        ):
            raise ValueError(
                f"tag {name!r}: a record's tags are Event, Date, Result, Generator, Resigned, "
                f"Player0…Player{game.players - 1} and the game's options"
            )
    resigned = _resigned_tag(state, extra)
    ended = state.over or resigned is not None
    actual = " ".join(map(str, state.winners() if resigned is None else forfeit_winners(state, resigned)))
    if "Result" in extra:
        given = str(extra["Result"]).strip()
        if not ended:  # "*" (or ""), or a result decided off the board, as CONTRACT.md's example record gives one
            extra["Result"] = given if given in _UNFINISHED else _off_board_result(given, game.players)
        elif sorted(given.split()) != sorted(actual.split()):
            raise ValueError(f"tag 'Result' must be the game's result (\"{actual}\"), not {extra['Result']!r}")
    elif ended:  # an unfinished game has no result: no tag (not "*", no index list)
        extra["Result"] = actual
    for name, value in extra.items():  # every name passed the check above: letters, digits, underscores
        lines.append(f'[{name} "{_quote(str(value))}"]')
    lines.append("")
    seats = state.move_seats()
    if seats is None:
        lines.extend(str(move) for move in state.history)
    else:  # simultaneous play: who played each move, as " @seat"
        lines.extend(f"{move} @{seat}" for move, seat in zip(state.history, seats, strict=True))
    return "\n".join(lines) + "\n"
