"""What the lobby tells a newcomer about each game: a card (picture, players, length, two lines), a rules summary
in plain words (the full rules as implemented are docs/rules/<game>.md), presets and which options are advanced.

Presentation only: the engines' names, options and defaults stay theirs; a preset is a set of engine options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Preset:
    """A named set of options the form fills in at one click ("Quick game")."""

    name: str
    label: str
    help: str
    options: dict[str, Any]


@dataclass(frozen=True)
class About:
    """One game's lobby card and page."""

    title: str
    tagline: str
    minutes: str
    description: str
    summary: list[tuple[str, list[str]]]  # (heading, paragraphs)
    presets: list[Preset]
    basic: list[str]  # the options shown at once; the others fold under "More options"

    def public(self, name: str) -> dict[str, Any]:
        """The catalog's ``about`` of game ``name``."""
        return {
            "title": self.title,
            "tagline": self.tagline,
            "minutes": self.minutes,
            "description": self.description,
            "picture": f"/cards/{name}.png",
            "summary": [{"heading": h, "paragraphs": p} for h, p in self.summary],
            "presets": [
                {"name": p.name, "label": p.label, "help": p.help, "options": dict(p.options)} for p in self.presets
            ],
            "basic": list(self.basic),
        }


ABOUT: dict[str, About] = {
    "kuzushi": About(
        title="Kuzushi",
        tagline="Claim the land around the city, tile by tile.",
        minutes="10–20 min",
        description=(
            "Lay tiles outward from the central CITY. Every BASE you place plants your flags on the empty cells "
            "around it — and can knock your rivals' flags off the table."
        ),
        summary=[
            (
                "Your turn",
                [
                    "Do one thing: place a BASE on an empty cell next to any tile, or flip one of your own FLAGs "
                    "into a BASE.",
                    "All the tiles must fit in an N×N square (6×6 with two players), wherever it lies: a cell that "
                    "would stretch the square too far cannot be played.",
                ],
            ),
            (
                "Flags",
                [
                    "After a BASE is placed or flipped, each of the four cells beside it is looked at: the player "
                    "with the most BASEs next to that cell gets a FLAG there (any other player's flag goes back to "
                    "its owner). On a tie the cell is left empty.",
                    "BASEs and the CITY never leave the table; flags come and go.",
                ],
            ),
            (
                "The end",
                [
                    "The game ends when the square is full or someone has no tile left. The most tiles on the "
                    "table wins; a tie goes to the largest connected group.",
                ],
            ),
        ],
        presets=[
            Preset("standard", "The box's game", "two players, 19 tiles each, a 6×6 square", {"players": 2}),
            Preset(
                "quick",
                "Quick game",
                "two players, 10 tiles each on a 5×5 square: about 5 minutes",
                {"players": 2, "size": 5, "tiles": 10},
            ),
            Preset("four", "Four in two teams", "partners sit across the table", {"players": 4, "teams": 2}),
        ],
        basic=["players"],
    ),
    "blokus3d": About(
        title="Blokus 3D",
        tagline="Build the structure together; own the view from above.",
        minutes="20–30 min",
        description=(
            "Stack your eleven polycubes into a shared structure. Every piece must touch your own colour, and "
            "the colour on top of the most columns wins."
        ),
        summary=[
            (
                "Your turn",
                [
                    "Place one of your pieces, turned any way, inside the structure's outline and below its "
                    "height limit. No gaps: every cube must rest on a cube or on the board.",
                    "Your first piece touches the board and any piece already placed; every later piece must "
                    "touch a face of your own colour (edges and corners do not count).",
                ],
            ),
            (
                "Going out",
                [
                    "There is no pass: a colour that cannot place a piece is out for the rest of the game.",
                ],
            ),
            (
                "Scoring",
                [
                    "When nobody can place a piece, each colour scores one point for every column whose top "
                    "cube is its colour, minus one for every piece left in hand. The highest score wins.",
                ],
            ),
        ],
        presets=[
            Preset(
                "standard", "The box's game", "two players on structure A, the tower", {"players": 2, "structure": "A"}
            ),
            Preset(
                "rumis",
                "Two colours each",
                "the two-player rule of Rumis: each player plays two colours and scores the better one",
                {"players": 2, "colours_per_player": 2},
            ),
            Preset("four", "Four players", "one colour each, structure C, the steps", {"players": 4, "structure": "C"}),
        ],
        basic=["players", "structure"],
    ),
    "kozo": About(
        title="Kozo",
        tagline="Stack the tower higher — and don't be the one who makes it fall.",
        minutes="15–25 min",
        description=(
            "Polycubes go round a 3×3 tower with an open chimney, each followed by a small balance cube. "
            "Score your piece's cubes; topple the tower and you lose the round's points."
        ),
        summary=[
            (
                "Your turn",
                [
                    "Pick any piece from the shared pool and lower it onto the tower, turned any way, over the "
                    "eight outer columns (never over the chimney in the middle). It stops at its first contact "
                    "and may overhang empty space; it may not come to rest on a balance cube.",
                    "Then put a balance cube on the top of any column, and score your piece's cubes for the round.",
                ],
            ),
            (
                "Falling",
                [
                    "After each placement the physics judge checks whether the tower stands. If it falls, you "
                    "lose every point of this round, and the round ends.",
                ],
            ),
            (
                "The end",
                [
                    "A round ends when the tower falls, the pool is empty or the mover has no legal placement. "
                    "After the last round (three by default) the most points wins.",
                ],
            ),
        ],
        presets=[
            Preset("standard", "The box's game", "two players, three rounds", {"players": 2, "rounds": 3}),
            Preset("quick", "Quick game", "one round", {"players": 2, "rounds": 1}),
            Preset(
                "random",
                "Random sizes",
                "the variant: the size of your piece is drawn each turn",
                {"players": 2, "random_size": True},
            ),
        ],
        basic=["players", "rounds"],
    ),
    "towerbrix": About(
        title="TowerBrix",
        tagline="Build one tower together; everyone holds a secret condition.",
        minutes="15–30 min",
        description=(
            "A cooperative game: each player has hidden cards (\u201cno red brick touches the table\u201d). All "
            "at once, the team builds a single standing tower that meets every card."
        ),
        summary=[
            (
                "The build",
                [
                    "Everyone builds at the same time: place a brick, move one, or take one away. Say 'no' in "
                    "the chat when a teammate's brick breaks one of your cards — but never show your cards.",
                    "When you are happy with the tower, give a thumbs-up. The build ends when everybody's thumb "
                    "is up; any edit puts every thumb down again.",
                ],
            ),
            (
                "The tower",
                [
                    "With the green deck the tower uses all eight coloured bricks (not the gray one); with the "
                    "pink deck, at least one brick of each of the five colours, gray included. It must be "
                    "connected and stand on its own (the physics judge decides).",
                ],
            ),
            (
                "Scoring",
                [
                    "If the tower stands and every card holds, the team scores the cards' points, plus a bonus "
                    "for a tall tower and for touching the table with at most two bricks. A failed attempt is "
                    "replayed with fewer points. Three rounds make a game.",
                ],
            ),
        ],
        presets=[
            Preset(
                "standard",
                "The box's game",
                "base game, green deck, medium cards",
                {"mode": "base", "deck": "green", "difficulty": "medium"},
            ),
            Preset("intro", "First game", "the intro variant: easy 2-point cards only", {"mode": "intro"}),
            Preset("solo", "Solo", "one player, cards face up", {"players": 1, "mode": "solo"}),
        ],
        basic=["players", "mode", "challenge", "difficulty"],  # a challenge is a mode: its number beside it
    ),
}
