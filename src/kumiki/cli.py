"""The ``kumiki`` command: play a game in the terminal, replay a record, list moves, games and agents, judge whether
a tower of blocks stands.

Bad input of any kind (a record, a file, an option, a game or agent name) ends with exit status 2 and one line on
stderr, never a traceback. Set ``KUMIKI_DEBUG=1`` to see the traceback of an unexpected error.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.text import Text

import kumiki
from kumiki.agents import agents as agent_names
from kumiki.agents import load_agent
from kumiki.cli_arena import arena_app
from kumiki.cli_signals import Terminated, by_sigterm, sigterm_stops
from kumiki.core.errors import RecordError
from kumiki.core.game import Game, State, forfeit_winners
from kumiki.core.options import Option, format_value, parse_value, shown
from kumiki.core.records import parse_record
from kumiki.core.registry import game_class
from kumiki.core.text import printable_only

try:  # typer ≥ 0.20 carries its own copy of click
    from typer._click.exceptions import ClickException
    from typer._click.utils import PacifyFlushWrapper
except ImportError:  # pragma: no cover - older typer on top of click
    # [assignment]: click's classes stand in for typer's copy of them (the same classes, another module).
    from click.exceptions import ClickException  # type: ignore[assignment]
    from click.utils import PacifyFlushWrapper  # type: ignore[no-redef]

BAD_INPUT = 2
INTERNAL = 1

app = typer.Typer(
    name="kumiki",
    help="Kumiki: play construction tabletop games in the terminal and work with game records (.kmk).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(arena_app)


class Failure(Exception):
    """Bad input: one line for stderr (and, for --json, the fields of the JSON error object)."""

    def __init__(self, message: str, line: int | None = None, move: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.move = move


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _missing(error: ImportError) -> str:
    """What an optional extra's import lacks, once: ``kumiki.server`` names the extra itself, as these lines do (its
    ModuleNotFoundError is the context). Any other import error as it is: "cannot import name" (an extra installed
    at a version without the name) also has a module's ``name``, and that module is there."""
    found = error if isinstance(error, ModuleNotFoundError) else error.__context__
    if isinstance(found, ModuleNotFoundError) and found.name:
        return f"No module named {found.name!r}"
    return str(error)


