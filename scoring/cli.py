"""``pungchow score`` and ``pungchow rules``: score a typed hand, list the rule books."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scoring import service
from scoring.engine import ScoreResult
from scoring.errors import NotationError, PungChowError
from scoring.hand import FLAGS, Hand, WinMethod
from scoring.jsonfile import load_json_file
from scoring.melds import MARKS
from scoring.rulesets import Refusal, get_rule_set, rule_sets
from scoring.tiles import check_notation_length

DEFAULT_RULES = "harr-1922"


class _Once(argparse.Action):
    """An option that takes one value: given twice with different values it is a usage error, never the last one silently."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given: dict[str, Any] = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in given and given[self.dest] != values:
            parser.error(f"{option_string} {given[self.dest]} and {option_string} {values} disagree: give {option_string} once")
        given[self.dest] = values
        setattr(namespace, self.dest, values)


def add_score_options(parser: argparse.ArgumentParser) -> None:
    """The options every scoring command shares (``score``, ``photo``)."""
    parser.add_argument("--rules", default=DEFAULT_RULES, action=_Once,
                        help=f"rule set name, or 'all' (default {DEFAULT_RULES}); see `pungchow rules`")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule-set option, e.g. --option flowers=no (repeatable)")
    parser.add_argument("--limit", action=_Once, help="the limit: a number, or 'none' for no limit (default: the book's)")
    parser.add_argument("--won-by", action=_Once, choices=[m.value for m in WinMethod],
                        help="how the winning tile came (default: discard when --winning is given, else wall)")
    parser.add_argument("--winning", action=_Once, metavar="CODE", help="the winning tile, e.g. 2D (or MPSZ, e.g. 2z)")
    parser.add_argument("--seat", action=_Once, help="the player's seat wind: E, S, W or N (default E)")
    parser.add_argument("--round", action=_Once, help="the prevailing wind: E, S, W or N (default E)")
    parser.add_argument("--flag", action="append", default=[], choices=sorted(FLAGS),
                        help="a circumstance the tiles cannot show (repeatable)")
    parser.add_argument("--loser", action="store_true", help="score a hand that did not go out")
    parser.add_argument("--json", action="store_true", help="print the score as JSON")


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    if getattr(args, "loser", False) and getattr(args, "won_by", None):
        raise PungChowError("--won-by says how a winner went out; a hand scored with --loser did not go out: drop one of them")
    options: dict[str, Any] = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise PungChowError(f"--option takes NAME=VALUE, not {item!r}")
        name, value = name.strip(), value.strip()
        if name in options and options[name] != value:
            raise PungChowError(f"--option {name}={options[name]} and --option {name}={value} disagree: give {name} once")
        options[name] = value
    if args.limit is not None:
        if "limit" in options and options["limit"] != args.limit:
            raise PungChowError(f"--limit {args.limit} and --option limit={options['limit']} disagree: give the limit once")
        options["limit"] = args.limit
    return options


def hand_from_args(text: str, args: argparse.Namespace) -> Hand:
    """Read the hand from notation, or from a JSON file when ``text`` names one."""
    if not text.strip():
        raise NotationError("the hand is empty: give hand notation (e.g. 1C2C3C 4D5D6D ...) or the path of a hand JSON file")
    path = Path(text)
    if text.endswith(".json") or _names_a_file(path):
        if not _names_a_file(path) or path.is_dir():
            raise NotationError(f"no hand file at {text}: give hand notation or the path of a hand JSON file")
        ignored = [option for option, given in _HAND_OPTIONS.items() if given(args)]
        if ignored:
            raise NotationError(f"the hand file {text} says how the hand was won and where its player sat, so {', '.join(ignored)} "
                                "would be ignored: edit the file, or type the hand in notation with those options")
        return Hand.from_dict(hand_of_record(load_json_file(path, "hand"), text))
    return Hand.parse(
        check_notation_length(text),
        winning_tile=args.winning,
        won_by=None if args.loser else args.won_by,
        seat_wind="E" if args.seat is None else args.seat,
        prevailing_wind="E" if args.round is None else args.round,
        winner=not args.loser,
        flags=frozenset(args.flag),
    )


