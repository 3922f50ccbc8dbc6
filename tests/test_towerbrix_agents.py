"""TowerBrix agents: their moves are legal, the solo agent finishes a round, the teammate uses only its own view and
plays by its convention (the first tower by the player with the most cards, ok exactly when its cards hold, what
the others' oks and edits say about their hands), and a seeded game plays the same twice."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import kumiki
from kumiki.games.towerbrix.agents import REPAIR_BUDGET, best_moves
from kumiki.games.towerbrix.bricks import Brick, connected, judge, place
from kumiki.games.towerbrix.cards import Card
from kumiki.games.towerbrix.conditions import Tower
from kumiki.games.towerbrix.hands import AnyHand, HandModel, TeamKnowledge
from kumiki.games.towerbrix.moves import apply_edit, lowered, parse_towerbrix_move
from kumiki.games.towerbrix.plans import (
    align,
    carries,
    edits_to,
    fewest_edits,
    is_sound,
    lift_choice,
    next_edit,
    plan_edit,
    plan_step,
    tower_key,
)


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


def _team(players: int, seed: int, iterations: int = 300) -> tuple[object, list[object]]:
    game = kumiki.load_game("towerbrix", players=players, mode="base", deck="green", difficulty="easy")
    agents = [kumiki.load_agent("towerbrix-teammate", iterations=iterations, seed=p) for p in range(players)]
    return game.new_state(seed=seed), agents


def test_teammate_moves_are_legal_and_use_only_its_view() -> None:
    """Asked anew for every move (as the web server does), the teammate rebuilds its memory by replaying the moves
    from the seed, and reads only its own view, of the position and of every replayed one."""
    state, _ = _team(3, 4)
    seen: list[int] = []

    class Spy:
        """A state as the agent sees it: to_json() and the hands are out of reach; its game makes spied states."""

        def __init__(self, inner: object) -> None:
            self._inner = inner

        def __getattr__(self, name: str) -> object:
            if name in ("to_json", "hands", "public_view", "evaluations", "stacks", "rng"):
                raise AssertionError(f"the teammate looked at state.{name}")
            if name == "view":
                return lambda p: (seen.append(p), self._inner.view(p))[1]
            if name == "game":
                return GameSpy(self._inner.game)
            return getattr(self._inner, name)

    class GameSpy:
        def __init__(self, inner: object) -> None:
            self._inner = inner

        def __getattr__(self, name: str) -> object:
            if name == "new_state":
                return lambda seed=None: Spy(self._inner.new_state(seed=seed))
            return getattr(self._inner, name)

    for _ in range(30):
        if state.over or state.evaluations:
            break
        player = state.to_move
        move = kumiki.load_agent("towerbrix-teammate", iterations=300, seed=player).choose(Spy(state))  # type: ignore[arg-type]
        assert set(seen) == {player}
        seen.clear()
        state.play(move)  # raises IllegalMove if the agent's edit is not legal
    assert len(state.history) >= 24


def _memory(agent: object) -> tuple[object, ...]:
    """What a teammate keeps between its moves and can rebuild from the moves (everything but its plan)."""
    know = agent._know  # type: ignore[attr-defined]
    hands = {q: (None if m.hands is None else m.hands.tolist(), m.alive.tolist()) for q, m in know.models.items()}
    a = agent
    return (a._attempt, a._left, a._left_edits, a._edited, a._bad, hands)  # type: ignore[attr-defined]


def test_a_fresh_teammate_rebuilds_the_memory_a_persistent_one_keeps() -> None:
    """At every turn of a game played by persistent teammates, a fresh one replaying the moves knows what the
    persistent one of its seat knows: the attempt, the tower and edit count its last move left, the towers it
    gave up on or saw undone, and every hand the others may still hold."""
    state, agents = _team(3, 8)  # a build with repairs (with the cards' backs seen, seed 4's first tower holds)
    compared = 0
    while not state.evaluations:
        player = state.to_move
        if agents[player]._seen:  # type: ignore[attr-defined]
            fresh = kumiki.load_agent("towerbrix-teammate", iterations=300, seed=player)
            fresh._rebuild(state, player)  # type: ignore[attr-defined]
            assert _memory(fresh) == _memory(agents[player])
            compared += bool(agents[player]._bad)  # type: ignore[attr-defined]
        state.play(agents[player].choose(state))
    assert compared >= 5  # towers were given up on, and hands narrowed, along the way


def test_a_teammate_that_does_not_read_the_table_keeps_every_hand_the_others_may_hold() -> None:
    """The easy level (``reads=False``): the others' oks and edits tell it nothing, so every hand the cards' backs
    allow stays possible all along (and a fresh one rebuilds that memory too); one that reads narrows them."""
    narrowed = {}
    for reads in (True, False):
        game = kumiki.load_game("towerbrix", players=3, mode="base", deck="green", difficulty="easy")
        agents = [kumiki.load_agent("towerbrix-teammate", iterations=300, seed=p, reads=reads) for p in range(3)]
        state, first, changed = game.new_state(seed=8), {}, 0
        while not state.evaluations:
            player = state.to_move
            if not reads and player in first:
                fresh = kumiki.load_agent("towerbrix-teammate", iterations=300, seed=player, reads=False)
                fresh._rebuild(state, player)  # type: ignore[attr-defined]
                assert _memory(fresh)[-1] == first[player]
            move = agents[player].choose(state)
            if agents[player]._know is not None:  # type: ignore[attr-defined]  # (not after a turn apart, a vote)
                hands = _memory(agents[player])[-1]
                first.setdefault(player, hands)
                changed += hands != first[player]
            state.play(move)
        narrowed[reads] = changed
    assert narrowed[True] > 0 and narrowed[False] == 0


def test_teammates_that_do_not_read_the_table_never_make_again_a_tower_somebody_edited() -> None:
    """Not reading the others' cards is no licence to loop: two easy teammates moved one brick back and forth (12
    times in one game). A sound tower somebody edited fails somebody's cards, so nobody makes it again."""
    made_again = 0
    for seed in range(3):
        game = kumiki.load_game("towerbrix", players=2, mode="base", deck="green", difficulty="medium", rounds=1)
        agents = [kumiki.load_agent("towerbrix-teammate", iterations=50, seed=p, reads=False) for p in range(2)]
        state = game.new_state(seed=seed)
        edited: set[object] = set()
        while not state.over and not state.evaluations:
            before = list(state.bricks.values())  # type: ignore[attr-defined]
            move = agents[state.to_move].choose(state)
            state.play(move)
            if str(move) == "ok":
                continue
            if is_sound("green", before):
                edited.add(tower_key(before))
            made_again += tower_key(list(state.bricks.values())) in edited  # type: ignore[attr-defined]
    assert made_again == 0


