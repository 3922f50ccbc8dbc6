"""Declarative game and agent options: each game lists its options as data and gets validation for free."""

from __future__ import annotations

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

    def allowed(self) -> str:
        """A short description of what the option accepts, for error messages and help."""
        if self.choices is not None:
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        elif self.minimum is not None and self.maximum is not None:
            text = f"{self.type.__name__} from {self.minimum:g} to {self.maximum:g}"
        elif self.minimum is not None:
            text = f"{self.type.__name__} ≥ {self.minimum:g}"
        else:
            name = self.type.__name__
            text = f"{'an' if name[0] in 'aeiou' else 'a'} {name}"
        return text + (" or None" if self.nullable else "")


def _coerce(option: Option, value: Any) -> Any:
    if value is None:
        if option.nullable:
            return None
        raise ValueError(f"option {option.name!r} must be {option.allowed()}, not None")
    kind = option.type
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is bool and isinstance(value, bool):
        return value
    if kind is int and is_number and isinstance(value, int):
        return value
    if kind is float and is_number:
        return float(value)
    if kind is str and isinstance(value, str):
        return value
    raise ValueError(f"option {option.name!r} must be {option.allowed()}, not {value!r}")


def resolve_options(spec: Iterable[Option], given: Mapping[str, Any], owner: str) -> dict[str, Any]:
    """Validate ``given`` against ``spec`` and return every option with its effective value.

    Raises ValueError naming the option and what is allowed for an unknown option, a wrong type or a bad value.
    """
    spec = list(spec)
    known = {o.name: o for o in spec}
    for name in given:
        if name not in known:
            names = ", ".join(sorted(known)) or "none"
            raise ValueError(f"unknown option {name!r} for {owner} (options: {names})")
    resolved: dict[str, Any] = {}
    for option in spec:
        if option.name in given:
            value = _coerce(option, given[option.name])
        else:
            value = option.default(resolved) if callable(option.default) else option.default
        if value is not None:
            if option.choices is not None and value not in option.choices:
                raise ValueError(f"option {option.name!r} must be {option.allowed()}, not {value!r}")
            if option.minimum is not None and value < option.minimum:
                raise ValueError(f"option {option.name!r} must be {option.allowed()}, not {value!r}")
            if option.maximum is not None and value > option.maximum:
                raise ValueError(f"option {option.name!r} must be {option.allowed()}, not {value!r}")
        if option.check is not None:
            problem = option.check(value, resolved)
            if problem:
                raise ValueError(f"option {option.name!r}: {problem}")
        resolved[option.name] = value
    return resolved


def parse_value(text: str) -> OptionValue:
    """Read an option value written as text (record tags, ``mcts:iterations=3000``): int, float, bool, else text."""
    lowered = text.strip().lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    if lowered in ("none", "null"):
        return None
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
