"""The report's plain-language readings: what a designer asks ("is it fair?", "which variant is better?") answered
in words from the same figures, without claiming more than they show — a test that does not reject says "no
evidence of an edge", never "no edge", and names how large an edge the data still allow."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from kumiki.arena import intervals, stats

SIGNIFICANCE = 0.05


def p_text(p: float) -> str:
    """A p-value as the report writes it ("p = 0.012", "p < 0.001")."""
    if p < 0.001:
        return "p < 0.001"
    text = f"{p:.2g}"
    if p < SIGNIFICANCE <= float(text):  # 0.0496 is no "p = 0.05" beside a reading that it is below 0.05
        return f"p < {SIGNIFICANCE:g}"
    return f"p = {text}"


def interval_end(value: float, digits: int = 1) -> str:
    """An interval's end signed, to ``digits`` decimals, or to its first significant digit where those would round it
    to zero: an end that leaves out 0 (a difference read as real) never reads "+0.0" or "-0.0" ("+0.005")."""
    if value and math.isfinite(value) and round(value, digits) == 0:
        return f"{value:+.1g}"
    return f"{value:+.{digits}f}"


def games_text(count: int) -> str:
    """A count of games in words: "1 game" ("1 games" read as a typo), "2 games"."""
    return f"{count} game" if count == 1 else f"{count} games"


def share(rate: intervals.Rate) -> str:
    """A share of the wins in whole percent with its interval: "67% [30, 90]"."""
    return f"{100 * rate.value:.0f}% [{100 * rate.low:.0f}, {100 * rate.high:.0f}]"


def seat_name(seat: int, first: int | None) -> str:
    """ "seat 1 (moves first)" for the seat that opens the game, else "seat 0": the reader needs no rulebook."""
    return f"seat {seat} (moves first)" if seat == first else f"seat {seat}"


def fairness(
    rates: Sequence[intervals.Rate],
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
    played = games_text(games)
    caveat = ""
    if shared:
        every = f"All {played}" if shared == games else f"{shared} of {played}"
        caveat = (
            f" {every} ended in a shared win (a draw), split evenly among its winners: a seat's "
            "share here is its part of the wins, not of games won outright."
        )
    if forfeits:
        caveat += (
            f" {forfeits} of {played} ended by a forfeit, counted as a loss of the side that forfeited: these "
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
            f"Evidence that the seats are not equal ({p_text(p)}, {test}, {played}): "
            f"{seat_name(top, first)} wins {share(rates[top])} of the games and {seat_name(low, first)} "
            f"{share(rates[low])}, against a fair {100 * fair:.0f}%.{chance}{caveat}"
        )
    outside = [s for s in range(len(rates)) if rates[s].low > fair or rates[s].high < fair]
    if outside:  # the test of every seat at once and one seat's own interval disagree: say both, claim neither
        seat = first if first in outside else outside[0]
        return "borderline", (
            f"Borderline: the test of every seat at once finds no clear edge ({p_text(p)}, {test}, {played}), "
            f"but {seat_name(seat, first)} wins {share(rates[seat])} of the games, an interval that leaves out the "
            f"fair {100 * fair:.0f}%. The two disagree at the edge of significance; more games will settle it.{caveat}"
        )
    seat = first if first is not None and first < len(rates) else 0
    rate = rates[seat]
    return "no evidence of an edge", (
        f"No evidence that any seat wins more often than another ({p_text(p)}, {test}, {played}). That is not "
        f"evidence that the seats are equal: {seat_name(seat, first)} wins {share(rate)} of the games, so its true "
        f"share could be anywhere from {100 * rate.low:.0f}% to {100 * rate.high:.0f}% (a fair share is "
        f"{100 * fair:.0f}%); more games narrow that range.{caveat}"
    )


def cooperative(success: intervals.Rate, solo: bool = False) -> str:
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
        "is the range of success rates these games are consistent with (more games narrow it); compare variants on it "
        "below."
    )


def comparison(c: Mapping[str, Any]) -> str:
    """The reading of one variant comparison (B against A), from its 95% interval (the mark the table shows)."""
    if any(v != v for v in (c["low"], c["high"], c.get("p", 0.0))):  # no interval, or no test (one game a side)
        return f"no verdict ({c.get('no_verdict') or 'too few games'})"
    if c["low"] > 0:
        return "higher in B"
    if c["high"] < 0:
        return "lower in B"
    return "no evidence of a difference"


def _elo(value: float) -> str:
    """Elo points signed, as the tables write them: "+64", "-19", "0"."""
    whole = round(value)
    return f"{whole:+d}" if whole else "0"


def _elo_range(low: float | None, high: float | None) -> str:
    if low is None or high is None or low != low or high != high:
        return "no interval"
    return f"[{_elo(low)}, {_elo(high)}]"


def _finite(low: float | None, high: float | None) -> bool:
    return low is not None and high is not None and math.isfinite(low) and math.isfinite(high)


def ratings(table: Sequence[Mapping[str, Any]], matrix: Mapping[tuple[str, str], intervals.Rate]) -> str:
    """Who is strongest, in words, and whether the games tell it apart from the next best: from their games
    against each other where they met (the top agent's score and its interval against the even 50%), else from
    whether their rating intervals overlap. ``table``: the summary's ratings, any order."""
    ranked = sorted(table, key=lambda r: -r["rating"])
    if len(ranked) < 2:
        return ""
    order = "Strongest first: " + ", ".join(r["agent"] for r in ranked) + "."
    top, nxt = ranked[0], ranked[1]
    a, b = top["agent"], nxt["agent"]
    rated = (
        f"{_elo(top['rating'])} {_elo_range(top['low'], top['high'])}; {b}: {_elo(nxt['rating'])} "
        f"{_elo_range(nxt['low'], nxt['high'])}"
    )
    met = matrix.get((a, b))
    if met is not None and met.trials > 0 and math.isfinite(met.low) and math.isfinite(met.high):
        if met.low > 0.5:
            return (
                f"{order} {a} is rated highest ({rated}) and is stronger than {b}, the next: it scored "
                f"{share(met)} against it in their games, more than the even 50% (unlikely to be chance alone)."
            )
        if met.high < 0.5:
            return (
                f"{order} {a} is rated highest ({rated}), yet it scored only {share(met)} against {b} in their "
                "games: the ratings (from every game) and that match disagree, so the games cannot yet tell which "
                "of the two is stronger; play more games to tell."
            )
        return (
            f"{order} {a} is rated highest ({rated}), but the games cannot yet tell it from {b}, the next: it scored "
            f"{share(met)} against it, an interval that holds the even 50%. Play more games to tell them apart."
        )
    if _finite(top["low"], top["high"]) and _finite(nxt["low"], nxt["high"]) and top["low"] > nxt["high"]:
        return f"{order} {a} is rated highest ({rated}), and its interval lies wholly above {b}'s, the next."
    return (
        f"{order} {a} is rated highest ({rated}), but the games cannot yet tell it from {b}, the next: "
        "their intervals overlap (or one has none). Play more games to tell them apart."
    )


def few_deciding(deciding: int) -> bool:
    """Whether the seats' edges of one number of players rest on too few games to read: fewer than
    ``stats.FEW_DECIDING`` units the seats decided (``stats.seat_deciding_units``). Such an edge's interval often
    ends at exactly 0 (the resamples without the few deciding games all give no edge, and that end is where they pile
    up, not a measured limit); an interval that ends near 0 among many deciding units is a measurement like any other
    (Kuzushi's four-player first mover, +28 [-0.4, +57] over 160 deciding blocks), so it is not flagged."""
    return deciding < stats.FEW_DECIDING


def few_deciding_text(deciding: int, units: int, unit: str) -> str:
    """The caution of ``few_deciding``, as a sentence."""
    return (
        f"Caution: the seats' figures rest on only {deciding} of the {units} {unit} in which the seat, not the "
        "agents, decided a game (an agent's place changed with its seat); in the others each agent finished where it "
        "did in every seating, which says nothing about seats. Read an edge resting on so few games, or an interval "
        "that ends at 0, as no evidence either way: play more games, or agents closer in skill."
    )


def seat_advantage(
    entries: Sequence[Mapping[str, Any]],
    first: int | None,
    units: Mapping[int, int] | None = None,
    unit: str = "",
    deciding: Mapping[int, int] | None = None,
    pooled: Mapping[int, int] | None = None,
) -> str:
    """The seats' edge with skill held apart, in words, per number of players: the seat whose interval leaves out
    0 (an edge unlikely to be chance alone), or that no seat's edge is clear and how large one the games allow.
    ``units``: the bootstrap's independent units per number of players (``unit`` names them: "seed blocks"); below
    ``stats.FEW_BLOCKS`` an edge found is said to rest on too few of them. ``deciding``: how many of those units the
    seats decided (``stats.seat_deciding_units``); where ``few_deciding``, the reading ends with its caution.
    ``pooled``: how many option sets each number of players has; where several, the reading says the figure is
    their blend (first mover +45 Elo over sizes 4 and 8 of Kuzushi, where on size 4 the first mover won 35%)."""
    sentences = []
    counts = sorted({e["players"] for e in entries})
    for n in counts:
        seats = [e for e in entries if e["players"] == n]
        prefix = f"{n} players: " if len(counts) > 1 else ""
        known = [e for e in seats if _finite(e["low"], e["high"])]
        decided = (deciding or {}).get(n)
        caution = (
            " " + few_deciding_text(decided, (units or {}).get(n, decided), unit or "seed blocks")
            if decided is not None and few_deciding(decided)
            else ""
        )
        sets = (pooled or {}).get(n, 1)
        if sets > 1:
            caution = (
                f" This pools the {sets} option sets with {n} players: where the seats' edge changes with the options, "
                "it is their blend, not any one set's (each set's own section gives its seats' shares)." + caution
            )
        if not known:
            sentences.append(f"{prefix}no interval: the games do not show how large a seat's edge may be.{caution}")
            continue
        real = [e for e in known if e["low"] > 0 or e["high"] < 0]
        if real:
            parts = []
            for e in real:
                expected = 100 / (1 + 10 ** (-e["elo"] / 400))
                way = "above" if e["elo"] > 0 else "below"
                parts.append(
                    f"{seat_name(e['seat'], first)} is {_elo(e['elo'])} Elo {_elo_range(e['low'], e['high'])} "
                    f"{way} the average seat (about {expected:.0f}% expected score against it)"
                )
            few = (units or {}).get(n, stats.FEW_BLOCKS)
            hedge = (
                f", but from only {few} {unit}: too few for these intervals to mean much (see below); play more games "
                "before acting on it"
                if few < stats.FEW_BLOCKS
                else ""
            )
            sentences.append(
                f"{prefix}with the agents' skill held apart, "
                + "; ".join(parts)
                + f": unlikely to be chance alone{hedge}.{caution}"
            )
        else:
            widest = max(max(abs(e["low"]), abs(e["high"])) for e in known)
            sentences.append(
                f"{prefix}with the agents' skill held apart, no seat's edge is clear: every seat's interval holds 0, "
                f"and edges up to {widest:.0f} Elo either way are still possible; more games narrow that.{caution}"
            )
    text = " ".join(sentences)
    return text[:1].upper() + text[1:]


def ladder_step(agent: str, below: str, rate: intervals.Rate) -> str:
    """The reading of one step of a ladder: does ``agent`` beat the one below it?"""
    if not (math.isfinite(rate.low) and math.isfinite(rate.high)) or not rate.trials:
        return "no verdict (no games)"
    if rate.low > 0.5:
        return f"{agent} is stronger than {below}"
    if rate.high < 0.5:
        return f"{agent} is weaker than {below}"
    return "cannot tell yet (the interval holds 50%): play more games"


def _varied(label: str, option: str) -> tuple[str, str]:
    """An option set's label split into the option that varies ("players=3") and the rest ("size=5")."""
    parts = label.split(", ")
    varied = [p for p in parts if p.startswith(f"{option}=")]
    if len(varied) != 1:
        return label, ""
    return varied[0], ", ".join(p for p in parts if p != varied[0])


def comparisons(rows: Sequence[Mapping[str, Any]]) -> str:
    """The variant comparisons in one or two sentences: which figures differ between variants (and which way),
    or that none does yet, with the caveat of many tests."""
    if not rows:
        return ""
    real = [c for c in rows if c["reading"] in ("higher in B", "lower in B")]
    n = len(rows)
    # a row with no interval (too few games, or a spread between unlike numbers of games) shows no evidence either way
    undecided = sum(1 for c in rows if str(c["reading"]).startswith("no verdict"))
    why = "its row says why" if undecided == 1 else "their rows say why"
    chance = (
        f" With {n} comparisons, about one in twenty is marked real by chance alone where the variants do not differ."
        if n > 1
        else ""
    )
    if not real:
        held = "every interval still holds zero"
        if undecided == n:
            held = f"none has an interval yet: no verdict ({why})"
        elif undecided:
            gives = "gives" if undecided == 1 else "give"
            held = f"{undecided} {gives} no verdict ({why}), every other interval still holds zero"
        return (
            f"No comparison shows a difference between the variants ({n} in all): {held}. "
            "That does not show the variants play alike: the intervals' ends give how large a difference is still "
            f"possible, and more games narrow them.{chance}"
        )
    found = []
    for c in real:
        (a, rest), (b, _) = _varied(c["a"], c["option"]), _varied(c["b"], c["option"])
        way = "higher" if c["reading"] == "higher in B" else "lower"
        if c["unit"] == "share":
            values = f"{100 * c['a_value']:.1f}% → {100 * c['b_value']:.1f}%"
            diff = f"{100 * c['difference']:+.1f} pts [{interval_end(100 * c['low'])}, {interval_end(100 * c['high'])}]"
        else:
            values = f"{c['a_value']:.1f} → {c['b_value']:.1f} {c['unit']}"
            diff = f"{c['difference']:+.1f} [{interval_end(c['low'])}, {interval_end(c['high'])}]"
        where = f" (at {rest})" if rest else ""
        the = "" if c["figure"].startswith("seat ") else "the "  # "seat 2's share", not "the seat 2's share"
        found.append(f"{the}{c['figure']} is {way} with {b} than with {a}{where}: {values}, {diff}, {p_text(c['p'])}")
    others = "" if len(real) == n else " The others show no evidence of a difference."
    if undecided:
        plain = n - len(real) - undecided
        gives = "gives" if undecided == 1 else "give"
        others = f" Of the others, {undecided} {gives} no verdict ({why})"
        others += f" and {plain} {'shows' if plain == 1 else 'show'} no evidence of a difference." if plain else "."
    verb = "shows" if len(real) == 1 else "show"
    return (
        f"{len(real)} of {n} comparisons {verb} a difference unlikely to be chance alone: "
        + "; ".join(found)
        + f".{others}{chance}"
    )


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
    errors = (
        f"A test run this way decides for H1 when H0 is true at most {100 * alpha:g}% of the time, and for H0 when "
        f"H1 is true at most {100 * beta:g}%."
    )
    if state["decision"] == "H1":
        return (
            f"Decided for H1: the games favour “{h1}” over “{h0}”. In plain words: {first} is stronger than "
            f"{second}, by an edge nearer {elo1:g} than {elo0:g} Elo (the ratings give its size). {errors}"
        )
    if state["decision"] == "H0":
        plain = (
            f"{first} is not shown to be {elo1:g} Elo stronger than {second}: any edge it has is closer to "
            f"{elo0:g} than to {elo1:g} Elo"
        )
        return f"Decided for H0: the games favour “{h0}” over “{h1}”. In plain words: {plain}. {errors}"
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
