"""The hand decoder on real photos: the dev HK set photos and the dev 1922 book photos, read with and without it.

    python bench/bench_decoder_photos.py            # both folders of ../shared/realdev
    python bench/bench_decoder_photos.py --hk       # only the HK set photos
    python bench/bench_decoder_photos.py --likeness 0   # the decoder without the photo's own likeness

HK set photos (``hk-sets/photos.json``, partial labels): the share of labelled tiles that get a box (IoU >= 0.5) with
the right code, as the pipeline reads them (decoder and likeness) and with the decoder's changes undone (the tiles'
own readings). Book photos (``book-1922``, read with the tile set ``pungchow-1922`` and Harr's shapes): the share of
tiles right and the hands whose every tile is right (the hand's tiles as a multiset against the labels' rows),
with and without; and the hands **scored right from the photo**: the page's review of the reading with no tile
corrected, told only how the hand was won and the seat (the seat from the book's example in
``tests/book_hands/harr_1922.toml``), scored under harr-1922 against the photographed hand's own score: the label's sets
and winning tile scored the same way. ``scored_right_winning_tapped`` also lets the player tap the winning tile where the
reader marked none (one tap, no face changed). The book's printed total (after the errata) is printed beside it, and
``scored_as_printed`` counts against that: Example 6 prints 640 where its photographed hand scores 624
(``docs/rules-notes/harr-1922.md``). The photos are read from ``../shared``; without it the bench says so and stops.

The shipped reader was trained on these photos' tiles. ``--folds DIR`` (``fold0.onnx`` ... ``fold5.onnx``, as
``bench/bench_real.py --folds`` takes them) reads each photo with the leave-one-set-out classifier that never saw it
(``bench_real.Models``, ``fold_of``): the figure the hidden photos are nearer to.

    python bench/bench_decoder_photos.py --folds artifacts/folds4
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import tomllib

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "datasets")]

sys.path.insert(0, str(ROOT / "bench"))

from bench_real import Models, fold_of  # noqa: E402

from recognizer.hand import Recognition  # noqa: E402
from recognizer.pipeline import recognize  # noqa: E402

if TYPE_CHECKING:
    from scoring.hand import Hand

REALDEV = ROOT.parent / "shared" / "realdev"
BOOK_HANDS = ROOT / "tests" / "book_hands" / "harr_1922.toml"


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two (x, y, w, h) boxes."""
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    return float(inter / (a[2] * a[3] + b[2] * b[3] - inter)) if inter else 0.0


def both_readings(res: Recognition) -> tuple[list[str], list[str]]:
    """The codes the pipeline gives, and the same with the decoder's changes undone."""
    decoded = [res.detections.code(k) for k in range(len(res.detections))]
    own = list(decoded)
    for change in res.decoding.changes if res.decoding else ():
        own[change.tile] = change.was
    return decoded, own


def searched(res: Recognition) -> str:
    """How long the decoder searched the photo: its steps (the budget's unit, ``decode.BUDGET_STEPS``) and ms."""
    d = res.decoding
    if d is None:
        return "not decoded"
    return f"decoded in {d.steps} steps{'' if d.complete else ' (cut short)'}, {d.ms:.1f} ms"


def hk_photos(models: Models) -> dict[str, float]:
    labels = json.loads((REALDEV / "hk-sets" / "photos.json").read_text())
    right = {"decoder": 0, "own": 0}
    total = 0
    for name, photo in sorted(labels.items()):
        path = REALDEV / "hk-sets" / "photos" / name
        models.use(fold_of(name))
        res = recognize(path)
        w, h = res.own_size
        boxes = res.boxes_at(w, h)
        decoded, own = both_readings(res)
        for tile in photo["tiles"]:
            total += 1
            box = np.array(tile["box"], np.float64)
            overlaps = [iou(box, b) for b in boxes]
            k = int(np.argmax(overlaps)) if overlaps else -1
            if k >= 0 and overlaps[k] >= 0.5:
                right["decoder"] += decoded[k] == tile["code"]
                right["own"] += own[k] == tile["code"]
        changed = len(res.decoding.changes) if res.decoding else 0
        print(f"  {name}: {len(res.detections)} tiles read, changed {changed}, {searched(res)}", file=sys.stderr)
    return {"labelled_tiles": total, **{k: round(v / total, 4) for k, v in right.items()}}


