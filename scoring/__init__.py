"""Scoring: tiles, hands, arrangements, rule sets, settlement."""
