"""Every option of every game and agent refuses what is not a value of its kind, with one line naming the option.

NaN and ±inf compare False with every bound, so a plain range check lets them through; a huge int has no repr in
Python 3.11; a list is not a number. The check lives in one place (``kumiki.core.options``) and every way in
(``load_game``, ``load_agent``, record tags, the CLI) goes through it.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers import CliRunner, assert_one_line_error, cli_runner

import kumiki
from kumiki.agents import agents, load_agent
from kumiki.core.options import Option, shown
from kumiki.core.registry import game_class, games

GAMES = games()
AGENTS = agents()


def _spec(owner: str) -> tuple[Option, ...]:
    kind, _, name = owner.partition(":")
    return tuple(game_class(name).option_spec if kind == "game" else type(load_agent(name)).option_spec)


OPTIONS = [
    (owner, option.name)
    for owner in [f"game:{g}" for g in GAMES] + [f"agent:{a}" for a in AGENTS]
    for option in _spec(owner)
]


def _load(owner: str, name: str, value: Any) -> object:
    kind, _, which = owner.partition(":")
    return kumiki.load_game(which, **{name: value}) if kind == "game" else load_agent(which, **{name: value})


NOT_FINITE = [math.nan, math.inf, -math.inf, -math.nan]
HUGE = [10**400, -(10**400), 10**5000, 1e308, -1e308, 2**63, -(2**63)]
WRONG = [[], {}, [1], {"a": 1}, (), b"3", object(), 1 + 2j]


def _must_refuse(option: Option, value: Any) -> bool:
    """Whether ``value`` is outside what ``option`` accepts by its kind and bounds alone (checks aside)."""
    if value is None:
        return not option.nullable
    if isinstance(value, bool):
        return option.type is not bool
    if option.type is bool or option.type is str:
        return not isinstance(value, option.type)
    if not isinstance(value, int | float) or (option.type is int and not isinstance(value, int)):
        return True
    if isinstance(value, float) and not math.isfinite(value):
        return True
    if abs(value) > 1e308:  # no float holds it
        return option.type is float
    low = -math.inf if option.minimum is None else option.minimum
    high = math.inf if option.maximum is None else option.maximum
    return not low <= value <= high


def _refused_well(owner: str, name: str, value: Any) -> str:
    with pytest.raises(ValueError) as caught:
        _load(owner, name, value)
    message = str(caught.value)
    assert message.startswith(f"option {name!r}"), message
    assert "\n" not in message and len(message) < 400, message
    return message


bad_values = st.one_of(
    st.sampled_from(NOT_FINITE + HUGE + WRONG + [None, True, False, 0.5, "", "x" * 5000, "nan", "1e999"]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
)


@settings(max_examples=400, deadline=None)
@given(which=st.sampled_from(OPTIONS), value=bad_values)
def test_every_option_refuses_what_its_kind_and_bounds_refuse(which: tuple[str, str], value: Any) -> None:
    owner, name = which
    option = next(o for o in _spec(owner) if o.name == name)
    if _must_refuse(option, value):
        _refused_well(owner, name, value)
        return
    try:  # a value of the right kind within the bounds: the option's own check may still refuse it, in one line
        _load(owner, name, value)
    except ValueError as error:
        assert "\n" not in str(error) and len(str(error)) < 400, str(error)
        assert name in str(error) or "option" in str(error), str(error)


@pytest.mark.parametrize("which", OPTIONS, ids=[f"{o}.{n}" for o, n in OPTIONS])
def test_not_finite_numbers_are_refused_by_every_option(which: tuple[str, str]) -> None:
    owner, name = which
    for value in NOT_FINITE:
        message = _refused_well(owner, name, value)
        assert "nan" in message or "inf" in message


def test_the_reported_cases() -> None:
    """The two cases of the issue: NaN was accepted by one option and refused by another without naming it."""
    assert (
        _refused_well("game:towerbrix", "shake_deg", math.nan)
        == "option 'shake_deg' must be float from 0 to 90, not nan"
    )
    assert _refused_well("game:towerbrix", "grid", math.nan) == "option 'grid' must be float from 0.125 to 1, not nan"
    assert "an integer of 5001 digits" not in _refused_well("game:kuzushi", "players", 10**5000)
    assert "over 4000 digits" in _refused_well("game:kuzushi", "players", 10**5000)
    assert _refused_well("game:kuzushi", "players", 2.0) == "option 'players' must be int from 2 to 6, not 2.0"


def test_numbers_of_numpy_count_as_the_numbers_they_are() -> None:
    np = pytest.importorskip("numpy")
    assert kumiki.load_game("kuzushi", players=np.int64(3)).options["players"] == 3
    assert type(kumiki.load_game("kuzushi", players=np.int64(3)).options["players"]) is int
    assert kumiki.load_game("towerbrix", shake_deg=np.float32(2.5)).options["shake_deg"] == 2.5
    _refused_well("game:towerbrix", "shake_deg", np.float64("nan"))


def test_long_values_are_cut_short_in_messages() -> None:
    assert len(shown("x" * 10_000)) == 40
    message = _refused_well("game:towerbrix", "deck", "x" * 10_000)
    assert "no such deck file" in message
    _refused_well("game:towerbrix", "deck", "a\0b")
    assert "every side" in _refused_well("game:towerbrix", "brick", "9" * 400 + "x1x1")


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e999", "NaN"])
def test_record_tags_and_the_cli_refuse_them_too(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = kumiki.write_record(kumiki.load_game("towerbrix").new_state(seed=1))
    record, changed = re.subn(r'\[shake_deg "[^"]*"\]', f'[shake_deg "{text}"]', record)
    assert changed == 1
    with pytest.raises(ValueError, match="option 'shake_deg'"):
        kumiki.read_record(record)
    run: CliRunner = cli_runner(capsys, monkeypatch)
    code, _out, err = run("play", "towerbrix", "--option", f"shake_deg={text}")
    assert_one_line_error(code, err, "option 'shake_deg'")
    code, _out, err = run("play", "kuzushi", "--seat", f"1=mcts:c={text}")
    assert_one_line_error(code, err, "seat 1", "option 'c'")


def test_long_game_and_option_names_are_cut_short_in_messages(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An unknown game's or option's name is quoted as a value is (``shown``): a megabyte of name stays out of the
    # one-line message, from the API, from a record's tags and from the command line alike.
    long = "Q" * 100_000
    with pytest.raises(ValueError, match="unknown game") as error:
        kumiki.load_game(long)
    assert len(str(error.value)) < 200
    with pytest.raises(ValueError, match="unknown option") as error:
        kumiki.load_game("kuzushi", **{long: 1})
    assert len(str(error.value)) < 300
    with pytest.raises(ValueError, match="unknown option") as error:
        load_agent("mcts", **{long: 1})
    assert len(str(error.value)) < 300
    with pytest.raises(kumiki.RecordError, match="line 1: unknown game") as error:
        kumiki.read_record(f'[Game "{long}"]\n')
    assert len(str(error.value)) < 200
    with pytest.raises(kumiki.RecordError, match="line 3: bad tag value: unknown option") as error:
        kumiki.read_record(f'[Game "kuzushi"]\n[Players "2"]\n[{long} "1"]\n')  # the tag's own line
    assert len(str(error.value)) < 300
    run: CliRunner = cli_runner(capsys, monkeypatch)
    code, _out, err = run("play", long)
    assert len(assert_one_line_error(code, err, "unknown game")) < 300
    code, _out, err = run("play", "kuzushi", "--option", f"{long}=1")
    assert len(assert_one_line_error(code, err, "unknown option")) < 400


@pytest.mark.parametrize("name", GAMES)
def test_changing_the_options_dict_a_game_gives_leaves_the_game_as_loaded(name: str) -> None:
    """CONTRACT.md: ``game.options`` is every option with its effective value, and a record written then read gives
    the same ``to_json()``. The dict was the game's own: a script that took it to load a variant (``opts =
    game.options; opts["players"] = 3``) changed the first game's repr and the options its records were written with,
    so that they replayed as another game."""
    game = kumiki.load_game(name)
    state = game.new_state(seed=3)
    state.play(state.legal_moves()[0])
    before, text_before = dict(game.options), kumiki.write_record(state)
    options = game.options
    options["players"] = game.players + 1
    options["bogus"] = 1
    assert game.options == before
    assert game.options is not game.options
    assert kumiki.write_record(state) == text_before
    assert kumiki.read_record(text_before)[1].to_json() == state.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_a_game_pickled_before_options_was_a_copy_loads(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game pickled when ``options`` was its attribute (OpenSpiel's ``serialize()`` of a state not replayable
    pickles the Kumiki state, game included, and a text written then is read back) held ``options``, not
    ``_options``: loaded now, every read of ``game.options`` (its repr, its records) was an AttributeError."""
    import copyreg
    import pickle

    from kumiki.core.game import Game

    game = kumiki.load_game(name)
    state = game.new_state(seed=2)
    state.play(state.legal_moves()[0])

    def as_then(self: Game, protocol: int) -> tuple[Any, ...]:
        data = dict(self.__dict__)
        data["options"] = data.pop("_options")
        return copyreg.__newobj__, (type(self),), data

    with monkeypatch.context() as patch:  # the bytes as pickle wrote them then
        patch.setattr(Game, "__reduce_ex__", as_then)
        old = pickle.dumps(state)
    assert b"_options" not in old
    loaded = pickle.loads(old)
    assert loaded.game.options == game.options and repr(loaded.game) == repr(game)
    assert kumiki.write_record(loaded) == kumiki.write_record(state)
    loaded.play(loaded.legal_moves()[0])
    assert pickle.loads(pickle.dumps(loaded.game)).options == game.options
