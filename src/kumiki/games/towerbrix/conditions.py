"""TowerBrix's condition language: a parser and a fast evaluator for the rules on the condition cards.

A rule is one line such as ``every red touches table``, ``at least 1 red touches all purple``,
``highest by top is purple|red`` or ``height >= 4 and no gray touches table``. The grammar and the exact meaning of
every word are in ``docs/rules/towerbrix.md ("The condition language")``; the summary:

    rule       := disjunct ("or" disjunct)*
    disjunct   := negation ("and" negation)*
    negation   := "not" negation | "(" rule ")" | statement
    statement  := quantifier group [predicate]               every red touches table; exactly 1 purple
                | ("highest"|"lowest") "by" ("top"|"bottom") predicate     highest by top is purple|red
                | measure comparison number                  height >= 4
    quantifier := "every" | "each" | "no" | "none" | ("at least"|"at most"|"exactly") INT
    group      := ["vertical"|"horizontal"] colours          vertical red, purple|red, brick
    colours    := colour ("|" colour)* | "brick" | "bricks"
    predicate  := ["not"] ( "touches" object | "rests on" object | "carries" object
                | "is above" object | "is below" object | "is vertical" | "is horizontal" | "is" colours
                | "is" ("highest"|"lowest") "by" ("top"|"bottom") )
    object     := "table" | [object-quantifier] group        (no object-quantifier: at least one)
    object-quantifier := "all" | "no" | "none" | ("at least"|"at most"|"exactly") INT
    measure    := "height" | "bricks" | "bricks on table" | "vertical bricks" | "horizontal bricks"

Evaluation is on bitmasks: :class:`Tower` computes every relation between the bricks in use once (touch, rests on,
entirely above, extremes), and a compiled :class:`Rule` is a closure over those masks, so one ``Tower`` is shared by all
the cards checked against the same tower.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Colour words of the language, by the first letter of a brick id.
COLOUR_OF_LETTER = {"Y": "yellow", "P": "purple", "R": "red", "B": "blue", "G": "gray"}
COLOURS = ("yellow", "purple", "red", "blue", "gray")
_COLOUR_WORDS = {"yellow": "yellow", "purple": "purple", "red": "red", "blue": "blue", "gray": "gray", "grey": "gray"}
_ANY_WORDS = ("brick", "bricks")
TOL = 1e-9
MAX_NESTING = 64  # nested 'not' or '(': a deck file is data; thousands of them overflowed Python's stack
MAX_DIGITS = 9  # a count or bound of more digits means nothing for nine bricks (int() refuses over 4,300 digits)

_CMP: dict[str, Callable[[float, float], bool]] = {
    "<": lambda a, b: a < b - TOL,
    "<=": lambda a, b: a <= b + TOL,
    "=": lambda a, b: abs(a - b) <= TOL,
    "==": lambda a, b: abs(a - b) <= TOL,
    "!=": lambda a, b: abs(a - b) > TOL,
    ">=": lambda a, b: a >= b - TOL,
    ">": lambda a, b: a > b + TOL,
}
_VERB_ALIASES = {"touch": "touches", "rest": "rests", "carry": "carries", "are": "is"}


class ConditionError(ValueError):
    """A rule that does not parse; the message is one line naming the position and what was expected."""


# ---------------------------------------------------------------------------------------------------------------------
# The tower: every relation between the bricks in use, computed once.


def _colour(brick: Any) -> str:
    colour = getattr(brick, "colour", None)
    if isinstance(colour, str) and colour in COLOURS:
        return colour
    return COLOUR_OF_LETTER[brick.id[0].upper()]


# Tower.of's one-entry cache, one per thread: ``last`` is the pair (bricks, their Tower), read and replaced whole. A
# list shared by every thread let another thread's tower in between a thread's check of the key and its read.
_LAST_TOWER = threading.local()


class Tower:
    """The bricks in use and their relations as bitmasks (bit i = the i-th brick, in the order given).

    ``touch[i]``: bricks sharing a face with brick i; ``rests_on[i]``: bricks that brick i lies on; ``carries[i]``:
    bricks lying on brick i; ``above[i]`` / ``below[i]``: bricks that brick i is entirely above / below.
    ``memo``: each rule's verdict on this tower, by its text (a teammate's search reads the same cards on one tower
    for its own score and for the others' value).
    """

    __slots__ = (
        "above",
        "all",
        "below",
        "bottom_max",
        "bottom_min",
        "bottoms",
        "carries",
        "colour",
        "height",
        "horizontal",
        "ids",
        "memo",
        "n",
        "rests_on",
        "table",
        "top_max",
        "top_min",
        "tops",
        "touch",
        "vertical",
    )

    def __init__(self, bricks: Iterable[Any]) -> None:
        bricks = list(bricks)
        boxes = [tuple(float(v) for v in b.box) for b in bricks]
        n = len(bricks)
        self.memo: dict[str, bool] = {}
        self.n = n
        self.ids = tuple(b.id for b in bricks)
        self.all = (1 << n) - 1
        self.colour = dict.fromkeys(COLOURS, 0)
        self.vertical = self.horizontal = self.table = 0
        self.touch = [0] * n
        self.rests_on = [0] * n
        self.carries = [0] * n
        self.above = [0] * n
        self.below = [0] * n
        self.bottoms = [box[2] for box in boxes]
        self.tops = [box[5] for box in boxes]
        touch, rests, carries, above, below = self.touch, self.rests_on, self.carries, self.above, self.below
        for i, (brick, box) in enumerate(zip(bricks, boxes, strict=True)):
            bit = 1 << i
            self.colour[_colour(brick)] |= bit
            if brick.axis == "z":
                self.vertical |= bit
            else:
                self.horizontal |= bit
            ax0, ay0, az0, ax1, ay1, az1 = box
            if az0 <= TOL:
                self.table |= bit
            for j in range(i + 1, n):
                bx0, by0, bz0, bx1, by1, bz1 = boxes[j]
                other_bit = 1 << j
                if az0 >= bz1 - TOL:
                    above[i] |= other_bit
                    below[j] |= bit
                elif bz0 >= az1 - TOL:
                    above[j] |= bit
                    below[i] |= other_bit
                # Overlap lengths along each axis: 0 means the faces meet, > 0 overlap, < 0 apart.
                dx = (ax1 if ax1 < bx1 else bx1) - (ax0 if ax0 > bx0 else bx0)
                dy = (ay1 if ay1 < by1 else by1) - (ay0 if ay0 > by0 else by0)
                dz = (az1 if az1 < bz1 else bz1) - (az0 if az0 > bz0 else bz0)
                if dx < -TOL or dy < -TOL or dz < -TOL:
                    continue
                if dz <= TOL:
                    if dx > TOL and dy > TOL:  # one lies on the other
                        touch[i] |= other_bit
                        touch[j] |= bit
                        if az0 >= bz1 - TOL:
                            rests[i] |= other_bit
                            carries[j] |= bit
                        else:
                            rests[j] |= bit
                            carries[i] |= other_bit
                elif (dx <= TOL and dy > TOL) or (dy <= TOL and dx > TOL):  # side by side, dz > 0
                    touch[i] |= other_bit
                    touch[j] |= bit
        self.height = max(self.tops, default=0.0)
        self.top_max = self._extreme(self.tops, max)
        self.top_min = self._extreme(self.tops, min)
        self.bottom_max = self._extreme(self.bottoms, max)
        self.bottom_min = self._extreme(self.bottoms, min)

    def recolour(self, colour: dict[str, int]) -> None:
        """The same bricks in other colours (``colour``: each colour's bits), as the solver's refutation sweep
        tries every colouring of one shape; the verdicts kept for the old colours are dropped."""
        self.colour = colour
        self.memo = {}

    @classmethod
    def of(cls, bricks: Sequence[Any]) -> Tower:
        """The Tower of ``bricks`` (in that order), built once when asked for the same bricks twice in a row: the
        solver's cards and a teammate's value of the others' hands read each tower the search tries. Read-only:
        a caller that changes a Tower builds its own."""
        key = tuple(bricks)
        last: tuple[tuple[Any, ...], Tower] | None = getattr(_LAST_TOWER, "last", None)
        if last is None or last[0] != key:
            last = _LAST_TOWER.last = (key, cls(key))
        return last[1]

    def _extreme(self, values: list[float], pick: Callable[[list[float]], float]) -> int:
        if not values:
            return 0
        best = pick(values)
        return sum(1 << i for i, v in enumerate(values) if abs(v - best) <= TOL)


# ---------------------------------------------------------------------------------------------------------------------
# Compiled forms: a predicate is tower -> mask of the bricks satisfying it; a statement is tower -> bool.

Mask = Callable[[Tower], int]
Test = Callable[[Tower], bool]


def _count_test(kind: str, n: int) -> Callable[[int, int], bool]:
    """A test on (members satisfying, members not satisfying) of a set, for a quantifier."""
    if kind == "every":
        return lambda yes, no: no == 0
    if kind == "all":
        return lambda yes, no: no == 0
    if kind == "no":
        return lambda yes, no: yes == 0
    if kind == "some":
        return lambda yes, no: yes != 0
    if kind == "at least":
        return lambda yes, no: yes.bit_count() >= n
    if kind == "at most":
        return lambda yes, no: yes.bit_count() <= n
    return lambda yes, no: yes.bit_count() == n


@dataclass(frozen=True)
class Rule:
    """A parsed rule: ``evaluate(tower)`` on a shared :class:`Tower`, or ``holds(bricks)`` on the bricks in use."""

    text: str
    test: Test = field(repr=False, compare=False)
    colours: frozenset[str] = field(compare=False)

    def evaluate(self, tower: Tower) -> bool:
        memo = tower.memo
        verdict = memo.get(self.text)
        if verdict is None:
            verdict = memo[self.text] = self.test(tower)
        return verdict

    def holds(self, bricks: Iterable[Any]) -> bool:
        return self.test(Tower(bricks))

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as its text and compiled again (the compiled test is closures): states and games can then go
        to other processes (multiprocessing, Ray) and be saved."""
        return parse_rule, (self.text,)


# ---------------------------------------------------------------------------------------------------------------------
# Parsing.

_TOKEN = re.compile(r"\s*(?:([0-9]+(?:\.[0-9]+)?)|([A-Za-z]+)|(>=|<=|!=|==|=|<|>|\||\(|\)))")  # \d: any script's


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    column: int  # 1-based


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            column = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
            raise ConditionError(f"rule {text!r}: column {column}: unexpected character {text[column - 1]!r}")
        value = match.group(1) or match.group(2) or match.group(3)
        tokens.append(_Token(value.lower(), match.start(match.lastindex or 0) + 1))
        pos = match.end()
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.pos = 0
        self.depth = 0  # 'not' and '(' being parsed, one inside the other
        self.colours: set[str] = set()

    # -- helpers
    def peek(self, offset: int = 0) -> str | None:
        k = self.pos + offset
        return self.tokens[k].text if k < len(self.tokens) else None

    def fail(self, expected: str) -> ConditionError:
        if self.pos < len(self.tokens):
            token = self.tokens[self.pos]
            where = f"column {token.column} ({token.text!r})"
        else:
            where = "end of rule"
        return ConditionError(f"rule {self.text!r}: at {where}: expected {expected}")

    def take(self, *words: str) -> str:
        word = self.peek()
        if word is None or word not in words:
            raise self.fail(" or ".join(repr(w) for w in words))
        self.pos += 1
        return word

    def accept(self, *words: str) -> str | None:
        word = self.peek()
        if word is not None and word in words:
            self.pos += 1
            return word
        return None

    def nested(self, parse: Callable[[], Any]) -> Any:
        """``parse()`` one level deeper (after a 'not' or a '('); ConditionError beyond ``MAX_NESTING`` levels."""
        if self.depth >= MAX_NESTING:
            self.pos -= 1  # name the 'not' or '(' that goes too deep
            raise self.fail(f"at most {MAX_NESTING} nested 'not' or '('")
        self.depth += 1
        try:
            return parse()
        finally:
            self.depth -= 1

    def verb(self) -> str | None:
        word = self.peek()
        if word is None:
            return None
        return _VERB_ALIASES.get(word, word)

    def integer(self) -> int:
        word = self.peek()
        if word is None or not word.isdigit():
            raise self.fail("a whole number")
        if len(word) > MAX_DIGITS:
            raise self.fail(f"a whole number of at most {MAX_DIGITS} digits")
        self.pos += 1
        return int(word)

    def number(self) -> float:
        word = self.peek()
        if word is None or not word[0].isdigit():
            raise self.fail("a number")
        self.pos += 1
        return float(word)

    # -- grammar
    def parse(self) -> Test:
        if not self.tokens:
            raise ConditionError(f"rule {self.text!r}: empty rule")
        test = self.rule()
        if self.pos < len(self.tokens):
            raise self.fail("'and', 'or' or the end of the rule")
        return test

    def rule(self) -> Test:
        return self.chain("or", self.conjunction, any)

    def conjunction(self) -> Test:
        return self.chain("and", self.negation, all)

    def chain(self, word: str, operand: Callable[[], Test], combine: Callable[[Iterable[bool]], bool]) -> Test:
        """``operand (word operand)*``: one operand as it is, more joined by ``combine`` (any / all)."""
        parts = [operand()]
        while self.accept(word):
            parts.append(operand())
        if len(parts) == 1:
            return parts[0]
        return lambda t: combine(p(t) for p in parts)

    def negation(self) -> Test:
        if self.accept("not"):
            inner: Test = self.nested(self.negation)
            return lambda t: not inner(t)
        if self.accept("("):
            inner = self.nested(self.rule)
            self.take(")")
            return inner
        return self.statement()

    def statement(self) -> Test:
        word = self.peek()
        if word in ("highest", "lowest") and self.peek(1) == "by":
            extreme = self.extreme()
            required = self.predicate()
            return lambda t: extreme(t) & ~required(t) == 0
        if word in ("height", "bricks", "vertical", "horizontal") and self._is_measure():
            return self.measure()
        if word in ("every", "each", "no", "none", "at", "exactly"):
            kind, n = self.quantifier(subject=True)
            group = self.group()
            if self.peek() in (None, "and", "or", ")"):
                pred: Mask = lambda t: t.all  # noqa: E731  (no predicate: count the bricks of the group in use)
            else:
                pred = self.predicate()
            check = _count_test(kind, n)

            def quantified(t: Tower) -> bool:
                members = group(t)
                sat = pred(t)
                return check(members & sat, members & ~sat)

            return quantified
        raise self.fail(
            "a statement: 'every', 'no', 'at least N', 'at most N', 'exactly N', 'highest by', "
            "'lowest by', a measure ('height', 'bricks on table', ...), 'not' or '('"
        )

    def _is_measure(self) -> bool:
        word = self.peek()
        if word == "height":
            return True
        if word == "bricks":
            return self.peek(1) in ("on", *_CMP)
        return self.peek(1) == "bricks"

    def measure(self) -> Test:
        word = self.take("height", "bricks", "vertical", "horizontal")
        if word == "bricks":
            word = "table" if self.accept("on") and self.take("table") else "bricks"
        elif word != "height":
            self.take("bricks")
        value = _MEASURES[word]
        op = self.peek()
        if op not in _CMP:
            raise self.fail("a comparison (<, <=, =, !=, >=, >)")
        self.pos += 1
        compare = _CMP[op]
        bound = self.number()
        return lambda t: compare(value(t), bound)

    def quantifier(self, subject: bool) -> tuple[str, int]:
        word = self.peek()
        if word in ("every", "each") and subject:
            self.pos += 1
            return "every", 0
        if word == "all" and not subject:
            self.pos += 1
            return "all", 0
        if word in ("no", "none"):
            self.pos += 1
            return "no", 0
        if word == "at":
            self.pos += 1
            kind = "at " + self.take("least", "most")
            return kind, self.integer()
        if word == "exactly":
            self.pos += 1
            return "exactly", self.integer()
        raise self.fail("a quantifier")

    def group(self) -> Mask:
        orientation = self.accept("vertical", "horizontal")
        colours = self.colours_()
        if orientation == "vertical":
            return lambda t: colours(t) & t.vertical
        if orientation == "horizontal":
            return lambda t: colours(t) & t.horizontal
        return colours

    def colours_(self) -> Mask:
        word = self.peek()
        if word in _ANY_WORDS:
            self.pos += 1
            return lambda t: t.all
        names: list[str] = []
        while True:
            word = self.peek()
            if word not in _COLOUR_WORDS:
                raise self.fail("a colour (yellow, purple, red, blue, gray) or 'brick'")
            self.pos += 1
            names.append(_COLOUR_WORDS[word])
            if not self.accept("|"):
                break
        self.colours.update(names)
        if len(names) == 1:
            name = names[0]
            return lambda t: t.colour[name]
        return lambda t: _union(t, names)

    def extreme(self) -> Mask:
        which = self.take("highest", "lowest")
        self.take("by")
        edge = self.take("top", "bottom")
        attribute = {
            ("highest", "top"): "top_max",
            ("lowest", "top"): "top_min",
            ("highest", "bottom"): "bottom_max",
            ("lowest", "bottom"): "bottom_min",
        }[which, edge]
        return lambda t: getattr(t, attribute)

    def predicate(self) -> Mask:
        if self.accept("not"):
            inner: Mask = self.nested(self.predicate)
            return lambda t: t.all & ~inner(t)
        verb = self.verb()
        if verb == "touches":
            self.pos += 1
            return self.relation("touch", "table")
        if verb == "rests":
            self.pos += 1
            self.take("on")
            return self.relation("rests_on", "table")
        if verb == "carries":
            self.pos += 1
            return self.relation("carries", None)
        if verb == "is":
            self.pos += 1
            word = self.peek()
            if word == "above":
                self.pos += 1
                return self.relation("above", None)
            if word == "below":
                self.pos += 1
                return self.relation("below", None)
            if word == "vertical":
                self.pos += 1
                return lambda t: t.vertical
            if word == "horizontal":
                self.pos += 1
                return lambda t: t.horizontal
            if word in ("highest", "lowest"):
                return self.extreme()
            if word in _COLOUR_WORDS or word in _ANY_WORDS:
                return self.colours_()
            raise self.fail("'above', 'below', 'vertical', 'horizontal', 'highest by', 'lowest by' or a colour")
        raise self.fail("a predicate: 'touches', 'rests on', 'carries', 'is' or 'not'")

    def relation(self, name: str, table: str | None) -> Mask:
        if self.peek() == "table":
            if table is None:
                raise self.fail("a colour or 'brick' ('table' only goes with 'touches' and 'rests on')")
            self.pos += 1
            return lambda t: t.table
        if self.peek() in ("all", "no", "none", "at", "exactly"):
            kind, n = self.quantifier(subject=False)
        else:
            kind, n = "some", 0
        group = self.group()
        check = _count_test(kind, n)

        def mask(t: Tower) -> int:
            related = getattr(t, name)
            others = group(t)
            out = 0
            for i in range(t.n):
                pool = others & ~(1 << i)
                if check(related[i] & pool, pool & ~related[i]):
                    out |= 1 << i
            return out

        def some(t: Tower) -> int:  # the commonest relation ("touches a red brick"), without a call a brick
            related = getattr(t, name)
            others = group(t)
            out = 0
            for i in range(t.n):
                if related[i] & others & ~(1 << i):
                    out |= 1 << i
            return out

        return some if kind == "some" else mask


_MEASURES: dict[str, Callable[[Tower], float]] = {
    "height": lambda t: t.height,
    "bricks": lambda t: t.all.bit_count(),
    "table": lambda t: t.table.bit_count(),
    "vertical": lambda t: t.vertical.bit_count(),
    "horizontal": lambda t: t.horizontal.bit_count(),
}


def _union(t: Tower, names: list[str]) -> int:
    out = 0
    for name in names:
        out |= t.colour[name]
    return out


def parse_rule(text: str) -> Rule:
    """Parse and compile a rule; raises :class:`ConditionError` with a one-line message on bad syntax."""
    if not isinstance(text, str):
        raise ConditionError(f"rule must be a string, not {type(text).__name__}")
    parser = _Parser(text)
    test = parser.parse()
    return Rule(text, test, frozenset(parser.colours))


def holds(rule: str | Rule, bricks: Iterable[Any]) -> bool:
    """Whether ``rule`` holds for the bricks in use (a convenience; parse once and share a Tower when speed matters)."""
    compiled = parse_rule(rule) if isinstance(rule, str) else rule
    return compiled.holds(bricks)
