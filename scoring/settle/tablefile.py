"""The table file (``scoring/schema/table.v1.json``): validate, score any hands, build a ``Table``.

A player's score is given either as a number (as the book layouts print it) or as a hand per
``hand.v1.json``, which is scored as a winner or non-winner under the table's rule set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.engine import RuleSet
from scoring.errors import PungChowError
from scoring.hand import Hand, hand_schema
from scoring.jsonfile import JsonInputError, load_json, schema_problems
from scoring.settle.core import SettlingBook
from scoring.settle.model import SEAT_NAMES, Book, HandedGame, Incident, IncidentKind, Player, SettlementError, Table
from scoring.settle.registry import settling_book, settling_books
from scoring.text import control_characters, one_line

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "table.v1.json"

_CACHE: dict[str, Any] = {}


def table_schema() -> dict[str, Any]:
    if "table" not in _CACHE:
        _CACHE["table"] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    schema: dict[str, Any] = _CACHE["table"]
    return schema


def validate_table_json(data: Any) -> None:
    """Raise SettlementError listing every way ``data`` breaks the table schema (hands included)."""
    import jsonschema
    from referencing import Registry, Resource

    hand = hand_schema()
    registry = Registry().with_resource(hand["$id"], Resource.from_contents(hand))
    validator = jsonschema.Draft202012Validator(table_schema(), registry=registry)
    problems = schema_problems(validator.iter_errors(data), "table")
    if problems:
        raise SettlementError("; ".join(problems))


def book_for(data: dict[str, Any]) -> SettlingBook:
    """The book named, else the one that settles the rule set named, else Harr."""
    if "book" in data:
        return settling_book(str(data["book"]))
    rules = str(data.get("rules", "")).strip()
    if not rules:
        return settling_book(Book.HARR.value)
    from scoring.rulesets import get_rule_set

    try:
        return settling_book(get_rule_set(rules).settling)
    except PungChowError:
        known = ", ".join(settling_books())
        raise SettlementError(f"which book settles a game scored under {rules!r}? give book: one of {known}") from None


def _rule_set_name(data: dict[str, Any], book: SettlingBook) -> str:
    if "rules" in data:
        return str(data["rules"])
    if book.scores_with is not None:
        return book.scores_with(data)
    raise SettlementError(f"hands under {book.name}: name the rule set that scores them (rules: ...; see `pungchow rules`)")


def _scoring_options(data: dict[str, Any], rule_set: RuleSet) -> dict[str, Any]:
    options = dict(data.get("options", {}))
    known = {o.name for o in rule_set.options}
    if "limit" in data and "limit" in known:
        options["limit"] = "none" if data["limit"] is None else _whole_limit(data, "limit")
    try:
        rule_set.resolve_options(options)
    except PungChowError as exc:
        raise SettlementError(f"the table's options: {exc}") from None
    return options


def _score_hand(name: str, seat: str, raw: dict[str, Any], winner: bool, rules: str, options: dict[str, Any]) -> tuple[int, Any]:
    from scoring.rulesets import score_hand

    raw = dict(raw)
    raw.setdefault("seat_wind", seat)
    raw.setdefault("winner", winner)
    if raw["seat_wind"] != seat:
        raise SettlementError(f"{name} sits {SEAT_NAMES[seat]} but the hand says seat_wind {raw['seat_wind']}")
    if bool(raw["winner"]) != winner:
        raise SettlementError(f"{name}: the player's winner flag and the hand's disagree; mark the winner once")
    try:
        result = score_hand(Hand.from_dict(raw), rules, options)
    except PungChowError as exc:
        raise SettlementError(f"{name}'s hand: {exc}") from None
    return result.total, result


#: A player's keys that only a hand given in notation takes (a hand given as JSON holds them itself).
_NOTATION_ONLY = ("won_by", "winning", "flags")


def _hand_in_notation(name: str, seat: str, raw: dict[str, Any], winner: bool, prevailing: str) -> dict[str, Any]:
    """A hand written in notation, read as `pungchow score` reads it (seat from the player, round from the table), as
    hand JSON."""
    if not winner and ("won_by" in raw or "winning" in raw):
        raise SettlementError(f"{name} did not go out: give won_by and winning for the winner's hand only")
    try:
        hand = Hand.parse(raw["hand"], winning_tile=raw.get("winning"), won_by=raw.get("won_by") if winner else None,
                          seat_wind=seat, prevailing_wind=prevailing, winner=winner, flags=frozenset(raw.get("flags", ())))
    except PungChowError as exc:
        raise SettlementError(f"{name}'s hand: {exc}") from None
    out: dict[str, Any] = hand.to_dict()
    return out


def _whole_limit(data: dict[str, Any], key: str) -> int | None:
    """A table's limit is a whole number of at least 1, or null; never true, 10.5 or NaN."""
    value = data[key]
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value != int(value) or value < 1:
        raise SettlementError(f"the table's {key} must be a whole number of at least 1, or null for none; not {value!r}")
    return int(value)