def _fail(message: str, json_error: dict[str, Any] | None = None) -> NoReturn:
    if json_error is not None:
        sys.stdout.write(json.dumps(json_error, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    sys.stderr.write(_one_line(message) + "\n")
    sys.stderr.flush()
    raise typer.Exit(BAD_INPUT)


@contextmanager
def _reported(source: str, as_json: bool = False) -> Iterator[None]:
    """Turn any error inside into one line on stderr (``source: message``) and exit status 2 (1 for a bug)."""
    try:
        yield
    except (typer.Exit, BrokenPipeError):  # a closed pipe is no bad input: main() stops quietly
        raise
    except (Failure, RecordError) as error:
        line = error.line if error.line else None
        payload = {"error": _one_line(error), "line": line or 0, "move": error.move} if as_json else None
        _fail(f"{source}: {error}", payload)
    except (ValueError, OSError) as error:
        message = str(error)
        if isinstance(error, OSError) and error.strerror:
            message = f"{error.filename}: {error.strerror}" if error.filename else error.strerror
        _fail(f"{source}: {message}", {"error": _one_line(message), "line": 0, "move": None} if as_json else None)
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        raise typer.Exit(130) from None
    except Exception as error:
        if os.environ.get("KUMIKI_DEBUG"):
            raise
        message = f"internal error ({type(error).__name__}: {_one_line(error)}); please report it"
        if as_json:
            sys.stdout.write(json.dumps({"error": message, "line": 0, "move": None}) + "\n")
        sys.stderr.write(f"{source}: {message}\n")
        raise typer.Exit(INTERNAL) from None


MAX_INPUT_BYTES = 64 * 2**20  # a record or a tower file; far above any real one, and /dev/zero ends


def _read_text(path: str, what: str = "a record") -> str:
    """The file's text (``-`` is stdin); a Failure names what is wrong with it (``what`` the file should be). At most
    ``MAX_INPUT_BYTES`` are read: an endless input (``/dev/zero``, a pipe that never ends) is refused, not read until
    memory runs out."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with Path(path).open("rb") as stream:
                data = stream.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise Failure(f"larger than {MAX_INPUT_BYTES // 2**20} MiB: too large for {what}")
    except FileNotFoundError:
        raise Failure("no such file") from None
    except IsADirectoryError:
        raise Failure(f"is a directory, not {what}") from None
    except OSError as error:
        raise Failure(f"cannot read: {error.strerror or error}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise Failure(f"line {line}: not UTF-8 text (byte 0x{data[error.start]:02x})", line) from None


def _load_record(path: str) -> tuple[str, Game, State]:
    text = _read_text(path)
    game, state = kumiki.read_record(text)
    return text, game, state


def _record_names(tags: dict[str, str], players: int) -> list[str]:
    """The seats' names from a record's ``PlayerN`` tags, for the terminal: only their printable characters (a record
    is anyone's text, and an escape sequence in a name would reach the terminal: clear the screen, set its title), as
    the web server keeps of an imported record's names, emoji sequences' joiners included; ``player N`` when none is
    left."""
    names = (printable_only(tags.get(f"Player{seat}", "")).strip() for seat in range(players))
    return [name or f"player {seat}" for seat, name in enumerate(names)]


def _console() -> Any:
    from kumiki.terminal import make_console

    return make_console()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kumiki {kumiki.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Kumiki: play construction tabletop games in the terminal and work with game records (.kmk)."""


# ---------------------------------------------------------------------------------------------------------- play


def _game_options(players: int | None, size: int | None, options: list[str]) -> dict[str, Any]:
    chosen: dict[str, Any] = {}
    for item in options:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise Failure(f"--option {item!r}: write name=value, e.g. --option size=8")
        if name in chosen:
            raise Failure(f"--option {item!r}: the option {name!r} is given twice")
        chosen[name] = parse_value(value.strip())
    for flag, given in (("players", players), ("size", size)):
        if given is None:
            continue
        if flag in chosen and chosen[flag] != given:
            raise Failure(f"--{flag} {given} and --option {flag}={chosen[flag]} disagree")
        chosen[flag] = given
    return chosen


@app.command()
def play(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game to play (see: kumiki games).")] = "kuzushi",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")] = None,
    size: Annotated[int | None, typer.Option("--size", help="Grid size (short for --option size=N).")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help="A game option, e.g. -o tiles=25; repeatable."),
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            "-s",
            metavar="N=WHO",
            help=(
                "Who plays seat N: 'human' or an agent, e.g. --seat 0=mcts:iterations=3000,seed=2 or "
                "--seat 1=random; repeatable. Seats not given: you play the seat that moves first "
                "(seat 1 in Kuzushi, seat 0 in Blokus 3D, Kozo and TowerBrix), the others mcts:iterations=3000 "
                "(mcts:iterations=300 in Blokus 3D, greedy in Kozo, towerbrix-teammate in TowerBrix)."
            ),
        ),
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", metavar="FILE", help="Write the game record here (kept after every move).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="The game's seed (all chance comes from it).")] = None,
) -> None:
    """Play a game in the terminal, against the computer or each other.

    Type a move, or moves, undo, help, quit (Blokus 3D, Kozo and TowerBrix also have hint). A move:
    in Kuzushi B x,y, F x,y or just the cell x,y;
    in Blokus 3D the piece and its cells, e.g. T4 3,4,0 4,4,0 4,5,0 5,4,0;
    in Kozo the piece, its cells, + and the balance cube's cell;
    in TowerBrix a brick, its long axis and its corner, e.g. Y1 z 0,0; -Y1 takes it away; ok is a thumbs-up.
    """
    from kumiki.terminal import view_for
    from kumiki.terminal.play import Session, build_seats

    named = game if len(game) <= 40 else game[:39] + "…"  # the error names the game; a long name is cut short
    with _reported(f"kumiki play {named}"):
        options = _game_options(players, size, option or [])
        loaded = kumiki.load_game(game, **options)
        seats = build_seats(loaded.players, seat or [], view_for(loaded.name), loaded.name, loaded.first_mover())
        if save is not None and save.is_dir():
            raise Failure(f"--save {save}: is a directory")
        if save is not None and save.exists() and (not save.is_file() or save.stat().st_size > 0):
            # The record is written at the start and after every move: an earlier game's record of the same name
            # (a command run again from the shell's history) was replaced without a word, and a device such as
            # /dev/null replaced by a file.
            what = "holds something already (an earlier record?)" if save.is_file() else "is not a regular file"
            raise Failure(f"--save {save}: {what}; give a new file's name, or remove it first")
        if seed is None and loaded.facts.chance:  # a game of chance records its seed, so that the record replays
            import secrets

            seed = secrets.randbelow(2**53)  # too many to try every one and find the deal from a hand
        state = loaded.new_state(seed=seed)
        session = Session(state, seats, _console(), save=save)
        with sigterm_stops():
            try:
                code = session.run()
            except Terminated:  # before the game began or after it ended: the record is on disk as it was
                sys.stderr.write("\n")
                raise typer.Exit(143) from None
    if by_sigterm(session.interrupted):
        raise typer.Exit(143)  # 128 + SIGTERM, as `kumiki arena run` ends
    if session.interrupted is not None:
        raise typer.Exit(130)  # Ctrl-C: the game was stopped, not played out (`quit` is the way to end with 0)
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------------------------------------------------- records


