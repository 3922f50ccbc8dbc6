"""TowerBrix agents: their moves are legal, the solo agent finishes a round, the teammate uses only its own view."""

from __future__ import annotations

import kumiki
from kumiki.games.towerbrix.agents import CONTESTED_COST, OTHERS_WEIGHT, OthersCards, best_single_edit, next_edit
from kumiki.games.towerbrix.bricks import Brick, connected, judge, place
from kumiki.games.towerbrix.cards import Card
from kumiki.games.towerbrix.conditions import Tower


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


def _card(rule: str, card_id: str) -> Card:
    return Card(card_id, "green", 2, "a test card", rule)


def _stack() -> dict[str, Brick]:
    """A valid green tower: four bricks lying in a row on the table, four more lying on them."""
    tower: dict[str, Brick] = {}
    for brick_id, x, y in [("Y1", 0, 0), ("P1", 0, 1), ("R1", 0, 2), ("B1", 0, 3)]:
        tower[brick_id] = place(tower, brick_id, "x", x, y)
    for brick_id, x, y in [("Y2", 0, 0), ("P2", 0, 1), ("R2", 0, 2), ("B2", 0, 3)]:
        tower[brick_id] = place(tower, brick_id, "x", x, y)
    return tower


def test_the_others_possible_cards_narrow_at_each_ok() -> None:
    deck = [_card("every red touches table", "A"), _card("no red touches table", "B"), _card("height >= 2", "C")]
    others = OthersCards(deck, ["C"], players=2, me=0)
    facts = Tower(list(_stack().values()))  # R1 on the table, R2 on top: A fails, B fails
    others.observe([], facts)
    assert [c.id for c in others.possible[1]] == ["A", "B"]  # no ok seen: anything but our own cards
    flat = {b: place({}, b, "x", 0, 2 * i) for i, b in enumerate(["R1", "R2"])}
    flat_facts = Tower(list(flat.values()))
    others.observe([1], flat_facts)  # player 1 said ok on a tower where only A holds
    assert [c.id for c in others.possible[1]] == ["A"]
    baseline = others.baseline(flat_facts, [1, 1])
    assert [(c.id, w) for c, w in baseline] == [("A", 1.0)]
    assert OthersCards.penalty(baseline, facts) == OTHERS_WEIGHT * 1.0  # the stack breaks A


def test_best_single_edit_keeps_the_tower_valid_and_respects_costs() -> None:
    tower = _stack()
    cards = [_card("no yellow touches yellow", "T1")]
    edit = best_single_edit(cards, "green", tower, {})
    assert edit is not None and edit.startswith("Y2 ")  # Y1 carries Y2; only a free brick moves
    after = dict(tower)
    brick_id, axis, corner = edit.split()
    x, y = (float(v) for v in corner.split(","))
    del after[brick_id]
    after[brick_id] = place(after, brick_id, axis, x, y)
    bricks = list(after.values())
    assert connected(bricks) and judge(bricks).stands and len(bricks) == 8
    # A brick the others took back (cost 1.5) is not moved again for one card.
    assert best_single_edit(cards, "green", tower, {"Y2": CONTESTED_COST}) is None
    # A card that already holds asks for nothing.
    assert best_single_edit([_card("at least 1 red touches table", "T1")], "green", tower, {}) is None
