"""The scoring API in one import: parse a hand, score it, settle a table."""

from scoring.arrange import Arrangement, Shape, arrangements, waiting_tiles
from scoring.engine import Citation, Option, RuleSet, Score, ScoreLine, ScoreResult
from scoring.hand import Hand, WinMethod
from scoring.melds import Meld, MeldKind
from scoring.rulesets import get_rule_set, rule_sets, score_all, score_hand
from scoring.tiles import Tile, parse_tiles

__all__ = [
    "Arrangement",
    "Citation",
    "Hand",
    "Meld",
    "MeldKind",
    "Option",
    "RuleSet",
    "Score",
    "ScoreLine",
    "ScoreResult",
    "Shape",
    "Tile",
    "WinMethod",
    "arrangements",
    "get_rule_set",
    "parse_tiles",
    "rule_sets",
    "score_all",
    "score_hand",
    "waiting_tiles",
]
