"""Kozo in colour: the tower as one 3×3 slice per level (top level first) and seen from the south and the west,
the tilt margin, the pool, the points of every round and, when the tower falls, the judge's explanation; and the
game's own commands at the prompt (moves by piece, a piece's placements, hint)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kumiki.core.errors import quoted
from kumiki.core.options import ascii_digits
from kumiki.games.kozo.ai import Plan, plan_round
from kumiki.games.kozo.ai import plan_words as ai_plan_words
from kumiki.games.kozo.pieces import CHIMNEY
from kumiki.terminal import Fitting, GameView
from kumiki.terminal.palette import SEAT_INK, SEAT_PALETTE

if TYPE_CHECKING:
    from kumiki.core.game import Game, State
    from kumiki.games.kozo.moves import KozoMove
    from kumiki.games.kozo.rules import Fall, Kozo, KozoState
    from kumiki.geometry.polycube import Cell

PALETTE = SEAT_PALETTE  # per seat: (colour, text on it)
INK = SEAT_INK  # per seat: the colour's brighter ink

CELL = 3  # characters per cell of a slice or a side view
BALANCE = "▪"
CHIMNEY_MARK = "◎"
EMPTY = "·"
MOVED = "!"  # after a piece's name (or a balance cube) in a tower that fell: it is one of the bodies that moved
EMPTY_STYLE = "dim"

# The tilt margin in words: at least STEADY degrees is steady, at least WOBBLY is wobbly, below is a knife edge.
STEADY = 10.0
WOBBLY = 3.0

SHOWN_PLACEMENTS = 15  # a piece's placements shown by `moves PIECE` (all with `moves PIECE all`)
HINTS = 5
MAX_HINTS = 10
HINT_PIECES = 10  # hint tries the largest pieces allowed, at most this many ...
HINT_TRIES = 40  # ... and at most this many moves in all, spread evenly over each piece's moves
HINT_PER_PIECE = 2  # at most this many of the hints place the same piece
ROUND_COLUMNS = 8  # the points table shows at most this many rounds; earlier ones are summed in one column


def block(player: int) -> str:
    """The style of a polycube cube placed by ``player``."""
    colour, text = PALETTE[player % len(PALETTE)]
    return f"bold {text} on {colour}"


def ink(player: int) -> str:
    return f"bold {INK[player % len(INK)]}"


def as_kozo(state: State) -> KozoState:
    return cast("KozoState", state)


def player_name(player: int, names: Sequence[str] | None = None) -> str:
    return f"player {player} ({names[player]})" if names and player < len(names) else f"player {player}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def margin_word(degrees: float) -> str:
    if degrees >= STEADY:
        return "steady"
    if degrees >= WOBBLY:
        return "wobbly"
    return "on a knife edge"


def margin_style(degrees: float) -> str:
    if degrees >= STEADY:
        return "bold green"
    if degrees >= WOBBLY:
        return "bold yellow"
    return "bold red"


# ------------------------------------------------------------------------------------------------ rounds and falls


def round_moves(state: KozoState) -> list[list[tuple[KozoMove, int]]]:
    """Each round's moves with their players, in order (the round's last move may be the one that made it fall)."""
    out = []
    start = 0
    for players in state.last_mover:
        moves = state.history[start : start + len(players)]
        out.append([(cast("KozoMove", move), player) for move, player in zip(moves, players, strict=True)])
        start += len(players)
    return out


def fall_in(state: KozoState, round_number: int) -> Fall | None:
    return next((fall for fall in state.falls if fall.round == round_number), None)


def lost_points(state: KozoState, fall: Fall) -> int:
    """The points the player who made the tower fall had in that round before the fall (they lose them)."""
    moves = round_moves(state)[fall.round]
    return sum(state.game.size[move.piece] for move, player in moves[:-1] if player == fall.player)


def fall_message(state: KozoState, fall: Fall, names: Sequence[str] | None = None) -> Text:
    """``✗ Round 1: the tower fell …``: who, with which move, at which step, what tipped and what they lost."""
    step = "lowering the piece" if fall.step == 1 else "putting down the balance cube"
    out = Text()
    out.append(f"✗ Round {fall.round + 1}: the tower fell", style="bold red")
    out.append(" when ")
    out.append(player_name(fall.player, names), style=ink(fall.player))
    out.append(f" played {fall.move}, at step {fall.step} ({step}): ")
    out.append(fall.explanation, style="bold")
    out.append(".")
    if fall.moving:
        out.append(f" Moving: {', '.join(fall.moving)}.")
    lost = lost_points(state, fall)
    out.append(f" Player {fall.player} scores 0 for the round" + (f" (lost {lost})." if lost else "."))
    return out


# ------------------------------------------------------------------------------------------------ the tower


@dataclass
class Picture:
    """A tower to draw: its polycubes (name, player, cells), balance cubes (cell, player), the bodies that moved
    when it fell and the cells of the last move (underlined)."""

    title: str
    pieces: list[tuple[str, int, tuple[Cell, ...]]]
    balances: list[tuple[Cell, int]]
    moved: set[str] = field(default_factory=set)
    last: set[Cell] = field(default_factory=set)
    fell: Fall | None = None

    def contents(self) -> dict[Cell, tuple[str, int, bool]]:
        """cell -> (piece name or BALANCE, player, moved)."""
        out: dict[Cell, tuple[str, int, bool]] = {}
        for number, (name, player, cells) in enumerate(self.pieces):
            moved = f"{name} #{number + 1}" in self.moved
            for cell in cells:
                out[cell] = (name, player, moved)
        for number, (cell, player) in enumerate(self.balances):
            out[cell] = (BALANCE, player, f"balance cube {number + 1}" in self.moved)
        return out

    def height(self) -> int:
        """The number of levels holding something (at least one: the base's level 0)."""
        return max(
            [z + 1 for _, _, cells in self.pieces for _, _, z in cells]
            + [z + 1 for (_, _, z), _ in self.balances]
            + [1]
        )


def current_picture(state: KozoState) -> Picture:
    pieces = list(state.placed)
    balances = [(cell, pieces[number][1]) for number, cell in enumerate(state.balances)]
    last: set[Cell] = set()
    moves = round_moves(state)
    round_number = min(state.round, len(moves) - 1)
    if moves and moves[round_number]:
        move, _ = moves[round_number][-1]
        last = {*move.cells, move.balance}
    title = f"round {round_number + 1}'s tower"
    return Picture(title, pieces, balances, last=last)


def fallen_picture(state: KozoState, fall: Fall) -> Picture:
    """The tower of ``fall``'s round as it stood when it fell (the falling piece included, and its balance cube if
    the fall came at step 2), with the bodies that moved marked."""
    moves = round_moves(state)[fall.round]
    pieces = [(move.piece, player, move.cells) for move, player in moves]
    balances = [(move.balance, player) for move, player in moves]
    if fall.step == 1:
        balances.pop()
    last_move = moves[-1][0]
    last = set(last_move.cells) | ({last_move.balance} if fall.step == 2 else set())
    title = f"round {fall.round + 1}'s tower as it fell"
    return Picture(title, pieces, balances, set(fall.moving), last, fall)


def picture(state: KozoState) -> Picture:
    """The tower worth drawing: the current one; the one that just fell while the next round's is still empty; at
    the end, the last round's (as it fell, if it did)."""
    finished = state.round - 1
    fall = state.falls[-1] if state.falls else None
    if fall is not None and fall.round == finished and (state.over or not state.placed):
        return fallen_picture(state, fall)
    return current_picture(state)


def cell_text(content: tuple[str, int, bool] | None, chimney: bool, width: int = CELL) -> Text:
    if content is None:
        return Text(f"{CHIMNEY_MARK if chimney else EMPTY:^{width}}", style=EMPTY_STYLE)
    name, player, moved = content
    if name == BALANCE:
        return Text(f"{BALANCE + (MOVED if moved else ''):^{width}}", style=ink(player))
    label = name[: width - 1] if moved else name[:width]
    return Text(f"{label + (MOVED if moved else ''):^{width}}", style=block(player))


def slice_text(
    pic: Picture, z: int, contents: dict[Cell, tuple[str, int, bool]] | None = None, compact: bool = False
) -> Text:
    """Level ``z`` seen from above, north (y = 2) up: each cube's piece (in its player's colour), ``▪`` a balance
    cube, ``◎`` the chimney, ``·`` empty. ``compact``: no x labels under it (the slices' title line gives them)."""
    contents = pic.contents() if contents is None else contents
    out = Text()
    out.append(f"level {z}", style="bold")
    for y in (2, 1, 0):
        out.append(f"\n{y} ", style="dim")
        for x in range(3):
            cell = cell_text(contents.get((x, y, z)), (x, y) == CHIMNEY)
            if (x, y, z) in pic.last:
                cell.stylize("underline")
            out.append_text(cell)
    if not compact:
        out.append("\n  " + "".join(f"{x:^{CELL}}" for x in range(3)), style="dim")
    return out


def slices(pic: Picture) -> list[Text]:
    """One slice per level, the top level first."""
    contents = pic.contents()
    return [slice_text(pic, z, contents) for z in range(pic.height() - 1, -1, -1)]


def side_view(pic: Picture, side: str) -> Text:
    """The tower seen from the south (x from west to east) or from the west (y from north to south): at each level
    of each column of the view, the nearest cube."""
    contents = pic.contents()
    if side == "south":
        lines = [[(x, y) for y in range(3)] for x in range(3)]
        labels = [0, 1, 2]
        title, axis = "from the south", "x (east →)"
    else:
        lines = [[(x, y) for x in range(3)] for y in (2, 1, 0)]
        labels = [2, 1, 0]
        title, axis = "from the west", "y (← north)"
    out = Text()
    out.append(title + "\n", style="bold")
    for z in range(pic.height() - 1, -1, -1):
        out.append(f"{z:>2} ", style="dim")
        for line in lines:
            content = next((c for x, y in line if (c := contents.get((x, y, z))) is not None), None)
            cell = cell_text(content, False)
            if any((x, y, z) in pic.last and contents.get((x, y, z)) == content for x, y in line if content):
                cell.stylize("underline")
            out.append_text(cell)
        out.append("\n")
    out.append("   " + "".join(f"{label:^{CELL}}" for label in labels), style="dim")
    out.append("\n   " + axis, style="dim")
    return out


def tower_compact(pic: Picture) -> RenderableType:
    """The slices alone, four rows each (no x labels: the title says them), top level first; the side views are
    behind the ``sides`` command."""
    title = Text(pic.title, style="bold red" if pic.fell else "bold")
    if not pic.pieces:
        title.append(" (nothing on the base yet)", style="dim")
    title.append(" · levels top first, x 0–2 east, y 0–2 north", style="dim")
    contents = pic.contents()
    levels = [slice_text(pic, z, contents, compact=True) for z in range(pic.height() - 1, -1, -1)]
    return Group(title, Columns(levels, padding=(0, 2)))


def tower_view(pic: Picture) -> RenderableType:
    """The side views, then the slices (as many side by side as fit)."""
    title = Text(pic.title, style="bold red" if pic.fell else "bold")
    if not pic.pieces:
        title.append(" (nothing on the base yet)", style="dim")
    sides = Columns([side_view(pic, "south"), side_view(pic, "west")], padding=(0, 4))
    return Group(title, sides, Text(), Columns(slices(pic), padding=(0, 3)))


def on_the_tower(pic: Picture) -> Text:
    """The pieces of the drawn tower in the order they were placed, each in its player's colour."""
    out = Text("On the tower: ", style="bold")
    if not pic.pieces:
        out.append("nothing yet", style="dim")
        return out
    for number, (name, player, _) in enumerate(pic.pieces):
        if number:
            out.append(" ")
        out.append(f" {name} ", style=block(player))
        out.append(f"P{player}", style=ink(player))
    return out


def margin_line(state: KozoState, pic: Picture, compact: bool = False) -> Text:
    """The tower's tilt margin in words; ``compact``: without the explanations, for a short terminal."""
    out = Text("Tilt margin: ", style="bold")
    if pic.fell is not None:
        out.append("none — the tower fell" if compact else "none — the tower above fell", style="bold red")
        if not state.over and not compact:
            out.append(f"; round {state.round + 1} starts on the empty base", style="dim")
        return out
    if not state.placed:
        out.append("no tower yet", style="dim")
        return out
    degrees = state.margin()
    out.append(f"{degrees:.1f}° — {margin_word(degrees)}", style=margin_style(degrees))
    if not compact:
        out.append(" (how far the table could tilt, the worst way, before something moves)", style="dim")
    return out


# ------------------------------------------------------------------------------------------------ the pool and scores


def pool_text(state: KozoState) -> Text:
    """The pieces left grouped by size; with a size drawn, that group stands out (only those can be played)."""
    g = state.game
    out = Text("Pool: ", style="bold")
    if not state.pool:
        out.append("empty", style="dim")
        return out
    cubes = sum(g.size[name] for name in state.pool)
    out.append(f"{plural(len(state.pool), 'piece')}, {plural(cubes, 'cube')} — ")
    sizes = sorted({g.size[name] for name in state.pool})
    drawn = state.required_size
    for index, size in enumerate(sizes):
        if index:
            out.append(" · ", style="dim")
        names = " ".join(name for name in state.pool if g.size[name] == size)
        if drawn is None:
            out.append(f"size {size}: ", style="dim")
            out.append(names, style="bold")
        elif size == drawn:
            out.append(f"▶ size {size}: {names} ◀", style="bold reverse")
        else:
            out.append(f"size {size}: {names}", style="dim")
    if drawn is not None:
        out.append(f"\nSize drawn: {drawn} — only a piece of {drawn} cubes may be played this turn.", style="bold")
    return out


def points_table(state: KozoState, names: Sequence[str] | None = None) -> Table:
    """One row per player: the points of each round so far (✗ the round they made the tower fall), the total."""
    g = state.game
    started = len(state.points)
    shown = list(range(max(0, started - ROUND_COLUMNS), started))
    earlier = list(range(shown[0])) if shown else []
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("player", no_wrap=True, overflow="ellipsis", max_width=24)
    if earlier:
        table.add_column(f"rounds 1–{len(earlier)}", justify="right")
    for r in shown:
        current = r == state.round and not state.over
        # The headings fold ("round" over "3 ◀") in a narrow terminal, rather than the totals becoming "…".
        table.add_column(f"round {r + 1}" + (" ◀" if current else ""), justify="right")
    table.add_column("total", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    faults = {(fall.round, fall.player) for fall in state.falls}
    scores = state.scores()
    winners = state.winners()
    for player in range(g.players):
        row: list[RenderableType] = [
            Text(f" {player} ", style=block(player)),
            Text(names[player] if names and player < len(names) else f"player {player}", style=ink(player)),
        ]
        if earlier:
            row.append(f"{sum(state.points[r][player] for r in earlier):g}")
        for r in shown:
            value = f"{state.points[r][player]:g}"
            row.append(Text(f"✗ {value}", style="red") if (r, player) in faults else Text(value))
        row.append(Text(f"{scores[player]:g}", style="bold"))
        if player == state.to_move:
            row.append(Text("◀ to move", style="bold"))
        elif player in winners:
            row.append(Text("★ winner", style="bold"))
        else:
            row.append(Text(""))
        table.add_row(*row)
    return table


def header(state: KozoState, names: Sequence[str] | None = None) -> Text:
    g = state.game
    out = Text()
    out.append("Kozo", style="bold")
    facts = [plural(g.players, "player"), plural(g.rounds, "round")]
    if g.random_size:
        facts.append("random size")
    out.append(" · " + " · ".join(facts) + "\n")
    if state.over:
        out.append("game over", style="bold")
        return out
    opener = state.openers[-1]
    out.append(f"Round {state.round + 1} of {g.rounds}", style="bold")
    out.append(f", opened by {player_name(opener, names)} · ")
    return _to_move(out, state, names)


def _to_move(out: Text, state: KozoState, names: Sequence[str] | None) -> Text:
    """Who is to move, and the size drawn in the random-size variant, appended to ``out``."""
    if state.to_move is not None:
        out.append(player_name(state.to_move, names), style=ink(state.to_move))
        out.append(" to move")
        if state.required_size is not None:
            out.append(f" · size drawn: {state.required_size}", style="bold")
    return out


def falls_text(state: KozoState, pic: Picture, names: Sequence[str] | None = None) -> RenderableType | None:
    """The latest fall in full when its round just ended (or is drawn), the earlier ones in a line each."""
    if not state.falls:
        return None
    latest = state.falls[-1]
    fresh = latest.round == state.round - 1 or pic.fell is latest
    lines: list[RenderableType] = []
    earlier = state.falls[:-1] if fresh else state.falls
    for fall in earlier[-3:]:
        line = Text(f"Round {fall.round + 1}: ", style="dim")
        line.append(f"player {fall.player} made the tower fall — {fall.explanation}.", style="dim")
        lines.append(line)
    if fresh:
        lines.append(fall_message(state, latest, names))
    return Group(*lines)


def legend() -> Text:
    text = Text(style="dim")
    text.append(
        f"L4 = a cube of piece L4 in its player's colour; {BALANCE} a balance cube; {CHIMNEY_MARK} the chimney "
    )
    text.append(f"(nothing on or over it); {EMPTY} empty; underlined = the last move; {MOVED} = moved when it fell. ")
    text.append("Slices have north (y = 2) up and x growing east; the side views show the nearest cube at each level.")
    return text


def render(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """The round and whose turn, the tower (side views, slices), its margin, the pool, the points, any fall."""
    kozo = as_kozo(state)
    pic = picture(kozo)
    parts: list[RenderableType] = [header(kozo, names), tower_view(pic), on_the_tower(pic), margin_line(kozo, pic)]
    if not kozo.over:
        parts.append(pool_text(kozo))
    parts.append(points_table(kozo, names))
    fell = falls_text(kozo, pic, names)
    if fell is not None:
        parts.append(fell)
    parts.append(legend())
    return Group(*parts)


def header_compact(state: KozoState, names: Sequence[str] | None = None) -> Text:
    """The round and whose turn it is, on one line."""
    g = state.game
    out = Text()
    if state.over:
        out.append(f"Kozo · game over after {plural(g.rounds, 'round')}", style="bold")
        return out
    out.append(f"Round {state.round + 1}/{g.rounds}", style="bold")
    out.append(f" (opened by player {state.openers[-1]}) · ")
    return _to_move(out, state, names)


def points_line(state: KozoState, names: Sequence[str] | None = None) -> Text:
    """Each player's total and points of each round (✗ the round they made the tower fall), on one line."""
    faults = {(fall.round, fall.player) for fall in state.falls}
    scores = state.scores()
    out = Text("Points: ", style="bold")
    for player in range(state.game.players):
        if player:
            out.append(" · ")
        name = names[player] if names and player < len(names) else f"player {player}"
        out.append(f"{player} {name[:12]}", style=ink(player))
        rounds = ", ".join(
            ("✗" if (r, player) in faults else "") + f"{points[player]:g}" for r, points in enumerate(state.points)
        )
        out.append(f" {scores[player]:g}", style="bold")
        if len(state.points) > 1:
            out.append(f" ({rounds})", style="dim")
    return out


def more_line() -> RenderableType:
    return Fitting(
        Text("More: 'sides' (side views), 'legend' (the signs), 'board all' (everything).", style="dim"),
        Text("More: 'sides', 'legend' (signs), 'board all' (everything).", style="dim"),
    )


def render_compact(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """``render`` for a short terminal: one line for the turn, the levels four rows each side by side, a line each
    for the margin, the pool, the points and a fall; the side views, the legend and the judge's full explanation
    behind commands (said on the last line)."""
    kozo = as_kozo(state)
    pic = picture(kozo)
    parts: list[RenderableType] = [header_compact(kozo, names), tower_compact(pic), on_the_tower(pic)]
    parts.append(margin_line(kozo, pic, compact=True))
    if not kozo.over:
        parts.append(pool_text(kozo))
    parts.append(points_line(kozo, names))
    if kozo.falls:
        fall = kozo.falls[-1]
        line = Text(f"✗ Round {fall.round + 1}: player {fall.player} made the tower fall", style="red")
        if not kozo.over:  # the game-over screen has no prompt left to type a command at
            line.append(" ('falls' says why)", style="dim")
        parts.append(line)
    if not kozo.over:
        parts.append(more_line())
    return Group(*parts)


def falls_all(state: KozoState, names: Sequence[str] | None = None) -> RenderableType:
    """Every fall so far, in full."""
    if not state.falls:
        return Text("The tower has not fallen in this game.")
    return Group(*(fall_message(state, fall, names) for fall in state.falls))


# ------------------------------------------------------------------------------------------------ commands


def by_placement(moves: Sequence[KozoMove]) -> dict[tuple[str, tuple[Cell, ...]], list[Cell]]:
    """The moves grouped by where the polycube goes: (piece, cells) -> the balance cube's possible cells."""
    out: dict[tuple[str, tuple[Cell, ...]], list[Cell]] = {}
    for move in moves:
        out.setdefault((move.piece, move.cells), []).append(move.balance)
    return out


def cells_text(cells: Sequence[Cell]) -> str:
    return " ".join(f"{x},{y},{z}" for x, y, z in cells)


def moves_text(state: KozoState, show_all: bool = False) -> RenderableType:
    """A count of the legal moves, then each piece's placements and moves with an example (or every move)."""
    legal = state.legal_moves()
    if not legal or state.to_move is None:
        return Text("No legal moves: the game is over.")
    head = Text(f"{plural(len(legal), 'legal move')} for ")
    head.append(f"player {state.to_move}", style=ink(state.to_move))
    if show_all:
        head.append(":")
        return Group(head, Columns([Text(str(move)) for move in legal], padding=(0, 3)))
    g = state.game
    by_piece: dict[str, list[KozoMove]] = {}
    for move in legal:
        by_piece.setdefault(move.piece, []).append(move)
    head.append(
        f", by piece ({plural(len(by_piece), 'piece')}"
        + (f" of size {state.required_size}, the size drawn" if state.required_size is not None else "")
        + "). A placement is where the piece comes to rest; each goes with any free balance cube spot.",
    )
    # The counts never give way; on a narrow terminal the example folds between its cells instead (it took all the
    # room, and the counts became "…").
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("piece", no_wrap=True)
    table.add_column("size", justify="right", no_wrap=True)
    table.add_column("placements", justify="right", no_wrap=True)
    table.add_column("moves", justify="right", no_wrap=True)
    table.add_column("for example")
    for name, moves in by_piece.items():
        table.add_row(name, str(g.size[name]), str(len(by_placement(moves))), str(len(moves)), str(moves[0]))
    first = next(iter(by_piece))
    tail = Text(
        f"Type a piece (e.g. {first}) for its placements, 'moves all' for every move, 'hint' for the moves to play.",
        style="dim",
    )
    return Group(head, table, tail)


def placements_text(state: KozoState, name: str, show_all: bool = False) -> Text:
    """A piece's placements, each with the cells its balance cube may go in."""
    g = state.game
    if state.to_move is None:
        return Text("The game is over.")
    if name not in state.pool:
        return Text(f"{name} is already on the tower this round.")
    if state.required_size is not None and g.size[name] != state.required_size:
        return Text(f"{name} has {g.size[name]} cubes; the size drawn is {state.required_size}.")
    groups = by_placement([move for move in state.legal_moves() if move.piece == name])
    if not groups:
        return Text(f"{name}: no placement on the tower now.")
    moves = sum(len(spots) for spots in groups.values())
    out = Text(f"{name}: {plural(len(groups), 'placement')}, {plural(moves, 'move')}. ")
    out.append("Type the piece and its cells, '+' and one of the balance cube's cells:\n", style="dim")
    shown = list(groups.items()) if show_all else list(groups.items())[:SHOWN_PLACEMENTS]
    width = max(len(cells_text(cells)) for (_, cells), _ in shown)
    lines = []
    for (_, cells), spots in shown:
        lines.append(f"  {name} {cells_text(cells):<{width}}  + " + " | ".join(cells_text([s]) for s in spots))
    out.append("\n".join(lines))
    if len(shown) < len(groups):
        out.append(f"\n  … and {len(groups) - len(shown)} more ('{name} all' lists them all)", style="dim")
    return out


@dataclass(frozen=True)
class Hint:
    """A move that keeps the tower standing, and the tilt margin it leaves (None: it ends the round standing); the
    first hint also carries the plan it starts (the rest of the round, see ``kumiki.games.kozo.ai.plan_round``)."""

    move: KozoMove
    margin: float | None
    plan: Plan | None = None


def hint_candidates(state: KozoState) -> list[KozoMove]:
    """The moves ``hint`` tries after the plan's: the largest allowed pieces first (at most HINT_PIECES), each with
    an even share of HINT_TRIES spread over its moves."""
    g = state.game
    by_piece: dict[str, list[KozoMove]] = {}
    for move in state.legal_moves():
        by_piece.setdefault(move.piece, []).append(move)
    pieces = sorted(by_piece, key=lambda name: (-g.size[name], g.names.index(name)))[:HINT_PIECES]
    if not pieces:
        return []
    share = max(1, HINT_TRIES // len(pieces))
    out = []
    for name in pieces:
        moves = by_piece[name]
        step = max(1, len(moves) / share)
        out += [moves[int(i * step)] for i in range(min(share, len(moves)))]
    return out


def margin_after(state: KozoState, move: KozoMove) -> float | None:
    """The tilt margin ``move`` leaves, None when it ends the round (standing)."""
    after = state.copy()
    after.play(move)
    return None if after.round != state.round or after.over else after.margin()


def hints(state: KozoState, count: int = HINTS) -> tuple[list[Hint], int]:
    """The first move of the plan for the rest of the round (the line the game's planner finds that places the most
    cubes standing: a move that looks safe now may leave the last pieces nowhere to stand), then the moves tried
    that keep the tower standing, best margin first (at most HINT_PER_PIECE of one piece); and how many moves were
    tried besides the plan (none when the plan's move is all that was asked for). Among those, a move that ends the
    round standing (the pool empties) comes first."""
    out: list[Hint] = []
    per_piece: dict[str, int] = {}
    plan = plan_round(state)
    if plan.moves:
        first = plan.moves[0]
        out.append(Hint(first, margin_after(state, first), plan))
        per_piece[first.piece] = 1
    if len(out) >= count:  # hint 1 alone: the plan's move
        return out, 0
    tried = hint_candidates(state)
    safe = []
    for index, move in enumerate(tried):
        if out and move == out[0].move:
            continue
        after = state.copy()
        after.play(move)
        if len(after.falls) > len(state.falls):
            continue
        margin = None if after.round != state.round or after.over else after.margin()
        # Margins within 0.1° count as equal, and then the bigger piece (more points) comes first.
        rank = (margin is not None, -round(margin or 0.0, 1), -state.game.size[move.piece], index)
        safe.append((*rank, Hint(move, margin)))
    safe.sort(key=lambda item: item[:4])
    for *_, hint in safe:
        if len(out) >= count:
            break
        if per_piece.get(hint.move.piece, 0) >= HINT_PER_PIECE:
            continue
        per_piece[hint.move.piece] = per_piece.get(hint.move.piece, 0) + 1
        out.append(hint)
    return out[:count], len(tried)


def hint_text(state: KozoState, count: int = HINTS) -> Text:
    if state.to_move is None:
        return Text("No move to suggest: the game is over.")
    found, tried = hints(state, count)
    g = state.game
    pieces = sorted({move.piece for move in hint_candidates(state)}, key=lambda n: (-g.size[n], g.names.index(n)))
    if not found:
        legal = state.legal_moves()
        if tried == len(legal):  # every move was tried: there is nothing smaller or elsewhere to try
            return Text(
                f"None of the {plural(tried, 'legal move')} ({' '.join(pieces)}) keeps the tower standing: "
                "it falls whatever you play.",
                style="yellow",
            )
        smaller = any(g.size[move.piece] < min(g.size[name] for name in pieces) for move in legal)
        where = "a smaller piece" if smaller else "another placement"
        return Text(
            f"None of the {plural(tried, 'move')} tried ({' '.join(pieces)}) keeps the tower standing. "
            f"Try {where}, low down, near the middle.",
            style="yellow",
        )
    out = Text()
    width = max(len(str(h.move)) for h in found)
    for rank, hint in enumerate(found, 1):
        if hint.plan is not None:
            out.append(plan_words(state, hint.plan) + "\n", style="bold")
        elif rank == 1 or found[rank - 2].plan is not None:
            out.append("Moves that keep the tower standing, best tilt margin first ", style="bold")
            out.append(f"({tried} tried among {' '.join(pieces)}):\n", style="dim")
        out.append(f"  {rank}. {hint.move!s:<{width}}  ")
        if hint.margin is None:
            out.append("ends the round standing", style="bold green")
        else:
            out.append(f"{hint.margin:4.1f}° {margin_word(hint.margin)}", style=margin_style(hint.margin))
        out.append(f"  (+{g.size[hint.move.piece]})", style="dim")
        if rank < len(found):
            out.append("\n")
    return out


def plan_words(state: KozoState, plan: Plan) -> str:
    """What the line hint 1 starts places (``kumiki.games.kozo.ai.plan_words``, the browser's Hint's words too)."""
    return f"Hint 1 {ai_plan_words(state, plan)}:"


def command(state: State, text: str) -> RenderableType | None:
    """``hint [N]``, ``moves [all | PIECE]``, ``PIECE [all]``, ``pool``, ``legend``, ``sides``, ``falls``; None for
    anything else (a move, undo, …)."""
    kozo = as_kozo(state)
    words = text.split()
    if not words or len(words) > 2:
        return None
    first = words[0].lower()
    rest = words[1].lower() if len(words) > 1 else ""
    pieces = {name.upper(): name for name in kozo.game.names}
    if first in ("hint", "hints"):
        if not rest:
            return hint_text(kozo)
        if ascii_digits(rest) and 1 <= int(rest) <= MAX_HINTS:  # not isdigit(): int("²") raises
            return hint_text(kozo, int(rest))
        return Text(f"Write hint or hint N with N from 1 to {MAX_HINTS}.", style="red")
    if first in ("moves", "m", "legal"):
        if not rest:
            return moves_text(kozo)
        if rest == "all":
            return moves_text(kozo, show_all=True)
        if rest.upper() in pieces:
            return placements_text(kozo, pieces[rest.upper()])
        return Text(
            f"{quoted(words[1])} is not a piece: write moves, moves all or moves PIECE ({' '.join(kozo.game.names)})."
        )
    if first.upper() in pieces and rest in ("", "all"):
        return placements_text(kozo, pieces[first.upper()], show_all=rest == "all")
    if first == "pool" and not rest:
        return pool_text(kozo)
    if first == "legend" and not rest:
        return legend()
    if first == "sides" and not rest:
        pic = picture(kozo)
        return Columns([side_view(pic, "south"), side_view(pic, "west")], padding=(0, 4))
    if first == "falls" and not rest:
        return falls_all(kozo)
    return None


def turn_note(state: State) -> str | None:
    kozo = as_kozo(state)
    if kozo.over:
        return None
    note = f"round {kozo.round + 1}/{kozo.game.rounds}"
    if kozo.required_size is not None:
        note += f", size {kozo.required_size} drawn"
    return note


def after_move(state: State) -> RenderableType | None:
    """What the move just played led to: a fall (with the judge's explanation) or the end of a round."""
    kozo = as_kozo(state)
    moves = round_moves(kozo)
    ended = next((r for r in range(len(moves) - 1, -1, -1) if moves[r]), None)  # the round of the last move
    if ended is None or ended == kozo.round:
        return None  # no move yet, or its round goes on
    fall = fall_in(kozo, ended)
    out = Text()
    if fall is not None:
        out.append_text(fall_message(kozo, fall))
    else:
        left = len(kozo.game.names) - len(moves[ended])
        why = (
            "every piece is on the tower"
            if not left
            else f"the next player cannot place ({plural(left, 'piece')} left)"
        )
        out.append(f"✓ Round {ended + 1} is over: {why}, and the tower stands.", style="bold green")
    if not kozo.over:
        out.append(f"\nRound {kozo.round + 1} begins, opened by player {kozo.openers[-1]}.", style="bold")
    return out


# ------------------------------------------------------------------------------------------------ words


def how_to_play(game: Game) -> str:
    g = cast("Kozo", game)
    pool = " ".join(f"{name}" for name in g.names)
    cubes = sum(g.size.values())
    variant = (
        " Random size: before each turn a size is drawn "
        + ("as a scoring tile of a piece left (each piece as likely)" if g.size_draw == "tile" else "among those left")
        + ", and you must play a piece of that size ("
        + (
            "if none fits, you draw again among the sizes that fit)."
            if g.no_fit == "redraw"
            else "if none fits, the round ends)."
        )
        if g.random_size
        else ""
    )
    return (
        "How to play Kozo: together you build one tower on a 3×3 base whose centre 1,1 is the chimney (◎): nothing "
        f"may stand on or over it. The pool ({pool}; {cubes} cubes) is shared. On your turn take a piece from the "
        "pool and lower it, in any rotation, straight down over the ring: it comes to rest on the first cubes it "
        "meets and may not come down on a balance cube. Then put a small balance cube (▪) on the top cube of any "
        "column that has none. The physics judge checks the tower after each of the two steps: if it stands, the "
        "piece's cubes are your points; if it falls, you score 0 for the round and the round ends. A round also "
        f"ends when the pool is empty or the player to move cannot place. There are {plural(g.rounds, 'round')}; "
        f"{OPENERS['first' if g.players == 1 else g.opener]}; the most points in all wins.{variant} "
        "Type a move as the piece, the cells x,y,z it fills where it comes to rest (x east, y north, z the level, "
        "0 on the base), '+' and the balance cube's cell, e.g. L4 0,0,0 1,0,0 2,0,0 2,1,0 + 0,0,1. The tilt margin "
        f"says how far the table could tilt before something moves: steady from {STEADY:g}°, wobbly from "
        f"{WOBBLY:g}°, below that on a knife edge. Commands: moves (by piece), a piece name such as L4 (its "
        "placements), hint (first the move that starts the best line found for the rest of the round, then safe "
        "moves with the best margin), pool, sides (the side views), falls (why the tower fell), legend (the signs), "
        "board (board all: the whole board on a short terminal), undo, help, quit."
    )


OPENERS = {  # who opens a round, as the help says it (the option opener); rounds are counted from 1 on the screen
    "rotate": "the rounds are opened in turn: round 1 by player 0, round 2 by player 1, and so on",
    "continue": "the turns go on from round to round (the player after the last one who played opens the next)",
    "first": "player 0 opens every round",
}


def end_reason(state: KozoState) -> str:
    """How the game ended, as the web app says it: after how many rounds, and how the last one ended."""
    rounds = state.game.rounds
    last = rounds - 1
    fall = next((f for f in state.falls if f.round == last), None)
    end = state.ends[-1] if state.ends else {}
    if fall is not None:
        how = f"when player {fall.player} made the tower fall"
    elif not state.pool:
        how = "with every polycube placed"
    elif end.get("size") is not None:  # the variant: polycubes may still fit, but none of the size drawn
        how = f"when the tile drawn was {end['size']} and no polycube of that size fitted"
    else:
        how = "with no polycube left that fits"
    said = f"after 1 round (it ended {how})" if rounds == 1 else f"after {rounds} rounds (the last ended {how})"
    if state.game.players == 1:
        return f"The game ended {said}."
    return f"The game ended {said}; the highest total wins."


def result_note(state: State) -> str | None:
    """How the game ended, and how a tie on points was broken in the later_turn variant."""
    kozo = as_kozo(state)
    if not kozo.over:
        return None
    if kozo.resigned is not None:  # the resignation decided, not the points (describe_result names the winners)
        return None
    why = end_reason(kozo)
    if kozo.game.tiebreak != "later_turn":
        return why
    scores = kozo.scores()
    tied = [p for p, s in enumerate(scores) if s == max(scores)]
    if len(tied) < 2:
        return why
    moved = set(kozo.last_mover[-1]) if kozo.last_mover else set()
    rule = (
        "the one who moved later in the last round wins."
        if moved & set(tied)
        else f"none of them moved in the last round, so the lowest-numbered, player {min(tied)}, wins."
    )
    tie = f"Players {', '.join(map(str, tied))} tied on {max(scores):g} points; {rule}"
    return f"{why} {tie}" if why else tie


VIEW = GameView(
    render=render,
    how_to_play=how_to_play,
    syntax_hint=None,  # the parser's message says what is wrong (the piece, a cell, the shape, the '+')
    result_note=result_note,
    human_seat=0,  # player 0 opens the first round
    default_agent="greedy",  # one ply is about a second a move; MCTS's playouts are slow and fall more often
    command=command,
    turn_note=turn_note,
    after_move=after_move,
    compact=render_compact,
)
