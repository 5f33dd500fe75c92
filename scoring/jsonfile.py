"""Reading JSON a user or another program handed us: limits checked before and while parsing.

Every JSON input (a hand file, a table, a tile-set layout, a dataset's annotations, a model
sidecar, a history row) goes through ``load_json`` so that a file too big for its kind, nested
100,000 deep, a 5,000-digit number, ``NaN``, a key given twice, a lone surrogate or a BOM each
get one clear message instead of a traceback, a silent guess, or gigabytes of memory. The size is
checked on the file before it is read, so a 60 MB "hand" costs nothing.

>>> load_json('\\ufeff{"a": [1, 2]}', "hand")
{'a': [1, 2]}
>>> load_json("[" * 100 + "]" * 100, "hand")
Traceback (most recent call last):
...
scoring.jsonfile.JsonInputError: the hand file is nested deeper than the 64 levels we read: it is not a hand file
>>> load_json('{"winner": true, "winner": false}', "hand")
Traceback (most recent call last):
...
scoring.jsonfile.JsonInputError: the hand file gives "winner" twice in one object: keep the one you mean
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scoring.errors import PungChowError

#: The largest JSON text read by default: a hand, table, layout or history row is a few kB.
MAX_BYTES = 2_000_000
#: The largest dataset annotations read (``recognizer.coco``): a 10,000-photo set is about 30 MB.
MAX_ANNOTATION_BYTES = 64_000_000
#: The deepest nesting read; a hand file with its trace is under 10 deep.
MAX_DEPTH = 64
#: The longest whole number read; a score or a count never comes near it.
MAX_DIGITS = 18
#: The most items in one list or object, by default: a hand holds 14-18 tiles, a table 4 players, a layout 42 codes,
#: a recognition a few hundred tiles. A schema checked item by item over 600,000 items ran 7 minutes in 4.6 GB.
MAX_ITEMS = 1000
#: The most schema problems named in one message (each a line of its own would scroll the real one away).
SHOWN_PROBLEMS = 6

#: A UTF-16 surrogate alone: JSON's ``\\ud800`` escape makes one, and no text can be written with it.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


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


def _check_values(data: Any, what: str, max_depth: int, max_items: int | None) -> None:
    """Walk the parsed value once, without recursion: refuse nesting deeper than ``max_depth``, a list or object of
    more than ``max_items``, and text holding a lone surrogate (it cannot be printed, stored or shown)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if _LONE_SURROGATE.search(value):
                shown = value.encode("utf-8", "backslashreplace")[:40].decode("ascii", "replace")
                raise JsonInputError(f"the {what} file holds text with a lone surrogate ({shown!r}): it is not text any program "
                                     "can show; retype it")
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > max_depth:
            raise JsonInputError(f"the {what} file is nested deeper than the {max_depth} levels we read: it is not a {what} file")
        if max_items is not None and len(value) > max_items:
            raise JsonInputError(f"the {what} file holds a {'list' if isinstance(value, list) else 'object'} of {len(value):,} items, "
                                 f"more than the {max_items:,} we read: it is not a {what} file")
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        stack.extend((item, depth + 1) for item in items if isinstance(item, (str, dict, list)))


def _object(what: str) -> Any:
    """The parser's hook for each JSON object: a key given twice is refused, never silently the last one."""
    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        made = dict(pairs)
        if len(made) != len(pairs):
            twice = next(key for key, n in Counter(key for key, _ in pairs).items() if n > 1)
            raise JsonInputError(f"the {what} file gives {json.dumps(twice[:40])} twice in one object: keep the one you mean")
        return made
    return build


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


def load_json(text: str | bytes, what: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
              max_items: int | None = MAX_ITEMS) -> Any:
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
    try:
        data = json.loads(text, parse_int=_whole_number, parse_float=_float, parse_constant=_no_constant,
                          object_pairs_hook=_object(what))
    except JsonInputError as exc:
        raise JsonInputError(str(exc) if str(exc).startswith(f"the {what} file") else f"the {what} file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"the {what} file is not valid JSON ({exc.msg} at line {exc.lineno}): fix or re-export it") from None
    except RecursionError:
        raise JsonInputError(f"the {what} file is nested deeper than the {max_depth} levels we read: it is not a {what} file") from None
    _check_values(data, what, max_depth, max_items)
    return data


def load_json_file(path: str | Path, what: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
                   max_items: int | None = MAX_ITEMS) -> Any:
    """The JSON in the file at ``path``; a missing, special, oversized or unreadable file is one clear error."""
    try:
        data = read_input_file(path, f"the {what} file {path}", f"a {what} JSON file", max_bytes)
    except InputFileError as exc:
        raise JsonInputError(str(exc)) from None
    return load_json(data, what, max_bytes=max_bytes, max_depth=max_depth, max_items=max_items)


def schema_problems(errors: Iterable[Any], what: str) -> list[str]:
    """A JSON Schema validator's errors as messages, a bounded few: each cut short (a message quotes the value it
    refuses, a list of 1,000 items included), the rest counted, not listed."""
    first = sorted(itertools.islice(errors, SHOWN_PROBLEMS + 1), key=lambda e: list(e.absolute_path))
    shown = [f"{what} JSON at {'/'.join(str(p) for p in e.absolute_path)[:60] or 'top level'}: {_cut(e.message)}"
             for e in first[:SHOWN_PROBLEMS]]
    return shown + (["and more: fix these first"] if len(first) > SHOWN_PROBLEMS else [])


def _cut(message: str, most: int = 160) -> str:
    return message if len(message) <= most else message[: most - 3] + "..."
