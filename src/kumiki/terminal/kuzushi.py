"""Kuzushi in colour: the grid with north up, one colour per player, and the players' tiles and scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kumiki.terminal import GameView
from kumiki.terminal.palette import SEAT_INK, SEAT_PALETTE

if TYPE_CHECKING:
    from kumiki.core.game import Game, State
    from kumiki.games.kuzushi.rules import KuzushiState

PALETTE = SEAT_PALETTE  # per seat: (colour, text on it)
INK = SEAT_INK  # per seat: the colour's brighter ink

CELL = 3  # characters per cell
CITY = "[C]"
FLAG = "▸"
PLAYABLE = " · "
EMPTY = "   "


def base_style(seat: int) -> str:
    colour, text = PALETTE[seat % len(PALETTE)]
    return f"bold {text} on {colour}"


def ink(seat: int) -> str:
    return f"bold {INK[seat % len(INK)]}"


def swatch(seat: int) -> Text:
    """A player's colour as a BASE looks on the board."""
    return Text(f" {seat} ", style=base_style(seat))


def window(state: KuzushiState) -> tuple[int, int, int, int]:
    """The cells worth showing: the tiles' bounding box and one ring around it, as far as the N×N limit allows."""
    min_x, min_y, max_x, max_y = state.bounds()
    if state.over:
        return min_x, min_y, max_x, max_y
    reach = state.game.size - 1
    return (
        max(min_x - 1, max_x - reach),
        max(min_y - 1, max_y - reach),
        min(max_x + 1, min_x + reach),
        min(max_y + 1, min_y + reach),
    )


def cell_text(state: KuzushiState, x: int, y: int, playable: set[tuple[int, int]]) -> Text:
    tile = state.cell(x, y)
    if tile is None:
        return Text(PLAYABLE if (x, y) in playable else EMPTY, style="dim")
    kind, owner = tile
    if kind == "city":
        return Text(CITY, style=base_style(0))
    if kind == "base":
        return Text(f" {owner} ", style=base_style(owner))
    return Text(f"{FLAG}{owner} ", style=ink(owner))


def board(state: KuzushiState) -> Text:
    """The grid, rows from north (top) to south, with x labels below and y labels on the left."""
    lo_x, lo_y, hi_x, hi_y = window(state)
    playable = set(state.playable_cells()) if not state.over else set()
    last = state.history[-1] if state.history else None
    last_xy = (last.x, last.y) if last is not None else None  # type: ignore[attr-defined]
    label = max(len(str(lo_y)), len(str(hi_y)), 2)
    out = Text()
    out.append(" " * (label - 1) + "y\n", style="dim")
    for y in range(hi_y, lo_y - 1, -1):
        out.append(f"{y:>{label}} ", style="dim")
        for x in range(lo_x, hi_x + 1):
            text = cell_text(state, x, y, playable)
            if (x, y) == last_xy:
                text.stylize("underline")
            out.append_text(text)
        out.append("\n")
    out.append(" " * (label + 1))
    for x in range(lo_x, hi_x + 1):
        out.append(f"{x:^{CELL}}", style="dim")
    out.append(" x", style="dim")
    return out


def legend() -> Text:
    text = Text()
    text.append(CITY, style=base_style(0))
    text.append(" CITY (player 0's)  ")
    text.append(" 1 ", style=base_style(1))
    text.append(" BASE  ")
    text.append(f"{FLAG}1", style=ink(1))
    text.append(" FLAG  ")
    text.append(PLAYABLE.strip(), style="dim")
    text.append(" playable")
    return text


