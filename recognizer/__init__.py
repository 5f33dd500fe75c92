"""Recognizer: photo -> detect -> classify -> group -> hand JSON."""
