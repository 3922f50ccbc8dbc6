"""Ratings with honest uncertainty, on the Elo scale.

One model covers every competitive format: Plackett–Luce over each game's finishing order of sides (a side is a
team, or one seat), where a side's strength is the mean, over its seats, of the agent's skill plus the seat's
advantage. With two sides this is Bradley–Terry (a draw counts as half a win each way); the seat term keeps seat
advantage and skill apart (a first-player edge is not credited to whoever sat first more often). Tied sides share
a place: the event counts as the geometric mean of their choices, so a two-player draw is half a win each way, as
in Bradley–Terry. A weak Gaussian prior keeps ratings finite when an agent wins every game.
Intervals are percentile bootstraps over the independent units of the schedule: seed blocks, or in a game of chance
the game seeds, each drawn with every block played on it (``stats.bootstrap_unit``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kumiki.arena.stats import BATCH_CELLS, RESAMPLES, bootstrap_unit, places, sides

ELO = 400.0 / math.log(10.0)  # natural log-strength -> Elo points
PRIOR = 0.01  # ridge weight on skills and seat terms (natural units): finite ratings, negligible otherwise


@dataclass(frozen=True)
class Rating:
    """One agent's rating: Elo-scale ``rating`` (the agents' mean is 0) with its 95% interval, and games played."""

    agent: str
    rating: float
    low: float
    high: float
    games: int

    def to_json(self) -> dict[str, Any]:
        """The contract's row: ``{"agent", "rating", "low", "high", "games"}``."""

        def number(value: float) -> float | None:  # JSON has no NaN: an interval not defined is null
            return round(value, 1) + 0.0 if math.isfinite(value) else None  # + 0.0: no -0.0

        return {
            "agent": self.agent,
            "rating": number(self.rating),
            "low": number(self.low),
            "high": number(self.high),
            "games": self.games,
        }


@dataclass(frozen=True)
class Fit:
    """Skills (Elo, mean 0) and seat terms (Elo, mean 0) of one fit; the seat terms of each number of players in
    turn, fewest first (one number: one term per seat)."""

    skills: np.ndarray
    seats: np.ndarray
    held: np.ndarray | None = None  # a resample's: whether it holds any game of each agent (None: every agent)


