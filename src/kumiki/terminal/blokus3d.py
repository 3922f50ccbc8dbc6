"""Blokus 3D in colour: the structure as a height map of top colours (north up), two side views, the colours'
pieces and scores; and the game's own commands at the prompt (hint, moves by piece, a piece's placements)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, cast

from rich import box
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from kumiki.core.errors import quoted
from kumiki.core.options import ascii_digits
from kumiki.games.blokus3d.ai import gain_words, hints
from kumiki.games.blokus3d.pieces import PIECE_NAMES, PIECES
from kumiki.games.blokus3d.rules import COLOUR_NAMES
from kumiki.games.blokus3d.structures import SIZE
from kumiki.games.blokus3d.text import LETTERS
from kumiki.terminal import Fitting, FittingRows, GameView
from kumiki.terminal.play import SPARE_ROWS

if TYPE_CHECKING:
    from kumiki.core.game import Game, State
    from kumiki.games.blokus3d.moves import Blokus3DMove
    from kumiki.games.blokus3d.rules import Blokus3D, Blokus3DState

# (background, text on it) of each colour's cubes: 0 blue, 1 yellow, 2 red, 3 green.
PALETTE: tuple[tuple[str, str], ...] = (
    ("blue", "bright_white"),
    ("yellow", "black"),
    ("red", "bright_white"),
    ("green", "black"),
)
# The colour's name and pieces written on the dark background of a terminal.
INK = ("bright_blue", "bright_yellow", "bright_red", "bright_green")

EMPTY_STYLE = "dim"
SHOWN_MOVES = 30  # `moves` shows about this many examples
PER_LINE = 2  # moves per line in that list
SHOWN_PLACEMENTS = 12  # a piece name alone shows this many of its placements
HINTS = 5
MAX_HINTS = 20


def block(colour: int) -> str:
    """The style of a cube of this colour."""
    background, text = PALETTE[colour % len(PALETTE)]
    return f"bold {text} on {background}"


def ink(colour: int) -> str:
    return f"bold {INK[colour % len(INK)]}"


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour] if colour < len(COLOUR_NAMES) else f"colour {colour}"


def letter(colour: int) -> str:
    return LETTERS[colour] if colour < len(LETTERS) else str(colour)


def player_name(player: int, names: Sequence[str] | None) -> str:
    return f"player {player} ({names[player]})" if names and player < len(names) else f"player {player}"


def as_blokus(state: State) -> Blokus3DState:
    return cast("Blokus3DState", state)


# ------------------------------------------------------------------------------------------------ the structure


def mask_box(game: Blokus3D) -> tuple[int, int, int, int]:
    """``(min_x, min_y, max_x, max_y)`` of the cells inside the structure's mask."""
    cells = [(x, y) for x in range(SIZE) for y in range(SIZE) if game.limits[x][y]]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), min(ys), max(xs), max(ys)


def last_footprint(state: Blokus3DState) -> set[tuple[int, int]]:
    if not state.history:
        return set()
    move = cast("Blokus3DMove", state.history[-1])
    return {(x, y) for x, y, _ in move.cells}


def height_cell(state: Blokus3DState, x: int, y: int) -> Text:
    """``B2/4``: the top cube's colour letter, the column's height and its limit; blank outside the mask."""
    limit = state.game.limits[x][y]
    if not limit:
        return Text("    ")
    height = state.height(x, y)
    top = state.top_colour(x, y)
    if top is None:
        return Text(f" {height}/{limit}", style=EMPTY_STYLE)
    return Text(f"{letter(top)}{height}/{limit}", style=block(top))


def height_map(state: Blokus3DState, compact: bool = False) -> Text:
    """The structure seen from above, rows from north (top) to south, x labels below and y labels on the left;
    ``compact``: the axes named in the title line, no line under the x labels."""
    lo_x, lo_y, hi_x, hi_y = mask_box(state.game)
    last = last_footprint(state)
    out = Text()
    if compact:
        out.append("from above", style="bold")
        out.append(" (y north ↑, x east →)\n", style="dim")
    else:
        out.append("from above\n", style="bold")
        out.append(" y (north ↑)\n", style="dim")
    for y in range(hi_y, lo_y - 1, -1):
        out.append(f"{y:>2} ", style="dim")
        for x in range(lo_x, hi_x + 1):
            out.append(" ")
            cell = height_cell(state, x, y)
            if (x, y) in last:
                cell.stylize("underline")
            out.append_text(cell)
        out.append("\n")
    out.append("   ")
    for x in range(lo_x, hi_x + 1):
        out.append(f" {x:^4}", style="dim")
    if not compact:
        out.append("\n    x (east →)", style="dim")
    return out


