"""Kozo over the server: listed in the catalog, its own agents behind the lobby's levels, a game played to the end."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from tests.server.helpers import HUMAN, create, receive_until, url, view_at

import kumiki
from kumiki.games.kozo.agents import TIE_DEG
from kumiki.server.agents import GAME_LEVELS, LEVELS, level_agent

RANDOM = {"kind": "agent", "agent": "random"}


def test_the_catalog_lists_kozo_with_its_options_and_the_same_level_names(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    kozo = next(g for g in catalog["games"] if g["name"] == "kozo")
    assert kozo["players"] == [1, 6]
    options = {o["name"]: o for o in kozo["options"]}
    assert options["rounds"]["default"] == 3 and options["tiebreak"]["choices"] == ["shared", "later_turn"]
    assert catalog["levels"] == list(LEVELS)  # the per-game levels change the agents, not the names
    assert kozo["level_notes"]["hard"].startswith("about ") and kozo["level_notes"]["hard"].endswith("Elo above medium")
    assert "easy" not in kozo["level_notes"]  # nothing below easy


def test_kozo_levels_are_its_own_agents_and_other_games_keep_theirs() -> None:
    assert set(GAME_LEVELS["kozo"]) <= set(LEVELS)
    assert level_agent("kozo", "easy") == ("kozo-greedy", {})
    assert level_agent("kozo", "medium") == ("mcts", {"iterations": 80})
    # a fixed budget, the strength measured; capped in wall time where a cold position would take longer than 3 s
    assert level_agent("kozo", "hard") == ("mcts", {"iterations": 250, "max_seconds": 2.5})
    assert level_agent("kozo", "random") == ("random", {})
    assert level_agent("kuzushi", "easy") == ("greedy", {}) and level_agent("blokus3d", "hard")[0] == "mcts"


def test_a_kozo_game_against_random_is_played_to_the_end_and_its_record_replays(client: TestClient) -> None:
    game = create(client, [{"kind": "human", "name": "ann"}, RANDOM], game="kozo", seed=4, options={"rounds": 2})
    rng = random.Random(2)
    with client.websocket_connect(url(game, 0)) as ws:
        view = receive_until(ws, view_at(0))
        start = kumiki.load_game("kozo", rounds=2).new_state(seed=4)
        assert view["to_move"] == 0 and view["legal"] == [str(m) for m in start.legal_moves()]
        assert view["view"] == start.view(0) and len(view["legal"]) == 572
        while not view["over"]:
            if view["to_move"] == 0 and view["legal"]:
                ws.send_json({"type": "move", "ply": view["ply"], "move": rng.choice(view["legal"])})
                view = receive_until(ws, view_at(view["ply"] + 1))
            else:
                seen = view["ply"]
                view = receive_until(ws, lambda m, seen=seen: m["type"] == "view" and m["ply"] > seen)
    assert view["to_move"] is None and view["winners"] and view["view"]["round"] == 2
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "over" and summary["winners"] == view["winners"]
    assert summary["moves"] == len(view["history"]) and summary["scores"] == view["scores"]
    _game, state = kumiki.read_record(client.get(f"/api/games/{game['id']}/record").text)
    assert [str(m) for m in state.history] == view["history"] and state.public_view() == view["view"]
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["states"][-1] == view["view"] and len(replay["states"]) == len(view["history"]) + 1


def test_a_refused_kozo_move_gets_the_engines_reason(client: TestClient) -> None:
    game = create(client, [HUMAN, HUMAN], game="kozo", seed=1)
    with client.websocket_connect(url(game, 0)) as ws:
        receive_until(ws, view_at(0))
        ws.send_json({"type": "move", "ply": 0, "move": "I2 0,1,0 1,1,0 + 0,1,1"})
        refusal = receive_until(ws, lambda m: m["type"] == "error")
        assert refusal["code"] == "illegal" and "chimney" in refusal["message"]
        assert receive_until(ws, lambda m: m["type"] == "view")["ply"] == 0


def test_the_easy_kozo_computer_plays_the_largest_standing_piece_with_the_safest_balance_cube(
    client: TestClient,
) -> None:
    game = create(client, [{"kind": "agent", "level": "easy"}, HUMAN], game="kozo", seed=3)
    with client.websocket_connect(url(game, 1)) as ws:
        view = receive_until(ws, view_at(1))
    state = kumiki.load_game("kozo").new_state(seed=3)
    move = kumiki.load_game("kozo").parse_move(view["last"])
    assert move.piece == "U5"  # kozo-greedy: the largest piece, and on the empty base some U5 stands
    margins = {}
    for other in state.legal_moves():
        if (other.piece, other.cells) == (move.piece, move.cells):
            after = state.copy()
            after.play(other)
            margins[other.balance] = after.margin() if after.to_json()["fall"] is None else -1.0
    best = max(margins.values())
    # the balance cube at the safest spot (margins within the judge's rounding, TIE_DEG, are one margin)
    assert best > 0 and margins[move.balance] >= best - TIE_DEG


def test_a_random_size_game_from_the_web_draws_a_tile_of_a_piece_left(client: TestClient) -> None:
    """The web app's default draw is the issue's (a scoring tile per piece); the engine keeps "size" for games stored
    before the option existed, and a game created with it keeps it."""
    game = create(client, [HUMAN, HUMAN], game="kozo", seed=3, options={"random_size": True})
    assert client.get(f"/api/games/{game['id']}").json()["options"]["size_draw"] == "tile"
    chosen = create(client, [HUMAN, HUMAN], game="kozo", seed=3, options={"random_size": True, "size_draw": "size"})
    assert client.get(f"/api/games/{chosen['id']}").json()["options"]["size_draw"] == "size"
    assert kumiki.load_game("kozo").options["size_draw"] == "size"
