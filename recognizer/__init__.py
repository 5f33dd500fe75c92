"""Recognizer: photo -> detect -> classify -> group -> hand JSON."""

from pathlib import Path

#: The photo ``pungchow photo`` reads when given none: a finished hand, shipped with the program.
SAMPLE_PHOTO = Path(__file__).resolve().parent / "samples" / "finished-hand.jpg"