def side_view(state: Blokus3DState, side: str, compact: bool = False) -> Text:
    """The structure seen from the south (x from west to east) or from the west (y from north to south): at each
    level of each column of the view, the colour of the nearest cube; ``·`` is room within the height limits.
    ``compact``: the axes named in the title line, and no levels above the one over the highest cube."""
    g = state.game
    lo_x, lo_y, hi_x, hi_y = mask_box(g)
    if side == "south":
        cells = [[(x, y) for y in range(lo_y, hi_y + 1)] for x in range(lo_x, hi_x + 1)]
        labels = list(range(lo_x, hi_x + 1))
        title, axis = ("south", "x →") if compact else ("from the south", "x (east →)")
    else:
        cells = [[(x, y) for x in range(lo_x, hi_x + 1)] for y in range(hi_y, lo_y - 1, -1)]
        labels = list(range(hi_y, lo_y - 1, -1))
        title, axis = ("west", "← y") if compact else ("from the west", "y (← north)")
    top = max(g.limits[x][y] for line in cells for x, y in line)
    out = Text()
    if compact:
        highest = max((state.height(x, y) for line in cells for x, y in line), default=0)
        shown = min(top, highest + 1)
        out.append(title, style="bold")
        out.append(f" {axis}, z ↑" + (f" (to {top - 1})" if shown < top else "") + "\n", style="dim")
        top = shown
    else:
        out.append(title + "\n", style="bold")
        out.append(" z (up)\n", style="dim")
    for z in range(top - 1, -1, -1):
        out.append(f"{z:>2} ", style="dim")
        for line in cells:
            colour = next((c for x, y in line if (c := state.colour_at(x, y, z)) is not None), None)
            if colour is not None:
                out.append(f"{letter(colour)} ", style=block(colour))
            else:
                room = any(z < g.limits[x][y] for x, y in line)
                out.append("· " if room else "  ", style=EMPTY_STYLE)
        out.append("\n")
    out.append("   ")
    for label in labels:
        out.append(f"{label:<2}", style="dim")
    if not compact:
        out.append("\n   " + axis, style="dim")
    return out


# ------------------------------------------------------------------------------------------------ the pieces


def piece_drawing(name: str) -> list[str]:
    """A piece seen from above in two rows (north up): ``##`` a cube, ``22`` two cubes stacked."""
    heights: dict[tuple[int, int], int] = {}
    for x, y, _ in PIECES[name]:
        heights[x, y] = heights.get((x, y), 0) + 1
    width = max(x for x, _ in heights) + 1
    rows = []
    for y in (1, 0):
        row = ""
        for x in range(width):
            count = heights.get((x, y), 0)
            row += "  " if not count else ("##" if count == 1 else str(count) * 2)
        rows.append(row)
    return rows


def piece_text(name: str, colour: int) -> Text:
    """One piece's name over its drawing, in the colour."""
    out = Text()
    out.append(name, style="bold")
    for row in piece_drawing(name):
        out.append("\n")
        for start in range(0, len(row), 2):
            pair = row[start : start + 2]
            out.append(pair, style=block(colour) if pair.strip() else "")
    return out


def pieces_drawn(state: Blokus3DState, colour: int) -> RenderableType:
    """The colour's pieces not yet placed, drawn side by side under their names (as many a line as fit)."""
    left = state.pieces_left(colour)
    title = Text()
    title.append(f"{colour_name(colour)}'s pieces left", style=ink(colour))
    title.append(" (seen from above; 22 = two cubes stacked)", style="dim")
    if not left:
        return Group(title, Text("none", style="dim"))
    return Group(title, Columns([piece_text(name, colour) for name in left], padding=(0, 2)))


