"""The report's plain-language readings: what a designer asks ("is it fair?", "which variant is better?") answered
in words from the same figures, without claiming more than they show — a test that does not reject says "no
evidence of an edge", never "no edge", and names how large an edge the data still allow."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from kumiki.arena import stats

SIGNIFICANCE = 0.05


def p_text(p: float) -> str:
    """A p-value as the report writes it ("p = 0.012", "p < 0.001")."""
    if p < 0.001:
        return "p < 0.001"
    text = f"{p:.2g}"
    if p < SIGNIFICANCE <= float(text):  # 0.0496 is no "p = 0.05" beside a reading that it is below 0.05
        return f"p < {SIGNIFICANCE:g}"
    return f"p = {text}"


def share(rate: stats.Rate) -> str:
    """A share of the wins in whole percent with its interval: "67% [30, 90]"."""
    return f"{100 * rate.value:.0f}% [{100 * rate.low:.0f}, {100 * rate.high:.0f}]"


def seat_name(seat: int, first: int | None) -> str:
    """ "seat 1 (moves first)" for the seat that opens the game, else "seat 0": the reader needs no rulebook."""
    return f"seat {seat} (moves first)" if seat == first else f"seat {seat}"


def fairness(
    rates: Sequence[stats.Rate],
    p: float,
    test: str,
    games: int,
    forfeits: int,
    first: int | None,
    sets: int,
    shared: int = 0,
) -> tuple[str, str]:
    """A short reading ("seats differ", "no evidence of an edge") and a sentence, for one option set's seats;
    ``shared`` games ended in a shared win (a draw), which the shares split evenly among the winners."""
    if not rates or math.isnan(p):
        return "no verdict", "No verdict: no seat won a game here, so there is nothing to compare."
    fair = 1 / len(rates)
    caveat = ""
    if shared:
        every = "All" if shared == games else f"{shared} of"
        caveat = (
            f" {every} {games} games ended in a shared win (a draw), split evenly among its winners: a seat's "
            "share here is its part of the wins, not of games won outright."
        )
    if forfeits:
        caveat += (
            f" {forfeits} of {games} games ended by a forfeit, counted as a loss of the side that forfeited: these "
            "shares measure the agents' failures as well as the game."
        )
    if p < SIGNIFICANCE:
        top = max(range(len(rates)), key=lambda s: rates[s].value)
        low = min(range(len(rates)), key=lambda s: rates[s].value)
        chance = (
            f" This is one test among {sets} option sets: even with equal seats about one set in twenty would reach "
            f"p < {SIGNIFICANCE:g} by chance alone."
            if sets > 1
            else ""
        )
        return "seats differ", (
            f"Evidence that the seats are not equal ({p_text(p)}, {test}, {games} games): "
            f"{seat_name(top, first)} wins {share(rates[top])} of the games and {seat_name(low, first)} "
            f"{share(rates[low])}, against a fair {100 * fair:.0f}%.{chance}{caveat}"
        )
    outside = [s for s in range(len(rates)) if rates[s].low > fair or rates[s].high < fair]
    if outside:  # the test of every seat at once and one seat's own interval disagree: say both, claim neither
        seat = first if first in outside else outside[0]
        return "borderline", (
            f"Borderline: the test of every seat at once finds no clear edge ({p_text(p)}, {test}, {games} games), "
            f"but {seat_name(seat, first)} wins {share(rates[seat])} of the games, an interval that leaves out the "
            f"fair {100 * fair:.0f}%. The two disagree at the edge of significance; more games will settle it.{caveat}"
        )
    seat = first if first is not None and first < len(rates) else 0
    rate = rates[seat]
    return "no evidence of an edge", (
        f"No evidence that any seat wins more often than another ({p_text(p)}, {test}, {games} games). That is not "
        f"evidence that the seats are equal: {seat_name(seat, first)} wins {share(rate)} of the games, so its true "
        f"share could be anywhere from {100 * rate.low:.0f}% to {100 * rate.high:.0f}% (a fair share is "
        f"{100 * fair:.0f}%); more games narrow that range.{caveat}"
    )


def cooperative(success: stats.Rate, solo: bool = False) -> str:
    """The sentence of a co-operative option set: how often the team met its goal, and how sure that is. A ``solo``
    game (one seat: no team, and no goal but the score) counts a game with a score above 0."""
    if not success.trials:
        return "No verdict: no game was played here."
    if solo:
        return (
            f"One player, no one to beat: the player scored above 0 in {success.successes:g} of "
            f"{success.trials:g} games: {share(success)}. Its mean score (below) is the measurement."
        )
    return (
        f"The team met its goal in {success.successes:g} of {success.trials:g} games: {share(success)}. The interval "
        "is the range of success rates these games are consistent with; compare variants on it below."
    )


def comparison(c: Mapping[str, Any]) -> str:
    """The reading of one variant comparison (B against A), from its 95% interval (the mark the table shows)."""
    if any(v != v for v in (c["low"], c["high"], c.get("p", 0.0))):  # no interval, or no test (one game a side)
        return "no verdict (too few games)"
    if c["low"] > 0:
        return "higher in B"
    if c["high"] < 0:
        return "lower in B"
    return "no evidence of a difference"


def sprt(
    state: Mapping[str, Any],
    first: str,
    second: str,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_games: int | None = None,
) -> str:
    """The SPRT's decision in words: which hypothesis the games favour, what it means, and its error rates; an
    undecided test that has not reached ``max_games`` yet (a run stopped, or still going) is said to go on."""
    h0 = f"{first} is {elo0:g} Elo stronger than {second}" if elo0 else f"{first} and {second} are equally strong"
    h1 = f"{first} is {elo1:g} Elo stronger than {second}"
    errors = f"(false H1 at most {100 * alpha:g}% of the time, false H0 at most {100 * beta:g}%)"
    if state["decision"] == "H1":
        return f"Decided for H1: the games favour “{h1}” over “{h0}” {errors}."
    if state["decision"] == "H0":
        return f"Decided for H0: the games favour “{h0}” over “{h1}” {errors}."
    pairs = None if max_games is None else max(1, max_games // 2)  # the most pairs the test plays
    if pairs is not None and state["pairs"] < pairs:
        return (
            f"Undecided so far: {state['pairs']} of at most {pairs} game pairs played, and the games "
            f"favour neither “{h1}” nor “{h0}” strongly enough yet; running the study again plays on."
        )
    return (
        f"Undecided: after {state['pairs']} game pairs the games favour neither “{h1}” nor “{h0}” strongly enough; "
        "the test stopped at max_games. Read the ratings' interval for what the games do show."
    )