def _fresh_move(state: object, iterations: int) -> str:
    """The move of a teammate created for this move only, as the web server asks."""
    seat = state.to_move  # type: ignore[attr-defined]
    return str(kumiki.load_agent("towerbrix-teammate", iterations=iterations, seed=seat).choose(state))


def test_teammates_asked_anew_for_every_move_play_as_persistent_ones() -> None:
    """A seeded game to its first evaluation: the first tower, then a repair that lifts a brick and rebuilds the
    tower over several turns. A teammate asked anew for each move plans again exactly what the persistent one
    planned (both plans were its first search of the attempt), so the two games are the same move for move."""
    state, agents = _team(2, 18, iterations=200)
    while not state.evaluations:
        state.play(agents[state.to_move].choose(state))
    persistent = [str(m) for m in state.history]
    state, _ = _team(2, 18, iterations=200)
    lifted = False
    while not state.evaluations:
        move = _fresh_move(state, 200)
        lifted |= not state.tower_problems() and move.startswith("-")  # a repair of several moves begins
        state.play(move)
    assert [str(m) for m in state.history] == persistent
    assert lifted and state.evaluations[0]["success"]


def test_a_fresh_teammate_finishes_a_plan_it_cannot_rebuild_and_never_remakes_a_tower_it_gave_up() -> None:
    """Only a search can tell a later plan and the solver's seeds; a fresh teammate makes such a plan again from
    the tower on the table (the brick it lifted put back last). It goes on until the tower is sound (never an ok
    on its own unfinished work), and never makes again a sound tower on which it gave up."""
    state, _ = _team(2, 17, iterations=200)
    gave_up: list[set[object]] = [set(), set()]
    last_editor, remade_plans = None, 0
    while not state.evaluations:
        player = state.to_move
        before = list(state.bricks.values())
        sound = not state.tower_problems()
        agent = kumiki.load_agent("towerbrix-teammate", iterations=200, seed=player)
        agent._rebuild(state, player)  # type: ignore[attr-defined]
        origin = agent._origin  # type: ignore[attr-defined]
        remade_plans += origin == "lost" or (isinstance(origin, tuple) and origin[0] == "resume")
        move = str(agent.choose(state))
        if move == "ok":
            assert sound or last_editor != player, f"move {len(state.history)}: the worker stalls"
        elif sound:
            gave_up[player].add(tower_key(before))
        state.play(move)
        if move != "ok":
            last_editor = player
            after = list(state.bricks.values())
            assert state.tower_problems() or tower_key(after) not in gave_up[player]
    assert remade_plans >= 2 and any(gave_up)
    assert state.evaluations[0]["success"]


