"""``pungchow settle TABLE.json [--json]``: every payment, then the who-pays-whom table."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scoring.jsonfile import load_json_file
from scoring.settle.books import settle
from scoring.settle.model import SettlementError
from scoring.settle.render import render
from scoring.settle.tablefile import table_from_dict


def _settle(args: argparse.Namespace) -> int:
    path = Path(args.table)
    try:
        missing = not path.exists() or path.is_dir()
    except OSError:  # a name longer than the system allows, or a folder we may not look into
        missing = True
    if missing:
        raise SettlementError(f"no table file at {args.table}: give the path of a table JSON file (scoring/schema/table.v1.json)")
    settlement = settle(table_from_dict(load_json_file(path, "table")))
    if args.json:
        print(json.dumps(settlement.to_dict(), indent=2))
    else:
        print(render(settlement))
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "settle", help="settle a finished game: who pays whom",
        description="Settle a game from a table file (scoring/schema/table.v1.json): each player's hand or score, "
                    "seats, the book, the limit and any incident. Prints every payment and the who-pays-whom table.")
    parser.add_argument("table", help="the table JSON file")
    parser.add_argument("--json", action="store_true", help="print the settlement as JSON")
    parser.set_defaults(func=_settle)
