"""Reading JSON a user or another program handed us: limits checked before any parsing.

Every JSON input (a hand file, a table, a tile-set layout, a dataset's annotations, a model
sidecar, a history row) goes through ``load_json`` so that a file nested 100,000 deep, a
5,000-digit number, ``NaN`` or a BOM each get one clear message instead of a traceback.

>>> load_json('\\ufeff{"a": [1, 2]}', "hand")
{'a': [1, 2]}
>>> load_json("[" * 100 + "]" * 100, "hand")
Traceback (most recent call last):
...
scoring.jsonfile.JsonInputError: the hand file is nested 100 deep, more than the 64 we read: it is not a hand file
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from scoring.errors import PungChowError

#: The largest JSON text read; the biggest real input (a dataset's annotations) is well under this.
MAX_BYTES = 64_000_000
#: The deepest nesting read; a hand file with its trace is under 10 deep.
MAX_DEPTH = 64
#: The longest whole number read; a score or a count never comes near it.
MAX_DIGITS = 18

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class InputFileError(PungChowError, ValueError):
    """A path that is not a regular, readable file of a size we read."""


def read_input_file(path: str | Path, name: str, what: str, max_bytes: int) -> bytes:
    """The bytes of a regular file no bigger than ``max_bytes``; a folder, pipe or device is named as such.

    ``name`` says which file (for the message) and ``what`` what the user should give instead.
    """
    path = Path(path)
    try:
        if path.is_dir():
            raise InputFileError(f"{name} is a folder; give the path of {what}")
        if not path.exists():
            raise InputFileError(f"{name}: no such file; give the path of {what}")
        if not path.is_file():
            raise InputFileError(f"{name} is not a regular file (a pipe or a device); give the path of {what}")
        size = path.stat().st_size
        if size > max_bytes:
            raise InputFileError(f"{name} is {size:,} bytes, more than the {max_bytes:,} we read; give the path of {what}")
        return path.read_bytes()
    except OSError as exc:
        raise InputFileError(f"cannot read {name}: {exc.strerror or exc}") from None


class JsonInputError(PungChowError, ValueError):
    """JSON text that is too big, too deep, not JSON, or holds a value we do not read."""


def nesting_depth(text: str) -> int:
    """How deep the brackets of ``text`` go, strings left out; counted without parsing.

    >>> nesting_depth('{"a": [[1], "[[["]}')
    3
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonInputError(f"a number of {len(text.lstrip('-'))} digits ({text[:12]}...) is far bigger than any score or count")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonInputError(f"the number {text[:20]} is too big")
    return value


def _no_constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON number; give a number")


def load_json(text: str | bytes, what: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``text`` (the ``what`` file, named in messages) after checking its size and depth."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise JsonInputError(f"the {what} file is {len(text):,} bytes, more than the {max_bytes:,} we read")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonInputError(f"the {what} file is not UTF-8 text: save it as JSON in UTF-8") from None
    if len(text) > max_bytes:
        raise JsonInputError(f"the {what} file is {len(text):,} characters, more than the {max_bytes:,} we read")
    text = text.removeprefix("\ufeff")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise JsonInputError(f"the {what} file is nested {depth} deep, more than the {max_depth} we read: it is not a {what} file")
    try:
        return json.loads(text, parse_int=_whole_number, parse_float=_float, parse_constant=_no_constant)
    except JsonInputError as exc:
        raise JsonInputError(f"the {what} file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"the {what} file is not valid JSON ({exc.msg} at line {exc.lineno}): fix or re-export it") from None
    except RecursionError:
        raise JsonInputError(f"the {what} file is nested too deep to read") from None


def load_json_file(path: str | Path, what: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON in the file at ``path``; a missing, special, oversized or unreadable file is one clear error."""
    try:
        data = read_input_file(path, f"the {what} file {path}", f"a {what} JSON file", max_bytes)
    except InputFileError as exc:
        raise JsonInputError(str(exc)) from None
    return load_json(data, what, max_bytes=max_bytes, max_depth=max_depth)
