"""Settle the table: four hands in, who pays whom out.

The page and the CLI need three things::

    table = load_table(json_text)      # or Table(...) built directly
    settlement = settle(table)         # every Payment with its reason and citation
    settlement.to_dict(); render(settlement)
    Settlement.from_dict(kept)         # a settlement kept as its to_dict(), read back exactly

The who-pays-whom table (``Settlement.grid()``, row pays column) always nets to zero.
"""

from __future__ import annotations

from scoring.settle.books import check_table, settle
from scoring.settle.core import Liability, SettlingBook, SettlingRules
from scoring.settle.model import (
    SEATS,
    Book,
    HandedGame,
    Incident,
    IncidentKind,
    Payment,
    Player,
    Settlement,
    SettlementError,
    Table,
)
from scoring.settle.registry import register_settling, settling_book, settling_books
from scoring.settle.render import render, render_grid
from scoring.settle.tablefile import load_table, table_from_dict, table_schema

__all__ = [
    "SEATS", "Book", "HandedGame", "Incident", "IncidentKind", "Liability", "Payment", "Player", "Settlement",
    "SettlementError", "SettlingBook", "SettlingRules", "Table", "check_table", "load_table", "register_settling",
    "render", "render_grid", "settle", "settling_book", "settling_books", "table_from_dict", "table_schema",
]