def book_photos(models: Models) -> dict[str, object]:
    folder = REALDEV / "book-1922"
    hands = {"decoder": 0, "own": 0}
    tiles = {"decoder": 0, "own": 0}
    total = n = 0
    book = {e["id"]: e for e in tomllib.loads(BOOK_HANDS.read_text())["example"]}
    scored = {"no_correction": 0, "winning_tapped": 0, "as_printed": 0}
    for label_path in sorted((folder / "labels").glob("example_*.json")):
        label = json.loads(label_path.read_text())
        want = Counter(code for row in label["rows"] for code in row["tiles"])
        models.use(fold_of(label_path.stem))
        res = recognize(folder / "photos" / label["image"], "pungchow-1922", "harr-1922")
        in_hand = {k for g in res.groups if g.in_hand for k in g.members}
        decoded, own = both_readings(res)
        n += 1
        total += sum(want.values())
        for name, codes in (("decoder", decoded), ("own", own)):
            got = Counter(codes[k] for k in sorted(in_hand))
            hands[name] += got == want
            tiles[name] += sum((got & want).values())
        example = book[f"I-{label_path.stem.split('_')[1]}"]
        seat = str(label.get("seat_wind") or example.get("seat", "E"))[0]
        truth = photographed_score(label, seat)
        printed = label.get("book_score_corrected") or label["book_score"]
        said, tapped = scored_from_the_photo(res, str(label["winning_tile"]), WON_BY[label["win_by"]], seat)
        scored["no_correction"] += said == truth
        scored["winning_tapped"] += truth in (said, tapped)
        scored["as_printed"] += said == printed
        changes = res.decoding.changes if res.decoding else ()
        print(f"  {label['image']}: scored {said} / {tapped} (photographed hand {truth}, book prints {printed}); "
              f"changes {[str(c) for c in changes]}; {searched(res)}", file=sys.stderr)
    return {"hands": n, "hands_all_tiles_right": hands, "tiles": total, "tiles_right": {k: round(v / total, 4) for k, v in tiles.items()},
            "scored_right": scored["no_correction"], "scored_right_winning_tapped": scored["winning_tapped"],
            "scored_as_printed": scored["as_printed"]}


#: How a label says the hand was won, in the page's words.
WON_BY = {"draw": "wall", "discard": "discard", "loose_tile": "loose-tile"}


def photographed_hand(label: dict[str, Any], seat: str) -> Hand:
    """The hand a book photo's label describes: its sets as laid out, the set a claimed discard completed back among
    the concealed tiles (the scorer lays it out as claimed), its winning tile and how it came."""
    from scoring.hand import Hand

    concealed = Counter(label["concealed"])
    loose: list[str] = []
    declared: list[str] = []
    claimed = label["win_by"] == "discard"
    for meld in label["melds"]:
        tiles = Counter(meld["tiles"])
        held = tiles - Counter([label["winning_tile"]])
        if claimed and meld["exposed"] and label["winning_tile"] in tiles and not held - concealed:
            loose += meld["tiles"]  # the set the discard completed: two of it were held
            concealed -= held
            claimed = False
        elif meld["exposed"]:
            declared.append("[" + "".join(meld["tiles"]) + "]")
        elif meld["kind"] == "kong":
            declared.append("(" + "".join(meld["tiles"]) + ")")
        else:
            loose += meld["tiles"]
            concealed -= tiles
    return Hand.parse("".join(loose) + " " + " ".join(declared), winning_tile=label["winning_tile"],
                      won_by=WON_BY[label["win_by"]], seat_wind=seat)


def photographed_score(label: dict[str, Any], seat: str) -> int:
    from scoring.rulesets import score_hand

    return int(score_hand(photographed_hand(label, seat), "harr-1922").total)


def scored_from_the_photo(res: Recognition, winning: str, won_by: str, seat: str) -> tuple[int | None, int | None]:
    """The total the page gives the photo's reading under harr-1922 with no tile corrected, told how the hand was won
    and the seat; and the same with the winning tile tapped where the reader marked none (None: no score)."""
    from scoring.errors import PungChowError
    from scoring.rulesets import score_hand
    from webapp import review as rv

    review = rv.set_circumstances(rv.Review.from_recognition(res), won_by=won_by, seat_wind=seat, prevailing_wind="E")

    def total(r: rv.Review) -> int | None:
        hand, problems = rv.to_hand(r)
        if hand is None or problems:
            return None
        try:
            return int(score_hand(hand, "harr-1922").total)
        except PungChowError:  # a hand the scorer refuses is scored wrong, not a failed bench
            return None

    said = total(review)
    if review.winning_tile is None:
        winner = next((t.id for t in reversed(review.tiles) if t.in_hand and t.code == winning), None)
        return said, total(rv.set_winning_tile(review, winner)) if winner is not None else said
    return said, said


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hk", action="store_true", help="only the HK set photos")
    ap.add_argument("--book", action="store_true", help="only the 1922 book photos")
    ap.add_argument("--likeness", type=float, default=None, help="the likeness pull's weight (default: the product's; 0: off)")
    ap.add_argument("--folds", type=Path, default=None, help="read each photo with the leave-one-set-out classifier that never saw it")
    args = ap.parse_args()
    if args.likeness is not None:
        import recognizer.likeness

        recognizer.likeness.WEIGHT = args.likeness
    if not REALDEV.is_dir():
        print(f"skipped: the real dev photos are not here ({REALDEV}); the bench reads them from ../shared beside the clone")
        return 0
    report: dict[str, object] = {"reader": f"held out ({args.folds})" if args.folds else "shipped"}
    models = Models(args.folds)
    try:
        if not args.book:
            report["hk_photos"] = hk_photos(models)
        if not args.hk:
            report["book_photos"] = book_photos(models)
    finally:
        models.close()
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
