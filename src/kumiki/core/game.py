"""The game protocol every game, agent, tool and server speaks.

A game is a small module: a :class:`Game` subclass that declares its facts and options as data, a
:class:`State` subclass with the rules, and a frozen move type whose ``str()`` is the notation. Records, JSON,
the CLI and the agents come from this protocol for free.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kumiki.core.errors import IllegalMove
from kumiki.core.options import Option, resolve_options, whole

if TYPE_CHECKING:
    from kumiki.core.encoding import Encoding


class Move:
    """Base of every game's move type: immutable, hashable, ``str()`` is the notation.

    Games define a frozen, slotted dataclass deriving from it; ``repr()`` is a constructor call.
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What kind of game this is, declared as data (OpenSpiel's GameType, in short)."""

    min_players: int
    max_players: int
    chance: bool = False
    hidden_information: bool = False
    cooperative: bool = False
    max_length: int | None = None


def game_call(name: str, options: Mapping[str, Any]) -> str:
    """The call that loads a game (its ``repr``): ``kumiki.load_game('kozo', players=2)``; also for a game named
    in text and not loaded (another game's state read back)."""
    args = ", ".join(f"{k}={v!r}" for k, v in options.items())
    return f"kumiki.load_game({name!r}, {args})"


class Game(ABC):
    """A game with its options fixed: builds states and parses moves.

    Subclasses set ``name``, ``facts`` and ``option_spec``; ``load_game`` passes the keyword options here.
    """

    name: ClassVar[str]
    facts: ClassVar[GameFacts]
    option_spec: ClassVar[tuple[Option, ...]]

    def __init__(self, /, **options: Any) -> None:
        self._options: dict[str, Any] = resolve_options(self.option_spec, options, f"game {self.name!r}")
        players = self._options.get("players", self.facts.min_players)
        self.players: int = int(players)

    @property
    def options(self) -> dict[str, Any]:
        """Every option with its effective value, as a new dict each time: a caller that changes it (to load a
        variant, ``opts = game.options; opts["size"] = 8``) leaves this game, its ``repr`` and its states' records
        as they were loaded (the values are plain ints, floats, bools, texts and None)."""
        return dict(self._options)

    def __setstate__(self, data: dict[str, Any]) -> None:
        """A game unpickled; one pickled when ``options`` was its attribute (a text OpenSpiel's ``serialize()``
        wrote then, holding a Kumiki state whole) keeps its options as ``_options`` now."""
        if "options" in data and "_options" not in data:
            data = {**data, "_options": data["options"]}
            del data["options"]
        self.__dict__.update(data)

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """The position at the start of a game; every chance event draws from ``seed`` (a whole number; the games
        draw with ``random.Random``, which takes a negative seed as its absolute value: seed -5 deals as 5)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move written as ``text`` in this game's notation; raises MoveSyntaxError if it does not parse."""

    def default_options(self) -> dict[str, Any]:
        """The options a game with the same player count would have by default."""
        base = {"players": self.players} if any(o.name == "players" for o in self.option_spec) else {}
        return resolve_options(self.option_spec, base, f"game {self.name!r}")

    def has_chance(self) -> bool:
        """Whether a game with these options draws anything from its seed (``facts.chance`` says whether any
        option set may; Kozo draws only with ``random_size``)."""
        return self.facts.chance

    def measure_limits(self) -> dict[str, tuple[float, float]]:
        """The smallest and largest value the rules allow, in a game of these options, for each of
        ``State.measures()`` that has them, for ``score`` (any seat's score) and for ``length`` (the moves in a
        game); a bound the rules do not fix is ±inf, a figure not named has none known. The arena cuts a mean's
        interval there: an interval past what any game can give says nothing more. The default knows none."""
        return {}

    def first_mover(self) -> int | None:
        """The seat that makes the first move of the game and keeps that place all game (what a fairness study
        calls "moves first"); None where the opener changes during a game (Kozo's rounds rotate it)."""
        return self.new_state(seed=0).to_move

    @property
    def encoding(self) -> Encoding:
        """The game's fixed action encoding and observation tensor (built once, on first use)."""
        encoding: Encoding | None = self.__dict__.get("_encoding")
        if encoding is None:
            encoding = self.__dict__["_encoding"] = self.make_encoding()
        return encoding

    def make_encoding(self) -> Encoding:
        """Build this game's :class:`~kumiki.core.encoding.Encoding` (games override it)."""
        raise NotImplementedError(f"game {self.name!r} has no action encoding")

    @property
    def num_actions(self) -> int:
        """How many actions the fixed encoding numbers (``kumiki.interop.encode`` gives ``0 … num_actions-1``)."""
        return self.encoding.num_actions

    def __repr__(self) -> str:
        return game_call(self.name, self.options)


class State(ABC):
    """A position and everything needed to go on from it.

    ``to_move`` is the index of the player to act (None once the game is over), ``over`` a bool, and
    ``history`` the list of moves played, as Move. Subclasses keep these as plain attributes for speed.
    """

    game: Game
    to_move: int | None
    over: bool
    history: list[Move]
    seed: int | None
    # The seat that gave the game up (``resign``), else None; a class default, so a game's own state never sets it.
    resigned: int | None = None

    @abstractmethod
    def legal_moves(self, player: int | None = None) -> Sequence[Move]:
        """Every legal move of seat ``player`` (default: ``to_move``), in a deterministic order; [] once the game is
        over or when ``player`` may not act now (see ``actors``).

        Games return a list of their own move type; the base promises a read-only sequence so that a game's list
        (``list[KuzushiMove]``) is a valid override.
        """

    @abstractmethod
    def play(self, move: Move | str, player: int | None = None) -> None:
        """Apply a move (or its notation) for seat ``player`` (default: ``to_move``). Raises IllegalMove with the
        reason, leaving the state untouched (also when ``player`` is not among ``actors``)."""

    def play_unchecked(self, move: Move) -> None:
        """Apply a move the caller knows is legal for ``to_move`` in this very position (one of ``legal_moves()``,
        or an action the encoding's mask of this position allows), skipping the checks ``play`` makes: the
        adapters' step, where the mask has already decided. An illegal move here may corrupt the state (as
        python-chess's ``push``); the default is ``play``."""
        self.play(move)

    @property
    def actors(self) -> list[int]:
        """The seats that may act now: ``[to_move]`` in turn-based play, several in a simultaneous phase (TowerBrix
        with ``turns="free"``, where ``to_move`` is the first of them); [] once the game is over."""
        if self.over or self.to_move is None:
            return []
        return [self.to_move]

    def may_act(self, player: int) -> bool:
        """Whether seat ``player`` is among ``actors``; ValueError if it is no seat of this game."""
        return checked_seat(player, self.game.players) in self.actors

    def require_actor(self, player: int | None, move: object) -> int:
        """The seat that plays ``move``: ``player``, or ``to_move`` when None; IllegalMove when that seat may not
        act now (the game is over, it is another seat's turn, or ``player`` is no seat of this game at all: the
        contract refuses every ``player`` not among ``actors`` with IllegalMove)."""
        if self.over or self.to_move is None:
            raise IllegalMove(f"{move}: the game is over")
        if player is None:
            return self.to_move
        try:
            seat = checked_seat(player, self.game.players)  # an int, also when a numpy integer was given
        except ValueError as error:
            raise IllegalMove(f"{move}: {error}") from None
        if seat not in self.actors:
            raise IllegalMove(f"{move}: it is not player {player}'s turn (player {self.to_move} is to move)")
        return seat

    def resign(self, seat: int) -> None:
        """End the game with ``seat`` giving it up (the server's Resign, a record's ``[Resigned]`` tag), so that a
        resigned game reads as over everywhere: nobody acts and ``winners()`` is every seat not on its side
        (``forfeit_winners``). No rule ended it, so the position stays as played (``to_json``, ``scores``).
        IllegalMove when the game is already over or has a single side (nobody to resign to)."""
        try:
            seat = checked_seat(seat, self.game.players, "seat")
        except ValueError as error:
            raise IllegalMove(f"resign: {error}") from None
        if self.over:
            raise IllegalMove("resign: the game is over")
        if not forfeit_winners(self, seat):
            raise IllegalMove("resign: a game of one side has no one to resign to")
        self.resigned, self.over, self.to_move = seat, True, None

    def move_seats(self) -> list[int] | None:
        """The seat that played each move of ``history``, where the turn order does not tell it (simultaneous play:
        records write it beside each move); None in turn-based play."""
        return None

    def acting(self, player: int) -> State:
        """A copy of the position with ``player``, one of ``actors``, as ``to_move``: where several seats may act
        at once, an agent (which chooses for ``to_move``) is asked for that seat's move on it. ValueError when
        ``player`` may not act now."""
        if not self.may_act(player):  # ValueError for what is no seat at all (True, 1.0, -1): True == 1 in a list
            raise ValueError(f"player {player} may not act now (actors: {self.actors})")
        if player != self.to_move:
            raise ValueError(f"{self.game.name} does not say how player {player} acts out of turn (acting)")
        return self.copy()

    def adds_nothing(self, move: Move | str, player: int) -> bool:
        """Whether ``move`` by ``player`` would change nothing but the history (TowerBrix: an ok its seat has
        already given). Where several seats may act at once, a computer whose move adds nothing waits instead."""
        return False

    def only_waits(self, move: Move | str, player: int) -> bool:
        """Whether, where several seats may act at once, ``move`` says no more than "I wait" (TowerBrix: an ok on a
        tower that cannot pass yet, or one already given): a computer does not play it, it waits for the table to
        change. (A person's such move is played: people may approve what they like.)"""
        return self.adds_nothing(move, player)

    def clock_only(self, move: Move) -> bool:
        """Whether ``move`` is one only a front end's clock plays (TowerBrix's ``time``, when the time is up): a
        server refuses it from a player, who could otherwise end the time at once. The rules accept it from the seat
        a record books it to."""
        return False

    @abstractmethod
    def copy(self) -> State:
        """An independent copy."""

    @abstractmethod
    def scores(self) -> list[float]:
        """One number per player: points so far, or the final score."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning player indexes (several on a shared win); [] while the game is not over."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as a JSON-serialisable dict (each game documents its fields)."""

    def view(self, player: int) -> dict[str, Any]:
        """``to_json()`` as ``player`` may see it. Perfect-information games show everything."""
        checked_seat(player, self.game.players)
        return self.to_json()

    def public_view(self) -> dict[str, Any]:
        """``to_json()`` as a spectator may see it: no player's hidden information (games with secrets override)."""
        return self.to_json()

    def common_view(self) -> dict[str, Any]:
        """What every seat sees (the public information, OpenSpiel's ``private_info=NONE``), the same whoever asks:
        by default ``public_view()``, which holds no player's secrets; a game in which some seat sees less than a
        spectator overrides it (TowerBrix's challenge 10: the blind seat sees no bricks)."""
        return self.public_view()

    def private_view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees beyond ``common_view()`` (OpenSpiel's ``public_info=False``): by default the entries
        of ``view(player)`` that ``common_view()`` has not or has otherwise ({} in a perfect-information game)."""
        common = self.common_view()
        return {key: value for key, value in self.view(player).items() if key not in common or common[key] != value}

    def common_history(self) -> list[str]:
        """The moves so far as every seat saw them, as text: by default every move (``seen_history``'s default); a
        game in which some seat does not see some moves overrides it with what that seat saw."""
        return [str(move) for move in self.history]

    def late_move_refusal(self, move: Move, seen_ply: int, player: int | None = None) -> str | None:
        """Why ``move`` by ``player``, chosen on the position at ply ``seen_ply`` (where several seats act at once,
        moves cross), must not be played now although it is legal: it would mean something else here. None: it
        means the same (the default). A server asks this of a move sent for an earlier ply."""
        return None

    def seen_history(self, player: int) -> list[str]:
        """The moves so far as ``player`` saw them, as text: every move by default; a game in which some seat does
        not see some moves overrides it (an information state must not show them)."""
        checked_seat(player, self.game.players)
        return [str(move) for move in self.history]

    def teams(self) -> list[int]:
        """The side each player plays for (``teams()[i]``); by default every player is a side of their own."""
        return list(range(self.game.players))

    def margins(self) -> list[float]:
        """For each player, their side's score minus the best other side's (0 when there is only one side)."""
        sides = self.teams()
        totals: dict[int, float] = {}
        for player, score in enumerate(self.scores()):
            totals[sides[player]] = totals.get(sides[player], 0.0) + score
        out = []
        for player in range(self.game.players):
            own = totals[sides[player]]
            others = [v for side, v in totals.items() if side != sides[player]]
            out.append(own - max(others) if others else 0.0)
        return out

    def returns(self) -> list[float]:
        """Final reward per player for agents: winners share 1, everyone else 0."""
        winners = self.winners()
        reward = [0.0] * self.game.players
        for w in winners:
            reward[w] = 1.0 / len(winners)
        return reward

    def measures(self) -> dict[str, float]:
        """Figures of the game a designer may want summed over many games (the arena's reports show their means):
        e.g. tiles left, falls, a co-operative team's success. Games override this; the default has none. A figure
        that is 0 or 1 by definition (a rate: the arena gives it Wilson's interval) is named ``success`` or ends
        in ``_held`` (``is_rate_measure``); every other one is a count, never below 0."""
        return {}

    def render(self) -> str:
        """A plain-text picture of the position (games override this with something better)."""
        return repr(self.to_json())

    def __str__(self) -> str:
        return self.render()


def forfeit_winners(state: State, seat: int) -> list[int]:
    """The winners of a game ``seat`` gave up (a forfeit in the arena, a resignation on the server): every seat not
    on its side, who share the win."""
    teams = state.teams()
    return [p for p in range(len(teams)) if teams[p] != teams[seat]]


def as_moves(moves: Sequence[Move]) -> list[str]:
    """The notation of each move."""
    return [str(m) for m in moves]


def is_rate_measure(name: str) -> bool:
    """Whether the measure ``name`` is 0 or 1 by definition (see ``State.measures``)."""
    return name == "success" or name.endswith("_held")


def checked_seat(player: object, players: int, what: str = "player") -> int:
    """``player`` as a seat of a game of ``players``: a whole number (see ``whole``) in range; ValueError naming it
    as ``what`` otherwise."""
    seat = whole(player)
    if seat is None or not 0 <= seat < players:
        raise ValueError(f"{what} {player!r} is not in 0…{players - 1}")
    return seat


def checked_seed(seed: object) -> int | None:
    """``seed`` as a game's seed: None, or a whole number (see ``whole``); anything else (a float, a text, a bool)
    raises ValueError, since a record could not carry it back (its Seed tag is a whole number)."""
    number = whole(seed)
    if number is None and seed is not None:
        raise ValueError(f"a seed is a whole number (or None), not {seed!r}")
    return number
