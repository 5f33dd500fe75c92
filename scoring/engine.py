"""The scoring loop: every rule of a rule set looks at every arrangement; the best one wins.

A rule set is data: its rules (small predicates, each with a citation), its options with the
book's defaults, the exclusions between rules, and how points, doubles and the limit combine.
Results are immutable, so a later change of options never alters a score already given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

from scoring.arrange import Arrangement, Reading, Shape, arrangements, readings
from scoring.context import ScoreContext
from scoring.errors import Ask, InvalidHandError, Problem, PungChowError, UnknownRuleSetError
from scoring.hand import Hand
from scoring.melds import Meld


@dataclass(frozen=True)
class Citation:
    """Where a rule is written: book, part and section (and page where the book numbers them)."""

    book: str
    part: str
    section: str

    def __str__(self) -> str:
        return ", ".join(p for p in (self.book, self.part, self.section) if p)


@dataclass(frozen=True)
class ScoreLine:
    """One line of a score: what was found, what it is worth, and the rule it comes from.

    ``points`` add up, ``doubles`` each double the total once, and a ``limit_hand`` line makes
    the hand worth the limit outright.
    """

    rule: str
    description: str
    citation: Citation
    points: int = 0
    doubles: int = 0
    limit_hand: bool = False

    @property
    def value(self) -> str:
        """What the line is worth, as a player says it: +2, x2, /2, limit (the CLI and the page both print this)."""
        if self.limit_hand:
            return "limit"
        if self.doubles:
            return f"x{2 ** self.doubles}" if self.doubles > 0 else f"/{2 ** -self.doubles}"
        return f"{self.points:+d}"

    def __str__(self) -> str:
        return f"{self.value:>7}  {self.description}  [{self.citation}]"

    @property
    def order(self) -> int:
        """Where the line stands when read down: points, then doubles, then limit hands, then the
        lines that only show a step (rounding)."""
        if self.limit_hand:
            return 2
        if self.doubles:
            return 1
        return 0 if self.points else 3

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "description": self.description,
            "points": self.points,
            "doubles": self.doubles,
            "limit_hand": self.limit_hand,
            "citation": str(self.citation),
        }


@dataclass(frozen=True)
class Rule:
    """One scoring rule: an id, where it is written, and what it finds in a context.

    A rule the book prices once (``points``, ``doubles`` or the ``limit``) keeps that value and its
    ``description`` as fields and ``when`` as the test, so a rule set can print its value table;
    a rule priced per set or by the table's options finds its lines itself (``find``).
    """

    id: str
    citation: Citation
    find: Callable[[ScoreContext, Rule], Iterable[ScoreLine]]
    description: str = ""
    points: int = 0
    doubles: int = 0
    limit: bool = False
    when: Callable[[ScoreContext], bool] | None = None
    values: Mapping[tuple[bool, bool, bool], int] | None = None
    """For a rule priced from a set-value table: the table, keyed by (kong, heads, concealed)."""
    other_values: Mapping[tuple[bool, bool, bool], int] | None = None
    """The table for the hands that did not win, where the book prints a second one."""

    def apply(self, ctx: ScoreContext) -> list[ScoreLine]:
        return list(self.find(ctx, self))

    def line(self, description: str, *, points: int = 0, doubles: int = 0, limit_hand: bool = False) -> ScoreLine:
        return ScoreLine(self.id, description, self.citation, points, doubles, limit_hand)

    @property
    def value(self) -> str | None:
        """The fixed value as the books print it (``+20``, ``x2``, ``limit``), or None when it varies."""
        if self.when is None:
            return None
        if self.limit:
            return "limit"
        if self.doubles:
            return f"x{2 ** self.doubles}" if self.doubles > 0 else f"/{2 ** -self.doubles}"
        return f"{self.points:+d}"


def fixed_value(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
    """The line of a rule with a fixed value, when its test holds."""
    if rule.when is not None and rule.when(ctx):
        yield rule.line(rule.description, points=rule.points, doubles=rule.doubles, limit_hand=rule.limit)


def points_rule(id: str, description: str, points: int, citation: Citation, when: Callable[[ScoreContext], bool]) -> Rule:
    """A rule worth ``points`` once when ``when(ctx)`` holds."""
    return Rule(id, citation, fixed_value, description, points=points, when=when)


def doubles_rule(id: str, description: str, doubles: int, citation: Citation, when: Callable[[ScoreContext], bool]) -> Rule:
    """A rule that doubles the score ``doubles`` times when ``when(ctx)`` holds."""
    return Rule(id, citation, fixed_value, description, doubles=doubles, when=when)


def limit_rule(id: str, description: str, citation: Citation, when: Callable[[ScoreContext], bool]) -> Rule:
    """A limit hand: worth the limit outright when ``when(ctx)`` holds."""
    return Rule(id, citation, fixed_value, description, limit=True, when=when)


def per_set_rule(
    id: str,
    citation: Citation,
    value: Callable[[ScoreContext, Meld], tuple[str, int] | None],
    *,
    doubles: bool = False,
    values: Mapping[tuple[bool, bool, bool], int] | None = None,
) -> Rule:
    """A rule that looks at each set and pair in turn; ``value`` gives (description, amount) or None.

    ``values`` is the set-value table the rule prices from, when it has one, for the value table.
    """

    def find(ctx: ScoreContext, rule: Rule) -> Iterable[ScoreLine]:
        for meld in ctx.arrangement.sets:
            found = value(ctx, meld)
            if found:
                description, amount = found
                yield rule.line(description, doubles=amount) if doubles else rule.line(description, points=amount)

    return Rule(id, citation, find, values=values)


class OptionKind(str, Enum):
    """What an option's value is: a yes/no, a whole number, the limit (a number or none), or one of a few."""

    FLAG = "flag"
    NUMBER = "number"
    LIMIT = "limit"
    CHOICE = "choice"


