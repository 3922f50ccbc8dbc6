"""AI players behind one protocol: ``load_agent("mcts", iterations=2000, seed=1)``."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from kumiki.agents.base import Agent
from kumiki.agents.greedy import GreedyAgent
from kumiki.agents.mcts import MCTSAgent
from kumiki.agents.random_agent import RandomAgent
from kumiki.core.options import parse_value, shown

_AGENTS: dict[str, type[Agent]] = {cls.name: cls for cls in (RandomAgent, GreedyAgent, MCTSAgent)}

# Game-specific agents live with their game and are imported only when asked for: name -> "module:Class".
_LAZY_AGENTS: dict[str, str] = {
    "kozo-greedy": "kumiki.games.kozo.agents:KozoGreedyAgent",
    "towerbrix-solo": "kumiki.games.towerbrix.agents:SoloAgent",
    "towerbrix-teammate": "kumiki.games.towerbrix.agents:TeammateAgent",
}


def agents() -> list[str]:
    """The names of the agents there are, sorted."""
    return sorted({*_AGENTS, *_LAZY_AGENTS})


def register_agent(cls: type[Agent]) -> None:
    """Make an agent class loadable by its ``name``."""
    _AGENTS[cls.name] = cls


def register_agent_path(name: str, target: str) -> None:
    """Make an agent loadable by name without importing it now; ``target`` is ``"package.module:AgentClass"``."""
    _LAZY_AGENTS[name] = target


def load_agent(name: str, **options: Any) -> Agent:
    """The agent ``name`` with its options; ValueError names what is allowed."""
    if isinstance(name, str) and name not in _AGENTS and name in _LAZY_AGENTS:
        module_name, _, class_name = _LAZY_AGENTS[name].partition(":")
        _AGENTS[name] = getattr(import_module(module_name), class_name)
    if not isinstance(name, str) or name not in _AGENTS:
        raise ValueError(f"unknown agent {shown(name)} (agents: {', '.join(agents())})")
    return _AGENTS[name](**options)


def agent_from_spec(spec: str) -> Agent:
    """An agent from text such as ``mcts:iterations=3000,seed=2`` (as the CLI's ``--seat`` takes it)."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.replace(" ", ",").split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError(f"agent option {shown(part)} must be written name=value")
        options[key.strip()] = parse_value(value.strip())
    return load_agent(name.strip(), **options)


__all__ = ["Agent", "agent_from_spec", "agents", "load_agent", "register_agent", "register_agent_path"]
