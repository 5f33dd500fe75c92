"""Argument types shared by the sub-commands: a bad number is a usage error (exit 2), not a silent oddity."""

from __future__ import annotations

import argparse
from pathlib import Path

from scoring.errors import PungChowError


def whole_number(text: str, *, least: int, most: int | None = None) -> int:
    """``text`` as a whole number in [least, most]; anything else an argparse error naming the range."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least or (most is not None and value > most):
        span = f"at least {least}" if most is None else f"from {least} to {most}"
        raise argparse.ArgumentTypeError(f"{value} is out of range: give a whole number {span}")
    return value


def positive_int(text: str) -> int:
    """A count of at least 1 (``--count``, ``--limit``, ``--workers``)."""
    return whole_number(text, least=1)


def port(text: str) -> int:
    """A TCP port a user may serve on."""
    return whole_number(text, least=1, most=65535)


#: What cv2.imwrite can write, by extension.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")


def check_image_out(out: Path, *, force: bool = False, keep: tuple[Path, ...] = ()) -> Path:
    """An image file we may write: a known extension, an existing folder, never one of ``keep``
    (the input photo), and an existing file only with ``force``."""
    try:
        return _check_image_out(out, force=force, keep=keep)
    except OSError as exc:
        raise PungChowError(f"cannot write the image to {str(out)[:80]}: {exc.strerror or exc}") from None


def _check_image_out(out: Path, *, force: bool, keep: tuple[Path, ...]) -> Path:
    if out.suffix.lower() not in IMAGE_SUFFIXES:
        raise PungChowError(f"{out}: write the image to a name ending in {', '.join(IMAGE_SUFFIXES)}")
    if out.is_dir():
        raise PungChowError(f"{out} is a folder: give a file name ending in .png")
    if not out.parent.is_dir():
        raise PungChowError(f"{out}: the folder {out.parent} does not exist; make it first or write elsewhere")
    if out.exists():
        for path in keep:
            if path.exists() and out.samefile(path):
                raise PungChowError(f"{out} is the photo being read: write the drawing to another file, never over the photo")
        if not force:
            raise PungChowError(f"{out} exists already: give another name, or --force to replace it")
        if not out.is_file():
            raise PungChowError(f"{out} is not a regular file: give another name")
    return out


def check_dataset_out(out: Path) -> Path:
    """A dataset folder we may write into: a folder or a name not taken, never an existing file."""
    try:
        taken = out.exists() and not out.is_dir()
    except OSError as exc:
        raise PungChowError(f"cannot write a dataset to {str(out)[:80]}: {exc.strerror or exc}") from None
    if taken:
        raise PungChowError(f"{out} is a file, not a folder: a dataset is written into a folder (images/ and annotations.json)")
    return out