_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")
_NONE = ("none", "no", "unlimited", "off")


@dataclass(frozen=True)
class Option:
    """A named setting a table may change, of a declared kind; ``default`` is the book's."""

    name: str
    kind: OptionKind
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None

    @classmethod
    def flag(cls, name: str, default: bool, help: str) -> Option:
        return cls(name, OptionKind.FLAG, default, help)

    @classmethod
    def number(cls, name: str, default: int, help: str, choices: tuple[int, ...] | None = None) -> Option:
        return cls(name, OptionKind.CHOICE if choices else OptionKind.NUMBER, default, help, choices)

    @classmethod
    def limit(cls, name: str, default: int | None, help: str) -> Option:
        return cls(name, OptionKind.LIMIT, default, help)

    def parse(self, value: Any) -> Any:
        """Read a value given as text (CLI, page) or as its own type (API)."""
        if self.kind is OptionKind.FLAG:
            return self._flag(value)
        if isinstance(value, str):
            text = value.strip().lower()
            if self.kind is OptionKind.LIMIT and text in _NONE:
                return None
            try:
                value = int(text)
            except ValueError:
                if self.kind is OptionKind.NUMBER and text in _NONE:
                    raise PungChowError(f"option {self.name} needs a number, not {value!r}") from None
                raise PungChowError(f"option {self.name} takes a whole number, not {value!r}") from None
        if self.kind is OptionKind.CHOICE:
            if value not in (self.choices or ()) or isinstance(value, bool):
                raise PungChowError(
                    f"option {self.name} takes one of {', '.join(map(str, self.choices or ()))}, not {value!r}")
            return value
        if self.kind is OptionKind.LIMIT and value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            none = " or none" if self.kind is OptionKind.LIMIT else ""
            raise PungChowError(f"option {self.name} takes a whole number{none}, not {value!r}")
        if self.kind is OptionKind.LIMIT and value < 1:
            raise PungChowError(f"the limit must be at least 1, not {value}; give 'none' for no limit")
        if value < 0:
            raise PungChowError(f"option {self.name} cannot be negative")
        return value

    def _flag(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            text = value.strip().lower()
            if text in _YES:
                return True
            if text in _NO:
                return False
        raise PungChowError(f"option {self.name} takes yes or no, not {value!r}")


Tally = Callable[[list[ScoreLine], ScoreContext, Mapping[str, Any]], tuple[int, int]]


def standard_tally(lines: list[ScoreLine], ctx: ScoreContext, options: Mapping[str, Any]) -> tuple[int, int]:
    """Points added up, then doubled once per double; a limit hand scores the limit.

    Returns (uncapped, total); ``total`` is capped at the ``limit`` option when there is one.
    """
    limit = options.get("limit")
    if any(line.limit_hand for line in lines):
        value = limit if limit is not None else int(options.get("limit_hand_value") or 0)
        return value, value
    uncapped = doubled(lines)
    total = min(uncapped, limit) if limit is not None else uncapped
    return uncapped, total


def doubled(lines: Iterable[ScoreLine]) -> int:
    """The lines' points added up, then doubled once per double."""
    lines = list(lines)
    points = sum(line.points for line in lines)
    doubles = sum(line.doubles for line in lines)
    factor: int = 2 ** abs(doubles)
    return points * factor if doubles >= 0 else points // factor


@dataclass(frozen=True)
class RuleSet:
    """A rule book's scoring, as data: its rules, options, exclusions and tally."""

    name: str
    title: str
    version: str
    rules: tuple[Rule, ...]
    options: tuple[Option, ...] = ()
    special_shapes: frozenset[Shape] = frozenset()
    exclusions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    tally: Tally = standard_tally
    notes: str = ""
    limit_citation: Citation | None = None
    settling: str = "harr-1922"
    """The name of the book whose settling pays out this rule set's scores (see ``scoring.settle.registry``)."""
    aliases: tuple[str, ...] = ()
    """Other names the rule set is found by."""

    def value_table(self) -> str:
        """The rule set's prices as the book prints them: each set-value table, then every rule of fixed value."""
        out = [f"{self.name}  ({self.title}, version {self.version})"]
        for rule in self.rules:
            tables = [("", rule.values), (" (the hands that did not win)", rule.other_values)]
            for whose, values in tables:
                if values is None:
                    continue
                if rule.other_values is not None and not whose:
                    whose = " (the winner)"
                cite = f", by [{rule.citation}]" if values is rule.values else ""
                out.append(f"  {rule.id}{whose}: points for a set{cite}")
                out.append(f"    {'':<18}{'exposed':>8}{'concealed':>10}")
                for kong in (False, True):
                    for heads in (False, True):
                        row = f"{'kong' if kong else 'pung'} of {'heads' if heads else 'simples'}"
                        out.append(f"    {row:<18}{values[(kong, heads, False)]:>8}{values[(kong, heads, True)]:>10}")
        for rule in self.rules:
            if rule.value is not None:
                out.append(f"  {rule.value:>7}  {rule.description}  ({rule.id}) [{rule.citation}]")
        return "\n".join(out)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise UnknownRuleSetError(f"rule set {self.name} has no option {name!r}; its options are: {known}")

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """The book's defaults with the table's choices on top; unknown names are errors."""
        values = {o.name: o.default for o in self.options}
        for name, value in (given or {}).items():
            values[name.replace("-", "_")] = self.option(name.replace("-", "_")).parse(value)
        return MappingProxyType(values)

    def limits(self, options: Mapping[str, Any] | None = None) -> tuple[int | None, int | None]:
        """The limit and the East limit this book's scores are paid under, with the table's options (a table
        file and the page both settle with these)."""
        resolved = self.resolve_options(options)
        limit, east = resolved.get("limit"), resolved.get("east_limit")
        return (None if limit is None else int(limit)), (None if east is None else int(east))

    def lines_for(self, ctx: ScoreContext, *, limit_hands: bool = True) -> list[ScoreLine]:
        """Apply every rule, then drop the lines that a firing rule excludes.

        ``limit_hands=False`` leaves the limit hands out: what the hand scores line by line.
        """
        lines = [line for rule in self.rules for line in rule.apply(ctx) if limit_hands or not line.limit_hand]
        fired = {line.rule for line in lines}
        dropped = {x for rule_id in fired for x in self.exclusions.get(rule_id, ())}
        return [line for line in lines if line.rule not in dropped]

    def accepts(self, arrangement: Arrangement) -> bool:
        return arrangement.shape in (Shape.STANDARD, Shape.INCOMPLETE) or arrangement.shape in self.special_shapes

    def without_limit_hands(self, ctx: ScoreContext) -> int | None:
        """What a limit hand would score from its lines alone (uncapped), or None when it cannot be told."""
        try:
            lines = self.lines_for(ctx, limit_hands=False)
            return self.tally(lines, ctx, {**ctx.options, "limit": None})[0]
        except PungChowError:
            return None


@dataclass(frozen=True)
class Score:
    """One arrangement's score under one rule set."""

    rule_set: str
    version: str
    arrangement: Arrangement
    lines: tuple[ScoreLine, ...]
    uncapped: int
    total: int
    options: Mapping[str, Any]
    reading: Reading | None = field(default=None, compare=False)
    without_limit: int | None = None
    """For a limit hand: what its lines alone come to, uncapped."""
    limit_citation: Citation | None = None

    @property
    def limit_hand(self) -> bool:
        return any(line.limit_hand for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_set": self.rule_set,
            "version": self.version,
            "arrangement": str(self.arrangement),
            "shape": self.arrangement.shape.value,
            "total": self.total,
            "uncapped": self.uncapped,
            "lines": [line.to_dict() for line in self.lines],
            "options": dict(self.options),
            **({"without_limit_hand": self.without_limit} if self.limit_hand else {}),
        }


@dataclass(frozen=True)
class ScoreResult:
    """The best arrangement's score, and every other arrangement's for a disputing player."""

    hand: Hand
    best: Score
    alternatives: tuple[Score, ...]

    @property
    def total(self) -> int:
        return self.best.total

    @property
    def uncapped(self) -> int:
        return self.best.uncapped

    @property
    def lines(self) -> tuple[ScoreLine, ...]:
        return self.best.lines

    @property
    def arrangement(self) -> Arrangement:
        return self.best.arrangement

    def to_dict(self) -> dict[str, Any]:
        data = self.best.to_dict()
        data["hand"] = str(self.hand)
        if self.reading_note:
            data["reading"] = self.reading_note
        data["alternatives"] = [alt.to_dict() for alt in self.alternatives]
        return data

    @property
    def reading_note(self) -> str | None:
        """Which reading of the winning tile was taken and why, when the hand allows more than one."""
        best: dict[str, int] = {}
        for score in (self.best, *self.alternatives):
            if score.reading is not None:
                best[score.reading.why] = max(best.get(score.reading.why, score.total), score.total)
        if len(best) < 2 or self.best.reading is None:
            return None
        taken = self.best.reading.why
        others = "; ".join(f"{why}: {total}" for why, total in best.items() if why != taken)
        return (f"reading: {taken}: {self.total}, the higher of {len(best)} readings of where the winning tile went "
                f"(otherwise {others}); as with arrangements, the reading that scores most is taken")

    def explain(self) -> str:
        """The score as a player reads it, top to bottom: points, then doubles, then rounding and
        the limit, each with its citation, so the total follows from reading down."""
        best = self.best
        out = [f"{best.rule_set}: {self.arrangement}"]
        if self.reading_note:
            out.append(f"  {self.reading_note}")
        lines = sorted(self.lines, key=lambda line: line.order)
        points = [line for line in lines if line.order == 0]
        doubling = [line for line in lines if line.order == 1]
        out += [f"  {line}" for line in points]
        running = sum(line.points for line in points)
        if doubling:
            out.append(f"  = {running} points")
            out += [f"  {line}" for line in doubling]
            count = sum(line.doubles for line in doubling)
            running = doubled(points + doubling)
            out.append(f"  = {running} after {count} double{'s' if abs(count) != 1 else ''}")
        rest = [line for line in lines if line.order in (2, 3)]
        out += [f"  {line}" for line in rest]
        cite = f"  [{best.limit_citation}]" if best.limit_citation else ""
        limit = best.options.get("limit")
        if best.limit_hand:
            if best.without_limit is not None:
                out.append(f"  {'':>7}  without the limit hand these tiles would score {best.without_limit}")
            out.append(f"  = {self.total}: the limit{cite}")
        elif self.total != self.uncapped:
            out.append(f"  {'limit':>7}  {self.uncapped} is held to the limit {self.total}{cite}")
            out.append(f"  = {self.total}")
        elif rest or not doubling or running != self.total:
            out.append(f"  = {self.total}")
        east = best.options.get("east_limit")
        if east is not None and self.total == limit:
            out.append(f"  {'':>7}  East pays or receives up to {east}, the East limit{cite}")
        return "\n".join(out)


def score_with(rule_set: RuleSet, hand: Hand, options: Mapping[str, Any] | None = None) -> ScoreResult:
    """Score ``hand`` under ``rule_set``: every reading of where the winning tile went, every
    arrangement of each, the best first."""
    hand.check()
    return score_checked(rule_set, hand, options)


def score_checked(rule_set: RuleSet, hand: Hand, options: Mapping[str, Any] | None = None) -> ScoreResult:
    """``score_with`` for a hand already checked (``Hand.check``): side by side, the hand is checked once, not once a book."""
    resolved = rule_set.resolve_options(options)
    candidates = [
        (reading, reading.mark(a))
        for reading in readings(hand)
        for a in arrangements(reading.hand)
        if rule_set.accepts(a) and reading.admits(a)
    ]
    if not candidates:
        raise InvalidHandError(
            [Problem(f"{hand} is not a complete hand under {rule_set.name}: it does not split into four sets and a pair"
                     " (nor a special hand this rule set allows); ", Ask.SCORE_AS_LOSER, " if it did not win")]
        )
    scores = []
    for reading, arrangement in candidates:
        ctx = ScoreContext(reading.hand, arrangement, resolved)
        lines = rule_set.lines_for(ctx)
        uncapped, total = rule_set.tally(lines, ctx, resolved)
        lines.sort(key=lambda line: line.order)
        without = rule_set.without_limit_hands(ctx) if any(line.limit_hand for line in lines) else None
        scores.append(Score(rule_set.name, rule_set.version, arrangement, tuple(lines), uncapped, total, resolved,
                            reading, without, rule_set.limit_citation))
    scores.sort(key=lambda s: (-s.total, -s.uncapped, str(s.arrangement)))
    return ScoreResult(hand, scores[0], tuple(scores[1:]))