@pytest.mark.slow
def test_teammate_choice_does_not_depend_on_the_other_hands() -> None:
    """Deal the others different cards (same counts): at every turn the agent chooses the same move."""
    state, agents = _team(3, 2)
    dealt = {c for hand in state.hands for c in hand}
    spare = [c.id for c in state.game.deck if c.id not in dealt]
    for _ in range(40):
        if state.over or state.evaluations:
            break
        player = state.to_move
        twin = state.copy()
        pool = iter(spare)
        twin.hands = [list(h) if q == player else [next(pool) for _ in h] for q, h in enumerate(state.hands)]
        assert twin.hands != state.hands
        clone = copy.deepcopy(agents[player])
        move = agents[player].choose(state)
        assert str(clone.choose(twin)) == str(move)
        state.play(move)


def test_a_seeded_game_plays_the_same_twice() -> None:
    """Search effort is counted in solver steps, not seconds: the same seeds give the same moves."""
    histories = []
    for _ in range(2):
        state, agents = _team(2, 5, iterations=200)
        while len(state.history) < 30 and not state.evaluations:
            state.play(agents[state.to_move].choose(state))
        histories.append([str(m) for m in state.history])
    assert histories[0] == histories[1]
    assert any(m != "ok" for m in histories[0])


def test_the_player_with_most_cards_builds_the_first_tower_while_the_others_wait() -> None:
    state, agents = _team(3, 3, iterations=1500)
    sizes = [len(h) for h in state.hands]
    builder = sizes.index(max(sizes))
    moves: list[tuple[int, str]] = []
    while len(state.bricks) < 8 and not state.evaluations:
        player = state.to_move
        move = agents[player].choose(state)
        moves.append((player, str(move)))
        state.play(move)
    edits = [(p, m) for p, m in moves if m != "ok"]
    assert len(edits) == 8 and {p for p, _ in edits} == {builder}
    assert all(m == "ok" for p, m in moves if p != builder)
    bricks = list(state.bricks.values())
    assert connected(bricks) and judge(bricks).stands
    tower = Tower(bricks)
    assert all(state.game.cards[c].check(tower) for c in state.hands[builder])  # its cards hold on its tower


def test_next_edit_rebuilds_a_target_bottom_up() -> None:
    target = lowered(["Y1 x 0,0", "Y2 x 0,1", "P1 z 0.5,0.5"])
    current = lowered(["P1 y 5,5"])
    for _ in range(10):
        edit = next_edit(current, list(target.values()))
        if edit is None:
            break
        _play_edit(current, edit)
    assert {i: b.box for i, b in current.items()} == {i: b.box for i, b in target.items()}


def _play_edit(tower: dict[str, Brick], edit: str) -> None:
    """Play ``edit`` (notation) on ``tower`` in place."""
    after = apply_edit(tower, parse_towerbrix_move(edit))
    tower.clear()
    tower.update(after)


