"""AI players behind one protocol: ``load_agent("mcts", iterations=2000, seed=1)``."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from importlib import import_module
from typing import Any, cast

from kumiki.agents.base import Agent
from kumiki.agents.greedy import GreedyAgent
from kumiki.agents.levels import level_agents
from kumiki.agents.mcts import MCTSAgent
from kumiki.agents.random_agent import RandomAgent
from kumiki.core.options import parse_value, shown

_PLAIN: tuple[type[Agent], ...] = (RandomAgent, GreedyAgent, MCTSAgent)
_AGENTS: dict[str, type[Agent]] = {cls.name: cls for cls in (*_PLAIN, *level_agents())}

# Game-specific agents live with their game and are imported only when asked for: name -> "module:Class".
_LAZY_AGENTS: dict[str, str] = {
    "kozo-greedy": "kumiki.games.kozo.agents:KozoGreedyAgent",
    "openspiel:mcts": "kumiki.interop.openspiel:OpenSpielMCTS",  # needs the openspiel extra
    "towerbrix-solo": "kumiki.games.towerbrix.agents:SoloAgent",
    "towerbrix-teammate": "kumiki.games.towerbrix.agents:TeammateAgent",
}


def option_names(name: str) -> set[str]:
    """The options agent ``name`` takes."""
    return {o.name for o in _agent_class(name).option_spec}


def agents() -> list[str]:
    """The names of the agents there are, sorted."""
    return sorted({*_AGENTS, *_LAZY_AGENTS})


def register_agent(cls: type[Agent]) -> None:
    """Make an agent class loadable by its ``name``."""
    _AGENTS[cls.name] = cls


def register_agent_path(name: str, target: str) -> None:
    """Make an agent loadable by name without importing it now; ``target`` is ``"package.module:AgentClass"``."""
    _LAZY_AGENTS[name] = target


def load_agent(name: str, /, **options: Any) -> Agent:
    """The agent ``name`` with its options; ValueError names what is allowed (and, for a spec such as
    ``"mcts:iterations=5"`` given as the name, where specs are read)."""
    try:
        cls = _agent_class(name)
    except ValueError as error:
        hint = _spec_hint(name)
        if hint:
            raise ValueError(f"{error}; {hint}") from None
        raise
    return cls(**options)


def _spec_hint(name: object) -> str:
    """How to write ``name`` when it is a spec of a known agent given to ``load_agent`` as a name, else ''."""
    if not isinstance(name, str) or not re.search(r"[:=\s]", name):
        return ""
    try:
        agent, options = parse_agent_spec(name)
        _agent_class(agent)
    except ValueError:
        return ""
    keywords = "".join(f", {key}={value!r}" for key, value in options.items())
    return f"a spec is read by kumiki.agents.agent_from_spec({name!r}), or write load_agent({agent!r}{keywords})"


_IMPORT_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split an agent spec into its name and options: ``"mcts:iterations=3000,seed=2"`` gives ``("mcts",
    {"iterations": 3000, "seed": 2})``. A Python import path names your own agent: ``"mypkg.agents:make"`` or
    ``"mypkg.agents:make,depth=3"`` gives ``("mypkg.agents:make", {"depth": 3})``. Options may also be separated
    by spaces. ValueError for an option not written name=value or given twice."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec is a name such as 'mcts:iterations=1000', not {shown(spec)}")
    text = spec.strip()
    head = re.split(r"[ ,]", text, maxsplit=1)[0]
    named = [n for n in (*_AGENTS, *_LAZY_AGENTS) if ":" in n and (text == n or text.startswith((n + ":", n + " ")))]
    if named:  # a registered name with a colon in it: "openspiel:mcts:simulations=100"
        name = max(named, key=len)
        rest = text[len(name) :].lstrip(":")
    elif _IMPORT_PATH.fullmatch(head) and "=" not in head and head.partition(":")[0] not in (*_AGENTS, *_LAZY_AGENTS):
        # (a registered name before the colon is that agent with an option, "mcts:iterations" missing its "=N")
        name, rest = head, text[len(head) :]
    else:
        name, _, rest = text.partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.replace(" ", ",").split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent option {shown(part)} must be written name=value")
        if key.strip() in options:  # the last would win unseen: "mcts:iterations=3000,…,iterations=30"
            raise ValueError(f"agent option {shown(key.strip())} is given twice")
        options[key.strip()] = parse_value(value.strip())
    return name.strip(), options


def agent_from_spec(spec: str, **defaults: Any) -> Agent:
    """An agent from text such as ``mcts:iterations=3000,seed=2`` (as the CLI's ``--seat`` takes it) or an import
    path ``package.module:factory`` (a callable taking the options as keywords and returning an Agent).

    ``defaults`` are options used where the spec gives none, and only where the agent has such an option (the
    arena gives every agent a seed this way)."""
    return agent_maker(spec)(**defaults)


def agent_maker(spec: str) -> Callable[..., Agent]:
    """``agent_from_spec`` in two steps: the spec read (and checked) once, then ``make(**defaults)`` an agent as
    often as needed (a Gymnasium environment makes fresh opponents every episode)."""
    name, options = parse_agent_spec(spec)
    if _IMPORT_PATH.fullmatch(name) and name not in _AGENTS and name not in _LAZY_AGENTS:
        return _PathMaker(name, options)
    return _Maker(_agent_class(name), options)


class _Maker:
    """An agent class with the spec's options: ``make(**defaults)``, the defaults the class takes under the spec's.
    A class, not a closure, so that what holds one (a Gymnasium environment's opponents) can be pickled."""

    def __init__(self, cls: type[Agent], options: dict[str, Any]) -> None:
        self.cls, self.options = cls, options
        self.accepted = {o.name for o in cls.option_spec}

    def __call__(self, **defaults: Any) -> Agent:
        return self.cls(**{**{k: v for k, v in defaults.items() if k in self.accepted}, **self.options})


class _PathMaker:
    """An agent named by its import path (``module:attribute``), with the spec's options (picklable, as ``_Maker``)."""

    def __init__(self, path: str, options: dict[str, Any]) -> None:
        self.path, self.options = path, options

    def __call__(self, **defaults: Any) -> Agent:
        return _from_import_path(self.path, self.options, defaults)


def _agent_class(name: str) -> type[Agent]:
    if isinstance(name, str) and name not in _AGENTS and name in _LAZY_AGENTS:
        module_name, _, class_name = _LAZY_AGENTS[name].partition(":")
        try:
            module = import_module(module_name)
        except ImportError as error:  # an agent from an optional extra that is not installed
            raise ValueError(f"agent {name!r}: {error}") from None
        _AGENTS[name] = getattr(module, class_name)
    if not isinstance(name, str) or name not in _AGENTS:
        raise ValueError(f"unknown agent {shown(name)} (agents: {', '.join(agents())})")
    return _AGENTS[name]


def _from_import_path(path: str, options: dict[str, Any], defaults: dict[str, Any]) -> Agent:
    module_name, _, attribute = path.partition(":")
    try:
        factory = getattr(import_module(module_name), attribute)
    except ImportError as error:
        raise ValueError(f"agent {path!r}: cannot import {module_name!r} ({error})") from None
    except AttributeError:
        raise ValueError(f"agent {path!r}: {module_name!r} has no {attribute!r}") from None
    except Exception as error:  # the user's module fails as it is imported (a syntax error, its own exception)
        text = " ".join(str(error).split())[:200]
        raise ValueError(f"agent {path!r}: importing {module_name!r} failed ({type(error).__name__}: {text})") from None
    if not callable(factory):
        raise ValueError(f"agent {path!r}: {attribute!r} is not callable")
    if isinstance(factory, type) and issubclass(factory, Agent):
        accepted = {o.name for o in factory.option_spec}
    else:
        try:
            parameters = list(inspect.signature(factory).parameters.values())
        except (TypeError, ValueError):  # a callable without a signature (a builtin): give it the spec's options only
            parameters = []
        if any(p.kind is p.VAR_KEYWORD for p in parameters):
            accepted = set(defaults)
        else:
            accepted = {p.name for p in parameters if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    chosen = {**{k: v for k, v in defaults.items() if k in accepted}, **options}
    try:
        agent = factory(**chosen)
    except ValueError:
        raise
    except Exception as error:  # the user's factory: its failure is reported in one line, with its type
        raise ValueError(f"agent {path!r}: {type(error).__name__}: {error}") from None
    if not callable(getattr(agent, "choose", None)):
        raise ValueError(f"agent {path!r}: the factory returned {shown(agent)}, which has no choose(state)")
    return cast(Agent, agent)


__all__ = [
    "Agent",
    "agent_from_spec",
    "agent_maker",
    "agents",
    "load_agent",
    "parse_agent_spec",
    "register_agent",
    "register_agent_path",
]
