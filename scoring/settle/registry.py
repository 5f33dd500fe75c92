"""The settling books, found by name: each book's module defines its ``SETTLING_BOOK``; importing registers nothing.

A rule set names the book that settles its scores (``RuleSet.settling``); a house book adds its
own with :func:`register_settling`.
"""

from __future__ import annotations

import importlib

from scoring.settle.core import SettlingBook
from scoring.settle.model import SettlementError

#: The modules of the books whose settling this package holds.
BOOKS: tuple[str, ...] = ("harr", "foster", "british", "chinese")

_BOOKS: dict[str, SettlingBook] = {}
_ADDED: dict[str, SettlingBook] = {}


def settling_books() -> dict[str, SettlingBook]:
    """Every settling book by name: the package's, then any added."""
    if not _BOOKS:
        for module in BOOKS:
            book: SettlingBook = importlib.import_module(f"scoring.settle.{module}").SETTLING_BOOK
            _BOOKS[book.name] = book
    return {**_BOOKS, **_ADDED}


def settling_book(name: str) -> SettlingBook:
    books = settling_books()
    try:
        return books[name]
    except KeyError:
        raise SettlementError(f"unknown book {name!r}: books are {', '.join(books)}") from None


def register_settling(book: SettlingBook) -> SettlingBook:
    """Add a house book's settling; its name must be new."""
    if book.name in settling_books():
        raise ValueError(f"settling book {book.name} is registered already")
    _ADDED[book.name] = book
    return book


def unregister_settling(name: str) -> None:
    _ADDED.pop(name, None)