def colours_table(state: Blokus3DState, names: Sequence[str] | None = None) -> Table:
    """One row per colour: its player, score (squares on top minus pieces not placed), pieces left and state."""
    g = state.game
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    table.add_column("colour", no_wrap=True, min_width=10)
    table.add_column("player", no_wrap=True, overflow="ellipsis", max_width=16)
    table.add_column("top − left = score", justify="right", min_width=12)
    table.add_column("pieces left", ratio=1, min_width=8)
    table.add_column("", no_wrap=True, min_width=9)
    scores = state.colour_scores()
    winners = state.winners()
    for colour in range(g.colours):
        player = g.player_of(colour)
        left = state.pieces_left(colour)
        visible = scores[colour] + len(left)
        if colour == state.colour_to_move:
            status = Text("◀ to move", style="bold")
        elif state.over and player in winners:
            status = Text("★ winner", style="bold")
        elif state.is_out(colour):
            status = Text("out", style="dim")
        else:
            status = Text("")
        pieces = Text(" ".join(left) if left else "all placed", style=ink(colour) if left else "dim")
        name = names[player] if names and player < len(names) else ""
        swatch = Text()
        swatch.append(f" {letter(colour)} ", style=block(colour))
        swatch.append(" " + colour_name(colour), style=ink(colour))
        table.add_row(
            swatch, Text(f"{player} {name}".strip()), f"{visible} − {len(left)} = {scores[colour]:>2}", pieces, status
        )
    return table


def players_line(state: Blokus3DState, names: Sequence[str] | None = None) -> Text:
    """Each player's score, the better of their colours (shown when players have two colours each)."""
    g = state.game
    scores = state.scores()
    colour_scores = state.colour_scores()
    parts = []
    for player in range(g.players):
        mine = [c for c in range(g.colours) if g.player_of(c) == player]
        terms = ", ".join(f"{colour_name(c)} {colour_scores[c]}" for c in mine)
        parts.append(f"{player_name(player, names)} {scores[player]:g} (the better of {terms})")
    return Text("Player scores: " + "; ".join(parts))


def turn_line(state: Blokus3DState, names: Sequence[str] | None = None) -> Text:
    """The game's facts, then whose turn it is (or that the game is over) and which colours are out."""
    g = state.game
    out = Text()
    out.append("Blokus 3D", style="bold")
    facts = [f"structure {g.structure.name}", f"{g.players} players"]
    if g.colours > g.players:
        facts.append(f"{g.colours // g.players} colours each")
    facts.append(f"{len(state.history)} piece{'s' * (len(state.history) != 1)} placed")
    out.append(" · " + " · ".join(facts) + "\n")
    if state.colour_to_move is None:
        out.append("game over", style="bold")
    else:
        _to_move(out, state, names)
    _out_colours(out, state)
    return out


def _to_move(out: Text, state: Blokus3DState, names: Sequence[str] | None) -> None:
    """The colour to move, its chip and its player, appended to ``out``."""
    colour = state.colour_to_move
    assert colour is not None
    out.append(f" {letter(colour)} ", style=block(colour))
    out.append(" ")
    out.append(colour_name(colour), style=ink(colour))
    out.append(f" to move: {player_name(state.game.player_of(colour), names)}")


def _out_colours(out: Text, state: Blokus3DState) -> None:
    """The colours out of the game, appended to ``out`` while it goes on."""
    out_colours = [colour_name(c) for c in range(state.game.colours) if state.is_out(c)]
    if out_colours and not state.over:
        out.append(f" · out: {', '.join(out_colours)}", style="dim")


def colours_lines(state: Blokus3DState, names: Sequence[str] | None = None, short: bool = False) -> Text:
    """The colours' table in a line each: colour, player, score, how many pieces are left (``short``: "7 left"), and
    who is to move."""
    g = state.game
    scores = state.colour_scores()
    winners = state.winners()
    out = Text()
    for colour in range(g.colours):
        player = g.player_of(colour)
        left = state.pieces_left(colour)
        name = names[player] if names and player < len(names) else ""
        if colour:
            out.append("\n")
        out.append(f" {letter(colour)} ", style=block(colour))
        out.append(f" {colour_name(colour):<7}", style=ink(colour))
        out.append(
            f"{player} {name[:12]:<12} score {scores[colour]:>3} · {len(left):>2}"
            + (" left" if short else f" piece{'s' * (len(left) != 1)} left")
        )
        if colour == state.colour_to_move:
            out.append("  ◀ to move", style="bold")
        elif state.over and player in winners:
            out.append("  ★ winner", style="bold")
        elif state.is_out(colour):
            out.append("  out", style="dim")
    return out


