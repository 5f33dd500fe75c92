"""What the two close-up benches share: their arguments, and the held-out sets they draw tiles from."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

import numpy as np

from recognizer.labels import CLASSES, NOT_A_TILE


def close_up_sets(doc: str | None, tiles: int, seed: int, faces: bool = False) -> tuple[argparse.Namespace, Any, np.random.Generator]:
    """Parsed ``--tiles --width --families --seed --marked-otherwise --formal-five`` (and ``--faces`` if asked), a ``RealCropSource``
    over those families, and the random source."""
    from pungchow_data.realsets import FAMILIES, family_names
    from recognizer.train.realcrops import RealCropSource, unknown_styles

    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tiles", type=int, default=tiles)
    ap.add_argument("--width", type=float, default=80.0, help="tile width in the photo, pixels")
    ap.add_argument("--families", nargs="+", default=["heldout"])
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--marked-otherwise", action="store_true",
                    help="every set marks its flowers and seasons in one of the ways other than a number and a name in the "
                         "top corners (realsets.OTHER_MARKS), its other choices as drawn without this")
    ap.add_argument("--formal-five", action="store_true",
                    help="every set prints its 5 of characters 伍 (realsets.FIVE_FORMALLY), its other choices as drawn without this")
    if faces:
        ap.add_argument("--faces", nargs="+", metavar="CODE", help="draw only these faces (codes such as 1B 1F WD)")
    args = ap.parse_args()
    if faces and args.faces and (unknown := [c for c in args.faces if c not in CLASSES or c == NOT_A_TILE]):
        ap.error(f"--faces: {', '.join(unknown)} {'is not a tile face' if len(unknown) == 1 else 'are not tile faces'}; "
                 "give codes such as 1B, 5C, EW, RD, 1F, XX")
    if args.tiles < 1 or not 8 <= args.width <= 400:
        ap.error("--tiles must be at least 1 and --width between 8 and 400 pixels")
    if unknown := unknown_styles(family_names(args.families)):
        ap.error(f"--families: no family named {', '.join(unknown)} (give family names, 'train', 'heldout' or 'all')")
    for name in family_names(args.families):  # this bench's process only: the families' sets drawn as they are, but...
        if name in FAMILIES:  # (a classic style has one way of marking, and prints 五)
            if args.marked_otherwise:  # ...marked otherwise
                FAMILIES[name] = replace(FAMILIES[name], marked_otherwise=1.0)
            if args.formal_five:  # ...printing the formal five
                FAMILIES[name] = replace(FAMILIES[name], formal_five=1.0)
    rng = np.random.default_rng(args.seed)
    try:
        sets = RealCropSource(family_names(args.families), rng)
    except RuntimeError as exc:
        raise SystemExit(f"{exc}: install the family fonts (the list is in .ci/run)") from None
    return args, sets, rng
