"""TowerBrix in colour: the tower layer by layer (top first, seen from above), the cards of the player to move
with ✓/✗ (the thumbs-up helper), the others' card counts, who has said ok, and the score; after each build, the
evaluation with every card revealed.

Hidden information on a shared screen: with one human at the table (solo, or with agents) the board shows that
human's cards. With several humans (hot-seat) the board shows no card text at all; the player to move types
``cards`` to see their own cards and ``hide`` to scroll them off the screen before passing the keyboard.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from kumiki.games.towerbrix.bricks import Brick
from kumiki.games.towerbrix.hint import build_hint
from kumiki.games.towerbrix.text import EMPTY, layers
from kumiki.terminal import Fitting, FittingRows, GameView
from kumiki.terminal.play import HUMAN, SPARE_ROWS

if TYPE_CHECKING:
    from kumiki.core.game import Game, State
    from kumiki.games.towerbrix.rules import TowerBrixState

STYLES = {
    "Y": "bold black on yellow",
    "P": "bold white on magenta",
    "R": "bold white on red",
    "B": "bold white on blue",
    "G": "bold black on white",
}
HIDE_LINES = 60


def as_towerbrix(state: State) -> TowerBrixState:
    return cast("TowerBrixState", state)


def tower_picture(state: TowerBrixState, player: int | None) -> RenderableType:
    """The layers of the tower as ``player`` may see it (the blind player of challenge 10 sees none)."""
    if player is not None and player == state.game.blind:
        return Text("(you cannot see the tower: challenge 10)", style="dim")
    pictures: list[RenderableType] = []
    bricks = state.bricks_in_order()
    if not bricks and state.over and state.evaluations:  # the table is cleared after the last evaluation
        bricks = [Brick.from_json(brick) for brick in state.evaluations[-1]["bricks"]]
        pictures.append(Text("The last tower built:" if bricks else "(the last tower built had no bricks)"))
    for z, rows in layers(bricks, state.game.grid):
        line = Text(f"z={z:g}", style="bold")
        pictures.append(line)
        for row in rows:
            text = Text("  ")
            for mark in row:
                text.append(mark * 2, style=STYLES.get(mark.upper(), "dim") if mark != EMPTY else "dim")
            pictures.append(text)
    if not pictures:
        pictures.append(Text("(no bricks yet: place one with e.g. 'Y1 z 0,0')", style="dim"))
    return Group(*pictures)


class TowerRow:
    """The tower's layers side by side, one character a grid cell, top layer first: as many as fit the console's
    width, then a line naming those left out (``tower`` shows them all)."""

    def __init__(self, state: TowerBrixState, player: int | None) -> None:
        self.state = state
        self.player = player

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        state = self.state
        if self.player is not None and self.player == state.game.blind:
            yield Text("(you cannot see the tower: challenge 10)", style="dim")
            return
        bricks = state.bricks_in_order()
        if not bricks and state.over and state.evaluations:
            bricks = [Brick.from_json(brick) for brick in state.evaluations[-1]["bricks"]]
            yield Text("The last tower built:" if bricks else "(the last tower built had no bricks)")
        drawn = layers(bricks, state.game.grid)
        if not drawn:
            if not bricks:
                yield Text("(no bricks yet: place one with e.g. 'Y1 z 0,0')", style="dim")
            return
        pictures = []
        for z, rows in drawn:
            picture = Text(f"z={z:g}", style="bold")
            for row in rows:
                picture.append("\n")
                for mark in row:
                    picture.append(mark, style=STYLES.get(mark.upper(), "dim") if mark != EMPTY else "dim")
            pictures.append(picture)
        if state.over:  # the last tower: every layer, in as many rows as it takes (no 'tower' to type any more)
            yield Columns(pictures, padding=(0, 2))
            return
        widths = [max(len(row) for row in rows) for _, rows in drawn]
        fit = 0
        used = 0
        for width in widths:
            needed = max(width, 5) + (2 if fit else 0)
            if fit and used + needed > options.max_width:
                break
            used += needed
            fit += 1
        yield Columns(pictures[:fit], padding=(0, 2))
        if fit < len(pictures):
            left = len(pictures) - fit
            yield Text(f"… {left} lower layer{'s' * (left != 1)}: 'tower' shows every layer", style="dim")


def cards_text(state: TowerBrixState, player: int) -> Text:
    """``player``'s cards, each with ✓ or ✗ when the helper is on."""
    view = state.view(player)
    holds: dict[str, bool] = view.get("holds", {})
    text = Text()
    for card_id, face in view["cards"].items():
        mark = ("✓ " if holds[card_id] else "✗ ") if card_id in holds else "  "
        text.append(mark, style="bold green" if holds.get(card_id) else "bold red")
        text.append(f"{card_id} ({face['points']}): {face['text']}\n")
    if not view["cards"]:
        text.append("(no cards)\n", style="dim")
    return text


