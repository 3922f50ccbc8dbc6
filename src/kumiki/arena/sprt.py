"""The sequential probability ratio test on game pairs (pentanomial, as fishtest does it).

Each seed block of an SPRT is a pair of games with the seats swapped; the first agent scores 0, ½ or 1 in each, so
a pair scores 0, ¼, ½, ¾ or 1 (per game). The log-likelihood ratio of H1 (elo = elo1) against H0 (elo = elo0) is
the generalised SPRT's normal approximation, ``N (s1 − s0)(2 μ − s0 − s1) / (2 σ²)``, with μ and σ² the mean and
variance of the pair scores and ``s = 1 / (1 + 10^(−elo/400))`` (M. Van den Bergh, "Comments on SPRT"); pairs
cancel the seat advantage and the seed's luck, which the trinomial test counts as noise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kumiki.arena.study import Sprt

# Half a pair added to each of the five counts (2.5 pairs of prior, negligible in a long test): without it a few
# identical pairs have zero variance and an infinite LLR, so a test would "decide" on one pair.
SMOOTHING = 0.5


def expected_score(elo: float) -> float:
    """The logistic expected score of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True)
class SprtState:
    """The test after some pairs: the pentanomial counts (pairs scoring 0, ¼, ½, ¾, 1), the LLR, its bounds and
    the decision (``"H1"``, ``"H0"`` or None while it goes on)."""

    pentanomial: tuple[int, int, int, int, int]
    llr: float
    lower: float
    upper: float
    decision: str | None

    @property
    def pairs(self) -> int:
        """Pairs counted."""
        return sum(self.pentanomial)

    def to_json(self) -> dict[str, Any]:
        """The state as JSON (what ``summary.json`` and ``ratings --json`` carry)."""
        return {
            "pentanomial": list(self.pentanomial),
            "pairs": self.pairs,
            "llr": round(self.llr, 4),
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "decision": self.decision,
        }


def llr(pentanomial: Sequence[int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 against H0 after these pair counts."""
    counts = [c + SMOOTHING for c in pentanomial]
    total = sum(counts)
    scores = (0.0, 0.25, 0.5, 0.75, 1.0)
    mean = sum(c * x for c, x in zip(counts, scores, strict=True)) / total
    variance = sum(c * (x - mean) ** 2 for c, x in zip(counts, scores, strict=True)) / total
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return sum(pentanomial) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Accept H0 at or below the first, H1 at or above the second (Wald's bounds)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_state(pentanomial: Sequence[int], test: Sprt) -> SprtState:
    """The test's state after these pair counts (the decision is final once taken: the arena stops there)."""
    value = llr(pentanomial, test.elo0, test.elo1) if sum(pentanomial) else 0.0
    low, high = bounds(test.alpha, test.beta)
    decision = "H1" if value >= high else "H0" if value <= low else None
    counts = (pentanomial[0], pentanomial[1], pentanomial[2], pentanomial[3], pentanomial[4])
    return SprtState(counts, value, low, high, decision)


def game_score(row: dict[str, Any], agent: str) -> float:
    """``agent``'s score in a two-player game: 1 for a win, ½ for a shared result, 0 for a loss."""
    seat = row["seats"].index(agent)
    winners = row["winners"]
    if seat not in winners:
        return 0.0
    return 1.0 / len(winners)


def pair_bin(pair: Sequence[dict[str, Any]], agent: str) -> int:
    """The pentanomial bin (0…4) of a pair: the agent's total over the two games, in half points."""
    return round(2 * sum(game_score(row, agent) for row in pair))
