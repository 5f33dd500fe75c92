"""Errors a photo, a model file or a tile set can cause, each saying what to do about it."""

from __future__ import annotations

from scoring.errors import PungChowError


class BadPhotoError(PungChowError):
    """The file is not a photo we can read (empty, truncated, not an image, far too large)."""


class ModelFileError(PungChowError):
    """A model file or its sidecar is missing, changed or does not match the code."""


class TileSetError(PungChowError):
    """A tile set that does not exist, or a calibration photo that does not match its layout."""