def test_a_plan_reaches_a_brick_in_place_on_a_misplaced_one() -> None:
    """R1 already has its box but stands on B1, which has to turn: B1 cannot move while it carries R1 (this case
    used to send next_edit round in circles)."""
    current: dict[str, Brick] = {}
    for brick_id, axis in (("B1", "x"), ("R1", "z")):
        current[brick_id] = place(current, brick_id, axis, 0, 0)
    target: dict[str, Brick] = {}
    for brick_id, axis in (("B1", "y"), ("R1", "z")):
        target[brick_id] = place(target, brick_id, axis, 0, 0)
    assert current["R1"].box == target["R1"].box
    for step in (lambda t: next_edit(t, list(target.values())), lambda t: plan_edit(t, list(target.values()))):
        tower = dict(current)
        edits = 0
        while (edit := step(tower)) is not None and edits < 10:
            _play_edit(tower, edit)
            edits += 1
        assert edits == 3 and {i: b.box for i, b in tower.items()} == {i: b.box for i, b in target.items()}


def test_a_plan_moves_each_brick_once_where_it_can_and_puts_the_lifted_brick_back_last() -> None:
    current = _stack()
    target = dict(current)
    for edit in ("Y2 y 3,0", "P2 y 4,0", "R2 z 3,0"):  # three top bricks to new places (R2 onto Y2)
        _play_edit(target, edit)
    hold = lift_choice(current, list(target.values()))
    assert hold in {"Y2", "P2", "R2"}
    tower = dict(current)
    del tower[hold]
    edits = [f"-{hold}"]
    while (edit := plan_edit(tower, list(target.values()), hold)) is not None:
        _play_edit(tower, edit)
        edits.append(edit)
        assert len(edits) < 10
    assert len(edits) == 4 and edits[-1].startswith(hold)  # each brick moved once, the lifted one last
    assert {i: b.box for i, b in tower.items()} == {i: b.box for i, b in target.items()}


# Repairs played in seeded benchmark rounds (seeds 49 and 9 of bench.towerbrix_team): the tower on the table, the
# repair's tower, and how many edits lift_choice's plan took there.
_REPAIRS = (
    (
        "B1 x -1,-4.5;B2 y -0.5,-3.5;P1 z -2,-2.5;P2 z -3,-3;Y1 z -2,-3.5;R1 z -0.5,-2.5;R2 z -1,-4;Y2 y -2,-3.5",
        "B1 x -1,-4.5;B2 y -0.5,-3.5;P1 z -2,-2.5;R1 z 0,-4;Y1 x -1,-3;P2 z 0,-3;Y2 z -1.5,-2.5;R2 z 0,-3",
        10,
    ),
    (
        "P2 z 1,-1;R2 z -0.5,-1;Y1 z 0,0;P1 z -0.5,-0.5;Y2 y 0.5,-1.5;B1 z 0.5,-0.5;B2 x 0,-1.5;R1 z -0.5,-1",
        "P1 z 0,0.5;P2 z -1.5,-1.5;R2 z -0.5,-1;Y1 z -1,0;Y2 z -2,-0.5;B1 x -1,0;B2 x -1.5,-1;R1 z -0.5,-0.5",
        14,
    ),
)


def _replay_plan(current: dict[str, Brick], edits: list[str]) -> dict[str, Brick]:
    """Play a plan's edits, checking that each moves a brick that carries nothing and that no tower before the
    last is sound (the others would read it as "my cards hold here")."""
    tower = dict(current)
    for index, edit in enumerate(edits):
        if index:
            assert not is_sound("green", list(tower.values())), edits[:index]
        brick = parse_towerbrix_move(edit).brick
        assert brick not in tower or not carries(tower, tower[brick]), edit
        _play_edit(tower, edit)
    return tower


@pytest.mark.parametrize("case", range(len(_REPAIRS)))
def test_the_fewest_edits_reach_the_same_tower_and_never_more_than_the_lifted_plan(case: int) -> None:
    start, end, before = _REPAIRS[case]
    current, target = lowered(start.split(";")), list(lowered(end.split(";")).values())
    found = edits_to(current, target, lift=True)
    assert found is not None and found[0] == before
    edits = fewest_edits(current, target, "green")
    assert edits is not None and len(edits) <= found[0]
    tower = _replay_plan(current, edits)
    assert {i: b.box for i, b in tower.items()} == {b.id: b.box for b in target}
    assert fewest_edits(current, target, "green", cap=len(edits) - 1) is None  # the fewest
    # followed turn by turn (as a teammate does, one edit a turn) it takes as many edits and gets there
    tower, steps = dict(current), 0
    while (edit := plan_step(tower, target, None, "green")) is not None:
        _play_edit(tower, edit)
        steps += 1
        assert steps <= len(edits)
    assert steps == len(edits) and tower_key(tower.values()) == tower_key(target)


