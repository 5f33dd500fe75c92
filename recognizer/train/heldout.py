"""The generalisation check of a classifier: held-out real-set families upright and turned, and leo test.

    PUNGCHOW_MODELS=DIR python -m recognizer.train.heldout data/real-heldout data/rec-leo

prints one line per dataset: tile F1, the accuracy (recall) on flowers and seasons and on the white
dragon, and, for the turned copies (``DATASET-r90`` etc., made by ``pungchow data rotate``), the
F1 drop from upright. ``PUNGCHOW_MODELS`` picks the models folder (a candidate in artifacts/, say).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from recognizer.evaluate import evaluate
from scoring.tiles import BONUS_CODES


def recall(per_class: dict[str, dict[str, float]], codes: tuple[str, ...]) -> float | None:
    """Share of the labelled tiles of ``codes`` read right: F1 * (labelled + read) / 2 gives the hits."""
    gt = sum(per_class.get(c, {}).get("gt", 0) for c in codes)
    hits = sum(per_class[c]["f1"] * (per_class[c]["gt"] + per_class[c]["pred"]) / 2 for c in codes if c in per_class)
    return round(hits / gt, 4) if gt else None


def line(path: str, split: str) -> dict[str, Any]:
    s = evaluate(path, split)
    return {"dataset": path, "split": split, "f1": s["f1"], "detection_recall": s["detection_recall"],
            "bonus_accuracy": recall(s["per_class"], BONUS_CODES), "white_dragon_accuracy": recall(s["per_class"], ("WD",)),
            "latency_median_ms": s["latency_ms"].get("median") if isinstance(s["latency_ms"], dict) else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("heldout", help="held-out family scenes (split test); DATASET-r90/-r180/-r270 are read when present")
    ap.add_argument("leo", nargs="?", help="the leo dataset (split test)")
    ap.add_argument("--json", help="also write the lines to this file")
    args = ap.parse_args()
    rows = [line(args.heldout, "test")]
    for deg in (90, 180, 270):
        turned = f"{args.heldout.rstrip('/')}-r{deg}"
        if Path(turned).is_dir():
            row = line(turned, "test")
            row["f1_drop_from_upright"] = round(rows[0]["f1"] - row["f1"], 4)
            rows.append(row)
    if args.leo:
        rows.append(line(args.leo, "test"))
    for r in rows:
        print(json.dumps(r), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
