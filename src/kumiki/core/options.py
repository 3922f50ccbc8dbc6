"""Declarative game and agent options: each game lists its options as data and gets validation for free."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

OptionValue = int | float | bool | str | None


@dataclass(frozen=True, slots=True)
class Option:
    """One keyword option: its type, default, and the values it allows.

    ``default`` may be a callable that receives the options resolved so far (e.g. a grid size that depends on
    the number of players). ``check`` returns an error text for a bad value, or None.
    """

    name: str
    type: type
    default: Any
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] | None = None
    nullable: bool = False
    check: Callable[[Any, Mapping[str, Any]], str | None] | None = None
    # A record leaves the option out at its default: an option added after records of its game were written, so that
    # a program that predates it (or knows only the contract's options) still reads the records of games without it.
    quiet_default: bool = False

    def allowed(self) -> str:
        """A short description of what the option accepts, for error messages and help."""
        if self.choices is not None:
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        elif self.minimum is not None and self.maximum is not None:
            text = f"{self.type.__name__} from {_bound(self.minimum)} to {_bound(self.maximum)}"
        elif self.minimum is not None:
            text = f"{self.type.__name__} ≥ {_bound(self.minimum)}"
        else:
            name = self.type.__name__
            text = f"{'an' if name[0] in 'aeiou' else 'a'} {name}"
        return text + (" or None" if self.nullable else "")


def _bound(value: float) -> str:
    """A range's end as people write it: 1,000,000,000 (``:g`` gave 1e+09 for an int option's limit), 0.5, 90."""
    return f"{int(value):,}" if float(value).is_integer() and abs(value) >= 10_000 else f"{value:g}"


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` for an error message: one line, at most ``limit`` characters (an int of 5,000 digits has
    no repr at all in Python 3.11, and a megabyte string would drown the message)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"an integer of {len(str(abs(value))) if abs(value) < 10**4000 else 'over 4000'} digits"
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails is still named by its type
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _refuse(option: Option, value: Any) -> ValueError:
    return ValueError(f"option {option.name!r} must be {option.allowed()}, not {shown(value)}")


def whole(value: object) -> int | None:
    """``value`` as an int when it is a whole number (an int or a numpy integer, never a bool: true and false are not
    the numbers 1 and 0 here), else None."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the digits 0-9. ``str.isdigit`` and ``isdecimal`` also take other scripts'
    digits, which ``int()`` reads (``"١"`` is 1) or refuses with a traceback (``"²"``): typed or recorded numbers
    are ASCII."""
    return text.isascii() and text.isdigit()


def _coerce(option: Option, value: Any) -> Any:
    """The value in the option's own type, or a ValueError naming the option.

    Numbers must be finite (NaN and ±inf compare False with every bound, so they would slip through a range
    check), ints must be whole (no bool, no float), and numpy scalars count as the Python numbers they are.
    """
    if value is None:
        if option.nullable:
            return None
        raise _refuse(option, value)
    kind = option.type
    if isinstance(value, bool):  # a bool is an Integral too: true and false are not the numbers 1 and 0 here
        if kind is bool:
            return value
        raise _refuse(option, value)
    if kind is int and (integer := whole(value)) is not None:
        return integer
    if kind is float and isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:
            raise _refuse(option, value) from None
        if not math.isfinite(number):
            raise _refuse(option, value)
        return number
    if kind is str and isinstance(value, str):
        return value
    raise _refuse(option, value)


def resolve_options(spec: Iterable[Option], given: Mapping[str, Any], owner: str) -> dict[str, Any]:
    """Validate ``given`` against ``spec`` and return every option with its effective value.

    Raises ValueError naming the option and what is allowed for an unknown option, a wrong type or a bad value.
    """
    spec = list(spec)
    known = {o.name: o for o in spec}
    for name in given:
        if name not in known:
            names = ", ".join(sorted(known)) or "none"
            raise ValueError(f"unknown option {shown(name)} for {owner} (options: {names})")
    resolved: dict[str, Any] = {}
    for option in spec:
        if option.name in given:
            value = _coerce(option, given[option.name])
        else:
            value = option.default(resolved) if callable(option.default) else option.default
        if value is not None:
            if option.choices is not None and value not in option.choices:
                raise _refuse(option, value)
            if option.minimum is not None and value < option.minimum:
                raise _refuse(option, value)
            if option.maximum is not None and value > option.maximum:
                raise _refuse(option, value)
        if option.check is not None:
            problem = option.check(value, resolved)
            if problem:
                raise ValueError(f"option {option.name!r}: {problem}")
        resolved[option.name] = value
    return resolved


def parse_value(text: str) -> OptionValue:
    """Read an option value typed by a person (``--option size=6``, ``mcts:iterations=3000``): int, float, a bool
    (``true``/``false`` in any case), ``none``/``null``, else text. Records read their tags more strictly
    (:func:`kumiki.core.records.tag_value`, as CONTRACT.md says)."""
    lowered = text.strip().lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    if lowered in ("none", "null"):
        return None
    if not text.isascii():  # int() and float() read other scripts' digits ("١٠" is 10): such text stays text
        return text
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def format_value(value: OptionValue) -> str:
    """The inverse of :func:`parse_value`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)
