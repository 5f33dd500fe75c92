"""Pung Chow: photograph a finished mahjong hand, check it, score it, settle the table."""

__version__ = "0.1.0"