def turn_line_compact(state: Blokus3DState, names: Sequence[str] | None = None) -> Text:
    """Whose turn it is, then the game's facts, on one line."""
    out = Text()
    if state.colour_to_move is None:
        out.append("Blokus 3D · game over", style="bold")
    else:
        _to_move(out, state, names)
    out.append(f" · structure {state.game.structure.name} · {len(state.history)} placed", style="dim")
    _out_colours(out, state)
    return out


def pieces_line(state: Blokus3DState, colour: int) -> Text:
    """The names of the colour's pieces not yet placed, on one line."""
    left = state.pieces_left(colour)
    out = Text()
    out.append(f"{colour_name(colour)}'s pieces left: ", style=ink(colour))
    out.append(" ".join(left) if left else "none", style="bold" if left else "dim")
    return out


def more_line() -> RenderableType:
    return Fitting(
        Text("More: 'legend' (the map's signs), 'pieces' (drawn), 'board all' (everything).", style="dim"),
        Text("More: 'legend' (signs), 'pieces' (drawn), 'board all' (all).", style="dim"),
    )


def compact_parts(blokus: Blokus3DState, names: Sequence[str] | None, west: bool) -> Group:
    """The compact board, with the west view or without it ('board all' shows it, said on the last line)."""
    parts: list[RenderableType] = [turn_line_compact(blokus, names)]
    views = [height_map(blokus, True), side_view(blokus, "south", True)]
    if west:
        views.append(side_view(blokus, "west", True))
    parts.append(Columns(views, padding=(0, 2)))
    # at 60 columns "◀ to move" wrapped to "◀ to" / "move": "7 left" there, not "7 pieces left"
    parts.append(Fitting(colours_lines(blokus, names), colours_lines(blokus, names, short=True)))
    if blokus.colour_to_move is not None:
        parts.append(pieces_line(blokus, blokus.colour_to_move))
    if not blokus.over:  # the game-over screen has no prompt left to type them at
        parts.append(more_line() if west else Text(MORE_NO_WEST, style="dim"))
    return Group(*parts)


MORE_NO_WEST = "More: 'legend', 'pieces', 'board all' (the west view too)."