def test_align_shifts_a_plan_onto_the_tower_and_swaps_same_coloured_bricks() -> None:
    current = _stack()
    shifted = [
        Brick(
            {"Y1": "Y2", "Y2": "Y1"}.get(b.id, b.id),
            b.axis,
            (b.box[0] + 3, b.box[1] - 1, *b.box[2:3], b.box[3] + 3, b.box[4] - 1, b.box[5]),
        )
        for b in current.values()
    ]
    aligned = {b.id: b.box for b in align(shifted, current)}
    assert aligned == {i: b.box for i, b in current.items()}


def _card(rule: str, card_id: str) -> Card:
    return Card(card_id, "green", 2, "a test card", rule)


def _stack() -> dict[str, Brick]:
    """A valid green tower: four bricks lying in a row on the table, four more lying on them."""
    return lowered(
        [f"{b} x 0,{y}" for y, b in enumerate(("Y1", "P1", "R1", "B1"))]
        + [f"{b} x 0,{y}" for y, b in enumerate(("Y2", "P2", "R2", "B2"))]
    )


def test_a_hand_narrows_at_each_ok_and_each_edit() -> None:
    model = HandModel(4, 2)  # six possible hands of two of four cards
    assert model.chance(np.array([True, True, True, True])) == 1.0
    model.observe(np.array([True, True, True, False]), ok=True)  # an ok where card 3 fails: card 3 is not held
    assert model.chance(np.array([True, True, True, False])) == 1.0
    assert model.chance(np.array([True, True, False, False])) == 1 / 3  # of {01, 02, 12} only 01
    model.observe(np.array([True, True, False, True]), ok=False)  # an edit where only card 2 fails: card 2 is held
    assert model.chance(np.array([True, False, True, True])) == 1 / 2  # {02, 12} left
    model.observe(np.array([False, False, False, False]), ok=True)  # impossible: kept as it was
    assert model.chance(np.array([True, False, True, True])) == 1 / 2


@pytest.mark.parametrize("size", [1, 2, 3])
def test_a_hands_chance_by_card_counts_is_exactly_the_share_of_hands_that_hold(size: int) -> None:
    # Hands of one or two cards are counted by a product with the hands' card counts (a search asks thousands of
    # times); the answer must be the plain share to the last bit, also once the hands are narrowed.
    rng = np.random.default_rng(size)
    model = HandModel(12, size)
    for step in range(40):
        holds = rng.random(12) < rng.random()
        assert model.hands is not None
        assert model.chance(holds) == float(holds[model.hands].all(axis=1).mean())
        if step % 8 == 7:
            model.observe(rng.random(12) < 0.8, ok=bool(step % 16 == 7))


def test_the_others_value_is_read_again_after_a_blind_move_is_forgotten() -> None:
    deck = [_card("every red touches table", "A"), _card("no red touches table", "B"), _card("height >= 2", "C")]
    know = TeamKnowledge(deck, ["C"], hand_sizes=[1, 1], me=0)
    flat = Tower([place({}, b, "x", 0, 2 * i) for i, b in enumerate(["R1", "R2"])])  # A holds, B fails
    assert know.expected(flat) == 0.5
    know.observe(1, flat, ok=True, made=True)
    assert know.expected(flat) == 1.0  # kept by towers whose cards hold in the same pattern ...
    know.retract(1, flat)
    assert know.expected(flat) == 0.5  # ... and forgotten with the observation


def test_a_blind_move_is_forgotten_when_the_player_edits_its_tower_or_is_contradicted() -> None:
    model = HandModel(4, 2)  # {01, 02, 03, 12, 13, 23}
    model.observe(np.array([True, True, True, False]), ok=False)  # it edits where only card 3 fails: 3 held
    model.observe(np.array([True, False, True, True]), ok=True, made=True)  # "holds on the tower it made": 03, 23
    assert model.chance(np.array([True, False, True, True])) == 1.0
    assert model.retract(np.array([True, False, True, True]))  # it edits that tower again: that move was blind
    assert model.chance(np.array([True, False, True, True])) == 2 / 3  # 03, 13, 23 again
    model.observe(np.array([True, False, True, True]), ok=True, made=True)  # a blind move once more (03, 23)
    assert model.observe(np.array([False, True, True, True]), ok=True)  # an ok where card 0 fails: 23
    assert model.observe(np.array([True, True, False, True]), ok=True)  # an ok where card 2 fails: nothing left,
    assert model.hands is not None and model.hands.tolist() == [[1, 3]]  # unless the blind move is forgotten
    assert not model.observe(np.array([False, True, True, True]), ok=False)  # an impossible edit: not applied
    assert model.hands.tolist() == [[1, 3]]


