"""Which games a study plays, in a fixed order: option set × line-up × seed block × seating.

Every game's seed derives from the root seed and its block's number within its line-up alone (so two option sets,
or two line-ups, meet the same seeds: variants are compared on paired games), every agent's seed from the root
seed, the game index and the seat (``numpy.random.SeedSequence``), so the same study plays the same games on any
backend and any number of workers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kumiki.arena.study import Sprt, Study, StudyError, option_key

SEED_MASK = 0x7FFFFFFF  # 31-bit seeds: what every game, OpenSpiel's C ints and any Kumiki server accept
GAME_STREAM, AGENT_STREAM = 0, 1


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a study: its index, seed block (numbered across the whole study: blocks b, n + b, 2·n + b, … of
    the line-ups and option sets in turn share one seed, n the blocks a line-up plays: ``games``, or half of an SPRT's
    ``max_games``), option set and the agent (by its study name) in each seat."""

    index: int
    block: int
    options: dict[str, Any]
    seats: tuple[str, ...]
    seed: int

    def agent_seed(self, root: int, seat: int) -> int:
        """The seed the agent in ``seat`` gets (where it takes one): from the root seed, the index and the seat."""
        return derive(root, AGENT_STREAM, self.index, seat)


def derive(root: int, *key: int) -> int:
    """A 31-bit seed from the root seed and a key, independent across keys (SeedSequence's hashing)."""
    return int(np.random.SeedSequence([root, *key]).generate_state(1)[0]) & SEED_MASK


def lineups(study: Study, players: int) -> list[tuple[str, ...]]:
    """The groups of agents that meet, one agent per seat, before the seats are rotated."""
    names = list(study.agents)
    if study.format == "self-play":
        return [(a,) * players for a in names]
    if study.format == "gauntlet":
        assert study.focus is not None
        return [(study.focus,) + (other,) * (players - 1) for other in names if other != study.focus]
    if study.format == "ladder":
        return [(low,) + (high,) * (players - 1) for low, high in itertools.pairwise(names)]
    if study.format == "sprt":
        return [(names[0], names[1])]
    if len(names) >= players:
        return list(itertools.combinations(names, players))
    # Fewer agents than seats: every multiset in which each agent plays at least once.
    return [c for c in itertools.combinations_with_replacement(names, players) if set(c) == set(names)]


def seatings(lineup: Sequence[str], permutations: bool) -> list[tuple[str, ...]]:
    """The seat orders a seed block plays: every rotation, or every permutation; each distinct order once."""
    n = len(lineup)
    if permutations:
        orders = [tuple(lineup[i] for i in p) for p in itertools.permutations(range(n))]
    else:
        orders = [tuple(lineup[(seat + r) % n] for seat in range(n)) for r in range(n)]
    return list(dict.fromkeys(orders))


def blocks_per_lineup(study: Study) -> int:
    """Seed blocks per line-up and option set: ``games``, or for an SPRT as many game pairs as ``max_games`` allows."""
    if study.format == "sprt":
        return max(1, (study.sprt or Sprt()).max_games // 2)
    return study.games


def schedule(study: Study) -> Iterator[GameSpec]:
    """Every game of the study in index order (an SPRT's schedule is its longest possible one)."""
    index = 0
    block = 0
    for options in study.option_sets():
        players = study.players_by_options[option_key(options)]
        for lineup in lineups(study, players):
            orders = seatings(lineup, study.permutations)
            for number in range(blocks_per_lineup(study)):
                seed = derive(study.seed, GAME_STREAM, number)
                for seats in orders:
                    yield GameSpec(index, block, dict(options), seats, seed)
                    index += 1
                block += 1


MAX_TOTAL = 10**7  # games a study plays in all: its schedule and the pool's queue are held in memory (~200 B each)


def check_size(study: Study) -> None:
    """Refuse a study of more than ``MAX_TOTAL`` games in all (``games`` × line-ups × seatings × option sets), which
    would fill the memory with its schedule before its first game: StudyError in one line."""
    total = total_games(study)
    if total > MAX_TOTAL:
        raise StudyError(
            f"{study.name}: {total:,} games in all ({blocks_per_lineup(study):,} a line-up and option set); at most "
            f"{MAX_TOTAL:,}: split it into several studies, or play fewer games"
        )


def total_games(study: Study) -> int:
    """How many games ``schedule`` yields."""
    total = 0
    for options in study.option_sets():
        players = study.players_by_options[option_key(options)]  # the games loaded once per study, not per call
        for lineup in lineups(study, players):
            total += blocks_per_lineup(study) * len(seatings(lineup, study.permutations))
    return total