def _score(state: TowerBrixState, data: dict[str, Any], label: str) -> str:
    """The score so far, with each round's points once a round is scored."""
    rounds = data["round_points"]
    return f"{label} {state.score():g}" + (" (rounds: " + ", ".join(f"{p:g}" for p in rounds) + ")" if rounds else "")


def _table(state: TowerBrixState, data: dict[str, Any]) -> str:
    """Each player's cards by the points on their backs, which everyone sees ("#1 3+2": player 1 holds two cards),
    who said ok since the last edit, and the edits so far. A player is "#1", never "P1", the purple brick's name."""
    return (
        "\nCards (backs): "
        + ", ".join(f"#{i} {'+'.join(map(str, points)) or '-'}" for i, points in enumerate(data["hand_points"]))
        + f" · ok: {' '.join(f'#{i}' for i in data['oks']) or '-'}"
        + f" · edits {data['edits']}/{state.game.options['max_edits']}"
    )


def _verdict(text: Text, data: dict[str, Any]) -> Text:
    if data["verdict"]:
        text.append(f"\n{data['verdict']}", style="bold")
    return text


def status_text(state: TowerBrixState) -> Text:
    data: dict[str, Any] = state.public_view()
    text = Text()
    challenge = state.game.challenge
    if state.over:  # no build goes on: no round, cards, thumbs or edits to tell, only the result
        played = len(data["round_points"])
        text.append(f"Game over after {played} round{'s' * (played != 1)}", style="bold")
        if challenge is not None:
            text.append(f" · challenge {challenge.number} ({challenge.name})")
        text.append("\n" + _score(state, data, "Score"))
        return _verdict(text, data)
    text.append(f"Round {data['round']}/{data['rounds']} · attempt {data['attempt']}", style="bold")
    if data["total"] is not None:
        text.append(f" · card points {data['total']}")
    if challenge is not None:
        text.append(f" · challenge {challenge.number} ({challenge.name}): ")
        text.append(challenge.rule_for(state.game.options))
    text.append(_table(state, data))
    text.append("\n" + _score(state, data, "Score"))
    return _verdict(text, data)


def status_compact(state: TowerBrixState) -> Text:
    """``status_text`` with the score on the round's line (a line fewer), for a short terminal."""
    if state.over:
        return status_text(state)
    data: dict[str, Any] = state.public_view()
    text = Text()
    text.append(f"Round {data['round']}/{data['rounds']} · attempt {data['attempt']}", style="bold")
    if data["total"] is not None:
        text.append(f" · card points {data['total']}")
    text.append(" · " + _score(state, data, "score"))
    challenge = state.game.challenge
    if challenge is not None:
        text.append(f"\nChallenge {challenge.number} ({challenge.name}): ")
        text.append(challenge.rule_for(state.game.options))
    text.append(_table(state, data))
    return _verdict(text, data)


HOT_SEAT = "Hot-seat: type 'cards' to see your cards, 'hide' before passing the keyboard."


