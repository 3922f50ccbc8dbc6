"""TowerBrix agents: their moves are legal, the solo agent finishes a round, the teammate uses only its own view."""

from __future__ import annotations

import kumiki
from kumiki.games.towerbrix.agents import next_edit
from kumiki.games.towerbrix.bricks import Brick, place


def test_agents_are_registered() -> None:
    assert {"towerbrix-solo", "towerbrix-teammate"} <= set(kumiki.agents.agents())


def test_solo_agent_builds_a_winning_tower() -> None:
    game = kumiki.load_game("towerbrix", players=1, mode="solo")
    state = game.new_state(seed=1)
    agent = kumiki.load_agent("towerbrix-solo", seconds=10)
    for _ in range(200):
        if state.over or state.to_json()["evaluations"]:
            break
        move = agent.choose(state)
        assert str(move) == "ok" or move in state.legal_moves() or move.kind == "place"
        state.play(move)  # raises IllegalMove if the agent's edit is not legal
    first = state.to_json()["evaluations"][0]
    assert first["success"], first
    assert first["points"] >= sum(c["points"] for c in first["cards"])


def test_teammate_moves_are_legal_and_use_only_its_view() -> None:
    game = kumiki.load_game("towerbrix", players=3, mode="base", deck="green", difficulty="easy")
    state = game.new_state(seed=4)
    agents = [kumiki.load_agent("towerbrix-teammate", seconds=0.3, seed=p) for p in range(3)]
    seen: list[int] = []

    class Spy:
        """The state as the agent sees it: to_json() and the other players' hands are out of reach."""

        def __init__(self, inner: object) -> None:
            self._inner = inner

        def __getattr__(self, name: str) -> object:
            if name in ("to_json", "hands", "public_view"):
                raise AssertionError(f"the teammate looked at state.{name}")
            if name == "view":
                return lambda p: (seen.append(p), self._inner.view(p))[1]
            return getattr(self._inner, name)

    for _ in range(12):
        if state.over or state.to_json()["evaluations"]:
            break
        player = state.to_move
        move = agents[player].choose(Spy(state))  # type: ignore[arg-type]
        assert set(seen) == {player}
        seen.clear()
        state.play(move)


def test_next_edit_rebuilds_a_target_bottom_up() -> None:
    target: dict[str, Brick] = {}
    for brick_id, axis, x, y in [("Y1", "x", 0, 0), ("Y2", "x", 0, 1), ("P1", "z", 0.5, 0.5)]:
        target[brick_id] = place(target, brick_id, axis, x, y)
    current = {"P1": place({}, "P1", "y", 5, 5)}
    for _ in range(10):
        edit = next_edit(current, list(target.values()))
        if edit is None:
            break
        if edit.startswith("-"):
            del current[edit[1:]]
        else:
            brick_id, axis, corner = edit.split()
            x, y = (float(v) for v in corner.split(","))
            current[brick_id] = place(current, brick_id, axis, x, y)
    assert {i: b.box for i, b in current.items()} == {i: b.box for i, b in target.items()}