@app.command()
def replay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A game record (.kmk); - reads stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the board.")] = False,
) -> None:
    """Replay a game record and print the final position, scores and result."""
    with _reported(file, as_json):
        text, game, state = _load_record(file)
        record = parse_record(text)
        resigned = state.resigned  # read_record ends a resigned game: over, every other side the winners
        given = record.tags.get("Result", "").split()
        # a result decided off the board (the moves end no game): the record's word, said as such
        off_board = [int(seat) for seat in given] if given and given != ["*"] and not state.over else None
        if as_json:
            result = {
                "game": game.name,
                "players": game.players,
                "moves": [str(move) for move in state.history],
                "over": state.over,
                "to_move": state.to_move,
                "scores": state.scores(),
                "winners": state.winners(),
                "state": state.to_json(),
            }
            if resigned is not None:  # who gave the game up (the position is as played, no rule ended it)
                result["resigned"] = {"seat": resigned, "winners": forfeit_winners(state, resigned)}
            if off_board is not None:
                result["record_result"] = off_board
            sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
            return
        from kumiki.terminal import view_for
        from kumiki.terminal.play import describe_result, scores_line, seat_name

        names = _record_names(record.tags, game.players)
        view = view_for(game.name)
        console = _console()
        defaults = game.default_options()
        header = [game.name, f"{game.players} player{'s' * (game.players != 1)}"]
        header += [f"{k} {format_value(v)}" for k, v in game.options.items() if v != defaults.get(k, v)]
        header.append(f"{len(state.history)} move{'s' * (len(state.history) != 1)}")
        console.print(Text(" · ".join(header), style="bold"))
        console.print(view.render(state, names))
        console.print(Text(scores_line(state)))
        if resigned is None:
            line = describe_result(state, names, view)
        else:  # no rule ended the game: say who gave it up
            winners = ", ".join(seat_name(seat, names) for seat in forfeit_winners(state, resigned))
            line = f"{seat_name(resigned, names)} resigned after the last move: {winners} won."
        console.print(Text(line, style="bold"))
        if off_board is not None:
            winners = ", ".join(seat_name(seat, names) for seat in off_board)
            console.print(Text(f"The record's [Result] says {winners} won (not by the moves: they end no game)."))


@app.command()
def moves(file: Annotated[str, typer.Argument(metavar="FILE", help="A game record (.kmk); - reads stdin.")]) -> None:
    """Print the legal moves after a record, one per line (none once the game is over)."""
    with _reported(file):
        _, _, state = _load_record(file)
        sys.stdout.write("".join(f"{move}\n" for move in state.legal_moves()))


# ---------------------------------------------------------------------------------------------------------- listings


def _option_json(option: Option) -> dict[str, Any]:
    default = None if callable(option.default) else option.default
    return {
        "name": option.name,
        "type": option.type.__name__,
        "default": default,
        "doc": option.doc,
        "allowed": option.allowed(),
    }


def _option_default(option: Option) -> str:
    return "(varies)" if callable(option.default) else format_value(option.default)


def _options_table(title: str, spec: tuple[Option, ...]) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(title=Text(title, style="bold"), title_justify="left", box=box.SIMPLE_HEAD, show_edge=False)
    for column in ("option", "default", "allowed", "what it does"):
        table.add_column(column)
    for option in spec:
        table.add_row(option.name, _option_default(option), option.allowed(), option.doc)
    if not spec:
        table.add_row("(none)", "", "", "")
    return table


