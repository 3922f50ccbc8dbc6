"""Kumiki's games as OpenSpiel games: ``register()``, then ``pyspiel.load_game("kumiki_kuzushi", {"players": 3})``.

Each game is a pyspiel Python game (as OpenSpiel's own ``open_spiel/python/games``): a ``pyspiel.Game`` whose
parameters are the Kumiki game's options, a ``pyspiel.State`` that holds a Kumiki state, and an observer that gives
the observation tensor of ``game.encoding`` and strings built from ``state.view(player)`` (in a game with hidden
cards also the public part alone, ``private_info=NONE``, and the private part alone: ``PartObserver``). Actions are
the fixed encoding of ``kumiki.interop.encode``. Needs the extra: ``pip install "kumiki[openspiel]"``.

- Chance (Kozo's random sizes, TowerBrix's deals) is sampled inside the game from a seed (OpenSpiel's
  ``SAMPLED_STOCHASTIC``): the game parameter ``seed`` and the count of initial states made so far give each game's
  seed, so runs repeat. A search that clones states sees the same future draws, as with any sampled game.
- Returns: a competitive game is zero-sum: winners share ``+1``, the others ``-1/(n-1)`` each; with two players win
  ``+1``, loss ``-1``, draw ``0``. TowerBrix (co-operative) gives every seat the team's score; a solo Kozo game the
  player's points.
- A parameter written ``-1`` (numbers) or ``""`` (text) takes the game's own default where that depends on other
  options (Kuzushi's ``size``) or is "none" (Kuzushi's ``teams``, TowerBrix's ``total``).
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_left
from typing import Any

import numpy as np

from kumiki.agents.base import Agent, require_moves
from kumiki.core.errors import IllegalMove
from kumiki.core.game import Game, Move, State, game_call
from kumiki.core.options import Option
from kumiki.core.registry import game_class, load_game
from kumiki.core.registry import games as registered_games
from kumiki.interop import check_action_count
from kumiki.interop.refusal import refusal
from kumiki.interop.utility import utilities, utility_range

try:
    import pyspiel  # type: ignore[import-not-found,unused-ignore]
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f'kumiki.interop.openspiel needs OpenSpiel: pip install "kumiki[openspiel]" (the open_spiel package; {error})'
    ) from None

GAMES = ("kuzushi", "blokus3d", "kozo", "towerbrix")
_READING = threading.local()  # ``active`` while this thread's deserialize_state makes its throwaway initial state

_LONG_NAMES = {"kuzushi": "Kuzushi", "blokus3d": "Blokus 3D", "kozo": "Kozo", "towerbrix": "TowerBrix"}
UNSET_NUMBER = -1
UNSET_TEXT = ""


def short_name(game: str) -> str:
    """The name OpenSpiel knows a Kumiki game by: ``kumiki_<game>``."""
    return f"kumiki_{game}"


def _parameter_default(option: Option) -> Any:
    if callable(option.default) or option.default is None:
        if option.type is str:
            return UNSET_TEXT
        return option.type(UNSET_NUMBER)
    return option.type(option.default)


def parameters(game: str) -> dict[str, Any]:
    """The OpenSpiel parameters of a Kumiki game: each option with its default, and ``seed`` if it has chance."""
    cls = game_class(game)
    spec = {o.name: _parameter_default(o) for o in cls.option_spec}
    if cls.facts.chance:
        spec["seed"] = 0
    return spec


def _is_json_object(value: object) -> bool:
    """Whether ``value`` is the text of a JSON object (Kozo's ``pieces``), not a name or a path."""
    if not isinstance(value, str) or not value.lstrip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(value), dict)
    except ValueError:
        return False


def game_string_value(value: Any) -> Any:
    """A text parameter as the game keeps it for OpenSpiel's game string: a JSON object (Kozo's ``pieces``) with
    ``;`` for each comma. pyspiel splits a game string's parameters at commas, so ``str(game)`` with the JSON as
    written was no game string (``load_game(str(game))``, ``serialize_game_and_state`` failed with "Unknown
    parameter"); no such JSON holds a ``;`` of its own (a piece's name is letters, digits and ``_``)."""
    return value.replace(",", ";") if "," in str(value) and _is_json_object(value) else value


