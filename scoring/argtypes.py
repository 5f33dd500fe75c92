"""Argument types and safe file writing shared by every package's sub-commands: a bad number is a usage error (exit 2),
not a silent oddity. It lies at the bottom layer, beside the shared errors, so each package's commands use it without
looking up to ``pungchow/``."""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import socket
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from scoring.errors import PungChowError

if TYPE_CHECKING:
    import numpy as np


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


#: A host name as DNS spells one: labels of letters, digits and hyphens.
_HOST_NAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")


def address(text: str) -> str:
    """An address the page may listen on: an IP address, or a host name this machine can look up."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        pass
    if re.fullmatch(r"[0-9.]+", text) or not _HOST_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not an IP address or host name: give e.g. localhost, 127.0.0.1 or 0.0.0.0")
    try:
        socket.getaddrinfo(text, None)
    except (OSError, UnicodeError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a name this machine can look up: give e.g. localhost or 0.0.0.0") from None
    return text


def inside(folder: Path, name: str, what: str = "a file") -> Path:
    """``folder / name`` when it stays inside ``folder``: a name from a file we read (``../x``, ``/etc/x``, a link out)
    never makes a command read or write elsewhere."""
    try:
        target = (folder / name).resolve()
        home = folder.resolve()
    except (OSError, ValueError, RuntimeError) as exc:
        raise PungChowError(f"{what} named {name[:80]!r} cannot be used: {exc}") from None
    if not target.is_relative_to(home) or target == home:
        raise PungChowError(f"{what} named {name[:80]!r} lies outside {folder}: names must stay inside the folder; fix the name")
    return target


def write_atomically(out: Path, data: bytes) -> Path:
    """Write ``data`` beside ``out``, then move it over: a full disk or a failure midway leaves any old file whole."""
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name[:60]}.", suffix=".part", dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    return out


def write_image(out: Path, bgr: np.ndarray) -> Path:
    """Encode ``bgr`` by ``out``'s extension, then write it whole (``write_atomically``); one clear error if it cannot be."""
    import cv2

    try:
        ok, buf = cv2.imencode(out.suffix.lower(), bgr)
        if not ok:
            raise PungChowError(f"cannot encode the image as {out.suffix}: write it to a .png or .jpg")
        return write_atomically(out, buf.tobytes())
    except OSError as exc:
        raise PungChowError(f"cannot write the image to {str(out)[:80]}: {exc.strerror or exc}; free some space or write elsewhere "
                            "(any file there before is unchanged)") from None


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
    """A dataset folder we may write into: a new name or a folder holding no dataset, never an existing file."""
    try:
        taken = out.exists() and not out.is_dir()
        holds = out.is_dir() and any((out / part).exists() for part in ("annotations.json", "images"))
    except OSError as exc:
        raise PungChowError(f"cannot write a dataset to {str(out)[:80]}: {exc.strerror or exc}") from None
    if taken:
        raise PungChowError(f"{out} is a file, not a folder: a dataset is written into a folder (images/ and annotations.json)")
    if holds:
        raise PungChowError(f"{out} already holds a dataset (annotations.json or images/): write to a new folder; "
                            "nothing there is replaced")
    return out