def hot_seat(names: Sequence[str] | None) -> bool:
    return bool(names) and sum(1 for n in names or () if n == HUMAN) >= 2


def render(state: State, names: Sequence[str] | None = None) -> RenderableType:
    s = as_towerbrix(state)
    player = s.to_move
    parts: list[RenderableType] = [tower_picture(s, player), status_text(s)]
    if player is not None and not hot_seat(names):
        parts.append(Text(f"Cards of player {player}:", style="bold"))
        parts.append(cards_text(s, player))
    elif player is not None:
        parts.append(Text(HOT_SEAT, style="dim"))
    return Group(*parts)


MORE = "More: 'tower' (the layers full size), 'board all' (everything)."
MORE_NARROW = "More: 'tower' (layers full size), 'board all' (everything)."  # one line at 60 columns


def cards_line(state: TowerBrixState, player: int) -> Text:
    """``player``'s cards on one line, each its ✓/✗, id and points, for a screen with no room for their texts."""
    view = state.view(player)
    holds: dict[str, bool] = view.get("holds", {})
    text = Text(f"Cards of player {player}:", style="bold")
    for place, (card_id, face) in enumerate(view["cards"].items()):
        text.append("," if place else "")
        text.append(" ")
        if card_id in holds:
            text.append("✓ " if holds[card_id] else "✗ ", style="bold green" if holds[card_id] else "bold red")
        text.append(f"{card_id} ({face['points']})")
    text.append("; texts: 'cards'" if view["cards"] else " (no cards)", style="dim")
    return text


SHORTER = 3  # the compact board's shorter forms: the cards on one line, then no line of commands, then no layers


def compact_parts(s: TowerBrixState, names: Sequence[str] | None, step: int) -> Group:
    """The compact board, ``step`` forms shorter: the cards' texts give way to one line of their ids, marks and
    points ('cards' shows the texts), then the line of more commands goes, and at last the tower's layers ('tower'
    shows them)."""
    player = s.to_move
    tower: RenderableType = TowerRow(s, player)
    if step >= SHORTER and s.bricks_in_order():
        tower = Text("(no room for the tower's layers here: 'tower' shows them)", style="dim")
    parts: list[RenderableType] = [tower, status_compact(s)]
    if player is not None and not hot_seat(names):
        if step == 0:
            parts.append(Text(f"Cards of player {player}:", style="bold"))
            cards = cards_text(s, player)
            cards.rstrip()
            parts.append(cards)
        else:
            parts.append(cards_line(s, player))
    elif player is not None:
        parts.append(Text(HOT_SEAT, style="dim"))
    if not s.over and step < 2:  # the game-over screen has no prompt left to type them at
        parts.append(Fitting(Text(MORE, style="dim"), Text(MORE_NARROW, style="dim")))
    return Group(*parts)