def render_compact(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """``render`` for a short terminal: the turn in one line, the views without spare rows, a line per colour, the
    pieces left by name; the legend and the drawings of the pieces behind commands (said on the last line)."""
    blokus = as_blokus(state)
    whole = partial(compact_parts, blokus, names, True)
    if blokus.over:
        return whole()
    # where the three views stand in two rows (60 columns) and would not leave the prompt on screen (four colours
    # took 22 to 24 rows of 24), the west view gives way
    return FittingRows([whole, partial(compact_parts, blokus, names, False)], SPARE_ROWS)


def legend() -> Text:
    text = Text(style="dim")
    text.append("B2/4 = blue on top of a column 2 cubes high, limit 4 (Y yellow, R red, G green); ")
    text.append("0/4 empty; blank = outside the structure; underlined = the last piece placed. ")
    text.append("Side views: the nearest cube at each level; · room left.")
    return text


def render(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """The turn, the structure from above beside the two side views, the colours' table and the pieces left."""
    blokus = as_blokus(state)
    parts: list[RenderableType] = [turn_line(blokus, names)]
    views = [height_map(blokus), side_view(blokus, "south"), side_view(blokus, "west")]
    parts.append(Columns(views, padding=(0, 3)))
    parts.append(colours_table(blokus, names))
    if blokus.game.colours > blokus.game.players:
        parts.append(players_line(blokus, names))
    if blokus.colour_to_move is not None:
        parts.append(pieces_drawn(blokus, blokus.colour_to_move))
    parts.append(legend())
    return Group(*parts)


# ------------------------------------------------------------------------------------------------ commands


def hint_text(state: Blokus3DState, count: int = HINTS) -> Text:
    colour = state.colour_to_move
    found = hints(state, count)
    if colour is None or not found:
        return Text("No move to suggest: the game is over.")
    total = len(state.legal_moves())
    out = Text()
    out.append(f"Best {len(found)} of {total} moves for ", style="bold")
    out.append(colour_name(colour), style=ink(colour))
    out.append(
        " by what they gain at once (squares on top, +1 for the piece placed) plus what the others lose:\n",
        style="bold",
    )
    width = max(len(str(h.move)) for h in found)
    for rank, hint in enumerate(found, 1):
        out.append(f"  {rank}. {hint.move!s:<{width}}  ")
        out.append(f"{hint.value:+d}", style="bold")
        out.append(f": {gain_words(state, hint)}")
        if rank < len(found):
            out.append("\n")
    return out


def moves_text(state: Blokus3DState, show_all: bool = False) -> RenderableType:
    """A count of the legal moves and some of each piece's (or every one with ``show_all``)."""
    legal = state.legal_moves()
    colour = state.colour_to_move
    if colour is None or not legal:
        return Text("No legal moves: the game is over.")
    head = Text()
    head.append(f"{len(legal)} legal move{'s' * (len(legal) != 1)} for ")
    head.append(colour_name(colour), style=ink(colour))
    if show_all:
        head.append(":")
        return Group(head, Columns([Text(str(move)) for move in legal], padding=(0, 3)))
    by_piece: dict[str, list[Blokus3DMove]] = {}
    for move in legal:
        by_piece.setdefault(move.piece, []).append(move)
    each = max(PER_LINE, SHOWN_MOVES // len(by_piece))  # about SHOWN_MOVES in all, a line of each piece
    head.append(
        f", by piece ({len(by_piece)} piece{'s' * (len(by_piece) != 1)}; type a piece name such as "
        f"{next(iter(by_piece))} for its placements, 'moves all' for every move, 'hint' for suggestions):"
    )
    rows = [(name, len(moves), [str(move) for move in moves[:each]]) for name, moves in by_piece.items()]
    return Group(head, PieceMoves(rows))


class PieceMoves:
    """``moves``' lines: each piece, its count and a few of its moves, PER_LINE to a line, or one to a line for a
    piece whose lines are wider than the console (folded, a move was cut in two between its cells)."""

    def __init__(self, rows: list[tuple[str, int, list[str]]]) -> None:
        self.rows = rows  # (piece, its legal moves, the moves shown)

    @staticmethod
    def lines(name: str, count: int, shown: list[str], per_line: int) -> list[Text]:
        out = []
        for start in range(0, len(shown), per_line):
            line = Text()
            if start == 0:
                line.append(f"  {name:<3}", style="bold")
                line.append(f" {count:>4}  ")
            else:
                line.append(" " * 12)
            line.append("   ".join(shown[start : start + per_line]))
            if start + per_line >= len(shown) and count > len(shown):
                line.append("  …", style="dim")
            out.append(line)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for row in self.rows:
            lines = self.lines(*row, PER_LINE)
            if any(line.cell_len > options.max_width for line in lines):
                lines = self.lines(*row, 1)
            yield from lines


def placements_text(state: Blokus3DState, name: str, show_all: bool = False) -> Text:
    """The legal placements of one piece (the first few, or all)."""
    colour = state.colour_to_move
    if colour is None:
        return Text("The game is over.")
    if name not in state.pieces_left(colour):
        return Text(f"{name}: {colour_name(colour)} has already placed it.")
    moves = [str(move) for move in state.legal_moves() if move.piece == name]
    if not moves:
        return Text(f"{name}: no legal placement for {colour_name(colour)} now.")
    out = Text()
    out.append(f"{name}: {len(moves)} legal placement{'s' * (len(moves) != 1)} for ")
    out.append(colour_name(colour), style=ink(colour))
    out.append(":\n")
    shown = moves if show_all else moves[:SHOWN_PLACEMENTS]
    out.append("\n".join(f"  {move}" for move in shown))
    if len(shown) < len(moves):
        out.append(f"\n  … and {len(moves) - len(shown)} more ('{name} all' lists them all)", style="dim")
    return out


def command(state: State, text: str) -> RenderableType | None:
    """``hint [N]``, ``moves [all | PIECE]``, ``PIECE [all]``, ``pieces``, ``legend``; None for anything else (a move,
    undo, …)."""
    blokus = as_blokus(state)
    words = text.split()
    if not words or len(words) > 2:
        return None
    first = words[0].lower()
    rest = words[1].lower() if len(words) > 1 else ""
    if first in ("hint", "hints"):
        if not rest:
            return hint_text(blokus)
        if ascii_digits(rest) and 1 <= int(rest) <= MAX_HINTS:  # not isdigit(): int("²") raises
            return hint_text(blokus, int(rest))
        return Text(f"Write hint or hint N with N from 1 to {MAX_HINTS}.", style="red")
    if first in ("moves", "m", "legal"):
        if not rest:
            return moves_text(blokus)
        if rest == "all":
            return moves_text(blokus, show_all=True)
        if rest.upper() in PIECES:
            return placements_text(blokus, rest.upper())
        return Text(
            f"{quoted(words[1])} is not a piece: write moves, moves all or moves PIECE ({' '.join(PIECE_NAMES)})."
        )
    if first == "legend" and not rest:
        return legend()
    if first == "pieces" and not rest:
        colour = blokus.colour_to_move
        return Text("The game is over.") if colour is None else pieces_drawn(blokus, colour)
    if first.upper() in PIECES and rest in ("", "all"):
        return placements_text(blokus, first.upper(), show_all=rest == "all")
    return None


def turn_note(state: State) -> str | None:
    colour = as_blokus(state).colour_to_move
    return None if colour is None else colour_name(colour)


# ------------------------------------------------------------------------------------------------ words


def how_to_play(game: Game) -> str:
    g = cast("Blokus3D", game)
    order = ", ".join(colour_name(c) for c in range(g.colours))
    if g.colours > g.players:
        seats = "; ".join(
            f"player {p} plays {' and '.join(colour_name(c) for c in range(g.colours) if g.player_of(c) == p)}"
            for p in range(g.players)
        )
        colours = f"Colours place in turn: {order} ({seats}). "
        # a player's score is the better of their colours (Rumis), never the sum (docs/rules/blokus3d.md, Scoring)
        score = (
            "Score: each colour scores one point for each square whose top cube, seen from above, is that colour, "
            "minus 1 for each of its pieces not placed; your score is your better colour's (not the sum of the two); "
            "the highest score wins."
        )
    else:
        colours = f"Colours place in turn: {order} (player i plays colour i). "
        score = (
            "Score: one point for each square whose top cube, seen from above, is yours, minus 1 for each piece you "
            "have not placed; the highest score wins."
        )
    described = f" ({g.structure.description})" if g.structure.description else ""
    return (
        "How to play Blokus 3D: every colour has the same eleven pieces, every shape of 2 to 4 cubes "
        f"({' '.join(PIECE_NAMES)}; P4, A4 and B4 stand up in 3D). {colours}"
        f"Together you build structure {g.structure.name}{described}. A piece is placed from above and must rest "
        "with no gap under any of its cubes, only on squares of the structure, and no column may rise above its "
        "height limit (the number after the slash on the map). The first piece of the game goes anywhere on the "
        "board; a colour's first piece must lie on the board and touch a face of a piece already placed; every "
        "later piece must touch a face of one of its own colour's pieces, beside it or resting on it (edges and "
        f"corners don't count). A colour that cannot place is out; the game ends when no colour can place. {score} "
        "Type a move as the piece and the cells x,y,z it covers "
        "(x to the east, y to the north, z the level, 0 on the board), in any order, e.g. "
        "T4 3,4,0 4,4,0 4,5,0 5,4,0. Commands: a piece name alone (T4) lists its placements, moves (legal moves "
        "by piece; moves all), hint (the best moves at once; hint 10), pieces (drawn), legend (the map's signs), "
        "board (board all: the whole board on a short terminal), undo, help, quit."
    )


def result_note(state: State) -> str | None:
    """Why the game ended and that the highest score wins; each colour's score when players have two colours, and
    the better of them, which is the player's score."""
    blokus = as_blokus(state)
    g = blokus.game
    if not blokus.over:
        return None
    why = "The game ended because no colour can place another piece; the highest score wins."
    if g.colours == g.players:
        return why
    scores = blokus.colour_scores()
    parts = []
    for player in range(g.players):
        mine = [c for c in range(g.colours) if g.player_of(c) == player]
        terms = ", ".join(f"{colour_name(c)} {scores[c]}" for c in mine)
        # A player's score is the better of their colours (Rumis), never the sum (docs/rules/blokus3d.md, i).
        parts.append(f"player {player} {terms} (the better: {max(scores[c] for c in mine)})")
    return why + " Colour scores: " + "; ".join(parts) + "."


VIEW = GameView(
    render=render,
    how_to_play=how_to_play,
    syntax_hint=None,  # the parser's message says what is wrong (a wrong piece, cell count or shape)
    result_note=result_note,
    human_seat=0,  # blue moves first
    default_agent="mcts:iterations=300",  # Blokus 3D's playouts are slower than Kuzushi's
    command=command,
    turn_note=turn_note,
    compact=render_compact,
)