class Events:
    """A study's games as Plackett–Luce choice events: at each place, the sides finishing there are chosen from
    the sides not yet placed (down to the last two places; sides tied for last still make one event: a draw).
    Built once; bootstraps reweight the events by their unit's multiplicity: the seed block of the event's game, or
    in a game of ``chance`` its game seed (``stats.bootstrap_unit``)."""

    def __init__(self, rows: Sequence[dict[str, Any]], agents: Sequence[str], chance: bool = False) -> None:
        self.agents = list(agents)
        index = {a: i for i, a in enumerate(self.agents)}
        # One seat term per seat of each number of players: seat 2 of three is not seat 2 of four.
        counts = sorted({len(r["seats"]) for r in rows}) or [2]
        self.players = max(counts)
        self.seat_offset: dict[int, int] = {}
        n_params = len(self.agents)
        for count in counts:
            self.seat_offset[count] = n_params
            n_params += count
        side_rows: list[np.ndarray] = []  # per side: its weights over the parameters
        win_pairs: list[tuple[int, int]] = []  # (event, side)
        cand_pairs: list[tuple[int, int]] = []
        chosen_count: list[int] = []
        units: dict[tuple[str, int], int] = {}
        blocks: list[int] = []  # per event: its unit (a block's number, or a seed's in order of appearance)
        players: list[tuple[int, int]] = []  # (event, agent): the agents each event involves
        self.games = {a: 0 for a in self.agents}
        event = 0
        for row in rows:
            teams = sides(row)
            if len(set(teams)) < 2:
                continue  # co-operative: no order between sides
            for name in set(row["seats"]):
                self.games[name] += 1
            members: dict[int, list[int]] = {}
            for seat, side in enumerate(teams):
                members.setdefault(side, []).append(seat)
            side_ids: dict[int, int] = {}
            for side, seats in members.items():
                vector = np.zeros(n_params)
                for seat in seats:
                    vector[index[row["seats"][seat]]] += 1.0 / len(seats)
                    vector[self.seat_offset[len(teams)] + seat] += 1.0 / len(seats)
                side_ids[side] = len(side_rows)
                side_rows.append(vector)
            ranks = places(row)
            place = {side: min(ranks[s] for s in seats) for side, seats in members.items()}
            remaining = sorted(members, key=lambda s: place[s])
            while len(remaining) > 1:
                best = place[remaining[0]]
                chosen = [s for s in remaining if place[s] == best]
                for side in remaining:
                    cand_pairs.append((event, side_ids[side]))
                for side in chosen:
                    win_pairs.append((event, side_ids[side]))
                players.extend((event, index[row["seats"][seat]]) for side in remaining for seat in members[side])
                chosen_count.append(len(chosen))
                unit = bootstrap_unit(row, chance)  # without chance: the block's own number, as it always was
                blocks.append(units.setdefault(unit, len(units)) if chance else unit[1])
                remaining = [s for s in remaining if place[s] != best]
                event += 1
        self.n_events = event
        self.n_params = n_params
        self.side_matrix = np.array(side_rows) if side_rows else np.zeros((0, n_params))
        self.win = np.array(win_pairs, dtype=np.int64).reshape(-1, 2)
        self.cand = np.array(cand_pairs, dtype=np.int64).reshape(-1, 2)
        self.chosen = np.array(chosen_count, dtype=float)
        self.blocks = np.array(blocks, dtype=np.int64)
        self.players_of = np.array(players, dtype=np.int64).reshape(-1, 2)

    def fit(self, weights: np.ndarray | None = None, prior: float = PRIOR) -> Fit:
        """The maximum a posteriori skills and seat terms for events weighted by ``weights`` (default all 1)."""
        n_agents = len(self.agents)
        if self.n_events == 0:
            return Fit(np.zeros(n_agents), np.zeros(self.n_params - n_agents))
        params = self.fit_params(weights, prior)
        skills = params[:n_agents]
        seats = params[n_agents:]
        return Fit((skills - skills.mean()) * ELO, (seats - seats.mean()) * ELO)

    def fit_params(self, weights: np.ndarray | None = None, prior: float = PRIOR) -> np.ndarray:
        """``fit``'s parameters in natural units, as fitted (not centred)."""
        from scipy.optimize import minimize  # type: ignore[import-untyped]  # scipy ships no type information

        w = np.ones(self.n_events) if weights is None else weights
        if self.n_events == 0:
            return np.zeros(self.n_params)
        side_matrix, win, cand, chosen = self.side_matrix, self.win, self.cand, self.chosen

        def objective(params: np.ndarray) -> tuple[float, np.ndarray]:
            strength = side_matrix @ params
            top = np.full(self.n_events, -np.inf)
            np.maximum.at(top, cand[:, 0], strength[cand[:, 1]])
            shifted = np.exp(strength[cand[:, 1]] - top[cand[:, 0]])
            total = np.bincount(cand[:, 0], weights=shifted, minlength=self.n_events)
            log_total = np.log(total) + top
            share = (w / chosen)[win[:, 0]]  # k sides tied at a place: each is 1/k of a choice
            nll = float(np.sum(w * log_total) - np.sum(share * strength[win[:, 1]]))
            grad_side = np.bincount(cand[:, 1], weights=(w / total)[cand[:, 0]] * shifted, minlength=len(strength))
            grad_side -= np.bincount(win[:, 1], weights=share, minlength=len(strength))
            grad = side_matrix.T @ grad_side + prior * params
            return nll + 0.5 * prior * float(params @ params), grad

        answer = minimize(objective, np.zeros(self.n_params), jac=True, method="L-BFGS-B")
        params: np.ndarray = answer.x
        return params


NEWTON_STEPS = 100  # at most; a fit ends when its gradient is below NEWTON_TOLERANCE (natural units)
NEWTON_TOLERANCE = 1e-7  # a parameter within 1e-7 / PRIOR natural units (0.004 Elo) of the optimum
# Parameters (agents and seat terms) up to which the resamples are fitted together by Newton's method: its Hessians
# cost the square of them per resample and step. 200 resamples of a study of two-player games, a core's seconds,
# Newton against a scipy fit each: 4 agents, 400 games 0.08 against 0.09; 12 agents 0.12 against 0.13; 16 agents,
# 600 games 0.60 against 0.15; 30 agents, 1,000 games 2.2 against 0.23; 100 agents, 1,000 games 33 against 0.8.
NEWTON_PARAMS = 14