def _limit(data: dict[str, Any], book: SettlingBook, rule_set: RuleSet | None, options: dict[str, Any]) -> int | None:
    if "limit" in data:
        return _whole_limit(data, "limit")
    if rule_set is not None:
        return rule_set.limits(options)[0]
    return book.limit


def _east_limit(data: dict[str, Any], rule_set: RuleSet | None, options: dict[str, Any]) -> int | None:
    """The table's East limit, else the rule set's, unless the table set its own limit (then double it)."""
    if "east_limit" in data:
        return _whole_limit(data, "east_limit")
    if "limit" in data and "east_limit" not in options:
        return None
    if rule_set is not None:
        return rule_set.limits(options)[1]
    return None


def table_from_dict(data: Any) -> Table:
    """Validate a table object and build the ``Table``, scoring the hands it holds."""
    validate_table_json(data)
    book = book_for(data)
    has_hands = any("hand" in p for p in data["players"])
    rule_set: RuleSet | None = None
    options: dict[str, Any] = {}
    rules = data.get("rules")
    if has_hands or rules:
        from scoring.rulesets import get_rule_set

        rules = _rule_set_name(data, book)
        rule_set = get_rule_set(rules)
        options = _scoring_options(data, rule_set)
    players = []
    for i, raw in enumerate(data["players"]):
        seat = raw["seat"]
        name = raw.get("name") or (SEAT_NAMES[seat] if seat else f"player {i + 1}")
        if control_characters(name):
            raise SettlementError(f"player name '{one_line(name)[:60]}' holds a control character (a new line, a tab or a terminal "
                                  "escape), which would print as another line or move the text: retype the name")
        hand = raw.get("hand")
        winner = bool(raw.get("winner", hand.get("winner", False) if isinstance(hand, dict) else False))
        detail = None
        if hand is not None:
            if seat is None:
                raise SettlementError(f"{name} sits out: give no hand")
            assert rules is not None
            if isinstance(hand, str):
                hand = _hand_in_notation(name, seat, raw, winner, data.get("round", "E"))
            elif any(key in raw for key in _NOTATION_ONLY):
                raise SettlementError(f"{name}'s hand JSON says how it was won itself: give "
                                      f"{', '.join(k for k in _NOTATION_ONLY if k in raw)} inside it, not beside it")
            score, detail = _score_hand(name, seat, hand, winner, rules, options)
        elif "score" in raw:
            score = raw["score"]
            if not isinstance(score, int):  # JSON Schema's "integer" lets 10.0 and 1e2 through
                raise SettlementError(f"{name}: score {score!r} is written as a decimal; "
                                      f"write whole points as {int(score)}")
        elif seat is None:
            score = 0
        else:
            raise SettlementError(f"{name} ({SEAT_NAMES[seat]}): give the hand or the score")
        players.append(Player(name, seat, score, winner, bool(raw.get("dead", False)), detail))
    incident = None
    if "incident" in data:
        raw = data["incident"]
        heads = raw.get("heads")
        incident = Incident(IncidentKind(raw["kind"]), raw.get("player"), heads, raw.get("condition"), raw.get("exception"),
                            raw.get("claims"))
    return Table(
        players=tuple(players),
        book=book.name,
        game=HandedGame(data.get("game", HandedGame.FOUR.value)),
        limit=_limit(data, book, rule_set, options),
        east_limit=_east_limit(data, rule_set, options),
        incident=incident,
        rules=rules,
        source=str(data.get("source", "")),
    )


def load_table(text: str) -> Table:
    """A table from JSON text; a file that is not JSON is one clear error."""
    try:
        data = load_json(text, "table")
    except JsonInputError as exc:
        raise SettlementError(str(exc)) from None
    return table_from_dict(data)
