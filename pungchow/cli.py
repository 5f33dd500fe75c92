"""The ``pungchow`` command: one sub-command per step of the pipeline.

Each area registers its own sub-commands (``register(subparsers)`` in ``scoring.cli``,
``pungchow.reader``, ``webapp.cli``, ``pungchow_data.cli``), so the areas stay independent.
Errors a user can cause are printed as one line and exit with status 2; nothing else is caught,
so a real bug still shows its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from scoring.errors import PungChowError
from scoring.text import one_line

#: Modules that add sub-commands, every one part of the product but the training data's.
COMMAND_MODULES = ("scoring.cli", "scoring.settle.cli", "pungchow.reader", "webapp.cli", "pungchow_data.cli")
#: The one optional module: the training data's commands, present where that package is installed.
OPTIONAL_COMMANDS = "pungchow_data"

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """Usage mistakes exit 2 with one line, like every other user error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pungchow", description="Photograph a finished mahjong hand, check it, score it, settle the table.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if name.startswith(OPTIONAL_COMMANDS) and exc.name and exc.name.split(".")[0] == OPTIONAL_COMMANDS:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args) or 0)
    except PungChowError as exc:
        print(f"pungchow: {one_line(exc)}", file=sys.stderr)  # a name or path holding a new line or escape stays one line
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) stopped early: not an error of ours or the user's.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