@app.command(name="games")
def list_games(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    names_only: Annotated[bool, typer.Option("--names", help="Only the names, one per line.")] = False,
) -> None:
    """List the games and their options."""
    with _reported("kumiki games", as_json):
        classes = {name: game_class(name) for name in kumiki.games()}
        if names_only:
            sys.stdout.write("".join(f"{name}\n" for name in classes))
            return
        if as_json:
            listing = [
                {
                    "name": name,
                    "min_players": cls.facts.min_players,
                    "max_players": cls.facts.max_players,
                    "options": [_option_json(o) for o in cls.option_spec],
                }
                for name, cls in classes.items()
            ]
            sys.stdout.write(json.dumps(listing, ensure_ascii=False) + "\n")
            return
        console = _console()
        for name, cls in classes.items():
            players = f"{cls.facts.min_players}–{cls.facts.max_players} players"
            console.print(_options_table(f"{name} ({players})", cls.option_spec))
            console.print()


@app.command(name="agents")
def list_agents(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    names_only: Annotated[bool, typer.Option("--names", help="Only the names, one per line.")] = False,
) -> None:
    """List the agents (AI players) and their options; use them as --seat N=name:option=value,..."""
    with _reported("kumiki agents", as_json):
        specs = {}
        for name in agent_names():
            try:
                specs[name] = type(load_agent(name)).option_spec
            except ValueError:  # an agent of an optional extra that is not installed (openspiel:mcts)
                continue
        if names_only:
            sys.stdout.write("".join(f"{name}\n" for name in specs))
            return
        if as_json:
            listing = [{"name": name, "options": [_option_json(o) for o in spec]} for name, spec in specs.items()]
            sys.stdout.write(json.dumps(listing, ensure_ascii=False) + "\n")
            return
        console = _console()
        for name, spec in specs.items():
            console.print(_options_table(name, spec))
            console.print()
        console.print(Text("Example: kumiki play kuzushi --seat 0=mcts:iterations=3000,seed=2"))


@app.command(name="docs")
def show_docs(
    page: Annotated[
        str | None,
        typer.Argument(metavar="PAGE", help="A page's name (physics, rules/kozo, or a game's name for its rules)."),
    ] = None,
) -> None:
    """Print a guide or a game's rules (the pages the help texts name); without PAGE, list them. On a terminal the
    Markdown is shown laid out (headings, tables) in a pager; piped, it is written as it is."""
    from kumiki import guides

    with _reported("kumiki docs"):
        if page is None:
            listing = guides.pages()
            if not listing:
                raise Failure(guides.MISSING)
            width = max(map(len, listing))
            sys.stdout.write("".join(f"{name:<{width}}  {guides.title(path)}\n" for name, path in listing.items()))
            return
        text = guides.find(page).read_text(encoding="utf-8")
        if not sys.stdout.isatty():
            sys.stdout.write(text)
            return
        from rich.markdown import Markdown

        console = _console()
        with console.pager(styles=True):
            console.print(Markdown(text))


# ---------------------------------------------------------------------------------------------------------- physics


def _load_tower(path: str) -> Any:
    """The tower in ``path`` (``-`` is stdin), checked; a Failure or TowerError says what is wrong with it."""
    from kumiki.physics import tower_from_json

    text = _read_text(path, "a tower")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise Failure(f"line {error.lineno}, column {error.colno}: invalid JSON ({error.msg})", error.lineno) from None
    except RecursionError:
        raise Failure("invalid JSON (nested too deeply)") from None
    except ValueError:  # int() refusing a number of over 4,300 digits (its message says to raise Python's limit)
        raise Failure("invalid JSON (a number of over 4300 digits)") from None
    try:
        return tower_from_json(data)
    except OverflowError:  # a JSON integer too large for a float
        raise Failure("a number is too large") from None


def _verdict_text(verdict: Any) -> str:
    if verdict.edge:
        word = "stands" if verdict.stands else "falls"
        head = f"{word} (knife edge: balanced exactly on an edge, and the tie rule says it {word})"
    else:
        head = "stands" if verdict.stands else "falls"
    lines = [f"verdict: {head}"]
    if verdict.stands and not verdict.edge:
        lines.append(f"margin:  {verdict.margin_deg:.2f}° (the steepest tilt of the table it survives)")
    else:
        lines.append(f"margin:  {verdict.margin_deg:.2f}°")
    lines.append(f"bodies:  {verdict.bodies}")
    if not verdict.stands:
        lines.append(f"fault:   {verdict.fault}")
        lines.append(f"moving:  {', '.join(verdict.moving) if verdict.moving else '(none named)'}")
    return "".join(f"{line}\n" for line in lines)