def render_compact(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """``render`` for a short terminal: the layers side by side, one character a cell, then the same status and
    cards; what does not fit is behind ``tower`` and ``cards`` (said on the last lines)."""
    s = as_towerbrix(state)
    if s.over:
        return compact_parts(s, names, 0)
    # in no more rows than the terminal has under the prompt: six players at 60 columns took up to 27 rows of 24
    return FittingRows([partial(compact_parts, s, names, step) for step in range(SHORTER + 1)], SPARE_ROWS)


def evaluation_text(evaluation: dict[str, Any], state: TowerBrixState) -> Text:
    """One evaluation: success or why not, and every card revealed with ✓/✗."""
    text = Text()
    title = "The tower meets every card!" if evaluation["success"] else "The attempt failed."
    text.append(f"Evaluation of round {evaluation['round']}, attempt {evaluation['attempt']}: {title}\n", style="bold")
    for problem in evaluation["problems"]:
        text.append(f"  ✗ {problem}\n", style="red")
    for card in evaluation["cards"]:
        face = state.game.cards[card["id"]]
        mark = "✓" if card["holds"] else ("~" if card["id"] == evaluation["waived"] else "✗")
        text.append(f"  {mark} {card['id']} ({card['points']}) of player {card['player']}: {face.text}\n")
    text.append(f"  points {evaluation['points']:g} (bonus {evaluation['bonus']})")
    text.append(" · 'evaluation' shows this again\n", style="dim")
    return text


def after_move(state: State) -> RenderableType | None:
    s = as_towerbrix(state)
    if s.evaluations and s.evaluations[-1]["moves"] == len(s.history):
        return evaluation_text(s.evaluations[-1], s)
    return None


def number(value: float) -> str:
    return f"{value:g}"


def runs(values: Sequence[float], step: float) -> str:
    """``-1..1,2`` for -1, -0.5, 0, 0.5, 1, 2 with ``step`` 0.5: the runs of values ``step`` apart."""
    ordered = sorted(values)
    parts = []
    start = previous = ordered[0]
    for value in [*ordered[1:], None]:
        if value is not None and abs(value - previous - step) < 1e-9:
            previous = value
            continue
        parts.append(number(start) if start == previous else f"{number(start)}..{number(previous)}")
        if value is not None:
            start = previous = value
    return ",".join(parts)


def moves_text(state: TowerBrixState, show_all: bool = False) -> RenderableType:
    """The legal moves grouped: ok and the other moves that place nothing, then the bricks that may be placed and the
    spots offered to each (the same for every one), by axis, as corners x,y; or every move with ``show_all``."""
    legal = state.legal_moves()
    if not legal:
        return Text("No legal moves: the game is over.")
    head = Text(f"{len(legal)} legal move{'s' * (len(legal) != 1)}")
    if show_all:
        head.append(":")
        return Group(head, Columns([Text(str(move)) for move in legal], padding=(0, 3)))
    others, free, spots = state.legal_parts()
    head.append(" (type 'moves all' for every one):")
    lines: list[RenderableType] = [head, Text("  " + "  ".join(str(move) for move in others))]
    if free:
        axis, x, y = spots[0]
        step = state.game.grid
        line = Text("  place ")
        line.append(" ".join(free), style="bold")
        line.append(
            f" (or the other brick of a colour) at any of {len(spots)} spots, as BRICK AXIS x,y, e.g. {free[0]} "
            f"{axis} {number(x)},{number(y)}; the corners by row, x from..to every {number(step)}:"
        )
        lines.append(line)
        for axis in ("x", "y", "z"):
            rows: dict[float, list[float]] = {}
            for a, x, y in spots:
                if a == axis:
                    rows.setdefault(y, []).append(x)
            if rows:
                what = "upright" if axis == "z" else f"flat along {axis}"
                count = sum(len(xs) for xs in rows.values())
                row = Text(f"    {axis} ", style="bold")
                row.append(f"({what}, {count}): ", style="dim")
                row.append("  ".join(f"y={number(y)}: x={runs(xs, step)}" for y, xs in rows.items()))
                lines.append(row)
    return Group(*lines)


def hint_text(state: TowerBrixState) -> Text:
    """``hint``: the next edit towards a tower meeting the cards of the seat to move (its own view only: the game's
    agent reads ``state.view(seat)``), and why; or ``ok`` when they hold on a finished tower. The same words as the
    browser's Hint for the same table (``kumiki.games.towerbrix.hint.build_hint``)."""
    if state.to_move is None:
        return Text("No move to suggest: the game is over.")
    found = build_hint(state)
    what, why = found.words()  # the browser's Hint's words too (``BuildHint.words``)
    if found.move == "ok":
        return Text(f"{what.capitalize()}: {why}.", style="bold green")
    if found.move is None:
        return Text(f"{what.capitalize()}: {why}.", style="yellow")
    out = Text(what, style="bold")
    out.append(f" ({why})")
    return out


def command(state: State, text: str) -> RenderableType | None:
    s = as_towerbrix(state)
    word = " ".join(text.strip().lower().split())
    if word in ("hint", "hints"):
        return hint_text(s)
    if word == "cards" and s.to_move is not None:
        return cards_text(s, s.to_move)
    if word == "hide":
        return Text("\n" * HIDE_LINES)
    if word == "tower":
        return tower_picture(s, s.to_move)
    if word in ("evaluation", "eval"):  # the board drawn under it pushed its top (why the attempt failed) away
        if not s.evaluations:
            return Text("No evaluation yet: the first comes when everyone has said ok since the last edit.")
        return evaluation_text(s.evaluations[-1], s)
    if word in ("moves", "m", "legal"):
        return moves_text(s)
    if word in ("moves all", "m all", "legal all"):
        return moves_text(s, show_all=True)
    return None


# what the tower must use, by the deck's brick rule (TowerBrixState.deck_problems): "all the bricks" with neither deck
TOWER_BRICKS = {
    "green": "all eight coloured bricks (the gray one is not used)",
    "pink": "at least one brick of each of the five colours, gray included (the other bricks as you like)",
}
HOW_TO_BUILD = (
    "TowerBrix: together build one tower that meets every card, with {bricks}; when the build ends its bricks "
    "must all touch, face to face, and the tower must stand on its own (the physics judge decides). Never show "
    "your cards. A turn is one edit or 'ok': "
    "'Y1 z 0,0' places (or moves) brick Y1 upright, its long side along z, with its corner at 0,0, lowered "
    "until it rests ('Y1 x 0,0' or 'Y1 y 0,0' lays it flat along x or y; x east, y north, half units such as "
    "0.5 allowed); '-Y1' takes it away; 'ok' is a thumbs-up. The build ends when everyone has said ok since "
    "the last edit. Commands: cards (your cards), hide (scrolls them away), hint (the next edit towards a tower "
    "meeting your own cards, found by the solver from the bricks on the table; or ok when they hold), moves (the "
    "placements offered: beside the tower, the first brick of each colour; moves all lists every move), tower "
    "(every layer, full size), evaluation (the last evaluation again), board (board all: the whole board on a short "
    "terminal), undo, help, quit."
)
# challenges 9 and 13 with waive="vote": the team names the card to waive, face down, by its seat and place
VOTE_HELP = (
    " 'waive 2.1' votes to waive seat 2's first card (seat, then place in the hand; no edit, at most {votes} votes "
    "an attempt): the card more than half of the seats vote for need not hold."
)


def how_to_play(game: Game) -> str:
    text = HOW_TO_BUILD.format(bricks=TOWER_BRICKS[getattr(game, "bricks_rule", "green")])
    if not getattr(game, "votes_waive", False):
        return text
    from kumiki.games.towerbrix.rules import MAX_VOTES  # the rules' own limit (the game is loaded by now)

    return text + VOTE_HELP.format(votes=MAX_VOTES)


def result_note(state: State) -> str | None:
    """How the game went: a challenge met or not, or the scoring table's word on the score."""
    s = as_towerbrix(state)
    if not s.over:
        return None
    data: dict[str, Any] = s.public_view()
    challenge = s.game.challenge
    if challenge is not None:
        met = bool(data["round_success"]) and all(data["round_success"])
        return f"Challenge {challenge.number} ({challenge.name}) {'met' if met else 'not met'}."
    return str(data["verdict"]) if data["verdict"] else None


def turn_note(state: State) -> str | None:
    s = as_towerbrix(state)
    return "blind: say ok" if s.to_move == s.game.blind else None


VIEW = GameView(
    render=render,
    how_to_play=how_to_play,
    syntax_hint="write a brick, an axis and a corner ('Y1 z 0,0'), '-Y1' or 'ok'",
    human_seat=0,
    default_agent="towerbrix-teammate",
    command=command,
    turn_note=turn_note,
    after_move=after_move,
    result_note=result_note,
    compact=render_compact,
)