def hand_of_record(data: Any, name: str) -> Any:
    """A hand file's JSON: the hand itself, or the hand inside ``pungchow recognize --json``'s record of a photo (its
    tiles, boxes and groups beside it), with a word on stderr where that record assumed how the hand was won."""
    if not (isinstance(data, dict) and "tiles" in data and "hand" in data):
        return data
    if data["hand"] is None:
        raise NotationError(f"the recognition in {name} holds no hand (its tiles do not make one): correct its tiles on the "
                            "page, or type the hand in notation")
    if data.get("won_by_assumed") is True:
        print(f"pungchow: {name} is a photo's recognition, which took the hand as won off a discard without being told; "
              "edit its hand's won_by if it came from the wall", file=sys.stderr)
    return data["hand"]


#: The options a typed hand takes and a hand file holds itself (each: whether it was given).
_HAND_OPTIONS: dict[str, Callable[[argparse.Namespace], bool]] = {
    "--seat": lambda a: a.seat is not None, "--round": lambda a: a.round is not None, "--won-by": lambda a: bool(a.won_by),
    "--winning": lambda a: bool(a.winning), "--flag": lambda a: bool(a.flag), "--loser": lambda a: bool(a.loser),
}


def _names_a_file(path: Path) -> bool:
    """Whether ``path`` is something on disk; notation too long to be a file name is not."""
    try:
        return path.exists()
    except OSError:
        return False


def _print_result(name: str, result: ScoreResult | Refusal) -> None:
    print(result.explain())
    for alt in result.alternatives:
        print(f"  (also {alt.arrangement}: {alt.total})")


def run_score(hand: Hand, args: argparse.Namespace) -> int:
    """Score ``hand`` as the options in ``args`` say and print it; shared by ``score`` and ``photo``."""
    chosen = args.rules if args.rules.strip().lower() == service.ALL else get_rule_set(args.rules)  # looked up once
    options = options_from_args(args)
    results = service.score_under(hand, chosen, service.share_options(chosen, options))
    side_by_side = args.rules.strip().lower() == service.ALL
    scored = next(iter(results.values()))
    matters = None if side_by_side or not isinstance(scored, ScoreResult) else service.winning_tile_matters(scored, chosen, options)
    if args.json:
        as_dicts = {name: r.to_dict() for name, r in results.items()}
        if matters is not None:
            next(iter(as_dicts.values()))["winning_tile_not_marked"] = str(matters)
        print(json.dumps(as_dicts if side_by_side else next(iter(as_dicts.values())), indent=2))
        return 0
    print(MARKS)
    for name, result in results.items():
        _print_result(name, result)
        if side_by_side:
            print()
    if matters is not None:
        print(f"note: {matters}")
    if side_by_side:
        print("side by side:")
        print("\n".join(service.side_by_side_lines(results)))
    return 0


def _score(args: argparse.Namespace) -> int:
    return run_score(hand_from_args(args.hand, args), args)


def _rules(args: argparse.Namespace) -> int:
    if args.name is not None:
        print(get_rule_set(args.name).value_table())  # NAME alone asks for its values: --table says the same
        return 0
    if args.table:
        raise PungChowError("--table prints one rule set's values: name it, e.g. pungchow rules harr-1922 --table")
    sets = rule_sets()
    if args.json:
        print(json.dumps({
            name: {"title": rs.title, "version": rs.version,
                   "settling": rs.settling, "aliases": list(rs.aliases),
                   "options": [{"name": o.name, "kind": o.kind.value, "default": o.default, "help": o.help}
                               for o in rs.options]}
            for name, rs in sets.items()
        }, indent=2))
        return 0
    for name, rs in sets.items():
        print(f"{name}  ({rs.title}, version {rs.version})")
        for o in rs.options:
            default = "none" if o.default is None else o.default
            print(f"    --option {o.name}=...   default {default}: {o.help}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    score = sub.add_parser("score", help="score a hand typed in notation or read from a JSON file",
                           description='Score a hand. Example: '
                                       'pungchow score "7C8C9C6C7C8CSWSW [2D2D2D] [5C6C7C]" --won-by discard --winning 2D')
    score.add_argument("hand", help="hand notation (concealed tiles, then [exposed] and (concealed) sets) or a hand JSON file")
    add_score_options(score)
    score.set_defaults(func=_score)
    rules = sub.add_parser("rules", help="list the rule sets and their options, or print one rule set's value table")
    rules.add_argument("name", nargs="?", help="a rule set, to print its value table with --table")
    rules.add_argument("--table", action="store_true", help="print the rule set's values: set values, then each rule's points or doubles")
    rules.add_argument("--json", action="store_true")
    rules.set_defaults(func=_rules)