@app.command()
def stability(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help="A tower in JSON (see: kumiki docs physics); - reads stdin.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")] = False,
) -> None:
    """Judge whether a tower of rigid blocks stands, and how much tilt it survives.

    The tower is a JSON object: "bodies", each with a "name", "boxes" (each x0, y0, z0, x1, y1, z1) and a
    "density"; optionally "ground" (rectangles x0, y0, x1, y1 at z = 0 that carry load; null is an endless table)
    and "tie" ("falls" or "stands": what a body balanced exactly on an edge does). See: kumiki docs physics.
    """
    from kumiki.physics import TowerError, analyse

    source = "stdin" if file == "-" else file
    with _reported(source, as_json):
        try:
            tower = _load_tower(file)
            verdict = analyse(tower)
        except (Failure, TowerError) as error:
            _fail(f"{source}: {error}", {"error": _one_line(error)} if as_json else None)
        if as_json:
            sys.stdout.write(json.dumps(verdict.to_json(), ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(_verdict_text(verdict))


# ---------------------------------------------------------------------------------------------------------- towerbrix


def _only_towerbrix(game: str, command: str) -> None:
    if game != "towerbrix":
        raise Failure(f"{command} is for towerbrix only, not {shown(game)}")


@app.command()
def cards(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game: towerbrix.")],
    deck: Annotated[str, typer.Option("--deck", help="green, pink or the path of a deck file.")] = "green",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List a TowerBrix deck of condition cards: id, points, text and rule."""
    with _reported("kumiki cards", as_json):
        _only_towerbrix(game, "cards")
        from kumiki.games.towerbrix.cards import load_deck

        listing = [card.to_json() for card in load_deck(deck)]
        if as_json:
            sys.stdout.write(json.dumps(listing, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write("".join(f"{c['id']:>4}  {c['points']}  {c['text']}\n" for c in listing))


@app.command()
def solve(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game: towerbrix.")],
    card_ids: Annotated[str, typer.Option("--cards", help="Card ids, comma-separated: G03,G17.")],
    deck: Annotated[str, typer.Option("--deck", help="green, pink or the path of a deck file.")] = "green",
    challenge: Annotated[int | None, typer.Option("--challenge", help="A challenge number (1-14).")] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="The time limit.")] = 10.0,
    shake_deg: Annotated[
        float, typer.Option("--shake-deg", help="Challenge 5: the margin must be below this (degrees), as the game's.")
    ] = 3.0,
    pull_deg: Annotated[
        float, typer.Option("--pull-deg", help="Challenge 12: the margin must be at least this (degrees).")
    ] = 6.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Find a TowerBrix tower that meets the cards (see: kumiki docs towerbrix-solver), or say there is none."""
    with _reported("kumiki solve", as_json):
        _only_towerbrix(game, "solve")
        from kumiki.games.towerbrix.solver import solve_cards

        answer = solve_cards(
            card_ids.split(","), deck, challenge, seconds, shake_deg=shake_deg, pull_deg=pull_deg
        ).to_json()
        if as_json:
            sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
            return
        lines = [f"status:  {answer['status']}"]
        if answer["status"] == "none":
            lines.append(f"space:   {answer['space']}")
        lines += [f"bonus:   {answer['bonus']}", f"seconds: {answer['seconds']}"]
        for b in answer["bricks"]:
            lines.append(f"{b['id']} {b['axis']} {b['box'][0]},{b['box'][1]}   box {b['box']}")
        sys.stdout.write("".join(f"{line}\n" for line in lines))


# ---------------------------------------------------------------------------------------------------------- entry


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="The address to listen on (0.0.0.0: every interface).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", metavar="PORT", help="The TCP port.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="URL", help="Database URL (default: SQLite in the data directory)."),
    ] = None,
    agent_pace: Annotated[
        float,
        typer.Option(
            "--agent-pace",
            metavar="SECONDS",
            min=0.0,
            max=60.0,
            help="Where everyone builds at once (TowerBrix), a computer teammate waits this long after any edit.",
        ),
    ] = 1.5,
    connections_per_address: Annotated[
        int,
        typer.Option(
            "--connections-per-address",
            metavar="N",
            min=1,
            max=100_000,
            help="Game connections (WebSockets) one client address may hold open at once.",
        ),
    ] = 200,
) -> None:
    """Run the web app: lobby, games against the computer or friends, replays (see: kumiki docs server)."""
    with _reported("kumiki serve"):
        try:
            from kumiki.server.serve import serve as run_server
        except ImportError as error:
            raise Failure(
                f"the web server needs the 'web' extra: pip install 'kumiki[web]' ({_missing(error)})"
            ) from None
        run_server(host, port, db, agent_pace, connections_per_address)


@app.command()
def prune(
    idle_days: Annotated[
        float,
        typer.Option("--idle-days", metavar="DAYS", help="Games no move, undo or resignation changed for this long."),
    ],
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="URL", help="The server's database URL (default: its SQLite file)."),
    ] = None,
    finished: Annotated[
        bool, typer.Option("--finished", help="Finished games too (else only unfinished ones).")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", help="Delete them (without it, only list them).")] = False,
) -> None:
    """List the web server's games idle for DAYS (unfinished ones; --finished: all) and, with --yes, delete them."""
    with _reported("kumiki prune"):
        try:
            from kumiki.server.prune import prune as run_prune
        except ImportError as error:
            raise Failure(
                f"pruning the server's games needs the 'web' extra: pip install 'kumiki[web]' ({_missing(error)})"
            ) from None
        run_prune(db, idle_days, finished, yes, typer.echo)