def players(state: KuzushiState, names: Sequence[str] | None = None, compact: bool = False) -> Table:
    """Each player's tiles left and score, with who moves (or won); ``compact``: no rule under the headings and the
    marker without its words (◀, ★), 8 columns narrower, so that it fits beside a 10×10 board at 80 columns."""
    g = state.game
    table = Table(box=None if compact else box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column("player", no_wrap=True, overflow="ellipsis", max_width=24)
    if g.teams:
        table.add_column("team", justify="right")
    table.add_column("tiles left", justify="right")
    table.add_column("score", justify="right")
    table.add_column("", no_wrap=True)
    scores = state.scores()
    winners = state.winners()
    for seat, left in enumerate(state.tiles_left()):
        name = names[seat] if names and seat < len(names) else f"player {seat}"
        marker = Text("★" if compact else "★ winner", style="bold") if seat in winners else Text("")
        if seat == state.to_move:
            marker = Text("◀" if compact else "◀ to move", style="bold")
        row: list[RenderableType] = [swatch(seat), Text(name, style=ink(seat))]
        if g.teams:
            row.append(str(g.team_of[seat]))
        row += [str(left), f"{scores[seat]:g}", marker]
        table.add_row(*row)
    return table


def render(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """The board beside the players' table, then the legend."""
    kuzushi: KuzushiState = state  # type: ignore[assignment]
    top = Columns([board(kuzushi), players(kuzushi, names)], padding=(0, 4))
    return Group(top, legend())


def render_compact(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """``render`` for a short terminal (six players' 10×10 grid took 22 rows, at 80 columns too): the players' table
    two lines shorter and narrower, beside the board at 80 columns, under it at 60."""
    kuzushi: KuzushiState = state  # type: ignore[assignment]
    top = Columns([board(kuzushi), players(kuzushi, names, compact=True)], padding=(0, 4))
    return Group(top, legend())


def how_to_play(game: Game) -> str:
    n = game.options["size"]
    tiles = game.options["tiles"]
    city = " The CITY counts as a BASE of player 0 for flags." if game.options["city_counts_as_base"] else ""
    if game.options["majority"] == "more_than_half":
        city += " A FLAG needs more than half of the BASEs around its cell: 2-1-1 gives none."
    teams = ""
    if game.options["teams"]:
        teams = f" Seats play in {game.options['teams']} teams (seat i for team i mod {game.options['teams']})."
        if game.options["team_island"] == "own":
            teams += " Teams tied on tiles: the team of the player with the largest group of their own tiles wins."
    return (
        "How to play Kuzushi: build out from the CITY [C] in the middle (it is player 0's); player 1 moves first. "
        "On your turn either place a BASE from your supply on an empty cell next to any tile "
        "(type B x,y or just x,y; the dots show where you can), or flip one of your FLAGs into a BASE (F x,y). "
        f"All tiles must fit in a {n}×{n} square. "
        "After each move, every empty or flagged cell next to the new BASE goes to whoever has the most BASEs "
        "around it: they get a FLAG there from their supply (on a tie any flag there goes back). "
        f"Each of your {tiles} tiles on the table, BASE or FLAG, is a point, and player 0's CITY is one more. "
        "The game ends when the square is full or someone has no tile left; most points wins, "
        f"a tie goes to the largest connected group.{city}{teams} "
        "x grows to the east, y to the north. "
        "Commands: moves (legal moves), undo, help, quit."
    )


def end_reason(state: KuzushiState) -> str:
    """Why the game ended, in the web app's words: the grid is full, or a player has no tile left."""
    if len(state.to_json()["cells"]) >= state.game.size**2:
        return "the grid is full"
    out = [seat for seat, left in enumerate(state.tiles_left()) if left == 0]
    who = " and ".join(f"player {seat}" for seat in out)
    return f"{who} {'has' if len(out) == 1 else 'have'} no tile left"


def result_note(state: State) -> str | None:
    """Why the game ended, the team scores in a team game, and how a tie on points was broken (the largest
    connected group)."""
    kuzushi: KuzushiState = state  # type: ignore[assignment]
    if not kuzushi.over:
        return None
    g = kuzushi.game
    totals = kuzushi.team_scores()
    notes = [f"The game ended because {end_reason(kuzushi)}; the most points win."]
    if g.teams:
        notes.append("Team scores: " + ", ".join(f"team {t} {score:g}" for t, score in enumerate(totals)) + ".")
    top = max(totals)
    tied = [t for t, score in enumerate(totals) if score == top]
    if len(tied) > 1:
        groups = []
        for t in tied:
            seats = [s for s in range(g.players) if g.team_of[s] == t]
            who = f"team {t}" if g.teams else f"player {t}"
            groups.append(f"{who} {kuzushi.side_island(seats)}")
        group = "one member's largest group of own tiles" if g.teams and g.own_island else "largest connected group"
        notes.append(f"Tied on {top:g} points; the {group} decides: {', '.join(groups)}.")
    return " ".join(notes) or None


VIEW = GameView(
    render=render,
    how_to_play=how_to_play,
    syntax_hint="type a cell such as 2,1, or B x,y to place a BASE, F x,y to flip a FLAG; 'help' explains",
    result_note=result_note,
    compact=render_compact,
)