def options_from(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """The Kumiki options of OpenSpiel parameters (an unset parameter takes the game's default; a JSON object
    written with ``;`` for its commas, as a game string keeps it, is read with its commas)."""
    cls = game_class(game)
    out: dict[str, Any] = {}
    for option in cls.option_spec:
        if option.name not in params:
            continue
        value = params[option.name]
        unset = callable(option.default) or option.default is None
        if unset and value in (UNSET_NUMBER, UNSET_TEXT) and not isinstance(value, bool):
            continue
        if isinstance(value, str) and ";" in value and _is_json_object(value.replace(";", ",")):
            value = value.replace(";", ",")  # as game_string_value wrote it
        out[option.name] = value
    return out


INT_RANGE = (-(2**31), 2**31 - 1)  # pyspiel's int parameters are C ints: a larger Python int fails to convert


def typed_parameters(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` in the types pyspiel registered them with, which pyspiel checks (before Kumiki sees them) type for
    type: an int for a float parameter (``box_short=7``) is that float, a whole float for an int parameter
    (``players=3.0``) that int. Anything else of another type, or an int beyond 32 bits (which pyspiel cannot
    convert), is a ValueError naming the parameter; a bool is no number here (as in Kumiki's options); a numpy
    scalar counts as the Python value it holds (pyspiel took ``np.float64`` as a float); ``None`` for an option that
    may be none (Kuzushi's ``teams``, TowerBrix's ``total``) is its unset value, so ``load(name, **game.options)``
    loads the game of ``game`` (it failed: "parameter 'teams' is a whole number ..., not None"). Names the
    game does not know are left to pyspiel, whose error lists the parameters."""
    spec = parameters(game)
    nullable = {o.name for o in game_class(game).option_spec if o.nullable}
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, np.generic):  # np.float64(7.0), np.int64(3) from a sweep: the Python number it holds
            value = value.item()
        default = spec.get(name)
        kind = type(default)
        if value is None and name in nullable:  # Kumiki's "none" (teams=None, total=None), as game.options holds it
            value = default  # the parameter's unset value (-1 or ""), which is "none" again
        if default is None or type(value) is kind:
            out[name] = value
        elif kind is float and type(value) is int:
            out[name] = float(value)
        elif kind is int and type(value) is float and value.is_integer():
            out[name] = int(value)
        else:
            what = {bool: "true or false", int: "a whole number", float: "a number", str: "a text"}[kind]
            raise ValueError(f"{short_name(game)}: parameter {name!r} is {what} (default {default!r}), not {value!r}")
        if type(out[name]) is int and not INT_RANGE[0] <= out[name] <= INT_RANGE[1]:
            raise ValueError(f"{short_name(game)}: parameter {name!r} must fit in 32 bits for pyspiel, not {value!r}")
    return out


def _game_type(kgame: Game) -> Any:
    """The pyspiel GameType of a loaded Kumiki game, as its options make it: chance only where it draws (Kozo with
    random sizes, TowerBrix), zero-sum unless co-operative (TowerBrix: identical) or solo (general-sum points),
    imperfect information only where a seat's cards are hidden from another (TowerBrix with two seats or more; a
    lone TowerBrix player holds every card), which also provides its factored observation strings (the public and the
    private part of a seat's view, ``PartObserver``). ``register()`` registers the type of the game with its
    defaults."""
    name = kgame.name
    facts = kgame.facts
    modes = pyspiel.GameType.ChanceMode
    information = pyspiel.GameType.Information
    if facts.cooperative:
        utility = pyspiel.GameType.Utility.IDENTICAL
    elif kgame.players == 1:
        utility = pyspiel.GameType.Utility.GENERAL_SUM  # a solo game scores points
    else:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    hidden = facts.hidden_information and kgame.players > 1
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Kumiki {_LONG_NAMES.get(name, name)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=modes.SAMPLED_STOCHASTIC if kgame.has_chance() else modes.DETERMINISTIC,
        information=information.IMPERFECT_INFORMATION if hidden else information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts.max_players,
        min_num_players=facts.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=hidden,  # the public and the private part of a seat's view, apart
        parameter_specification=parameters(name),
    )


class _Held:
    """The Kumiki state inside a pyspiel state. OpenSpiel clones a Python state by deep-copying its attributes;
    this copies the position with ``state.copy()`` and shares the game (its tables are read-only).

    It also keeps the mover's legal actions of the position last asked for, ``(moves played, actions)``, so that
    ``apply_action`` checks an action against them without listing them again (a search asks for them, then
    applies one to a clone, which shares the list: it is never changed).

    ``replayable`` (the constructor's): the state is its game's start with its seed, then the actions of OpenSpiel's
    history (a state of ``new_initial_state``), so it pickles as a ``_Replay`` of a few bytes (``serialize()``)
    instead of the Kumiki state with its game and tables (tens of kilobytes); any other (``state_from``, a resampled
    deal) pickles whole. ``played`` is the length of the history ``play`` left (None: not replayable): a Kumiki state
    played or resigned directly (``kumiki_state.play``) is no longer its history replayed, and pickles whole too (its
    replay was another position, a move short or not resigned)."""

    __slots__ = ("_legal", "begun", "played", "state")

    def __init__(self, state: State, legal: tuple[int, list[int]] | None = None, replayable: bool = False) -> None:
        self.state = state
        self._legal = legal
        self.played: int | None = len(state.history) if replayable else None
        self.begun: int | None = None  # new_initial_state's count of games begun, this one included (not copied)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        copy = _Held(self.state.copy(), self._legal)
        copy.played = self.played
        return copy

    def __setstate__(self, saved: tuple[Any, dict[str, Any]]) -> None:
        """A ``_Held`` pickled with its slots, as ``serialize()`` wrote it before it wrote the history: its Kumiki
        state, held as any not replayed (the slots added since were missing, and its ``clone()`` failed)."""
        self.state, self._legal, self.played, self.begun = saved[1]["state"], None, None, None

    def replays(self) -> bool:
        """Whether the state is its game's start with its seed and then OpenSpiel's history (a ``_Replay``)."""
        return self.played == len(self.state.history) and self.state.resigned is None

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.state
        if self.replays():
            return _Replay, (state.game.name, state.game.options, getattr(state, "seed", None), len(state.history))
        return _Held, (state,)

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move (ascending), listed once a position."""
        state = self.state
        ply = len(state.history)
        legal = self._legal
        if legal is None or legal[0] != ply:
            legal = self._legal = (ply, state.game.encoding.legal_actions(state))
        return legal[1]

    def play(self, action: int) -> None:
        """Play ``action`` if it is among ``legal_actions()``, else raise IllegalMove saying why (ValueError for one
        out of range)."""
        state = self.state
        if state.over:  # before decoding: an action read on a finished board can fail as another move (Kozo)
            raise IllegalMove(f"action {action}: the game is over")
        legal = self.legal_actions()
        at = bisect_left(legal, action)
        if at == len(legal) or legal[at] != action:
            state.game.encoding.check_action(action)  # out of range: the one-line ValueError decode gives
            raise IllegalMove(refusal(state, action))
        state.play_unchecked(state.game.encoding.decode(action, state))  # the list has checked it
        if self.played is not None:
            self.played = len(state.history)


class _Refused(ValueError):
    """Text ``deserialize_state`` does not read, its message the one-line ValueError the game gives."""


class _Replay:
    """What a replayable ``_Held`` pickles as: its game's name and options, the seed and the count of moves. Set on
    a pyspiel state (``deserialize_state``: pyspiel sets the pickled attributes after reading the history), it is
    rebuilt into the ``_Held`` of the game's start with that seed, the history's actions played on the state's OWN
    Kumiki game, whose encoding's objects (Kozo's placements) the moves then share."""

    __slots__ = ("name", "options", "plies", "seed")

    def __init__(self, name: str, options: dict[str, Any], seed: int | None, plies: int) -> None:
        self.name, self.options, self.seed, self.plies = name, options, seed, plies

    def __reduce__(self) -> tuple[Any, ...]:
        return _Replay, (self.name, self.options, self.seed, self.plies)

    def rebuilt(self, state: KumikiState) -> _Held:
        """The Kumiki state of ``state``'s game played by ``state.history()``; ``_Refused`` if it is no state of that
        game (ValueError naming both games) or the history does not replay (an illegal action, too many or few)."""
        game = state.get_game()
        mine: Game = game.kumiki_game
        label = short_name(game.name_of_game)
        if self.name != mine.name or self.options != mine.options:
            theirs = game_call(self.name, self.options)
            raise _Refused(f"{label}: deserialize_state reads a state of this game ({mine!r}), not of {theirs}")
        actions = state.history()
        if len(actions) != self.plies:
            raise _Refused(
                f"{label}: not a state serialize() wrote (a history of {len(actions)} actions, not {self.plies})"
            )
        held = _Held(mine.new_state(seed=self.seed), replayable=True)
        for ply, action in enumerate(actions):
            try:
                held.play(action)
            except ValueError as error:  # IllegalMove is one
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                raise _Refused(f"{label}: not a state serialize() wrote (move {ply + 1}: {reason})") from None
        return held


class KumikiGame(pyspiel.Game):  # type: ignore[misc]
    """A Kumiki game seen by OpenSpiel; ``kumiki_game`` is the Kumiki ``Game``."""

    name_of_game = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        name = self.name_of_game
        kgame = load_game(name, **options_from(name, params))
        check_action_count(kgame)
        params = {key: game_string_value(value) for key, value in params.items()}  # str(game) must load again
        low, high, total = utility_range(kgame)
        info = pyspiel.GameInfo(
            num_distinct_actions=kgame.num_actions,
            max_chance_outcomes=0,
            num_players=kgame.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=kgame.encoding.max_length(),
        )
        super().__init__(_game_type(kgame), info, params)
        self.kumiki_game = kgame
        self.seed = int(params.get("seed", 0))
        self.started = 0
        self.observer = Observer(kgame, False, None)  # the observation tensor's shape (OpenSpiel's default observer)

    def observation_tensor_shape(self) -> list[int]:
        """The shape of a seat's observation tensor. pyspiel's (for a Python game) wrote the tensor of a new initial
        state to learn it, at every ``state.observation_tensor()`` too: each counted as a game begun."""
        return [int(n) for n in self.observer.dict["observation"].shape]

    def observation_tensor_size(self) -> int:
        """The number of values of a seat's observation tensor (``observation_tensor_shape``)."""
        return int(self.observer.tensor.size)

    def information_state_tensor_shape(self) -> list[int]:
        """Empty: there is no information-state tensor (the game type says so), with no new initial state made."""
        return []

    def information_state_tensor_size(self) -> int:
        """0: there is no information-state tensor (``information_state_tensor_shape``)."""
        return 0

    def new_initial_state(self, *args: Any) -> KumikiState:
        """The start of a new game (with chance, the next seed of this game's sequence)."""
        seed = begun = None
        if self.kumiki_game.has_chance():
            seed = (self.seed * 1_000_003 + self.started) % 2**31
            if not getattr(_READING, "active", False):  # deserialize_state's throwaway state is no game begun
                self.started = begun = self.started + 1  # taken before the deal: one begun meanwhile counts after
        state = KumikiState(self, self.kumiki_game.new_state(seed=seed), replayable=True)
        state._held.begun = begun
        return state

    def state_from(self, state: State) -> KumikiState:
        """A pyspiel state holding a copy of a Kumiki ``state`` of this game (for OpenSpiel bots in Kumiki);
        ValueError for a state of another game or other options (see ``_check_game``)."""
        self._check_game(state, "state_from takes")
        return KumikiState(self, state.copy())

    def _check_game(self, state: object, what: str) -> None:
        """ValueError unless ``state`` is a Kumiki state of this very game: one of another game, or of other options
        (a 3-player Kuzushi read by the 2-player game), would be held as if it were, its returns one per seat of its
        own game and its actions numbered by its own encoding."""
        mine = self.kumiki_game
        if not isinstance(state, State):
            raise ValueError(f"{short_name(self.name_of_game)}: {what} a Kumiki state, not a {type(state).__name__}")
        theirs = state.game
        if theirs is not mine and (theirs.name != mine.name or theirs.options != mine.options):
            raise ValueError(
                f"{short_name(self.name_of_game)}: {what} a state of this game ({mine!r}), not of {theirs!r}"
            )

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer | PartObserver:
        """The observer OpenSpiel asks for: observation (or, with perfect recall, information state) of a seat.

        Where a seat holds cards the others do not see (the game type's imperfect information: TowerBrix with two
        seats or more) it is by default the seat's own view, public information and its own cards. The public part
        alone (``private_info=NONE``, which OpenSpiel's playthroughs ask for) is what every seat sees, the same
        whoever asks; the private part alone (``public_info=False``) what the seat sees beyond it (``PartObserver``).
        Every seat's cards (``ALL_PLAYERS``), which no seat sees, or nothing at all, is a ValueError. A game without
        hidden cards has one view, whatever the kind."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        hidden = self.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if not hidden or iig_obs_type is None:
            return Observer(self.kumiki_game, perfect_recall, params)
        public, private = bool(iig_obs_type.public_info), iig_obs_type.private_info
        own, none = pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE
        if public and private == own:
            return Observer(self.kumiki_game, perfect_recall, params)
        reason = None
        if private not in (own, none):
            reason = "no seat sees every seat's cards"
        elif not public and private == none:
            reason = "that observes nothing"
        elif self.kumiki_game.encoding.public_layout is None:
            reason = "the game does not split its observation"  # a future game with secrets and no split
        if reason is not None:
            raise ValueError(
                f"{short_name(self.name_of_game)} observes a seat's own view (public_info=True, private_info="
                "SINGLE_PLAYER), its public part (private_info=NONE) or its private part (public_info=False), not "
                f"public_info={public}, private_info={private.name}: {reason}"
            )
        return PartObserver(self.kumiki_game, public, perfect_recall, params)

    def deserialize_state(self, text: str) -> KumikiState:
        """The state ``serialize()`` wrote. A state played from a new initial state serializes as OpenSpiel's own
        games do, as its history (and the seed its draws come from: a game with sampled chance reads back whole),
        and is read back by playing the actions again on this game (``_Replay``); one made otherwise
        (``state_from``, ``resample_from_infostate``) as the Kumiki state pickled. pyspiel fills a new initial state,
        which in a game with chance would count as a game begun: it is not counted (on this thread only, so a game
        another thread begins meanwhile still counts), and the next game has the deal it would have had.

        A state another game (or the same game with other options) serialized is a ValueError naming both games.
        Text that is no serialized state (an action the history cannot have played among them) is a one-line
        ValueError too, not pyspiel's check or pickle's error."""
        name = short_name(self.name_of_game)
        if not isinstance(text, str):
            raise ValueError(f"{name}: deserialize_state reads the text serialize() wrote, not a {type(text).__name__}")
        outer, _READING.active = getattr(_READING, "active", False), True
        try:
            state: KumikiState = super().deserialize_state(text)
        except _Refused as error:  # the replay's own one-line reason
            raise ValueError(str(error)) from None
        except Exception as error:  # pyspiel's checks of the three lines, base64, unpickling: any error of bad text
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ValueError(f"{name}: not a state serialize() wrote ({reason})") from None
        finally:
            _READING.active = outer
        held = getattr(state, "_held", None)
        self._check_game(held.state if isinstance(held, _Held) else None, "deserialize_state reads")
        actions = len(state.history())
        # text whose attributes hold no state leaves the new initial state's, under a history it never played
        if isinstance(held, _Held) and held.played is not None and held.played != actions:
            raise ValueError(f"{name}: not a state serialize() wrote (a history of {actions} actions, no state)")
        return state

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling, as OpenSpiel's own Python games pickle (multiprocessing, Ray): loaded again from its parameters,
        registered first, so that a process which never called ``register()`` reads it too."""
        return _load_registered, (self.name_of_game, dict(self.get_parameters()), self.started)


class KumikiState(pyspiel.State):  # type: ignore[misc]
    """A position of a Kumiki game as a pyspiel state; ``kumiki_state`` is the Kumiki ``State``."""

    def __init__(self, game: KumikiGame, state: State, replayable: bool = False) -> None:
        super().__init__(game)
        self._held = _Held(state, replayable=replayable)

    def __setattr__(self, name: str, value: Any) -> None:
        """pyspiel's ``deserialize_state`` sets the attributes ``serialize()`` pickled, after the history: a
        ``_Replay`` is rebuilt here, on this state's own game, by playing that history again."""
        if isinstance(value, _Replay):
            value = value.rebuilt(self)
        if name == "_held":
            # pyspiel's clone() (and child(), and every search) and deserialize_state make a new initial state and
            # then set the copied attributes: that state was no game begun, and the next game keeps its deal (the
            # count of games begun went up with every clone, so a search changed the deals of the games after it)
            old = self.__dict__.get("_held")
            if old is not None and old.begun is not None:
                game = self.get_game()
                if game.started == old.begun:
                    game.started -= 1
        super().__setattr__(name, value)

    @property
    def kumiki_state(self) -> State:
        return self._held.state

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling: the game's parameters, OpenSpiel's history and the held state (a ``_Replay`` of a few bytes
        where the history replays it, else the Kumiki state, which pickles with its seeded draws to come); read back
        in a process that never called ``register()``."""
        game = self.get_game()
        params = dict(game.get_parameters())
        held = self._held
        if not held.replays():  # pyspiel's own text keeps OpenSpiel's history of a state held whole (state_from)
            return _deserialized_state, (game.name_of_game, params, self.serialize())
        return _restored_state, (game.name_of_game, params, held, self.history())

    def _seat(self, player: int | None, what: str) -> int:
        """``player``, or the seat to move if None; ValueError unless a seat of the game."""
        seat = self.current_player() if player is None else player
        players = self._held.state.game.players
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < players:
            raise ValueError(f"{what}: player is a seat 0…{players - 1}, not {seat!r}")
        return int(seat)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player`` (the seat to move if None), flat, as pyspiel's: the tensor the
        game's default observer writes, for this state alone. pyspiel's made a new initial state first to learn the
        tensor's size (``observation_tensor_shape``), so every call counted as a game begun and changed the next
        game's deal.
        Written into an array of its own, not the game's observer's: states of one game observed from several
        threads read each other's tensors from that shared buffer."""
        seat = self._seat(player, "observation_tensor")
        tensor = self.get_game().kumiki_game.encoding.observe(self._held.state, seat)
        values: list[float] = np.asarray(tensor, np.float32).ravel().tolist()  # as the observer's float32 tensor
        return values

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Empty: there is no information-state tensor (the game type says so)."""
        self._seat(player, "information_state_tensor")
        return []

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's TERMINAL once the game is over."""
        state = self._held.state
        if state.over or state.to_move is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.to_move

    def _legal_actions(self, player: int) -> list[int]:
        state = self._held.state
        if state.over or player != state.to_move:
            return []
        return self._held.legal_actions()

    def _apply_action(self, action: int) -> None:
        """Play ``action`` if it is among ``legal_actions()``, else raise IllegalMove saying why. ``play()`` alone
        would take some TowerBrix actions the list leaves out (a brick moved in one edit, a placement touching no
        brick, ``time``), which PettingZoo and Gymnasium refuse: the same actions are legal in every adapter."""
        self._held.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._held.state
        try:
            return str(state.game.encoding.decode(action, state))
        except ValueError:
            return f"action {action}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KumikiState:
        """OpenSpiel's ``ResampleFromInfostate``, which IS-MCTS asks for: a new state that ``player_id`` cannot tell
        from this one (the same information state string, observation and legal actions), whose part hidden from it
        is drawn at random from what its view allows, ``probability_sampler()`` (a number in [0, 1), as OpenSpiel
        passes it) the only source of randomness, so a seeded sampler gives the same sample. In TowerBrix with two
        seats or more that is the other seats' cards, the stacks' order and the draws to come, drawn from the deal's
        own chance given the seat's view, and for challenge 10's blind seat the current build's edits, drawn
        uniformly among the edits each could have been (``TowerBrixState.resampled``); a game of perfect
        information has nothing hidden: a clone, as OpenSpiel's perfect-information games give."""
        state = self._held.state
        players = state.game.players
        if isinstance(player_id, bool) or not isinstance(player_id, int | np.integer) or not 0 <= player_id < players:
            raise ValueError(f"resample_from_infostate: player_id is a seat 0…{players - 1}, not {player_id!r}")
        twin: KumikiState = self.clone()
        game = self.get_game()
        resampled = getattr(state, "resampled", None)
        if game.get_type().information != pyspiel.GameType.Information.IMPERFECT_INFORMATION or resampled is None:
            return twin
        sample: State = resampled(int(player_id), lambda: float(probability_sampler()))
        actions = self.history()
        if sample.history != state.history and len(actions) == len(state.history):
            # moves the seat saw only in part were drawn again (challenge 10's blind seat: the edits): OpenSpiel's
            # history is the sample's, played again from the game's start
            twin = KumikiState(game, game.kumiki_game.new_state(seed=getattr(state, "seed", None)))
            encoding = game.kumiki_game.encoding
            for move in sample.history:
                twin.apply_action(encoding.encode(move))
        twin._held = _Held(sample)
        return twin

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self._held.state.over)

    def returns(self) -> list[float]:
        """Each seat's return (``kumiki.interop.utility``); 0 for everyone until the end."""
        state = self._held.state
        if not state.over:
            return [0.0] * state.game.players
        return utilities(state)

    def rewards(self) -> list[float]:
        """The rewards of the last step: the returns, since a game pays only at its end."""
        return self.returns()

    def __str__(self) -> str:
        return self._held.state.render()


class Observer:
    """OpenSpiel's observer: the tensor of ``game.encoding.observe`` (``dict["observation"]`` has its shape) and
    strings from ``state.view(player)``; with perfect recall, the moves so far as the player saw them as well.

    There is no information-state tensor (the game type says so): with perfect recall the tensor is empty rather
    than the observation's, which would pass for a record of the past it does not hold."""

    def __init__(self, game: Game, perfect_recall: bool, params: Any) -> None:
        if params:
            raise ValueError(f"the Kumiki observers take no parameters, got {params!r}")
        self.encoding = game.encoding
        self.perfect_recall = perfect_recall
        shape = (0,) if perfect_recall else self.encoding.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)} if not perfect_recall else {}

    def set_from(self, state: KumikiState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = self.encoding.observe(state.kumiki_state, player).ravel()

    def string_from(self, state: KumikiState, player: int) -> str:
        kstate = state.kumiki_state
        text = json.dumps(kstate.view(player), sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text += "\n" + " | ".join(kstate.seen_history(player))
        return f"p{player} {text}"


class PartObserver:
    """A part of a seat's own view in a game with hidden cards: the public part (``public=True``), what every seat
    sees, the same whoever asks (``encoding.observe_public``, ``state.common_view()``); or the private part, what the
    seat sees beyond it (``encoding.observe_private``, ``state.private_view(player)``). ``dict`` names the tensor's
    fields (the encoding's ``public_layout`` or ``private_layout``), as OpenSpiel's own games do.

    Strings: ``public `` and the common view as JSON, or ``p<seat> `` and the private view; with perfect recall a
    line follows with the moves as every seat saw them (``state.common_history()``), or, for the private part, the
    moves this seat saw otherwise, each as ``<ply>:<move>`` (challenge 10: where the others read ``edit``). With
    perfect recall the tensor is empty, as the own view's."""

    def __init__(self, game: Game, public: bool, perfect_recall: bool, params: Any) -> None:
        if params:
            raise ValueError(f"the Kumiki observers take no parameters, got {params!r}")
        self.encoding = game.encoding
        self.public = public
        self.perfect_recall = perfect_recall
        layout = self.encoding.public_layout if public else self.encoding.private_layout
        if layout is None:
            raise ValueError(f"kumiki_{game.name} does not split its observation into a public and a private part")
        size = 0 if perfect_recall else max((hi for _, hi in layout.values()), default=0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if perfect_recall else {name: self.tensor[lo:hi] for name, (lo, hi) in layout.items()}

    def set_from(self, state: KumikiState, player: int) -> None:
        """The tensor of ``state`` (the public part is the same for every ``player``); nothing with perfect recall."""
        if self.perfect_recall:
            return
        kstate = state.kumiki_state
        if self.public:
            self.tensor[:] = self.encoding.observe_public(kstate)
        else:
            self.tensor[:] = self.encoding.observe_private(kstate, player)

    def string_from(self, state: KumikiState, player: int) -> str:
        """The string of ``state``: ``public …`` (the same for every ``player``) or ``p<player> …``."""
        kstate = state.kumiki_state
        view = kstate.common_view() if self.public else kstate.private_view(player)
        text = ("public " if self.public else f"p{player} ") + json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            common = kstate.common_history()
            if self.public:
                moves = common
            else:
                seen = kstate.seen_history(player)
                moves = [
                    f"{ply}:{move}" for ply, (move, known) in enumerate(zip(seen, common, strict=True)) if move != known
                ]
            text += "\n" + " | ".join(moves)
        return text


_registered: set[str] = set()


def encoded_games() -> tuple[str, ...]:
    """The registered games with an action encoding (``Game.make_encoding``), which OpenSpiel needs: the built-in
    ones (``GAMES``) and any game added since (docs/adding-a-game.md)."""
    return tuple(name for name in registered_games() if game_class(name).make_encoding is not Game.make_encoding)


def register(games: tuple[str, ...] | None = None) -> None:
    """Register ``kumiki_<game>`` with pyspiel for each game, by default every game with an action encoding
    (``encoded_games``; again is harmless)."""
    known = set(pyspiel.registered_names())
    for name in encoded_games() if games is None else games:
        key = short_name(name)
        if key in known or key in _registered:
            continue
        cls = type(f"Kumiki_{name}", (KumikiGame,), {"name_of_game": name})
        pyspiel.register_game(_game_type(load_game(name)), cls)
        _registered.add(key)


def _load_registered(name: str, params: dict[str, Any], started: int = 0) -> Any:
    """Unpickling a game: ``kumiki_<name>`` registered, then loaded with ``params``; ``started`` games already
    dealt, so that the copy goes on with the next deal instead of dealing the first ones again."""
    register((name,))
    game = pyspiel.load_game(short_name(name), params)
    game.started = started
    return game


def _restored_state(
    name: str, params: dict[str, Any], held: _Replay | _Held | State, actions: list[int]
) -> KumikiState:
    """Unpickling a state: its game loaded again (``_load_registered``), OpenSpiel's history rebuilt by playing the
    actions again from the game's start with the state's seed (as ``deserialize_state`` does). A ``_Replay`` is that
    state; else (a ``_Held``, or a Kumiki state as pickled before) the unpickled Kumiki state is held (the actions
    not played for a state made by ``state_from`` in mid-game, whose history is not the game's)."""
    game = _load_registered(name, params)
    if isinstance(held, _Replay):
        restored = KumikiState(game, game.kumiki_game.new_state(seed=held.seed), replayable=True)
        for action in actions:
            restored.apply_action(action)
        return restored
    state = held.state if isinstance(held, _Held) else held
    restored = KumikiState(game, game.kumiki_game.new_state(seed=getattr(state, "seed", None)))
    if len(actions) == len(state.history):
        for action in actions:
            restored.apply_action(action)
    restored._held = _Held(state)
    return restored


def _deserialized_state(name: str, params: dict[str, Any], text: str) -> KumikiState:
    """Unpickling a state held whole (``state_from``, ``resample_from_infostate``, a Kumiki state played directly):
    ``serialize()``'s text read back by its game loaded again, which keeps OpenSpiel's history (the actions applied
    since, which ``_restored_state`` dropped: ``history()`` and ``move_number()`` were empty)."""
    restored: KumikiState = _load_registered(name, params).deserialize_state(text)
    return restored


def load(game: str, **options: Any) -> Any:
    """``pyspiel.load_game("kumiki_<game>", options)``, registering first: the OpenSpiel game of a Kumiki game. The
    options are typed as pyspiel wants them first (``typed_parameters``: ``box_short=7`` is ``7.0``), which
    ``pyspiel.load_game`` itself refuses. It registers the built-in games and ``game``, not every game of the
    registry: a game added elsewhere that fails to load must not break the loading of another."""
    register(tuple(dict.fromkeys((*GAMES, game))))
    return pyspiel.load_game(short_name(game), typed_parameters(game, options))


def parameters_of(game: Game) -> dict[str, Any]:
    """The OpenSpiel parameters of a loaded Kumiki game (its options; "none" values left unset)."""
    return {k: v for k, v in game.options.items() if v is not None}


class OpenSpielMCTS(Agent):
    """OpenSpiel's ``MCTSBot`` with its random-rollout evaluator, as a Kumiki agent: ``load_agent("openspiel:mcts",
    simulations=200)``. It searches the OpenSpiel game of the state's game (built once per game), so it plays in the
    web app, the arena and ``kumiki play`` like any agent. In games with chance or hidden cards its search clones the
    full state (it sees the seeded draws and every hand): a baseline, not a fair player of TowerBrix."""

    name = "openspiel:mcts"
    option_spec = (
        Option("simulations", int, 200, "MCTS simulations per move", 1, 10_000_000),
        Option("rollouts", int, 1, "random rollouts per leaf (the evaluator's n_rollouts)", 1, 1000),
        Option("uct_c", float, 2.0, "the UCT exploration constant", 0.0, 100.0),
        Option("solve", bool, False, "MCTS-Solver: back up proven wins and losses"),
        Option("seed", int, None, "seed of the bot's random choices (None: fresh)", 0, 2**63 - 1, nullable=True),
    )

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        self._games: dict[int, tuple[Game, Any]] = {}
        seed = self.options["seed"]
        self._rng = np.random.RandomState(None if seed is None else seed % 2**32)

    def _spiel_game(self, game: Game) -> Any:
        entry = self._games.get(id(game))
        if entry is None or entry[0] is not game:
            register((game.name,))
            entry = (game, pyspiel.load_game(short_name(game.name), parameters_of(game)))
            self._games[id(game)] = entry
        return entry[1]

    def choose(self, state: State) -> Move:
        """The move OpenSpiel's MCTSBot picks for ``state.to_move`` (searching a copy of the state)."""
        require_moves(state)
        from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped,unused-ignore]

        spiel_game = self._spiel_game(state.game)
        o = self.options
        evaluator = mcts.RandomRolloutEvaluator(o["rollouts"], self._rng)
        bot = mcts.MCTSBot(
            spiel_game, o["uct_c"], o["simulations"], evaluator, solve=o["solve"], random_state=self._rng
        )
        action = bot.step(spiel_game.state_from(state))
        return state.game.encoding.decode(action, state)