def _command() -> Any:
    """The command ``app`` makes, with nothing beside its flags in the help: typer ≥ 0.2x writes ``<bool>`` beside
    every flag, --help included, as if it took a value (``--json <bool>``); a flag's metavar "" shows nothing."""
    command = typer.main.get_command(app)
    _bare_flags(command)
    return command


def _bare_flags(command: Any) -> None:
    """Every flag of ``command`` and its subcommands (their --help too) with metavar "": nothing beside it in the
    help. A flag takes no value, so its metavar shows nowhere else."""
    help_option = command.get_help_option(typer.Context(command))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if getattr(param, "is_flag", False) and not getattr(param, "count", False):
            param.metavar = ""
    for subcommand in getattr(command, "commands", {}).values():
        _bare_flags(subcommand)


def main(argv: list[str] | None = None) -> NoReturn:
    """The ``kumiki`` console script. Exits with 0, 1 (a bug), 2 (bad input) or 130 (interrupted)."""
    args = sys.argv[1:] if argv is None else list(argv)
    _closed_streams_to_devnull()
    try:
        code = _command()(args=args, prog_name="kumiki", standalone_mode=False)
        sys.stdout.flush()
    except ClickException as error:  # usage errors: an unknown flag, a missing argument, a bad number ...
        context = getattr(error, "ctx", None)
        command = context.command_path if context is not None else "kumiki"
        message = _one_line(error.format_message())
        if message:  # (no message: the help was shown because no command was given)
            sys.stderr.write(f"{command}: {message} (see: {command} --help)\n")
        code = error.exit_code
    except typer.Abort:
        sys.stderr.write("kumiki: aborted\n")
        code = INTERNAL
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        code = 130
    except BrokenPipeError:
        # The reader went away (kumiki moves F | head -1): stop quietly.
        _quiet_stdout()
        code = 0
    except SystemExit:
        # typer met the closed pipe inside a command (it wraps the streams and exits 1): the same quiet stop
        if not isinstance(sys.stdout, PacifyFlushWrapper):
            raise
        _quiet_stdout()
        code = 0
    except Exception as error:
        if os.environ.get("KUMIKI_DEBUG"):
            raise
        sys.stderr.write(f"kumiki: internal error ({type(error).__name__}: {_one_line(error)}); please report it\n")
        code = INTERNAL
    sys.exit(code if isinstance(code, int) else 0)


def _closed_streams_to_devnull() -> None:
    """A command started with a standard stream closed (``kumiki ... >&-``, ``<&-``, as some services start it) has
    ``None`` for it: what it prints goes nowhere, the work it does (a study, a record) is done, and a closed input
    reads as an empty one (``kumiki replay -`` says the record is empty)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115 (open for the rest of the process)


def _quiet_stdout() -> None:
    """Standard output goes nowhere from now on: the reader went away, and the flush at exit must not fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    main()