def _fit_many(events: Events, weights: np.ndarray, prior: float = PRIOR) -> np.ndarray:
    """The maximum a posteriori parameters (natural units) of ``Events.fit`` for each row of ``weights`` (resamples
    × events) at once: Newton's method with a backtracking line search on the same convex objective (the events'
    weighted negative log-likelihood plus the ridge prior), every resample a row of numpy arrays, so thousands of
    resamples cost little more than one scipy fit each did, for up to ``NEWTON_PARAMS`` parameters (its Hessians cost
    the square of them: ``bootstrap`` fits larger studies one scipy fit a resample)."""
    n_params, n_events = events.n_params, events.n_events
    cand_event, win_event = events.cand[:, 0], events.win[:, 0]
    starts = np.searchsorted(cand_event, np.arange(n_events))  # each event's candidates are consecutive
    xc = events.side_matrix[events.cand[:, 1]]  # candidates × parameters
    xw = events.side_matrix[events.win[:, 1]]
    share = weights / events.chosen  # k sides tied at a place: each is 1/k of a choice
    chosen_sum = share[:, win_event] @ xw  # resamples × parameters: the chosen sides' weights, fixed
    eye = prior * np.eye(n_params)

    def objective(theta: np.ndarray, w: np.ndarray, fixed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        strength = theta @ xc.T
        top = np.maximum.reduceat(strength, starts, axis=1)
        shifted = np.exp(strength - top[:, cand_event])
        total = np.add.reduceat(shifted, starts, axis=1)
        value = np.sum(w * (np.log(total) + top), axis=1) - np.sum(fixed * theta, axis=1)
        return value + 0.5 * prior * np.sum(theta * theta, axis=1), shifted / total[:, cand_event], total

    theta = np.zeros((len(weights), n_params))
    batch = max(1, BATCH_CELLS // max(1, len(xc) * n_params + n_events * n_params + n_params * n_params))
    for begin in range(0, len(weights), batch):
        w, fixed, t = weights[begin : begin + batch], chosen_sum[begin : begin + batch], theta[begin : begin + batch]
        value, prob, _ = objective(t, w, fixed)
        for _ in range(NEWTON_STEPS):
            a = w[:, cand_event] * prob  # each candidate's weighted probability
            grad = a @ xc - fixed + prior * t
            active = np.abs(grad).max(axis=1) >= NEWTON_TOLERANCE  # the resamples not yet fitted
            if not active.any():
                break
            grad[~active] = 0.0  # a fitted resample stays where it is (a step of 0)
            mean = np.add.reduceat(prob[:, :, None] * xc[None], starts, axis=1)  # resamples × events × parameters
            hessian = np.einsum("bc,cp,cq->bpq", a, xc, xc, optimize=True)
            hessian -= np.einsum("be,bep,beq->bpq", w, mean, mean, optimize=True)
            step = np.linalg.solve(hessian + eye, grad[:, :, None])[:, :, 0]
            size = np.ones(len(t))
            slope = np.sum(grad * step, axis=1)
            for _ in range(40):  # halve each resample's step until its objective falls enough (Armijo)
                trial = t - size[:, None] * step
                new_value, new_prob, _ = objective(trial, w, fixed)
                # up to rounding: at the optimum a step changes the objective by less than its last digits
                bad = new_value > value - 1e-4 * size * slope + 1e-12 * np.abs(value)
                if not bad.any():
                    break
                size = np.where(bad, size / 2, size)
            t, value, prob = trial, new_value, new_prob
        theta[begin : begin + batch] = t
    return theta


def bootstrap(events: Events, resamples: int = RESAMPLES, seed: int = 0, prior: float = PRIOR) -> list[Fit]:
    """Fits on resamples of the units (each seed block, or game seed, drawn with replacement, all its events with
    it), all at once (``_fit_many``; past NEWTON_PARAMS parameters, one at a time). Each fit says which agents its
    resample holds games of (``Fit.held``): a resample without any game of an agent rates it by the prior alone, at
    the agents' mean, so that agent's interval is read from the other resamples (``rate``); a study stopped after an
    agent's first blocks read, before, an interval reaching for the mean on no evidence."""
    if events.n_events == 0:
        return []
    unique, position = np.unique(events.blocks, return_inverse=True)
    unit_agents = np.zeros((len(unique), len(events.agents)), dtype=bool)  # the agents each unit has games of
    unit_agents[position[events.players_of[:, 0]], events.players_of[:, 1]] = True
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(unique), (resamples, len(unique)))
    counts = np.zeros((resamples, len(unique)))
    np.add.at(counts, (np.arange(resamples)[:, None], draws), 1.0)
    weights = counts[:, position]
    if events.n_params <= NEWTON_PARAMS:
        params = _fit_many(events, weights, prior)
    else:  # many agents: one scipy fit each is the faster (NEWTON_PARAMS)
        params = np.array([events.fit_params(w, prior) for w in weights])
    n_agents = len(events.agents)
    skills, seats = params[:, :n_agents], params[:, n_agents:]
    skills = (skills - skills.mean(axis=1, keepdims=True)) * ELO
    seats = (seats - seats.mean(axis=1, keepdims=True)) * ELO
    held = (counts > 0) @ unit_agents
    return [Fit(skills[i], seats[i], held[i]) for i in range(resamples)]


def _holds(fit: Fit, agent: int) -> bool:
    return fit.held is None or bool(fit.held[agent])


def _aligned(fit: Fit, point: Fit) -> np.ndarray:
    """A resample's skills on the point fit's scale. The skills' mean is 0 over every agent, those the resample has
    no game of included (the prior puts them at that mean), so without some agents the others' ratings shift; the
    fit is moved so that the agents it holds have the mean they have in the point fit. A resample that holds every
    agent is left as it is."""
    held = fit.held
    if held is None or bool(held.all()):
        return fit.skills
    return fit.skills + float(point.skills[held].mean() - fit.skills[held].mean())


# Bootstrap intervals narrower than this (Elo points) are the same figure in every resample: no interval.
SAME_IN_EVERY_RESAMPLE = 0.5


def percentile_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% percentile interval of bootstrap values; NaN when there are none, or when every resample gave the
    same figure (one seed block; or blocks all alike, e.g. one agent won every pair): the data then set no limit
    on it, the prior sets the figure, and an interval of width 0 would claim certainty."""
    if len(values) == 0:
        return math.nan, math.nan
    low, high = (float(v) for v in np.percentile(values, [2.5, 97.5]))
    if high - low < SAME_IN_EVERY_RESAMPLE:
        return math.nan, math.nan
    return low, high


def rate(
    rows: Sequence[dict[str, Any]],
    agents: Sequence[str],
    resamples: int = RESAMPLES,
    seed: int = 0,
    chance: bool = False,
) -> list[Rating]:
    """Every agent's rating with its 95% bootstrap interval (NaN where there is none), best first; ``chance``: the
    game deals from its seed, so the bootstrap draws the games of one seed together (``stats.bootstrap_unit``)."""
    events = Events(rows, agents, chance)
    point = events.fit()
    fits = bootstrap(events, resamples, seed)
    table = []
    aligned = [_aligned(f, point) for f in fits]
    for i, agent in enumerate(agents):
        low, high = percentile_interval([skills[i] for f, skills in zip(fits, aligned, strict=True) if _holds(f, i)])
        table.append(Rating(agent, float(point.skills[i]), low, high, events.games[agent]))
    return sorted(table, key=lambda r: -r.rating)


def seat_advantage(
    rows: Sequence[dict[str, Any]],
    agents: Sequence[str],
    resamples: int = RESAMPLES,
    seed: int = 0,
    chance: bool = False,
) -> list[tuple[float, float, float]]:
    """Each seat's advantage (Elo scale, seats' mean 0) with its 95% interval, skills held apart, in games of one
    number of players (the report fits each number apart); ``chance`` as for ``rate``."""
    if len({len(r["seats"]) for r in rows}) > 1:
        raise ValueError("seat advantage compares the seats of games of one number of players: group them first")
    events = Events(rows, agents, chance)
    point = events.fit()
    fits = bootstrap(events, resamples, seed)
    out = []
    for seat in range(events.players):
        low, high = percentile_interval([f.seats[seat] for f in fits])
        out.append((float(point.seats[seat]), low, high))
    return out
