"""AI players behind one protocol: ``load_agent("mcts", iterations=2000, seed=1)``."""

from __future__ import annotations

from typing import Any

from kumiki.agents.base import Agent
from kumiki.agents.greedy import GreedyAgent
from kumiki.agents.mcts import MCTSAgent
from kumiki.agents.random_agent import RandomAgent
from kumiki.core.options import parse_value

_AGENTS: dict[str, type[Agent]] = {cls.name: cls for cls in (RandomAgent, GreedyAgent, MCTSAgent)}


def agents() -> list[str]:
    """The names of the agents there are, sorted."""
    return sorted(_AGENTS)


def register_agent(cls: type[Agent]) -> None:
    """Make an agent class loadable by its ``name``."""
    _AGENTS[cls.name] = cls


def load_agent(name: str, **options: Any) -> Agent:
    """The agent ``name`` with its options; ValueError names what is allowed."""
    if not isinstance(name, str) or name not in _AGENTS:
        raise ValueError(f"unknown agent {name!r} (agents: {', '.join(agents())})")
    return _AGENTS[name](**options)


def agent_from_spec(spec: str) -> Agent:
    """An agent from text such as ``mcts:iterations=3000,seed=2`` (as the CLI's ``--seat`` takes it)."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.replace(" ", ",").split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError(f"agent option {part!r} must be written name=value")
        options[key.strip()] = parse_value(value.strip())
    return load_agent(name.strip(), **options)


__all__ = ["Agent", "agent_from_spec", "agents", "load_agent", "register_agent"]
