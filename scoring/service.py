"""What the command line and the page both do with a hand, written once: check a table's options,
score under one rule set or all of them, word a score, and settle a deal.

``pungchow score`` prints what these return and the Streamlit page shows it; neither decides for
itself which options a book takes, which errors refuse a hand or which book settles a rule set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.arrange import CLAIMED_WINS
from scoring.engine import RuleSet, Score, ScoreResult, score_checked
from scoring.errors import Ask, Problem, PungChowError, UnknownRuleSetError
from scoring.hand import Hand
from scoring.melds import MeldKind
from scoring.rulesets import Refusal, get_rule_set, rule_sets, score_each
from scoring.settle.books import settle
from scoring.settle.model import Incident, Player, Settlement, Table
from scoring.settle.registry import settling_book
from scoring.tiles import Tile

#: The word that asks for every rule set side by side (``--rules all``, the page's last choice).
ALL = "all"


def _option_name(name: str) -> str:
    return name.strip().replace("-", "_")


def chosen_rule_sets(rules: str | RuleSet) -> list[RuleSet]:
    """The rule sets ``rules`` asks for, looked up once: every one for ``all``, else the one it names (or aliases),
    or the rule set itself when the caller has looked it up."""
    if isinstance(rules, RuleSet):
        return [rules]
    if rules.strip().lower() == ALL:
        return list(rule_sets().values())
    return [get_rule_set(rules)]


def rule_set_names(rules: str | RuleSet) -> list[str]:
    """The names of the rule sets ``rules`` asks for."""
    return [rs.name for rs in chosen_rule_sets(rules)]


def share_options(rules: str | RuleSet, given: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """One set of options given for ``rules`` (the CLI's ``--option``), as each rule set's share.

    An option none of the rule sets asked for knows is an error, never silently dropped: a misspelt
    ``flower=no`` would otherwise score every hand with its flowers. Under ``all``, each book gets
    only the options it has (Foster's ``east_limit`` does not stop Harr scoring).
    """
    chosen = chosen_rule_sets(rules)
    given = {_option_name(k): v for k, v in (given or {}).items()}
    known = {rs.name: {o.name for o in rs.options} for rs in chosen}
    everywhere = set().union(*known.values())
    for name in sorted(set(given) - everywhere):
        if len(chosen) == 1:
            chosen[0].option(name)
        raise UnknownRuleSetError(f"no rule set has an option {name!r}; the options are: {', '.join(sorted(everywhere))}")
    return {n: {k: v for k, v in given.items() if k in known[n]} for n in known}


def check_options(rules: str | RuleSet, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """One rule set's options read and checked (unknown name, bad value: one clear error), with its defaults."""
    rule_set = rules if isinstance(rules, RuleSet) else get_rule_set(rules)
    share_options(rule_set, options)
    return dict(rule_set.resolve_options({_option_name(k): v for k, v in (options or {}).items()}))


def score_under(hand: Hand, rules: str | RuleSet,
                options: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, ScoreResult | Refusal]:
    """``hand`` scored under the rule set ``rules`` names (or is), or under every one for ``all``; by rule set.

    ``options`` gives each rule set's own options by its name. A hand that cannot exist at the table,
    or a bad option, raises for every rule set alike. Under one rule set a hand that is not complete
    there raises; side by side that book's row is a :class:`Refusal` saying why, and the others score.
    Each rule set is looked up once and the hand checked once, however many books score it.
    """
    chosen = chosen_rule_sets(rules)
    hand.check()
    given = {rs.name: dict((options or {}).get(rs.name) or {}) for rs in chosen}
    for rs in chosen:
        check_options(rs, given[rs.name])
    if isinstance(rules, RuleSet) or rules.strip().lower() != ALL:
        return {chosen[0].name: score_checked(chosen[0], hand, given[chosen[0].name])}
    return score_each(hand, given)


def score_one(hand: Hand, rules: str | RuleSet, options: Mapping[str, Any] | None = None) -> ScoreResult:
    """``hand`` under one rule set, its options checked."""
    rule_set = rules if isinstance(rules, RuleSet) else get_rule_set(rules)
    result = score_under(hand, rule_set, {rule_set.name: options or {}})
    scored = next(iter(result.values()))
    assert isinstance(scored, ScoreResult)
    return scored


@dataclass(frozen=True)
class UnmarkedWinningTile:
    """A winning hand scored with no winning tile marked, whose total turns on which tile it was.

    Which tile came last decides whether a set was claimed (half value), whether it filled the only place, and so
    on; scored with none marked, every set counts as the player made it. A photo cannot show that tile, so the
    player is asked rather than handed one of several totals in silence.
    """

    rule_set: str
    #: The total given with no winning tile marked.
    scored: int
    #: Each total the hand could have, highest first, with the tiles that give it.
    totals: tuple[tuple[int, tuple[Tile, ...]], ...]

    @property
    def problem(self) -> Problem:
        """What to tell the player, each surface naming the winning tile's control its own way."""
        each = "; ".join(f"{total} if it was {' or '.join(str(t) for t in tiles)}" for total, tiles in self.totals)
        return Problem(f"the winning tile is not marked, and under {self.rule_set} the score turns on it: {each}; "
                       f"{self.scored} is the score with none marked: give the tile that completed the hand (", Ask.WINNING, ")")

    def __str__(self) -> str:
        return str(self.problem)


def winning_tile_matters(result: ScoreResult, rules: str | RuleSet,
                         options: Mapping[str, Any] | None = None) -> UnmarkedWinningTile | None:
    """For a winning hand scored (``result``, under ``rules`` with ``options``) with no winning tile marked: the totals
    it would score with each tile it could have won on, when they are not all the total it scored; else None (a tile
    is marked, it did not win, or no tile changes it).

    A drawn tile lies among the concealed tiles; a discard may also have completed an exposed pung or chow.
    """
    hand, scored = result.hand, result.total
    if not hand.winner or hand.winning_tile is not None:
        return None
    rule_set = rules if isinstance(rules, RuleSet) else get_rule_set(rules)
    could_be = set(hand.concealed)
    if hand.won_by in CLAIMED_WINS:
        could_be |= {t for m in hand.melds if m.exposed and m.kind is not MeldKind.KONG for t in m.tiles}
    by_total: dict[int, list[Tile]] = {}
    for tile in sorted(could_be):
        try:
            total = score_one(replace(hand, winning_tile=tile), rule_set, options).total
        except PungChowError:  # a tile the hand cannot have been won on (a drawn tile in a laid-out set)
            continue
        by_total.setdefault(total, []).append(tile)
    if set(by_total) <= {scored}:
        return None
    return UnmarkedWinningTile(rule_set.name, scored,
                               tuple((total, tuple(tiles)) for total, tiles in sorted(by_total.items(), reverse=True)))


def total_text(score: Score | ScoreResult | Refusal) -> str:
    """A total as a player reads it: the number, what the limit held it to, or ``-`` for a refusal."""
    if score.total is None:
        return "-"
    if score.total != score.uncapped:
        return f"{score.total} (capped at the limit; {score.uncapped} before the cap)"
    return str(score.total)


def side_by_side_lines(results: Mapping[str, ScoreResult | Refusal]) -> list[str]:
    """The side-by-side summary, one line per rule set: its total, or why it does not score the hand."""
    width = max((len(n) for n in results), default=0)
    return [f"  {name:<{width}}  {'-' if r.total is None else r.total:>6}" + (f"  {r.reason}" if isinstance(r, Refusal) else "")
            for name, r in results.items()]


def settle_scores(players: Sequence[Player], rules: str, options: Mapping[str, Any] | None = None, *,
                  incident: Incident | None = None, source: str = "") -> Settlement:
    """Settle a deal scored under ``rules``: the rule set's own settling book, limit and East limit."""
    rule_set = get_rule_set(rules)
    limit, east_limit = rule_set.limits(check_options(rule_set.name, options))
    book = settling_book(rule_set.settling)
    return settle(Table(tuple(players), book=book.name, limit=limit, east_limit=east_limit, incident=incident,
                        rules=rule_set.name, source=source))

