"""A hand on a table beside things that are not tiles: what is boxed, what is counted in the hand.

    python bench/bench_distractors.py                  # 4 scenes a kind, every kind, fixed seeds
    python bench/bench_distractors.py --scenes 6 --kinds keyboard dominoes

Each scene is one finished hand laid flat (``pungchow_data.scene.render_scene``, its layout swapped as
``bench_latency.py`` swaps it for the whole set), photographed from above at a phone's angle, with one kind of
distractor drawn beside it on the table by OpenCV alone (``pungchow_data.distractors``; no outside pictures; the
reader's not-a-tile training crops come from the same drawings at other seeds, so these scenes are never trained on):

- ``keyboard``: a laptop's keys, rounded light squares about a tile's width, each with its letter;
- ``cards``: playing cards, white with corner indices and red or black suit marks, a few fanned;
- ``dominoes``: white oblongs with a bar and black pips, laid in a row as a domino player does: tile-shaped;
- ``text``: a block of printed lines of words on paper;
- ``cloth``: the table is a patterned cloth (checks, stripes or flowers) under the hand and all round it;
- ``stones``: black and white stone counters, discs with a highlight;
- ``none``: the hand alone on a plain or wooden table, to compare.

For each kind it prints, per photo: the boxes that are no drawn tile (IoU < 0.3 with every one), those of them
counted in the hand (in a group ``in_hand``), the hand's tiles boxed (IoU >= 0.5), boxed and counted in the hand,
and so counted and read as their face, and
whether the hand returned is the one laid out (``recognizer.evaluate.same_hand``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))

from pungchow_data.distractors import KINDS, Drawn, draw_scene  # noqa: E402
from recognizer.detect import iou_matrix  # noqa: E402
from recognizer.evaluate import same_hand  # noqa: E402
from recognizer.hand import Recognition  # noqa: E402
from recognizer.pipeline import recognize  # noqa: E402

#: A box is no tile when it overlaps every drawn tile by less than this; a tile is boxed at IoU 0.5.
NO_TILE_IOU = 0.3
BOXED_IOU = 0.5


# --- what the reader made of it ------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one photo's reading did: boxes on no tile (all, and counted in the hand), tiles boxed and read, the hand."""

    stray: int
    stray_in_hand: int
    tiles: int
    boxed: int
    boxed_in_hand: int
    read_right: int
    hand_right: bool


def judge(drawn: Drawn, res: Recognition) -> Outcome:
    """Match the reading's boxes to the drawn tiles (IoU), and its hand to the hand laid out."""
    d = res.detections
    h, w = drawn.image.shape[:2]
    boxes = res.boxes_at(w, h)
    in_hand = {k for g in res.groups if g.in_hand for k in g.members}
    if len(d) == 0:
        return Outcome(0, 0, len(drawn.codes), 0, 0, 0, False)
    iou = iou_matrix(drawn.boxes, boxes) if len(drawn.codes) else np.zeros((0, len(d)))
    stray = [k for k in range(len(d)) if not len(iou) or iou[:, k].max() < NO_TILE_IOU]
    used: set[int] = set()
    boxed = kept = right = 0
    for i, code in enumerate(drawn.codes):
        k = int(iou[i].argmax())
        if iou[i, k] >= BOXED_IOU and k not in used:
            used.add(k)
            boxed += 1
            kept += k in in_hand
            right += k in in_hand and d.code(k) == code
    hand_right = drawn.hand is not None and same_hand(res.hand, drawn.hand, drawn.winning_apart)
    return Outcome(len(stray), sum(k in in_hand for k in stray), len(drawn.codes), boxed, kept, right, hand_right)


def run(kinds: tuple[str, ...], scenes: int, first_seed: int = 3400, folder: Path | None = None) -> dict[str, list[Outcome]]:
    """Every kind's outcomes, ``scenes`` photos each (seeds ``first_seed`` on, the same for every kind), each written as
    a JPEG (quality 92) and read from the file as a player's upload is; ``folder`` keeps the photos."""
    out: dict[str, list[Outcome]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-distractors-") as tmp:
        where = folder or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        for kind in kinds:
            out[kind] = []
            for n in range(scenes):
                drawn = draw_scene(kind, first_seed + n)
                photo = where / f"{kind}-{first_seed + n}.jpg"
                cv2.imwrite(str(photo), drawn.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
                out[kind].append(judge(drawn, recognize(photo)))
    return out


def print_table(results: dict[str, list[Outcome]]) -> None:
    """One row a kind: non-tile boxes per photo (mean, worst), in the hand, tiles boxed and read, hands right."""
    head = (f"{'distractor':<11}{'photos':>7}{'stray/photo':>12}{'worst':>6}{'photos<=1':>10}{'in hand':>8}{'worst':>6}"
            f"{'boxed':>8}{'in hand':>8}{'read':>8}{'hands':>7}")
    print(head)
    print("-" * len(head))
    for kind, rows in results.items():
        n, tiles = len(rows), sum(r.tiles for r in rows) or 1
        boxed, in_hand = sum(r.boxed for r in rows) / tiles, sum(r.boxed_in_hand for r in rows) / tiles
        print(f"{kind:<11}{n:>7}{sum(r.stray for r in rows) / n:>12.2f}{max(r.stray for r in rows):>6}"
              f"{sum(r.stray <= 1 for r in rows):>6}/{n:<3}{sum(r.stray_in_hand for r in rows) / n:>8.2f}"
              f"{max(r.stray_in_hand for r in rows):>6}{boxed:>8.3f}{in_hand:>8.3f}"
              f"{sum(r.read_right for r in rows) / tiles:>8.3f}{sum(r.hand_right for r in rows):>4}/{n:<2}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=4, help="photos a kind (default 4)")
    ap.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS), help="which distractors (default all)")
    ap.add_argument("--seed", type=int, default=3400, help="the first scene's seed (default 3400)")
    ap.add_argument("--keep", type=Path, help="write the photos into this folder")
    args = ap.parse_args(argv)
    if args.scenes < 1:
        ap.error("--scenes needs a whole number of 1 or more")
    print_table(run(tuple(args.kinds), args.scenes, args.seed, args.keep))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