def test_any_hand_holds_when_one_possible_hand_holds_in_full() -> None:
    cards = [_card("every red touches table", "A"), _card("no red touches table", "B"), _card("height >= 2", "C")]
    condition = AnyHand(cards, np.array([[0, 2], [1, 2]]))  # A and C, or B and C
    flat = [place({}, b, "x", 0, 2 * i) for i, b in enumerate(["R1", "R2"])]  # A holds, C fails (height 1)
    stack = list(_stack().values())  # C holds, A and B fail
    assert not condition.holds(flat) and not condition.holds(stack)
    tall = [place({}, "R1", "z", 0, 0), place({}, "R2", "z", 2, 0)]  # A and C hold
    assert condition.holds(tall)


def test_the_others_value_counts_whole_hands() -> None:
    deck = [_card("every red touches table", "A"), _card("no red touches table", "B"), _card("height >= 2", "C")]
    know = TeamKnowledge(deck, ["C"], hand_sizes=[1, 1], me=0)
    stack = Tower(list(_stack().values()))  # R1 on the table, R2 on top: A and B fail
    flat = Tower([place({}, b, "x", 0, 2 * i) for i, b in enumerate(["R1", "R2"])])  # A holds, B fails
    assert know.expected(flat) == 0.5  # player 1 holds A or B, equally likely
    know.observe(1, flat, ok=True)
    assert know.expected(flat) == 1.0 and know.expected(stack) == 0.0


def test_best_moves_keep_the_tower_sound_and_never_make_a_bad_tower() -> None:
    tower = _stack()
    cards = [_card("no yellow touches yellow", "T1")]
    know = TeamKnowledge([], [], [1], me=0)
    _, held, edit = best_moves(cards, "green", tower, know, better_than=0) or (0, 0, "")
    assert held == 1 and edit.startswith("Y2 ")  # Y1 carries Y2; only a free brick moves
    bricks = list(apply_edit(tower, parse_towerbrix_move(edit)).values())
    assert connected(bricks) and judge(bricks).stands and len(bricks) == 8
    # A tower somebody's cards are known to fail on is never made again.
    again = best_moves(cards, "green", tower, know, bad={tower_key(bricks)}, better_than=0)
    assert again is not None and again[2] != edit
    # A card that already holds: no move makes more of our cards hold.
    assert best_moves([_card("at least 1 red touches table", "T1")], "green", tower, know, better_than=1) is None


def test_when_the_builder_passes_on_an_empty_table_the_next_teammate_builds() -> None:
    """A human in the builder's seat who says ok at once does not end the build with no tower."""
    state, agents = _team(3, 3)
    sizes = [len(h) for h in state.hands]
    builder = sizes.index(max(sizes))
    while state.to_move != builder:
        state.play(agents[state.to_move].choose(state))
    state.play("ok")  # the builder (a human, say) passes
    assert not state.evaluations
    nxt = state.to_move
    move = agents[nxt].choose(state)
    assert str(move) != "ok"


def test_a_teammate_leaves_the_brick_another_just_placed_unless_its_own_cards_need_it() -> None:
    # Two teammates build together; whenever one answers the other's placement with a repair (the tower is sound,
    # its cards fail), it must not move or take away that brick if moving another brick alone makes its cards hold.
    from kumiki.games.towerbrix.agents import just_placed, read_view
    from kumiki.games.towerbrix.plans import is_sound

    answered = 0
    for seed in range(6):
        game = kumiki.load_game("towerbrix", players=2, mode="base", deck="green", difficulty="medium")
        state = game.new_state(seed=seed)
        agents = [kumiki.load_agent("towerbrix-teammate", iterations=300, seed=p) for p in range(2)]
        while not state.over and not state.evaluations and len(state.history) < 60:
            player, _, deck, cards, current = read_view(state)
            fresh = just_placed(state, player)
            bricks = list(current.values())
            repair = fresh is not None and is_sound(deck, bricks)
            repair = repair and not all(card.check(Tower(bricks)) for card in cards)
            move = agents[player].choose(state)
            if repair:
                agent = agents[player]
                other = best_moves(cards, deck, current, agent._know, agent._bad, len(cards) - 1, keep=fresh)
                if other is not None:
                    answered += 1
                    assert move.brick != fresh, (seed, str(move), other)  # type: ignore[attr-defined]
            state.play(move)
    assert answered >= 3  # the situation the rule is about did come up


def test_a_repairs_searches_together_keep_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18's 3 s a move: a repair tries a plan from the tower, a new tower, then one for its own cards alone
    with more steps, for two wishes (in this game a repair spent 16 times a plan's steps before), and gets at most
    ``REPAIR_BUDGET`` times them in all; the last search gets what is left."""
    from kumiki.games.towerbrix import agents as module

    steps: list[int] = []
    solve = module.solve
    monkeypatch.setattr(module, "solve", lambda *a, **k: steps.append(k["iterations"]) or solve(*a, **k))
    game = kumiki.load_game("towerbrix", players=4, mode="base", deck="green", difficulty="medium")
    state = game.new_state(seed=13)
    agents = [kumiki.load_agent("towerbrix-teammate", iterations=100, seed=p) for p in range(4)]
    spent: list[int] = []
    while not state.evaluations:
        steps.clear()
        first = not state.history
        state.play(agents[state.to_move].choose(state))
        if not first:
            spent.append(sum(steps))
    assert max(spent) <= REPAIR_BUDGET * 100
    assert max(spent) > (REPAIR_BUDGET - 2) * 100  # repairs that tried every plan: the budget was used up


@pytest.mark.parametrize("name", ["towerbrix-solo", "towerbrix-teammate"])
def test_a_towerbrix_agent_asked_about_another_game_says_so(name: str) -> None:
    with pytest.raises(ValueError, match="play TowerBrix only, not kuzushi"):
        kumiki.load_agent(name).choose(kumiki.load_game("kuzushi").new_state())


def test_with_free_turns_a_fresh_teammate_books_the_moves_by_who_made_them() -> None:
    """Everyone builds at once: a seat may act twice in a row, so the seat after the last to act is not who moves
    next. A teammate asked anew on ``state.acting(seat)`` (as the web server asks it) rebuilds the memory of the
    persistent teammate of its seat, reading who made each move from the record, not from the cycle."""
    game = kumiki.load_game("towerbrix", players=2, mode="base", deck="green", difficulty="easy", turns="free")
    state = game.new_state(seed=6)
    agents = [kumiki.load_agent("towerbrix-teammate", iterations=200, seed=p) for p in range(2)]
    compared = 0
    for turn in range(45):
        if state.over:
            break
        player = 1 if turn % 3 == 2 else 0  # seat 0 acts twice, then seat 1
        mine = state.acting(player)
        if player == 1 and agents[1]._seen:  # type: ignore[attr-defined]
            fresh = kumiki.load_agent("towerbrix-teammate", iterations=200, seed=1)
            fresh._rebuild(mine, 1)  # type: ignore[attr-defined]
            assert _memory(fresh) == _memory(agents[1])
            compared += 1
        state.play(agents[player].choose(mine), player=player)
    assert compared >= 8 and 0 in state.movers and 1 in state.movers
    assert any(state.movers[i] == state.movers[i + 1] == 0 for i in range(len(state.movers) - 1))


def test_acting_gives_a_copy_with_that_seat_to_move() -> None:
    free = kumiki.load_game("towerbrix", players=3, turns="free").new_state(seed=1)
    mine = free.acting(2)
    assert mine.to_move == 2 and free.to_move == 0 and mine.history == free.history
    mine.play("ok", player=2)
    assert free.history == []  # a copy
    cycle = kumiki.load_game("towerbrix", players=3).new_state(seed=1)
    assert cycle.acting(0).to_move == 0
    with pytest.raises(ValueError, match="player 1 may not act now"):
        cycle.acting(1)
    kuzushi = kumiki.load_game("kuzushi").new_state()
    with pytest.raises(ValueError, match="may not act now"):
        kuzushi.acting(0)  # Kuzushi's seat 1 moves first
    assert not kuzushi.adds_nothing("B 1,0", 1)


def test_an_ok_already_given_adds_nothing() -> None:
    state = kumiki.load_game("towerbrix", players=3, turns="free").new_state(seed=1)
    assert not state.adds_nothing("ok", 2)
    state.play("ok", player=2)
    assert state.adds_nothing("ok", 2) and state.adds_nothing("OK", 2) and not state.adds_nothing("ok", 1)
    assert not state.adds_nothing("Y1 z 0,0", 2)
    state.play("Y1 z 0,0", player=0)  # an edit puts every thumb down
    assert not state.adds_nothing("ok", 2)


def test_an_ok_on_a_tower_that_cannot_pass_only_waits_with_free_turns() -> None:
    free = kumiki.load_game("towerbrix", players=2, turns="free").new_state(seed=1)
    assert free.only_waits("ok", 1)  # an empty table cannot pass: a computer's ok there is its "I wait"
    assert not free.only_waits("Y1 z 0,0", 1)
    cycle = kumiki.load_game("towerbrix", players=2).new_state(seed=1)
    assert not cycle.only_waits("ok", 0)  # under the cycle a turn is a move: the ok is played
    cycle.play("ok")
    assert cycle.only_waits("ok", 0) == cycle.adds_nothing("ok", 0)


def test_the_last_thumb_on_an_unfinished_tower_is_played_not_a_wait() -> None:
    """With free turns, when every other seat has said ok on a tower that cannot pass, a computer's ok there is the
    last thumb, not "I wait": nobody builds any more, and a server that never plays an "I wait" stalled the game (a
    random teammate beside two people who had both said ok)."""
    state = kumiki.load_game("towerbrix", players=3, turns="free").new_state(seed=1)
    state.play("Y1 z 0,0", player=0)  # one brick: the tower cannot pass
    state.play("ok", player=0)
    assert state.only_waits("ok", 2)  # seat 1 still builds: seat 2's ok waits for it
    state.play("ok", player=1)
    assert not state.only_waits("ok", 2)  # the last thumb: played, and the build ends
    assert state.only_waits("ok", 1)  # a thumb already up adds nothing, as before
    state.play("ok", player=2)
    assert state.evaluations and not state.evaluations[-1]["success"]


def test_the_team_bench_plays_a_whole_round_as_the_rules_replay_it() -> None:
    """``bench.towerbrix_team --whole-round``: a round completed at its first attempt ends there; a round failed at
    every attempt is lost after the game's three (the first attempt is the same game either way)."""
    from bench.towerbrix_team import play_round

    assert play_round(3, 200, 12)[::2] == (True, 8)  # (completed, edits): the first tower held
    assert play_round(3, 200, 12, whole=True) == (True, 1, 8)
    assert play_round(6, 200, 12)[0] is False
    assert play_round(6, 200, 12, whole=True) == (False, 3, 12)


def test_the_repair_benchs_plain_scoring_replaces_the_teammates_and_moves_alike() -> None:
    """``bench.towerbrix_repair`` times the teammate with its scoring done the plain way; it replaced
    ``agents.HandModel.chance``, which went to ``hands`` with the split of the agents, and stopped with an
    AttributeError. The plain way is swapped in for the block only, and the teammates make the same moves under it."""
    from bench.towerbrix_repair import plain
    from kumiki.games.towerbrix import hands

    kept = (hands.TeamKnowledge.holds, hands.TeamKnowledge.expected, hands.HandModel.chance)

    def moves() -> list[str]:
        game = kumiki.load_game("towerbrix", players=4, mode="base", deck="green", difficulty="medium")
        state = game.new_state(seed=13)
        agents = [kumiki.load_agent("towerbrix-teammate", iterations=100, seed=p) for p in range(4)]
        made = []
        for _ in range(6):
            move = agents[state.to_move].choose(state)
            made.append(str(move))
            state.play(move)
        return made

    with plain():
        assert hands.HandModel.chance is not kept[2] and hands.TeamKnowledge.holds is not kept[0]
        plainly = moves()
    assert (hands.TeamKnowledge.holds, hands.TeamKnowledge.expected, hands.HandModel.chance) == kept
    assert plainly == moves()
